// Shared set-up: the static server, Debian's Chromium through playwright-core, and small
// helpers that read the page through its data-testid contract.
import { chromium } from 'playwright-core';
import { before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, '..', '..');
export const SCREENSHOTS = join(ROOT, 'tests', 'screenshots');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 360, height: 740 };

/** The catalog of `lang` as a map key → template: the first screen's texts and the panels'
 * (web/i18n/<lang>.txt and <lang>-panels.txt; a key lives in one of them). */
export function catalog(lang) {
  const entries = new Map();
  for (const file of [`${lang}.txt`, `${lang}-panels.txt`]) {
    for (const line of readFileSync(join(ROOT, 'web', 'i18n', file), 'utf8').split('\n')) {
      const at = line.indexOf(' = ');
      if (at > 0 && !line.startsWith('#')) entries.set(line.slice(0, at), line.slice(at + 3));
    }
  }
  return entries;
}

/** Collects the page's uncaught errors and console errors, in the array returned; `ignore`
 * leaves out the console errors it matches (e.g. the browser's own line for a file a test
 * removed on purpose: /^Failed to load resource/). */
export function watchErrors(page, { ignore = null } = {}) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && !(ignore && ignore.test(m.text()))) errors.push(m.text());
  });
  return errors;
}

/** Starts the server and the browser; returns { site, browser, open, close }. */
export async function start() {
  const site = await serve(join(ROOT, 'dist'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  await mkdir(SCREENSHOTS, { recursive: true });
  /** The pages `open` gave out since `errorsSince` last looked, with their errors. */
  let opened = [];
  /** Opens the lesson with `query` in a fresh page of the given viewport. */
  async function open(query = '', viewport = DESKTOP, options = {}) {
    const context = await browser.newContext({ viewport, ...options });
    const page = await context.newPage();
    const errors = watchErrors(page);
    opened.push({ query, errors });
    await page.goto(site.url + (query ? `?${query}` : ''));
    await page.getByTestId('step-index').waitFor();
    if (!/(^|&)embed(=|&|$)/.test(query)) await ready(page);
    page.errors = errors;
    return page;
  }
  /** The uncaught and console errors of every page opened since the last call, as
   * "query: error" lines (an `afterEach` asserts there are none). */
  function errorsSince() {
    const found = opened.flatMap(({ query, errors }) => errors.map((e) => `?${query}: ${e}`));
    opened = [];
    return found;
  }
  async function close() {
    await browser.close();
    await site.close();
  }
  return { site, browser, open, close, errorsSince };
}

/** The lab of a test file: started before its first test and closed after its last; after
 * each test, no page `open` gave out may have logged an uncaught or console error. The object
 * is filled in when the file's tests start (`lab.open`, `lab.site`, `lab.browser`, …). */
export function labForFile() {
  const lab = {};
  before(async () => {
    Object.assign(lab, await start());
  });
  after(async () => {
    await lab.close?.();
  });
  afterEach(() => {
    assert.deepEqual(lab.errorsSince(), []);
  });
  return lab;
}

/** Waits until the lesson page has drawn all its parts: the first screen (masthead, stage)
 * comes first, the stories with the player's code, the panels below the fold in later tasks; `data-ready` on the root marks the
 * end (the page's one readiness signal). */
export const ready = (page) => page.locator('.idem-lab[data-ready="true"]').waitFor();

/** Steps forward until `ready(page)` holds (at most `limit` steps). */
export async function stepUntil(page, ready, limit = 40) {
  for (let i = 0; i < limit; i++) {
    if (await ready(page)) return;
    await page.getByTestId('step-forward').click();
  }
  assert.fail('the state never came');
}

/** The text of the element with this test id. */
export const text = (page, id) => page.getByTestId(id).innerText();

/** "ok" or "violated". */
export const verdict = (page) => page.getByTestId('verdict').getAttribute('data-verdict');

/** The current step as a number. */
export const step = async (page) => Number(await text(page, 'step-index'));

/** A screenshot into tests/screenshots/ (gitignored). */
export const shot = (page, name, fullPage = true) =>
  page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });

let axeSource;
/** axe-core's source, read once. */
const axe = () =>
  (axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

/** Runs axe-core on the page as it is (its source evaluated through the DevTools protocol, which
 * the strict CSP does not see); returns "rule: target" lines, one per failing element. */
export async function audit(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.evaluate(axe());
  }
  // Let a running transition finish so colours are measured as shown at rest.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.flatMap((v) =>
      v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1, 2).join('')}`),
    );
  });
  return found;
}

/** Frames of `playFrames`: 16 ms each, as a 60 Hz screen paints them. */
export const FRAME_MS = 16;

/** Stops `page`'s clock (from here time moves only by `page.clock.runFor`) and presses Play at
 * 4× (where the player does not hold a step for reading, so packets are in flight at once). */
export async function playOnFakeClock(page) {
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 10_000);
  await page.getByTestId('speed').selectOption('4');
  await page.getByTestId('play-pause').click();
}

/**
 * Plays the run on `page` at 4× on Playwright's fake clock, `frames` frames of `FRAME_MS`, and
 * samples the packets after each: per packet (by message id) the distinct places it was drawn
 * (its `transform`), the most animations the document ran at once, and their iteration counts.
 *
 * Why a fake clock: playback advances simulated time by the real time between two animation
 * frames (`performance.now()`, `requestAnimationFrame`), so on a loaded machine frames come
 * late, each jumps further, and a packet can cross its link in one frame: counting places per
 * frame on the real clock measured the machine's load. On the fake clock every frame is 16 ms
 * however slow the machine is, so the places a packet takes are the page's, and the test can
 * demand what the page guarantees (it glides; with reduced motion it never moves).
 */
export async function playFrames(page, frames) {
  await playOnFakeClock(page);
  const places = new Map();
  let running = 0;
  const iterations = new Set();
  for (let i = 0; i < frames; i++) {
    await page.clock.runFor(FRAME_MS);
    const seen = await page.evaluate(() => ({
      packets: [...document.querySelectorAll('[data-testid=packet]')].map((p) => [
        p.dataset.msgId,
        p.getAttribute('transform'),
      ]),
      animations: document.getAnimations().map((a) => a.effect.getTiming().iterations),
    }));
    for (const [id, at] of seen.packets) {
      if (!places.has(id)) places.set(id, new Set());
      places.get(id).add(at);
    }
    running = Math.max(running, seen.animations.length);
    for (const n of seen.animations) iterations.add(n);
  }
  return {
    places: [...places.values()].map((s) => s.size),
    running,
    iterations: [...iterations],
  };
}
