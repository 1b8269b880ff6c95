// Screenshots of what the stop-53 review found on the phone and beside the drawing (issue 42,
// items 5 and 7; tests/e2e/in-view.test.mjs), into
// docs/screenshots/<when>-phone3-<finding>-<width>-<lang>.png (`when` is the first argument:
// "before" on main's build before the fixes, "after" on the one after): 360 px in English and
// Russian, 1280 px in English.
//   node tests/e2e/shots-in-view.mjs after   (dist/ built; DIST= another build, OUT= another
//   folder)
import { join } from 'node:path';
import { DESKTOP, PHONE } from './harness.mjs';
import { WHEN, OUT, withBrowser } from './shots.mjs';

/** name → the link, the steps pressed with the drawing's top at the window's top (a student
 * watching it), and what to photograph (`null`: the window). */
const FINDINGS = {
  // 1. The step's words under the window's edge on a phone (story 2 step 4; story 3's 412).
  'step-words': { query: 'scenario=key', steps: 4, part: null, widths: [PHONE] },
  'words-412': { query: 'scenario=cas', steps: 10, part: null, widths: [PHONE] },
  // 2. Story 2 at 1280 × 800: "On in this design" pushed the narration under the fold.
  'story2-narration': { query: 'scenario=key', steps: 1, part: null, widths: [DESKTOP] },
  // 3. The cost chart's labels (9.6 px at 360).
  'cost-chart': { query: 'scenario=key', steps: 0, part: '[data-testid="calc-plot"]', widths: [PHONE] },
  // 4. The ledger's column names.
  'ledger-heads': { query: 'scenario=key&step=999', steps: 0, part: '[data-testid="panel-ledger"]', widths: [PHONE] },
};

await withBrowser(async ({ browser, site }) => {
  for (const [name, f] of Object.entries(FINDINGS)) {
    for (const viewport of f.widths) {
      for (const lang of viewport === PHONE ? ['en', 'ru'] : ['en']) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        await page.goto(`${site.url}?${f.query}&lang=${lang}`);
        await page.locator('.idem-lab[data-ready="true"]').waitFor();
        if (viewport === PHONE && f.steps > 0) {
          await page.locator('#player .topology-frame').evaluate((e) => e.scrollIntoView());
        }
        for (let i = 1; i <= f.steps; i++) {
          await page.getByTestId('step-forward').click();
          await page.waitForFunction(
            (i) => document.querySelector('[data-testid="step-index"]').textContent === String(i),
            i,
          );
        }
        const path = join(OUT, `${WHEN}-phone3-${name}-${viewport.width}-${lang}.png`);
        if (f.part) {
          const part = page.locator(f.part).first();
          await part.scrollIntoViewIfNeeded();
          await part.screenshot({ path });
        } else {
          await page.screenshot({ path });
        }
        console.log(path);
        await context.close();
      }
    }
  }
});
