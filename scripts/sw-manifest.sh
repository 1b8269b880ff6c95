#!/usr/bin/env bash
# Trunk post_build hook (Trunk.toml): writes into the staged sw.js the list of files to cache
# (every file of the build but sw.js itself, paths relative to sw.js, so new files such as
# i18n/* are included without a list to maintain) and a version that is a hash of their
# contents, so each different build is a new service worker (web/sw.js explains the rest).
set -euo pipefail
dir="${TRUNK_STAGING_DIR:?run by trunk as a post_build hook (TRUNK_STAGING_DIR is not set)}"
sw="$dir/sw.js"
[[ -f "$sw" ]] || { echo "sw-manifest: $sw is missing (copy-file web/sw.js in index.html)" >&2; exit 1; }

mapfile -t files < <(cd "$dir" && find . -type f ! -name sw.js | sed 's|^\./||' | LC_ALL=C sort)
version="$(cd "$dir" && sha256sum -- "${files[@]}" | sha256sum | cut -c1-16)"
list="$(printf "'./%s', " "${files[@]}")"
list="[${list%, }]"
# A debug build (`trunk serve` while developing) caches nothing: the worker then passes every
# request to the network, so a rebuild is never hidden behind an older cached one.
if [[ "${TRUNK_PROFILE:-release}" != "release" ]]; then
  version="debug-$version"
  list="[]"
  files=()
fi
tmp="$sw.tmp"
sed -e "s|^const VERSION = 'dev';\$|const VERSION = '$version';|" \
  -e "s|^const FILES = \[\];\$|const FILES = $list;|" "$sw" >"$tmp"
grep -q "^const VERSION = '$version';" "$tmp" || { echo "sw-manifest: no VERSION line in sw.js" >&2; exit 1; }
mv "$tmp" "$sw"
echo "sw-manifest: sw.js version $version, ${#files[@]} files to cache"
