// Shortens the names under which the first-screen module imports wasm-bindgen's JS glue, in the
// module and in the glue together: `__wbg_getBoundingClientRect_329ca748ec918b0c` becomes `a`,
// `b`, …, and the module `./idem-web_bg.js` becomes `a`. The names' hashes are noise to gzip;
// this takes them off the first screen (what that saves: docs/build.md). Run by scripts/split.sh
// on a release build, after wasm-opt, with the wasm and the js that wasm-bindgen wrote for each
// other.
//
// node scripts/short-imports.mjs <module.wasm> <glue.js>      (rewrites both in place)
//
// The glue is read as a syntax tree (scripts/glue-ast.mjs): its import object for the module is
// the object literal it names under a module's key (`"./idem-web_bg.js": import0`, where
// `const import0 = { … }`); the workspace's wasm-post (wasmparser and wasm-encoder) renames that
// module's imports in the wasm and says which name became which; the object's keys follow. It
// fails (exit 1, nothing written) unless the glue builds exactly one such object, the module
// imports from it, and every renamed import is a key of it exactly once.
import { writeFileSync } from 'node:fs';
import { applyEdits, failer, find, keyName, parseFile, wasmPostInto } from './glue-ast.mjs';

const [wasmPath, jsPath] = process.argv.slice(2);
if (!wasmPath || !jsPath) {
  console.error('usage: node scripts/short-imports.mjs <module.wasm> <glue.js>');
  process.exit(2);
}
const SHORT_MODULE = 'a';
const fail = failer('short-imports');

const { js, program } = parseFile(jsPath, fail);

// The object literals the glue binds to a name (`const import0 = { … }`).
const literals = new Map();
for (const d of find(program, (n) => n.type === 'VariableDeclarator' && n.id.type === 'Identifier')) {
  literals.set(d.id.name, literals.has(d.id.name) ? null : d.init?.type === 'ObjectExpression' ? d.init : null);
}
// The property that names the module whose imports are such an object: `"./idem-web_bg.js": import0`.
const modules = find(
  program,
  (n) => n.type === 'Property' && !n.computed && n.value.type === 'Identifier' && literals.get(n.value.name),
);
if (modules.length !== 1) {
  fail(`the glue names ${modules.length} modules whose imports it builds as an object (expected 1)`);
}
const [moduleKey] = modules;
const glueModule = keyName(moduleKey);
const object = literals.get(moduleKey.value.name);

const [wasm, pairs] = wasmPostInto((out) => ['short-imports', wasmPath, out, glueModule, SHORT_MODULE]);
const edits = [{ start: moduleKey.key.start, end: moduleKey.key.end, text: SHORT_MODULE }];
const renamed = pairs.split('\n').filter(Boolean);
for (const line of renamed) {
  const [long, short] = line.split('\t');
  const keys = object.properties.filter((p) => p.type === 'Property' && keyName(p) === long);
  if (keys.length !== 1) fail(`the glue has ${keys.length} keys ${long} (expected 1)`);
  const [key] = keys;
  edits.push({ start: key.key.start, end: key.key.end, text: key.shorthand ? `${short}: ${long}` : short });
}

writeFileSync(wasmPath, wasm);
writeFileSync(jsPath, applyEdits(js, edits));
console.log(`short-imports: ${renamed.length} imports renamed`);
