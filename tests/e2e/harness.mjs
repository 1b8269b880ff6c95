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

/** The demo page (`dist/demo.html`: a host page under the strict CSP, with iframes and mounted
 * widgets), opened in a fresh context whose pages first run `record` (an init script that
 * sets up whatever the test listens to), once the page says it is ready. */
export async function openDemo(lab, record) {
  const context = await lab.browser.newContext({ viewport: DESKTOP });
  await context.addInitScript(record);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(lab.site.url + 'demo.html');
  await page.waitForSelector('html[data-ready=true]');
  page.errors = errors;
  return page;
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

/** Debian's Chromium (or `CHROMIUM`), headless, as root in a container can run it, with
 * `extra` flags after the common ones. */
export const launchChromium = (extra = []) =>
  chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', ...extra],
  });

/** Starts the server and the browser; returns { site, browser, open, close }. */
export async function start() {
  const site = await serve(join(ROOT, 'dist'));
  const browser = await launchChromium([
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
  ]);
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

/**
 * Puts `window.idemLabelProblems()` on `page`: what is wrong with the labels on screen now, as
 * sentences ("… overlaps …", "… leaves its box", "… is cut by …"); empty when nothing is.
 * Measured in CSS pixels with getBoundingClientRect. What counts:
 * - a text of the topology or the sequence diagram must sit inside its node card, packet pill
 *   or lifeline head when it has one, and must not overlap another text of its drawing, nor a
 *   card it does not belong to; two packets' pills must not overlap each other, nor any
 *   other mark of two packets (a pill, a ring's badge, a lost packet's shards and words);
 * - no text may be cut: every ancestor that clips (overflow other than visible, an svg's
 *   viewport) must hold it, unless that ancestor scrolls along the axis it is cut on;
 * - a state panel's (below the player) tables, rows and lines stay inside its card's padding
 *   (half of it may be used), and a request or key (`code`, a table cell of one word) keeps
 *   to one line.
 * Half a pixel of slack absorbs rounding; a text that is not rendered (display none, no size)
 * is not measured. Installed by evaluation (the DevTools protocol), which the page's strict
 * CSP does not see.
 */
export async function installLabelProblems(page) {
  await page.evaluate(() => {
    const SLACK = 0.5;
    const box = (el) => el.getBoundingClientRect();
    const said = (el) => JSON.stringify(el.textContent.replace(/\s+/g, ' ').trim());
    const inside = (a, b) =>
      a.left >= b.left - SLACK && a.right <= b.right + SLACK && a.top >= b.top - SLACK && a.bottom <= b.bottom + SLACK;
    const overlap = (a, b) =>
      Math.min(a.right, b.right) - Math.max(a.left, b.left) > SLACK &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > SLACK;
    const shown = (el) => {
      const b = box(el);
      return b.width > 0 && b.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const named = (a) =>
      a.dataset?.testid ?? `${a.tagName.toLowerCase()}.${(a.getAttribute('class') ?? '').split(' ')[0]}`;
    const where = (el) => {
      const at = el.closest('[data-testid^="node-"], [data-testid="packet"], .lifeline, .panel, svg');
      return at ? named(at) : '';
    };
    /** The first ancestor that cuts `el`: it clips, and does not scroll along that axis. */
    const cutBy = (el) => {
      const b = box(el);
      for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
        const style = getComputedStyle(a);
        const clipsX = style.overflowX !== 'visible' || a.tagName === 'svg';
        const clipsY = style.overflowY !== 'visible' || a.tagName === 'svg';
        if (!clipsX && !clipsY) continue;
        const r = box(a);
        const scrollsX = /auto|scroll/.test(style.overflowX) && a.scrollWidth > a.clientWidth;
        const scrollsY = /auto|scroll/.test(style.overflowY) && a.scrollHeight > a.clientHeight;
        if (clipsX && !scrollsX && (b.left < r.left - SLACK || b.right > r.right + SLACK)) return a;
        if (clipsY && !scrollsY && (b.top < r.top - SLACK || b.bottom > r.bottom + SLACK)) return a;
      }
      return null;
    };
    window.idemLabelProblems = () => {
      const out = [];
      for (const svg of document.querySelectorAll('svg.topology, svg.sequence-svg')) {
        const texts = [...svg.querySelectorAll('text')].filter(shown);
        const cards = [...svg.querySelectorAll('[data-testid^="node-"] > rect.card')];
        for (const t of texts) {
          const b = box(t);
          const holder = t.closest('[data-testid^="node-"], .pill-body, .lifeline');
          const frame = holder?.querySelector(':scope > rect');
          if (frame && !inside(b, box(frame))) out.push(`${said(t)} leaves its box (${where(t)})`);
          const by = cutBy(t);
          if (by) out.push(`${said(t)} is cut by ${named(by)} (${where(t)})`);
          for (const card of cards) {
            if (!card.parentElement.contains(t) && overlap(b, box(card))) {
              out.push(`${said(t)} (${where(t)}) covers the card ${card.parentElement.dataset.testid}`);
            }
          }
        }
        for (let i = 0; i < texts.length; i++) {
          for (let j = i + 1; j < texts.length; j++) {
            if (overlap(box(texts[i]), box(texts[j]))) {
              out.push(`${said(texts[i])} (${where(texts[i])}) overlaps ${said(texts[j])} (${where(texts[j])})`);
            }
          }
        }
        // A packet's ring and its badge (who is speaking) stay inside the drawing too, their
        // strokes included (a bounding box leaves the stroke out).
        for (const mark of svg.querySelectorAll('[data-testid="packet-ring"] > :is(rect, circle), [data-testid="handler-badge"] > circle')) {
          if (!shown(mark)) continue;
          const b = box(mark);
          const half = (parseFloat(getComputedStyle(mark).strokeWidth) / 2) * Math.hypot(mark.getScreenCTM().a, mark.getScreenCTM().b);
          const stroked = { left: b.left - half, right: b.right + half, top: b.top - half, bottom: b.bottom + half };
          if (!inside(stroked, box(svg))) {
            out.push(`the ${mark.getAttribute('class')} of ${JSON.stringify(mark.parentElement.getAttribute('aria-label'))} is cut by the drawing's edge`);
          }
        }
        const pills = [...svg.querySelectorAll('[data-testid="packet"] rect.pill')].filter(shown);
        for (let i = 0; i < pills.length; i++) {
          for (let j = i + 1; j < pills.length; j++) {
            if (overlap(box(pills[i]), box(pills[j]))) {
              const [a, b] = [pills[i], pills[j]].map((p) => said(p.closest('[data-testid="packet"]')));
              out.push(`the packets ${a} and ${b} overlap`);
            }
          }
        }
        // Packet over packet (#42, the review of stop 54: attempt 1's 201 lay on attempt 2's
        // lost 409 and its badge): each packet's marks, a pill in flight and its ring's badge,
        // a lost packet's two shards, its words and its cross, cover no mark of another
        // packet. A ring's outline is left out (it goes round its own pill only).
        const marks = [];
        for (const p of svg.querySelectorAll('[data-testid="packet"]')) {
          const who = `packet ${said(p)}`;
          for (const m of p.querySelectorAll('rect.pill')) marks.push({ key: `m${p.dataset.msgId}`, who, what: 'pill', m });
        }
        for (const r of svg.querySelectorAll('[data-testid="packet-ring"]')) {
          const who = `the badge of ${JSON.stringify(r.getAttribute('aria-label'))}`;
          for (const m of r.querySelectorAll('circle.ring-badge')) marks.push({ key: `m${r.dataset.msgId}`, who, what: 'badge', m });
        }
        // An attempt's badge beside the API's card (its handler stalled, no packet in flight).
        svg.querySelectorAll('[data-testid="handler-badge"]').forEach((g, i) => {
          const who = `the badge of ${JSON.stringify(g.getAttribute('aria-label'))} at the API`;
          for (const m of g.querySelectorAll('circle')) marks.push({ key: `api${i}`, who, what: 'badge', m });
        });
        svg.querySelectorAll('[data-testid="lost-packet"]').forEach((g, i) => {
          const who = `lost packet ${said(g.querySelector('.lost-label') ?? g)}`;
          for (const m of g.querySelectorAll('.shard rect, text')) marks.push({ key: `lost${i}`, who, what: m.getAttribute('class'), m });
        });
        const seenPairs = new Set();
        for (let i = 0; i < marks.length; i++) {
          for (let j = i + 1; j < marks.length; j++) {
            const [a, b] = [marks[i], marks[j]];
            if (a.key === b.key || !shown(a.m) || !shown(b.m) || !overlap(box(a.m), box(b.m))) continue;
            // Two pills on one another are said above.
            if (a.what === 'pill' && b.what === 'pill') continue;
            const said2 = `${a.who} (${a.what}) covers ${b.who} (${b.what})`;
            if (!seenPairs.has(said2)) out.push(said2);
            seenPairs.add(said2);
          }
        }
      }
      // No text of the drawing (the stage, its cards, the sequence diagram, the cost chart)
      // renders below 12 CSS px (issue #42 item 7): a text's computed font-size, times the scale
      // of the svg it is drawn in (its screen matrix), for every visible text node.
      const drawing = [...document.querySelectorAll('.topology-frame, section.sequence, section.panels .panel, [data-testid="calc-plot"]')];
      for (const part of drawing) {
        const walker = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
        const small = new Set();
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const el = n.parentElement;
          if (!el || !n.textContent.trim() || small.has(el) || !shown(el)) continue;
          const range = document.createRange();
          range.selectNodeContents(n);
          if (![...range.getClientRects()].some((r) => r.width > 0 && r.height > 0)) continue;
          const m = el instanceof SVGElement ? el.getScreenCTM() : null;
          const scale = m ? Math.hypot(m.a, m.b) : 1;
          const px = parseFloat(getComputedStyle(el).fontSize) * scale;
          if (px < 12 - 0.05) {
            small.add(el);
            out.push(`${said(el).slice(0, 40)} is ${px.toFixed(1)} px, under 12 (${where(el) || named(part)})`);
          }
        }
      }
      for (const panel of document.querySelectorAll('section.panels .panel')) {
        const p = box(panel);
        const style = getComputedStyle(panel);
        const content = {
          left: p.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft) / 2,
          right: p.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight) / 2,
          top: p.top,
          bottom: p.bottom,
        };
        for (const part of panel.querySelectorAll('table, tr, li, p, dl, h3, pre')) {
          const scrolls = part.closest('.table-scroll');
          if (shown(part) && !scrolls && !inside(box(part), content)) {
            out.push(`${part.tagName.toLowerCase()} ${said(part).slice(0, 60)} leaves its card (${named(panel)})`);
          }
        }
        // A box that hides part of its text (the last statement's SQL was cut at 11 rem and
        // scrolled with nothing to say so) cuts it.
        for (const part of panel.querySelectorAll('*')) {
          const style = getComputedStyle(part);
          const hidesY = style.overflowY !== 'visible' && part.scrollHeight > part.clientHeight + 1;
          const hidesX = style.overflowX !== 'visible' && part.scrollWidth > part.clientWidth + 1;
          if ((hidesX || hidesY) && shown(part)) {
            out.push(`${said(part).slice(0, 60)} is cut by ${named(part)} (${named(panel)})`);
          }
        }
        for (const code of panel.querySelectorAll('code')) {
          if (shown(code) && code.getClientRects().length > 1) out.push(`${said(code)} wraps (${named(panel)})`);
        }
        // A table cell of one word (a key, an id) on more than one line was broken inside it.
        for (const cell of panel.querySelectorAll('td')) {
          if (!shown(cell) || /\s/.test(cell.textContent.trim())) continue;
          const range = document.createRange();
          range.selectNodeContents(cell);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (tops.size > 1) out.push(`${said(cell)} wraps (${named(panel)})`);
        }
      }
      return out;
    };
  });
}

/**
 * Walks `page` from the step it shows to the end of its run with the player's own Step button
 * (no real-time playing), and returns each problem `idemLabelProblems` (above) finds, once, with
 * the steps it was seen at ("steps 8–16: …"). Each step is measured a frame after the page's finite
 * animations were brought to their end (a packet gliding to its place is measured where it
 * stops, without waiting for the glide).
 */
export async function walkLabelProblems(page) {
  await installLabelProblems(page);
  return page.evaluate(async () => {
    const settle = async () => {
      await new Promise((r) => requestAnimationFrame(r));
      for (const a of document.getAnimations()) {
        if (Number.isFinite(a.effect?.getTiming().iterations ?? Infinity)) a.finish();
      }
      await new Promise((r) => requestAnimationFrame(r));
    };
    const index = () => Number(document.querySelector('[data-testid="step-index"]').textContent);
    const total = Number(document.querySelector('[data-testid="step-total"]').textContent);
    const seen = new Map();
    let steps = 0;
    for (;;) {
      await settle();
      const at = index();
      for (const problem of window.idemLabelProblems()) {
        const [first] = seen.get(problem) ?? [at];
        seen.set(problem, [first, at]);
      }
      steps++;
      if (at >= total) break;
      document.querySelector('[data-testid="step-forward"]').click();
      for (let wait = 0; index() === at; wait++) {
        if (wait > 100) throw new Error(`step ${at} did not move on`);
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    const problems = [...seen].map(([p, [a, b]]) => `${a === b ? `step ${a}` : `steps ${a}–${b}`}: ${p}`);
    return { steps, problems };
  });
}
