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
files=("$E2E"/*.test.mjs)
if ((${#files[@]} == 0)); then
  echo "no end-to-end test files (*.test.mjs) in $E2E" >&2
  exit 1
fi
# Two files at a time (E2E_JOBS): a file spends most of its time waiting on its page (a story
# playing in real time, a search, a frame), so on this 2-core machine two in parallel take
# about 3/4 of the time of one after the other (373 s against 501 s, measured 2026-12-04).
# Each file starts its own server and browser; no test depends on another file.
# No test may hang the suite: one that has not ended in 3 minutes fails (the longest takes
# about 45 s).
exec node --test --test-concurrency="${E2E_JOBS:-2}" --test-timeout="${E2E_TEST_TIMEOUT_MS:-180000}" "${files[@]}"
