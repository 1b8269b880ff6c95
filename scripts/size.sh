#!/usr/bin/env bash
# The first-screen size check (a test: sizes are deterministic). Sums gzip -9 of what the
# page loads before it is interactive, for each language: index.html, the classic scripts it
# names (lang.js), the module scripts (boot.js, idem-web.js, __wasm_split.js), the first
# screen's wasm (idem-web_bg.wasm and the player's bundle), every stylesheet index.html links,
# and the language's first-screen catalog when the build has one (dist/i18n/<lang>.txt).
# Prints the per-file table and fails when a language's total is above the budget.
# KB = 1000 bytes.
# Usage: bash scripts/size.sh [--lazy]   (--lazy also lists the files loaded later or never
# by the first screen: the panels' catalog (<lang>-panels.txt, fetched once the first screen is
# drawn), the other language, long-form content, the wasm of the parts drawn later, the demo
# page, the icon, sw.js)
# Reads the release build in dist/ (`trunk build --release --offline`); builds nothing.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# GOAL_KB is the bar the first screen aims for; BUDGET_KB is what the build last measured for
# the heavier language plus a small margin, so that any real growth fails. It only moves down,
# but for two moves up that paid for features (the page checking its own claims; a drawing that
# no longer overlaps its labels), both paid back since. Each move, its figures and what moved
# them: docs/measurements.md ("Sizes") and git log -- scripts/size.sh.
GOAL_KB=130
BUDGET_KB=285
# The bytes before Play: the first screen without the player's bundle, what a student waits
# for before the first step. Kept as BUDGET_KB is (the same moves, in the same places).
PLAY_BUDGET_KB=243
LANGS=(en ru)

# SIZE_DIST: another build's folder (scripts/measure-build.sh); dist/ otherwise.
dist="${SIZE_DIST:-dist}"
if [[ ! -f "$dist/index.html" ]]; then
  echo "dist/ is not built: run 'trunk build --release --offline' first" >&2
  exit 1
fi

gz() { gzip -9c -- "$1" | wc -c; }
row() { printf '  %-34s %9d B raw %9d B gzip\n' "$1" "$(stat -c %s "$dist/$1")" "$(gz "$dist/$1")"; }

# What index.html loads before the app is interactive.
# The release html is minified (Trunk.toml): attributes may be unquoted and in any order.
# Prints the `attr` of every <tag> that has all the name=value pairs given after it.
tags() {
  node -e '
    const [html, tag, attr, ...want] = process.argv.slice(1);
    const value = /([a-z-]+)(?:\s*=\s*(?:"([^"]*)"|\x27([^\x27]*)\x27|([^\s>]+)))?/g;
    for (const [, body] of html.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, "gi"))) {
      const a = {};
      for (const m of body.matchAll(value)) a[m[1].toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? "";
      if (a[attr] && want.every((w) => a[w.split("=")[0]] === w.split("=")[1]))
        console.log(a[attr].replace(/^\.\//, ""));
    }' "$(cat "$dist/index.html")" "$@"
}
mapfile -t css < <(tags link href rel=stylesheet)
mapfile -t classic < <(tags script src | grep -v '^boot\.js$')
((${#css[@]})) || { echo "size check: index.html links no stylesheet (has its layout changed?)" >&2; exit 1; }
common=(index.html "${classic[@]}" boot.js idem-web.js idem-web_bg.wasm "${css[@]}")
# idem-web.js imports the loader of the wasm's later parts (scripts/split.sh) when it has one;
# the lesson's bundle (split_lesson-<hash>.wasm) comes after the first screen.
# The page asks for the player's bundle as it starts (its verdict and prediction, and the
# page's story picker, crates/web/src/view/later.rs): split_player-<hash>.wasm and the code it
# shares with the lesson's bundle, chunk_<n>-<hash>.wasm. With two bundles every chunk is code
# both share (wasm-split-cli makes a chunk of what two or more bundles use), so the player
# needs every chunk. (__wasm_split.js, which names them, is minified in a release build.)
if [[ -f "$dist/__wasm_split.js" ]]; then
  mapfile -t player < <(cd "$dist" && ls split_player-*.wasm chunk_*.wasm 2>/dev/null)
  bundles=("$dist"/split_*-*.wasm)
  [[ -f "${bundles[0]}" ]] || bundles=()
  ((${#bundles[@]} == 2)) || { echo "size check: ${#bundles[@]} split_*.wasm bundles, not 2 (has the layout changed? then which chunks the player needs must be read again)" >&2; exit 1; }
  [[ " ${player[*]} " == *" split_player-"* ]] || { echo "size check: dist has no split_player-<hash>.wasm (has its layout changed?)" >&2; exit 1; }
  common+=(__wasm_split.js "${player[@]}")
fi
for f in "${common[@]}"; do
  [[ -f "$dist/$f" ]] || { echo "size check: $dist/$f is missing" >&2; exit 1; }
done

declare -A first=()
status=0
# total_line name bytes budget_kb extra: the line of a total against its budget; above it,
# says so and fails the check.
total_line() {
  local verdict="ok"
  if (($2 > $3 * 1000)); then
    verdict="OVER BUDGET"
    status=1
  fi
  printf '  %-34s %30d B gzip = %d.%d KB  (budget %d KB%s: %s)\n' "$1" "$2" \
    "$(($2 / 1000))" "$(($2 % 1000 / 100))" "$3" "$4" "$verdict"
}
for lang in "${LANGS[@]}"; do
  files=("${common[@]}")
  shopt -s nullglob
  for f in "$dist"/i18n/"$lang".*; do files+=("${f#"$dist"/}"); done
  shopt -u nullglob
  echo "first screen, lang=$lang (gzip -9):"
  # Before Play: the first screen without the player's bundle, which the page asks for once
  # it has mounted (the playback bar works without it; tests/e2e/measure-interactive.mjs
  # times it).
  total=0
  play=0
  for f in "${files[@]}"; do
    row "$f"
    size=$(gz "$dist/$f")
    total=$((total + size))
    [[ " ${player[*]:-} " == *" $f "* ]] || play=$((play + size))
    first[$f]=1
  done
  total_line "total" "$total" "$BUDGET_KB" ", goal $GOAL_KB KB"
  total_line "before Play" "$play" "$PLAY_BUDGET_KB" ""
done

if [[ "${1:-}" == "--lazy" ]]; then
  echo "loaded later or by other pages (not in the first screen):"
  while IFS= read -r f; do
    [[ -n "${first[$f]:-}" ]] || row "$f"
  done < <(cd "$dist" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
fi

if ((status != 0)); then
  echo "size check FAILED: a first screen is above ${BUDGET_KB} KB gzip (goal ${GOAL_KB} KB), or its bytes before Play above ${PLAY_BUDGET_KB} KB" >&2
fi
exit "$status"
