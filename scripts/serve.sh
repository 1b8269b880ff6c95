#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh), then serves the lesson with Trunk at
# http://127.0.0.1:8080 (address and port are set in Trunk.toml) and rebuilds
# on change. Extra arguments go to `trunk serve`, e.g. `--release`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/setup.sh
# shellcheck source=scripts/env.sh
. scripts/env.sh

echo
echo "Serving Idempotency Lab at http://127.0.0.1:8080  (Ctrl-C to stop)"
echo
exec trunk serve --offline "$@"
