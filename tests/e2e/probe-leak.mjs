// Probe (not a test, not run by scripts/e2e.sh): the wasm memory (MB) after each of six rounds
// of one kind of work, to find a leak faster than soak.test.mjs. Build dist/ first, then
// `cd tests/e2e && MODE=switch N=60 node probe-leak.mjs`. MODE: switch (story switches only),
// stepswitch (and three steps), endswitch (and run to end + restart), mixed (the soak's mix).
import { start, DESKTOP } from './harness.mjs';
const MODE = process.env.MODE ?? 'mixed';
const N = Number(process.env.N ?? 600);
const lab = await start();
const page = await lab.open('scenario=naive', DESKTOP, { reducedMotion: 'reduce' });
const cdp = await page.context().newCDPSession(page);
const wasm = () => page.evaluate(async () => (await (await import('./idem-web.js')).default()).memory.buffer.byteLength);
const work = (mode, n) => page.evaluate(async ([mode, n]) => {
  const $ = (id) => document.querySelector(`[data-testid=${id}]`);
  const settle = () => new Promise((ok) => setTimeout(ok, 0));
  const stories = ['naive', 'key', 'cas', 'counter-naive', 'counter', 'fully-protected'];
  for (let i = 0; i < n; i++) {
    $(`scenario-${stories[i % stories.length]}`).click();
    await settle();
    if (mode === 'switch') continue;
    if (mode === 'stepswitch' || mode === 'mixed') {
      for (let k = 0; k < 3 && !$('step-forward').disabled; k++) $('step-forward').click();
      await settle();
    }
    if (mode === 'mixed') {
      $('step-back').click();
      $('play-pause').click();
      await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
      if ($('play-pause').getAttribute('data-playing') === 'true') $('play-pause').click();
    }
    if (mode === 'mixed' || mode === 'endswitch') { $('run-to-end').click(); $('restart').click(); }
    await settle();
  }
}, [mode, n]);
const out = [];
for (let r = 0; r < 6; r++) {
  await work(MODE, N);
  await cdp.send('HeapProfiler.collectGarbage');
  out.push(((await wasm()) / 1048576).toFixed(3));
}
console.log(MODE, N, out.join(' '), page.errors.length ? page.errors : '');
await lab.close();
