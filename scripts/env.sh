# shellcheck shell=bash
# Source this file (`. scripts/env.sh`) to put the project's tools on PATH and
# configure browser tests. Safe to source more than once. Used by setup.sh,
# serve.sh and test.sh.

# Where npm-installed tools live (binaryen's wasm-opt, terser). Outside the repo, so a
# fresh clone reuses them.
export IDEM_TOOLS="${IDEM_TOOLS:-$HOME/.cache/idempotency-lab}"

_idem_path_prepend() {
  case ":$PATH:" in
    *":$1:"*) ;;
    *) PATH="$1:$PATH" ;;
  esac
}
_idem_path_prepend "$IDEM_TOOLS/binaryen/node_modules/.bin"
_idem_path_prepend "$IDEM_TOOLS/terser/node_modules/.bin"
_idem_path_prepend "${CARGO_HOME:-$HOME/.cargo}/bin"
unset -f _idem_path_prepend
export PATH

# `cargo test --target wasm32-unknown-unknown` runs tests through
# wasm-bindgen-test-runner, which drives headless Chromium via ChromeDriver
# (options in crates/web/webdriver.json).
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER:-wasm-bindgen-test-runner}"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}"
