#!/usr/bin/env bash
# Prints the project's figures; asserts nothing (timings on a shared machine are noisy, so
# read ratios within one run; runs, situations and steps are exact and deterministic).
# Usage: bash scripts/bench.sh [max_k]   (default 3)
#   1. simulation core: steps/s and runs/s per scenario, clone vs step cost;
#   2. "try every failure": per scenario, runs represented, distinct situations remembered,
#      steps simulated and milliseconds, for k = 1..max_k (native release); the same three
#      numbers as the page's data-runs / data-states / data-steps (the core's Report: runs,
#      states, steps; see its docs for exactly what each counts); with
#      BRUTE=1 also the brute-force oracle (every schedule one by one: the "before" figures);
#      with HEAVY_K=4 also k = 4 on the heaviest scenario (scope); built with the page's
#      worker profile (`release-worker`, opt-level 3) and its `shared-text` feature, or
#      EXPLORER_PROFILE=release for the first screen's opt-level "z" (the figures before
#      2026-12-07);
#   2b. the search cut into parts (explore_parallel, what the page's workers do) at k = max_k
#      over every scenario: on one thread and on every core (nproc), total milliseconds;
#   3. the release bundle in dist/ (builds it if missing): the first screen per language and
#      the lazily loaded files (raw and gzip -9, scripts/size.sh), and twiggy top -n 20 of a
#      names-kept build (skipped with a note when twiggy is missing).
# EXPLORER_ONLY=1 prints part 2 only.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
. scripts/env.sh
max_k="${1:-3}"

if [[ "${EXPLORER_ONLY:-}" != 1 ]]; then
  echo "== simulation core (cargo bench -p idem-core --bench throughput)"
  cargo bench -q -p idem-core --bench throughput 2>/dev/null
  echo
fi

target="${CARGO_TARGET_DIR:-target}"
# The explorer is built with the profile of the page's search worker (`release-worker`, the
# release profile at opt-level 3: what "Try every failure" runs in the browser), so these
# are the page's figures; EXPLORER_PROFILE=release gives the first screen's opt-level "z"
# (the figures before 2026-12-07 were taken so).
profile="${EXPLORER_PROFILE:-release-worker}"
# And with the core's shared strings (`shared-text`, as Trunk builds the worker; the core's
# examples get it from its dev-dependency on itself anyway: said here so it stays so).
cargo build -q --profile "$profile" -p idem-core --features shared-text --example explore 2>/dev/null
echo "(explorer built with the $profile profile and the shared-text feature)"
explore="$target/$profile/examples/explore"
for k in $(seq 1 "$max_k"); do
  echo "== explorer, k = $k faults ($profile, native)"
  "$explore" "$k"
  echo
  if [[ "${BRUTE:-}" == 1 ]]; then
    echo "== brute-force oracle, k = $k faults ($profile, native)"
    "$explore" "$k" --brute
    echo
  fi
done
cores="$(nproc)"
for threads in 1 "$cores"; do
  echo "== search in parts (explore_parallel), k = $max_k, $threads thread(s), every scenario"
  "$explore" "$max_k" --threads "$threads" | tail -1
  echo
done
if [[ -n "${HEAVY_K:-}" ]]; then
  echo "== explorer, k = $HEAVY_K faults on the heaviest scenario ($profile, native)"
  "$explore" "$HEAVY_K" scope
  echo
fi

if [[ "${EXPLORER_ONLY:-}" == 1 ]]; then
  exit 0
fi

echo "== release bundle (dist/): first screen per language and the rest (scripts/size.sh)"
if [[ ! -f dist/index.html ]]; then
  trunk build --release --offline >/dev/null
fi
bash scripts/size.sh --lazy || true

echo
echo "== where the wasm's bytes are (twiggy top -n 20 of a names-kept build: wasm-opt -Oz -g)"
if ! command -v twiggy >/dev/null; then
  echo "twiggy is not installed (cargo install twiggy): skipped"
else
  names="$(mktemp -d)"
  cargo build -q --release --target wasm32-unknown-unknown -p idem-web --bin idem-web
  wasm-bindgen --target web --out-dir "$names" \
    "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/idem-web.wasm"
  wasm-opt -Oz -g "$names/idem-web_bg.wasm" -o "$names/named.wasm"
  twiggy top -n 20 "$names/named.wasm"
  rm -rf "$names"
fi
