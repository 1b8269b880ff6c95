// The whole lesson with the keyboard alone: pick a story, predict, play and pause, step back
// and forward, drop a packet, retry, inject a fault, toggle a protection, run the explorer and
// open a counter-example. Controls are reached with Tab only; after every action the focus is
// on an element of the lesson (never dropped to <body>) and visibly marked (:focus-visible
// with the lesson's own ring, not the browser's thin default).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, text, step, DESKTOP, PHONE } from './harness.mjs';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

/** Presses Tab until the focused element matches `selector` (at most `max` presses). */
async function tabTo(page, selector, max = 200) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) {
      return;
    }
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Asserts the focus is on a lesson element and visibly marked. */
async function assertFocus(page, after) {
  // A control drawn again hands the focus on within a frame: wait for that (at most 10 s, a
  // bound for a loaded machine; it returns as soon as the focus is somewhere).
  await page
    .waitForFunction(() => document.activeElement && document.activeElement !== document.body, null, {
      timeout: 10_000,
    })
    .catch(() => {});
  const f = await page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) return { lost: true };
    const style = getComputedStyle(el);
    // The lesson's ring: a 3 px outline, or a thick stroke on a packet's pill.
    let ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    const pill = el.querySelector(':scope > .pill-body > .pill, :scope .pill');
    if (!ring && pill) ring = parseFloat(getComputedStyle(pill).strokeWidth) >= 3;
    return {
      lost: false,
      inLab: !!el.closest('.idem-lab'),
      visible: el.matches(':focus-visible'),
      ring,
      what: el.outerHTML.slice(0, 120),
    };
  });
  assert.ok(!f.lost, `after ${after}: the focus fell to <body>`);
  assert.ok(f.inLab, `after ${after}: the focus left the lesson (${f.what})`);
  assert.ok(f.visible && f.ring, `after ${after}: the focus is not visible on ${f.what}`);
}

const pressed = (page, id) => page.getByTestId(id).getAttribute('aria-pressed');

for (const viewport of [DESKTOP, PHONE]) {
  test(`keyboard only, ${viewport.width} px: a whole lesson without a mouse`, async () => {
    const page = await lab.open('scenario=key', viewport, { reducedMotion: 'reduce' });

    // Pick a story.
    await tabTo(page, '[data-testid=scenario-naive]');
    await page.keyboard.press('Enter');
    assert.equal(await pressed(page, 'scenario-naive'), 'true');
    assert.match(await page.evaluate(() => location.search), /scenario=naive/);
    await assertFocus(page, 'picking a story');

    // Predict.
    await tabTo(page, '[data-testid=predict-option]');
    const guess = await page.evaluate(() => document.activeElement.dataset.value);
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid=predict-option][data-value="${guess}"][aria-pressed=true]`).waitFor();
    await assertFocus(page, 'predicting');

    // Play, then pause, on the same button.
    await tabTo(page, '[data-testid=play-pause]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid=step-index]').textContent) >= 2,
    );
    await page.keyboard.press('Enter');
    await assertFocus(page, 'play and pause');
    const paused = await step(page);

    // Step back and forward.
    await tabTo(page, '[data-testid=step-back]');
    await page.keyboard.press('Enter');
    assert.equal(await step(page), paused - 1);
    await assertFocus(page, 'stepping back');
    await tabTo(page, '[data-testid=step-forward]');
    await page.keyboard.press('Enter');
    assert.equal(await step(page), paused);
    await assertFocus(page, 'stepping forward');

    // Step on until an answer is in flight, then drop it from the keyboard.
    const response = page.locator('[data-testid=packet][data-kind=response].droppable');
    for (let i = 0; i < 40 && !(await response.count()); i++) {
      await page.keyboard.press('Enter');
    }
    assert.ok(await response.count(), 'an answer is in flight');
    await tabTo(page, '[data-testid=packet][data-kind=response].droppable');
    await assertFocus(page, 'tabbing to a packet');
    await page.keyboard.press('Delete');
    assert.match(await text(page, 'narration'), /dropped/);
    await assertFocus(page, 'dropping a packet');

    // Retry at once.
    const before = await step(page);
    await tabTo(page, '[data-testid=retry]');
    await page.keyboard.press('Enter');
    assert.equal(await page.getByTestId('action-error').count(), 0);
    assert.ok((await step(page)) > before, 'the retry is a step');
    await assertFocus(page, 'retrying');

    // Inject a fault.
    await tabTo(page, '[data-testid=drop-next-ack]');
    await page.keyboard.press('Enter');
    assert.equal(await page.getByTestId('drop-next-ack').getAttribute('data-armed'), '1');
    await assertFocus(page, 'injecting a fault');

    // Toggle a protection on, and off again (Space on the checkbox).
    const key = '[data-testid=protect-key] input';
    await tabTo(page, key);
    await page.keyboard.press('Space');
    assert.equal(await page.locator(key).isChecked(), true);
    await assertFocus(page, 'switching a protection on');
    await page.keyboard.press('Space');
    assert.equal(await page.locator(key).isChecked(), false);
    await assertFocus(page, 'switching a protection off');

    // Run the explorer, then open a counter-example.
    await tabTo(page, '[data-testid=explore-run]');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=explore-result][data-state=done]').waitFor({ timeout: 60_000 });
    await assertFocus(page, 'running the explorer');
    await tabTo(page, '[data-testid=counterexample]');
    await page.keyboard.press('Enter');
    assert.equal(await step(page), 0);
    assert.ok((await page.getByTestId('fault-marker').count()) >= 1);
    await assertFocus(page, 'opening a counter-example');

    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('a digit or r typed into a list is the list\'s, not a shortcut', async () => {
  const page = await lab.open('scenario=key');
  // The explorer's k list: typing 3 picks k = 3 and leaves story 2 on screen.
  const k = page.getByTestId('explore-k');
  await k.focus();
  await page.keyboard.press('3');
  assert.equal(await k.inputValue(), '3');
  assert.equal(await pressed(page, 'scenario-key'), 'true');
  assert.equal(await pressed(page, 'scenario-cas'), 'false');
  // The speed list: r does not retry.
  const total = await page.getByTestId('step-total').innerText();
  await page.getByTestId('speed').focus();
  await page.keyboard.press('r');
  assert.equal(await page.getByTestId('step-total').innerText(), total, 'nothing retried');
  // Outside a list the same keys are shortcuts.
  await page.getByTestId('narration').click();
  await page.keyboard.press('3');
  await page.waitForFunction(() => document.querySelector('[data-testid=scenario-cas]')?.getAttribute('aria-pressed') === 'true');
  // 5 is the fifth chip, story 4b.
  await page.keyboard.press('5');
  await page.waitForFunction(() => document.querySelector('[data-testid=scenario-counter]')?.getAttribute('aria-pressed') === 'true');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
