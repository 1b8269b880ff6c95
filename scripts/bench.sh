#!/usr/bin/env bash
# Prints the project's figures; asserts nothing (timings on a shared machine are noisy, so
# read ratios within one run). Usage: bash scripts/bench.sh [max_k]   (default 3)
#   1. simulation core: steps/s and runs/s per scenario, clone vs step cost;
#   2. "try every failure": runs, states and time per scenario for k = 1..max_k;
#   3. the release bundle in dist/ (builds it if missing): raw and gzip -9 sizes.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
. scripts/env.sh
max_k="${1:-3}"

echo "== simulation core (cargo bench -p idem-core --bench throughput)"
cargo bench -q -p idem-core --bench throughput 2>/dev/null

echo
cargo build -q --release -p idem-core --example explore 2>/dev/null
for k in $(seq 1 "$max_k"); do
  echo "== explorer, k = $k faults (release, native)"
  ./target/release/examples/explore "$k"
  echo
done

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
