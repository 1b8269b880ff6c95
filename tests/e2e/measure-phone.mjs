// Measures the phone layout of issue #42 item 7 and photographs it (not a test: figures for
// docs/measurements.md). For each language at 360 × 740 (and 1280 × 800 for the pictures):
// the page's height once drawn (`document.documentElement.scrollHeight` after data-ready, first
// scenario), whether the prediction and Play are both in view after "Start here", the smallest
// text of the drawing in CSS px, the story buttons cut at the row's edge, and whether the
// sequence diagram overflows its box. `DIST=/path/to/dist` measures another build (the
// "before" figures came from the main checkout's dist/); `SHOTS=dir` names where the
// screenshots go (default tests/screenshots), `TAG` prefixes their names.
//
//   node tests/e2e/measure-phone.mjs            # after `trunk build --release --offline`
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { serve } from './server.mjs';
import { ROOT, DESKTOP, PHONE, SCREENSHOTS, launchChromium } from './harness.mjs';
import { phoneFacts } from './phone-facts.mjs';

const dist = process.env.DIST ?? join(ROOT, 'dist');
const shots = process.env.SHOTS ?? SCREENSHOTS;
const tag = process.env.TAG ?? 'now';
await mkdir(shots, { recursive: true });
const site = await serve(dist);
const browser = await launchChromium();
try {
  for (const lang of ['en', 'ru']) {
    for (const [size, viewport] of [
      ['360', PHONE],
      ['1280', DESKTOP],
    ]) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${site.url}?scenario=naive&lang=${lang}`);
      await page.locator('.idem-lab[data-ready="true"]').waitFor();
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.screenshot({ path: join(shots, `${tag}-${size}-${lang}-top.png`) });
      await page.getByTestId('start-here').click();
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(shots, `${tag}-${size}-${lang}-start-here.png`) });
      const facts = await phoneFacts(page);
      await page.goto(`${site.url}?scenario=key&lang=${lang}&step=12`);
      await page.locator('.idem-lab[data-ready="true"]').waitFor();
      await page.screenshot({ path: join(shots, `${tag}-${size}-${lang}-key-full.png`), fullPage: true });
      console.log(JSON.stringify({ lang, size, height, ...facts }));
      await context.close();
    }
  }
} finally {
  await browser.close();
  await site.close();
}
