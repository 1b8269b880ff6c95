// Screenshots of what the stop-54 review found in the drawing (issue 42, items 1, 6 and 7;
// tests/e2e/in-view.test.mjs and overlap.test.mjs), into
// docs/screenshots/<when>-draw4-<finding>-<width>-<lang>.png (`when` is the first argument:
// "before" on main's build before the fixes, "after" on the one after): 360 px in English and
// Russian, 1280 px in English.
//   node tests/e2e/shots-draw4.mjs after   (dist/ built; DIST= another build, OUT= another
//   folder, ONLY=a,b some findings)
import { join } from 'node:path';
import { DESKTOP, PHONE } from './harness.mjs';
import { WHEN, OUT, withBrowser, wanted, settle } from './shots.mjs';

/** name → how to reach it: the link, Steps pressed (with the drawing's top at the window's top
 * on a phone, a student watching it), or a story chip and Steps with the bar just scrolled
 * into view (1280), and what to photograph (`null`: the window). */
const FINDINGS = {
  // 1. The stuck bar grew over the Ledger and Processor cards and the legend on long steps.
  'bar-lease-expiry-12': { query: 'scenario=lease-expiry', steps: 12, widths: [PHONE] },
  'bar-lease-fencing-20': { query: 'scenario=lease-fencing', steps: 20, widths: [PHONE] },
  'bar-cas-race-6': { query: 'scenario=cas-race', steps: 6, widths: [PHONE] },
  'bar-key-4': { query: 'scenario=key', steps: 4, widths: [PHONE] },
  // 2. The lease runs' long steps under the fold at 1280 × 800, opened by their chip.
  'fold-lease-expiry-12': { chip: 'lease-expiry', steps: 12, widths: [DESKTOP] },
  'fold-lease-fencing-20': { chip: 'lease-fencing', steps: 20, widths: [DESKTOP] },
  // 3. Retry pressed early in story 2: attempt 1's 201 lay on attempt 2's lost 409.
  // (The lost packet photographed as it breaks, before it fades.)
  'early-lost-409': { query: 'scenario=key&faults=5.retry&step=18', steps: 0, part: '#player .topology-frame', widths: [DESKTOP, PHONE], whole: true },
  // 5. The final words twice on a phone (story 3's end).
  'cas-end': { query: 'scenario=cas', steps: 10, widths: [PHONE] },
  // 6. The phone's panel said "Attempt 2" beside attempt 1's 201.
  'early-client-panel': { query: 'scenario=key&faults=5.retry&step=999', steps: 0, part: '[data-testid="panel-client"]', widths: [DESKTOP, PHONE] },
  // 7. The fencing token in the narration only (lease-fencing step 4): now on the store's card.
  'token-fencing-4': { query: 'scenario=lease-fencing', steps: 4, part: '#player .topology-frame', widths: [DESKTOP, PHONE] },
};

await withBrowser(async ({ browser, site }) => {
  for (const [name, f] of Object.entries(FINDINGS)) {
    if (!wanted(name)) continue;
    for (const viewport of f.widths) {
      for (const lang of viewport === PHONE ? ['en', 'ru'] : ['en']) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        await page.goto(`${site.url}?${f.query ?? ''}&lang=${lang}`);
        await page.locator('.idem-lab[data-ready="true"]').waitFor();
        if (f.chip) {
          await page.getByTestId(`scenario-${f.chip}`).evaluate((chip) => chip.click());
          await page.waitForFunction((id) => location.search.includes(`scenario=${id}`), f.chip);
          await page.getByTestId('step-forward').evaluate((b) => {
            const bar = b.closest('.playback').getBoundingClientRect();
            if (bar.bottom > innerHeight) window.scrollBy(0, bar.bottom - innerHeight + 10);
          });
        } else if (viewport === PHONE && f.steps > 0) {
          await page.locator('#player .topology-frame').evaluate((e) => e.scrollIntoView());
        }
        for (let i = 1; i <= f.steps; i++) {
          await page.getByTestId('step-forward').click();
          await page.waitForFunction(
            (i) => document.querySelector('[data-testid="step-index"]').textContent === String(i),
            i,
          );
        }
        await settle(page);
        if (f.whole) {
          await page.evaluate(() =>
            document.getAnimations().forEach((a) => {
              if (a.effect?.target?.closest?.('.ghost')) {
                a.currentTime = 0;
                a.pause();
              }
            }),
          );
        }
        const path = join(OUT, `${WHEN}-draw4-${name}-${viewport.width}-${lang}.png`);
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
