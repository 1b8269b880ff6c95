// Events for course sites and the mount() handle, against the real bundle on the demo page:
// idem:step / idem:verdict / idem:prediction bubble from a mounted widget as CustomEvents and
// reach handle.on(); the ?embed iframe posts the same payloads to its parent (and ignores
// messages sent to it); restart(), runToEnd(), off() and unmount() do what they say. Also: the
// lesson writes the address bar only when the link changes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, watchErrors, DESKTOP, openDemo as openDemoWith } from './harness.mjs';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

/** The demo page with every idem:* event on the document and every message recorded. */
async function openDemo() {
  const page = await openDemoWith(lab, () => {
    window.__events = [];
    window.__messages = [];
    for (const name of ['idem:step', 'idem:verdict', 'idem:prediction', 'idem:challenge', 'idem:action']) {
      document.addEventListener(name, (e) =>
        window.__events.push({
          type: e.type,
          detail: e.detail,
          from: e.target.closest('[data-testid^=widget-]')?.dataset.testid ?? null,
        }),
      );
    }
    window.addEventListener('message', (e) => window.__messages.push(e.data));
  });
  await page.getByTestId('widget-a').getByTestId('step-index').waitFor();
  return page;
}

/** Waits for the first recorded event (`__events`) or idem-lab message (`__messages`) of
 * type `type` and returns it. */
const waitFor = (page, list, type) =>
  page
    .waitForFunction(
      ([list, type]) =>
        window[list].find((e) => e?.type === type && (list === '__events' || e.source === 'idem-lab')),
      [list, type],
    )
    .then((h) => h.jsonValue());

test('a mounted widget emits step, verdict and prediction events with the core figures', async () => {
  const page = await openDemo();
  const a = page.getByTestId('widget-a');
  // Predict "twice" at the start (the naive story charges twice), then step and run to the end.
  await a.locator('[data-testid=predict-option][data-value=twice]').click();
  await a.getByTestId('step-forward').click();
  const step = await waitFor(page, '__events', 'idem:step');
  assert.deepEqual(step, {
    type: 'idem:step',
    detail: { scenario: 'naive', step: 1, atEnd: false },
    from: 'widget-a',
  });
  await a.getByTestId('run-to-end').click();
  const verdict = await waitFor(page, '__events', 'idem:verdict');
  // The four documented figures first, then what a grader needs (stream.test.mjs checks
  // them closely): no faults, no protections in the naive design, the link of the run's end.
  const { link, ...figures } = verdict.detail;
  assert.deepEqual(
    { ...verdict, detail: figures },
    {
      type: 'idem:verdict',
      detail: {
        scenario: 'naive',
        verdict: 'violated',
        statementCents: 20000,
        faults: 0,
        v: 1,
        faultList: [],
        protections: [],
      },
      from: 'widget-a',
    },
  );
  assert.match(link, /^scenario=naive&step=\d+$/);
  // The page shows the same figures the event carries.
  assert.equal(await a.getByTestId('verdict').getAttribute('data-verdict'), 'violated');
  assert.match(await a.getByTestId('statement-total').innerText(), /200/);
  const prediction = await waitFor(page, '__events', 'idem:prediction');
  assert.deepEqual(prediction.detail, { scenario: 'naive', choice: 'twice', correct: true, v: 1, attempt: 1 });
  // Nothing came from widget B, and a mounted widget on a top-level page posts no message
  // (the demo's iframe posts only its height, idem:height, until it is played).
  // (The page's exercise opens its challenge when it mounts: its idem:challenge `open`.)
  const all = await page.evaluate(() => window.__events);
  const others = all.filter((e) => e.from !== 'widget-a' && !(e.from === 'widget-exercise' && e.type === 'idem:challenge'));
  assert.deepEqual(others, []);
  assert.deepEqual(
    await page.evaluate(() =>
      window.__messages.filter((m) => m?.source === 'idem-lab' && m.type !== 'idem:height'),
    ),
    [],
  );
  // The demo's log shows them (through handle.on).
  assert.match(await page.getByTestId('event-log').innerText(), /widget-a idem:verdict \{"scenario":"naive","verdict":"violated"/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the handle: on() hears events, off() stops, restart() and runToEnd() drive it, unmount() ends it', async () => {
  const page = await openDemo();
  const result = await page.evaluate(async () => {
    const [a] = window.idemLab.widgets;
    const got = [];
    // Until `n` events have arrived, a frame at a time (bounded in time, 20 s, not in frames:
    // a loaded machine paints fewer of them).
    const settle = async (n) => {
      const end = performance.now() + 20_000;
      while (got.length < n && performance.now() < end) await new Promise((ok) => requestAnimationFrame(ok));
    };
    const listener = (e) => got.push([e.type, e.detail.step ?? e.detail.verdict]);
    // on() returns the handle: calls chain; "idem:" is optional.
    const chained = a.on('verdict', listener).on('idem:step', listener);
    a.runToEnd();
    await settle(2);
    const atEnd = document.querySelector('[data-testid=widget-a] [data-testid=step-index]').textContent;
    a.restart();
    await settle(3);
    const atStart = document.querySelector('[data-testid=widget-a] [data-testid=step-index]').textContent;
    a.off('step', listener);
    a.runToEnd();
    await settle(4);
    let thrown = null;
    try {
      a.on('click', listener);
    } catch (error) {
      thrown = error.message;
    }
    a.unmount();
    const html = document.querySelector('[data-testid=widget-a]').innerHTML;
    // After unmount: no widget, the handle's calls do nothing, the listeners are gone.
    a.restart();
    a.runToEnd();
    document
      .querySelector('[data-testid=widget-a]')
      .dispatchEvent(new CustomEvent('idem:verdict', { detail: { verdict: 'after' } }));
    return { got, atEnd, atStart, thrown, html, chained: typeof chained.on };
  });
  assert.equal(result.chained, 'function');
  assert.ok(Number(result.atEnd) > 0, result.atEnd);
  assert.equal(result.atStart, '0');
  const last = Number(result.atEnd);
  assert.deepEqual(result.got, [
    ['idem:step', last],
    ['idem:verdict', 'violated'],
    ['idem:step', 0],
    // off('step'): only the verdict of the second run.
    ['idem:verdict', 'violated'],
  ]);
  assert.match(result.thrown, /unknown event "click"; use one of idem:step, idem:verdict/);
  assert.equal(result.html, '');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the ?embed iframe posts the same payloads to its parent and ignores messages', async () => {
  const page = await openDemo();
  const iframe = page.getByTestId('iframe-embed');
  await iframe.scrollIntoViewIfNeeded();
  const frame = page.frameLocator('[data-testid=iframe-embed]');
  await frame.getByTestId('embed').waitFor();
  // Hostile and look-alike messages into the iframe change nothing.
  await iframe.evaluate((el) => {
    for (const data of [
      { source: 'idem-lab', type: 'idem:verdict', detail: { verdict: 'ok' } },
      'restart',
      { type: 'runToEnd' },
      null,
    ]) {
      el.contentWindow.postMessage(data, '*');
    }
  });
  await frame.getByTestId('step-forward').click();
  const step = await waitFor(page, '__messages', 'idem:step');
  assert.deepEqual(step, {
    source: 'idem-lab',
    type: 'idem:step',
    detail: { scenario: 'cas', step: 1, atEnd: false },
  });
  await frame.getByTestId('run-to-end').click();
  const verdict = await waitFor(page, '__messages', 'idem:verdict');
  assert.equal(verdict.detail.scenario, 'cas');
  // The verdict is the one on screen, computed by the core; money in integer cents.
  assert.equal(verdict.detail.verdict, await frame.getByTestId('verdict').getAttribute('data-verdict'));
  assert.equal(verdict.detail.verdict, 'ok');
  assert.ok(Number.isInteger(verdict.detail.statementCents), JSON.stringify(verdict));
  assert.equal(verdict.detail.faults, 0);
  // Only one step message before the verdict's: the messages sent in did not move it.
  const steps = await page.evaluate(() =>
    window.__messages.filter((m) => m?.source === 'idem-lab' && m.type === 'idem:step').map((m) => m.detail.step),
  );
  assert.equal(steps[0], 1);
  assert.equal(await frame.getByTestId('balance').innerText(), '80');
  // The demo page logs the iframe's messages.
  assert.match(await page.getByTestId('event-log').innerText(), /iframe idem:verdict \{"scenario":"cas","verdict":"ok"/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the address bar is written only when the link changes', async () => {
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  await context.addInitScript(() => {
    window.__replaced = [];
    const replace = history.replaceState.bind(history);
    history.replaceState = (state, title, url) => {
      window.__replaced.push(String(url));
      replace(state, title, url);
    };
  });
  const page = await context.newPage();
  await page.goto(lab.site.url + '?scenario=naive');
  await page.getByTestId('step-index').waitFor();
  const count = () => page.evaluate(() => window.__replaced.length);
  await ready(page);
  const first = await count();
  // At the start: step back, restart and a refused retry change nothing; then one step
  // writes once, with the step in it. The writes come in order, so once the step's is
  // there, any the first three made would be there too.
  await page.locator('body').press('ArrowLeft');
  await page.getByTestId('restart').click({ force: true });
  await page.locator('body').press('r');
  await page.locator('body').press('ArrowRight');
  await page.waitForFunction((n) => window.__replaced.length > n, first);
  assert.equal(await count(), first + 1, await page.evaluate(() => window.__replaced.join('\n')));
  assert.match(await page.evaluate(() => window.__replaced.at(-1)), /scenario=naive&step=1/);
  await context.close();
});

/** Breaks the seed Redis design (`redis-2`) in `scope` the way a student does: one step, a
 * crash armed before the ledger write, then to the end (the retry charges again). */
async function solveRedis2(scope) {
  await scope.getByTestId('step-forward').click();
  await scope.locator('details:has([data-testid="crash-phase"]) > summary').click();
  await scope.getByTestId('crash-phase').selectOption('write-ledger');
  await scope.getByTestId('fault-crash').click();
  await scope.getByTestId('run-to-end').click();
}

test('idem:challenge: solving redis-2 is sent on the page, through on() of a mounted widget, and by an iframe', async () => {
  // The lesson page: the event bubbles to document, `open` when the challenge opens, then
  // `solved` when the core's verdict breaks within the budget.
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  await context.addInitScript(() => {
    window.__events = [];
    document.addEventListener('idem:challenge', (e) => window.__events.push(e.detail));
  });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(lab.site.url + '?challenge=redis-2');
  await page.locator('.idem-lab[data-ready="true"]').waitFor();
  await solveRedis2(page);
  await page.locator('[data-testid=challenge][data-status=solved]').waitFor();
  await page.waitForFunction(() => window.__events.some((e) => e.status === 'solved'));
  assert.deepEqual(await page.evaluate(() => window.__events), [
    { v: 1, id: 'redis-2', status: 'open' },
    { v: 1, id: 'redis-2', status: 'solved', by: 'student', searchedFirst: false },
  ]);
  assert.deepEqual(errors, []);
  await context.close();

  // A widget mounted with { challenge } on a course page: handle.on('challenge').
  const demo = await openDemo();
  await demo.evaluate(async () => {
    const el = document.createElement('div');
    el.dataset.testid = 'widget-challenge';
    document.querySelector('main').append(el);
    const widget = window.idemLab.mount(el, { challenge: 'redis-2', compact: false });
    window.__heard = [];
    widget.on('challenge', (e) => window.__heard.push(e.detail));
    await widget.ready();
  });
  const mounted = demo.getByTestId('widget-challenge');
  await mounted.getByTestId('crash-phase').waitFor({ state: 'attached' });
  await solveRedis2(mounted);
  await demo.waitForFunction(() => window.__heard.some((d) => d.status === 'solved'));
  assert.deepEqual(await demo.evaluate(() => window.__heard.at(-1)), {
    v: 1,
    id: 'redis-2',
    status: 'solved',
    by: 'student',
    searchedFirst: false,
  });

  // An iframe (`?embed`) opened on a challenge with the same faults in its link posts the
  // standing to its parent as it changes.
  await demo.evaluate(() => {
    const frame = document.createElement('iframe');
    frame.dataset.testid = 'iframe-challenge';
    frame.title = 'challenge';
    frame.src = './?challenge=redis-2&base=1&faults=1.crash.write-ledger&embed';
    document.querySelector('main').append(frame);
  });
  const frame = demo.frameLocator('[data-testid=iframe-challenge]');
  await frame.getByTestId('run-to-end').click();
  const posted = () =>
    demo.evaluate(() =>
      window.__messages.filter((m) => m?.source === 'idem-lab' && m.type === 'idem:challenge').map((m) => m.detail),
    );
  await demo.waitForFunction(() =>
    window.__messages.some((m) => m?.type === 'idem:challenge' && m.detail.status === 'solved'),
  );
  // Its faults came with the link: "solved" says so.
  assert.deepEqual(await posted(), [
    { v: 1, id: 'redis-2', status: 'open' },
    { v: 1, id: 'redis-2', status: 'solved', by: 'link', searchedFirst: false },
  ]);
  assert.deepEqual(demo.errors, []);
  await demo.context().close();
});
