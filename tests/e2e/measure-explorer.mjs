// Not a test: prints how long "Try every failure" takes in headless Chromium and every long
// task (> 50 ms, PerformanceObserver 'longtask') from the click on Run until the result has
// been on screen for a second, with when each started (ms after the click) and the moment the
// result said done (node tests/e2e/measure-explorer.mjs [rounds], after a release build in
// dist/; ROUNDS of key, scope and naive at k = 3, default 3).
//
// On a loaded machine a task's wall time includes the time the renderer waited for a CPU, so
// it also traces the page (Chromium's devtools.timeline) and prints each long task's thread
// CPU time next to its wall time: the CPU time is what the page's own work took.
import { start } from './harness.mjs';

/** The renderer main thread's tasks over 50 ms (wall), as [wall ms, cpu ms], and the longest CPU. */
function longTasks(trace) {
  const events = JSON.parse(trace.toString()).traceEvents;
  const main = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`));
  const long = tasks.filter((e) => e.dur > 50_000).map((e) => [e.dur / 1000, (e.tdur ?? 0) / 1000]);
  const first = Math.min(...tasks.map((e) => e.ts));
  // The three tasks that took the most CPU, as "cpu ms at +ms after the first task".
  const top = [...tasks]
    .sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0))
    .slice(0, 3)
    .map((e) => `${((e.tdur ?? 0) / 1000).toFixed(1)} at +${((e.ts - first) / 1000).toFixed(0)}`);
  return { long, top };
}

const rounds = Number(process.argv[2] ?? 3);
const lab = await start();
try {
  for (let round = 1; round <= rounds; round++) {
    for (const [id, k] of [['key', 3], ['scope', 3], ['naive', 3]]) {
      const page = await lab.open(`scenario=${id}`);
      await page.getByTestId('explore-k').selectOption(String(k));
      await page.evaluate(() => {
        window.__long = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]);
        }).observe({ type: 'longtask', buffered: false });
        // The moment the result says done (or partial), in the page's own clock.
        new MutationObserver(() => {
          const r = document.querySelector('[data-testid=explore-result]');
          const state = r?.getAttribute('data-state');
          if (state && state !== 'running' && window.__done === undefined) {
            window.__done = performance.now();
          }
        }).observe(document.body, { subtree: true, attributes: true, childList: true });
        document.querySelector('[data-testid=explore-run]').addEventListener(
          'click',
          () => { window.__t0 = performance.now(); },
          { capture: true },
        );
      });
      await lab.browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
      await page.getByTestId('explore-run').click();
      await page.locator('[data-testid=explore-result][data-state=done]').waitFor({ timeout: 300_000 });
      // Long tasks are reported after they end: give the observer a second of idle page.
      await page.waitForTimeout(1000);
      const traced = longTasks(await lab.browser.stopTracing());
      const { t0, done, longs } = await page.evaluate(() => ({
        t0: window.__t0,
        done: window.__done,
        longs: window.__long,
      }));
      const result = page.getByTestId('explore-result');
      const runs = await result.getAttribute('data-runs');
      const states = await result.getAttribute('data-states');
      const steps = await result.getAttribute('data-steps');
      const cxs = await page.getByTestId('counterexample').count();
      const tasks = longs
        .map(([s, d]) => `${d.toFixed(0)} ms at +${(s - t0).toFixed(0)}`)
        .join(', ');
      const max = longs.length ? Math.max(...longs.map(([, d]) => d)) : 0;
      console.log(
        `round ${round} ${id} k=${k}: ${(done - t0).toFixed(0)} ms to done, runs ${runs}, ` +
          `situations ${states}, steps ${steps}, ${cxs} counter-examples listed; ` +
          `long tasks ${longs.length}, longest ${max.toFixed(0)} ms${tasks ? ` (${tasks})` : ''}; ` +
          `traced: ${traced.long.length} tasks > 50 ms wall (${traced.long
            .map(([w, c]) => `${w.toFixed(0)} ms wall / ${c.toFixed(0)} ms cpu`)
            .join(', ')}), most cpu: ${traced.top.join(', ')} ms`,
      );
      await page.context().close();
    }
  }
} finally {
  await lab.close();
}
