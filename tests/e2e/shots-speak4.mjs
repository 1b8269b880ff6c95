// Screenshots of the lines #42 fixed at stop 54 (wp-speak4: the lease and early-Retry runs,
// where two handlers run), at 1280 px and 360 px, in English and Russian, into
// docs/screenshots/<when>-speak4-<spot>-<width>-<lang>.png. Each is the step's words (on a
// phone, the playback bar) or the end panel.
//   node tests/e2e/shots-speak4.mjs after   (dist/ built; DIST= another build, OUT= another
//   folder, ONLY=a,b some spots)
import { join } from 'node:path';
import { WHEN, OUT, settle, eachSpot, stepForward } from './shots.mjs';

const NOW = '.narration-box';
const END = '[data-testid="predict"]';
/** spot → the link, visible steps taken, a guess and the run's end, what to photograph. */
const SPOTS = {
  // 1. Attempt 1's 409 after it was fenced: it ran, its writes were refused, no retry.
  'fenced-409': { query: 'scenario=lease-fencing', steps: 20, part: NOW },
  // 2. Filler folded where two handlers run: the early Retry (story 2, Retry pressed as the
  // first request flies), lease-expiry, the double tap without a lock, cas-race.
  'early-fold': { query: 'scenario=key&faults=2.retry', steps: 12, part: NOW },
  'lease-expiry-fold': { query: 'scenario=lease-expiry', steps: 22, part: NOW },
  'no-lock-fold': { query: 'scenario=concurrent-no-lock', steps: 14, part: NOW },
  'cas-race-fold': { query: 'scenario=cas-race', steps: 4, part: NOW },
  // 3. The 409 in `concurrent`: the key another handler holds, no lease.
  '409-concurrent': { query: 'scenario=concurrent', steps: 12, part: NOW },
  // 4. The stale call's refusal: what a real processor would do with this API.
  'processor-fenced': { query: 'scenario=lease-fencing', steps: 16, part: NOW },
  // 5. The double tap's why: one other request was refused.
  'concurrent-why': { query: 'scenario=concurrent', guess: true, end: true, part: END },
  // 6. The numbered lease first, one idea a sentence.
  'token': { query: 'scenario=lease-fencing', steps: 4, part: NOW },
};

await eachSpot(SPOTS, async ({ context, site, name, spot: f, size, lang }) => {
  const page = await context.newPage();
  await page.goto(`${site.url}?${f.query}&lang=${lang}`);
  await page.locator('.idem-lab[data-ready="true"]').waitFor();
  if (f.guess) await page.getByTestId('predict-option').first().click();
  for (let i = 0; i < (f.steps ?? 0); i++) await page.evaluate(stepForward);
  if (f.end) await page.evaluate(() => document.querySelector('[data-testid=run-to-end]').click());
  await settle(page);
  const path = join(OUT, `${WHEN}-speak4-${name}-${size}-${lang}.png`);
  // On a phone a step's words are in the playback bar (the narration box is folded away once a
  // step is taken).
  const part = size === '360' && f.part === NOW && f.steps ? '[data-testid="now-line"]' : f.part;
  await page.locator(part).first().screenshot({ path, animations: 'disabled' });
});
