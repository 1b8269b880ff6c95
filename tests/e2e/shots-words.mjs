// Screenshots of the words issue #42's stop-52 review still tripped on, at 1280 px and 360 px,
// in English and Russian, into docs/screenshots/<when>-words-<name>-<width>-<lang>.png (`when`
// is the first argument: "before" taken on a build before the fix, "after" on the one after).
// Each is the part of the page the words are in. The same loop as shots-overlap.mjs, with the
// words' own table.
//   node tests/e2e/shots-words.mjs after   (dist/ built; OUT= writes elsewhere, ONLY=a,b some)
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { start, ROOT, DESKTOP, PHONE } from './harness.mjs';

const when = process.argv[2] ?? 'after';
const out = process.env.OUT ?? join(ROOT, 'docs', 'screenshots');
/** name → [deep link, what to photograph]. */
const WORDS = {
  // Items 1, 11: "The phone (attempt 2): The phone …" and the 409's "took it over from this one".
  'speaker-409': ['scenario=lease-expiry&step=13', '#player'],
  // Item 2: Redis's answer under the retry's handler's name.
  'speaker-backend': ['scenario=lease-expiry&step=9', '#player'],
  // Item 1: "The stalled handler (attempt 1): The stalled handler carries on"; item 9 (the
  // processor's missing key) in the same step.
  'speaker-stalled': ['scenario=lease-expiry&step=19', '#player'],
  // Item 4: "PostgreSQL runs this step's SQL: 1 statement" standing alone.
  'speaker-sql': ['scenario=lease-expiry&step=27', '#player'],
  // Item 10: the note about real processors (lease-fencing step 17 as the counter shows it).
  'fenced': ['scenario=lease-fencing&step=20', '#player'],
  // Item 3: lease-fencing's late 409, once "The phone (attempt 1)".
  'late-409': ['scenario=lease-fencing&step=25', '#player'],
  // Item 13: cas-race's two operations, each on its attempt 1.
  'cas-race': ['scenario=cas-race&step=6', '#player'],
  // Item 6: story 3's 412 (its step 10) and its verdict.
  'cas-412': ['scenario=cas&step=12', '#player'],
  // Item 8: story 1's ledger panel (columns, no key).
  'naive-ledger': ['scenario=naive&step=16', '[data-testid="panel-ledger"]'],
  // Item 5: "Surprise me" with seed 3 on story 2: 4 drawn, 5 listed.
  'chaos-count': ['scenario=key&base=1&chaos=3&faults=2.clock.90000000_4.pause.write-ledger_5.crash.claim-key_8.evict&step=33', '#player'],
};

await mkdir(out, { recursive: true });
const lab = await start();
for (const [size, viewport] of [
  ['1280', DESKTOP],
  ['360', PHONE],
]) {
  for (const lang of ['en', 'ru']) {
    for (const [name, [query, part]] of Object.entries(WORDS)) {
      if (process.env.ONLY && !process.env.ONLY.split(',').includes(name)) continue;
      const page = await lab.open(`${query}&lang=${lang}`, viewport);
      await page.evaluate(() => document.getAnimations().forEach((a) => Number.isFinite(a.effect?.getTiming().iterations) && a.finish()));
      await page.locator(part).first().screenshot({ path: join(out, `${when}-words-${name}-${size}-${lang}.png`), animations: 'disabled' });
      await page.context().close();
    }
  }
}
await lab.close();
