#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml), in order: cut the wasm into the first screen and the
# later parts (split.sh), drop the catalogs' comment lines (notes for translators: the page's
# parser skips them, so the student need not download them), then list every staged file for
# the service worker (sw-manifest.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/split.sh"
for catalog in "${TRUNK_STAGING_DIR:?}"/i18n/*.txt; do
  sed -i -e '/^#/d' -e '/^$/d' "$catalog"
done
bash "$here/sw-manifest.sh"
