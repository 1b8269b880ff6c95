// Nothing in the drawing overlaps, leaves its box or is cut (issue #42 item 6): every step of
// every scenario, at 1280 px and 360 px, in English and Russian. A step is made current with
// the player's own Step button (one click a step, no real-time playing), and each is measured
// by `walkLabelProblems` in the harness: a text of the topology or the sequence diagram that
// overlaps another or a card not its own, leaves its node card, packet pill or lifeline head,
// or is cut by a box that does not scroll; two packets' pills on one another, or any other mark
// of one packet (its ring's badge, a lost packet's shards, words and cross) on another's; a state panel's
// table or row out of its card, or a box of a panel that hides part of its text; a request or
// key broken over two lines; a visible text of the drawing under 12 CSS px; a packet's ring or
// badge out of the drawing. Its first cases were
// the screenshots: "will crash before: claim the key" out of the Payment API's card,
// "charge $100.00" and "pay_abc" on one another, "wrote nothing · found 1 row" over the edges
// of both cards, the ledger's table against its card's border, the Redis key broken as
// "idem:user_1:K / 1" (before and after: docs/screenshots/, tests/e2e/shots-overlap.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, DESKTOP, PHONE, installLabelProblems, walkLabelProblems } from './harness.mjs';

const lab = labForFile();

/** Every scenario, as the page lists them (its chips), or `OVERLAP_SCENARIOS=naive,key` while
 * working on one story. */
let listed;
async function scenarios() {
  if (process.env.OVERLAP_SCENARIOS) return process.env.OVERLAP_SCENARIOS.split(',');
  if (listed) return listed;
  const page = await lab.open('');
  const ids = await page
    .locator('[data-testid^="scenario-"]')
    .evaluateAll((chips) => chips.map((c) => c.dataset.testid.slice('scenario-'.length)));
  await page.context().close();
  assert.equal(ids.length, 23, 'every scenario has a chip');
  listed = ids;
  return ids;
}

/**
 * What this test still finds and is left for now, per width and language (the list only
 * shrinks: the test fails when one of these is gone too). Empty: the phone's seven cases (two
 * long packets side by side on one short link went past the drawing's edge or onto a card) went
 * with the tall drawing of issue #42 item 7 (crates/lesson/src/geometry.rs, every link in a band
 * of its own).
 */
const KNOWN = {
  'desktop en': [],
  'desktop ru': [],
  'phone en': [],
  'phone ru': [],
};

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
]) {
  for (const lang of ['en', 'ru']) {
    test(`no label overlaps, leaves its box or is cut: every step, ${size}, ${lang}`, async () => {
      const found = [];
      let steps = 0;
      const ids = await scenarios();
      // One page a configuration: a story's chip (those of "More mechanics" too, folded or not)
      // switches the run, which opens at step 0.
      const page = await lab.open(`lang=${lang}`, viewport);
      for (const id of ids) {
        await page.getByTestId(`scenario-${id}`).evaluate((chip) => chip.click());
        await page.waitForFunction(
          (id) => new URLSearchParams(location.search).get('scenario') === id || (id === 'naive' && !location.search.includes('scenario=')),
          id,
        );
        const walked = await walkLabelProblems(page);
        steps += walked.steps;
        found.push(...walked.problems.map((p) => `${id} ${p}`));
      }
      await page.context().close();
      assert.ok(steps > ids.length * 5, `walked ${steps} steps`);
      const known = KNOWN[`${size} ${lang}`];
      // Only a whole walk can tell that a known problem is gone.
      const gone = process.env.OVERLAP_SCENARIOS ? [] : known.filter((k) => !found.includes(k));
      assert.deepEqual(
        { found: found.filter((f) => !known.includes(f)), gone },
        { found: [], gone: [] },
        'a new problem (found), or a known one fixed: take it off KNOWN (gone)',
      );
    });
  }
}

// A ring is drawn for the time on screen, and Play passes through times the Step button never
// lands on: the lease run's step 20, opened by its link, put attempt 3's ring past the phone's
// right edge (issue #42 item 7). The walk above checks rings at every step it lands on; this
// checks the link's time at both widths, in both languages.
for (const lang of ['en', 'ru']) {
  test(`a ring stays inside the drawing at a time the Step button skips: lease-expiry step 20, ${lang}`, async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await lab.open(`scenario=lease-expiry&step=20&lang=${lang}`, viewport);
      await page.getByTestId('packet-ring').first().waitFor();
      await installLabelProblems(page);
      const rings = await page.getByTestId('packet-ring').count();
      const problems = await page.evaluate(() => window.idemLabelProblems());
      await page.context().close();
      assert.ok(rings >= 2, `two attempts ringed (${rings})`);
      assert.deepEqual(problems, [], `${viewport.width} px`);
    }
  });
}

// Retry pressed early in story 2 (after step 4): at step 18 of that run attempt 2's 409 is lost
// on the phone's link while attempt 1's 201 comes down the same wire; the 201 and its badge lay
// on the lost 409 (#42, the review of stop 54, d-early-s17). The Step walk above plays the
// stories without faults, so this run is opened by its link, at both widths, in both languages.
for (const lang of ['en', 'ru']) {
  test(`a packet in flight keeps off a lost one: story 2, Retry pressed early, ${lang}`, async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await lab.open(`scenario=key&faults=5.retry&step=18&lang=${lang}`, viewport);
      await page.getByTestId('lost-packet').waitFor();
      await page.getByTestId('packet-ring').first().waitFor();
      await installLabelProblems(page);
      // Measured where the lost packet's shards come to rest (as the walk does).
      await page.evaluate(() => {
        for (const a of document.getAnimations()) {
          if (Number.isFinite(a.effect?.getTiming().iterations ?? Infinity)) a.finish();
        }
      });
      const counts = await page.evaluate(() => [
        document.querySelectorAll('[data-testid="packet"]').length,
        document.querySelectorAll('[data-testid="lost-packet"]').length,
      ]);
      const problems = await page.evaluate(() => window.idemLabelProblems());
      await page.context().close();
      assert.deepEqual(counts, [1, 1], `${viewport.width} px: one packet in flight, one lost`);
      assert.deepEqual(problems, [], `${viewport.width} px`);
    }
  });
}

// The lease runs: while attempt 1's handler is stalled at the API (no packet of its in flight)
// and attempt 3 runs, the legend listed attempt 1 and nothing in the drawing wore its badge
// (#42, the review of stop 54). Now a badge beside the API's card, named for screen readers, in
// the legend's colour; the walk above checks it against the packets and the drawing's edge.
for (const lang of ['en', 'ru']) {
  test(`a stalled attempt wears its badge beside the API: lease-expiry, ${lang}`, async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await lab.open(`scenario=lease-expiry&lang=${lang}`, viewport);
      const badge = page.getByTestId('handler-badge');
      for (let i = 0; (await badge.count()) === 0; i++) {
        assert.ok(i < 30 && !(await page.getByTestId('step-forward').isDisabled()), `${viewport.width} px: no badge at the API`);
        await page.getByTestId('step-forward').click();
      }
      const seen = await page.evaluate(() => {
        const g = document.querySelector('[data-testid="handler-badge"]');
        const api = document.querySelector('[data-testid="node-api"] rect.card').getBoundingClientRect();
        const b = g.querySelector('circle').getBoundingClientRect();
        const legend = [...document.querySelectorAll('[data-testid="ring-legend"] li')].find((li) => li.querySelector('.ring-swatch').textContent === g.textContent.trim());
        return {
          mark: g.textContent.trim(),
          name: g.getAttribute('aria-label'),
          tone: g.getAttribute('class'),
          legend: legend && `${legend.getAttribute('class')}: ${legend.textContent}`,
          beside: Math.min(Math.abs(b.right - api.left), Math.abs(b.bottom - api.top)) < 12 && !(b.right > api.left && b.left < api.right && b.bottom > api.top && b.top < api.bottom),
        };
      });
      await page.context().close();
      assert.equal(seen.mark, '1', `${viewport.width} px`);
      assert.match(seen.name, lang === 'en' ? /^attempt 1$/ : /1/, `${viewport.width} px`);
      assert.ok(seen.legend?.startsWith('ring-1') && seen.tone.includes('ring-1'), `${viewport.width} px: ${JSON.stringify(seen)}`);
      assert.ok(seen.beside, `${viewport.width} px: beside the API's card, not on it`);
    }
  });
}
