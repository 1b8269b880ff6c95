// The embedding demo page (issue 43's Done-when: `dist/demo.html` shows an exercise, the tag
// and a live view of the data stream) and "Download picture" as a PNG for slides (item 2).
// The page is served as a course would serve it (dist/ under a sub-path, the strict CSP);
// axe on the same page is a11y.test.mjs's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { labForFile, openDemo } from './harness.mjs';

const lab = labForFile();

/** The live view's rows, newest first, as { from, type, action, scenario, step }. */
const streamRows = (page) =>
  page.getByTestId('stream-rows').locator('tr').evaluateAll((rows) =>
    rows.map((row) => {
      const [from, type, action, scenario, step] = [...row.cells].map((c) => c.textContent);
      return { from, type, action, scenario, step };
    }),
  );

test('the exercise shows its goal and budget, and nothing that gives the answer away', async () => {
  const page = await openDemo(lab, () => {});
  assert.equal(await page.evaluate(() => window.idemLab.exercise.ready()), true);
  const w = page.getByTestId('widget-exercise');
  const goal = w.getByTestId('challenge-goal');
  await goal.waitFor();
  assert.match(await goal.innerText(), /Break story 2's design/);
  assert.equal(await goal.getAttribute('data-budget'), '2');
  assert.match(await w.getByTestId('challenge-used').innerText(), /Faults used: 0 of 2/);
  for (const absent of ['scenario-naive', 'protect-key', 'explore-run']) {
    assert.equal(await w.getByTestId(absent).count(), 0, absent);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the <idem-lab> tag renders a lesson with its attributes as options', async () => {
  const page = await openDemo(lab, () => {});
  const tag = page.getByTestId('tag-lab');
  assert.equal(await page.evaluate(() => document.getElementById('tag-lab').ready), true);
  await tag.locator('.idem-lab').waitFor();
  await tag.getByTestId('step-index').waitFor();
  await tag.getByTestId('exercise').waitFor();
  // lock="all": every switch shown, and none can be flipped; hide: no faults, no explorer.
  const switches = tag.locator('input[data-protect]');
  assert.ok((await switches.count()) > 0);
  for (const input of await switches.all()) assert.equal(await input.isDisabled(), true);
  assert.equal(await tag.getByTestId('explore-run').count(), 0);
  assert.equal(await tag.getByTestId('fault-crash').count(), 0);
  const state = await page.evaluate(() => document.getElementById('tag-lab').getState());
  assert.match(state.query, /^scenario=cas/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the live view gets a row for a step and for Play, from the widget that sent it', async () => {
  const page = await openDemo(lab, () => {});
  const a = page.getByTestId('widget-a');
  // A command is answered once the widget's data stream has started (docs/embedding.md):
  // from then on every interaction is an idem:action.
  await page.evaluate(() => window.idemLab.widgets[0].getState());
  const before = (await streamRows(page)).filter((r) => r.from === 'widget-a' && r.type === 'idem:action');
  assert.deepEqual(before, [], 'no action of widget A before the student acts');
  await a.getByTestId('step-forward').click();
  await page.locator('[data-testid=stream-rows] tr[data-from="widget-a"][data-type="idem:action"]').waitFor();
  const [row] = (await streamRows(page)).filter((r) => r.from === 'widget-a');
  assert.deepEqual(row, { from: 'widget-a', type: 'idem:action', action: 'step', scenario: 'naive', step: '1' });
  // Play on the tag's widget: a row from the tag.
  await page.evaluate(() => document.getElementById('tag-lab').getState());
  await page.getByTestId('tag-lab').getByTestId('play-pause').click();
  await page.locator('[data-testid=stream-rows] tr[data-from="tag-lab"]').first().waitFor();
  const tagRows = (await streamRows(page)).filter((r) => r.from === 'tag-lab');
  assert.ok(tagRows.some((r) => r.action === 'play' && r.scenario === 'cas'), JSON.stringify(tagRows));
  // Capped: never more than 20 rows, however many events arrive.
  for (let i = 0; i < 12; i++) {
    await a.getByTestId('step-forward').click();
    await a.getByTestId('step-back').click();
  }
  await page.waitForFunction(
    () => document.querySelector('[data-testid=stream-rows]').rows.length === 20,
  );
  const live = page.getByTestId('stream-view');
  assert.equal(await live.getAttribute('aria-live'), 'polite');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('"Download picture" saves an SVG, and a PNG for slides at twice its size', async () => {
  const page = await openDemo(lab, () => {});
  assert.equal(await page.evaluate(() => window.idemLab.exercise.ready()), true);
  const w = page.getByTestId('widget-exercise');
  const svgWidth = await page.evaluate(async () => {
    const svg = await window.idemLab.exercise.picture();
    return Number(/^<svg[^>]* width="(\d+)"/.exec(svg)[1]);
  });
  assert.ok(svgWidth > 0);
  const save = async (testid) => {
    const [download] = await Promise.all([page.waitForEvent('download'), w.getByTestId(testid).click()]);
    return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
  };
  const svg = await save('download-picture');
  assert.equal(svg.name, 'idempotency-lab.svg');
  assert.match(svg.bytes.toString('utf8'), /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  const png = await save('download-picture-png');
  assert.equal(png.name, 'idempotency-lab.png');
  assert.ok(png.bytes.length > 1000, `${png.bytes.length} bytes`);
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'the PNG signature');
  assert.equal(png.bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  assert.equal(png.bytes.readUInt32BE(16), svgWidth * 2, "twice the picture's width");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
