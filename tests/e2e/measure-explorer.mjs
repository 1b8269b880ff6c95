// Not a test: how long "Try every failure" takes in headless Chromium against dist/ (a release
// build), for every scenario at k = 2 and 3 (or those named), in the page's search workers.
//
//   node tests/e2e/measure-explorer.mjs [k ...] [--only id,id] [--main] [--rounds n]
//
// For each search it prints: the time from the click on Run until the result says done (the
// search in the workers, the merge, and the counter-examples put into words on the page), the
// number of workers (0: on the main thread), the longest task on the page's main thread while
// it ran (PerformanceObserver 'longtask' reports tasks over 50 ms; "-" when there was none),
// and the longest gap between two progress updates of the result. `--main` serves the page
// with a policy that forbids workers, so it searches on its main thread (the fallback).
// The workers are started as a student's pointer reaching the controls starts them (`warm`).
import { join } from 'node:path';
import { start, ready, ROOT } from './harness.mjs';
import { serve, CSP } from './server.mjs';

const args = process.argv.slice(2);
const value = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
const ks = args.filter((a, i) => /^\d$/.test(a) && !['--only', '--rounds'].includes(args[i - 1])).map(Number);
const only = value('--only')?.split(',');
const rounds = Number(value('--rounds') ?? 1);
const main = args.includes('--main');
const IDS = ['naive', 'key', 'cas', 'counter-naive', 'counter', 'cas-naive', 'counter-no-index',
  'missing-key', 'key-reuse', 'key-reuse-no-fingerprint', 'concurrent', 'concurrent-no-lock', 'ttl',
  'scope', 'scope-off', 'evict', 'crash-window', 'crash-no-forward', 'crash-one-tx', 'lease-expiry',
  'lease-fencing', 'cas-race', 'fully-protected'];

const lab = await start();
const site = main
  ? await serve(join(ROOT, 'dist'), '/course/lab/', { csp: `${CSP}; worker-src 'none'` })
  : lab.site;
const cores = await (async () => {
  const page = await lab.browser.newPage();
  const n = await page.evaluate(() => navigator.hardwareConcurrency);
  await page.close();
  return n;
})();
console.log(`navigator.hardwareConcurrency = ${cores}${main ? ', workers forbidden (main thread)' : ''}`);
const rows = [];
try {
  for (let round = 1; round <= rounds; round++) {
    for (const k of ks.length ? ks : [2, 3]) {
      for (const id of only ?? IDS) {
        const context = await lab.browser.newContext();
        const page = await context.newPage();
        await page.goto(`${site.url}?scenario=${id}`);
        await ready(page);
        await page.getByTestId('explore-k').selectOption(String(k));
        await page.getByTestId('explore-run').hover();
        await page.evaluate(() => {
          window.__long = [];
          window.__updates = [];
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) window.__long.push(e.duration);
          }).observe({ type: 'longtask', buffered: false });
          new MutationObserver(() => {
            const r = document.querySelector('[data-testid=explore-result]');
            if (!r) return;
            const state = r.getAttribute('data-state');
            if (state === 'running') window.__updates.push(performance.now());
            if (state && state !== 'running' && window.__done === undefined) window.__done = performance.now();
          }).observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
          document.querySelector('[data-testid=explore-run]').addEventListener(
            'click', () => { window.__t0 = performance.now(); }, { capture: true });
        });
        await page.getByTestId('explore-run').click();
        await page.locator('[data-testid=explore-result][data-state=done]').waitFor({ timeout: 600_000 });
        // Long tasks are reported after they end.
        await page.waitForTimeout(200);
        const m = await page.evaluate(() => {
          const gaps = window.__updates.map((t, i, all) => (i ? t - all[i - 1] : t - window.__t0));
          return {
            ms: window.__done - window.__t0,
            longest: window.__long.length ? Math.max(...window.__long) : null,
            gap: gaps.length ? Math.max(...gaps, window.__done - window.__updates.at(-1)) : null,
            workers: document.querySelector('[data-testid=explore-result]').getAttribute('data-workers'),
            runs: document.querySelector('[data-testid=explore-result]').getAttribute('data-runs'),
          };
        });
        rows.push({ id, k, ...m });
        console.log(
          `k=${k} ${id.padEnd(26)} ${m.ms.toFixed(0).padStart(6)} ms to done, ${m.runs.padStart(8)} runs, ` +
            `workers ${m.workers}, longest main-thread task ${m.longest === null ? '-' : `${m.longest.toFixed(0)} ms`}, ` +
            `longest wait for progress ${m.gap === null ? '-' : `${m.gap.toFixed(0)} ms`}`,
        );
        await context.close();
      }
    }
  }
} finally {
  if (main) await site.close();
  await lab.close();
}
for (const k of ks.length ? ks : [2, 3]) {
  const at = rows.filter((r) => r.k === k);
  if (!at.length) continue;
  const worst = at.reduce((a, b) => (b.ms > a.ms ? b : a));
  const longest = Math.max(0, ...at.map((r) => r.longest ?? 0));
  console.log(`k=${k}: slowest ${worst.id} ${worst.ms.toFixed(0)} ms; longest main-thread task over all: ${longest ? `${longest.toFixed(0)} ms` : 'none over 50 ms'}`);
}
