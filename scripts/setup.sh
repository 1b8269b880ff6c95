#!/usr/bin/env bash
# Installs (or confirms) every tool this project needs. Idempotent: anything
# already present at the right version is skipped, so re-running is cheap.
#
#   rust target wasm32-unknown-unknown, rustfmt, clippy   (rustup)
#   chromium, chromium-driver (+ nodejs, npm if missing)  (apt)
#   trunk ^0.21                                           (cargo install --locked)
#   wasm-bindgen-cli = the wasm-bindgen version in Cargo.lock (cargo install)
#   binaryen@132 (wasm-opt)                               (npm, into $IDEM_TOOLS)
#   terser@5.51.4 (minifies the first screen's scripts)   (npm, into $IDEM_TOOLS)
#   acorn@8.19.0 (reads wasm-bindgen's glue, scripts/glue-ast.mjs) (npm, into $IDEM_TOOLS)
#   wasm-split-cli (wasm_split_cli_support 0.2.4)          (cargo install --locked)
#
# Afterwards `. scripts/env.sh` puts them on PATH.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
. "$ROOT/scripts/env.sh"

TRUNK_SERIES="0.21"
BINARYEN_VERSION="132"
TERSER_VERSION="5.51.4"
ACORN_VERSION="8.19.0"
APT_PACKAGES=(chromium chromium-driver)

ok() { printf 'ok %s (present)\n' "$*"; }
installing() { printf 'installing %s\n' "$*"; }
die() { printf 'setup.sh: error: %s\n' "$*" >&2; exit 1; }

command -v cargo >/dev/null 2>&1 || die "cargo not found: install Rust with rustup first"
command -v rustup >/dev/null 2>&1 || die "rustup not found: install Rust with rustup first"

# --- Rust target and components -------------------------------------------
# (Listings are captured first: `cmd | grep -q` can trip pipefail via SIGPIPE.)
installed_targets="$(rustup target list --installed)"
installed_components="$(rustup component list --installed)"
if grep -qx 'wasm32-unknown-unknown' <<<"$installed_targets"; then
  ok "rust target wasm32-unknown-unknown"
else
  installing "rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi
for component in rustfmt clippy; do
  if grep -q "^${component}-" <<<"$installed_components"; then
    ok "rust component $component"
  else
    installing "rust component $component"
    rustup component add "$component"
  fi
done

# --- Debian packages ----------------------------------------------------------
apt_installed() {
  [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" == "install ok installed" ]]
}
command -v npm >/dev/null 2>&1 || APT_PACKAGES+=(nodejs npm)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  if apt_installed "$pkg"; then
    ok "apt $pkg $(dpkg-query -W -f='${Version}' "$pkg")"
  else
    missing+=("$pkg")
  fi
done
if ((${#missing[@]})); then
  installing "apt ${missing[*]}"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "need root (or sudo) to apt-get install ${missing[*]}"
    SUDO="sudo"
  fi
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
[[ -x "$CHROMEDRIVER" ]] || die "chromedriver not found at $CHROMEDRIVER"

# --- Cargo.lock and crate sources -----------------------------------------
# Trunk runs offline (cargo --offline), so every dependency must be fetched
# up front (the release build's hook also runs the workspace's wasm-post, crates/wasm-post). `cargo fetch` also writes Cargo.lock if it is missing.
if [[ ! -f Cargo.lock ]]; then
  installing "Cargo.lock (cargo generate-lockfile)"
  cargo generate-lockfile
fi
cargo fetch --quiet
echo "ok crate sources (cargo fetch)"

WASM_BINDGEN_VERSION="$(awk '
  $0 == "name = \"wasm-bindgen\"" { found = 1; next }
  found && /^version = / { gsub(/^version = "|"$/, ""); print; exit }
' Cargo.lock)"
[[ -n "$WASM_BINDGEN_VERSION" ]] || die "no wasm-bindgen entry in Cargo.lock"

# The three tools come from source (no registry this machine reaches ships their binaries:
# npm and PyPI were searched for trunk, wasm-bindgen-cli and wasm-split-cli). Built without
# their release profiles' fat LTO and single codegen unit, which cost minutes of linking on two
# cores and nothing that matters here (they orchestrate; the lesson's wasm is optimised by
# wasm-opt either way).
fast_install() {
  CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 cargo install "$@"
}

# --- trunk ^0.21 ----------------------------------------------------------------
trunk_version="$(trunk --version 2>/dev/null | awk '{print $2}' || true)"
if [[ "$trunk_version" == "$TRUNK_SERIES".* ]]; then
  ok "trunk $trunk_version"
else
  installing "trunk ^$TRUNK_SERIES (cargo install, ~10 min)${trunk_version:+, replacing $trunk_version}"
  fast_install trunk --version "^$TRUNK_SERIES" --locked
fi

# --- wasm-bindgen-cli (= Cargo.lock's wasm-bindgen) --------------------------------
# Not --locked: the CLI's own lockfile may need newer crates than it shipped with.
wb_version="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
wbr_present=0
command -v wasm-bindgen-test-runner >/dev/null 2>&1 && wbr_present=1
if [[ "$wb_version" == "$WASM_BINDGEN_VERSION" && $wbr_present == 1 ]]; then
  ok "wasm-bindgen-cli $wb_version"
else
  installing "wasm-bindgen-cli =$WASM_BINDGEN_VERSION (cargo install, ~5 min)${wb_version:+, replacing $wb_version}"
  fast_install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION"
fi

# npm_tool DIR PACKAGE@VERSION BIN: installs an npm package into $IDEM_TOOLS/DIR (outside the
# repo, so a fresh clone reuses it) and checks that BIN, one of its commands, runs.
npm_tool() {
  installing "$2 (npm, into $IDEM_TOOLS/$1)"
  mkdir -p "$IDEM_TOOLS/$1"
  npm install --prefix "$IDEM_TOOLS/$1" --no-audit --no-fund --loglevel=error "$2"
  "$3" --version >/dev/null || die "$(basename "$3") did not install"
}

# --- binaryen (wasm-opt) from npm -------------------------------------------------
# Debian's binaryen is too old for current wasm-bindgen output.
wasm_opt="$IDEM_TOOLS/binaryen/node_modules/.bin/wasm-opt"
wo_version="$("$wasm_opt" --version 2>/dev/null || true)"
if [[ "$wo_version" == *"version $BINARYEN_VERSION "* || "$wo_version" == *"(version_$BINARYEN_VERSION)"* ]]; then
  ok "wasm-opt $BINARYEN_VERSION (binaryen, $IDEM_TOOLS/binaryen)"
else
  npm_tool binaryen "binaryen@$BINARYEN_VERSION" "$wasm_opt"
fi

# --- terser (minifies the first screen's scripts in a release build, scripts/post-build.sh) --
terser_bin="$IDEM_TOOLS/terser/node_modules/.bin/terser"
if [[ "$("$terser_bin" --version 2>/dev/null || true)" == "terser $TERSER_VERSION" ]]; then
  ok "terser $TERSER_VERSION ($IDEM_TOOLS/terser)"
else
  npm_tool terser "terser@$TERSER_VERSION" "$terser_bin"
fi

# --- acorn (reads wasm-bindgen's glue as a syntax tree in a release build, scripts/glue-ast.mjs) --
# A library, not a command: its version is read from its package.json.
acorn_json="$IDEM_TOOLS/acorn/node_modules/acorn/package.json"
acorn_version="$(node -p 'require(process.argv[1]).version' "$acorn_json" 2>/dev/null || true)"
if [[ "$acorn_version" == "$ACORN_VERSION" ]]; then
  ok "acorn $ACORN_VERSION ($IDEM_TOOLS/acorn)"
else
  installing "acorn@$ACORN_VERSION (npm, into $IDEM_TOOLS/acorn)"
  mkdir -p "$IDEM_TOOLS/acorn"
  npm install --prefix "$IDEM_TOOLS/acorn" --no-audit --no-fund --loglevel=error "acorn@$ACORN_VERSION"
  [[ "$(node -p 'require(process.argv[1]).version' "$acorn_json" 2>/dev/null || true)" == "$ACORN_VERSION" ]] ||
    die "acorn did not install"
fi

# --- wasm-split-cli (cuts the release wasm into lazily loaded files, scripts/split.sh) --
# The cutter that goes with the wasm_split_helpers crate Leptos's split points use.
SPLIT_VERSION="0.2.4"
installed="$(cargo install --list)"
if grep -qx "wasm_split_cli_support v$SPLIT_VERSION:" <<<"$installed"; then
  ok "wasm-split-cli (wasm_split_cli_support $SPLIT_VERSION)"
else
  installing "wasm-split-cli (wasm_split_cli_support $SPLIT_VERSION, cargo install, ~3 min)"
  fast_install wasm_split_cli_support --version "=$SPLIT_VERSION" --features build-binary --locked
fi

# --- Final check ----------------------------------------------------------------
for tool in trunk wasm-bindgen wasm-bindgen-test-runner wasm-opt terser wasm-split-cli chromium; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is not on PATH after setup"
done
echo "setup ok; PATH includes ${CARGO_HOME:-$HOME/.cargo}/bin and $IDEM_TOOLS/{binaryen,terser}/node_modules/.bin (. scripts/env.sh)"
