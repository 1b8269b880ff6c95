// Screenshots of who is speaking (issue #42, item 1) at 1280 px and 360 px, in English and
// Russian, into docs/screenshots/<when>-speaker-<part>-<width>-<lang>.png (`when` is the first
// argument: "before" was taken on the build before the change, "after" on the one after):
// the player in the lease run while a stalled handler and the retry's both have packets in
// flight (their rings, the bar's words on a phone, the narration with its speakers), and the
// sequence diagram's badges at the end of the run.
//   node tests/e2e/shots-speaker.mjs after   (dist/ built; OUT= writes elsewhere)
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { start, ROOT, DESKTOP, PHONE } from './harness.mjs';

const when = process.argv[2] ?? 'after';
const out = process.env.OUT ?? join(ROOT, 'docs', 'screenshots');
/** name → [deep link, what to photograph]. */
const SHOTS = {
  // Steps 19–28 of the lease run: attempt 1's stalled handler and attempt 3's both talk.
  player: ['scenario=lease-expiry&step=20', '#player'],
  // The whole run's arrows, each badge the attempt's number.
  sequence: ['scenario=lease-expiry&step=31', '[data-testid="sequence"]'],
};

await mkdir(out, { recursive: true });
const lab = await start();
for (const [size, viewport] of [
  ['1280', DESKTOP],
  ['360', PHONE],
]) {
  for (const lang of ['en', 'ru']) {
    for (const [name, [query, part]] of Object.entries(SHOTS)) {
      const page = await lab.open(`${query}&lang=${lang}`, viewport);
      await page.evaluate(() => document.getAnimations().forEach((a) => Number.isFinite(a.effect?.getTiming().iterations) && a.finish()));
      await page.locator(part).first().screenshot({ path: join(out, `${when}-speaker-${name}-${size}-${lang}.png`), animations: 'disabled' });
      await page.context().close();
    }
  }
}
await lab.close();
