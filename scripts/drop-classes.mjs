// Drops exported classes nobody uses from the first-screen module and its glue (fewer bytes before Play): Leptos
// always builds server_fn for the browser, whose wasm-streams exports three JS classes
// (IntoUnderlyingSource, IntoUnderlyingSink, IntoUnderlyingByteSource) that keep their code in
// the module; a lesson with no server never calls them (what that saves: docs/build.md). Run by
// scripts/split.sh on a release build, after wasm-bindgen and before wasm-opt (which then
// removes the code only those exports reached).
//
// node scripts/drop-classes.mjs <module.wasm> <glue.js> <Class>...   (rewrites both in place)
//
// For each class: the module's exports `__wbg_<class>_free` and `<class>_<method>` (the class
// name in lower case), and in the glue its `export class`, its `Symbol.dispose` line and its
// `<Class>Finalization` registry. It fails (exit 1, nothing written) when a class is not found
// in both, or when its name is still in either afterwards.
import { readFileSync, writeFileSync } from 'node:fs';
import { readU32, section, sections, writeU32 } from './wasm-bytes.mjs';

const [wasmPath, jsPath, ...classes] = process.argv.slice(2);
if (!wasmPath || !jsPath || classes.length === 0) {
  console.error('usage: node scripts/drop-classes.mjs <module.wasm> <glue.js> <Class>...');
  process.exit(2);
}

function fail(message) {
  console.error(`drop-classes: ${message}`);
  process.exit(1);
}

const lower = classes.map((c) => c.toLowerCase());
const dropped = (name) => lower.some((c) => name === `__wbg_${c}_free` || name.startsWith(`${c}_`));

// The module: its export section without the classes' exports.
const wasm = readFileSync(wasmPath);
const parts = [wasm.subarray(0, 8)];
const gone = new Set();
for (const { id, body, end, bytes } of sections(wasm)) {
  if (id !== 7) {
    parts.push(bytes);
    continue;
  }
  let [count, p] = readU32(wasm, body);
  const kept = [];
  while (count-- > 0) {
    const start = p;
    let length;
    [length, p] = readU32(wasm, p);
    const name = wasm.toString('utf8', p, p + length);
    p = readU32(wasm, p + length + 1)[1]; // kind byte, index
    if (dropped(name)) gone.add(name);
    else kept.push(wasm.subarray(start, p));
  }
  if (p !== end) fail('the export section has bytes after its last export');
  parts.push(section(7, Buffer.concat([writeU32(kept.length), ...kept])));
}
for (const c of lower) {
  if (!gone.has(`__wbg_${c}_free`)) fail(`the module exports no class ${c}`);
}

// The glue: each class's block (up to its Symbol.dispose line) and its finalization registry.
let js = readFileSync(jsPath, 'utf8');
for (const c of classes) {
  const block = new RegExp(
    `^export class ${c} \\{\\n[\\s\\S]*?\\n\\}\\nif \\(Symbol\\.dispose\\) ${c}\\.prototype\\[Symbol\\.dispose\\] = ${c}\\.prototype\\.free;\\n\\n?`,
    'm',
  );
  const registry = new RegExp(`^const ${c}Finalization = [^\\n]*\\n(?: {4}[^\\n]*\\n)*`, 'm');
  for (const [what, pattern] of [['class', block], ['registry', registry]]) {
    if (!pattern.test(js)) fail(`the glue has no ${what} ${c}`);
    js = js.replace(pattern, '');
  }
}
// An enum only those classes used (wasm-streams' ReadableStreamType), when nothing else does.
js = js.replace(/^const (__wbindgen_enum_\w+) = [^\n]*\n/gm, (line, name) =>
  js.split(name).length === 2 ? '' : line,
);
for (const c of classes) {
  if (js.toLowerCase().includes(c.toLowerCase())) fail(`the glue still names ${c}`);
}

writeFileSync(wasmPath, Buffer.concat(parts));
writeFileSync(jsPath, js);
console.log(`drop-classes: ${gone.size} exports and ${classes.length} classes dropped`);
