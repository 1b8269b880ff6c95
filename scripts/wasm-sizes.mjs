// Where a wasm module's bytes go, by function and by crate: the breakdown of the first-screen
// module in docs/measurements.md ("Sizes"). Reads a module that keeps its function names (the
// name section: wasm-bindgen without --no-demangle, then `wasm-opt -Oz -g`; docs/build.md says
// how to cut one as scripts/split.sh does) and prints its sections, the largest functions and a
// table per crate. Raw bytes of each function's body, and the gzip -9 of the bodies of each
// crate's functions put together (gzip of parts does not add up to the whole: the table's
// column is a share, scaled to the code section's own gzip). No dependency but node.
// Usage: node scripts/wasm-sizes.mjs <module.wasm> [top=40]
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { readU32, sections } from './wasm-bytes.mjs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/wasm-sizes.mjs <module.wasm> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 40);
const wasm = readFileSync(file);
const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;

const sectionNames = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'datacount'];
let importedFunctions = 0;
let bodies = [];
const names = new Map();
const bySection = [];
for (const { id, body, end, bytes } of sections(wasm)) {
  let label = sectionNames[id] ?? `id ${id}`;
  if (id === 0) {
    const [len, at] = readU32(wasm, body);
    label = `custom "${wasm.subarray(at, at + len).toString()}"`;
  }
  bySection.push([label, bytes.length, gz(bytes)]);
  if (id === 2) {
    let [count, at] = readU32(wasm, body);
    for (let i = 0; i < count; i++) {
      for (let k = 0; k < 2; k++) {
        const [len, next] = readU32(wasm, at);
        at = next + len;
      }
      const kind = wasm[at++];
      if (kind === 0) {
        importedFunctions++;
        at = readU32(wasm, at)[1];
      } else if (kind === 1) {
        at += 1; // reftype
        const flags = wasm[at++];
        at = readU32(wasm, at)[1];
        if (flags & 1) at = readU32(wasm, at)[1];
      } else if (kind === 2) {
        const flags = wasm[at++];
        at = readU32(wasm, at)[1];
        if (flags & 1) at = readU32(wasm, at)[1];
      } else if (kind === 3) {
        at += 2; // valtype, mutability
      } else throw new Error(`import kind ${kind}`);
    }
  } else if (id === 10) {
    let [count, at] = readU32(wasm, body);
    for (let i = 0; i < count; i++) {
      const [size, start] = readU32(wasm, at);
      bodies.push({ index: importedFunctions + i, bytes: wasm.subarray(start, start + size) });
      at = start + size;
    }
  } else if (id === 0) {
    const [len, at0] = readU32(wasm, body);
    if (wasm.subarray(at0, at0 + len).toString() !== 'name') continue;
    for (let at = at0 + len; at < end; ) {
      const sub = wasm[at];
      const [size, start] = readU32(wasm, at + 1);
      if (sub === 1) {
        let [count, p] = readU32(wasm, start);
        for (let i = 0; i < count; i++) {
          const [index, q] = readU32(wasm, p);
          const [n, r] = readU32(wasm, q);
          names.set(index, wasm.subarray(r, r + n).toString());
          p = r + n;
        }
      }
      at = start + size;
    }
  }
}

// The crate a function's code belongs to: the type a generic was instantiated for where the
// name says (drop_in_place<T>, <T as Trait>), else the first crate named.
const crates = [
  ['idem_core', 'core (idem-core)'], ['idem_lesson', 'lesson (idem-lesson)'], ['idem_web', 'web (idem-web)'],
  ['idem_worker', 'worker protocol (idem-worker)'], ['reactive_graph', 'reactive_graph'], ['tachys', 'tachys'],
  ['leptos', 'leptos*'], ['serde_json', 'serde_json'], ['serde_wasm_bindgen', 'serde-wasm-bindgen'], ['serde', 'serde'],
  ['wasm_bindgen_futures', 'wasm-bindgen-futures'], ['wasm_bindgen', 'wasm-bindgen'], ['js_sys', 'js-sys'], ['web_sys', 'web-sys'],
  ['futures', 'futures'], ['futures_util', 'futures'], ['futures_channel', 'futures'], ['futures_core', 'futures'],
  ['wasm_split_helpers', 'wasm_split'], ['any_spawner', 'any_spawner'], ['or_poisoned', 'or_poisoned'], ['hashbrown', 'hashbrown'],
  ['indexmap', 'indexmap'], ['slotmap', 'slotmap'], ['send_wrapper', 'send_wrapper'], ['throw_error', 'throw_error'],
  ['server_fn', 'server_fn'], ['wasm_split', 'wasm_split'], ['dlmalloc', 'dlmalloc'], ['getrandom', 'getrandom'],
  ['console_error_panic_hook', 'console_error_panic_hook'], ['sha2', 'sha2'], ['rustc_hash', 'rustc_hash'],
  ['core::fmt', 'core::fmt (formatting)'], ['alloc::fmt', 'core::fmt (formatting)'], ['core::num', 'core::num'],
  ['core::str', 'core::str'], ['alloc::collections::btree', 'alloc (BTreeMap)'],
  ['std', 'std'], ['alloc', 'alloc'], ['core', 'core (other)'],
];
function crateOf(name) {
  if (!name) return '(no name)';
  // Standard-library names carry their crate's hash (core[c5930c85a12de822]::fmt).
  const plain = name.replace(/\[[0-9a-f]{16}\]/g, '');
  if (/^core::ops::function::(FnOnce|FnMut|Fn)::call(_once|_mut)?/.test(plain)) return 'closures (call shims)';
  const inner = plain.match(/drop_in_place<(.*)>(::h[0-9a-f]+)?$/);
  const subject = inner ? inner[1] : plain;
  let best = null;
  for (const [prefix, label] of crates) {
    const at = subject.search(new RegExp(`(^|[^A-Za-z0-9_])${prefix.replace(/:/g, ':')}(::|$|[^A-Za-z0-9_])`));
    if (at >= 0 && (best === null || at < best.at)) best = { at, label };
  }
  if (best) return best.label;
  if (/ shim$|^mounthandle_|^main$/.test(name)) return 'exports (wasm-bindgen shims)';
  if (/^(__|\$|dl|memcpy|memset|memmove|memcmp|rust_)/.test(name)) return 'runtime (malloc, mem*)';
  return '(other)';
}

console.log(`${file}: ${wasm.length} B raw, ${gz(wasm)} B gzip -9`);
console.log('\nsections (raw, gzip alone):');
for (const [label, raw, g] of bySection) console.log(`  ${label.padEnd(28)} ${String(raw).padStart(9)} ${String(g).padStart(9)}`);

const codeGz = gz(Buffer.concat(bodies.map((b) => b.bytes)));
const total = bodies.reduce((s, b) => s + b.bytes.length, 0);
console.log(`\ncode: ${bodies.length} functions, ${total} B raw, ${codeGz} B gzip (the bodies alone)`);

const groups = new Map();
for (const b of bodies) {
  const c = crateOf(names.get(b.index));
  const g = groups.get(c) ?? { n: 0, raw: 0, parts: [] };
  g.n++;
  g.raw += b.bytes.length;
  g.parts.push(b.bytes);
  groups.set(c, g);
}
const rows = [...groups].map(([c, g]) => [c, g.n, g.raw, gz(Buffer.concat(g.parts))]);
const sumGz = rows.reduce((s, r) => s + r[3], 0);
rows.sort((a, b) => b[2] - a[2]);
console.log('\nper crate (functions, raw B, raw %, gzip alone B, share of the code\'s gzip B):');
for (const [c, n, raw, g] of rows) {
  console.log(`  ${c.padEnd(30)} ${String(n).padStart(5)} ${String(raw).padStart(8)} ${(100 * raw / total).toFixed(1).padStart(5)}% ${String(g).padStart(8)} ${String(Math.round(g * codeGz / sumGz)).padStart(8)}`);
}

console.log(`\nthe ${top} largest functions (raw B):`);
for (const b of [...bodies].sort((a, b) => b.bytes.length - a.bytes.length).slice(0, top)) {
  const n = names.get(b.index) ?? `#${b.index}`;
  console.log(`  ${String(b.bytes.length).padStart(7)}  ${n.length > 150 ? n.slice(0, 147) + '...' : n}`);
}
