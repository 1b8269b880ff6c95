// The parts drawn after the first screen come in wasm files of their own (crates/web/src/
// later.rs, scripts/split.sh): the first screen does not wait for them, each is requested
// once, and a part whose file cannot be loaded says so in its place, leaves the rest of the
// lesson working and draws itself when "Try again" finds the file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { start, audit, ready, shot, step, watchErrors, DESKTOP, ROOT } from './harness.mjs';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

/** The catalog file of `lang` as a map key → template (web/i18n/<lang>.txt). */
function catalog(lang) {
  const entries = new Map();
  for (const line of readFileSync(join(ROOT, 'web', 'i18n', `${lang}.txt`), 'utf8').split('\n')) {
    const at = line.indexOf(' = ');
    if (at > 0 && !line.startsWith('#')) entries.set(line.slice(0, at), line.slice(at + 3));
  }
  return entries;
}

const parts = readdirSync(join(ROOT, 'dist')).filter((f) => /^split_.*\.wasm$/.test(f));

test('the release build has a wasm file per later part, and the page asks for each once, after its first screen', async () => {
  for (const part of ['after_run', 'challenges', 'diagrams', 'extras', 'glossary', 'widget_rest']) {
    assert.ok(parts.includes(`split_${part}.wasm`), `dist/split_${part}.wasm`);
  }
  const context = await lab.browser.newContext({ viewport: DESKTOP, serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const asked = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname.split('/').pop()));
  // Hold every later file until the first screen is up: it must draw without them.
  let release;
  const gate = new Promise((ok) => (release = ok));
  await context.route(/\/(split|chunk)_[^/]*\.wasm$/, async (route) => {
    await gate;
    return route.continue();
  });
  await page.goto(lab.site.url);
  await page.getByTestId('step-index').waitFor();
  await page.getByTestId('verdict').waitFor();
  const before = await step(page);
  await page.getByTestId('step-forward').click();
  assert.equal(await step(page), before + 1, 'the player works before the later parts arrive');
  assert.equal(await page.locator('.idem-lab[data-ready="true"]').count(), 0, 'the page is not whole yet');
  release();
  await ready(page);
  const wasm = asked.filter((f) => f.endsWith('.wasm'));
  assert.equal(wasm[0], 'idem-web_bg.wasm', 'the first screen comes first');
  for (const part of ['after_run', 'challenges', 'diagrams', 'extras', 'glossary']) {
    assert.equal(wasm.filter((f) => f === `split_${part}.wasm`).length, 1, `split_${part}.wasm asked once`);
  }
  assert.equal(wasm.filter((f) => f === 'split_widget_rest.wasm').length, 0, "the widget's part is not the page's");
  assert.equal(new Set(wasm).size, wasm.length, 'no file asked twice');
  await page.getByTestId('calc-plot').waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

for (const lang of ['en', 'ru']) {
  test(`a later part whose file cannot be loaded says so in ${lang}, the rest works, and Try again draws it`, async () => {
    const words = catalog(lang);
    const context = await lab.browser.newContext({ viewport: DESKTOP, serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors = watchErrors(page);
    let fail = true;
    await context.route('**/split_extras.wasm', (route) => (fail ? route.abort('failed') : route.continue()));
    await page.goto(`${lab.site.url}?lang=${lang}`);
    await ready(page);
    const notice = page.getByTestId('part-failed');
    assert.equal(await notice.count(), 1, 'one part is missing');
    assert.equal(await notice.getAttribute('role'), 'alert');
    assert.equal(await notice.locator('p').innerText(), words.get('part.failed'));
    assert.equal(await page.getByTestId('calc-plot').count(), 0, 'the calculator is that part');
    // The parts before and after it are drawn, and the player still plays.
    await page.getByTestId('sequence').waitFor();
    assert.ok((await page.locator('.glossary, [data-testid="glossary"]').count()) > 0, 'the glossary after it');
    const before = await step(page);
    await page.getByTestId('step-forward').click();
    assert.equal(await step(page), before + 1);
    assert.deepEqual(await audit(page), [], 'axe with the notice shown');
    await notice.scrollIntoViewIfNeeded();
    await shot(page, `later-failed-${lang}`, false);
    // Only the failed request is reported (the loader logs it).
    assert.ok(errors.length >= 1 && errors.every((e) => /split_extras|Failed to fetch|failed/i.test(e)), errors.join('\n'));
    fail = false;
    const retry = page.getByTestId('part-retry');
    assert.equal(await retry.innerText(), words.get('part.retry'));
    await retry.click();
    await page.getByTestId('calc-plot').waitFor();
    assert.equal(await page.getByTestId('part-failed').count(), 0, 'the notice is gone');
    await context.close();
  });
}
