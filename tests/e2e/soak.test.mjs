// Soak: thousands of steps (step forward and back, play, run to end, restart, switching
// stories) and many explorer runs in one page, in five rounds; the JS heap (after a forced
// garbage collection) and the wasm memory (memory.buffer.byteLength) are measured after each.
//
// Measured (Chromium, 10 000 steps + 50 runs): the JS heap stays within 0.1 MB of round one,
// and so does the wasm memory: 1.75 -> 1.81 MB over rounds 2-5 (one page of 64 KiB) on
// 2026-12-01, down from 1.94 -> 2.75 MB (13 pages) before. The leak was two things in Leptos
// 0.8's reactive_graph, see crates/web/src/keyed.rs: every row of a `<For>` left its owner's
// allocation in the list's owner, and every reactive closure that was dropped stayed in the
// subscriber list of the memos and the hardly-changing signals (layout, language) it read.
// A story switch still left ~1.6 KB (2026-12-07): the protection toggles' limits read the design
// memo and the language, the prediction buttons the guess (set only by a guess); at full size
// 2.06 -> 2.38 MB. Since then, at full size: 1.94 -> 2.00 MB, one page, flat after round two.
// The playback switches story only once per story played through (~12 times a round at 2 500
// steps), too few for that leak to pass the bound, so each round also switches stories
// SOAK_SWITCHES times (default 50): main failed it at 2.06 -> 2.44 MB with 80. A small
// remainder (~200 bytes a switch, not found yet) shows with hundreds of switches a round. The
// bound is that measured growth plus a page; a real leak of kilobytes per step still fails it,
// and the figures are printed.
// The search workers are measured too (issue 45): every worker a search starts is terminated by
// the end of its round (at most a pool of spares, started ahead when the controls are reached,
// and one prevention check may be alive), and a worker's wasm memory after each round is that of
// round one, within the same bound, so neither workers nor their memory pile up.
// SOAK_STEPS (default 10 000), SOAK_EXPLORER_RUNS (default 50) and SOAK_SWITCHES (story switches
// a round besides the playback's, default 50) set the amount of work.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, DESKTOP } from './harness.mjs';

const STEPS = Number(process.env.SOAK_STEPS ?? 10_000);
const EXPLORER_RUNS = Number(process.env.SOAK_EXPLORER_RUNS ?? 50);
// Story switches per round, besides those of the playback (see switchWork).
const SWITCHES = Number(process.env.SOAK_SWITCHES ?? 50);
const ROUNDS = 5;
// Allowed wasm growth after round one, in 64 KiB pages (see above: measured 1).
const WASM_GROWTH_PAGES = 2;

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

/** JS heap in use after a full garbage collection, and the wasm memory, in bytes. */
async function memory(page, cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const wasm = await page.evaluate(async () => {
    const module = await import('./idem-web.js');
    // Initialising again returns the running instance's exports.
    const exports = await module.default();
    return exports.memory.buffer.byteLength;
  });
  return { heap: usedSize, wasm };
}

/** Every dedicated worker the page starts, and whether it has gone (playwright's `close`). */
function watchWorkers(page) {
  const all = [];
  page.on('worker', (worker) => {
    const entry = { worker, open: true };
    entry.closed = new Promise((ok) => worker.once('close', ok)).then(() => {
      entry.open = false;
    });
    all.push(entry);
  });
  return all;
}

/** Waits until at most `bound` of the watched workers are open (each `close` is an event the
 * page's terminate() causes). The timer only guards against a worker that never goes: it is
 * generous (a loaded machine is slow, not wrong) and cleared once the wait is over, so it
 * cannot fire after the test (it once did: an unhandled rejection failed a passing soak). */
async function settleWorkers(all, bound) {
  let timer;
  const deadline = new Promise((_, no) => {
    timer = setTimeout(() => no(new Error(`workers still open: ${all.filter((w) => w.open).length}`)), 180_000);
  });
  try {
    while (all.filter((w) => w.open).length > bound) {
      await Promise.race([deadline, ...all.filter((w) => w.open).map((w) => w.closed)]);
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Starts the spare workers (focus entering the explorer's controls), waits for one, and
 * returns the wasm memory of each open worker, in bytes. */
async function workerMemory(page, all) {
  const started = page.waitForEvent('worker', { timeout: 30_000 }).catch(() => null);
  await page.evaluate(() => document.activeElement?.blur());
  await page.getByTestId('explore-k').focus();
  if (!all.some((w) => w.open)) await started;
  const sizes = [];
  for (const { worker } of all.filter((w) => w.open)) {
    const size = await worker
      .evaluate(async () => {
        const module = await import(new URL('idem-worker.js', self.location.href).href);
        // Initialising again returns the running instance's exports (the loader's await).
        const exports = await module.default();
        return exports.memory.buffer.byteLength;
      })
      .catch(() => null); // It went while being asked: nothing to measure.
    if (size !== null) sizes.push(size);
  }
  return sizes;
}

/** `n` steps of playback work in the page, cycling through stories; returns steps done. */
const stepWork = (page, n) =>
  page.evaluate(async (n) => {
    const $ = (id) => document.querySelector(`[data-testid=${id}]`);
    // Yields one task so the page's own queued work (effects, the slice scheduler) runs
    // between clicks: a task boundary, not a wait for time to pass.
    const settle = () => new Promise((ok) => setTimeout(ok, 0));
    const stories = ['naive', 'key', 'cas', 'counter-naive', 'counter', 'fully-protected'];
    let steps = 0;
    let s = 0;
    while (steps < n) {
      $(`scenario-${stories[s++ % stories.length]}`).click();
      await settle();
      while (!$('step-forward').disabled && steps < n) {
        $('step-forward').click();
        steps++;
        if (steps % 8 === 0) await settle();
      }
      for (let i = 0; i < 5 && !$('step-back').disabled; i++, steps++) $('step-back').click();
      $('play-pause').click();
      await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
      if ($('play-pause').getAttribute('data-playing') === 'true') $('play-pause').click();
      $('run-to-end').click();
      $('restart').click();
      steps += 3;
      await settle();
    }
    return steps;
  }, n);

/** `n` story switches in a row, each a task of its own (see the header: the playback alone
 * switches too seldom to show a leak per switch within the bound). */
const switchWork = (page, n) =>
  page.evaluate(async (n) => {
    const stories = ['naive', 'key', 'cas', 'counter-naive', 'counter', 'fully-protected'];
    for (let i = 0; i < n; i++) {
      document.querySelector(`[data-testid=scenario-${stories[i % stories.length]}]`).click();
      await new Promise((ok) => setTimeout(ok, 0));
    }
  }, n);

/** `n` explorer runs (one fault each) on the naive story, each waited for. */
async function explorerWork(page, n) {
  await page.getByTestId('scenario-naive').click();
  await page.getByTestId('explore-k').selectOption('1');
  for (let i = 0; i < n; i++) {
    await page.getByTestId('explore-run').click();
    await page.locator('[data-testid=explore-result][data-state=done]').waitFor({ timeout: 60_000 });
  }
}

test(`soak: ${STEPS} steps and ${EXPLORER_RUNS} explorer runs, memory bounded after the first round`, async () => {
  const page = await lab.open('scenario=naive', DESKTOP, { reducedMotion: 'reduce' });
  const cdp = await page.context().newCDPSession(page);
  const workers = watchWorkers(page);
  // A pool of spares (one per spare core, at least one) and one prevention check.
  const spares = Math.max(1, (await page.evaluate(() => navigator.hardwareConcurrency)) - 1);
  const figures = [];
  let steps = 0;
  for (let round = 0; round < ROUNDS; round++) {
    steps += await stepWork(page, Math.ceil(STEPS / ROUNDS));
    await switchWork(page, SWITCHES);
    await explorerWork(page, Math.ceil(EXPLORER_RUNS / ROUNDS));
    await settleWorkers(workers, spares + 1);
    const sizes = await workerMemory(page, workers);
    await settleWorkers(workers, spares + 1);
    figures.push({ ...(await memory(page, cdp)), workers: sizes, started: workers.length });
  }
  const mb = (b) => (b / 1048576).toFixed(2);
  const table = figures.map(
    (f, i) =>
      `round ${i + 1}: heap ${mb(f.heap)} MB, wasm ${mb(f.wasm)} MB; ${f.started} workers started, ` +
      `open: ${f.workers.map(mb).join(', ') || 'none'} MB`,
  );
  console.log(`soak, ${steps} steps, ${EXPLORER_RUNS} explorer runs\n${table.join('\n')}`);
  const [first] = figures;
  const last = figures.at(-1);
  assert.ok(steps >= STEPS, `${steps} steps`);
  // The searches ran in workers (not on the main thread), and a worker was measured each round.
  assert.ok(last.started > first.started, `no worker started after round one:\n${table.join('\n')}`);
  for (const f of figures) assert.ok(f.workers.length > 0, `no worker measured:\n${table.join('\n')}`);
  // A worker's wasm memory is that of round one's, within the page's own bound.
  const most = (f) => Math.max(...f.workers);
  assert.ok(most(last) - most(first) <= WASM_GROWTH_PAGES * 65_536, `worker memory grew:\n${table.join('\n')}`);
  // The wasm memory never shrinks: growth after round one is kept for good (see above).
  assert.ok(last.wasm - first.wasm <= WASM_GROWTH_PAGES * 65_536, `wasm memory grew:\n${table.join('\n')}`);
  // The JS heap after GC stays within noise of round one (5 % or 512 kB).
  assert.ok(
    last.heap <= first.heap + Math.max(first.heap * 0.05, 524_288),
    `JS heap grew:\n${table.join('\n')}`,
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
