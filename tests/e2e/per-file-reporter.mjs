// A node:test reporter for scripts/e2e.sh: prints, when the run ends, one "<passed>\t<file>"
// line per test file, counting the top-level tests of that file that passed (skipped and todo
// tests left out). e2e.sh fails when a file it gave node counted none.
//
// Why not node's own "pass N": it is one total for every file, and a file without a test is
// reported as one passing test named after the file (node runs the file as a test of its own),
// so an emptied file would even add to it. Here such an entry (its name is its path) is not
// counted.
export default async function* perFile(source) {
  const passed = new Map();
  for await (const event of source) {
    const { file, name, nesting, skip, todo } = event.data ?? {};
    if (!file) continue;
    if (!passed.has(file)) passed.set(file, 0);
    if (event.type !== 'test:pass' || nesting !== 0 || skip || todo || name === file) continue;
    passed.set(file, passed.get(file) + 1);
  }
  for (const [file, n] of passed) yield `${n}\t${file}\n`;
}
