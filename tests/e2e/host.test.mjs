// The lab in a host page (issue 43, item 5), against the real bundle on the demo page: an
// `?embed` iframe tells its parent its height (idem:height) and again when its width changes,
// takes `theme` from its link, and names a parameter nobody reads or a bad `lang` in the link
// notice; a mounted widget is laid out by its own width (container queries), not the window's;
// the page's footer links the teacher's guide, which the build carries.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openDemo as openDemoWith } from './harness.mjs';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

/** The demo page (a host page under the strict CSP), with every message recorded. */
async function openDemo() {
  return openDemoWith(lab, () => {
    window.__messages = [];
    window.addEventListener('message', (e) => window.__messages.push(e.data));
  });
}

/** Adds an iframe of `query` (with `testid`, `width` px wide) to the demo's main column. */
const addFrame = (page, testid, query, width) =>
  page.evaluate(
    ([testid, query, width]) => {
      const frame = document.createElement('iframe');
      frame.dataset.testid = testid;
      frame.title = testid;
      frame.src = `./?${query}`;
      frame.style.width = `${width}px`;
      frame.style.height = '400px';
      document.querySelector('main').append(frame);
    },
    [testid, query, width],
  );

test('?embed in a frame says its height, again when its width changes, and takes theme from the link', async () => {
  const page = await openDemo();
  // Only this frame posts heights from here on: start the record afresh.
  await page.evaluate(() => {
    window.__messages = [];
    window.addEventListener('message', (e) => {
      if (e.source === document.querySelector('[data-testid=sized]')?.contentWindow) e.data.frame = 'sized';
    });
  });
  await addFrame(page, 'sized', 'scenario=key&theme=dark&embed', 900);
  const framed = page.frameLocator('[data-testid=sized]');
  await framed.getByTestId('verdict').waitFor();
  await page.waitForFunction(() =>
    window.__messages.some((m) => m?.type === 'idem:height' && m.frame === 'sized'),
  );
  const posted = () =>
    page.evaluate(() =>
      window.__messages.filter((m) => m?.type === 'idem:height' && m.frame === 'sized').map((m) => m.detail.height),
    );
  const wide = (await posted()).at(-1);
  // The height is the widget's: its bottom edge in the frame's document.
  const content = await framed
    .locator('.idem-lab')
    .evaluate((el) => Math.ceil(el.getBoundingClientRect().bottom + window.scrollY));
  assert.equal(wide, content);
  assert.ok(wide > 400, `${wide}px`);
  // Narrower, the player wraps into one column: taller, and said again.
  await page.evaluate(() => {
    document.querySelector('[data-testid=sized]').style.width = '420px';
  });
  await page.waitForFunction(
    (wide) => window.__messages.some((m) => m?.type === 'idem:height' && m.frame === 'sized' && m.detail.height > wide),
    wide,
  );
  // `theme=dark` in the link: the widget is dark whatever the system prefers.
  assert.equal(await framed.locator('.idem-lab').getAttribute('data-theme'), 'dark');
  // A good link has no notice.
  assert.equal(await framed.getByTestId('param-notice').count(), 0);
  assert.equal(await framed.getByTestId('link-notice').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('?embed names an unknown parameter and a bad lang in the link notice, in the widget\'s language', async () => {
  const page = await openDemo();
  await addFrame(page, 'bad', 'scenario=key&them=dark&compact=false&lang=de&embed', 900);
  const framed = page.frameLocator('[data-testid=bad]');
  const notice = framed.getByTestId('param-notice');
  await notice.waitFor();
  const text = await notice.innerText();
  assert.match(text, /no parameter “them”/);
  assert.match(text, /no parameter “compact”/);
  assert.match(text, /“lang” cannot be “de” \(allowed: en, ru\)/);
  // The rest of the link is used: story 2, in English.
  assert.equal(await framed.locator('.idem-lab').getAttribute('lang'), 'en');
  await framed.getByTestId('node-client').first().waitFor();
  // In Russian the same notice is in Russian.
  await addFrame(page, 'bad-ru', 'scenario=key&theme=pink&lang=ru&embed', 900);
  const ru = page.frameLocator('[data-testid=bad-ru]').getByTestId('param-notice');
  await ru.waitFor();
  assert.match(await ru.innerText(), /параметр «theme» не может быть равен «pink» \(можно: auto, light, dark\)/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a mounted widget is laid out by its own width, not the window\'s', async () => {
  const page = await openDemo();
  const columns = (width) =>
    page.evaluate(async (width) => {
      const el = document.createElement('div');
      el.style.width = `${width}px`;
      document.querySelector('main').append(el);
      const widget = window.idemLab.mount(el, { scenario: 'key' });
      await widget.ready();
      const stage = el.querySelector('.stage');
      const count = getComputedStyle(stage).gridTemplateColumns.split(' ').length;
      widget.unmount();
      el.remove();
      return count;
    }, width);
  // The window is 1280 px wide both times.
  assert.equal(await columns(760), 1, 'a 760 px column: the one-column player');
  assert.equal(await columns(1200), 2, 'a wide column: the player beside its verdict');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the page\'s footer links the teacher\'s guide, and the build has it', async () => {
  const page = await lab.open('scenario=naive');
  const link = page.getByTestId('teaching');
  await link.waitFor();
  assert.equal(await link.getAttribute('href'), 'teaching.md');
  const response = await page.request.get(new URL('teaching.md', page.url()).href);
  assert.equal(response.status(), 200);
  assert.match(await response.text(), /^# Teaching with Idempotency Lab/);
  await page.context().close();
});
