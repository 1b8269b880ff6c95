#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml), in order: cut the wasm into the first screen and the
# later parts (split.sh), drop the comment lines of the catalogs (notes for translators: the
# page's parser skips them, so the student need not download them) and of the first screen's
# two scripts, then list every staged file for the service worker (sw-manifest.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/split.sh"
for catalog in "${TRUNK_STAGING_DIR:?}"/i18n/*.txt; do
  sed -i -e '/^#/d' -e '/^$/d' "$catalog"
done
# The same for the two scripts of the first screen, copied as written: their whole-line
# comments go (the code and any comment after code stay; neither file has a template
# string a line could start inside). 1.2 KB gzip less before Play.
for script in boot.js lang.js; do
  sed -i -E '/^[[:space:]]*\/\//d' "$TRUNK_STAGING_DIR/$script"
done
bash "$here/sw-manifest.sh"
