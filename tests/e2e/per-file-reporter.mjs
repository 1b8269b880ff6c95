// A node:test reporter for scripts/e2e.sh: prints, when the run ends, one
// "<passed>\t<file>\t<ms>" line per test file: how many top-level tests of that file passed
// (skipped and todo tests left out), and how long its top-level tests took together (wall
// time, passed or failed; the file's before/after hooks, the browser's start, left out).
// e2e.sh fails when a file it gave node counted none, and orders the next run's files by
// these times (tests/e2e/times.tsv).
//
// Why not node's own "pass N": it is one total for every file, and a file without a test is
// reported as one passing test named after the file (node runs the file as a test of its own),
// so an emptied file would even add to it. Here such an entry (its name is its path) is not
// counted.
export default async function* perFile(source) {
  const passed = new Map();
  const took = new Map();
  for await (const event of source) {
    const { file, name, nesting, skip, todo, details } = event.data ?? {};
    if (!file) continue;
    if (!passed.has(file)) {
      passed.set(file, 0);
      took.set(file, 0);
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (nesting !== 0 || name === file) continue;
    took.set(file, took.get(file) + (details?.duration_ms ?? 0));
    if (event.type !== 'test:pass' || skip || todo) continue;
    passed.set(file, passed.get(file) + 1);
  }
  for (const [file, n] of passed) yield `${n}\t${file}\t${Math.round(took.get(file))}\n`;
}
