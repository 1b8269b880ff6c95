// The parts drawn after the first screen come in wasm files of their own (crates/web/src/
// later.rs, scripts/split.sh): the first screen does not wait for them, each is requested
// once, and a part whose file cannot be loaded says so in its place, leaves the rest of the
// lesson working and draws itself when "Try again" finds the file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { start, audit, catalog, ready, shot, step, watchErrors, DESKTOP, ROOT } from './harness.mjs';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

const files = readdirSync(join(ROOT, 'dist')).filter((f) => /\.wasm$/.test(f));

test("the release build cuts the wasm in two bundles, and the page asks for each once, the lesson's after a player that works without it", async () => {
  for (const bundle of ['player', 'lesson']) {
    assert.ok(files.some((f) => new RegExp(`^split_${bundle}-[0-9a-f]{12}\\.wasm$`).test(f)), `dist/split_${bundle}-<hash>.wasm`);
  }
  const context = await lab.browser.newContext({ viewport: DESKTOP, serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const asked = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname.split('/').pop()));
  // Hold the lesson's file until the player is up: it must play without it.
  let release;
  const gate = new Promise((ok) => (release = ok));
  await context.route(/\/split_lesson-[0-9a-f]+\.wasm$/, async (route) => {
    await gate;
    return route.continue();
  });
  await page.goto(lab.site.url);
  await page.getByTestId('verdict').waitFor();
  const before = await step(page);
  await page.getByTestId('step-forward').click();
  assert.equal(await step(page), before + 1, 'the player works before the lesson bundle arrives');
  assert.equal(await page.locator('.idem-lab[data-ready="true"]').count(), 0, 'the page is not whole yet');
  assert.equal(await page.getByTestId('calc-plot').count(), 0);
  // The fault buttons are the lesson bundle's (they come with the panels).
  assert.equal(await page.getByTestId('drop-next-ack').count(), 0);
  release();
  await page.getByTestId('drop-next-ack').waitFor();
  await ready(page);
  const wasm = asked.filter((f) => f.endsWith('.wasm'));
  assert.equal(wasm[0], 'idem-web_bg.wasm', 'the first screen comes first');
  assert.deepEqual(
    wasm.filter((f) => f.startsWith('split_')).map((f) => f.replace(/-[0-9a-f]+\.wasm$/, '')).sort(),
    ['split_lesson', 'split_player'],
  );
  assert.equal(new Set(wasm).size, wasm.length, 'no file asked twice');
  await page.getByTestId('calc-plot').waitFor();
  await page.getByTestId('glossary').waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [lang, bundle, missing, after] of [
  ['en', 'lesson', 'calc-plot', 'glossary'],
  ['ru', 'lesson', 'calc-plot', 'glossary'],
  ['en', 'player', 'verdict', 'narration'],
]) {
  test(`when the ${bundle} bundle cannot be loaded the page says so once, in ${lang}, the rest works, and Try again draws it`, async () => {
    const words = catalog(lang);
    const context = await lab.browser.newContext({ viewport: DESKTOP, serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors = watchErrors(page);
    let fail = true;
    await context.route(new RegExp(`/split_${bundle}-[0-9a-f]+\\.wasm$`), (route) => (fail ? route.abort('failed') : route.continue()));
    await page.goto(`${lab.site.url}?lang=${lang}`);
    await ready(page);
    const notice = page.getByTestId('part-failed');
    assert.equal(await notice.count(), 1, 'said once for the whole file');
    assert.equal(await notice.getAttribute('role'), 'alert');
    assert.equal(await notice.locator('p').innerText(), words.get('part.failed'));
    assert.equal(await page.getByTestId(missing).count(), 0, `${missing} is in that file`);
    assert.equal(await page.getByTestId(after).count(), 0, `${after} too`);
    // The player still plays.
    const before = await step(page);
    await page.getByTestId('step-forward').click();
    assert.equal(await step(page), before + 1);
    assert.deepEqual(await audit(page), [], 'axe with the notice shown');
    await notice.scrollIntoViewIfNeeded();
    await shot(page, `later-failed-${bundle}-${lang}`, false);
    // Only the failed request is reported (the loader logs it).
    assert.ok(errors.length >= 1 && errors.every((e) => /split_|Failed to fetch|failed/i.test(e)), errors.join('\n'));
    fail = false;
    const retry = page.getByTestId('part-retry');
    assert.equal(await retry.innerText(), words.get('part.retry'));
    await retry.click();
    await page.getByTestId(missing).first().waitFor();
    await page.getByTestId(after).first().waitFor();
    assert.equal(await page.getByTestId('part-failed').count(), 0, 'the notice is gone');
    // The button had the focus: the part drawn in its place has it now, not the page's body.
    await page.waitForFunction(() => document.activeElement?.dataset.testid === 'part-arrived');
    assert.equal(await page.getByTestId('part-arrived').count(), 1);
    assert.deepEqual(await audit(page), [], 'axe with the part drawn after Try again');
    await context.close();
  });
}

test("in compare mode the stages are the lesson bundle's: a file that cannot be loaded is said in their place, and Try again draws them", async () => {
  const words = catalog('en');
  const context = await lab.browser.newContext({ viewport: DESKTOP, serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors = watchErrors(page);
  let fail = true;
  await context.route(/\/split_lesson-[0-9a-f]+\.wasm$/, (route) => (fail ? route.abort('failed') : route.continue()));
  await page.goto(`${lab.site.url}?scenario=naive&compare=key&lang=en`);
  await ready(page);
  // The panels after the run asked for the file first, but compare mode does not draw them:
  // the stages say it instead of leaving the page blank.
  const notice = page.getByTestId('part-failed');
  assert.equal(await notice.count(), 1, 'said once, where the stages would be');
  assert.equal(await notice.locator('p').innerText(), words.get('part.failed'));
  assert.equal(await page.getByTestId('compare-left').count(), 0);
  assert.ok(errors.length >= 1 && errors.every((e) => /split_|Failed to fetch|failed/i.test(e)), errors.join('\n'));
  fail = false;
  await page.getByTestId('part-retry').click();
  await page.getByTestId('compare-left').waitFor();
  await page.getByTestId('compare-right').waitFor();
  assert.equal(await page.getByTestId('part-failed').count(), 0, 'the notice is gone');
  assert.deepEqual(await audit(page), [], 'axe with the stages drawn after Try again');
  await context.close();
});
