// Repeat visits and offline (web/sw.js, registered by web/boot.js): after a first visit the
// lesson loads and plays with the network off, a new build is picked up, and the service
// worker is never registered by the ?embed iframe. Each test serves its own copy of dist/
// (the update test edits it) and stops that server before going offline, so nothing can
// come from the network.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, watchErrors, text, verdict, DESKTOP, ROOT } from './harness.mjs';
import { serve } from './server.mjs';

let lab;
let copy;
before(async () => {
  lab = await start();
  copy = await mkdtemp(join(tmpdir(), 'idem-offline-'));
  await cp(join(ROOT, 'dist'), copy, { recursive: true });
});
after(async () => {
  await lab?.close();
  if (copy) await rm(copy, { recursive: true, force: true });
});

/** Opens `url` in a fresh context and waits until the service worker controls the page. */
async function openControlled(url) {
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors = watchErrors(page);
  page.errors = errors;
  await page.goto(url);
  await page.getByTestId('step-index').waitFor();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return page;
}

/** The naive story with a lost ack, run to the end: the customer is charged twice. */
async function playNaive(page) {
  await page.getByTestId('step-forward').click();
  await page.getByTestId('drop-next-ack').click();
  await page.getByTestId('run-to-end').click();
  assert.equal(await text(page, 'statement-total'), '$200.00');
  assert.equal(await verdict(page), 'violated');
}

test('after one visit the lesson loads and plays with the network off', async () => {
  const site = await serve(copy);
  const page = await openControlled(site.url);
  // Every file of the build is cached, the lazily loaded ones too.
  const cached = await page.evaluate(async () => {
    const names = await caches.keys();
    const cache = await caches.open(names.find((n) => n.startsWith('idem-lab:')));
    return (await cache.keys()).map((r) => new URL(r.url).pathname.split('/').pop()).sort();
  });
  for (const file of ['lang.js', 'boot.js', 'idem-web.js', 'idem-web_bg.wasm', 'index.html', 'style.css', 'en-panels.txt']) {
    assert.ok(cached.includes(file), `${file} is cached (cached: ${cached.join(', ')})`);
  }
  await site.close();
  await page.context().setOffline(true);
  // Another address than the first visit (a deep link): the page is still index.html.
  await page.goto(site.url + '?scenario=naive&base=1');
  await page.getByTestId('step-index').waitFor();
  assert.equal(await page.evaluate(() => navigator.onLine), false);
  await playNaive(page);
  // The panels too: their texts come from the cache.
  await page.locator('.idem-lab[data-ready="true"]').waitFor();
  assert.equal(await page.getByTestId('panels-failed').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a new build is picked up: its worker takes over and the next load is the new page', async () => {
  const site = await serve(copy);
  const page = await openControlled(site.url);
  const swPath = join(copy, 'sw.js');
  const sw = await readFile(swPath, 'utf8');
  const version = /^const VERSION = '([^']+)';$/m.exec(sw)?.[1];
  assert.ok(version && version !== 'dev', 'the build wrote a version into sw.js');
  // A "new build": another index.html and, as the post_build hook would write, a new version.
  // (The release html is minified: it has a <title> but no </head>.)
  const html = await readFile(join(copy, 'index.html'), 'utf8');
  assert.match(html, /<title>/);
  await writeFile(
    join(copy, 'index.html'),
    html.replace('<title>', '<meta name="idem-build" content="next"><title>'),
  );
  await writeFile(swPath, sw.replace(`const VERSION = '${version}';`, "const VERSION = 'next';"));
  try {
    // The browser checks sw.js (as it does on each visit); the new worker installs and caches
    // the new build, takes over the open page (controllerchange), deletes the old cache and is
    // then "activated".
    await page.evaluate(
      () =>
        new Promise((resolve, reject) => {
          // A worker that never takes over fails the test instead of hanging the suite.
          setTimeout(() => reject(new Error('no new service worker took over within 20 s')), 20_000);
          const sw = navigator.serviceWorker;
          sw.addEventListener(
            'controllerchange',
            () => {
              const worker = sw.controller;
              if (worker.state === 'activated') resolve();
              worker.addEventListener('statechange', () => worker.state === 'activated' && resolve());
            },
            { once: true },
          );
          sw.getRegistration().then((r) => r.update()).catch(reject);
        }),
    );
    const names = await page.evaluate(async () =>
      (await caches.keys()).filter((n) => n.startsWith('idem-lab:')),
    );
    assert.equal(names.length, 1, `one cache left: ${names}`);
    assert.match(names[0], /:next$/);
    await page.reload();
    await page.getByTestId('step-index').waitFor();
    assert.equal(await page.locator('meta[name=idem-build]').getAttribute('content'), 'next');
    assert.deepEqual(page.errors, []);
  } finally {
    await writeFile(swPath, sw);
    await writeFile(join(copy, 'index.html'), html);
    await page.context().close();
    await site.close();
  }
});

test('the ?embed iframe and a mounted widget never register the service worker', async () => {
  const site = await serve(copy);
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto(site.url + '?scenario=cas&embed');
  await page.getByTestId('step-index').waitFor();
  // boot.js decides before the page has loaded and marks its decision on <html>.
  assert.equal(await page.locator('html').getAttribute('data-sw'), 'off');
  // The demo page mounts widgets with mount() and never runs boot.js; its iframe is ?embed.
  await page.goto(site.url + 'demo.html');
  await page.waitForSelector('html[data-ready=true]');
  await page.getByTestId('iframe-embed').scrollIntoViewIfNeeded();
  const frame = page.frameLocator('[data-testid=iframe-embed]');
  await frame.getByTestId('step-index').waitFor();
  assert.equal(await frame.locator('html').getAttribute('data-sw'), 'off');
  assert.deepEqual(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 0);
  await context.close();
  await site.close();
});
