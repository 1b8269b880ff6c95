#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml), in order: cut the wasm into the first screen and the
# later parts (split.sh), then list every staged file for the service worker (sw-manifest.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/split.sh"
bash "$here/sw-manifest.sh"
