// Contract ids and options that no other test touched (#27 item 6): the challenge's status
// line, the quiz, the sequence diagram, the calculator's per-hour and window outputs, the
// counter-examples' invariant, the `autoplay` mount option and the theme toggle's effect.
// Each is checked against what the page or the core says, not against a copied figure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, catalog, step, text, watchErrors, DESKTOP } from './harness.mjs';

// Started and closed around the file; no page a test opens may log an error.
const lab = labForFile();

const en = catalog('en');

test('challenge-status says how the challenge stands, in the catalog\'s words', async () => {
  const page = await lab.open('challenge=redis-2');
  const status = page.getByTestId('challenge-status');
  assert.equal(await status.innerText(), en.get('challenge.open'));
  await page.getByTestId('step-forward').click();
  await page.locator('details:has([data-testid="crash-phase"]) > summary').click();
  await page.getByTestId('crash-phase').selectOption('write-ledger');
  await page.getByTestId('fault-crash').click();
  await page.getByTestId('run-to-end').click();
  assert.equal(await page.getByTestId('challenge').getAttribute('data-status'), 'solved');
  // It says what broke, with how many of the budget's faults (the words from the catalog).
  const solved = await status.innerText();
  assert.ok(solved.startsWith(en.get('challenge.solved_by').split('{')[0]), solved);
  assert.match(solved, /1 of 2/);
  await page.context().close();
});

test('the calculator: per hour is requests × 3600 × record size, and the window is flagged', async () => {
  const page = await lab.open('scenario=key');
  const fill = async (id, value) => {
    await page.getByTestId(id).fill(value);
    await page.getByTestId(id).press('Tab');
  };
  await fill('calc-rps', '1000');
  await fill('calc-size', '500');
  // 1000 requests/s × 3600 s × 500 B = 1.8 GB for each extra hour of TTL.
  assert.match(await text(page, 'calc-per-hour'), /^1\.8\s?GB$/);
  await fill('calc-size', '250');
  assert.match(await text(page, 'calc-per-hour'), /^900(\.0)?\s?MB$/);
  await fill('calc-ttl', '24');
  await fill('calc-window', '30');
  await page.locator('[data-testid="calc-window-note"].bad').waitFor();
  await fill('calc-window', '24');
  await page.locator('[data-testid="calc-window-note"].bad').waitFor(); // TTL = window does not outlast it
  await fill('calc-window', '12');
  await page.locator('[data-testid="calc-window-note"].ok').waitFor();
  assert.match(await text(page, 'calc-window-note'), /\b12 h\b/);
  await page.context().close();
});

test('the sequence diagram draws one arrow per packet on the phone\'s link and jumps to its step', async () => {
  const page = await lab.open('scenario=naive');
  await page.getByTestId('run-to-end').click();
  const arrows = page.getByTestId('seq-arrow');
  const n = await arrows.count();
  assert.ok(n > 0, 'arrows drawn');
  assert.ok(await page.getByTestId('sequence').isVisible());
  const ids = await arrows.evaluateAll((all) => all.map((a) => a.getAttribute('data-msg-id')));
  assert.equal(new Set(ids).size, ids.length, 'one arrow per packet');
  const jump = arrows.first();
  const to = Number(await jump.getAttribute('data-jump'));
  await jump.click();
  assert.equal(await step(page), to, 'pressing an arrow shows its step');
  await page.context().close();
});

test('the quiz asks about runs not played yet and scores what the core says', async () => {
  const page = await lab.open('scenario=counter');
  await page.getByTestId('run-to-end').click();
  const quiz = page.getByTestId('quiz');
  await quiz.waitFor();
  const questions = quiz.getByTestId('quiz-q');
  const count = await questions.count();
  assert.ok(count > 0);
  const known = /^[a-z0-9-]+$/;
  for (let i = 0; i < count; i++) {
    const q = questions.nth(i);
    assert.match((await q.getAttribute('data-scenario')) ?? '', known);
    await q.getByTestId('quiz-option').first().check();
    await q.getByTestId('quiz-result').locator('[data-correct]').waitFor();
  }
  const right = await quiz
    .getByTestId('quiz-result')
    .locator('[data-correct="true"]')
    .count();
  assert.equal(await page.getByTestId('quiz-score').getAttribute('data-right'), String(right));
  await page.context().close();
});

test('counter-examples name the invariant they break', async () => {
  const page = await lab.open('scenario=naive');
  await page.getByTestId('explore-k').selectOption('1');
  await page.getByTestId('explore-run').click();
  await page.locator('[data-testid="explore-result"][data-state="done"]').waitFor();
  const names = await page
    .getByTestId('counterexample')
    .evaluateAll((all) => all.map((c) => c.getAttribute('data-invariant')));
  assert.ok(names.length > 0);
  const invariants = new Set(['at-most-once', 'ledger-matches-processor', 'balance-matches-debits',
    'likes-match-operations', 'no-cross-user-replay', 'success-means-done', 'user-told-the-truth']);
  for (const name of names) assert.ok(invariants.has(name), name);
  await page.context().close();
});

test('autoplay: a widget mounted with it plays by itself; without it, it waits', async () => {
  // `window.idemLab.mount` is the demo page's (web/demo.js), as a course page would have it.
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(lab.site.url + 'demo.html');
  await page.waitForSelector('html[data-ready=true]');
  await page.evaluate(() => {
    const mountOne = (options) => {
      const el = document.createElement('div');
      document.body.append(el);
      return [el, window.idemLab.mount(el, { scenario: 'naive', ...options })];
    };
    window.__autoplay = { playing: mountOne({ autoplay: true }), waiting: mountOne({ autoplay: false }) };
  });
  const at = (which) => page.evaluate((which) => Number(
    window.__autoplay[which][0].querySelector('[data-testid=step-index]')?.textContent ?? 'NaN',
  ), which);
  // Until the one that plays has stepped (a bound in time, not in frames: a loaded machine
  // paints fewer of them).
  await page.waitForFunction(() => Number(
    window.__autoplay.playing[0].querySelector('[data-testid=step-index]')?.textContent ?? 'NaN',
  ) > 0, null, { timeout: 30_000 }).catch(() => {});
  const steps = { playing: await at('playing'), waiting: await at('waiting') };
  await page.evaluate(() => {
    window.__autoplay.playing[1].unmount();
    window.__autoplay.waiting[1].unmount();
  });
  assert.ok(steps.playing > 0, `autoplay moved on: ${JSON.stringify(steps)}`);
  assert.equal(steps.waiting, 0, 'the other stays at step 0');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the theme toggle changes what the page paints, not only its attribute', async () => {
  const page = await lab.open('scenario=key', DESKTOP, { colorScheme: 'light' });
  const root = page.locator('.idem-lab');
  const paint = () => root.evaluate((el) => getComputedStyle(el).backgroundColor + ' / ' + getComputedStyle(el).color);
  const light = await paint();
  const before = await root.getAttribute('data-theme');
  await page.getByTestId('theme').click();
  await page.waitForFunction((b) => document.querySelector('.idem-lab').dataset.theme !== b, before);
  const after = await paint();
  assert.notEqual(after, light, `painted the same: ${light}`);
  await page.context().close();
});
