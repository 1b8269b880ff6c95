#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml), in order: cut the wasm into the first screen and the
# later parts (split.sh), drop the comment lines of the catalogs (notes for translators: the
# page's parser skips them, so the student need not download them) and of the first screen's
# two scripts, merge the three stylesheets into style.css, then list every staged file for the
# service worker (sw-manifest.sh).
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
# One stylesheet: path.css and compare.css are appended to style.css (in the order index.html
# links them, so the cascade is the same) and their links go. One request instead of three
# before Play, 1.1 KB gzip less (three files compress worse apart), and a course page that
# loads style.css for its widgets gets every rule they use. style.css's integrity follows.
node --input-type=module - "$TRUNK_STAGING_DIR" <<'JS'
import { readFileSync, writeFileSync, appendFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
const dir = process.argv[2];
for (const part of ['path.css', 'compare.css']) {
  appendFileSync(`${dir}/style.css`, '\n' + readFileSync(`${dir}/${part}`, 'utf8'));
  rmSync(`${dir}/${part}`);
}
const sri = 'sha384-' + createHash('sha384').update(readFileSync(`${dir}/style.css`)).digest('base64');
let html = readFileSync(`${dir}/index.html`, 'utf8');
const before = html;
html = html.replace(/<link\b[^>]*\bhref=["']?[^"' >]*\/(?:path|compare)\.css["']?[^>]*>\s*/g, '');
let found = 0;
html = html.replace(/<link\b[^>]*\bhref=["']?[^"' >]*\/style\.css["']?[^>]*>/g, (tag) => {
  found++;
  return tag.replace(/sha384-[A-Za-z0-9+\/=]+/, sri);
});
if (found !== 1 || (before.match(/(path|compare)\.css/g) ?? []).length !== 2 || /(path|compare)\.css/.test(html)) {
  console.error('post-build: index.html does not link style.css, path.css and compare.css once each');
  process.exit(1);
}
writeFileSync(`${dir}/index.html`, html);
JS
bash "$here/sw-manifest.sh"
