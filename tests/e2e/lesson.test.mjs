// Drives the built page (dist/) like a student: the four seed stories, time travel, deep
// links, a bad link, playback, and the phone layout. Run with `bash scripts/e2e.sh`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  labForFile, text, verdict, step, shot, playFrames, playOnFakeClock, FRAME_MS, DESKTOP, PHONE,
} from './harness.mjs';

// Started and closed around the file; no page a test opens may log an error.
const lab = labForFile();

// Each seed story without its scripted fault: the student loses the ack by hand, the
// phone's timeout fires and it retries on its own.
const STORIES = [
  { id: 'naive', figure: 'statement-total', value: '$200.00', verdict: 'violated' },
  { id: 'key', figure: 'statement-total', value: '$100.00', verdict: 'ok' },
  { id: 'cas', figure: 'balance', value: '80', verdict: 'ok' },
  { id: 'counter-naive', figure: 'likes', value: '102', verdict: 'violated' },
  { id: 'counter', figure: 'likes', value: '101', verdict: 'ok' },
];

for (const story of STORIES) {
  test(`${story.id}: lose the ack, let the phone retry, run to the end`, async () => {
    const page = await lab.open(`scenario=${story.id}&base=1`);
    await page.getByTestId('step-forward').click();
    await page.getByTestId('drop-next-ack').click();
    assert.equal(await page.getByTestId('drop-next-ack').getAttribute('data-armed'), '1');
    await page.getByTestId('run-to-end').click();
    assert.equal(await text(page, story.figure), story.value);
    assert.equal(await verdict(page), story.verdict);
    // Time travel is exact: back and forward again shows the same state.
    const end = { step: await step(page), figure: await text(page, story.figure) };
    await page.getByTestId('step-back').click();
    assert.equal(await step(page), end.step - 1);
    await page.getByTestId('step-forward').click();
    assert.equal(await step(page), end.step);
    assert.equal(await text(page, story.figure), end.figure);
    // The address bar holds the run: reopening it shows the same step and figure.
    const search = await page.evaluate(() => location.search);
    assert.match(search, new RegExp(`scenario=${story.id}`));
    assert.match(search, /faults=\d+\.lose-ack/);
    const again = await lab.open(search.slice(1));
    assert.equal(await step(again), end.step);
    assert.equal(await text(again, story.figure), end.figure);
    assert.deepEqual(page.errors, []);
    await page.context().close();
    await again.context().close();
  });
}

test('the seed stories as scripted reproduce the lesson', async () => {
  const expected = {
    naive: ['statement-total', '$200.00', 'violated'],
    key: ['statement-total', '$100.00', 'ok'],
    cas: ['balance', '80', 'ok'],
    'counter-naive': ['likes', '102', 'violated'],
    counter: ['likes', '101', 'ok'],
  };
  for (const [id, [figure, value, v]] of Object.entries(expected)) {
    const page = await lab.open(`scenario=${id}`);
    await page.getByTestId('run-to-end').click();
    assert.equal(await text(page, figure), value, id);
    assert.equal(await verdict(page), v, id);
    await page.context().close();
  }
});

test('dropping the response packet by clicking it, then retrying', async () => {
  const page = await lab.open('scenario=naive&base=1');
  const response = page.locator('[data-testid=packet][data-kind=response].droppable');
  for (let i = 0; i < 30 && !(await response.count()); i++) {
    await page.getByTestId('step-forward').click();
  }
  await shot(page, 'desktop-ack-in-flight');
  await response.first().click();
  assert.match(await text(page, 'narration'), /dropped/);
  await shot(page, 'desktop-ack-dropped');
  await page.getByTestId('retry').click();
  await page.getByTestId('run-to-end').click();
  assert.equal(await text(page, 'statement-total'), '$200.00');
  assert.equal(await verdict(page), 'violated');
  await page.context().close();
});

test('an internal packet explains why it cannot be dropped', async () => {
  const page = await lab.open('scenario=key&step=3');
  await page.locator('[data-testid=packet]:not(.droppable)').first().click();
  assert.match(await text(page, 'action-error'), /inside the data centre/);
  await page.context().close();
});

test('a deep link opens at its step', async () => {
  const page = await lab.open('scenario=cas&step=4');
  // The link counts the core's steps, the counter the visible ones: the ledger's answer (the
  // core's step 3) is folded into the debit it answers (idem_lesson::fold), so step=4 is 3.
  assert.equal(await step(page), 3);
  assert.match(await page.evaluate(() => location.search), /[?&]step=4(&|$)/);
  assert.equal(await page.getByTestId('scenario-cas').getAttribute('aria-pressed'), 'true');
  await page.context().close();
});

test('a bad link shows what is wrong and the default scenario', async () => {
  const page = await lab.open('scenario=teleport&protect=key.magic&step=x');
  const notice = page.getByTestId('link-notice');
  assert.ok(await notice.isVisible());
  const words = await notice.innerText();
  // Each bad value is named as a whole, in quotes (not just found somewhere in the text).
  for (const bad of ['teleport', 'magic', 'x']) assert.ok(words.includes(`“${bad}”`), words);
  assert.equal(await page.getByTestId('scenario-naive').getAttribute('aria-pressed'), 'true');
  assert.equal(await step(page), 0);
  await shot(page, 'desktop-bad-link');
  await page.context().close();
});

test('play animates packets and reaches the end', async () => {
  const page = await lab.open('scenario=key');
  // While it plays, packets glide: the same packet is seen at several places. On the fake
  // clock (see playFrames), so a loaded machine's late frames cannot make a packet jump.
  const glide = await playFrames(page, 120);
  assert.ok(glide.places.some((n) => n > 1), `no packet moved while playing: ${glide.places}`);
  await shot(page, 'desktop-playing');
  // The rest of the story, a frame every 16 ms, then the end as it is shown.
  await page.clock.runFor(60_000);
  await page.waitForFunction(
    () => document.querySelector('[data-testid=statement-total]').textContent === '$100.00'
      && document.querySelector('[data-testid=play-pause]').getAttribute('data-playing') === 'false',
  );
  assert.equal(await verdict(page), 'ok');
  await page.context().close();
});

test('playing jumps over the 25 h the phone sleeps, and says so', async () => {
  const page = await lab.open('scenario=ttl');
  // On the fake clock (see playFrames), frame by frame until the note shows: the note's time
  // on screen is the page's, not the machine's (a loaded machine could miss it on a real one).
  await playOnFakeClock(page);
  for (let i = 0; i < 3_000 && (await page.getByTestId('skipped').count()) === 0; i++) {
    await page.clock.runFor(FRAME_MS);
  }
  assert.match(await text(page, 'skipped'), /2[45]h/);
  await shot(page, 'desktop-ttl-skip');
  await page.context().close();
});

test('keyboard: arrows step, space plays, 3 opens compare-and-set', async () => {
  const page = await lab.open('scenario=naive');
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await step(page), 2);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await step(page), 1);
  await page.keyboard.press('3');
  assert.equal(await page.getByTestId('scenario-cas').getAttribute('aria-pressed'), 'true');
  await page.context().close();
});

test('above the fold at 1280×800: chips, the whole topology and the playback bar', async () => {
  for (const lang of ['en', 'ru']) {
    const page = await lab.open(`scenario=naive&step=3&lang=${lang}`, DESKTOP);
    const topology = await page.locator('.topology-frame').boundingBox();
    const play = await page.getByTestId('play-pause').boundingBox();
    assert.ok(topology.y >= 0 && topology.y + topology.height <= DESKTOP.height, `${lang}: topology ${JSON.stringify(topology)}`);
    assert.ok(play.y + play.height <= DESKTOP.height, `${lang}: play-pause ends at ${play.y + play.height}`);
    await page.context().close();
  }
});

test('node card text stays inside its card and phones put the narration under the controls', async () => {
  for (const [viewport, lang] of [[DESKTOP, 'en'], [DESKTOP, 'ru'], [PHONE, 'en'], [PHONE, 'ru']]) {
    const page = await lab.open(`scenario=naive&step=3&lang=${lang}`, viewport);
    const outside = await page.evaluate(() => {
      const out = [];
      for (const node of document.querySelectorAll('[data-testid^=node-]')) {
        const rect = node.querySelector('rect.card');
        if (!rect) continue;
        const card = rect.getBoundingClientRect();
        for (const t of node.querySelectorAll('text')) {
          const box = t.getBoundingClientRect();
          if (box.left < card.left || box.right > card.right) out.push(t.textContent);
        }
      }
      return out;
    });
    assert.deepEqual(outside, [], `${viewport.width}px ${lang}`);
    if (viewport === PHONE) {
      // From step 1 the bar sticks to the window's bottom (web/path.css): its place in the
      // page's flow is right under the drawing, so the narration is measured from there.
      const frame = await page.locator('#player .topology-frame').boundingBox();
      const bar = await page.locator('#player .playback').boundingBox();
      const narration = await page.getByTestId('narration').boundingBox();
      const money = await page.locator('.money-box').boundingBox();
      assert.ok(narration.y < money.y, `${lang}: narration comes before the figures on phones`);
      const under = narration.y - (frame.y + frame.height + bar.height);
      assert.ok(under < 450, `${lang}: narration ${under}px below the controls' place`);
    }
    await page.context().close();
  }
});

test('screenshots: desktop, phone, dark; no horizontal scroll at 360 px', async () => {
  for (const [name, query] of [
    ['start', 'scenario=key'],
    ['mid', 'scenario=naive&step=13'],
    ['end', 'scenario=naive&step=40'],
    ['counter', 'scenario=counter-naive&step=30'],
  ]) {
    const desk = await lab.open(query, DESKTOP);
    await shot(desk, `desktop-${name}`);
    await desk.context().close();
    const phone = await lab.open(query, PHONE, { hasTouch: true, isMobile: true });
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 360, `${name}: page is ${width}px wide at 360px`);
    await shot(phone, `phone-${name}`);
    await phone.getByTestId('node-client').scrollIntoViewIfNeeded();
    await shot(phone, `phone-${name}-stage`, false);
    await phone.context().close();
  }
  const dark = await lab.open('scenario=key&step=12', DESKTOP, { colorScheme: 'dark' });
  await shot(dark, 'desktop-dark');
  await dark.context().close();
  const calm = await lab.open('scenario=key&step=3', PHONE, { reducedMotion: 'reduce' });
  await shot(calm, 'phone-reduced-motion');
  await calm.context().close();
});

test('each press of "Lose the next answer" loses one more, and its label says how many', async () => {
  // Story 1's script loses one answer itself (armed at its second step).
  const page = await lab.open('scenario=naive');
  const button = page.getByTestId('drop-next-ack');
  assert.equal(await button.getAttribute('data-armed'), '0');
  await page.getByTestId('step-forward').click();
  await page.getByTestId('step-forward').click();
  await page.getByTestId('step-forward').click();
  assert.equal(await button.getAttribute('data-armed'), '1');
  assert.equal((await button.innerText()).trim(), 'Next answer will be lost');
  await button.click();
  assert.equal(await button.getAttribute('data-armed'), '2');
  assert.equal((await button.innerText()).trim(), 'The next 2 answers will be lost');
  assert.equal(await button.getAttribute('aria-pressed'), null, 'not a toggle');
  await page.getByTestId('run-to-end').click();
  assert.match(await text(page, 'verdict'), /Charged 3 times$/);
  await page.context().close();
});
