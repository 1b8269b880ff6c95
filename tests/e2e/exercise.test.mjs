// A challenge as a course's exercise (issue 43, item 1), against the real bundle on the demo
// page: in an `?embed` iframe and in a mounted widget it shows its goal, its budget and
// "faults used n of b" and its fault menu, and can be played to "solved"; the tools that
// would give the answer away or leave its design (the story picker, the protections, the
// search) are not there; on the page, leaving the challenge's design is an idem:challenge
// event (`left`), not a silent change.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, watchErrors, DESKTOP, openDemo as openDemoWith } from './harness.mjs';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

/** The demo page (a host page under the strict CSP), with every idem-lab message recorded. */
async function openDemo() {
  return openDemoWith(lab, () => {
    window.__messages = [];
    window.addEventListener('message', (e) => {
      if (e.data?.source === 'idem-lab' && e.data.type !== 'idem:height') window.__messages.push(e.data);
    });
  });
}

/** Breaks redis-2 in `scope` as a student does: one step, a crash armed before the ledger
 * write, then to the end (the retry charges again). */
async function solveRedis2(scope) {
  await scope.getByTestId('step-forward').click();
  await scope.locator('details:has([data-testid="crash-phase"]) > summary').click();
  await scope.getByTestId('crash-phase').selectOption('write-ledger');
  await scope.getByTestId('fault-crash').click();
  await scope.getByTestId('run-to-end').click();
}

/** The goal is shown with its budget, and nothing that leaves the design or gives the answer. */
async function assertExercise(scope) {
  const goal = scope.getByTestId('challenge-goal');
  await goal.waitFor();
  assert.equal(await goal.getAttribute('data-budget'), '2');
  assert.match(await scope.getByTestId('challenge-used').innerText(), /Faults used: 0 of 2/);
  assert.match(await goal.innerText(), /Break story 2's design/);
  await scope.getByTestId('fault-crash').waitFor({ state: 'attached' });
  for (const absent of ['scenario-naive', 'protect-key', 'explore-run']) {
    assert.equal(await scope.getByTestId(absent).count(), 0, absent);
  }
}

test('redis-2 in an iframe: goal, budget and fault menu shown, solved, posted to the parent', async () => {
  const page = await openDemo();
  await page.evaluate(() => {
    const frame = document.createElement('iframe');
    frame.dataset.testid = 'iframe-challenge';
    frame.title = 'challenge';
    frame.src = './?challenge=redis-2&embed';
    frame.style.width = '900px';
    frame.style.height = '900px';
    document.querySelector('main').append(frame);
  });
  const frame = page.frameLocator('[data-testid=iframe-challenge]');
  await assertExercise(frame);
  await solveRedis2(frame);
  await frame.locator('[data-testid=challenge-goal][data-status=solved]').waitFor();
  assert.match(await frame.getByTestId('challenge-used').innerText(), /Faults used: 1 of 2/);
  await page.waitForFunction(() => window.__messages.some((m) => m.type === 'idem:challenge' && m.detail.status === 'solved'));
  assert.deepEqual(
    await page.evaluate(() => window.__messages.filter((m) => m.type === 'idem:challenge').map((m) => m.detail)),
    [
      { v: 1, id: 'redis-2', status: 'open' },
      { v: 1, id: 'redis-2', status: 'solved', by: 'student', searchedFirst: false },
    ],
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('redis-2 in a mounted widget, compact and full: the same exercise, solved through on()', async () => {
  const page = await openDemo();
  for (const compact of [true, false]) {
    const id = `widget-exercise-${compact}`;
    await page.evaluate(
      async ([id, compact]) => {
        const el = document.createElement('div');
        el.dataset.testid = id;
        document.querySelector('main').append(el);
        const widget = window.idemLab.mount(el, { challenge: 'redis-2', compact });
        window.__heard = [];
        widget.on('challenge', (e) => window.__heard.push(e.detail));
        await widget.ready();
      },
      [id, compact],
    );
    const widget = page.getByTestId(id);
    await assertExercise(widget);
    await solveRedis2(widget);
    await page.waitForFunction(() => window.__heard.some((d) => d.status === 'solved'));
    assert.deepEqual(await page.evaluate(() => window.__heard.at(-1)), {
      v: 1,
      id: 'redis-2',
      status: 'solved',
      by: 'student',
      searchedFirst: false,
    });
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on the page, leaving the challenge\'s design is an idem:challenge event', async () => {
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  await context.addInitScript(() => {
    window.__events = [];
    document.addEventListener('idem:challenge', (e) => window.__events.push(e.detail));
  });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(lab.site.url + '?challenge=redis-2');
  await page.locator('.idem-lab[data-ready="true"]').waitFor();
  // Unticking a protection plays another design: the challenge is left, and says so.
  await page.getByTestId('protect-key').click();
  await page.waitForFunction(() => window.__events.some((e) => e.status === 'left'));
  assert.deepEqual(await page.evaluate(() => window.__events), [
    { v: 1, id: 'redis-2', status: 'open' },
    { v: 1, id: 'redis-2', status: 'left' },
  ]);
  assert.deepEqual(errors, []);
  await context.close();
});
