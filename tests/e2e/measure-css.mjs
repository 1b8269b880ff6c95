// Which stylesheet rules the first screen and Play use, measured, and the split that follows
// (issue #46 item 1). Run by hand after a release build of main's sources:
//   node tests/e2e/measure-css.mjs <dist> [--write]
// It serves <dist> with its style.css replaced by the unminified sources (web/style.css,
// path.css, later.css, in the order the page loads them), opens the page in Chromium with
// the lesson's later bundle blocked (split_lesson-*.wasm: the panels below the player are never
// drawn), and marks a rule as used when Chromium's CSS coverage says it matched, or when its
// selector (dynamic pseudo-classes and pseudo-elements stripped) matches an element in one of
// several states: EN and RU, 1280 px and 360 px wide, light and dark, before and while Play
// runs, and at the end of the story. The second test catches rules whose @media or :hover
// did not apply while measured but would on another screen. With --write, each source file
// keeps its used rules and the others move, in their order, to web/later.css (before its
// own rules). A rule of later.css that the first screen uses is named: it belongs in style.css.
import { chromium } from 'playwright-core';
import { readFileSync, writeFileSync, mkdtempSync, cpSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { serve } from './server.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// In link order, later.css last (as the page adds it after style.css).
const SOURCES = ['style.css', 'path.css', 'later.css'];
const [distArg, ...flags] = process.argv.slice(2);

/** Top-level and nested blocks of `css`: style rules (with offsets) and grouping at-rules. */
function parse(css, from = 0, to = css.length) {
  const items = [];
  let i = from;
  while (i < to) {
    // skip space and comments between rules (comments kept with the next rule)
    let start = i;
    while (i < to && /\s/.test(css[i])) i++;
    if (i >= to) break;
    if (css.startsWith('/*', i)) {
      const end = css.indexOf('*/', i) + 2;
      items.push({ kind: 'comment', start, end, text: css.slice(start, end) });
      i = end;
      continue;
    }
    const open = css.indexOf('{', i);
    const semi = css.indexOf(';', i);
    if (semi !== -1 && semi < open) { // @import / @charset
      items.push({ kind: 'keep', start, end: semi + 1 });
      i = semi + 1;
      continue;
    }
    let depth = 0, j = open;
    for (; j < to; j++) {
      if (css[j] === '{') depth++;
      else if (css[j] === '}' && --depth === 0) break;
    }
    const prelude = css.slice(i, open).trim();
    const item = { start, end: j + 1, prelude, bodyStart: open + 1, bodyEnd: j };
    if (/^@(media|supports|container)/.test(prelude)) {
      item.kind = 'group';
      item.children = parse(css, open + 1, j);
    } else if (prelude.startsWith('@')) item.kind = 'keep';
    else item.kind = 'rule';
    items.push(item);
    i = j + 1;
  }
  return items;
}

function styleRules(items, out = []) {
  for (const it of items) {
    if (it.kind === 'rule') out.push(it);
    else if (it.kind === 'group') styleRules(it.children, out);
  }
  return out;
}

const texts = SOURCES.map((f) => readFileSync(join(ROOT, 'web', f), 'utf8'));
const merged = texts.join('\n');
const parsed = parse(merged);
const rules = styleRules(parsed);

const dist = mkdtempSync(join(tmpdir(), 'css-split-'));
cpSync(distArg, dist, { recursive: true });
writeFileSync(join(dist, 'style.css'), merged);
writeFileSync(join(dist, 'index.html'),
  readFileSync(join(dist, 'index.html'), 'utf8').replace(/ integrity=("[^"]*"|\S+)(?=[ >])/g, (m, v) => (/style\.css/.test(m) ? '' : m)).replace(/(<link[^>]*style\.css[^>]*?) integrity=[^ >]+/, '$1'));
const site = await serve(dist);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
const used = new Set();

/** Indexes (CSSOM order) of the style rules whose stripped selector matches now. */
async function matching(page) {
  return page.evaluate(() => {
    const out = [];
    let n = 0;
    const strip = (s) => s
      .replace(/::?(before|after|placeholder|marker|selection|backdrop|-webkit-[a-z-]+|-moz-[a-z-]+)\b/g, '')
      .replace(/:(hover|focus-visible|focus-within|focus|active|visited|disabled|enabled|checked|target|open|popover-open|placeholder-shown)\b/g, '');
    const walk = (list) => {
      for (const r of list) {
        if (r instanceof CSSStyleRule) {
          const i = n++;
          try {
            if (r.selectorText.split(',').some((s) => { const t = strip(s).trim() || '*'; return document.querySelector(t); })) out.push(i);
          } catch { out.push(i); } // a selector we cannot test stays on the first screen
        } else if (r.cssRules && !(r instanceof CSSKeyframesRule)) walk(r.cssRules);
      }
    };
    const sheet = [...document.styleSheets].find((s) => s.href?.endsWith('style.css'));
    walk(sheet.cssRules);
    return { out, n };
  });
}

for (const lang of ['en', 'ru']) {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 360, height: 740 }]) {
    for (const colorScheme of ['light', 'dark']) {
      const context = await browser.newContext({ viewport, colorScheme, locale: lang });
      await context.route(/split_lesson-.*\.wasm$/, (r) => r.abort());
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('DOM.enable');
      await cdp.send('CSS.enable');
      await cdp.send('CSS.startRuleUsageTracking');
      const note = async () => {
        const { out, n } = await matching(page);
        if (n !== rules.length) throw new Error(`CSSOM has ${n} style rules, the parser ${rules.length}`);
        out.forEach((i) => used.add(rules[i]));
      };
      await page.goto(`${site.url}?lang=${lang}`);
      await note();
      await page.waitForSelector('[data-testid=play-pause]');
      await note();
      for (const theme of ['dark', 'light']) {
        await page.evaluate((t) => document.querySelectorAll('.idem-lab').forEach((e) => (e.dataset.theme = t)), theme);
        await note();
      }
      await page.evaluate(() => document.querySelectorAll('.idem-lab').forEach((e) => (e.dataset.theme = 'auto')));
      await page.clock.install();
      await page.getByTestId('play-pause').click();
      for (let i = 0; i < 40; i++) await page.clock.runFor(100);
      await note();
      await page.clock.runFor(120_000);
      await note();
      const { ruleUsage } = await cdp.send('CSS.stopRuleUsageTracking');
      for (const u of ruleUsage) {
        if (!u.used) continue;
        for (const r of rules) if (u.startOffset >= r.start && u.startOffset < r.end) used.add(r);
      }
      await context.close();
    }
  }
}
await browser.close();
await site.close();

// Split each source: used rules (and at-rules such as @keyframes) stay; the rest move.
const later = [];
const bases = [];
let at = 0;
for (const t of texts) { bases.push(at); at += t.length + 1; }
function emit(items, keep) {
  let out = '';
  let pendingComment = '';
  for (const it of items) {
    if (it.kind === 'comment') { pendingComment += merged.slice(it.start, it.end); continue; }
    if (it.kind === 'group') {
      const inner = emit(it.children, keep);
      if (inner.trim()) out += pendingComment + merged.slice(it.start, it.bodyStart) + inner + '\n}';
    } else if ((it.kind === 'keep' && keep) || (it.kind === 'rule' && used.has(it) === keep)) {
      out += pendingComment + merged.slice(it.start, it.end);
    }
    pendingComment = '';
  }
  return out;
}
let firstBytes = 0, laterBytes = 0;
const kept = [];
SOURCES.forEach((f, k) => {
  const lo = bases[k], hi = lo + texts[k].length;
  const items = parsed.filter((it) => it.start >= lo && it.end <= hi + 1);
  if (f === 'later.css') {
    const wrong = styleRules(items).filter((r) => used.has(r));
    wrong.forEach((r) => console.log(`used on the first screen but in later.css: ${r.prelude}`));
    if (later.length) later.push('/* Already in web/later.css. */\n');
    later.push(texts[k].replace(/^\n+/, ''));
    return;
  }
  const first = emit(items, true).replace(/^\n+/, '') + '\n';
  const rest = emit(items, false).replace(/^\n+/, '');
  kept.push([f, first]);
  firstBytes += first.length;
  if (rest.trim()) later.push(`/* From web/${f}. */\n` + rest + '\n');
});
laterBytes = later.join('\n').length;
console.log(`style rules: ${rules.length}, used on the first screen: ${used.size}`);
console.log(`first sheet ${firstBytes} B, later sheet ${laterBytes} B (source, unminified)`);
if (flags.includes('--write')) {
  for (const [f, text] of kept) writeFileSync(join(ROOT, 'web', f), text);
  writeFileSync(join(ROOT, 'web', 'later.css'), later.join('\n'));
}
