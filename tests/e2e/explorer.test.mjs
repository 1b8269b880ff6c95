// "Try every failure" in Web Workers (#28): the page searches in the search worker (one per
// spare core), shows progress, stops at once, and gives the same report as the same module on
// the main thread, which is where it searches when a worker cannot start (a CSP that forbids
// workers, the worker's file missing) and says it is slower. A widget mounted by a course page
// searches the same way, its worker found next to the module under the lesson's sub-path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { join } from 'node:path';
import { labForFile, catalog, watchErrors, ready, shot, ROOT, DESKTOP } from './harness.mjs';
import { serve, CSP } from './server.mjs';

const lab = labForFile();
const en = catalog('en');

/** Runs a search with bound `k` and waits for its result to be done. */
async function search(page, k, timeout = 120_000) {
  await page.getByTestId('explore-k').selectOption(String(k));
  await page.getByTestId('explore-run').click();
  const result = page.locator('[data-testid=explore-result][data-state=done]');
  await result.waitFor({ timeout });
  return result;
}

/** What a finished search says: its numbers, where it ran, and its counter-examples. */
async function found(page) {
  const result = page.getByTestId('explore-result');
  const attr = (name) => result.getAttribute(name);
  return {
    runs: await attr('data-runs'),
    violations: await attr('data-violations'),
    faults: await attr('data-faults'),
    workers: await attr('data-workers'),
    listed: await page.getByTestId('counterexample').allInnerTexts(),
  };
}

/** Counts the workers the page creates and terminates (installed before the page's script). */
async function countWorkers(page) {
  await page.addInitScript(() => {
    window.__workers = { created: 0, terminated: 0 };
    const Original = window.Worker;
    window.Worker = class extends Original {
      constructor(...args) {
        super(...args);
        window.__workers.created += 1;
      }
      terminate() {
        window.__workers.terminated += 1;
        super.terminate();
      }
    };
  });
}

/** A browser page on the lesson served with another content-security policy. */
async function withPolicy(csp, query) {
  const site = await serve(join(ROOT, 'dist'), '/course/lab/', { csp });
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors = watchErrors(page, { ignore: /violates the following Content Security Policy directive: "worker-src 'none'"/ });
  await page.goto(`${site.url}?${query}`);
  await ready(page);
  return { page, errors, close: async () => { await context.close(); await site.close(); } };
}

test('the search runs in workers and equals the same search on the main thread', async () => {
  const page = await lab.open('scenario=key');
  await search(page, 2);
  const workers = await found(page);
  assert.ok(Number(workers.workers) >= 1, `workers: ${workers.workers}`);
  // Workers are the normal case: the student is told nothing about them (#42 item 4).
  assert.equal(await page.getByTestId('explore-where').count(), 0);
  assert.ok(Number(workers.runs) > 1000 && workers.listed.length > 0, JSON.stringify(workers));
  await page.getByTestId('explore-result').scrollIntoViewIfNeeded();
  await shot(page, 'explorer-workers-1280-en', false);
  await page.context().close();

  // A page whose policy forbids workers searches on its main thread and says it is slower.
  const forbidden = await withPolicy(`${CSP}; worker-src 'none'`, 'scenario=key');
  await search(forbidden.page, 2);
  const here = await found(forbidden.page);
  assert.equal(here.workers, '0');
  assert.equal(await forbidden.page.getByTestId('explore-where').innerText(), en.get('ui.explore_main_thread_done'));
  assert.deepEqual({ ...here, workers: null }, { ...workers, workers: null });
  await forbidden.page.getByTestId('explore-where').scrollIntoViewIfNeeded();
  await shot(forbidden.page, 'explorer-main-thread-1280-en', false);
  assert.deepEqual(forbidden.errors, []);
  await forbidden.close();
});

test('a worker whose file is missing gives way to the main thread', async () => {
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  // The browser reports the missing file itself; the page says nothing of its own.
  const errors = watchErrors(page, { ignore: /^Failed to load resource|idem-worker_loader/ });
  // (A worker's own requests go through the context's routes, not the page's.)
  await context.route(/idem-worker_loader\.js$/, (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto(`${lab.site.url}?scenario=naive`);
  await ready(page);
  await search(page, 1);
  const result = await found(page);
  assert.equal(result.workers, '0');
  assert.ok(Number(result.runs) > 0 && result.listed.length > 0, JSON.stringify(result));
  assert.deepEqual(errors, []);
  await context.close();
});

test('progress is shown while the workers search, and Stop ends them at once', async () => {
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await countWorkers(page);
  await page.goto(`${lab.site.url}?scenario=scope`);
  await ready(page);
  await page.getByTestId('explore-k').selectOption('3');
  // Every distinct progress line the result shows while it runs (runs and steps so far).
  await page.evaluate(() => {
    window.__runs = [];
    new MutationObserver(() => {
      const result = document.querySelector('[data-testid=explore-result]');
      if (result?.getAttribute('data-state') !== 'running') return;
      const line = result.textContent;
      if (/\d/.test(line) && window.__runs.at(-1) !== line) window.__runs.push(line);
    }).observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
  });
  await page.getByTestId('explore-run').click();
  // Two updates of the totals while it runs (a search at k = 3 here takes seconds).
  await page.waitForFunction(() => window.__runs.length >= 2, null, { timeout: 60_000 });
  const progress = await page.evaluate(() => window.__runs);
  assert.notEqual(progress[0], progress[1]);
  assert.equal(await page.getByTestId('explore-result').getAttribute('data-state'), 'running');
  const { created } = await page.evaluate(() => window.__workers);
  assert.ok(created >= 1, `workers created: ${created}`);
  const searching = await page.evaluate(() => window.__workers.created);
  await page.getByTestId('explore-stop').click();
  // Stopped in the click's own task: the totals so far, marked partial, and every worker that
  // searched gone (the focus, back on Run, may start the next search's workers ahead).
  const stopped = await page.evaluate(() => ({
    state: document.querySelector('[data-testid=explore-result]').getAttribute('data-state'),
    runs: document.querySelector('[data-testid=explore-result]').getAttribute('data-runs'),
    workers: window.__workers,
    running: window.__runs.length,
  }));
  assert.equal(stopped.state, 'partial');
  assert.equal(stopped.workers.terminated, searching);
  assert.ok(Number(stopped.runs) > 0);
  // Nothing more comes: ten frames later the totals are the same.
  await page.evaluate(() => new Promise((ok) => {
    let n = 10;
    const frame = () => (--n ? requestAnimationFrame(frame) : ok());
    requestAnimationFrame(frame);
  }));
  assert.equal(await page.getByTestId('explore-result').getAttribute('data-runs'), stopped.runs);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a widget mounted by a course page searches in workers too', async () => {
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(lab.site.url + 'demo.html');
  await page.waitForSelector('html[data-ready=true]');
  await page.evaluate(async () => {
    const el = document.createElement('div');
    el.id = 'search-widget';
    document.body.append(el);
    await window.idemLab.mount(el, { scenario: 'naive', compact: false }).ready();
  });
  const widget = page.locator('#search-widget');
  await widget.getByTestId('explore-k').selectOption('1');
  await widget.getByTestId('explore-run').click();
  await widget.locator('[data-testid=explore-result][data-state=done]').waitFor({ timeout: 60_000 });
  const result = widget.getByTestId('explore-result');
  assert.ok(Number(await result.getAttribute('data-workers')) >= 1);
  assert.ok(Number(await result.getAttribute('data-violations')) > 0);
  assert.ok((await widget.getByTestId('counterexample').count()) > 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('with four cores, three workers share the units; one that starts late still merges right', async () => {
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 4 });
  });
  // The first worker's module arrives late: the others do the units, and the merge must go to
  // one that is listening.
  let first = true;
  await context.route(/idem-worker_loader\.js$/, async (route) => {
    if (first) {
      first = false;
      await new Promise((ok) => setTimeout(ok, 1500));
    }
    await route.continue();
  });
  await page.goto(`${lab.site.url}?scenario=key`);
  await ready(page);
  await search(page, 2);
  const many = await found(page);
  assert.equal(many.workers, '3');
  // The same search on one worker (the page's own numbers on this 2-core machine).
  const one = await lab.open('scenario=key');
  await search(one, 2);
  const single = await found(one);
  assert.deepEqual({ ...many, workers: null }, { ...single, workers: null });
  assert.deepEqual(errors, []);
  await context.close();
  await one.context().close();
});
