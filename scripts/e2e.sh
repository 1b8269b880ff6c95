#!/usr/bin/env bash
# End-to-end tests: Debian's Chromium, driven by playwright-core from node:test, against the
# built page in dist/ served under a sub-path. Build first: `trunk build --release --offline`.
# Installs the node dependencies of tests/e2e when missing (never downloads a browser).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
. scripts/env.sh

if [[ ! -f dist/index.html ]]; then
  echo "dist/ is not built: run 'trunk build --release --offline' first" >&2
  exit 1
fi

E2E="$ROOT/tests/e2e"
if [[ ! -d "$E2E/node_modules/playwright-core" || ! -d "$E2E/node_modules/axe-core" ]]; then
  (cd "$E2E" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
fi

export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
# node --test is given the test files themselves (a folder argument fails on Node >= 22, and
# an empty list would run nothing and pass).
shopt -s nullglob
found=("$E2E"/*.test.mjs)
if ((${#found[@]} == 0)); then
  echo "no end-to-end test files (*.test.mjs) in $E2E" >&2
  exit 1
fi
# Longest first. tests/e2e/runner.mjs starts the files in the order given, E2E_JOBS at a
# time, the next as one ends (node --test sorts them by name: student.test.mjs, 150 s, the
# longest, started 19th of 21 and ran its last ~100 s alone while the other job sat idle).
# Started first, it has the short files fill in beside it, and both jobs end within seconds of
# each other. The seconds come from tests/e2e/times.tsv (a full run's); a file not listed
# there (a new one) goes before all of them, as it may be long.
files=()
while IFS=$'\t' read -r _ file; do
  files+=("$file")
done < <(
  for file in "${found[@]}"; do
    secs="$(awk -F'\t' -v f="${file##*/}" '!/^#/ && $2 == f { print $1; exit }' "$E2E/times.tsv")"
    printf '%s\t%s\n' "${secs:-999999}" "$file"
  done | sort -t$'\t' -k1,1nr -k2,2
)
# Two files at a time (E2E_JOBS): a file spends most of its time waiting on its page (a story
# playing in real time, a search, a frame), so on this 2-core machine two in parallel take
# about 3/4 of the time of one after the other (373 s against 501 s, measured 2026-12-04).
# Each file starts its own server and browser; no test depends on another file.
# No test may hang the suite, and none may fail for the machine's load: node (20) runs each
# file as a test of its own and E2E_TEST_TIMEOUT_MS bounds that file as a whole, not each of
# its tests, so the bound is 15 minutes a file, a guard against a hang (on this 2-core machine
# at a load of 27, lesson.test.mjs went past the 3 minutes this used to be).
# Besides node's own report (spec on a terminal, TAP otherwise, as node chooses), the
# per-file reporter writes how many tests of each file passed, and how long they took: a file
# that ran none fails the run, even when the other files ran theirs (node's "pass N" is one
# total, and counts a file without a test as one passing test).
counts="$(mktemp)"
trap 'rm -f "$counts" "$counts.rows"' EXIT
set +e
node "$E2E/runner.mjs" "$counts" "${files[@]}"
rc=$?
set -e
empty=0
for file in "${files[@]}"; do
  n="$(awk -F'\t' -v f="$file" '$2 == f { print $1 }' "$counts")"
  if [[ -z "$n" || "$n" == 0 ]]; then
    echo "end-to-end: ${file#"$ROOT"/} ran no test" >&2
    empty=$((empty + 1))
  fi
done
# Each file's time and tests, longest first; target/e2e-times.tsv keeps the times in
# times.tsv's format (copy it over tests/e2e/times.tsv when the order has drifted).
mkdir -p "$ROOT/target"
awk -F'\t' '{ f = $2; sub(/.*\//, "", f); printf "%d\t%s\t%d\n", ($3 + 500) / 1000, f, $1 }' "$counts" |
  sort -t$'\t' -k1,1nr -k2,2 >"$counts.rows"
printf '\nend-to-end time per file (its tests together; tests passed):\n'
awk -F'\t' -v jobs="${E2E_JOBS:-2}" '{ printf "  %5ss  %3d  %s\n", $1, $3, $2; s += $1 }
  END { printf "  %5ss       all files, %d at a time\n", s, jobs }' "$counts.rows"
cut -f1,2 "$counts.rows" >"$ROOT/target/e2e-times.tsv"
if ((rc != 0)); then
  exit "$rc"
fi
if ((empty > 0)); then
  echo "end-to-end: $empty file(s) ran no test: an emptied file must not pass" >&2
  exit 1
fi
