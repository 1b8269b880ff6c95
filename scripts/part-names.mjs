// Renames the later parts' files in the loader wasm-split-cli writes (__wasm_split.js): each
// `"./<part>.wasm"` it fetches becomes `"./<part>-<hash>.wasm"`, the name scripts/split.sh gives
// the file by its content. Run by split.sh.
//
// node scripts/part-names.mjs <__wasm_split.js> <part>.wasm=<part>-<hash>.wasm...   (in place)
//
// The loader is read as a syntax tree (scripts/glue-ast.mjs): each old name must be the value
// of exactly one string in it, `./` before the file's name. It fails (exit 1, nothing
// written) otherwise, so a loader that names its files another way stops the build.
import { writeFileSync } from 'node:fs';
import { applyEdits, failer, find, parseFile } from './glue-ast.mjs';

const [loaderPath, ...pairs] = process.argv.slice(2);
if (!loaderPath || pairs.length === 0 || pairs.some((p) => !p.includes('='))) {
  console.error('usage: node scripts/part-names.mjs <__wasm_split.js> <part>.wasm=<part>-<hash>.wasm...');
  process.exit(2);
}
const fail = failer('part-names');

const { js, program } = parseFile(loaderPath, fail);
const strings = find(program, (n) => n.type === 'Literal' && typeof n.value === 'string');
const edits = pairs.map((pair) => {
  const [from, to] = pair.split('=');
  const found = strings.filter((n) => n.value === `./${from}`);
  if (found.length !== 1) fail(`the loader names ./${from} ${found.length} times (expected 1)`);
  return { start: found[0].start, end: found[0].end, text: JSON.stringify(`./${to}`) };
});
writeFileSync(loaderPath, applyEdits(js, edits));
console.log(`part-names: ${edits.length} parts renamed`);
