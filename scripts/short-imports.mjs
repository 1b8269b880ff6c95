// Shortens the names under which the first-screen module imports wasm-bindgen's JS glue, in the
// module and in the glue together: `__wbg_getBoundingClientRect_329ca748ec918b0c` becomes
// `f`, the module `./idem-web_bg.js` becomes `a`. The names' hashes are noise to gzip; this
// takes them off the first screen (what that saves: docs/build.md). Run by scripts/split.sh on a release build, after
// wasm-opt, with the wasm and the js that wasm-bindgen wrote for each other.
//
// node scripts/short-imports.mjs <module.wasm> <glue.js>      (rewrites both in place)
//
// It fails (exit 1, nothing written) unless every renamed import is a key of the glue's import
// object exactly once and the glue names the module exactly once, so a wasm-bindgen that writes
// its glue another way stops the build instead of shipping a page that cannot start.
import { readFileSync, writeFileSync } from 'node:fs';
import { name, readU32, section, sections, writeU32 } from './wasm-bytes.mjs';

const [wasmPath, jsPath] = process.argv.slice(2);
if (!wasmPath || !jsPath) {
  console.error('usage: node scripts/short-imports.mjs <module.wasm> <glue.js>');
  process.exit(2);
}
const GLUE_MODULE = './idem-web_bg.js';
const SHORT_MODULE = 'a';

function fail(message) {
  console.error(`short-imports: ${message}`);
  process.exit(1);
}

/** `a`, `b`, …, `z`, `aa`, `ab`, …: the n-th short name. */
function shortName(n) {
  let out = '';
  for (n += 1; n > 0; n = Math.floor((n - 1) / 26)) out = String.fromCharCode(97 + ((n - 1) % 26)) + out;
  return out;
}

/** The length of an import's description (after its kind byte) at `at`. */
function skipDescription(bytes, kind, at) {
  const limits = (p) => {
    const flags = bytes[p++];
    [, p] = readU32(bytes, p);
    if (flags & 1) [, p] = readU32(bytes, p);
    return p;
  };
  switch (kind) {
    case 0: // function: type index
      return readU32(bytes, at)[1];
    case 1: // table: reference type, limits
      return limits(at + 1);
    case 2: // memory: limits
      return limits(at);
    case 3: // global: value type, mutability
      return at + 2;
    case 4: // tag: attribute, type index
      return readU32(bytes, at + 1)[1];
    default:
      return fail(`an import of unknown kind ${kind}`);
  }
}

const wasm = readFileSync(wasmPath);
const renamed = new Map(); // long name → short name
const parts = [wasm.subarray(0, 8)];
for (const { id, body, end, bytes } of sections(wasm)) {
  if (id !== 2) {
    parts.push(bytes);
    continue;
  }
  // The import section: (module name, field name, description)*.
  let [count, p] = readU32(wasm, body);
  const imports = [writeU32(count)];
  while (count-- > 0) {
    let length;
    [length, p] = readU32(wasm, p);
    const module = wasm.toString('utf8', p, p + length);
    p += length;
    [length, p] = readU32(wasm, p);
    const field = wasm.toString('utf8', p, p + length);
    p += length;
    const kind = wasm[p];
    const description = wasm.subarray(p, skipDescription(wasm, kind, p + 1));
    p += description.length;
    if (module === GLUE_MODULE) {
      if (renamed.has(field)) fail(`${field} is imported twice`);
      renamed.set(field, shortName(renamed.size));
      imports.push(name(SHORT_MODULE), name(renamed.get(field)), description);
    } else {
      imports.push(name(module), name(field), description);
    }
  }
  if (p !== end) fail('the import section has bytes after its last import');
  parts.push(section(2, Buffer.concat(imports)));
}
if (renamed.size === 0) fail(`${wasmPath} imports nothing from ${GLUE_MODULE}`);

// The glue: `        <name>: function(` keys of its import object, and the object's module key.
let js = readFileSync(jsPath, 'utf8');
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
for (const [long, short] of renamed) {
  const key = new RegExp(`^(\\s+)${escape(long)}:`, 'gm');
  const found = js.match(key)?.length ?? 0;
  if (found !== 1) fail(`the glue has ${found} keys ${long} (expected 1)`);
  js = js.replace(key, `$1${short}:`);
}
const moduleKey = `"${GLUE_MODULE}": import0`;
if (js.split(moduleKey).length !== 2) fail(`the glue does not name ${moduleKey} once`);
js = js.replace(moduleKey, `${SHORT_MODULE}: import0`);

writeFileSync(wasmPath, Buffer.concat(parts));
writeFileSync(jsPath, js);
console.log(`short-imports: ${renamed.size} imports renamed`);
