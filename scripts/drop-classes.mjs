// Drops exported classes nobody uses from the first-screen module and its glue (fewer bytes before
// Play): Leptos always builds server_fn for the browser, whose wasm-streams exports three JS
// classes (IntoUnderlyingSource, IntoUnderlyingSink, IntoUnderlyingByteSource) that keep their
// code in the module; a lesson with no server never calls them (what that saves: docs/build.md).
// Run by scripts/split.sh on a release build, after wasm-bindgen and before wasm-opt (which then
// removes the code only those exports reached).
//
// node scripts/drop-classes.mjs <module.wasm> <glue.js> <Class>...   (rewrites both in place)
//
// The glue is read as a syntax tree (scripts/glue-ast.mjs). For each class it removes the
// top-level `export class <Class>` and the top-level statements that use the class (its
// Symbol.dispose line), then every top-level declaration only the removed code referred to (the
// classes' finalization registries, an enum only they used). The exports to drop from the module are
// those the removed code reads from the instance's exports (the variable the glue assigns
// `<instance>.exports` to) and the rest of the glue does not; the workspace's wasm-post drops
// them (wasmparser and wasm-encoder). It fails (exit 1, nothing written) when the glue has no
// such class, when a class reads no export of its own, when something left still uses a class,
// or when the module lacks an export the glue reads.
import { writeFileSync } from 'node:fs';
import { applyEdits, failer, find, identifiers, parseFile, wasmPostInto } from './glue-ast.mjs';

const [wasmPath, jsPath, ...classes] = process.argv.slice(2);
if (!wasmPath || !jsPath || classes.length === 0) {
  console.error('usage: node scripts/drop-classes.mjs <module.wasm> <glue.js> <Class>...');
  process.exit(2);
}
const fail = failer('drop-classes');

const { js, program } = parseFile(jsPath, fail);

// The variable the glue keeps the instance's exports in (`wasm = instance.exports;`).
const holders = new Set(
  find(
    program,
    (n) =>
      n.type === 'AssignmentExpression' &&
      n.left.type === 'Identifier' &&
      n.right.type === 'MemberExpression' &&
      !n.right.computed &&
      n.right.property.name === 'exports',
  ).map((n) => n.left.name),
);
if (holders.size !== 1) fail(`the glue assigns an instance's exports to ${holders.size} variables (expected 1)`);
const [exportsVariable] = holders;

/** The names of the exports `roots` read from the instance's exports. */
function exportsRead(roots) {
  const names = new Set();
  for (const n of find(roots, (n) => n.type === 'MemberExpression' && n.object.type === 'Identifier')) {
    if (n.object.name !== exportsVariable) continue;
    if (!n.computed) names.add(n.property.name);
    else if (n.property.type === 'Literal') names.add(String(n.property.value));
    else fail(`the glue reads an export by a computed name (at offset ${n.start}): which ones it uses is unknown`);
  }
  return names;
}

let body = program.body;
const removed = [];
const own = new Map(); // class → the exports its own code reads
for (const c of classes) {
  const declarations = body.filter(
    (s) => s.type === 'ExportNamedDeclaration' && s.declaration?.type === 'ClassDeclaration' && s.declaration.id.name === c,
  );
  if (declarations.length !== 1) fail(`the glue has ${declarations.length} classes ${c} (expected 1 export class)`);
  const uses = body.filter(
    (s) => s !== declarations[0] && (s.type === 'ExpressionStatement' || s.type === 'IfStatement') && identifiers(s).has(c),
  );
  own.set(c, exportsRead(declarations[0]));
  removed.push(declarations[0], ...uses);
  body = body.filter((s) => !removed.includes(s));
}

// Then every top-level declaration (not exported) that only removed code referred to, until
// none is left: what was used before and is not now.
const declaredNames = (s) =>
  s.type === 'VariableDeclaration' && s.declarations.every((d) => d.id.type === 'Identifier')
    ? s.declarations.map((d) => d.id.name)
    : s.type === 'FunctionDeclaration' || s.type === 'ClassDeclaration'
      ? [s.id.name]
      : [];
const usedBefore = (s) => identifiers(program.body.filter((t) => t !== s));
for (let changed = true; changed; ) {
  changed = false;
  for (const s of body) {
    const names = declaredNames(s);
    if (names.length === 0) continue;
    const used = identifiers(body.filter((t) => t !== s));
    if (names.some((name) => used.has(name)) || !names.some((name) => usedBefore(s).has(name))) continue;
    removed.push(s);
    body = body.filter((t) => t !== s);
    changed = true;
    break;
  }
}

const left = identifiers(body);
for (const c of classes) {
  const still = [...left].filter((name) => name.includes(c));
  if (still.length > 0) fail(`the glue still uses ${c} (${still.join(', ')}) after its class and what only it used are gone`);
}
const keep = exportsRead(body);
const drop = [...exportsRead(removed)].filter((name) => !keep.has(name));
for (const [c, reads] of own) {
  if (![...reads].some((name) => drop.includes(name))) fail(`the class ${c} reads no export of its own from the module`);
}

const [wasm] = wasmPostInto((out) => ['drop-exports', wasmPath, out, ...drop]);
writeFileSync(jsPath, applyEdits(js, removed.map((s) => ({ start: s.start, end: s.end, text: '' }))));
writeFileSync(wasmPath, wasm);
console.log(`drop-classes: ${drop.length} exports and ${classes.length} classes dropped`);
