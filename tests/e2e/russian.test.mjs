// The Russian page: `?lang=ru` opens it in Russian, the switch keeps the run and the language
// in the address, and nothing overflows a 360 px phone. Screenshots: ru-desktop, ru-phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, text, shot, DESKTOP, PHONE } from './harness.mjs';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

test('lang=ru shows the Russian page at desktop and phone widths', async () => {
  for (const [viewport, name] of [
    [DESKTOP, 'ru-desktop'],
    [PHONE, 'ru-phone'],
  ]) {
    const page = await lab.open('scenario=key&lang=ru', viewport);
    assert.equal(await text(page, 'title'), 'Лаборатория идемпотентности');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ru');
    await page.getByTestId('predict-option').nth(1).click();
    await page.getByTestId('run-to-end').click();
    assert.equal(await page.getByTestId('predict-result').getAttribute('data-correct'), 'true');
    assert.match(await page.evaluate(() => location.search), /lang=ru/);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `${name}: the page scrolls sideways by ${overflow}px`);
    await page.locator('details.transcript > summary').click();
    await shot(page, name);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('the switch reloads in the other language and keeps the run', async () => {
  const page = await lab.open('scenario=cas&step=3');
  await page.getByTestId('lang-ru').click();
  await page.waitForURL(/lang=ru/);
  await page.getByTestId('step-index').waitFor();
  assert.equal(await text(page, 'title'), 'Лаборатория идемпотентности');
  assert.equal(await text(page, 'step-index'), '3');
  assert.match(await page.evaluate(() => location.search), /scenario=cas/);
  await page.getByTestId('lang-en').click();
  await page.waitForURL(/lang=en/);
  await page.getByTestId('step-index').waitFor();
  assert.equal(await text(page, 'title'), 'Idempotency Lab');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an unknown lang value shows a notice and falls back', async () => {
  const page = await lab.open('scenario=naive&lang=tlh', DESKTOP, { locale: 'ru-RU' });
  assert.match(await text(page, 'lang-notice'), /tlh/);
  assert.equal(await text(page, 'title'), 'Лаборатория идемпотентности');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
