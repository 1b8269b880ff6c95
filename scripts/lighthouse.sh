#!/usr/bin/env bash
# Lighthouse 12 on the release dist/, served on loopback under a sub-path with the strict CSP
# (the e2e server), with Lighthouse's default mobile emulation (slow 4G, 4x CPU slowdown) in
# Debian's Chromium, the files served gzip-compressed as a static host would. Prints performance, FCP, LCP, TBT and TTI. Not part of scripts/test.sh:
# timings are noisy on a shared machine (run it a few times; RUNS=3 does that for you).
# Usage: bash scripts/lighthouse.sh [query]   e.g. `bash scripts/lighthouse.sh lang=ru`
# THROTTLING=devtools slows the page down for real (Chromium's own throttling, as
# tests/e2e/measure-interactive.mjs does) instead of Lighthouse's default simulation, which
# replays an unthrottled load on a model of the phone: there the wasm, fetched at once and
# done on loopback before the first paint, counts toward the LCP although a real phone
# paints the first screen long before it arrives.
# DIST=<folder> measures another build (e.g. a copy of an older dist/, for before/after).
# KEEP=<folder> keeps each run's Lighthouse JSON there (report-1.json, …) to read its audits
# (largest-contentful-paint-element, long-tasks, mainthread-work-breakdown, bootup-time…).
# Build first (`trunk build --release --offline`); installs lighthouse@12.2.3 into
# $IDEM_TOOLS/lighthouse when missing.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
. scripts/env.sh

LIGHTHOUSE_VERSION="12.2.3"
query="${1:-}"
runs="${RUNS:-1}"
export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"

dist="$(cd "${DIST:-dist}" 2>/dev/null && pwd || true)"
if [[ ! -f "$dist/index.html" ]]; then
  echo "${DIST:-dist}/ is not built: run 'trunk build --release --offline' first" >&2
  exit 1
fi
lh="$IDEM_TOOLS/lighthouse/node_modules/.bin/lighthouse"
if [[ "$("$lh" --version 2>/dev/null || true)" != "$LIGHTHOUSE_VERSION" ]]; then
  echo "installing lighthouse@$LIGHTHOUSE_VERSION (npm, into $IDEM_TOOLS/lighthouse)"
  mkdir -p "$IDEM_TOOLS/lighthouse"
  npm install --prefix "$IDEM_TOOLS/lighthouse" --no-audit --no-fund --loglevel=error \
    "lighthouse@$LIGHTHOUSE_VERSION"
fi

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The e2e suite's static server (sub-path, strict CSP), started in the background.
node --input-type=module -e "
  import { serve } from '$ROOT/tests/e2e/server.mjs';
  const site = await serve('$dist', '/course/lab/', { gzip: true });
  console.log(site.url);
" >"$work/url" &
server_pid=$!
for _ in $(seq 1 100); do
  [[ -s "$work/url" ]] && break
  sleep 0.1
done
url="$(head -n1 "$work/url")"
[[ -n "$url" ]] || { echo "the static server did not start" >&2; exit 1; }
[[ -z "$query" ]] || url="$url?$query"

printf '%-4s %12s %8s %8s %8s %8s   (%s)\n' run performance FCP LCP TBT TTI "$url"
for run in $(seq 1 "$runs"); do
  "$lh" "$url" --quiet --output=json --output-path="$work/report.json" \
    --only-categories=performance --throttling-method="${THROTTLING:-simulate}" \
    --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage" \
    >/dev/null 2>"$work/lh.err" || { cat "$work/lh.err" >&2; exit 1; }
  node -e "
    const r = require('$work/report.json');
    const a = r.audits, s = (id) => (a[id].numericValue / 1000).toFixed(2) + ' s';
    const fail = r.runtimeError ? ' runtime error: ' + r.runtimeError.message : '';
    console.log(['$run'.padEnd(4), String(Math.round(r.categories.performance.score * 100)).padStart(12),
      s('first-contentful-paint').padStart(8), s('largest-contentful-paint').padStart(8),
      (Math.round(a['total-blocking-time'].numericValue) + ' ms').padStart(8),
      s('interactive').padStart(8)].join(' ') + fail);
  "
  if [[ -n "${KEEP:-}" ]]; then
    mkdir -p "$KEEP"
    cp "$work/report.json" "$KEEP/report-$run.json"
  fi
done
