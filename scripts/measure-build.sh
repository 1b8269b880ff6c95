#!/usr/bin/env bash
# What each step of the release build's hook saves before Play (docs/build.md's table): builds
# the page once with every step, then once without each step (IDEM_BUILD_SKIP, read by
# scripts/split.sh and scripts/post-build.sh), each into its own folder, and reads each with
# the size check (scripts/size.sh). Prints a table of gzip bytes before Play per language.
# Slow (a release build per step; the first one compiles, the others reuse it): run it in the
# background, never inside the test suite. Builds nothing in dist/.
#
# Usage: bash scripts/measure-build.sh [out-dir] [step...]
#   out-dir defaults to target/measure-build; steps default to all of them:
#   split          the cut into first screen and later parts, with its second wasm-bindgen run
#                  (without it: Trunk's uncut module and glue, through the same wasm-opt -Oz)
#   drop-classes   scripts/drop-classes.mjs      short-imports  scripts/short-imports.mjs
#   terser         the first screen's scripts    catalogs       comment lines of i18n/*.txt
#   stylesheets    path.css merged into style.css, later.css unlinked
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
. scripts/env.sh
out="${1:-target/measure-build}"
shift || true
steps=("$@")
((${#steps[@]})) || steps=(split drop-classes short-imports terser catalogs stylesheets)
mkdir -p "$out"

# The before-Play and first-screen totals of the build in $1: "<lang> <play> <total>" lines.
measure() {
  SIZE_DIST="$1" bash scripts/size.sh 2>/dev/null | awk '
    /^first screen, lang=/ { sub(/.*lang=/, ""); sub(/ .*/, ""); lang = $0 }
    $1 == "total" { total = $2 }
    $1 == "before" && $2 == "Play" { print lang, $3, total }' || true
}
build() {
  local name="$1" skip="$2"
  echo "measure-build: building '$name' (IDEM_BUILD_SKIP='$skip')" >&2
  rm -rf "${out:?}/$name"
  IDEM_BUILD_SKIP="$skip" trunk build --release --offline --dist "$out/$name" >"$out/$name.log" 2>&1 ||
    { echo "measure-build: the build '$name' failed (see $out/$name.log)" >&2; exit 1; }
  measure "$out/$name" >"$out/$name.tsv"
  [[ -s "$out/$name.tsv" ]] || { echo "measure-build: the size check read nothing in $out/$name" >&2; exit 1; }
}

build all ""
for step in "${steps[@]}"; do build "without-$step" "$step"; done

# The table: what leaving each step out adds before Play (= what the step saves).
{
  printf '| step | lang | before Play with it (B) | without it (B) | saves (B) | first screen saves (B) |\n'
  printf '| --- | --- | --- | --- | --- | --- |\n'
  for step in "${steps[@]}"; do
    while read -r lang play total; do
      read -r _ play2 total2 < <(grep "^$lang " "$out/without-$step.tsv")
      printf '| %s | %s | %d | %d | %d | %d |\n' "$step" "$lang" "$play" "$play2" $((play2 - play)) $((total2 - total))
    done <"$out/all.tsv"
  done
} | tee "$out/results.md"
