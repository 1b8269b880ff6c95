#!/usr/bin/env bash
# Prints the project's figures; asserts nothing (timings on a shared machine are noisy, so
# read ratios within one run; runs, situations and steps are exact and deterministic).
# Usage: bash scripts/bench.sh [max_k]   (default 3)
#   1. simulation core: steps/s and runs/s per scenario, clone vs step cost;
#   2. "try every failure": per scenario, runs represented, distinct situations explored,
#      steps simulated and milliseconds, for k = 1..max_k (native release); with
#      BRUTE=1 also the brute-force oracle (every schedule one by one: the "before" figures);
#      with HEAVY_K=4 also k = 4 on the heaviest scenario (scope); with CORE_O3=1 the
#      explorer is built with the core at opt-level 3 (the release profile's "z" is for the
#      wasm's size), in a target dir of its own, to compare;
#   3. the release bundle in dist/ (builds it if missing): raw and gzip -9 sizes.
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
if [[ "${CORE_O3:-}" == 1 ]]; then
  target="$target/core-o3"
  CARGO_TARGET_DIR="$target" cargo build -q --release -p idem-core --example explore \
    --config 'profile.release.package.idem-core.opt-level=3' 2>/dev/null
  echo "(explorer built with the core at opt-level 3)"
else
  cargo build -q --release -p idem-core --example explore 2>/dev/null
fi
explore="$target/release/examples/explore"
for k in $(seq 1 "$max_k"); do
  echo "== explorer, k = $k faults (release, native)"
  "$explore" "$k"
  echo
  if [[ "${BRUTE:-}" == 1 ]]; then
    echo "== brute-force oracle, k = $k faults (release, native)"
    "$explore" "$k" --brute
    echo
  fi
done
if [[ -n "${HEAVY_K:-}" ]]; then
  echo "== explorer, k = $HEAVY_K faults on the heaviest scenario (release, native)"
  "$explore" "$HEAVY_K" scope
  echo
fi

if [[ "${EXPLORER_ONLY:-}" == 1 ]]; then
  exit 0
fi

echo "== release bundle (dist/)"
if ! ls dist/*.wasm >/dev/null 2>&1; then
  trunk build --release --offline >/dev/null
fi
total=0
for f in dist/*.wasm dist/*.js dist/*.css; do
  [[ -e "$f" ]] || continue
  raw=$(stat -c %s "$f")
  gz=$(gzip -9c "$f" | wc -c)
  total=$((total + gz))
  printf '%-44s %9d B raw %8d B gzip\n' "$(basename "$f")" "$raw" "$gz"
done
printf '%-44s %28d B gzip (%d.%d KB; budget 150 KB)\n' "total" "$total" "$((total / 1000))" "$((total % 1000 / 100))"
