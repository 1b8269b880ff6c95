// Hostile input in the real browser, from a fixed seed (the same sample on every run): random
// deep links (unicode, huge numbers, repeated and unknown parameters, markup) open without a
// page error and without injecting anything, and random `mount()` options objects either mount
// a widget or throw an Error naming the bad field, without a page error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, watchErrors, DESKTOP } from './harness.mjs';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

/** mulberry32: a small seeded generator in [0, 1). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = (r, list) => list[Math.floor(r() * list.length)];

const NAMES = ['scenario', 'protect', 'faults', 'step', 'base', 'lang', 'embed', 'x', '', '%00', 'scenario[]', 'ΣΣ'];
const VALUES = [
  'naive', 'key', 'cas', 'counter', 'nope', '', '1', '-1', '99999999999999999999999', 'NaN',
  '1e308', '0x10', '2.lose-ack', '1.drop.3,2.crash-api', 'ru', 'en', 'zz', '%', '%ZZ', '%E2%80%AE',
  '<img src=x onerror=alert(1)>', '"><script>alert(1)</script>', 'javascript:alert(1)',
  '😀'.repeat(50), 'a'.repeat(5000), 'key,cas,key', '\u0000', '1.lose-ack'.repeat(200),
];

function hostileQuery(r) {
  const parts = [];
  const n = 1 + Math.floor(r() * 6);
  for (let i = 0; i < n; i++) {
    const v = pick(r, VALUES);
    parts.push(`${pick(r, NAMES)}=${r() < 0.5 ? encodeURIComponent(v) : v}`);
  }
  return parts.join(r() < 0.1 ? '&&' : '&');
}

test('a seeded sample of hostile deep links: no page error, nothing injected', async () => {
  const r = rng(12);
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors = watchErrors(page);
  page.on('dialog', (d) => {
    errors.push(`dialog: ${d.message()}`);
    d.dismiss();
  });
  for (let i = 0; i < 40; i++) {
    const query = hostileQuery(r);
    await page.goto(`${lab.site.url}?${query}`);
    // The lesson or the compact widget comes up whatever the link says.
    await page.getByTestId('step-index').first().waitFor();
    const injected = await page.evaluate(
      () => document.querySelectorAll('body script, body img, body iframe, [onerror]').length,
    );
    assert.equal(injected, 0, `markup from ${query}`);
    assert.deepEqual(errors, [], `after ${query}`);
  }
  await context.close();
});

test('a seeded sample of hostile mount() options: a widget or an Error naming the field', async () => {
  // The objects are built in the page from the seed: passed from node as JSON they would
  // lose undefined, NaN and Infinity.
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(lab.site.url + 'demo.html');
  await page.locator('[data-testid=widget-a] [data-testid=step-index]').waitFor();
  const outcome = await page.evaluate(async (seed) => {
    const { mount } = await import('./idem-web.js');
    // mulberry32 again (the page cannot import the test's module).
    let a = seed >>> 0;
    const r = () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = (list) => list[Math.floor(r() * list.length)];
    const VALUES = [null, undefined, true, false, 0, -0, 1e308, Infinity, NaN, '', 'nope', 'light',
      'dark', 'ru', 'en', 'key', 'naive', 'idem_key', 'cas_version', '<b>x</b>', '😀'.repeat(20), [], ['idem_key'], [1], {}, [['x']]];
    const NAMES = ['scenario', 'lang', 'autoplay', 'theme', 'protections', 'compact', 'Scenario', 'themes', '', '💥'];
    const host = document.createElement('div');
    document.body.append(host);
    const result = { mounted: 0, refused: 0, bad: [] };
    for (let i = 0; i < 150; i++) {
      const o = {};
      const n = Math.floor(r() * 4);
      for (let j = 0; j < n; j++) o[pick(NAMES)] = pick(VALUES);
      const label = JSON.stringify(o);
      try {
        const handle = mount(host, o);
        if (!host.querySelector('[data-testid=step-index]')) result.bad.push(`no widget: ${label}`);
        handle.unmount();
        result.mounted++;
      } catch (e) {
        result.refused++;
        const message = String(e?.message ?? e);
        const named = NAMES.some((f) => message.includes(`\`${f}\``));
        if (!(e instanceof Error) || !message.startsWith('Idempotency Lab:') || !named) {
          result.bad.push(`${label} → ${message}`);
        }
      }
    }
    host.remove();
    return result;
  }, 56);
  assert.deepEqual(outcome.bad, []);
  assert.ok(outcome.mounted > 10 && outcome.refused > 10, JSON.stringify(outcome));
  assert.deepEqual(errors, []);
  await context.close();
});
