// Screenshots of the spots #42 items 2–4 fixed at stop 53 (wp-words3: wrong statements,
// filler, "Try every failure"), at 1280 px and 360 px, in English and Russian, into
// docs/screenshots/<when>-words3-<spot>-<width>-<lang>.png. Each is the part of the page the
// spot is in.
//   node tests/e2e/shots-words3.mjs after   (dist/ built; DIST= another build, OUT= another
//   folder, ONLY=a,b some spots)
import { join } from 'node:path';
import { WHEN, OUT, settle, eachSpot, stepForward } from './shots.mjs';

const NOW = '.narration-box';
const END = '[data-testid="predict"]';
const LEDGER = '[data-testid="panel-ledger"]';
/** spot → the link, visible steps taken, a guess, the run's end, a search with bound k, and
 * what to photograph. */
const SPOTS = {
  // 1. A (nil) to a GET: "no such key".
  'nil-get': { query: 'scenario=concurrent-no-lock', steps: 5, part: NOW },
  // 5. The double tap's second request: why it finds no record.
  'double-tap': { query: 'scenario=concurrent-no-lock', steps: 8, part: NOW },
  // 5. An OK between two handlers' steps says whose claim it made.
  'ok-claimed': { query: 'scenario=concurrent', steps: 5, part: NOW },
  // 2. The reused key, the same user's.
  'reuse-why': { query: 'scenario=key-reuse-no-fingerprint', guess: true, end: true, part: END },
  // 3. What saved crash-one-tx and lease-fencing.
  'one-tx-why': { query: 'scenario=crash-one-tx', guess: true, end: true, part: END },
  'fencing-why': { query: 'scenario=lease-fencing', guess: true, end: true, part: END },
  // 4. Story 2's ledger and its ON CONFLICT; story 4a without like_ops; cas-race.
  'ledger-key': { query: 'scenario=key', end: true, part: LEDGER },
  'ledger-4a': { query: 'scenario=counter-naive', end: true, part: LEDGER },
  'cas-race-intro': { query: 'scenario=cas-race', part: NOW },
  'cas-race-sql': { query: 'scenario=cas-race', steps: 5, part: NOW },
  // 6. The end panels of stories 1, 3 and 4b after a guess: the reason once.
  'end-1': { query: 'scenario=naive', guess: true, end: true, part: END },
  'end-3': { query: 'scenario=cas', guess: true, end: true, part: END },
  'end-4b': { query: 'scenario=counter', guess: true, end: true, part: END },
  // 7. "Try every failure": the lead says what goes wrong; the list says its caveat once.
  'explorer': { query: 'scenario=key', search: 2, part: '.explore-out' },
  // 8. The backoff and the "no record" sentences (rewritten in Russian).
  'backoff': { query: 'scenario=key', steps: 10, part: NOW },
  'no-record': { query: 'scenario=ttl', steps: 15, part: NOW },
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
  const path = join(OUT, `${WHEN}-words3-${name}-${size}-${lang}.png`);
  // On a phone a step's words are in the playback bar (the narration box is folded away once a
  // step is taken).
  const part = size === '360' && f.part === NOW && f.steps ? '[data-testid="now-line"]' : f.part;
  await page.locator(part).first().screenshot({ path, animations: 'disabled' });
});
