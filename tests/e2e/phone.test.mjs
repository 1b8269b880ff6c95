// The phone in order (issue #42, item 7) and protections a student can take in (item 5), at
// 360 × 740, in English and Russian: after "Start here" the prediction and Play are both on
// screen; every story button is whole or its row scrolls and says so; the sequence diagram
// says it scrolls where it does; no text of the drawing is under 12 CSS px, and a widget picks
// its drawing by its own width; the story's own protections come first and the others wait
// behind one disclosure, grouped by what they protect; a design with protections on says so
// beside the prediction; the cost calculator stands only where keys are stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, catalog, shot, DESKTOP, PHONE } from './harness.mjs';
import { phoneFacts } from './phone-facts.mjs';

const lab = labForFile();

/** The switches shown open, and those behind the disclosure by group, as the page has them. */
function protectionsShown(page) {
  return page.evaluate(() => {
    const names = (root) => [...root.querySelectorAll('input[data-protect]')].map((i) => i.dataset.protect);
    const first = document.querySelector('[data-testid="protections-first"]');
    const more = document.querySelector('[data-testid="protections-more"]');
    return {
      first: first ? names(first) : [],
      open: more?.open ?? null,
      groups: more
        ? [...more.querySelectorAll('.toggle-group')].map((g) => [g.dataset.group, names(g)])
        : [],
    };
  });
}

for (const lang of ['en', 'ru']) {
  const words = catalog(lang);

  test(`phone ${lang}: "Start here" shows the prediction and Play together; stories and the sequence say they scroll`, async () => {
    const page = await lab.open(`lang=${lang}`, PHONE);
    await page.getByTestId('start-here').click();
    await page.waitForFunction(() => window.scrollY > 0);
    await page.waitForTimeout(200);
    const facts = await phoneFacts(page);
    await shot(page, `phone-${lang}-start-here`, false);
    assert.ok(facts.predict, 'the prediction is in view after "Start here"');
    assert.ok(facts.play, 'Play is in view after "Start here"');
    // Every story button is whole, or the row scrolls, fades and says so.
    if (facts.cutChips.length > 0) {
      assert.ok(facts.chipRow.scrolls, `cut ${facts.cutChips} in a row that does not scroll`);
      assert.ok(facts.chipRow.hint, 'the row says it scrolls');
      assert.equal(
        (await page.getByTestId('stories-scroll').innerText()).trim(),
        words.get('path.swipe'),
      );
      const mask = await page
        .locator('nav.scenarios .chips.stories')
        .evaluate((row) => getComputedStyle(row).maskImage || getComputedStyle(row).webkitMaskImage);
      assert.match(mask, /gradient/, 'the row fades at its far end');
      // Keyboard: the last story takes the focus and the row scrolls to show it.
      const last = page.getByTestId('scenario-counter');
      await last.focus();
      const inside = await last.evaluate((chip) => {
        const c = chip.getBoundingClientRect();
        const r = chip.parentElement.getBoundingClientRect();
        return c.left >= r.left - 0.5 && c.right <= r.right + 0.5;
      });
      assert.ok(inside, 'a focused story button is scrolled into its row');
    }
    // The sequence diagram: a run with arrows, wider than the screen, says it scrolls.
    await page.goto(`${lab.site.url}?scenario=naive&lang=${lang}&step=12`);
    await page.locator('.idem-lab[data-ready="true"]').waitFor();
    const after = await phoneFacts(page);
    if (after.sequence.overflows) assert.ok(after.sequence.hint, 'the sequence says it scrolls');
    assert.ok(after.sequence.overflows, 'at 360 px the diagram is wider than its box');
  });

  test(`phone ${lang}: the story's protections first, the rest folded by what they protect`, async () => {
    const page = await lab.open(`scenario=key&lang=${lang}`, PHONE);
    const key = await protectionsShown(page);
    assert.deepEqual(key.first, ['key', 'require-key', 'fingerprint', 'lock', 'scope']);
    assert.equal(key.open, false, 'the others are one tap away');
    assert.deepEqual(key.groups, [
      ['key', ['fencing']],
      ['ledger', ['same-tx', 'forward', 'recovery']],
      ['client', ['deadline', 'status-check']],
    ]);
    const summary = await page.locator('[data-testid="protections-more"] > summary').innerText();
    assert.match(summary, /6/);
    // Story 2 turns five switches on: said beside the prediction, in view with it.
    const note = page.getByTestId('protections-on');
    const text = await note.innerText();
    for (const name of ['key', 'require-key', 'fingerprint', 'lock', 'scope']) {
      assert.ok(text.includes(words.get(`protect.${name}`)), `${name} named in "${text}"`);
    }
    const [noteBox, predictBox] = [await note.boundingBox(), await page.getByTestId('predict').boundingBox()];
    assert.ok(Math.abs(noteBox.y - (predictBox.y + predictBox.height)) < 40, 'the note follows the prediction');
    // A flip moves nothing: the switch stays where it was, and the note names it.
    await page.locator('[data-testid="protections-more"] > summary').click();
    await page.locator('input[data-protect="forward"]').check();
    const flipped = await protectionsShown(page);
    assert.deepEqual(flipped.first, key.first);
    assert.ok((await note.innerText()).includes(words.get('protect.forward')));
    await shot(page, `phone-${lang}-protections`, false);
    // The cost calculator prices stored keys: here it is, with no excuse.
    assert.equal(await page.locator('section.calc').isVisible(), true);
    assert.equal(await page.getByTestId('calc-why').count(), 0);
    // Story 1 stores no key: the calculator says why it is there, and no note names a switch.
    await page.getByTestId('scenario-naive').click();
    assert.equal((await page.getByTestId('calc-why').innerText()).trim(), words.get('calc.no_key'));
    assert.equal(await page.getByTestId('protections-on').count(), 0);
    // Story 3 has no key store: no calculator; its two switches, nothing folded.
    await page.getByTestId('scenario-cas').click();
    assert.equal(await page.locator('section.calc').isVisible(), false);
    const cas = await protectionsShown(page);
    assert.deepEqual(cas, { first: ['cas', 'reconcile'], open: null, groups: [] });
  });

  test(`phone ${lang}: no text of the drawing is under 12 CSS px`, async () => {
    // Packets in flight, a two-line status (an armed crash), a broken packet's words.
    for (const query of ['scenario=key&step=6', 'scenario=crash-window&step=3', 'scenario=naive&step=13']) {
      const page = await lab.open(`${query}&lang=${lang}`, PHONE);
      assert.equal(await page.locator('svg.topology[viewBox="0 0 320 488"]').count(), 1, `${query}: the tall drawing`);
      const { drawingMinPx } = await phoneFacts(page);
      assert.ok(drawingMinPx.px >= 12, `${query}: ${JSON.stringify(drawingMinPx)}`);
      await page.context().close();
    }
  });
}

test('a widget is drawn for its own width: tall in a 360 px column of a wide page, wide in 1000 px', async () => {
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto(`${lab.site.url}demo.html`);
  await page.waitForFunction(() => window.idemLab?.mount);
  // The window is wide; each widget's box is its own width. The wide one is mounted first, so
  // once the narrow one is drawn tall both have been fitted.
  await page.evaluate(() => {
    window.__widgets = [1000, 360].map((width) => {
      const el = document.createElement('div');
      el.style.width = `${width}px`;
      document.body.append(el);
      return { el, handle: window.idemLab.mount(el, { scenario: 'key' }) };
    });
  });
  await page.waitForFunction(() => window.__widgets[1].el.querySelector('svg.topology[viewBox="0 0 320 488"]'));
  const drawn = await page.evaluate(() =>
    window.__widgets.map(({ el }) => el.querySelector('svg.topology').getAttribute('viewBox')),
  );
  assert.deepEqual(drawn, ['0 0 900 392', '0 0 320 488']);
  await context.close();
});
