#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml), in order: cut the wasm into the first screen and the
# later parts (split.sh), drop the comment lines of the catalogs (notes for translators: the
# page's parser skips them, so the student need not download them), minify the first screen's
# four scripts, merge the first screen's stylesheets into style.css, then list every staged file for the
# service worker (sw-manifest.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# IDEM_BUILD_SKIP names steps to leave out, only to measure what each saves
# (scripts/measure-build.sh); a build for the page never sets it.
skip() { [[ " ${IDEM_BUILD_SKIP:-} " == *" $1 "* ]]; }
bash "$here/split.sh"
skip catalogs ||
  for catalog in "${TRUNK_STAGING_DIR:?}"/i18n/*.txt; do
    sed -i -e '/^#/d' -e '/^$/d' "$catalog"
  done
# The first screen's four scripts in a release build: minified by terser (scripts/setup.sh
# installs it), whose output the browser runs as it would the source. idem-web.js is
# wasm-bindgen's glue, with its doc comments and long local names; boot.js and lang.js are
# copied as written; __wasm_split.js is wasm-split-cli's loader. Fewer bytes before Play
# (docs/build.md has how many).
if [[ "${TRUNK_PROFILE:-release}" == release ]] && ! skip terser; then
  command -v terser >/dev/null || { echo "post-build: terser is missing; run scripts/setup.sh and . scripts/env.sh" >&2; exit 1; }
  for script in idem-web.js:--module __wasm_split.js:--module boot.js:--module lang.js:; do
    file="$TRUNK_STAGING_DIR/${script%%:*}"
    skip split && [[ "$script" == __wasm_split.js:* ]] && continue
    # shellcheck disable=SC2086 # the flag is empty for the classic script
    terser "$file" ${script#*:} --compress --mangle --output "$file.min"
    mv "$file.min" "$file"
  done
fi
# Two stylesheets. style.css holds only the rules the first screen and Play use (measured by
# tests/e2e/measure-css.mjs): path.css is appended to it (in the order index.html links them,
# so the cascade is the same) and its link goes; one request before Play, and fewer bytes (two
# files compress worse apart). later.css, the rules of the parts drawn after the first screen,
# is built as a stylesheet (minified) but its link goes too: the page adds it when it asks for
# the panels' code, a mounted widget at once (platform/browser.rs, add_later_sheet), after
# style.css, so its rules come last as they would in one file. style.css's integrity follows.
skip stylesheets ||
  node --input-type=module - "$TRUNK_STAGING_DIR" <<'JS'
import { readFileSync, writeFileSync, appendFileSync, rmSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
const dir = process.argv[2];
for (const part of ['path.css']) {
  appendFileSync(`${dir}/style.css`, '\n' + readFileSync(`${dir}/${part}`, 'utf8'));
  rmSync(`${dir}/${part}`);
}
const sri = 'sha384-' + createHash('sha384').update(readFileSync(`${dir}/style.css`)).digest('base64');
let html = readFileSync(`${dir}/index.html`, 'utf8');
const before = html;
html = html.replace(/<link\b[^>]*\bhref=["']?[^"' >]*\/(?:path|later)\.css["']?[^>]*>\s*/g, '');
let found = 0;
html = html.replace(/<link\b[^>]*\bhref=["']?[^"' >]*\/style\.css["']?[^>]*>/g, (tag) => {
  found++;
  return tag.replace(/sha384-[A-Za-z0-9+\/=]+/, sri);
});
if (found !== 1 || (before.match(/(path|later)\.css/g) ?? []).length !== 2 || /(path|later)\.css/.test(html) || !existsSync(`${dir}/later.css`)) {
  console.error('post-build: index.html does not link style.css, path.css and later.css once each');
  process.exit(1);
}
writeFileSync(`${dir}/index.html`, html);
JS
bash "$here/sw-manifest.sh"
