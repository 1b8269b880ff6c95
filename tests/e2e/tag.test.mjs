// One tag (issue 43, item 6): `<script type="module" src="…/idem-lab.js">` and `<idem-lab …>`
// in a page written the way a Markdown site generator writes one (MkDocs: a page of its own
// folder, the lab's build in a sibling folder under the course's sub-path, the strict CSP of
// every page here), in English and in Russian: the attributes are the options (an exercise's
// too), a changed attribute applies, events bubble to the page, the element's commands are
// the handle's, and removing the element unmounts the widget.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, symlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, DESKTOP, watchErrors, launchChromium } from './harness.mjs';
import { serve } from './server.mjs';

let site;
let browser;
let dir;

/** A MkDocs-like page: its own folder, relative links, the content in an <article>. */
const page = (lang, body) => `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Week 3 — Retries</title>
<link rel="icon" href="../assets/images/favicon.svg">
<link rel="stylesheet" href="../assets/stylesheets/main.css">
<script type="module" src="../lab/idem-lab.js"></script>
</head>
<body>
<div class="md-container"><main class="md-main"><article class="md-content__inner md-typeset">
<h1 id="week-3">Week 3</h1>
<p>Retries are dangerous. Try it:</p>
${body}
<p>Then answer the quiz.</p>
</article></main></div>
</body>
</html>
`;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'idem-tag-'));
  await symlink(join(ROOT, 'dist'), join(dir, 'lab'));
  await mkdir(join(dir, 'assets', 'stylesheets'), { recursive: true });
  await mkdir(join(dir, 'assets', 'images'), { recursive: true });
  await writeFile(join(dir, 'assets', 'images', 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
  await writeFile(join(dir, 'assets', 'stylesheets', 'main.css'), 'body { font-family: serif; margin: 2rem; }\n');
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>course</title>\n');
  for (const [folder, lang, body] of [
    [
      'week-3',
      'en',
      '<idem-lab id="lab-a" scenario="key" lock="key" hide="explorer,sequence"></idem-lab>\n' +
        '<idem-lab id="lab-b" challenge="redis-2"></idem-lab>',
    ],
    ['nedelya-3', 'ru', '<idem-lab id="lab-ru" scenario="key" lang="ru" budget="1" kinds="crash"></idem-lab>'],
  ]) {
    await mkdir(join(dir, folder));
    await writeFile(join(dir, folder, 'index.html'), page(lang, body));
  }
  site = await serve(dir, '/course/');
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await site?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function open(path) {
  const context = await browser.newContext({ viewport: DESKTOP });
  await context.addInitScript(() => {
    window.__events = [];
    document.addEventListener('idem:step', (e) => window.__events.push(e.target.closest('idem-lab')?.id));
  });
  const p = await context.newPage();
  p.errors = watchErrors(p);
  await p.goto(site.url + path);
  return p;
}

test('the tag in an English Markdown page: options and an exercise, events, changed attributes, removal', async () => {
  const p = await open('week-3/index.html');
  const a = p.locator('#lab-a');
  await a.getByTestId('exercise').waitFor();
  assert.equal(await a.locator('input[data-protect="key"]').isDisabled(), true);
  assert.equal(await a.getByTestId('explore-run').count(), 0);
  // The challenge's tag: its goal and budget.
  const b = p.locator('#lab-b');
  await b.getByTestId('challenge-goal').waitFor();
  assert.match(await b.getByTestId('challenge-used').innerText(), /Faults used: 0 of 2/);
  // Events bubble out of the element to the page.
  await a.getByTestId('step-forward').click();
  await p.waitForFunction(() => window.__events.includes('lab-a'));
  // The element's commands are the handle's.
  const state = await p.evaluate(() => document.getElementById('lab-a').getState());
  assert.match(state.query, /^scenario=key/);
  // A changed attribute applies: the widget is mounted again with it.
  await p.evaluate(() => document.getElementById('lab-a').setAttribute('scenario', 'naive'));
  await p.waitForFunction(async () => (await document.getElementById('lab-a').getState()).link.scenario === 'naive');
  // Removed, the widget is unmounted: nothing of it is left in the element.
  await p.evaluate(() => {
    const el = document.getElementById('lab-b');
    window.__removed = el;
    el.remove();
  });
  assert.equal(await p.evaluate(() => window.__removed.querySelector('.idem-lab')), null);
  // A bad attribute is said in the element, with what is allowed.
  await p.evaluate(() => document.getElementById('lab-a').setAttribute('hide', 'header'));
  await a.getByTestId('embed-error').waitFor();
  assert.match(await a.getByTestId('embed-error').innerText(), /`hide` cannot be `header`; allowed: `stories`/);
  assert.deepEqual(p.errors, []);
  await p.context().close();
});

test('the tag in a Russian Markdown page: the widget in Russian with its budget', async () => {
  const p = await open('nedelya-3/index.html');
  const w = p.locator('#lab-ru');
  await w.getByTestId('exercise-used').waitFor();
  assert.match(await w.getByTestId('exercise-used').innerText(), /Использовано сбоев: 0 из 1/);
  assert.equal(await w.getByTestId('fault-crash').count(), 1);
  assert.equal(await w.getByTestId('fault-pause').count(), 0);
  assert.equal(await w.locator('.idem-lab').getAttribute('lang'), 'ru');
  assert.deepEqual(p.errors, []);
  await p.context().close();
});
