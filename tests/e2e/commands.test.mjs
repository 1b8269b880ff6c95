// Commands from the host (issue 43, item 2) against the real bundle on the demo page:
// getState()/setState() round trip (a string and the link object; a bad state is refused with
// the link's words), freeze(on) (the widget takes no input, then takes it again), picture()
// (one valid, self-contained SVG with the five nodes), and an `?embed` frame that takes the
// same commands only from the origin its link names (`host=`): a message from any other origin
// is ignored.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openDemo } from './harness.mjs';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

/** Mounts a widget into a new element `id`; it is `window.__w[id]` once ready. */
async function mountInto(page, id, options) {
  await page.evaluate(
    async ([id, options]) => {
      const el = document.createElement('div');
      el.dataset.testid = id;
      document.querySelector('main').append(el);
      window.__w ??= {};
      window.__w[id] = window.idemLab.mount(el, options);
      await window.__w[id].ready();
    },
    [id, options],
  );
  return page.getByTestId(id);
}

test('getState and setState: a run goes from one widget to another, as a string and as an object', async () => {
  const page = await openDemo(lab, () => {});
  const a = await mountInto(page, 'cmd-a', { scenario: 'key', compact: false });
  await a.getByTestId('drop-next-ack').click();
  await a.getByTestId('step-forward').click();
  await a.getByTestId('step-forward').click();
  const state = await page.evaluate(() => window.__w['cmd-a'].getState());
  assert.equal(typeof state.query, 'string');
  assert.equal(state.link.scenario, 'key');
  assert.match(state.query, /^scenario=key/);
  assert.match(state.query, /faults=/, 'the student\'s fault is in the state');
  const b = await mountInto(page, 'cmd-b', { scenario: 'naive' });
  for (const given of [state.query, state.link]) {
    await page.evaluate(() => window.__w['cmd-b'].setState('scenario=naive'));
    assert.equal(await page.evaluate((s) => window.__w['cmd-b'].setState(s), given), true);
    assert.deepEqual(await page.evaluate(() => window.__w['cmd-b'].getState()), state);
  }
  assert.equal(await b.getByTestId('step-index').innerText(), await a.getByTestId('step-index').innerText());
  const refused = await page.evaluate(() =>
    window.__w['cmd-b'].setState('scenario=nope').then(() => null, (e) => e.message),
  );
  assert.match(refused, /^Idempotency Lab: bad state: .*nope/);
  assert.deepEqual(await page.evaluate(() => window.__w['cmd-b'].getState()), state, 'the run on screen stays');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('freeze(true): the widget shows its run and takes no input; freeze(false) gives it back', async () => {
  const page = await openDemo(lab, () => {});
  const w = await mountInto(page, 'cmd-frozen', { scenario: 'key' });
  const before = await w.getByTestId('step-index').innerText();
  assert.equal(await page.evaluate(() => window.__w['cmd-frozen'].freeze(true)), true);
  const root = w.locator('.idem-lab');
  assert.equal(await root.getAttribute('data-frozen'), 'true');
  assert.equal(await root.evaluate((el) => el.inert), true);
  // A click where the button is reaches nothing inside the frozen widget.
  await w.getByTestId('step-forward').click({ force: true });
  await page.keyboard.press('ArrowRight');
  assert.equal(await w.getByTestId('step-index').innerText(), before);
  await page.evaluate(() => window.__w['cmd-frozen'].freeze(false));
  assert.equal(await root.evaluate((el) => el.inert), false);
  await w.getByTestId('step-forward').click();
  await w.getByTestId('step-index').filter({ hasNotText: new RegExp(`^${before}$`) }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('picture(): one valid, self-contained SVG of the stage with its five nodes', async () => {
  const page = await openDemo(lab, () => {});
  await mountInto(page, 'cmd-pic', { scenario: 'key', compact: false });
  await page.getByTestId('cmd-pic').getByTestId('sequence').waitFor();
  const facts = await page.evaluate(async () => {
    const svg = await window.__w['cmd-pic'].picture();
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      root: doc.documentElement.localName,
      nodes: doc.querySelectorAll('[data-testid^="node-"]').length,
      sequence: doc.querySelectorAll('[data-testid="sequence"]').length,
      // Self-contained: no class to resolve, no reference outside the file, no style attribute.
      classes: doc.querySelectorAll('[class]').length,
      styles: doc.querySelectorAll('[style]').length,
      external: /\b(href|src)="(?!#)/.test(svg),
      filled: doc.querySelectorAll('[fill]').length,
    };
  });
  assert.equal(facts.error, null);
  assert.equal(facts.root, 'svg');
  assert.equal(facts.nodes, 5);
  assert.equal(facts.sequence, 1);
  assert.equal(facts.classes, 0);
  assert.equal(facts.styles, 0);
  assert.equal(facts.external, false);
  assert.ok(facts.filled > 5, `${facts.filled} elements carry their colour`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an ?embed frame takes commands only from the origin its link names', async () => {
  const page = await openDemo(lab, () => {
    window.__replies = [];
    window.__heights = new Set();
    window.addEventListener('message', (e) => {
      if (e.data?.source !== 'idem-lab') return;
      if (e.data.type === 'idem:reply') window.__replies.push(e.data.detail);
      if (e.data.type === 'idem:height') window.__heights.add(e.source);
    });
  });
  const here = new URL(lab.site.url).origin;
  const other = here.replace('127.0.0.1', 'localhost');
  await page.evaluate(
    ([here, other]) => {
      for (const [id, host] of [['frame-here', here], ['frame-other', other]]) {
        const frame = document.createElement('iframe');
        frame.dataset.testid = id;
        frame.title = id;
        frame.src = `./?scenario=key&embed&host=${encodeURIComponent(host)}`;
        document.querySelector('main').append(frame);
      }
    },
    [here, other],
  );
  // Each frame has drawn its host part (it says its height) and so listens.
  await page.waitForFunction(() =>
    ['frame-here', 'frame-other'].every((id) =>
      window.__heights.has(document.querySelector(`[data-testid=${id}]`).contentWindow),
    ),
  );
  const other_frame = page.frames().find((f) => f.name() === '' && f.url().includes(encodeURIComponent(other)));
  // The frame's own listener, added after the lab's, sees a message after the lab has.
  await other_frame.evaluate(() => {
    window.__seen = 0;
    window.addEventListener('message', () => (window.__seen += 1));
  });
  await page.evaluate(() => {
    const post = (id, message) =>
      document.querySelector(`[data-testid=${id}]`).contentWindow.postMessage({ source: 'idem-lab-host', ...message }, '*');
    post('frame-other', { type: 'freeze', id: 1, arg: true });
    post('frame-here', { type: 'freeze', id: 2, arg: true });
    post('frame-here', { type: 'getState', id: 3 });
  });
  await page.waitForFunction(() => window.__replies.length >= 2);
  await other_frame.waitForFunction(() => window.__seen >= 1);
  assert.equal(await other_frame.evaluate(() => document.querySelector('.idem-lab').inert), false, 'another origin is ignored');
  const replies = await page.evaluate(() => window.__replies);
  assert.deepEqual(replies.map((r) => [r.id, r.ok]), [[2, true], [3, true]]);
  assert.match(replies[1].value.query, /^scenario=key/);
  const frozen = page.frameLocator('[data-testid=frame-here]').locator('.idem-lab');
  assert.equal(await frozen.evaluate((el) => el.inert), true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
