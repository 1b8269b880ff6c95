// The data stream (issue 43, item 3): a scripted visit of the lesson page does every kind of
// interaction a student can, and every idem:* event it sends validates against
// docs/events.schema.json (tests/e2e/schema.mjs); the results carry what a grader needs (the
// faults as a list, the protections, a link that rebuilds the run, the balance where money is
// not the measure, the prediction's attempt, who solved a challenge).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, DESKTOP, ready } from './harness.mjs';
import { check } from './schema.mjs';

const lab = labForFile();

/** Opens the page with `query`, recording every idem:* event as the message an iframe posts. */
async function openRecorded(query) {
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  await context.addInitScript(() => {
    window.__events = [];
    const names = ['step', 'verdict', 'prediction', 'challenge', 'action'];
    for (const name of names) {
      document.addEventListener(`idem:${name}`, (e) =>
        window.__events.push({ source: 'idem-lab', type: e.type, detail: e.detail }),
      );
    }
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${lab.site.url}?${query}`);
  await ready(page);
  page.errors = errors;
  return page;
}

const events = (page) => page.evaluate(() => window.__events);
const kinds = async (page) =>
  (await events(page)).filter((e) => e.type === 'idem:action').map((e) => e.detail.kind);
/** Waits until an idem:action of `kind` has been sent (bounded in time by the test runner). */
const heard = (page, kind) =>
  page.waitForFunction((kind) => window.__events.some((e) => e.detail?.kind === kind), kind);

test('every idem:action of a scripted visit validates against the schema', async () => {
  const page = await openRecorded('scenario=key');
  // Predict, play and pause, step forward and back.
  await page.locator('[data-testid=predict-option][data-value=once]').first().click();
  await heard(page, 'prediction');
  await page.getByTestId('play-pause').click();
  await heard(page, 'play');
  await page.getByTestId('play-pause').click();
  await heard(page, 'pause');
  await page.getByTestId('restart').click();
  await page.getByTestId('step-forward').click();
  await page.getByTestId('step-forward').click();
  await page.getByTestId('step-back').click();
  await heard(page, 'step');
  // A glossary term opened beside the narration.
  for (let i = 0; i < 40; i++) {
    if (await page.getByTestId('narration').locator('[data-testid=term]').count()) break;
    await page.getByTestId('step-forward').click();
  }
  await page.getByTestId('narration').locator('[data-testid=term]').first().click();
  await page.getByTestId('term-pop').waitFor();
  await heard(page, 'glossary');
  // Faults: a packet dropped from the menu (once one is in flight on the phone's link), a
  // Retry, an eviction.
  await page.getByTestId('restart').click();
  await page.locator('details.fault-menu > summary').click();
  const packets = page.getByTestId('packet-select').locator('option:not([value=""])');
  for (let i = 0; i < 40 && !(await packets.count()); i++) await page.getByTestId('step-forward').click();
  await page.getByTestId('fault-drop').click();
  await heard(page, 'drop');
  await page.getByTestId('retry').click();
  await heard(page, 'retry');
  await page.getByTestId('fault-evict').click();
  await heard(page, 'fault');
  await page.getByTestId('run-to-end').click();
  await page.waitForFunction(() => window.__events.some((e) => e.type === 'idem:verdict'));
  // A protection, Surprise me, a search started and stopped.
  await page.getByTestId('protect-lock').click();
  await heard(page, 'protection');
  await page.getByTestId('chaos-run').click();
  await heard(page, 'surprise');
  // (k = 1: a short search, heard to its end.)
  await page.getByTestId('explore-k').selectOption('1');
  await page.getByTestId('explore-run').click();
  await heard(page, 'search-started');
  await page.waitForFunction(
    () => window.__events.some((e) => e.detail?.kind === 'search-stopped' && e.detail.finished),
    null,
    { timeout: 120_000 },
  );
  // Another story, played to its end (story 4's closing holds the quiz), and a quiz answer.
  await page.getByTestId('scenario-counter').click();
  await heard(page, 'scenario');
  await page.getByTestId('run-to-end').click();
  const question = page.getByTestId('quiz-q').first();
  await question.scrollIntoViewIfNeeded();
  await question.getByTestId('quiz-option').first().check();
  await heard(page, 'quiz');
  const all = await events(page);
  const problems = all.flatMap((e, i) => check(e).map((p) => `#${i} ${e.type} ${JSON.stringify(e.detail)}: ${p}`));
  assert.deepEqual(problems, []);
  const seen = new Set(await kinds(page));
  for (const kind of ['prediction', 'play', 'pause', 'step', 'glossary', 'drop', 'retry', 'fault', 'protection', 'surprise', 'search-started', 'search-stopped', 'scenario', 'quiz']) {
    assert.ok(seen.has(kind), `no ${kind} in ${[...seen]}`);
  }
  // Each action says where the run stands: its link rebuilds it (scenario first).
  const last = all.filter((e) => e.type === 'idem:action').at(-1).detail;
  assert.match(last.link, /^scenario=/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('results carry the faults, the link, the balance, the attempt and who solved a challenge', async () => {
  // compare-and-set: money is not the measure, the balance is; a prediction's second run is
  // its second attempt.
  const page = await openRecorded('scenario=cas');
  await page.locator('[data-testid=predict-option][data-value="80"]').click();
  await page.getByTestId('step-forward').click();
  await page.getByTestId('drop-next-ack').click();
  await heard(page, 'fault');
  await page.getByTestId('run-to-end').click();
  await page.getByTestId('restart').click();
  await page.getByTestId('run-to-end').click();
  await page.waitForFunction(() => window.__events.filter((e) => e.type === 'idem:prediction').length === 2);
  const verdicts = (await events(page)).filter((e) => e.type === 'idem:verdict').map((e) => e.detail);
  assert.equal(verdicts.length, 2);
  assert.equal(verdicts[0].balance, Number(await page.getByTestId('balance').innerText()));
  assert.equal(verdicts[0].faults, 1);
  assert.deepEqual(
    verdicts[0].faultList.map((f) => [f.kind, f.fault]),
    [['lose-ack', 'lose-ack']],
  );
  assert.deepEqual(verdicts[0].protections.includes('cas'), true);
  const predictions = (await events(page)).filter((e) => e.type === 'idem:prediction').map((e) => e.detail);
  assert.deepEqual(predictions.map((p) => [p.choice, p.attempt]), [['80', 1], ['80', 2]]);
  // The verdict's link rebuilds the run: the same verdict and balance on a fresh page.
  const again = await lab.open(verdicts[1].link);
  assert.equal(await again.getByTestId('verdict').getAttribute('data-verdict'), verdicts[1].verdict);
  assert.equal(Number(await again.getByTestId('balance').innerText()), verdicts[1].balance);
  await again.context().close();
  await page.context().close();

  // A challenge: opened with its breaking faults in the link, "solved" came from the link;
  // broken by the student's own fault, from the student.
  const shared = await openRecorded('challenge=redis-2&base=1&faults=1.crash.write-ledger');
  await shared.getByTestId('run-to-end').click();
  await shared.waitForFunction(() => window.__events.some((e) => e.detail?.status === 'solved'));
  const solved = (await events(shared)).filter((e) => e.type === 'idem:challenge').map((e) => e.detail);
  assert.deepEqual(solved.at(-1), { v: 1, id: 'redis-2', status: 'solved', by: 'link', searchedFirst: false });
  await shared.context().close();
  const own = await openRecorded('challenge=redis-2');
  await own.getByTestId('step-forward').click();
  await own.locator('details:has([data-testid="crash-phase"]) > summary').click();
  await own.getByTestId('crash-phase').selectOption('write-ledger');
  await own.getByTestId('fault-crash').click();
  await own.getByTestId('run-to-end').click();
  await own.waitForFunction(() => window.__events.some((e) => e.detail?.status === 'solved'));
  const mine = (await events(own)).filter((e) => e.type === 'idem:challenge').map((e) => e.detail);
  assert.deepEqual(mine.at(-1), { v: 1, id: 'redis-2', status: 'solved', by: 'student', searchedFirst: false });
  const problems = (await events(own)).flatMap((e) => check(e));
  assert.deepEqual(problems, []);
  await own.context().close();
});

test('a recording replays to the same step, faults and verdict; another version is refused', async () => {
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${lab.site.url}demo.html`);
  await page.waitForSelector('html[data-ready=true]');
  // Widget A (naive): a prediction, a step, a packet dropped by clicking it (once one is on
  // the phone's link), played to the end, one step back.
  const a = page.getByTestId('widget-a');
  await a.locator('[data-testid=predict-option][data-value=once]').click();
  await a.getByTestId('step-forward').click();
  const droppable = a.locator('[data-testid=packet].droppable');
  for (let i = 0; i < 40 && !(await droppable.count()); i++) await a.getByTestId('step-forward').click();
  await droppable.first().click();
  await a.getByTestId('run-to-end').click();
  await a.getByTestId('step-back').click();
  const recording = await page.evaluate(() => window.idemLab.widgets[0].record());
  assert.match(recording, /^R1\*0oscenario~naive/);
  assert.match(recording, /^[A-Za-z0-9*~,._-]+$/, 'a URL keeps it as it is');
  const shown = async (scope) => ({
    step: await scope.getByTestId('step-index').innerText(),
    verdict: await scope.getByTestId('verdict').getAttribute('data-verdict'),
    total: await scope.getByTestId('statement-total').innerText(),
    faults: await scope.getByTestId('fault-marker').evaluateAll((m) => m.map((e) => e.getAttribute('data-at'))),
  });
  const original = await shown(a);
  // Replayed in a new widget at 50x, and at once in another: the same state.
  const replayed = await page.evaluate(async (recording) => {
    const results = [];
    for (const [id, speed] of [['replay-fast', 50], ['replay-now', Infinity]]) {
      const el = document.createElement('div');
      el.dataset.testid = id;
      document.querySelector('main').append(el);
      const widget = window.idemLab.mount(el, { scenario: 'key' });
      await widget.ready();
      results.push(await widget.replay(recording, speed));
    }
    return results;
  }, recording);
  assert.deepEqual(replayed, [true, true]);
  for (const id of ['replay-fast', 'replay-now']) {
    assert.deepEqual(await shown(page.getByTestId(id)), original, id);
  }
  // Another version, or an edited entry: refused whole, with the reason; nothing changes.
  const refusals = await page.evaluate(async () => {
    const widget = window.idemLab.widgets[1];
    const reasons = [];
    for (const text of ['R2*0oscenario~key', 'R1*0oscenario~key*5s4999', 'scenario=key']) {
      await widget.replay(text, Infinity).then(
        () => reasons.push('replayed'),
        (error) => reasons.push(error.message),
      );
    }
    return reasons;
  });
  assert.match(refusals[0], /replay: the recording's format is version `2`; this lab replays version `1` only/);
  assert.match(refusals[1], /entry 1 does not replay/);
  assert.match(refusals[2], /not a recording/);
  assert.deepEqual(errors, []);
  await context.close();
  // A replay= link plays it on the page: it ends on the same step and verdict.
  const linked = await lab.open(`replay=${encodeURIComponent(recording)}`);
  await linked.waitForFunction(
    (step) => document.querySelector('[data-testid=step-index]')?.textContent === step,
    original.step,
  );
  assert.equal(await linked.getByTestId('verdict').getAttribute('data-verdict'), original.verdict);
  assert.equal(await linked.getByTestId('statement-total').innerText(), original.total);
  await linked.context().close();
});
