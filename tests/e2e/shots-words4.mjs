// Screenshots of the spots wp-words4 fixed (#42 items 2, 4 and 5 as the stop-54 review quoted
// them: stories 2–4, the panels, "Try every failure"), at 1280 px and 360 px, in English and
// Russian, into docs/screenshots/<when>-words4-<spot>-<width>-<lang>.png. Each is the part of
// the page the spot is in.
//   node tests/e2e/shots-words4.mjs after   (dist/ built; DIST= another build, OUT= another
//   folder, ONLY=a,b some spots)
import { join } from 'node:path';
import { WHEN, OUT, settle, eachSpot, stepForward } from './shots.mjs';

const NOW = '.narration-box';
const END = '[data-testid="predict"]';
const LEDGER = '[data-testid="panel-ledger"]';
const STAGE = '.topology-frame';
/** spot → the link, visible steps taken, a guess, the run's end, a search with bound k, and
 * what to photograph. */
const SPOTS = {
  // 1. Story 3's end: what the app does after a 412; no op_id.
  'end-3': { query: 'scenario=cas', guess: true, end: true, part: END },
  // 2. Story 3's 412: the words, the drawing and the ledger panel agree.
  'cas-412': { query: 'scenario=cas', steps: 9, part: NOW },
  'cas-412-drawing': { query: 'scenario=cas', steps: 9, part: STAGE },
  'ledger-3': { query: 'scenario=cas', end: true, part: LEDGER },
  // 3. The op_id said where it first appears; 4a's end; 4b's batch in words.
  'counter-intro': { query: 'scenario=counter', part: NOW },
  'end-4a': { query: 'scenario=counter-naive', guess: true, end: true, part: END },
  'counter-batch': { query: 'scenario=counter', steps: 3, part: STAGE },
  'ledger-4b': { query: 'scenario=counter', end: true, part: LEDGER },
  // 4. "Try every failure": one sentence, one example, minimal schedules in order.
  'explorer': { query: 'scenario=key', search: 2, part: '.explore-out' },
  // 5. Story 2: what protects the run; K1 everywhere.
  'key-processor': { query: 'scenario=key', steps: 4, part: NOW },
  'store-key': { query: 'scenario=key', end: true, part: '[data-testid="panel-store"]' },
  'ledger-key': { query: 'scenario=key', end: true, part: LEDGER },
  // 6. The key's protection, its limit once; the cost chart's shading explained.
  'protect-key': { query: 'scenario=key', end: true, part: '.toggle-item:has([data-testid="protect-key"])' },
  'calc': { query: 'scenario=key', end: true, part: '[data-testid="calc-plot"]' },
  // 7. cas-race's intro: one phone, as drawn.
  'cas-race-intro': { query: 'scenario=cas-race', part: NOW },
};

await eachSpot(SPOTS, async ({ context, site, name, spot: f, size, lang }) => {
  const page = await context.newPage();
  await page.goto(`${site.url}?${f.query}&lang=${lang}`);
  await page.locator('.idem-lab[data-ready="true"]').waitFor();
  if (f.guess) await page.getByTestId('predict-option').first().click();
  for (let i = 0; i < (f.steps ?? 0); i++) await page.evaluate(stepForward);
  if (f.end) await page.evaluate(() => document.querySelector('[data-testid=run-to-end]').click());
  if (f.search) {
    await page.getByTestId('explore-k').selectOption(String(f.search));
    await page.getByTestId('explore-run').click();
    await page.locator('[data-testid=explore-result][data-state=done]').waitFor({ timeout: 300_000 });
  }
  await settle(page);
  const path = join(OUT, `${WHEN}-words4-${name}-${size}-${lang}.png`);
  // On a phone a step's words are in the playback bar (the narration box is folded away once a
  // step is taken).
  const part = size === '360' && f.part === NOW && f.steps ? '[data-testid="now-line"]' : f.part;
  const target = page.locator(part).first();
  await target.scrollIntoViewIfNeeded();
  await target.screenshot({ path, animations: 'disabled' });
});
