// Accessibility audit of the built page with axe-core (every rule, every impact): the seed
// stories and more scenarios at the start and at the end of a run, light and dark theme,
// English and Russian, desktop and phone width, the `?embed` view, the demo page with its
// mounted widgets, and the explorer's result with a counter-example open. Any violation fails
// the test and is printed with its rule id and the elements it found.
//
// The page runs under a strict CSP (no inline script, so no <script> tag can be added): axe's
// source is evaluated through the DevTools protocol instead, which the policy does not see.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, audit, catalog, watchErrors, playFrames, DESKTOP, PHONE } from './harness.mjs';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

/** Audits `page` and records the problems under `label`. */
async function check(page, label, problems) {
  for (const line of await audit(page)) problems.push(`[${label}] ${line}`);
}

function report(problems) {
  assert.deepEqual(problems, [], `axe-core violations:\n${problems.join('\n')}`);
}

/** Opens the lesson with a theme and viewport; `dark` asks the system for a dark scheme. */
const openIn = (query, { dark = false, viewport = DESKTOP } = {}) =>
  lab.open(query, viewport, {
    colorScheme: dark ? 'dark' : 'light',
    reducedMotion: 'reduce',
  });

// The four seed stories (and the protected counter) plus six more scenarios: start and end.
const MATRIX = [
  { scenario: 'naive', dark: false, lang: 'en', viewport: DESKTOP },
  { scenario: 'key', dark: true, lang: 'en', viewport: DESKTOP },
  { scenario: 'cas', dark: false, lang: 'ru', viewport: DESKTOP },
  { scenario: 'counter-naive', dark: true, lang: 'ru', viewport: PHONE },
  { scenario: 'counter', dark: false, lang: 'en', viewport: PHONE },
  { scenario: 'missing-key', dark: true, lang: 'en', viewport: DESKTOP },
  { scenario: 'concurrent', dark: false, lang: 'ru', viewport: PHONE },
  { scenario: 'ttl', dark: true, lang: 'ru', viewport: DESKTOP },
  { scenario: 'evict', dark: false, lang: 'en', viewport: DESKTOP },
  { scenario: 'crash-window', dark: true, lang: 'en', viewport: PHONE },
  { scenario: 'fully-protected', dark: false, lang: 'ru', viewport: DESKTOP },
];

for (const c of MATRIX) {
  const where = `${c.dark ? 'dark' : 'light'}, ${c.lang}, ${c.viewport.width} px`;
  test(`axe: ${c.scenario} (${where}) at the start and the end of a run`, async () => {
    const problems = [];
    const page = await openIn(`scenario=${c.scenario}&lang=${c.lang}`, c);
    await check(page, `${c.scenario} start`, problems);
    await page.getByTestId('run-to-end').click();
    await check(page, `${c.scenario} end`, problems);
    assert.deepEqual(page.errors, []);
    await page.context().close();
    report(problems);
  });
}

test('axe: the theme toggle and the language switch in place', async () => {
  const problems = [];
  const page = await openIn('scenario=key', { dark: false });
  await page.getByTestId('theme').click(); // to dark
  await check(page, 'toggled dark', problems);
  await page.getByTestId('theme').click(); // back to light
  await check(page, 'toggled light', problems);
  await page.getByTestId('lang-ru').click();
  // Audited once the Russian page is drawn, with its panels' texts.
  await page.locator('.idem-lab[lang="ru"][data-ready="true"]').waitFor();
  await page.getByText(catalog('ru').get('gloss.title'), { exact: true }).first().waitFor();
  await check(page, 'switched language', problems);
  await page.context().close();
  report(problems);
});

for (const dark of [false, true]) {
  test(`axe: the ?embed view (${dark ? 'dark' : 'light'})`, async () => {
    const problems = [];
    const page = await openIn(`scenario=cas&embed${dark ? '&lang=ru' : ''}`, {
      dark,
      viewport: dark ? PHONE : DESKTOP,
    });
    await check(page, 'embed start', problems);
    await page.getByTestId('run-to-end').click();
    await check(page, 'embed end', problems);
    await page.context().close();
    report(problems);
  });
}

test('axe: the demo page with two mounted widgets', async () => {
  const problems = [];
  const context = await lab.browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(lab.site.url + 'demo.html');
  await page.locator('[data-testid=widget-a] [data-testid=step-index]').waitFor();
  await page.locator('[data-testid=widget-b] [data-testid=step-index]').waitFor();
  await page.locator('[data-testid=widget-bad] [data-testid=embed-error]').waitFor();
  // The exercise, the tag's widget and the live view of the data stream, drawn whole.
  await page.locator('[data-testid=widget-exercise] [data-testid=challenge-goal]').waitFor();
  await page.locator('[data-testid=tag-lab] [data-testid=exercise]').waitFor();
  await page.locator('[data-testid=stream-rows] tr').first().waitFor();
  await check(page, 'demo', problems);
  await page.locator('[data-testid=widget-a] [data-testid=run-to-end]').click();
  await check(page, 'demo, widget a at the end', problems);
  assert.deepEqual(errors, []);
  await context.close();
  report(problems);
});

for (const dark of [false, true]) {
  test(`axe: the explorer's result and a counter-example open (${dark ? 'dark' : 'light'})`, async () => {
    const problems = [];
    const page = await openIn(`scenario=naive${dark ? '&lang=ru' : ''}`, {
      dark,
      viewport: dark ? PHONE : DESKTOP,
    });
    await page.getByTestId('explore-k').selectOption('1');
    await page.getByTestId('explore-run').click();
    await page.locator('[data-testid=explore-result][data-state=done]').waitFor({ timeout: 60_000 });
    await check(page, 'explorer result', problems);
    await page.getByTestId('counterexample').first().click();
    await check(page, 'counter-example open', problems);
    await page.getByTestId('run-to-end').click();
    await check(page, 'counter-example at the end', problems);
    assert.deepEqual(page.errors, []);
    await page.context().close();
    report(problems);
  });
}

/** Records which live regions change: the data-testid (or class) of each touched region. */
async function watchLiveRegions(page) {
  await page.evaluate(() => {
    window.__live = [];
    const live = '[aria-live], [role=status], [role=alert], [role=log]';
    new MutationObserver((records) => {
      for (const r of records) {
        const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
        const region = node?.closest(live);
        if (region) window.__live.push(region.dataset.testid ?? region.className);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}
const liveChanges = async (page) => {
  const seen = await page.evaluate(() => window.__live.splice(0));
  return [...new Set(seen)].sort();
};

test('screen readers: one step at a time, the verdict when it changes, the topology in words', async () => {
  const page = await openIn('scenario=naive');
  await watchLiveRegions(page);
  let previous = await page.getByTestId('narration').innerText();
  let flips = 0;
  let before = await page.getByTestId('verdict').getAttribute('data-verdict');
  for (let i = 0; i < 40 && !(await page.getByTestId('step-forward').isDisabled()); i++) {
    await page.getByTestId('step-forward').click();
    const now = await page.getByTestId('narration').innerText();
    const verdict = await page.getByTestId('verdict').getAttribute('data-verdict');
    const changed = await liveChanges(page);
    // Only the step's narration is announced, and the verdict exactly when it changes; the
    // prediction panel (a live region too) changes only on leaving the start and at the end.
    const atEnd = await page.getByTestId('run-to-end').isDisabled();
    const allowed = ['narration', 'verdict-text', ...(i === 0 || atEnd ? ['predict'] : [])];
    for (const c of changed) assert.ok(allowed.includes(c), `step ${i + 1}: ${c} announced`);
    assert.equal(changed.includes('verdict-text'), verdict !== before, `step ${i + 1}: verdict`);
    if (now !== previous) assert.ok(changed.includes('narration'), `step ${i + 1}: narration`);
    // One step's lines, not the story so far.
    if (previous && now !== previous) assert.ok(!now.includes(previous), `step ${i + 1} repeats the last`);
    if (verdict !== before) flips++;
    before = verdict;
    previous = now;
  }
  assert.equal(before, 'violated');
  assert.equal(flips, 1, 'the verdict changed once and was announced');
  assert.equal(await page.getByTestId('verdict-text').getAttribute('aria-live'), 'polite');

  // The topology in words: every node, and every packet in flight by its label.
  await page.getByTestId('restart').click();
  const packets = page.locator('[data-testid=packet]');
  for (let i = 0; i < 30 && !(await packets.count()); i++) {
    await page.getByTestId('step-forward').click();
  }
  const words = await page.getByTestId('topology-text').innerText();
  for (const node of await page.locator('[data-testid^=node-] > title').allTextContents()) {
    assert.ok(words.includes(node), `${node} in "${words}"`);
  }
  const labels = await packets.evaluateAll((ps) => ps.map((p) => p.getAttribute('aria-label')));
  assert.ok(labels.length > 0);
  for (const label of labels) assert.ok(words.includes(label), `${label} in "${words}"`);
  assert.match(words, new RegExp(`${labels.length} packets? in flight`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('motion: packets glide normally, jump with prefers-reduced-motion; nothing repeats', async () => {
  // 160 frames of 16 ms on the fake clock (playFrames says why not the real one): 10 s of the
  // story at 4×, the same frames whatever the machine's load.
  const moving = await lab.open('scenario=naive', DESKTOP, { reducedMotion: 'no-preference' });
  const glide = await playFrames(moving, 160);
  assert.ok(glide.places.length > 1, `packets flew: ${glide.places}`);
  // Each packet is drawn at a new place every frame of its flight: none stays in one place (a
  // hop between the API and a store lasts two frames at 4×), and the phone's, longer, glide
  // through several (the same figures on any machine: the frames are the fake clock's).
  assert.ok(Math.min(...glide.places) > 1, `every packet moves: ${glide.places}`);
  assert.ok(Math.max(...glide.places) > 3, `packets glide: ${glide.places}`);
  // No animation loops or repeats (nothing can flash several times a second).
  for (const n of glide.iterations) assert.ok(Number.isFinite(n) && n <= 1, `iterations ${n}`);
  assert.deepEqual(moving.errors, []);
  await moving.context().close();

  const still = await lab.open('scenario=naive', DESKTOP, { reducedMotion: 'reduce' });
  const jump = await playFrames(still, 160);
  assert.equal(jump.places.length, glide.places.length, 'the same packets flew');
  assert.deepEqual(
    jump.places.filter((n) => n !== 1),
    [],
    `each packet is drawn in one place: ${jump.places}`,
  );
  assert.equal(jump.running, 0, 'no animation or transition runs');
  assert.deepEqual(still.errors, []);
  await still.context().close();
});
