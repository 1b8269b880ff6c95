#!/usr/bin/env bash
# Trunk post_build hook (scripts/post-build.sh): cuts the wasm into the first screen's module
# and the files of the parts drawn later, so the first download holds the player and no more
# (crates/web/src/view/later.rs). Trunk has built the
# binary with the `split` feature (index.html) and run wasm-bindgen on the whole of it; this
# replaces that output in the staging folder with:
#   idem-web.js, idem-web_bg.wasm  the first screen: the player and the page around it
#   split_<bundle>-<hash>.wasm      a bundle's own code (player, lesson)
#   chunk_<n>-<hash>.wasm           code both bundles use
#   __wasm_split.js                 loads those files when a part asks (next to idem-web.js)
# wasm-split-cli reads the relocations the linker kept (crates/web/build.rs), so it runs on
# cargo's output, before wasm-bindgen; in a release build each module then goes through
# wasm-opt -Oz (Trunk's own wasm-opt is off in index.html: it would optimise the uncut module), and
# the first-screen module's imports from its glue get short names (scripts/short-imports.mjs).
# No step matches a pattern on wasm-bindgen's or wasm-split-cli's output: the JS they write is
# read as a syntax tree (scripts/glue-ast.mjs), the wasm by crates/wasm-post (docs/build.md).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
stage="${TRUNK_STAGING_DIR:?run by trunk as a post_build hook (TRUNK_STAGING_DIR is not set)}"
profile="${TRUNK_PROFILE:-release}"
name=idem-web
# Where cargo put the build (CARGO_TARGET_DIR, build.target-dir, or target/), as Trunk finds it.
target_dir="$(cd "$ROOT" && cargo metadata --no-deps --format-version 1 --offline |
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).target_directory))')"
wasm="$target_dir/wasm32-unknown-unknown/$profile/$name.wasm"
[[ -f "$wasm" ]] || { echo "split: $wasm is missing (built by trunk?)" >&2; exit 1; }
# Trunk checks wasm-opt's version only when it runs it (index.html turns that off).
if [[ "$profile" == release ]]; then
  wasm-opt --version | grep -q 'version 132' ||
    { echo "split: wasm-opt is not binaryen 132 ($(wasm-opt --version)); run scripts/setup.sh and . scripts/env.sh" >&2; exit 1; }
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# IDEM_BUILD_SKIP names steps to leave out, only to measure what each saves
# (scripts/measure-build.sh); a build for the page never sets it.
skip() { [[ " ${IDEM_BUILD_SKIP:-} " == *" $1 "* ]]; }
if skip split; then
  # Trunk's uncut module and glue, optimised as the cut ones would be: what the cut saves.
  [[ "$profile" == release ]] && wasm-opt -Oz --low-memory-unused --strip-producers --strip-target-features \
    "$stage/${name}_bg.wasm" -o "$stage/${name}_bg.wasm" 2>/dev/null
  echo "split: skipped (IDEM_BUILD_SKIP)"
  exit 0
fi
wasm-split-cli --target web --out-name "$name" "$wasm" "$work/split" >/dev/null
wasm-bindgen --target web --no-typescript --keep-lld-exports --no-demangle \
  --out-name "$name" --out-dir "$work/bindgen" "$work/split/$name.wasm"

# The link file must sit next to idem-web.js, which imports it.
[[ -f "$work/split/__wasm_split.js" ]] || { echo "split: wasm-split-cli wrote no __wasm_split.js" >&2; exit 1; }
rm -f "$stage"/split_*.wasm "$stage"/chunk_*.wasm
cp "$work/bindgen/$name.js" "$work/split/__wasm_split.js" "$stage/"
optimise() {
  if [[ "$profile" == release ]]; then
    # (Its warnings about the name section's unknown subsections are noise. The producers
    # and target-features sections name the toolchain; nothing reads them.)
    wasm-opt -Oz --low-memory-unused --strip-producers --strip-target-features "$1" -o "$2" 2>"$work/wasm-opt.log" ||
      { cat "$work/wasm-opt.log" >&2; exit 1; }
  else
    cp "$1" "$2"
  fi
}
# server_fn's stream classes, which no lesson calls, out of the module and its glue before
# wasm-opt removes what only they reached (scripts/drop-classes.mjs).
if [[ "$profile" == release ]] && ! skip drop-classes; then
  node "$ROOT/scripts/drop-classes.mjs" "$work/bindgen/${name}_bg.wasm" "$stage/$name.js" \
    IntoUnderlyingByteSource IntoUnderlyingSink IntoUnderlyingSource >/dev/null
fi
optimise "$work/bindgen/${name}_bg.wasm" "$stage/${name}_bg.wasm"
# Short names for the module's imports from its glue, in both (scripts/short-imports.mjs).
if [[ "$profile" == release ]] && ! skip short-imports; then
  node "$ROOT/scripts/short-imports.mjs" "$stage/${name}_bg.wasm" "$stage/$name.js" >/dev/null
fi
parts=0
for part in "$work"/split/split_*.wasm "$work"/split/chunk_*.wasm; do
  [[ -f "$part" ]] || continue
  optimise "$part" "$stage/$(basename "$part")"
  parts=$((parts + 1))
done

# A part's file is named by its content (split_lesson-<hash>.wasm): a page still running the
# previous build's first-screen module asks for its own parts' names and gets them, or a 404
# (a notice), never a part of another build, which would not fit its memory and table.
# The loader's names follow (scripts/part-names.mjs, on its syntax tree).
renames=()
for part in "$stage"/split_*.wasm "$stage"/chunk_*.wasm; do
  [[ -f "$part" ]] || continue
  base="$(basename "$part" .wasm)"
  hashed="$base-$(sha256sum "$part" | cut -c1-12).wasm"
  mv "$part" "$stage/$hashed"
  renames+=("$base.wasm=$hashed")
done
if ((${#renames[@]})); then
  node "$ROOT/scripts/part-names.mjs" "$stage/__wasm_split.js" "${renames[@]}" >/dev/null
fi

# Play needs the first-screen module and nothing else of the wasm: it is preloaded from
# index.html's head, at a low priority (the first screen's css, scripts and catalog go first),
# so its download starts with the html instead of once boot.js has run; boot.js's fetch() of
# the same URL takes the preloaded response (Play answers sooner). The code the bundles share (chunk_*) is
# not preloaded: the player's bundle, the first to need it, is asked for once the page is
# drawn, and a preloaded chunk would take its bytes from the link before Play (measured: the
# chunk arrived before the module and was not used until after the first step).
links="<link rel=\"preload\" href=\"./${name}_bg.wasm\" as=\"fetch\" type=\"application/wasm\" crossorigin fetchpriority=\"low\">"
grep -q '</head>' "$stage/index.html" || { echo "split: index.html has no </head>" >&2; exit 1; }
sed -i "s#</head>#$links</head>#" "$stage/index.html"

echo "split: first screen $(stat -c %s "$stage/${name}_bg.wasm") B, $parts later files ($profile)"
