#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh), then runs every check in order and
# stops at the first failure. This is exactly what CI runs (.ci/run).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# Golden traces are rewritten only by scripts/golden.sh, never by a test run.
if [[ -n "${UPDATE_GOLDEN:-}" ]]; then
  echo "UPDATE_GOLDEN is set: golden traces are rewritten by scripts/golden.sh, not by tests" >&2
  exit 2
fi
# Zero cases would make every property pass without running one.
if [[ "${PROPTEST_CASES:-}" == "0" ]]; then
  echo "PROPTEST_CASES=0 would run no property cases" >&2
  exit 2
fi

echo "==> setup"
setup_t0=$SECONDS
bash scripts/setup.sh
setup_secs=$((SECONDS - setup_t0))
# shellcheck source=scripts/env.sh
. scripts/env.sh

# One target dir for every step (target/ unless CARGO_TARGET_DIR is set).
# On a one-shot CI run, incremental state and full debug info only cost time
# and disk (line tables still give file:line in panics and backtraces).
if [[ "${CI:-}" == "true" ]]; then
  export CARGO_INCREMENTAL=0
  export CARGO_PROFILE_DEV_DEBUG="${CARGO_PROFILE_DEV_DEBUG:-line-tables-only}"
fi
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

passed=0
failed=0
started=$((SECONDS - setup_secs))
# "seconds<TAB>name" of each step run, for the summary (setup first: on a fresh machine it
# installs the tools).
timings=("$setup_secs"$'\t'"setup (scripts/setup.sh)")

# summary: each step's time, then the total.
summary() {
  printf '\nstep times:\n'
  local row
  for row in "${timings[@]}"; do
    printf '  %5ss  %s\n' "${row%%$'\t'*}" "${row#*$'\t'}"
  done
  printf '  %5ss  total\n' "$((SECONDS - started))"
}

# step "name" command...: prints a heading, runs the command, stops on failure.
step() {
  local name="$1"
  shift
  local t0=$SECONDS
  printf '\n==> [%d] %s\n    $ %s\n' "$((passed + 1))" "$name" "$*"
  if "$@"; then
    passed=$((passed + 1))
    timings+=("$((SECONDS - t0))"$'\t'"$name")
    printf -- '--> ok: %s (%ds)\n' "$name" "$((SECONDS - t0))"
  else
    local rc=$?
    failed=$((failed + 1))
    timings+=("$((SECONDS - t0))"$'\t'"$name (FAILED)")
    summary
    printf -- '\n--> FAILED: %s (exit %d)\n' "$name" "$rc"
    printf 'steps: %d passed, %d failed\n' "$passed" "$failed"
    exit "$rc"
  fi
}

# counted [--may-be-empty REGEX] command...: runs a test command, prints how many tests it
# ran, and fails when it failed, when its runners all together reported zero tests, or when any
# one cargo test binary did: each "Running <binary>" of cargo must be followed by "test result:
# ... N passed" with N > 0 (wasm-bindgen-test-runner's "no tests to run!" counts as zero), so
# emptying one binary fails the step even when the others ran theirs. Doc-tests are left out (a
# crate without examples in its docs has none); REGEX names the binaries that are empty by
# design (matched against what follows "Running"). node --test's files are checked one by one
# by scripts/e2e.sh itself; here its "pass N" only adds to the total.
counted() {
  local may_be_empty=""
  if [[ "${1:-}" == "--may-be-empty" ]]; then
    may_be_empty="$2"
    shift 2
  fi
  local log rc cargo_n node_n empty total bins bin
  log="$(mktemp)"
  set +e
  "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  set -e
  cargo_n=$({ grep -Eo 'test result: [A-Za-z]+\. [0-9]+ passed' "$log" || true; } |
    awk '{s += $4} END {print s + 0}')
  node_n=$({ grep -Eo '^(# |ℹ )pass [0-9]+' "$log" || true; } | awk '{s += $3} END {print s + 0}')
  empty=$(grep -c 'no tests to run!' "$log" || true)
  # The cargo binaries that ran no test and may not be empty, one a line.
  # (REGEX reaches awk through the environment: -v would turn its backslashes into escapes.)
  bins=$(MAY_BE_EMPTY="$may_be_empty" awk '
    BEGIN { ok = ENVIRON["MAY_BE_EMPTY"] }
    function zero() { if (bin != "" && !(ok != "" && bin ~ ok)) print bin; bin = "" }
    # cargo names the binary and its file in brackets ("Running tests/x.rs (target/…/x-…)");
    # the browser runner says "Running headless tests in Chrome on …" within it.
    /^ *Running .* \(.*\)$/ { sub(/^ *Running /, ""); bin = $0; next }
    /^ *Doc-tests / { bin = ""; next }
    bin != "" && /test result: [A-Za-z]+\. [0-9]+ passed/ {
      match($0, /[0-9]+ passed/)
      if (substr($0, RSTART, RLENGTH) + 0 > 0) bin = ""; else zero()
      next
    }
    bin != "" && /no tests to run!/ { zero(); next }
  ' "$log")
  rm -f "$log"
  total=$((cargo_n + node_n))
  printf -- '--> tests passed: %d' "$total"
  if ((empty > 0)); then
    printf ' (%d test binaries had no tests to run)' "$empty"
  fi
  printf '\n'
  if ((rc != 0)); then
    return "$rc"
  fi
  if ((total == 0)); then
    printf -- '--> the runner reported zero tests: nothing was checked\n'
    return 1
  fi
  if [[ -n "$bins" ]]; then
    printf -- '--> a test binary ran no test (an emptied file must not pass):\n'
    while IFS= read -r bin; do
      printf '      %s\n' "$bin"
    done <<<"$bins"
    return 1
  fi
}

step "rustfmt" \
  cargo fmt --all -- --check
step "clippy (native, whole workspace)" \
  cargo clippy --workspace --all-targets -- -D warnings
step "clippy (wasm32, idem-web with the split feature, idem-worker)" \
  cargo clippy -p idem-web -p idem-worker --target wasm32-unknown-unknown --all-targets --all-features -- -D warnings
step "imports (no file of a crate imports one that imports it back)" \
  node scripts/imports.mjs
# One cargo invocation for the native crates: features are unified over the packages a command
# names, so two commands (the core and the worker, then the lesson and the web crate) built
# most dependencies twice with different features (serde, syn and every proc-macro, web-sys,
# the core itself with and without its oracle). The web crate's browser tests and crash.rs
# are wasm32-only, empty here; the worker's unit tests are empty by design.
step "native tests (idem-core, idem-worker's protocol, idem-lesson, idem-web's pure parts, wasm-post)" \
  counted --may-be-empty '^unittests src/lib\.rs \(.*/idem_worker-|^tests/crash\.rs' \
  cargo test -p idem-core -p idem-worker -p idem-lesson -p idem-web -p idem-wasm-post
step "trunk release build (dist/)" \
  trunk build --release --offline
step "first-screen size (gzip -9 of dist/, per language; scripts/size.sh)" \
  bash scripts/size.sh
step "browser tests (idem-web, wasm-bindgen-test in headless Chromium)" \
  counted --may-be-empty '^unittests src/lib\.rs' \
  cargo test -p idem-web --target wasm32-unknown-unknown

# The soak at a size that still catches a leak of ~100 bytes per step (its bound is 2 pages
# of wasm memory after round one); full size: SOAK_STEPS=10000 SOAK_EXPLORER_RUNS=50
# node --test tests/e2e/soak.test.mjs (after a release build).
export SOAK_STEPS="${SOAK_STEPS:-2500}" SOAK_EXPLORER_RUNS="${SOAK_EXPLORER_RUNS:-12}"
step "end-to-end (headless Chromium against dist/)" \
  counted bash scripts/e2e.sh
# ---------------------------------------------------------------------------
step "conformance (the core's SQL and Redis against real PostgreSQL and Redis)" \
  counted bash scripts/conformance.sh
# ---------------------------------------------------------------------------

summary
printf '\nall checks passed in %ds\n' "$((SECONDS - started))"
printf 'steps: %d passed, %d failed\n' "$passed" "$failed"
