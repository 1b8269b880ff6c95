// The full page says a link's unknown parameter in the same notice, and the same words, as
// the `?embed` page (issue 43, item 5: "an unknown link parameter gets the same notice as a
// bad one"), while the rest of the link is used.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready } from './harness.mjs';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

test('the full page names an unknown link parameter and a bad theme as it names a bad scenario', async () => {
  const bad = await lab.open('scenario=nope');
  const linkNotice = bad.getByTestId('link-notice');
  await linkNotice.waitFor();
  const heading = await linkNotice.locator('p').first().innerText();
  await bad.context().close();

  const page = await lab.open('scenario=key&them=dark&theme=pink&step=2');
  await ready(page);
  const notice = page.getByTestId('param-notice');
  await notice.waitFor();
  assert.equal(await notice.getAttribute('role'), 'alert');
  assert.equal(await notice.locator('p').first().innerText(), heading);
  const text = await notice.innerText();
  assert.match(text, /no parameter “them”/);
  assert.match(text, /“theme” cannot be “pink” \(allowed: auto, light, dark\)/);
  // The rest of the link is used: story `key`, at step 2.
  assert.equal(await page.getByTestId('step-index').innerText(), '2');
  await page.context().close();

  // A good link, and the exercise's own names, get no notice.
  const good = await lab.open('scenario=key&lock=key&theme=dark');
  await ready(good);
  // (The notice comes with the lesson's bundle, as the fault buttons do: once they are
  // drawn, so would the notice be.)
  await good.locator('section.faults').waitFor();
  assert.equal(await good.getByTestId('param-notice').count(), 0);
  assert.deepEqual(lab.errorsSince(), []);
  await good.context().close();
});
