// Issue #42 item 1 in the page: who is speaking. While two requests or more are alive (the
// lease runs: a stalled handler and the retry's), each narration line names its attempt and
// side, and the sequence diagram's arrows carry a badge named for screen readers; with one
// request alive (story 1's first steps) nothing is added. Checked against the catalogs' words,
// in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, catalog, stepUntil } from './harness.mjs';

const lab = labForFile();

/** The catalog's template `key` with its `{n}` filled. */
const words = (c, key, n) => c.get(key).replace('{n}', String(n));

for (const lang of ['en', 'ru']) {
  test(`lease-expiry in ${lang}: the stalled handler and the retry's are named, in words and badges`, async () => {
    const c = catalog(lang);
    const page = await lab.open(`scenario=lease-expiry&lang=${lang}`);
    const spoken = page.getByTestId('narration-spoken');
    await spoken.waitFor({ state: 'attached' });
    assert.equal(await spoken.textContent(), '', 'one request alive at the start: no speaker');
    const stalled = words(c, 'speaker.stalled', 1);
    await stepUntil(page, async () => (await spoken.textContent()).includes(stalled), 60);
    // The named narration is the one shown (and announced); the plain one gives way.
    assert.ok(await spoken.isVisible(), 'the narration with its speakers is shown');
    assert.ok(!(await page.getByTestId('narration').isVisible()), 'the plain narration is hidden');
    const retry = c.get('speaker.retry').split('{n}')[0];
    await stepUntil(page, async () => (await spoken.textContent()).includes(retry), 60);
    // The arrows sent while both were alive carry a badge, named in their accessible name.
    const names = await page
      .getByTestId('seq-arrow')
      .evaluateAll((arrows) => arrows.map((a) => a.getAttribute('aria-label')));
    for (const n of [1, 2]) {
      assert.ok(
        names.some((name) => name.includes(`, ${words(c, 'speaker.badge', n)}`)),
        `an arrow named for attempt ${n}: ${names.join(' | ')}`,
      );
    }
    assert.ok((await page.locator('[data-testid=seq-arrow] .seq-badge').count()) > 0, 'badges drawn');
    assert.ok(!names[0].includes(words(c, 'speaker.badge', 1)), 'the first request, alone, has no badge');
    await page.context().close();
  });
}

test('story 1 at step 1: no speaker, no badge, the plain narration shown', async () => {
  const c = catalog('en');
  const page = await lab.open('scenario=naive&lang=en');
  const spoken = page.getByTestId('narration-spoken');
  await spoken.waitFor({ state: 'attached' });
  await page.getByTestId('step-forward').click();
  assert.equal(await page.getByTestId('step-index').innerText(), '1');
  assert.equal(await spoken.textContent(), '');
  assert.ok(await page.getByTestId('narration').isVisible());
  const said = await page.getByTestId('narration').innerText();
  for (const key of ['speaker.phone', 'speaker.handler', 'speaker.retry']) {
    assert.ok(!said.includes(c.get(key).split('{n}')[0].trim()), `${key} in "${said}"`);
  }
  // Story 1's two attempts never overlap: its whole run names no speaker.
  await page.getByTestId('run-to-end').click();
  assert.equal(await spoken.textContent(), '');
  assert.equal(await page.locator('[data-testid=seq-arrow] .seq-badge').count(), 0);
  await page.context().close();
});
