// The message catalogs are files (dist/i18n/<lang>.txt, <lang>-panels.txt and <lang>-more.txt),
// not part of the wasm: only the page's language is fetched, its first screen's part started
// by boot.js before the wasm, its panels' part once the first screen is drawn (the first
// screen needs nothing from it); the other language once, when chosen; the reading sections'
// texts when one is first opened; a course page on another path mounts a widget whose texts
// come from next to idem-web.js. A missing or broken file is reported in the page (tested on
// copies of dist/ with a file deleted or garbled), never a blank page or a panic.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { start, ready, shot, watchErrors, ROOT, DESKTOP, PHONE } from './harness.mjs';

// The browser's own console line for a file a test removed or broke on purpose.
const NETWORK = /^Failed to load resource/;
import { serve } from './server.mjs';

let lab;
const temps = [];
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

/** A copy of dist/ changed by `edit(dir)`, served under the same sub-path. */
async function brokenSite(edit) {
  const dir = await mkdtemp(join(tmpdir(), 'idem-dist-'));
  temps.push(dir);
  await cp(join(ROOT, 'dist'), dir, { recursive: true });
  await edit(dir);
  return serve(dir);
}

/** Opens `url` in a fresh page, recording every request (in order) and uncaught errors. */
async function openAt(url) {
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  page.requests = [];
  page.pageErrors = watchErrors(page, { ignore: NETWORK });
  page.on('request', (r) => page.requests.push(new URL(r.url()).pathname));
  await page.goto(url);
  return page;
}

/** Every key of the built catalog files of `lang` (dist/i18n/<lang>*.txt). */
function keysOf(lang) {
  const keys = [];
  for (const part of ['', '-panels', '-more']) {
    for (const line of readFileSync(join(ROOT, 'dist', 'i18n', `${lang}${part}.txt`), 'utf8').split('\n')) {
      const at = line.indexOf(' = ');
      if (at > 0 && !line.startsWith('#')) keys.push(line.slice(0, at));
    }
  }
  return keys;
}

/**
 * The keys among `keys` that the page shows, in its text or in an attribute: a key missing
 * from the loaded catalogs shows itself (release builds).
 */
const shownKeys = (page, keys) =>
  page.evaluate((keys) => {
    const texts = [document.body.innerText];
    for (const e of document.querySelectorAll('*')) for (const a of e.attributes) texts.push(a.value);
    const all = texts.join('\n');
    return keys.filter((k) => new RegExp(`(^|[^\\w.-])${k.replaceAll('.', '\\.')}($|[^\\w.-])`).test(all));
  }, keys);

/** The catalog files the page asked for, in order (`en.txt`, `ru-more.txt`, …). */
const catalogRequests = (page) =>
  page.requests.filter((p) => p.includes('/i18n/')).map((p) => p.split('/i18n/')[1]);

test('only the page language is fetched, without waiting for the wasm; the other once, when chosen', async () => {
  // The wasm's response is held back until the catalog has been asked for: if only the wasm
  // asked for it, the page would not start (and the flag below would say so).
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  let catalogAsked;
  const asked = new Promise((resolve) => {
    catalogAsked = resolve;
  });
  await context.route('**/i18n/*', (route) => {
    catalogAsked(true);
    return route.continue();
  });
  let heldUntilCatalog = false;
  await context.route('**/idem-web_bg.wasm', async (route) => {
    // Held until the catalog is asked for (60 s: a bound for a page that never asks, far
    // beyond what a loaded machine takes).
    heldUntilCatalog = await Promise.race([
      asked,
      new Promise((resolve) => setTimeout(() => resolve(false), 60_000)),
    ]);
    return route.continue();
  });
  const page = await context.newPage();
  page.requests = [];
  page.pageErrors = watchErrors(page, { ignore: NETWORK });
  page.on('request', (r) => page.requests.push(new URL(r.url()).pathname));
  await page.goto(`${lab.site.url}?scenario=key&lang=en`);
  await page.getByTestId('step-index').waitFor({ timeout: 90_000 });
  assert.equal(heldUntilCatalog, true, 'the catalog request started while the wasm was on its way');
  await ready(page);
  assert.deepEqual(catalogRequests(page), ['en.txt', 'en-panels.txt']);
  // The switch fetches Russian once; going back and forth fetches nothing more.
  await page.getByTestId('lang-ru').click();
  await page.waitForFunction(() => document.documentElement.lang === 'ru');
  assert.equal(await page.getByTestId('title').innerText(), 'Лаборатория идемпотентности');
  await page.getByTestId('lang-en').click();
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.equal(await page.getByTestId('title').innerText(), 'Idempotency Lab');
  await page.getByTestId('lang-ru').click();
  await page.waitForFunction(() => document.documentElement.lang === 'ru');
  // Both Russian files at once, before the switch (in either order).
  assert.deepEqual(catalogRequests(page).slice(0, 2), ['en.txt', 'en-panels.txt']);
  assert.deepEqual(catalogRequests(page).slice(2).sort(), ['ru-panels.txt', 'ru.txt']);
  assert.equal(await page.locator('#glossary-title').innerText(), 'Глоссарий', 'the panels switch too');
  // The reading sections: their texts arrive when one is first opened, once.
  const when = page.getByTestId('when-not');
  await when.locator('summary').click();
  await when.locator('li').first().waitFor();
  assert.match(await when.innerText(), /DELETE/);
  const exactly = page.getByTestId('exactly-once');
  await exactly.locator('summary').click();
  assert.match(await exactly.innerText(), /at-least-once/);
  const industry = page.getByTestId('industry');
  await industry.locator('summary').click();
  assert.match(await page.getByTestId('industry-table').innerText(), /до 72 ч/);
  assert.equal(catalogRequests(page).length, 5);
  assert.deepEqual(catalogRequests(page).at(-1), 'ru-more.txt');
  assert.deepEqual(page.pageErrors, []);
  await page.context().close();
});

test('a course page on another path mounts a widget; its texts come from next to idem-web.js', async () => {
  const site = await brokenSite(async (dir) => {
    // The course's own page lives in course/lab/unit-3/, the lesson's files in course/lab/.
    await mkdir(join(dir, 'unit-3'));
    await writeFile(
      join(dir, 'unit-3', 'page.html'),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unit 3</title>
<meta name="idem-lab" content="manual"><link rel="stylesheet" href="../style.css">
<script type="module" src="page.js"></script></head><body><div id="lab"></div></body></html>`,
    );
    await writeFile(
      join(dir, 'unit-3', 'page.js'),
      `import init, { mount } from '../idem-web.js';
await init();
const widget = mount(document.getElementById('lab'), { scenario: 'key', lang: 'ru' });
document.documentElement.dataset.shown = String(await widget.ready());`,
    );
  });
  try {
    const page = await openAt(`${site.url}unit-3/page.html`);
    await page.waitForSelector('html[data-shown]');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.shown), 'true');
    assert.equal(await page.getByTestId('embed').getAttribute('lang'), 'ru');
    await page.getByTestId('run-to-end').click();
    assert.equal(await page.getByTestId('verdict').getAttribute('data-verdict'), 'ok');
    assert.ok(page.requests.includes('/course/lab/i18n/ru.txt'), page.requests.join(' '));
    assert.deepEqual(page.pageErrors, []);
    await page.context().close();
  } finally {
    await site.close();
  }
});

test('a missing catalog file: the page says so in English and Russian', async () => {
  const site = await brokenSite((dir) => rm(join(dir, 'i18n', 'en.txt')));
  try {
    const page = await openAt(`${site.url}?scenario=naive&lang=en`);
    const notice = page.getByTestId('load-error');
    await notice.waitFor();
    const shown = await notice.innerText();
    assert.match(shown, /could not load its texts \(i18n\/en\.txt: HTTP 404\)/);
    assert.match(shown, /Не удалось загрузить тексты урока/);
    assert.equal(await page.getByTestId('step-index').count(), 0);
    assert.deepEqual(page.pageErrors, [], 'no panic');
    await page.context().close();
    // The demo page: the English widget says why; the Russian one works; ready() tells which.
    const demo = await openAt(`${site.url}demo.html`);
    await demo.waitForSelector('html[data-ready=true]');
    const a = demo.getByTestId('widget-a');
    assert.match(await a.getByTestId('load-error').innerText(), /i18n\/en\.txt: HTTP 404/);
    await demo.getByTestId('widget-b').getByTestId('step-index').waitFor();
    const ready = await demo.evaluate(() => Promise.all(window.idemLab.widgets.map((w) => w.ready())));
    assert.deepEqual(ready, [false, true]);
    assert.deepEqual(demo.pageErrors, [], 'no panic');
    await demo.context().close();
  } finally {
    await site.close();
  }
});

test('a garbled catalog and a missing long-form file are reported where they are needed', async () => {
  const site = await brokenSite(async (dir) => {
    await writeFile(join(dir, 'i18n', 'ru.txt'), '<!doctype html>\n<p>Not found</p>\n');
    await rm(join(dir, 'i18n', 'en-more.txt'));
  });
  try {
    const page = await openAt(`${site.url}?scenario=naive&lang=ru`);
    const notice = page.getByTestId('load-error');
    await notice.waitFor();
    assert.match(await notice.innerText(), /i18n\/ru\.txt: not a catalog \(line 1: expected `key = template`\)/);
    assert.deepEqual(page.pageErrors, [], 'no panic');
    await page.context().close();
    // From the English page: choosing Russian says why and stays English; opening a reading
    // section says its file is missing.
    const en = await openAt(`${site.url}?scenario=naive&lang=en`);
    await en.getByTestId('step-index').waitFor();
    await en.getByTestId('lang-ru').click();
    assert.match(await en.getByTestId('lang-failed').innerText(), /Could not load the other language \(i18n\/ru\.txt: not a catalog/);
    assert.equal(await en.getByTestId('lang-en').getAttribute('aria-pressed'), 'true');
    assert.equal(await en.getByTestId('title').innerText(), 'Idempotency Lab');
    const when = en.getByTestId('when-not');
    await when.locator('summary').click();
    assert.match(await when.getByTestId('more-failed').innerText(), /i18n\/en-more\.txt: HTTP 404/);
    assert.equal(await when.locator('.extra-body').getAttribute('aria-busy'), 'false');
    assert.deepEqual(en.pageErrors, [], 'no panic');
    await en.context().close();
  } finally {
    await site.close();
  }
});

/** The first screen at work while the panels are not here: the story played to its end. */
async function playFirstScreen(page) {
  await page.getByTestId('run-to-end').click();
  await page.locator('[data-testid="verdict"][data-verdict]').waitFor();
  assert.equal(await page.getByTestId('step-index').isVisible(), true);
}

// Stories played with the panels' texts held back: the first-screen catalog is decided from
// the code (crates/web/src/i18n.rs, first_screen_keys), and these runs check that it holds what
// the player shows, story by story (faults, a pause, a challenge's goal, compare-and-set).
const HELD = {
  en: ['scenario=naive', 'scenario=lease-expiry', 'scenario=cas', 'challenge=redis-2'],
  ru: ['scenario=naive', 'scenario=counter', 'scenario=key&faults=1.lose-ack'],
};

for (const [lang, queries] of Object.entries(HELD)) for (const query of queries) {
  test(`${lang}, ${query}: the panels' texts are asked for once the first screen is drawn, which needs none of them`, async () => {
    // No service worker: its precaching of every file would ask for the panels' file too.
    const context = await lab.browser.newContext({ viewport: PHONE, serviceWorkers: 'block' });
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    let drawnWhenAsked;
    let asked;
    const askedNow = new Promise((resolve) => (asked = resolve));
    const page = await context.newPage();
    page.pageErrors = watchErrors(page, { ignore: NETWORK });
    await context.route(`**/i18n/${lang}-panels.txt`, async (route) => {
      // The player (its summary is its last slice) is on screen before the request.
      drawnWhenAsked = await page.evaluate(() => document.querySelector('[data-testid="narration"]') !== null);
      asked();
      await gate;
      return route.continue();
    });
    await page.goto(`${lab.site.url}?${query}&lang=${lang}`);
    await askedNow;
    assert.equal(drawnWhenAsked, true, 'the panels are asked for after the first screen is drawn');
    // Held: the first screen works and shows no key in place of a text; no panel is drawn.
    await playFirstScreen(page);
    assert.equal(await page.locator('.idem-lab').getAttribute('data-ready'), 'false');
    assert.equal(await page.getByTestId('glossary').count(), 0);
    assert.equal(await page.getByTestId('panels-failed').count(), 0);
    const keys = keysOf(lang);
    assert.deepEqual(await shownKeys(page, keys), [], 'no missing key on the first screen');
    await page.evaluate(() => window.scrollTo(0, 0));
    if (query === queries[0]) await shot(page, `panels-loading-${lang}`);
    release();
    await ready(page);
    await page.getByTestId('glossary').waitFor();
    assert.deepEqual(await shownKeys(page, keys), [], 'no missing key with the panels');
    if (query === queries[0]) await shot(page, `panels-loaded-${lang}`);
    assert.deepEqual(page.pageErrors, []);
    await context.close();
  });
}

test('a missing panels file: the first screen works and says where the panels would be', async () => {
  const site = await brokenSite((dir) => rm(join(dir, 'i18n', 'en-panels.txt')));
  try {
    const page = await openAt(`${site.url}?scenario=naive&lang=en`);
    const notice = page.getByTestId('panels-failed');
    await notice.waitFor();
    assert.match(await notice.innerText(), /could not be loaded \(i18n\/en-panels\.txt: HTTP 404\)/);
    assert.equal(await notice.getAttribute('role'), 'alert');
    await playFirstScreen(page);
    assert.deepEqual(await shownKeys(page, keysOf('en')), [], 'no missing key');
    assert.equal(await page.getByTestId('glossary').count(), 0);
    assert.deepEqual(page.pageErrors, [], 'no panic');
    await page.context().close();
    // The compare mode draws nothing but the notice and the faults without the panels' texts.
    const compare = await openAt(`${site.url}?scenario=naive&compare=key&base=1&lang=en`);
    await compare.getByTestId('panels-failed').waitFor();
    assert.deepEqual(await shownKeys(compare, keysOf('en')), [], 'no missing key');
    assert.deepEqual(compare.pageErrors, [], 'no panic');
    await compare.context().close();
    // The widget draws everything at once: it says which file is missing.
    const embed = await openAt(`${site.url}?embed&scenario=naive&lang=en`);
    assert.match(await embed.getByTestId('load-error').innerText(), /i18n\/en-panels\.txt: HTTP 404/);
    assert.deepEqual(embed.pageErrors, [], 'no panic');
    await embed.context().close();
  } finally {
    await site.close();
  }
});
