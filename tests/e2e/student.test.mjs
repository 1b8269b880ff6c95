// A first-time student (#15): opens the page with no parameters, reads the definition, starts
// at story 1 with its prediction, walks the stories in order with "Next story", and finds the
// done marks again after a reload. At 1280 and 360 px, in English and Russian.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, shot, DESKTOP, PHONE } from './harness.mjs';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

const STORIES = ['naive', 'key', 'cas', 'counter-naive', 'counter'];
const DEFINITION = { en: /twice.*same effect.*once/s, ru: /повторить её — то же, что выполнить один раз/ };

/** The element is entirely inside the viewport as scrolled now. */
async function inView(page, locator) {
  const box = await locator.boundingBox();
  assert.ok(box, 'the element is laid out');
  const height = page.viewportSize().height;
  return box.y >= 0 && box.y + box.height <= height;
}

const done = (page, id) => page.getByTestId(`scenario-${id}`).getAttribute('data-done');
const progress = (page) => page.getByTestId('lesson-progress').getAttribute('data-done');

for (const [size, viewport] of [['1280', DESKTOP], ['360', PHONE]]) {
  for (const lang of ['en', 'ru']) {
    test(`first-time student at ${size} px in ${lang}`, async () => {
      const page = await lab.open(`lang=${lang}`, viewport);
      // First screen: the definition and "start here", without scrolling.
      const definition = page.getByTestId('definition');
      assert.match(await definition.innerText(), DEFINITION[lang]);
      assert.ok(await inView(page, definition), 'definition in the first viewport');
      const startHere = page.getByTestId('start-here');
      assert.ok(await inView(page, startHere), '"start here" in the first viewport');
      await shot(page, `student-${size}-${lang}-first`, false);
      assert.equal(await progress(page), '0');
      for (const id of STORIES) assert.equal(await done(page, id), 'false');

      // Somewhere else first; "start here" leads to story 1 and its prediction.
      await page.getByTestId('scenario-cas').click();
      await startHere.click();
      assert.equal(await page.getByTestId('scenario-naive').getAttribute('aria-pressed'), 'true');
      assert.equal(await page.getByTestId('step-index').innerText(), '0');
      await page.waitForFunction(() => window.scrollY > 0);
      const option = page.getByTestId('predict-option').first();
      await option.waitFor();
      assert.ok(await inView(page, option), 'the prediction is in view after "start here"');
      if (viewport === DESKTOP) {
        assert.ok(await inView(page, page.getByTestId('play-pause')), 'Play is in view too');
      }

      // Finish story 1: marked done, counted, and "Next story" leads to story 2.
      await page.getByTestId('predict-option').last().click();
      await page.getByTestId('run-to-end').click();
      assert.equal(await done(page, 'naive'), 'true');
      assert.equal(await progress(page), '1');
      const next = page.getByTestId('next-story');
      assert.match(await next.innerText(), /→/);
      assert.match(await page.getByTestId('next-title').innerText(), /^2 ·/);
      await next.click();
      assert.equal(await page.getByTestId('scenario-key').getAttribute('aria-pressed'), 'true');
      assert.equal(await page.getByTestId('step-index').innerText(), '0');
      assert.equal(await next.count(), 0, 'no "next story" before the run ends');

      // The marks survive a reload.
      await page.reload();
      await page.getByTestId('step-index').waitFor();
      assert.equal(await done(page, 'naive'), 'true');
      assert.equal(await done(page, 'key'), 'false');
      assert.equal(await progress(page), '1');

      // The rest of the path in order; after the last story, the closing summary.
      await page.getByTestId('scenario-key').click();
      for (const id of STORIES.slice(1)) {
        assert.equal(await page.getByTestId(`scenario-${id}`).getAttribute('aria-pressed'), 'true');
        await page.getByTestId('run-to-end').click();
        assert.equal(await done(page, id), 'true');
        if (id !== 'counter') await page.getByTestId('next-story').click();
      }
      assert.equal(await progress(page), '5');
      assert.equal(await page.getByTestId('next-story').count(), 0);
      const closing = page.getByTestId('closing');
      assert.equal(await closing.locator('li').count(), 4);
      await shot(page, `student-${size}-${lang}-closing`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
}

test('the other mechanics are advanced, grouped by theme, and not numbered like the stories', async () => {
  const page = await lab.open('');
  const more = page.locator('details.more');
  assert.equal(await more.getAttribute('open'), null, 'folded while a story is on screen');
  await more.locator('summary').click();
  const themes = more.locator('.theme');
  assert.equal(await themes.count(), 4);
  const chips = more.locator('[data-testid^="scenario-"]');
  assert.equal(await chips.count(), 16);
  for (const title of await chips.allInnerTexts()) {
    assert.doesNotMatch(title, /^\s*\d/, `${title} starts with a number`);
  }
  await page.context().close();
});

test('without storage the page says the marks will not be kept', async () => {
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  await context.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', {
      get() {
        throw new DOMException('denied', 'SecurityError');
      },
    });
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(lab.site.url);
  await page.getByTestId('step-index').waitFor();
  await page.getByTestId('storage-notice').waitFor();
  // Marks still work for the visit.
  await page.getByTestId('run-to-end').click();
  assert.equal(await done(page, 'naive'), 'true');
  assert.equal(await progress(page), '1');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a touch screen gets no keyboard-shortcut footer; a desktop does', async () => {
  const phone = await lab.open('', PHONE, { hasTouch: true, isMobile: true });
  assert.equal(await phone.locator('footer.keys').isVisible(), false);
  await phone.context().close();
  const desk = await lab.open('', DESKTOP);
  assert.equal(await desk.locator('footer.keys').isVisible(), true);
  await desk.context().close();
});

test('after a fault the rest of the run is known: "step n / N" keeps its meaning', async () => {
  const page = await lab.open('scenario=key&base=1');
  await page.getByTestId('step-forward').click();
  await page.getByTestId('drop-next-ack').click();
  const at = Number(await page.getByTestId('step-index').innerText());
  const total = Number(await page.getByTestId('step-total').innerText());
  assert.ok(total > at + 3, `step ${at} of ${total}`);
  await page.getByTestId('run-to-end').click();
  assert.equal(Number(await page.getByTestId('step-index').innerText()), total);
  await page.context().close();
});
