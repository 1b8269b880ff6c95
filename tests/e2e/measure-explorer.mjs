// Not a test: prints how long "Try every failure" takes in headless Chromium and the longest
// task it causes (node tests/e2e/measure-explorer.mjs, after a release build in dist/).
import { start } from './harness.mjs';

const lab = await start();
try {
  for (const [id, k] of [['key', 3], ['scope', 3], ['naive', 3]]) {
    const page = await lab.open(`scenario=${id}`);
    await page.evaluate(() => {
      window.__long = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__long.push(e.duration);
      }).observe({ type: 'longtask', buffered: false });
    });
    await page.getByTestId('explore-k').selectOption(String(k));
    const t0 = Date.now();
    await page.getByTestId('explore-run').click();
    await page.locator('[data-testid=explore-result][data-state=done]').waitFor({ timeout: 300_000 });
    const ms = Date.now() - t0;
    const longs = await page.evaluate(() => window.__long);
    const runs = await page.getByTestId('explore-result').getAttribute('data-runs');
    const states = await page.getByTestId('explore-result').getAttribute('data-states');
    const max = longs.length ? Math.max(...longs) : 0;
    console.log(`${id} k=${k}: ${ms} ms, runs ${runs}, situations ${states}, long tasks ${longs.length}, longest ${max.toFixed(0)} ms`);
    await page.context().close();
  }
} finally {
  await lab.close();
}
