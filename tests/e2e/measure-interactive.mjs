// Not a test: how long the lesson takes to answer on a phone (#29). In headless Chromium with
// Lighthouse's mobile conditions set through the DevTools protocol (4x CPU slowdown, 150 ms
// round trip, 1.6 Mbps down, 750 kbps up, cache off) and the files served gzip-compressed as a
// static host would, it measures from the navigation until pressing `play-pause` first moves
// `step-index`, and prints the timeline: the html, each script, stylesheet, wasm file and
// catalog arriving (with its bytes on the wire, and when the browser asked for it), the page's
// root drawn (mount), the Play button usable, the first step shown, and the bytes that came
// before Play. The press is made by the page itself, as soon as the button is there and
// enabled (checked every animation frame).
//
// node tests/e2e/measure-interactive.mjs [rounds] [query]   (after a release build in dist/)
// LANGS=en,ru (default) picks the languages; each round is a fresh browser context.
// DIST=<folder> (relative to the repository; default dist) measures another build.
// RAFTSCOPE=<folder> (a checkout of github.com/ongardie/raftscope with its two submodules) also
// measures RaftScope the same way, in the same run, until its five servers are drawn (from
// then on it answers), for #29's comparison.
import { join } from 'node:path';
import { ROOT, launchChromium } from './harness.mjs';
import { serve } from './server.mjs';

const rounds = Number(process.argv[2] ?? 3);
const query = process.argv[3] ?? 'scenario=naive';
const langs = (process.env.LANGS ?? 'en,ru').split(',').filter(Boolean);
// Lighthouse's mobile screen (Moto G Power) and its throttling.
const VIEWPORT = { width: 412, height: 823 };
const NETWORK = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
const SLOWDOWN = 4;

/** In the page before anything runs: presses Play as soon as it can and notes the moments. */
const watch = () => {
  window.__t = {};
  const mark = (name) => {
    if (window.__t[name] === undefined) window.__t[name] = performance.now();
  };
  const tick = () => {
    // The wasm's root (the static first screen is an .idem-shell).
    if (document.querySelector('.idem-lab:not(.idem-shell)')) mark('mount');
    const play = document.querySelector('[data-testid=play-pause]');
    const index = document.querySelector('[data-testid=step-index]');
    if (play && !play.disabled && index && window.__t.play === undefined) {
      window.__t.stepBefore = index.textContent;
      mark('play');
      play.click();
    }
    if (window.__t.play !== undefined && index && index.textContent !== window.__t.stepBefore) {
      mark('step');
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};

/** In RaftScope's page before anything runs: notes when its servers are drawn. */
const watchRaftScope = () => {
  window.__t = {};
  const tick = () => {
    if (document.querySelectorAll('#servers .server').length >= 5) {
      window.__t.step = performance.now();
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`.padStart(8);

const site = await serve(join(ROOT, process.env.DIST ?? 'dist'), '/course/lab/', { gzip: true });
const raftScope = process.env.RAFTSCOPE ? await serve(process.env.RAFTSCOPE, '/raftscope/', { gzip: true, csp: "default-src * 'unsafe-inline' 'unsafe-eval'" }) : null;
const browser = await launchChromium();
try {
  for (const lang of [...langs, ...(raftScope ? ['raftscope'] : [])]) {
    const raft = lang === 'raftscope' ? raftScope : null;
    const firstSteps = [];
    for (let round = 1; round <= rounds; round++) {
      const context = await browser.newContext({ viewport: VIEWPORT, isMobile: true, hasTouch: true, serviceWorkers: 'block' });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', NETWORK);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN });
      // Bytes on the wire per request, as the network saw them.
      const wire = new Map();
      cdp.on('Network.loadingFinished', (e) => wire.set(e.requestId, e.encodedDataLength));
      const urls = new Map();
      cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
      await page.addInitScript(raft ? watchRaftScope : watch);
      await page.goto(raft ? `${raft.url}index.html` : `${site.url}?${query}&lang=${lang}`);
      await page.waitForFunction(() => window.__t?.step !== undefined, null, { timeout: 120_000 });
      const t = await page.evaluate(() => window.__t);
      const resources = await page.evaluate(() =>
        performance.getEntriesByType('resource').map((r) => ({ name: r.name, end: r.responseEnd, start: r.startTime })));
      const nav = await page.evaluate(() => performance.getEntriesByType('navigation')[0]?.responseEnd ?? 0);
      const bytes = new Map();
      for (const [id, url] of urls) if (wire.has(id)) bytes.set(url, wire.get(id));
      const name = (url) => new URL(url).pathname.split('/').pop() || 'index.html';
      const rows = [{ at: nav, what: 'index.html', bytes: bytes.get([...urls.values()][0]) ?? 0 }];
      for (const r of resources) rows.push({ at: r.end, from: r.start, what: name(r.name), bytes: bytes.get(r.name) ?? 0 });
      if (raft) {
        rows.push({ at: t.step, what: '— the five servers drawn (RaftScope answers)' });
      } else {
        rows.push({ at: t.mount, what: '— the page drawn (mount)' });
        rows.push({ at: t.play, what: '— Play usable (pressed)' });
        rows.push({ at: t.step, what: '— the first step shown' });
      }
      rows.sort((a, b) => a.at - b.at);
      const until = raft ? t.step : t.play;
      const before = rows.filter((r) => r.bytes && r.at <= until).reduce((n, r) => n + r.bytes, 0);
      console.log(`\n${lang}, round ${round} (${raft ? 'RaftScope' : `?${query}`}):`);
      for (const r of rows) console.log(`  ${fmt(r.at)}  ${r.what}${r.bytes ? `  ${(r.bytes / 1000).toFixed(1)} KB` : ''}` +
          `${r.from !== undefined ? ` (asked at ${fmt(r.from).trim()})` : ''}`);
      console.log(`  bytes before ${raft ? 'the servers' : 'Play'}: ${(before / 1000).toFixed(1)} KB on the wire`);
      firstSteps.push(t.step);
      await context.close();
    }
    const what = raft ? 'RaftScope: servers drawn' : `${lang}: first step after Play`;
    console.log(`\n${what}, median of ${rounds}: ${fmt(median(firstSteps)).trim()} ` +
      `(${firstSteps.map((x) => fmt(x).trim()).join(', ')})`);
  }
} finally {
  await browser.close();
  await site.close();
  await raftScope?.close();
}
