// The checked "would have prevented it" (issue #41 item 2) in a real browser, in English and
// Russian: it follows the run's summary ("What you just saw") beside the player, under a
// heading of its own, once the search worker answers. Each test waits for what the page
// guarantees (the block's `data-state="done"`), never for a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, catalog, verdict } from './harness.mjs';

const lab = labForFile();
const LANGS = ['en', 'ru'];

/** Opens `query` in `lang`, runs it to its end and waits for the checked block's answer;
 * returns the page and the block's lines (text). */
async function checked(query, lang) {
  const page = await lab.open(`${query}&lang=${lang}`);
  await page.getByTestId('run-to-end').click();
  await page.locator('[data-testid=checked-claim][data-state=done]').waitFor();
  const lines = await page.getByTestId('checked-claim-line').allInnerTexts();
  return { page, lines };
}

/** `{name}` as the catalog quotes a protection's name in a sentence. */
const quoted = (words, key) => words.get('sum.name').replace('{name}', words.get(`protect.${key}`));

test('a naive run with a lost answer: the block follows the summary and credits Idempotency-Key', async () => {
  for (const lang of LANGS) {
    const words = catalog(lang);
    const { page, lines } = await checked('scenario=naive', lang);
    assert.equal(await verdict(page), 'violated');
    // Its own heading, right after the recap ("What you just saw") in the player's column.
    const order = await page.evaluate(() => {
      const recap = document.querySelector('[data-testid=recap]')?.closest('section');
      const block = document.querySelector('[data-testid=checked-claim]');
      return {
        heading: block.querySelector('h2')?.textContent,
        recapHeadings: [...(recap?.querySelectorAll('h2') ?? [])].map((h) => h.textContent),
        follows: !!(recap && recap.compareDocumentPosition(block) & Node.DOCUMENT_POSITION_FOLLOWING),
        sameColumn: recap?.parentElement === block.parentElement,
      };
    });
    assert.equal(order.heading, words.get('sum.checked_title'), lang);
    assert.ok(order.recapHeadings.includes(words.get('ui.recap')), `${lang}: ${order.recapHeadings}`);
    assert.ok(order.follows && order.sameColumn, `${lang}: ${JSON.stringify(order)}`);
    // "Switching on “Idempotency-Key” would have prevented it: …", proved by the search.
    const [prefix] = words.get('sum.proved').split('{protections}');
    assert.ok(lines[0].startsWith(prefix), `${lang}: ${lines[0]}`);
    assert.ok(lines[0].includes(quoted(words, 'key')), `${lang}: ${lines[0]}`);
    assert.ok(!lines.some((l) => l.includes('sum.') || l.includes('{')), `${lang}: ${lines}`);
    await page.context().close();
  }
});

test('crash-window names the missing "record the key" phase and links the schedule that still breaks same-tx', async () => {
  for (const lang of LANGS) {
    const words = catalog(lang);
    const { page, lines } = await checked('scenario=crash-window', lang);
    const sameTx = quoted(words, 'same-tx');
    assert.ok(!lines[0].includes(sameTx), `${lang}: credited: ${lines[0]}`);
    assert.ok(lines[0].includes(quoted(words, 'forward')), `${lang}: ${lines[0]}`);
    const absent = lines.find((l) => l.includes(words.get('phase.record-key')));
    assert.ok(absent && absent.includes(sameTx), `${lang}: ${lines}`);
    // "“Key in the ledger transaction” does not stop it: <the breaking schedule>".
    const notStopped = words.get('sum.not_stopped').replace('{protection}', sameTx);
    const refuted = page.getByTestId('checked-claim-line').filter({ hasText: notStopped });
    assert.equal(await refuted.count(), 1, `${lang}: ${lines}`);
    // Following it opens that schedule in that design, and the run breaks there.
    await refuted.getByTestId('checked-claim-link').click();
    await page.waitForURL(/protect=[^&]*same-tx/);
    assert.match(page.url(), /base=1&faults=/);
    await page.getByTestId('run-to-end').click();
    assert.equal(await verdict(page), 'violated', lang);
    await page.context().close();
  }
});

test('a stale holder (pause, then a retry) does not credit the key in the ledger transaction', async () => {
  for (const lang of LANGS) {
    const words = catalog(lang);
    const { page, lines } = await checked('scenario=lease-expiry', lang);
    assert.ok(!lines[0].includes(quoted(words, 'same-tx')), `${lang}: ${lines[0]}`);
    assert.ok(lines[0].includes(quoted(words, 'forward')), `${lang}: ${lines[0]}`);
    assert.ok(lines[0].includes(words.get('kind.pause')), `${lang}: ${lines[0]}`);
    await page.context().close();
  }
});

test('a run of more than three faults says it checked this schedule only', async () => {
  const query = 'scenario=naive&base=1&faults=0.lose-ack_0.lose-ack_0.lose-ack_0.lose-ack';
  for (const lang of LANGS) {
    const words = catalog(lang);
    const { page, lines } = await checked(query, lang);
    assert.equal(await verdict(page), 'violated');
    // "… Checked this schedule only: the run had 4 faults, …" (proved or not).
    const only = (key) => words.get(key).split('. ').at(-1).split('{k}')[0];
    assert.ok(
      [only('sum.proved_schedule'), only('sum.unproved_schedule')].some((s) => lines[0].includes(s)),
      `${lang}: ${lines[0]}`,
    );
    assert.match(lines[0], /4/);
    await page.context().close();
  }
});
