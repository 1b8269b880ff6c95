// Runs the end-to-end files for scripts/e2e.sh: `node runner.mjs COUNTS FILE…`.
//
// What `node --test --test-concurrency=N FILE…` does, with one difference: the files start in
// the order given. node's command line sorts them by name first, so the longest file
// (student.test.mjs) used to start 19th of 21 and run its last ~100 s alone while the other
// job sat idle; e2e.sh gives them longest first (tests/e2e/times.tsv). Each file still runs in
// a process of its own, E2E_JOBS at a time, each bounded by E2E_TEST_TIMEOUT_MS as a whole.
// Reports: node's own (spec on a terminal, TAP otherwise) on stdout, and the per-file counts
// and times of per-file-reporter.mjs into COUNTS. Exits 1 when any test (or file) failed.
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';
import { createWriteStream } from 'node:fs';
import perFile from './per-file-reporter.mjs';

const [counts, ...files] = process.argv.slice(2);
if (!counts || files.length === 0) {
  console.error('usage: node runner.mjs COUNTS FILE…');
  process.exit(2);
}
const stream = run({
  files,
  concurrency: Number(process.env.E2E_JOBS ?? 2),
  timeout: Number(process.env.E2E_TEST_TIMEOUT_MS ?? 900_000),
});
// A test marked `todo` reports a failure that is expected (it stands for work still owed; none
// is marked now); node's own CLI does not fail the run for it either.
stream.on('test:fail', (event) => {
  if (!event.todo) process.exitCode = 1;
});
stream.compose(process.stdout.isTTY ? new spec() : tap).pipe(process.stdout);
stream.compose(perFile).pipe(createWriteStream(counts));
