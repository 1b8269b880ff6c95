// "Surprise me" (#28): a random fault schedule drawn by the core from a seed the page takes from
// the browser's random source. The address names the seed beside the faults it drew, so a
// reload replays the same faults to the same verdict; each press draws another seed; a bad
// seed in a link is reported, never a blank page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, catalog, verdict, text, shot } from './harness.mjs';

const lab = labForFile();

/** The run on screen as the student sees it: its fault markers, and at the end its verdict
 * and card statement. */
async function seen(page) {
  const markers = await page
    .getByTestId('fault-marker')
    .evaluateAll((all) => all.map((m) => m.getAttribute('data-at')));
  await page.getByTestId('run-to-end').click();
  return { markers, verdict: await verdict(page), total: await text(page, 'statement-total') };
}

test('a chaos run is named by its seed and replays the same after a reload', async () => {
  const page = await lab.open('scenario=key');
  await page.getByTestId('chaos-run').click();
  await page.waitForFunction(() => /[?&]chaos=\d+/.test(location.search));
  const seed = await page.getByTestId('chaos-seed').getAttribute('data-seed');
  await page.getByTestId('chaos-seed').scrollIntoViewIfNeeded();
  await shot(page, 'chaos-run-1280-en', false);
  const query = new URL(page.url()).searchParams;
  assert.equal(query.get('chaos'), seed);
  assert.equal(query.get('base'), '1');
  const faults = query.get('faults').split('_');
  assert.ok(faults.length >= 1 && faults.length <= 6, query.get('faults'));
  // The line says how many were drawn, with the seed, in the catalog's words.
  const words = catalog('en').get('ui.chaos_seed').split('{seed}')[0].split('{n}')[0];
  assert.ok((await text(page, 'chaos-seed')).startsWith(words));
  assert.ok((await text(page, 'chaos-seed')).includes(seed));
  // It plays at once.
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=step-index]').textContent) > 0);
  await page.getByTestId('restart').click();
  const before = await seen(page);
  assert.equal(before.markers.length, faults.length, 'one marker per drawn fault');

  await page.reload();
  await page.locator('.idem-lab[data-ready="true"]').waitFor();
  assert.equal(await page.getByTestId('chaos-seed').getAttribute('data-seed'), seed);
  await page.getByTestId('restart').click();
  assert.deepEqual(await seen(page), before, 'the same faults, the same verdict, the same money');

  // Another press, another seed; a fault of the student's own ends the seed's claim.
  await page.getByTestId('chaos-run').click();
  await page.waitForFunction((old) => new URL(location.href).searchParams.get('chaos') !== old, seed);
  await page.getByTestId('restart').click();
  await page.getByTestId('drop-next-ack').click();
  await page.waitForFunction(() => !/[?&]chaos=/.test(location.search));
  assert.equal(await page.getByTestId('chaos-seed').count(), 0);
  await page.context().close();
});

test('a chaos seed that is not a number, or with faults that are not its own, is reported', async () => {
  for (const [query, says] of [
    ['scenario=key&base=1&faults=0.retry&chaos=abc', 'link.bad_chaos'],
    ['scenario=key&chaos=5', 'link.chaos_needs'],
    ['scenario=naive&compare=key&base=1&faults=0.lose-ack&chaos=5', 'link.chaos_with'],
  ]) {
    const page = await lab.open(query);
    const notice = await text(page, 'link-notice');
    const start = catalog('en').get(says).split('“')[0].split('(')[0];
    assert.ok(notice.includes(start), `${query}: ${notice}`);
    await page.context().close();
  }
  // Faults that the seed did not draw: the run plays them, but no seed is claimed.
  const page = await lab.open('scenario=key&base=1&chaos=5&faults=0.lose-ack');
  assert.equal(await page.getByTestId('link-notice').count(), 0, 'a link that plays');
  assert.equal(await page.getByTestId('fault-marker').count(), 1);
  assert.equal(await page.getByTestId('chaos-seed').count(), 0);
  await page.context().close();
});
