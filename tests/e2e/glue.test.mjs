// The release build's changes to the first-screen module and its wasm-bindgen glue (run by
// scripts/split.sh): scripts/short-imports.mjs renames the module's imports from the glue in
// both together and leaves other imports alone; scripts/drop-classes.mjs drops exported
// classes nobody uses from both. Each refuses (writing nothing) what it cannot do
// consistently. The page starting at all in the other end-to-end tests is the check on the
// real build; these check the rules on modules and glue made here, shaped as wasm-bindgen
// writes them (the glue keeps the instance's exports in `wasm`, a class's methods unregister
// it from its finalization registry). The scripts edit the module through the workspace's
// wasm-post (cargo run: the first test may compile it). scripts/part-names.mjs renames the
// later parts in wasm-split-cli's loader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './harness.mjs';
import { name, section as wasmSection, writeU32 } from '../../scripts/wasm-bytes.mjs';

const run = promisify(execFile);
const script = join(ROOT, 'scripts', 'short-imports.mjs');
const dropClasses = join(ROOT, 'scripts', 'drop-classes.mjs');

// The modules are written with the scripts' own encoder; the engine's parser
// (WebAssembly.Module) checks what comes out.
const leb = (n) => [...writeU32(n)];
const str = (s) => [...name(s)];
const section = (id, bytes) => [...wasmSection(id, Buffer.from(bytes))];

/** A module importing `imports` ([module, name] pairs) as functions () -> (), and a memory. */
function module(imports) {
  const entries = imports.flatMap(([m, n]) => [...str(m), ...str(n), 0x00, 0x00]);
  const memory = [...str('env'), ...str('memory'), 0x02, 0x00, 0x01];
  return Buffer.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [0x01, 0x60, 0x00, 0x00]),
    ...section(2, [...leb(imports.length + 1), ...entries, ...memory]),
  ]);
}

const GLUE = ['./idem-web_bg.js', '__wbg_getBoundingClientRect_329ca748ec918b0c'];
const OTHER = ['./__wasm_split.js', '__wasm_split_load_lesson'];
const glue = (keys) => `function __wbg_get_imports() {
    const import0 = {
        __proto__: null,
${keys.map((k) => `        ${k}: function(arg0) {\n            return arg0;\n        },`).join('\n')}
    };
    return {
        __proto__: null,
        "./idem-web_bg.js": import0,
        "./__wasm_split.js": import1,
    };
}
`;

async function withFiles(wasm, js, body) {
  const dir = await mkdtemp(join(tmpdir(), 'short-imports-'));
  const files = [join(dir, 'm.wasm'), join(dir, 'm.js')];
  try {
    await writeFile(files[0], wasm);
    await writeFile(files[1], js);
    await body(...files);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('short-imports: the glue imports get short names in the module and the glue alike; others stay', async () => {
  const many = Array.from({ length: 30 }, (_, i) => ['./idem-web_bg.js', `__wbg_f${i}_0123456789abcdef`]);
  const imports = [GLUE, OTHER, ...many];
  const js = glue([GLUE[1], ...many.map(([, n]) => n)]);
  await withFiles(module(imports), js, async (wasmFile, jsFile) => {
    await run(process.execPath, [script, wasmFile, jsFile]);
    const after = WebAssembly.Module.imports(new WebAssembly.Module(await readFile(wasmFile)));
    assert.deepEqual(after[0], { module: 'a', name: 'a', kind: 'function' });
    assert.deepEqual(after[1], { module: OTHER[0], name: OTHER[1], kind: 'function' });
    assert.deepEqual(after.at(-1), { module: 'env', name: 'memory', kind: 'memory' });
    const names = after.filter((i) => i.module === 'a').map((i) => i.name);
    assert.equal(names.length, 31);
    assert.equal(new Set(names).size, 31, 'distinct');
    assert.deepEqual(names.slice(25, 28), ['z', 'aa', 'ab']);
    const text = await readFile(jsFile, 'utf8');
    for (const n of names) assert.match(text, new RegExp(`^        ${n}: function`, 'm'));
    assert.doesNotMatch(text, /__wbg_\w+_[0-9a-f]{16}/, "no long name left");
    assert.match(text, /^        a: import0,$/m);
    assert.match(text, /"\.\/__wasm_split\.js": import1/);
    // The renamed module links against the renamed glue's object.
    const object = Function(`const import1 = {};\n${text}\nreturn __wbg_get_imports();`)();
    const instance = new WebAssembly.Instance(new WebAssembly.Module(await readFile(wasmFile)), {
      a: object.a,
      [OTHER[0]]: { [OTHER[1]]: () => {} },
      env: { memory: new WebAssembly.Memory({ initial: 1 }) },
    });
    assert.ok(instance);
  });
});

for (const [why, js, reason] of [
  ['a key missing from the glue', glue([]), /has 0 keys __wbg_getBoundingClientRect_/],
  ['a key twice in the glue', glue([GLUE[1], GLUE[1]]), /has 2 keys __wbg_getBoundingClientRect_/],
  ['the module named otherwise', glue([GLUE[1]]).replace('"./idem-web_bg.js": import0', '"./idem-web.js": import0'), /imports nothing from \.\/idem-web\.js/],
]) {
  test(`short-imports refuses ${why} and writes nothing`, async () => {
    const wasm = module([GLUE, OTHER]);
    await withFiles(wasm, js, async (wasmFile, jsFile) => {
      await assert.rejects(run(process.execPath, [script, wasmFile, jsFile]), (e) => e.code === 1 && reason.test(e.stderr));
      assert.deepEqual(await readFile(wasmFile), wasm);
      assert.equal(await readFile(jsFile, 'utf8'), js);
    });
  });
}

/** A module with one empty function exported under each of `names`. */
function exporting(names) {
  const exports = names.flatMap((n) => [...str(n), 0x00, 0x00]);
  return Buffer.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [0x01, 0x60, 0x00, 0x00]),
    ...section(3, [0x01, 0x00]),
    ...section(7, [...leb(names.length), ...exports]),
    ...section(10, [0x01, 0x02, 0x00, 0x0b]),
  ]);
}

const CLASS_GLUE = `let wasm;

function __wbg_finalize_init(instance) {
    wasm = instance.exports;
}

export class Stream {
    free() {
        StreamFinalization.unregister(this);
        wasm.__wbg_stream_free(this.__wbg_ptr, 0);
    }
    get type() {
        return __wbindgen_enum_StreamType[0];
    }
    pull(controller) {
        if (controller) {
            return wasm.stream_pull(this.__wbg_ptr, controller);
        }
    }
}
if (Symbol.dispose) Stream.prototype[Symbol.dispose] = Stream.prototype.free;

export class MountHandle {
    free() {
        MountHandleFinalization.unregister(this);
        wasm.__wbg_mounthandle_free(this.__wbg_ptr, 0);
    }
}
const __wbindgen_enum_StreamType = ["bytes"];
const StreamFinalization = (typeof FinalizationRegistry === 'undefined')
    ? { register: () => {}, unregister: () => {} }
    : new FinalizationRegistry(ptr => wasm.__wbg_stream_free(ptr, 1));
const MountHandleFinalization = (typeof FinalizationRegistry === 'undefined')
    ? { register: () => {}, unregister: () => {} }
    : new FinalizationRegistry(ptr => wasm.__wbg_mounthandle_free(ptr, 1));
`;

test('drop-classes takes a class out of the module and the glue, and nothing else', async () => {
  const names = ['__wbg_stream_free', 'stream_pull', '__wbg_mounthandle_free', 'mount', 'memory_'];
  await withFiles(exporting(names), CLASS_GLUE, async (wasmFile, jsFile) => {
    await run(process.execPath, [dropClasses, wasmFile, jsFile, 'Stream']);
    const left = WebAssembly.Module.exports(new WebAssembly.Module(await readFile(wasmFile))).map((e) => e.name);
    assert.deepEqual(left, ['__wbg_mounthandle_free', 'mount', 'memory_']);
    const text = await readFile(jsFile, 'utf8');
    assert.doesNotMatch(text, /stream/i);
    assert.match(text, /^export class MountHandle \{$/m);
    assert.match(text, /^const MountHandleFinalization = /m);
    assert.match(text, /__wbg_mounthandle_free\(ptr, 1\)\);\n$/);
  });
});

for (const [why, names, js, reason] of [
  ['a class the module does not export', ['mount'], CLASS_GLUE, /exports no __wbg_stream_free/],
  ['a class the glue does not define', ['__wbg_stream_free', 'stream_pull'], CLASS_GLUE.replace(/^export class Stream[\s\S]*?free;\n\n/m, ''), /0 classes Stream/],
]) {
  test(`drop-classes refuses ${why} and writes nothing`, async () => {
    const wasm = exporting(names);
    await withFiles(wasm, js, async (wasmFile, jsFile) => {
      await assert.rejects(run(process.execPath, [dropClasses, wasmFile, jsFile, 'Stream']), (e) => e.code === 1 && reason.test(e.stderr));
      assert.deepEqual(await readFile(wasmFile), wasm);
      assert.equal(await readFile(jsFile, 'utf8'), js);
    });
  });
}

// scripts/part-names.mjs: the loader wasm-split-cli writes (__wasm_split.js) fetches each later
// part by name; split.sh names the files by their content, and the loader's strings follow.
const partNames = join(ROOT, 'scripts', 'part-names.mjs');
const LOADER = `const __chunk_3 = makeLoad(() => {
    const src = fetch(new URL("./chunk_3.wasm", import.meta.url));
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}, []);
export const __wasm_split_load_player = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL('./split_player.wasm', import.meta.url));
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}, [__chunk_3]));
`;

test('part-names gives each later part its hashed name in the loader, and changes nothing else', async () => {
  await withFiles(Buffer.alloc(0), LOADER, async (_, jsFile) => {
    await run(process.execPath, [partNames, jsFile, 'chunk_3.wasm=chunk_3-0123456789ab.wasm', 'split_player.wasm=split_player-ba9876543210.wasm']);
    const text = await readFile(jsFile, 'utf8');
    assert.equal(
      text,
      LOADER.replace('"./chunk_3.wasm"', '"./chunk_3-0123456789ab.wasm"').replace("'./split_player.wasm'", '"./split_player-ba9876543210.wasm"'),
    );
  });
});

test('part-names refuses a part the loader does not fetch and writes nothing', async () => {
  await withFiles(Buffer.alloc(0), LOADER, async (_, jsFile) => {
    await assert.rejects(
      run(process.execPath, [partNames, jsFile, 'chunk_3.wasm=chunk_3-0123456789ab.wasm', 'split_lesson.wasm=split_lesson-0123456789ab.wasm']),
      (e) => e.code === 1 && /split_lesson\.wasm 0 times/.test(e.stderr),
    );
    assert.equal(await readFile(jsFile, 'utf8'), LOADER);
  });
});
