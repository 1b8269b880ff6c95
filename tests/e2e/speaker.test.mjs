// Issue #42 item 1 in the page: who is speaking. While two requests or more are alive (the
// lease runs: a stalled handler and the retry's), each narration line names its attempt and
// side, and the sequence diagram's arrows carry a badge named for screen readers; with one
// request alive (story 1's first steps) nothing is added. Checked against the catalogs' words,
// in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labForFile, catalog, stepUntil, audit, openDemo, PHONE } from './harness.mjs';

const lab = labForFile();

/** The catalog's template `key` with its `{n}` filled. */
const words = (c, key, n) => c.get(key).replace('{n}', String(n));

for (const lang of ['en', 'ru']) {
  test(`lease-expiry in ${lang}: the stalled handler and the retry's are named, in words and badges`, async () => {
    const c = catalog(lang);
    const page = await lab.open(`scenario=lease-expiry&lang=${lang}`);
    const spoken = page.getByTestId('narration-spoken');
    await spoken.waitFor({ state: 'attached' });
    assert.equal(await spoken.textContent(), '', 'one request alive at the start: no speaker');
    const stalled = words(c, 'speaker.stalled', 1);
    await stepUntil(page, async () => (await spoken.textContent()).includes(stalled), 60);
    // The named narration is the one shown (and announced); the plain one gives way.
    assert.ok(await spoken.isVisible(), 'the narration with its speakers is shown');
    assert.ok(!(await page.getByTestId('narration').isVisible()), 'the plain narration is hidden');
    const retry = c.get('speaker.retry').split('{n}')[0];
    await stepUntil(page, async () => (await spoken.textContent()).includes(retry), 60);
    // The arrows sent while both were alive carry a badge, named in their accessible name.
    const names = await page
      .getByTestId('seq-arrow')
      .evaluateAll((arrows) => arrows.map((a) => a.getAttribute('aria-label')));
    for (const n of [1, 2]) {
      assert.ok(
        names.some((name) => name.includes(`, ${words(c, 'speaker.badge', n)}`)),
        `an arrow named for attempt ${n}: ${names.join(' | ')}`,
      );
    }
    assert.ok((await page.locator('[data-testid=seq-arrow] .seq-badge').count()) > 0, 'badges drawn');
    assert.ok(!names[0].includes(words(c, 'speaker.badge', 1)), 'the first request, alone, has no badge');
    await page.context().close();
  });
}

test('story 1 at step 1: no speaker, no badge, the plain narration shown', async () => {
  const c = catalog('en');
  const page = await lab.open('scenario=naive&lang=en');
  const spoken = page.getByTestId('narration-spoken');
  await spoken.waitFor({ state: 'attached' });
  await page.getByTestId('step-forward').click();
  assert.equal(await page.getByTestId('step-index').innerText(), '1');
  assert.equal(await spoken.textContent(), '');
  assert.ok(await page.getByTestId('narration').isVisible());
  const said = await page.getByTestId('narration').innerText();
  for (const key of ['speaker.phone', 'speaker.handler', 'speaker.retry']) {
    assert.ok(!said.includes(c.get(key).split('{n}')[0].trim()), `${key} in "${said}"`);
  }
  // Story 1's two attempts never overlap: its whole run names no speaker.
  await page.getByTestId('run-to-end').click();
  assert.equal(await spoken.textContent(), '');
  assert.equal(await page.locator('[data-testid=seq-arrow] .seq-badge').count(), 0);
  await page.context().close();
});

// The stage: while two requests are alive each packet in flight wears its attempt's ring and
// badge, named for screen readers; with one alive, none. Steps 19–28 of the lease run have a
// packet of attempt 1's stalled handler and one of attempt 3's in flight.
for (const [lang, dark] of [
  ['en', false],
  ['ru', true],
]) {
  test(`lease-expiry in ${lang} (${dark ? 'dark' : 'light'}): rings name each packet's attempt only while two are alive`, async () => {
    const c = catalog(lang);
    const page = await lab.open(`scenario=lease-expiry&step=20&lang=${lang}`, undefined, {
      colorScheme: dark ? 'dark' : 'light',
    });
    const rings = page.getByTestId('packet-ring');
    await rings.first().waitFor();
    const drawn = await rings.evaluateAll((all) =>
      all.map((r) => ({
        id: r.getAttribute('data-msg-id'),
        name: r.getAttribute('aria-label'),
        role: r.getAttribute('role'),
        mark: r.querySelector('.ring-mark').textContent,
        colour: getComputedStyle(r.querySelector('.ring-badge')).fill,
      })),
    );
    const packets = await page.getByTestId('packet').evaluateAll((all) => all.map((p) => p.getAttribute('data-msg-id')));
    assert.deepEqual(drawn.map((r) => r.id).sort(), [...packets].sort(), 'one ring per packet in flight');
    for (const n of [1, 3]) {
      const ring = drawn.find((r) => r.mark === String(n));
      assert.ok(ring, `a ring for attempt ${n}: ${JSON.stringify(drawn)}`);
      assert.equal(ring.role, 'img');
      assert.ok(ring.name.endsWith(words(c, 'speaker.badge', n)), ring.name);
    }
    assert.notEqual(drawn[0].colour, drawn[1].colour, 'each attempt in its own colour');
    // Contrast in this theme: axe finds nothing on the page with the rings drawn.
    assert.deepEqual(await audit(page), []);
    // Back at a step with one request alive: no ring.
    await page.context().close();
    const one = await lab.open(`scenario=lease-expiry&step=3&lang=${lang}`);
    assert.ok((await one.getByTestId('packet').count()) > 0, 'a packet in flight');
    assert.equal(await one.getByTestId('packet-ring').count(), 0);
    await one.context().close();
  });
}

// The phone's bar: the step's words with their speakers, and said once (the box under it, the
// narration with its speakers, is left to screen readers there).
for (const lang of ['en', 'ru']) {
  test(`lease-expiry at 360 px in ${lang}: the bar names the speaker and the narration shows once`, async () => {
    const c = catalog(lang);
    const page = await lab.open(`scenario=lease-expiry&step=20&lang=${lang}`, PHONE);
    const bar = page.getByTestId('now-line');
    const spoken = page.getByTestId('narration-spoken');
    await spoken.waitFor({ state: 'attached' });
    const said = (await spoken.textContent()).trim();
    assert.ok(said.length > 10, 'two alive: the narration names its speakers');
    const line = await bar.innerText();
    assert.ok(await bar.isVisible(), 'the bar shows the words');
    assert.ok(line.includes(words(c, 'speaker.stalled', 1)) || line.includes(c.get('speaker.retry').split('{n}')[0]), line);
    const squash = (s) => s.replace(/\s+/g, '');
    assert.equal(squash(line), squash(said), 'the bar says what the narration says');
    // Shown once: the box's copy takes no room on screen, the plain one is hidden.
    const box = await spoken.boundingBox();
    assert.ok(box.width <= 1 && box.height <= 1, `the box's copy is not shown: ${JSON.stringify(box)}`);
    assert.ok(!(await page.getByTestId('narration').isVisible()), 'the plain narration is hidden');
    // The badges' numbers are 12 CSS px or more on a phone.
    const px = await page
      .getByTestId('packet-ring')
      .evaluateAll((all) => all.map((r) => {
        const t = r.querySelector('.ring-mark');
        return parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
      }));
    assert.ok(px.length >= 2 && px.every((p) => p >= 11.99), `badge text ${px}`);
    await page.context().close();
  });
}

// A widget shows who is speaking too: `?embed` and a widget mounted on a course page.
test('an ?embed widget and a mounted one name the speakers and ring the packets', async () => {
  const c = catalog('en');
  const page = await lab.open('scenario=lease-expiry&step=20&lang=en&embed');
  await page.getByTestId('packet-ring').first().waitFor();
  const spoken = page.getByTestId('narration-spoken');
  await spoken.waitFor();
  const said = await spoken.textContent();
  assert.ok(said.includes(words(c, 'speaker.stalled', 1)) || said.includes(c.get('speaker.retry').split('{n}')[0]), said);
  assert.ok(await spoken.isVisible());
  await page.context().close();

  // A course page mounts one (the demo page: the module's `mount` under a strict CSP).
  const demo = await openDemo(lab, () => {});
  await demo.evaluate(() => {
    const el = document.createElement('div');
    el.id = 'spk';
    document.body.append(el);
    window.idemLab.mount(el, { scenario: 'lease-expiry', lang: 'en' });
  });
  const widget = demo.locator('#spk');
  const named = widget.getByTestId('narration-spoken');
  await named.waitFor({ state: 'attached' });
  await stepUntil(widget, async () => /\(attempt \d\)/.test(await named.textContent()), 60);
  assert.ok(await named.isVisible(), 'the mounted widget shows the speakers');
  assert.ok(!(await widget.getByTestId('narration').isVisible()), 'in place of the plain narration');
  await demo.context().close();
});
