#!/usr/bin/env bash
# Rewrites the core's golden traces (crates/core/tests/golden/<scenario>.trace) from the
# current engine, then shows what changed. The test command never rewrites them: after a
# deliberate change of behaviour or narration, run this, review the diff, commit it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
. scripts/env.sh

cargo run --quiet -p idem-core --example golden
git --no-pager diff --stat -- crates/core/tests/golden
