// Screenshots of what a first-time student still tripped on (issue 42, the review of stop 51),
// at 1280 px and 360 px, in English and Russian, into
// docs/screenshots/<when>-<finding>-<width>-<lang>.png (`when` is the first argument: "before"
// on the build before the fixes, "after" on the one after). Each is the part of the page the
// finding is in, or the window where the finding is about scrolling.
//   node tests/e2e/shots-student.mjs after   (dist/ built; DIST= another build, OUT= another
//   folder, ONLY=a,b some findings)
import { join } from 'node:path';
import { WHEN, OUT, settle, eachSpot, stepForward } from './shots.mjs';

/** name → how to reach it: the link, the marks stored, steps pressed, a guess, the run's end,
 * the lesson's code held back until some steps are taken, and what to photograph (`null`:
 * the window). */
const FINDINGS = {
  // 1. The lease story at step 0 (a direct link showed only its title).
  'lease-setup': { query: 'scenario=lease-expiry', part: '.narration-box' },
  // 2. The summary's labels (11.5 px capitals).
  'summary-labels': { query: 'scenario=naive', part: '.money-box' },
  // 3. The window after stepping through the lease story with the Step button (pressed as a
  // pointer would, after the page scrolled it into view).
  'step-scroll': { query: 'scenario=lease-expiry', press: 12, part: null },
  // 4. The lease story's summary column when the lesson's code came after 5 steps.
  'on-note-late': { query: 'scenario=lease-expiry', late: 5, steps: 8, part: 'aside.summary' },
  // 5. Wordings: the lost-answer fault, (nil), the message number, "either".
  'armed': { query: 'scenario=key', steps: 1, part: '.narration-box' },
  'lost-number': { query: 'scenario=key', steps: 9, part: '.narration-box' },
  'either': { query: 'scenario=key', steps: 4, part: '.narration-box' },
  'nil': { query: 'scenario=key', steps: 13, part: '.narration-box' },
  // 5 and 8. Story 1's ending; story 3's ending after a guess (why, what happened, the 412).
  'chargeback': { query: 'scenario=naive', guess: true, end: true, part: '[data-testid="predict"]' },
  'story3-ending': { query: 'scenario=cas', guess: true, end: true, part: '[data-testid="predict"]' },
  // 6. The count beside the story buttons, with 4a done.
  'progress-count': { query: 'scenario=naive', done: 'counter-naive', part: '.path .group' },
  // 7. "Start here" after story 3 was done.
  'start-here-after': { query: '', done: 'cas', part: '.welcome' },
};

await eachSpot(FINDINGS, async ({ context, site, name, spot: f, size, lang }) => {
  if (f.done) await context.addInitScript((done) => localStorage.setItem('idem-lab.done', done), f.done);
  const page = await context.newPage();
  let release = () => {};
  if (f.late) {
    const held = new Promise((resolve) => (release = resolve));
    await page.route(/split_lesson-.*\.wasm|-panels\.txt/, async (route) => {
      await held;
      await route.continue();
    });
  }
  await page.goto(`${site.url}?${f.query}${f.query ? '&' : ''}lang=${lang}`);
  await page.getByTestId('step-forward').waitFor();
  if (f.late) {
    for (let i = 0; i < f.late; i++) await page.evaluate(stepForward);
    release();
  }
  await page.locator('.idem-lab[data-ready="true"]').waitFor();
  if (f.guess) await page.getByTestId('predict-option').first().click();
  for (let i = f.late ?? 0; i < (f.steps ?? 0); i++) await page.evaluate(stepForward);
  for (let i = 0; i < (f.press ?? 0); i++) await page.getByTestId('step-forward').click();
  if (f.end) await page.evaluate(() => document.querySelector('[data-testid=run-to-end]').click());
  await settle(page);
  const path = join(OUT, `${WHEN}-${name}-${size}-${lang}.png`);
  if (f.part) await page.locator(f.part).first().screenshot({ path, animations: 'disabled' });
  else await page.screenshot({ path, animations: 'disabled' });
});
