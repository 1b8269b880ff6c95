// What scripts/drop-classes.mjs, scripts/short-imports.mjs and scripts/part-names.mjs share: the
// JS that wasm-bindgen (the glue) and wasm-split-cli (the loader) write, read as a syntax tree
// (acorn, installed by scripts/setup.sh into $IDEM_TOOLS/acorn) and edited by the positions of
// its nodes, and the module's side of each edit made by the workspace's `wasm-post`
// (crates/wasm-post: wasmparser and wasm-encoder). No pattern is matched on the text those tools
// write: an upgrade that reshapes it either still parses to the same nodes or fails by name.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = process.env.IDEM_TOOLS || join(homedir(), '.cache', 'idempotency-lab');

/** Prints `<tool>: <message>` and exits with 1 (the callers have written nothing yet). */
export function failer(tool) {
  return (message) => {
    console.error(`${tool}: ${message}`);
    process.exit(1);
  };
}

function acorn() {
  try {
    return createRequire(join(TOOLS, 'acorn', 'package.json'))('acorn');
  } catch {
    console.error(`acorn is missing from ${TOOLS}/acorn: run scripts/setup.sh`);
    process.exit(1);
  }
}

/** `source` as an ES module's syntax tree (acorn's ESTree, with start/end offsets). */
export const parse = (source) => acorn().parse(source, { ecmaVersion: 'latest', sourceType: 'module' });

/** The file at `path`, as text and as a syntax tree; `fail`s (see `failer`) when it does not
 * parse. */
export function parseFile(path, fail) {
  const js = readFileSync(path, 'utf8');
  try {
    return { js, program: parse(js) };
  } catch (e) {
    return fail(`${path} does not parse: ${e.message}`);
  }
}

/** Calls `visit(node, parent)` on `node` and every node under it, parents first. */
export function walk(node, visit, parent = null) {
  visit(node, parent);
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) {
      if (child && typeof child.type === 'string') walk(child, visit, node);
    }
  }
}

/** Every node under `roots` (one node or several) for which `test(node, parent)` holds. */
export function find(roots, test) {
  const out = [];
  for (const root of Array.isArray(roots) ? roots : [roots]) {
    walk(root, (node, parent) => test(node, parent) && out.push(node));
  }
  return out;
}

/** A property key's name: `a` and `"a"` alike (undefined for a computed key). */
export const keyName = (property) =>
  property.computed ? undefined : property.key.type === 'Identifier' ? property.key.name : property.key.value;

/** The names `roots` use as identifiers (references and bindings alike). */
export const identifiers = (roots) => new Set(find(roots, (n) => n.type === 'Identifier').map((n) => n.name));

/**
 * `source` with each of `edits` ({ start, end, text }) made; a removal (text '') also takes
 * the line break and blank lines after it, so no empty line is left where a statement was.
 */
export function applyEdits(source, edits) {
  let out = source;
  for (const { start, end, text } of [...edits].sort((a, b) => b.start - a.start)) {
    let to = end;
    if (text === '') while (to < out.length && /\s/.test(out[to])) to++;
    out = out.slice(0, start) + text + out.slice(to);
  }
  return out;
}

/**
 * Runs the workspace's wasm-post (crates/wasm-post) with `args` and returns its stdout; throws
 * when it fails (its message is on stderr already).
 */
export function wasmPost(args) {
  // cargo runs it from the workspace's root: paths relative to here would not be found there.
  const paths = args.map((arg) => (/\.wasm$/.test(arg) ? resolve(arg) : arg));
  return execFileSync('cargo', ['run', '--quiet', '--offline', '-p', 'idem-wasm-post', '--', ...paths], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/**
 * Runs wasm-post with `args(out)`, `out` a file in a fresh temporary folder, and returns
 * `[out's bytes, wasm-post's stdout]`; exits with 1 when wasm-post fails.
 */
export function wasmPostInto(args) {
  const dir = mkdtempSync(join(tmpdir(), 'wasm-post-'));
  let result;
  try {
    const out = join(dir, 'module.wasm');
    const stdout = wasmPost(args(out));
    result = [readFileSync(out), stdout];
  } catch {
    // wasm-post said why on stderr.
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return result ?? process.exit(1);
}
