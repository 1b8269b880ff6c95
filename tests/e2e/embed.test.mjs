// Embedding and "Try every failure" against the real bundle, served under a sub-path with a
// strict Content-Security-Policy (see server.mjs): the page starts without inline script or
// style, the demo page's two mounted widgets are independent, bad options throw and show a
// message naming the field, the iframe shows the compact player, and the explorer's
// counter-examples replay in the player.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { start, audit, watchErrors, verdict, step, shot, SCREENSHOTS, DESKTOP, PHONE } from './harness.mjs';
import { CSP } from './server.mjs';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

/** Records securitypolicyviolation events from the first script on. */
async function watchCsp(context) {
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
}

/** Opens a page of dist/ (e.g. "demo.html") with the CSP watcher installed. */
async function openFile(path, viewport = DESKTOP, options = {}) {
  const context = await lab.browser.newContext({ viewport, ...options });
  await watchCsp(context);
  const page = await context.newPage();
  const errors = watchErrors(page);
  const response = await page.goto(lab.site.url + path);
  page.errors = errors;
  page.response = response;
  return page;
}

const violations = (page) => page.evaluate(() => window.__csp);

/** Computed styles of the demo page's own elements, outside the widgets. */
const hostStyles = (page) =>
  page.evaluate(() => {
    const props = ['font-family', 'font-size', 'line-height', 'color', 'background-color',
      'margin-top', 'margin-left', 'padding-top', 'box-sizing', 'color-scheme'];
    const elements = {
      html: document.documentElement,
      body: document.body,
      main: document.querySelector('main.demo'),
      h1: document.querySelector('main.demo > h1'),
      text: document.querySelector('[data-testid=host-text]'),
      code: document.querySelector('[data-testid=host-text] code'),
      h2: document.querySelector('main.demo h2'),
    };
    return Object.fromEntries(
      Object.entries(elements).map(([name, el]) => {
        const style = getComputedStyle(el);
        return [name, Object.fromEntries(props.map((p) => [p, style.getPropertyValue(p)]))];
      }),
    );
  });

/** hostStyles of the demo page loaded without the lesson's stylesheets (style.css, and
 * later.css, which the widgets add). */
async function hostStylesWithoutLab() {
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  await context.route(/\/(style|later)\.css$/, (route) => route.abort());
  const page = await context.newPage();
  await page.goto(lab.site.url + 'demo.html');
  await page.waitForSelector('html[data-ready=true]');
  const styles = await hostStyles(page);
  await context.close();
  return styles;
}

test('the lesson starts and plays under a strict CSP, under a sub-path', async () => {
  const page = await openFile('?scenario=naive');
  assert.equal(page.response.headers()['content-security-policy'], CSP);
  await page.getByTestId('step-index').waitFor();
  // Our own page takes the page rules (html.idem-page).
  assert.match(await page.evaluate(() => getComputedStyle(document.body).fontFamily), /^system-ui/);
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).marginTop), '0px');
  // No inline style attributes anywhere in the rendered page.
  assert.equal(await page.locator('[style]').count(), 0);
  await page.getByTestId('play-pause').click();
  await page.waitForFunction(
    () => Number(document.querySelector('[data-testid=step-index]').textContent) >= 3,
  );
  await page.getByTestId('run-to-end').click();
  assert.equal(await verdict(page), 'violated');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the Embed button gives an iframe snippet for the run on screen', async () => {
  const page = await openFile('?scenario=key&step=4');
  await page.getByTestId('step-index').waitFor();
  await page.getByTestId('embed-open').click();
  const snippet = await page.getByTestId('embed-snippet').inputValue();
  assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/course\/lab\/\?scenario=key&amp;step=4&amp;embed"/);
  assert.match(snippet, /title="Idempotency Lab — [^"]+"/);
  assert.match(snippet, /loading="lazy"/);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(await audit(page), [], 'axe with the Embed box open (its snippet is labelled)');
  await page.context().close();
});

for (const lang of ['en', 'ru']) {
  test(`on a phone the Embed box is on the screen, in ${lang}`, async () => {
    // (The Russian header wraps the Embed button to another line than the English one.)
    const page = await openFile(`?scenario=key&lang=${lang}`, PHONE);
    await page.getByTestId('embed-open').click();
    const box = await page.locator('.embed-box').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `${lang}: x ${box.x}..${box.x + box.width}`);
    assert.ok(box.y >= 0 && box.y + box.height <= PHONE.height, `${lang}: y ${box.y}..${box.y + box.height}`);
    assert.deepEqual(await audit(page), []);
    await shot(page, `embed-box-phone-${lang}`, false);
    await page.context().close();
  });
}

test('?embed shows the compact player only', async () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ]) {
    const page = await openFile('?scenario=naive&step=12&embed', viewport);
    await page.getByTestId('embed').waitFor();
    assert.equal(await page.getByTestId('title').count(), 0, 'no site header');
    assert.equal(await page.getByTestId('scenario-naive').count(), 0, 'no story switcher');
    // The counter counts visible steps: the ledger's answer (the core's step 5) is folded
    // into the write it answers (idem_lesson::fold), so the link's step 12 is 11.
    assert.equal(await step(page), 11);
    // The verdict and narration come with the player's bundle, a moment after the widget.
    for (const id of ['node-client', 'play-pause', 'verdict', 'narration']) {
      await page.getByTestId(id).first().waitFor();
      assert.equal(await page.getByTestId(id).count(), 1, id);
    }
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= viewport.width, `${name}: ${width}px wide`);
    await shot(page, `${name}-embed`);
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('demo page: two mounted widgets and an iframe, independent of each other', async () => {
  const page = await openFile('demo.html');
  await page.waitForSelector('html[data-ready=true]');
  const a = page.getByTestId('widget-a');
  const b = page.getByTestId('widget-b');
  await a.getByTestId('step-index').waitFor();
  await b.getByTestId('step-index').waitFor();
  // The second widget is mounted with lang: 'ru' and speaks Russian; the first, English.
  assert.equal(await b.getByTestId('embed').getAttribute('lang'), 'ru');
  assert.equal(await a.getByTestId('embed').getAttribute('lang'), 'en');
  // Play in A: A moves, B stays at step 0.
  await a.getByTestId('play-pause').click();
  await page.waitForFunction(
    () =>
      Number(
        document.querySelector('[data-testid=widget-a] [data-testid=step-index]').textContent,
      ) >= 2,
  );
  assert.equal(Number(await b.getByTestId('step-index').innerText()), 0);
  await a.getByTestId('play-pause').click();
  const aStep = Number(await a.getByTestId('step-index').innerText());
  // Keys act on the focused widget only.
  await b.getByTestId('embed').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(Number(await b.getByTestId('step-index').innerText()), 2);
  assert.equal(Number(await a.getByTestId('step-index').innerText()), aStep);
  await page.keyboard.press(' ');
  assert.equal(await b.getByTestId('play-pause').getAttribute('data-playing'), 'true');
  assert.equal(await a.getByTestId('play-pause').getAttribute('data-playing'), 'false');
  await b.getByTestId('play-pause').click();
  // The iframe shows the compact compare-and-set player.
  const frame = page.frameLocator('[data-testid=iframe-embed]');
  await frame.getByTestId('embed').waitFor();
  await frame.getByTestId('run-to-end').click();
  assert.equal(await frame.getByTestId('balance').innerText(), '80');
  assert.equal(await frame.getByTestId('verdict').getAttribute('data-verdict'), 'ok');
  // Bad options: shown in the element and thrown.
  const shown = await page.getByTestId('embed-error').innerText();
  assert.match(shown, /`scenario` cannot be `nope`; allowed: `naive`, `key`/);
  assert.match(await page.getByTestId('widget-bad-thrown').innerText(), /threw: .*`scenario`/);
  // style.css styles the widgets, not the host page: the host's own elements keep what its
  // demo.css (loaded first) says, exactly as on the same page without style.css.
  const host = await hostStyles(page);
  assert.match(host.text['font-family'], /^Georgia/);
  assert.equal(host.body['background-color'], 'rgb(251, 248, 241)');
  assert.deepEqual(await hostStylesWithoutLab(), host);
  const widgetA = await a.getByTestId('embed').evaluate((el) => {
    const style = getComputedStyle(el);
    return { font: style.fontFamily, background: style.backgroundColor };
  });
  assert.match(widgetA.font, /^system-ui/);
  assert.equal(widgetA.background, 'rgb(244, 246, 249)', 'theme: light');
  await shot(page, 'desktop-demo');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
  const phone = await openFile('demo.html', PHONE, { hasTouch: true, isMobile: true });
  await phone.waitForSelector('html[data-ready=true]');
  await phone.getByTestId('widget-b').getByTestId('step-index').waitFor();
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `demo is ${width}px wide at 360px`);
  await shot(phone, 'phone-demo');
  await phone.context().close();
});

test('mount(): bad options name the field; unmount() removes the widget', async () => {
  const page = await openFile('demo.html');
  await page.waitForSelector('html[data-ready=true]');
  const results = await page.evaluate(() => {
    const { mount } = window.idemLab;
    const tryMount = (options) => {
      const el = document.createElement('div');
      document.body.append(el);
      try {
        const handle = mount(el, options);
        const mounted = el.querySelectorAll('[data-testid=step-index]').length;
        const background = getComputedStyle(el.firstElementChild).backgroundColor;
        handle.unmount();
        return { ok: true, mounted, after: el.children.length, background };
      } catch (e) {
        return { ok: false, thrown: e.message, isError: e instanceof Error, shown: el.textContent };
      }
    };
    return {
      nope: tryMount({ scenario: 'nope' }),
      colour: tryMount({ colour: 'red' }),
      theme: tryMount({ scenario: 'key', theme: 'pink' }),
      autoplay: tryMount({ autoplay: 'yes' }),
      protections: tryMount({ protections: ['key', 'teleport'] }),
      good: tryMount({ scenario: 'cas', theme: 'dark', compact: false, protections: ['cas'] }),
    };
  });
  assert.equal(results.nope.ok, false);
  assert.ok(results.nope.isError);
  assert.match(results.nope.thrown, /`scenario` cannot be `nope`; allowed: `naive`, `key`, .*`fully-protected`/);
  assert.equal(results.nope.shown, results.nope.thrown);
  assert.match(results.colour.thrown, /unknown field `colour`/);
  assert.match(results.colour.shown, /colour/);
  assert.match(results.theme.thrown, /`theme` cannot be `pink`; allowed: `auto`, `light`, `dark`/);
  assert.match(results.autoplay.thrown, /`autoplay` must be true or false/);
  assert.match(results.protections.thrown, /`protections` cannot be `teleport`/);
  assert.deepEqual(results.good, { ok: true, mounted: 1, after: 0, background: 'rgb(15, 19, 24)' });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('mount(): a widget whose handle is dropped and collected stays mounted until unmount()', async () => {
  const page = await openFile('demo.html');
  await page.waitForSelector('html[data-ready=true]');
  // Mount without keeping the handle; a FinalizationRegistry of our own tells when the handle
  // object itself has been collected (wasm-bindgen frees the Rust side on the same event).
  await page.evaluate(() => {
    const el = document.createElement('div');
    el.dataset.testid = 'gc-widget';
    document.body.append(el);
    window.__collected = false;
    const registry = new FinalizationRegistry(() => {
      window.__collected = true;
    });
    window.__registry = registry;
    registry.register(window.idemLab.mount(el, { scenario: 'naive' }), 'handle');
  });
  const widget = page.getByTestId('gc-widget');
  await widget.getByTestId('step-index').waitFor();
  const cdp = await page.context().newCDPSession(page);
  // Collect until the handle is gone (each round: a full GC, then a task for finalizers).
  for (let round = 0; round < 50 && !(await page.evaluate(() => window.__collected)); round++) {
    await cdp.send('HeapProfiler.collectGarbage');
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  }
  assert.equal(await page.evaluate(() => window.__collected), true, 'the handle was collected');
  // Let every pending finalizer task run, then the widget must still be there and alive.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  assert.equal(await widget.locator('[data-testid=step-index]').count(), 1);
  await widget.getByTestId('embed').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(Number(await widget.getByTestId('step-index').innerText()), 1);
  // Mounting again on the same element replaces the widget (one widget, not two); the new
  // handle's unmount() removes it.
  const counts = await page.evaluate(() => {
    const el = document.querySelector('[data-testid=gc-widget]');
    const handle = window.idemLab.mount(el, { scenario: 'key', lang: 'ru' });
    const mounted = el.querySelectorAll('[data-testid=step-index]').length;
    const lang = el.querySelector('[data-testid=embed]').getAttribute('lang');
    handle.unmount();
    return { mounted, lang, after: el.children.length };
  });
  assert.deepEqual(counts, { mounted: 1, lang: 'ru', after: 0 });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('try every failure: search, then replay a counter-example', async () => {
  const page = await lab.open('scenario=naive');
  await page.getByTestId('explore-k').selectOption('1');
  await page.getByTestId('explore-run').click();
  const result = page.locator('[data-testid=explore-result][data-state=done]');
  await result.waitFor();
  const runs = Number(await result.getAttribute('data-runs'));
  const bad = Number(await result.getAttribute('data-violations'));
  assert.ok(runs > 0 && bad > 0 && bad <= runs, `${bad} of ${runs}`);
  // The live region is busy only while the search runs; once it is done it speaks.
  assert.equal(await page.locator('.explore-out').getAttribute('aria-busy'), 'false');
  const states = Number(await result.getAttribute('data-states'));
  const steps = Number(await result.getAttribute('data-steps'));
  assert.ok(states > 0 && steps > states, `${states} situations, ${steps} steps for ${runs} runs`);
  // The counts sit in a closed <details> (issue 42): read the text, not what is rendered.
  const summary = await result.textContent();
  // What it means for the story comes first (#25 finding 14), the counts after it.
  const lead = await page.getByTestId('explore-lead').innerText();
  assert.ok(lead.includes(await page.getByTestId('scenario-naive').innerText().then((t) => t.replace(/^\s*\d+\s*·\s*/, '').trim())), lead);
  assert.ok(summary.indexOf(lead.trim().slice(0, 20)) < summary.indexOf(`${runs.toLocaleString('en-US')} runs checked`), summary);
  // Counts are written grouped by threes, as English writes them.
  const en = (n) => n.toLocaleString('en-US');
  assert.match(summary, new RegExp(`${en(runs)} runs checked. The simulator played ${en(steps)} steps in all and remembered ${en(states)} distinct situations`));
  assert.match(summary, new RegExp(`${en(bad)} runs? breaks? an invariant`));
  // Counter-examples name packets by caption (replayed on the base run), not by id.
  const listed = (await page.getByTestId('counterexample').allInnerTexts()).join('\n');
  assert.match(listed, /Drop the (request|response) /);
  assert.doesNotMatch(listed, /#\d/);
  await page.getByTestId('explore-run').scrollIntoViewIfNeeded();
  await page.locator('section.explore').screenshot({ path: join(SCREENSHOTS, 'desktop-explorer.png') });
  await page.getByTestId('counterexample').first().click();
  assert.equal(await step(page), 0);
  assert.match(await page.evaluate(() => location.search), /base=1&faults=\d+\./);
  assert.ok((await page.getByTestId('fault-marker').count()) >= 1);
  await page.getByTestId('run-to-end').click();
  assert.equal(await verdict(page), 'violated');
  // The search survives replaying; another scenario clears it.
  assert.equal(await result.count(), 1);
  await page.getByTestId('scenario-key').click();
  assert.equal(await page.getByTestId('explore-result').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
  const phone = await lab.open('scenario=fully-protected', PHONE, { hasTouch: true, isMobile: true });
  await phone.getByTestId('explore-run').click();
  await phone.locator('[data-testid=explore-result][data-state=done]').waitFor({ timeout: 60_000 });
  // Issue 41: with everything on the money holds, but the outcome check's own answer can be
  // lost (or read a payment in progress as not found): only what the user is told breaks.
  const broken = await phone
    .getByTestId('counterexample')
    .evaluateAll((all) => all.map((c) => c.getAttribute('data-invariant')));
  assert.ok(broken.length > 0);
  for (const invariant of broken) assert.equal(invariant, 'user-told-the-truth');
  await phone.locator('section.explore').screenshot({ path: join(SCREENSHOTS, 'phone-explorer.png') });
  await phone.context().close();
});
