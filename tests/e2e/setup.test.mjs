// A course author sets up an exercise (issue 43, item 1): `lock`, `hide`, `budget`, `kinds`,
// `stories`, `allow` and a start state (`faults`, `step`), as mount() options and as `?embed`
// link parameters, against the real bundle on the demo page. The exercise is checked by the
// lesson's bundle: a bad option rejects ready() with the words of today's options and is said
// in the widget (mount() still throws at once for today's options); in a link, the notice
// names it. The lab holds the exercise: a locked switch cannot be flipped, a fault past the
// budget is put back and explained.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openDemo } from './harness.mjs';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

/** Mounts a widget with `options` into a new element `id` of the demo page; resolves to what
 * ready() settled with (`{ ok, value }` or `{ ok: false, message }`). */
function mountInto(page, id, options) {
  return page.evaluate(
    async ([id, options]) => {
      const el = document.createElement('div');
      el.dataset.testid = id;
      document.querySelector('main').append(el);
      const widget = window.idemLab.mount(el, options);
      try {
        return { ok: true, value: await widget.ready() };
      } catch (error) {
        return { ok: false, message: error.message };
      }
    },
    [id, options],
  );
}

/** One step, then a crash armed before the ledger write (a fault the key design takes). */
async function armCrash(scope) {
  await scope.getByTestId('step-forward').click();
  await scope.locator('details:has([data-testid="crash-phase"]) > summary').click();
  await scope.getByTestId('crash-phase').selectOption('write-ledger');
  await scope.getByTestId('fault-crash').click();
}

test('a mounted exercise: a locked switch, a hidden explorer, the kinds offered and the budget', async () => {
  const page = await openDemo(lab, () => {});
  const settled = await mountInto(page, 'ex-a', {
    scenario: 'key',
    lock: ['key'],
    hide: 'explorer,sequence',
    kinds: ['crash', 'drop'],
    budget: 1,
  });
  assert.deepEqual(settled, { ok: true, value: true });
  const w = page.getByTestId('ex-a');
  await w.getByTestId('exercise').waitFor();
  // Locked: shown and disabled; another switch is not.
  assert.equal(await w.locator('input[data-protect="key"]').isDisabled(), true);
  assert.equal(await w.locator('input[data-protect="lock"]').isDisabled(), false);
  // Hidden parts and kinds not offered are not there; the offered ones are.
  for (const absent of ['explore-run', 'fault-pause', 'fault-evict', 'drop-next-ack', 'retry', 'chaos-run']) {
    assert.equal(await w.getByTestId(absent).count(), 0, absent);
  }
  for (const present of ['fault-crash', 'fault-drop']) {
    assert.equal(await w.getByTestId(present).count(), 1, present);
  }
  assert.match(await w.getByTestId('exercise-used').innerText(), /Faults used: 0 of 1/);
  await armCrash(w);
  assert.match(await w.getByTestId('exercise-used').innerText(), /Faults used: 1 of 1/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a fault past the budget is put back and explained', async () => {
  const page = await openDemo(lab, () => {});
  await mountInto(page, 'ex-b', { scenario: 'key', budget: 0 });
  const w = page.getByTestId('ex-b');
  await w.getByTestId('exercise').waitFor();
  await armCrash(w);
  await w.getByTestId('action-error').waitFor();
  assert.match(await w.getByTestId('action-error').innerText(), /allows no more faults/);
  assert.match(await w.getByTestId('exercise-used').innerText(), /Faults used: 0 of 0/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a bad exercise option rejects ready() with the field, the value and what is allowed; today\'s still throw', async () => {
  const page = await openDemo(lab, () => {});
  const settled = await mountInto(page, 'ex-bad', { scenario: 'key', hide: ['explorer', 'header'] });
  assert.equal(settled.ok, false);
  assert.match(
    settled.message,
    /^Idempotency Lab: bad options: `hide` cannot be `header`; allowed: `stories`, `protections`, `faults`, `explorer`, `panels`, `sequence`$/,
  );
  const shown = page.getByTestId('ex-bad').getByTestId('embed-error');
  await shown.waitFor();
  assert.equal(await shown.innerText(), settled.message);
  const budget = await mountInto(page, 'ex-bad-2', { budget: 'lots' });
  assert.match(budget.message, /`budget` must be a whole number of faults from 0 to 64/);
  // Today's options are checked at once, as before; an unknown name lists the exercise's too.
  const thrown = await page.evaluate(() => {
    try {
      window.idemLab.mount(document.createElement('div'), { colour: 'red' });
      return null;
    } catch (error) {
      return error.message;
    }
  });
  assert.match(thrown, /unknown field `colour`; allowed: `scenario`.*`lock`, `hide`, `budget`, `kinds`, `stories`, `allow`, `faults`, `step`$/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a start state: the exercise opens the run with its faults at its step', async () => {
  const page = await openDemo(lab, () => {});
  await mountInto(page, 'ex-start', { scenario: 'key', faults: '1.lose-ack', step: 3, hide: ['explorer'] });
  const w = page.getByTestId('ex-start');
  await w.getByTestId('exercise').waitFor();
  await w.locator('[data-testid=step-index]').filter({ hasNotText: /^0$/ }).waitFor();
  assert.notEqual(await w.getByTestId('step-index').innerText(), '0');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an ?embed link sets up the same exercise; a bad parameter is named in the notice', async () => {
  const page = await openDemo(lab, () => {});
  await page.evaluate(() => {
    const frame = document.createElement('iframe');
    frame.dataset.testid = 'iframe-exercise';
    frame.title = 'exercise';
    frame.src = './?scenario=key&lock=key&hide=explorer&stories=key,naive&budget=2&kinds=crash&embed&hide2=x';
    frame.style.width = '900px';
    frame.style.height = '1400px';
    document.querySelector('main').append(frame);
  });
  const frame = page.frameLocator('[data-testid=iframe-exercise]');
  await frame.getByTestId('exercise').waitFor();
  assert.equal(await frame.locator('input[data-protect="key"]').isDisabled(), true);
  assert.equal(await frame.getByTestId('explore-run').count(), 0);
  // The stories offered, and no other.
  assert.equal(await frame.getByTestId('scenario-naive').count(), 1);
  assert.equal(await frame.getByTestId('scenario-cas').count(), 0);
  assert.match(await frame.getByTestId('exercise-used').innerText(), /Faults used: 0 of 2/);
  const notice = await frame.getByTestId('param-notice').innerText();
  assert.match(notice, /hide2/);
  assert.match(notice, /lock, hide, budget, kinds, stories, allow/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
