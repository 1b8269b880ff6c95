#!/usr/bin/env bash
# Mutation testing of the core's semantic modules with cargo-mutants: each mutant (a function
# body replaced, an operator swapped…) must make some test of `cargo test -p idem-core` fail.
# Not part of scripts/test.sh: it rebuilds and reruns the core's tests once per mutant.
#
#   bash scripts/mutants.sh                   # every module below
#   bash scripts/mutants.sh store verdict     # some of them
#
# Needs `cargo install cargo-mutants --locked`. Defaults, chosen so a mutant costs ~20 s on the
# shared 2-core machine at a load of 5 (a minute at 15-20) instead of 15-50 s plus an 85-95 s
# suite (docs/notes-mutants.md has the measurements):
# - the `mutants` cargo profile (root Cargo.toml: opt-level 1, incremental, no debug info;
#   MUTANTS_PROFILE picks another): the explorer tests run ~10x faster than in dev, and a
#   mutant rebuilds incrementally (mutants reuse one build directory);
# - `cargo test -p idem-core --tests`: every unit and integration test, not the examples (not
#   tests, but built by a plain `cargo test`) nor the doc-test (it repeats s1_naive_post's
#   first test and costs a rustdoc build per mutant);
# - `nice -n 19` (MUTANTS_NICE) and one mutant at a time (MUTANTS_JOBS, default 1);
# - a test timeout of at least 60 s (MUTANTS_MIN_TIMEOUT): the baseline run's time × 5, but
#   never below that, so load from other builds does not turn slow mutants into timeouts.
# To keep one warm copy between runs (a fresh copy costs a clean build of idem-core, ~3 min):
# MUTANTS_SRC=<a copy of the tree> MUTANTS_ARGS="--in-place --baseline=skip --timeout 45"
# (then no -j is passed: --in-place refuses it).
# MUTANTS_TESTS picks the test targets each mutant builds and runs (default `--tests`, all of
# them), e.g. MUTANTS_TESTS="--lib" for a module the unit tests cover (the integration tests are one
# binary, tests/it): the score is then a lower bound (the tests left out might have caught more).
# MUTANTS_SRC tests another source tree (e.g. an older commit, exported), MUTANTS_OUT says
# where results go (default mutants.out/, gitignored), MUTANTS_TARGET_DIR where mutants build
# (default $CARGO_TARGET_DIR/mutants; the dependencies stay compiled between runs; two runs at
# once need two: sharing one, each builds over the other's mutant). Prints,
# per module, caught / missed / timeouts / unviable and the caught share of the viable
# mutants; the missed ones are listed in $MUTANTS_OUT/mutants.out/missed.txt. MUTANTS_ARGS
# passes more options to cargo-mutants, e.g. `MUTANTS_ARGS=--iterate` after writing tests:
# only the mutants not caught by the previous run in the same $MUTANTS_OUT are tested again,
# and the table counts both runs together (cargo-mutants lists the earlier caught and unviable
# ones together in previously_caught.txt; $MUTANTS_OUT/unviable-all.txt keeps which were
# unviable). With `--re REGEX` only the matching mutants run: the table then counts those only.
# MUTANTS_TABLE_ONLY=1 prints the table of the results already in $MUTANTS_OUT without
# running anything.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
. scripts/env.sh

if ! command -v cargo-mutants >/dev/null; then
  echo "cargo-mutants is not installed: cargo install cargo-mutants --locked" >&2
  exit 1
fi

# MUTANTS_CRATE=lesson measures the lesson crate's modules instead (its text builders by
# default), against `cargo test -p idem-lesson --tests` (no leptos feature: the pure parts).
case "${MUTANTS_CRATE:-core}" in
  core) PACKAGE=idem-core CRATE_SRC=crates/core/src ;;
  lesson) PACKAGE=idem-lesson CRATE_SRC=crates/lesson/src ;;
  *)
    echo "MUTANTS_CRATE is core or lesson, not ${MUTANTS_CRATE}" >&2
    exit 1
    ;;
esac
if (($# > 0)); then
  modules=("$@")
elif [[ $PACKAGE == idem-lesson ]]; then
  modules=(outcome_text text labels)
else
  modules=(processor store ledger api verdict client net world explore parts meaning outcome link
    compare challenge chaos sql cost http scenario protections prevention placed
    record topology action note phase time message fingerprint canonical json rng vecmap)
fi
SRC="${MUTANTS_SRC:-$ROOT}"
OUT="${MUTANTS_OUT:-$ROOT/mutants.out}"
# Mutated copies build in their own target dir (the deps stay compiled between runs).
export CARGO_TARGET_DIR="${MUTANTS_TARGET_DIR:-${CARGO_TARGET_DIR:-$ROOT/target}/mutants}"
export CARGO_TERM_COLOR=never

# A module's files: <src>/<name>.rs, or in a folder of it (nodes/, check/, base/), together
# with the folder of its submodules when it has one (nodes/api/*.rs with nodes/api.rs): a
# module split into files is still measured whole.
path_of() {
  local dir
  for dir in "" nodes/ check/ base/; do
    if [[ -f "$SRC/$CRATE_SRC/$dir$1.rs" ]]; then
      printf '%s/%s%s' "$CRATE_SRC" "$dir" "$1"
      return
    fi
  done
  echo "no $PACKAGE module named $1" >&2
  exit 1
}
# The pattern (grep -E, anchored) of the lines cargo-mutants writes for a module's mutants.
pattern_of() {
  local stem
  stem=$(path_of "$1")
  printf '^%s(\\.rs|/[^:]*\\.rs):' "${stem//./\\.}"
}
files=()
for m in "${modules[@]}"; do
  stem=$(path_of "$m")
  files+=(-f "$stem.rs")
  if [[ -d "$SRC/$stem" ]]; then
    files+=(-f "$stem/**/*.rs")
  fi
done
mkdir -p "$OUT"
set +e
rc=0
if [[ -z ${MUTANTS_TABLE_ONLY:-} ]]; then
  # shellcheck disable=SC2086 # MUTANTS_ARGS is split into options on purpose
  # --in-place (mutating $SRC itself, one mutant at a time) takes no --jobs.
  jobs=(-j "${MUTANTS_JOBS:-1}")
  [[ " ${MUTANTS_ARGS:-} " == *" --in-place "* ]] && jobs=()
  # Which test targets build and run for each mutant (cargo test's target options).
  tests=()
  for t in ${MUTANTS_TESTS:---tests}; do
    tests+=("--cargo-arg=$t")
  done
  nice -n "${MUTANTS_NICE:-19}" cargo mutants --dir "$SRC" -p "$PACKAGE" "${files[@]}" \
    "${jobs[@]}" --profile "${MUTANTS_PROFILE:-mutants}" "${tests[@]}" \
    --minimum-test-timeout "${MUTANTS_MIN_TIMEOUT:-60}" --no-shuffle --output "$OUT" \
    ${MUTANTS_ARGS:-}
  rc=$?
fi
set -e
# cargo-mutants exits 2 when some mutants were missed, 3 on timeouts: the table says which.

# Unviable mutants of every run into this $OUT, kept apart from the caught ones.
touch "$OUT/unviable-all.txt"
sort -u "$OUT/unviable-all.txt" "$OUT/mutants.out/unviable.txt" -o "$OUT/unviable-all.txt" 2>/dev/null || true

# lines MODULE LIST…: the distinct mutants of MODULE the outcome lists name.
lines() {
  local module=$1 file
  shift
  for file in "$@"; do
    cat "$OUT/mutants.out/$file.txt" 2>/dev/null || true
  done | grep -E "$(pattern_of "$module")" | sort -u || true
}
count() { lines "$@" | grep -c . || true; }
printf '\n%-10s %7s %7s %9s %9s %8s\n' module caught missed timeouts unviable caught%
for m in "${modules[@]}"; do
  caught=$(lines "$m" caught previously_caught | grep -cvxFf "$OUT/unviable-all.txt" || true)
  missed=$(count "$m" missed)
  timeouts=$(count "$m" timeout)
  unviable=$(grep -cE "$(pattern_of "$m")" "$OUT/unviable-all.txt" || true)
  viable=$((caught + missed + timeouts))
  share=$((viable > 0 ? 100 * caught / viable : 0))
  printf '%-10s %7d %7d %9d %9d %7d%%\n' "$m" "$caught" "$missed" "$timeouts" "$unviable" "$share"
done
exit $((rc == 1 || rc > 3 ? rc : 0))
