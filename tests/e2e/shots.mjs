// What the screenshot scripts (shots-*.mjs) share: where they read the build and write the
// pictures, which spots to take, the widths and languages, a browser on the served build, and
// a page brought to rest before it is photographed.
//   node tests/e2e/shots-<what>.mjs before|after   (dist/ built; DIST= another build, OUT=
//   another folder, ONLY=a,b some spots)
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { serve } from './server.mjs';
import { ROOT, DESKTOP, PHONE, launchChromium } from './harness.mjs';

/** "before" on the build before a fix, "after" on the one after (the first argument). */
export const WHEN = process.argv[2] ?? 'after';
/** The folder the pictures go to. */
export const OUT = process.env.OUT ?? join(ROOT, 'docs', 'screenshots');
/** The build photographed. */
export const DIST = process.env.DIST ?? join(ROOT, 'dist');
/** The widths photographed, with their names in the files. */
export const WIDTHS = [
  ['1280', DESKTOP],
  ['360', PHONE],
];
/** The languages photographed. */
export const LANGS = ['en', 'ru'];

/** Whether spot `name` is to be taken (all of them unless ONLY names some). */
export const wanted = (name) => !process.env.ONLY || process.env.ONLY.split(',').includes(name);

/** Finishes the page's finite animations, so a packet or a transition is photographed at rest. */
export const settle = (page) =>
  page.evaluate(() =>
    document.getAnimations().forEach((a) => Number.isFinite(a.effect?.getTiming().iterations) && a.finish()),
  );

/** Serves DIST and starts Chromium, runs `take({ browser, site })`, then closes both (also when
 * a picture fails). */
export async function withBrowser(take) {
  await mkdir(OUT, { recursive: true });
  const site = await serve(DIST);
  const browser = await launchChromium();
  try {
    await take({ browser, site });
  } finally {
    await browser.close();
    await site.close();
  }
}

/** Takes each wanted spot of `spots` (name → what the script needs) at each width and language:
 * `take({ context, site, name, spot, size, lang })` in a fresh browser context of that viewport,
 * closed after it. */
export const eachSpot = (spots, take) =>
  withBrowser(async ({ browser, site }) => {
    for (const [size, viewport] of WIDTHS) {
      for (const lang of LANGS) {
        for (const [name, spot] of Object.entries(spots)) {
          if (!wanted(name)) continue;
          const context = await browser.newContext({ viewport });
          try {
            await take({ context, site, name, spot, size, lang });
          } finally {
            await context.close();
          }
        }
      }
    }
  });

/** Presses the Step button in the page (passed to `page.evaluate`: a click, not a scroll). */
export const stepForward = () => document.querySelector('[data-testid=step-forward]').click();
