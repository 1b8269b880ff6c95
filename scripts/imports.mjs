#!/usr/bin/env node
// Checks that no file of a crate imports one that imports it back (a file can then be read, tested and moved on its own): within each
// crate, the files form a graph by the paths their code names (`use crate::a::b::Item;`,
// `super::Item`, `crate::a::Item` written inline), and that graph must have no cycle. Test
// modules (`#[cfg(test)]` to the end of a file) are left out: a test may reach anything.
// In the web crate the layers go one way too: `platform/` imports nothing of `view/`. (Between
// crates Cargo sees to it: view -> platform -> idem-lesson -> idem-core.)
//
// A path names the deepest module file it reaches; a name a module re-exports (`pub use`) is
// followed to where it is defined, so a facade (lib.rs's `pub use`) is not an edge of its own.
//
//   node scripts/imports.mjs            # prints each crate's files and edges, fails on a cycle
//   node scripts/imports.mjs --verbose  # also lists every edge
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join, relative, dirname, basename } from "node:path";
import { fileURLToPath } from "node:url";

// --root DIR checks another checkout (e.g. an older commit, exported).
const rootAt = process.argv.indexOf("--root");
const root =
  rootAt > 0 ? process.argv[rootAt + 1] : join(dirname(fileURLToPath(import.meta.url)), "..");
const verbose = process.argv.includes("--verbose");
const crates = ["core", "lesson", "web", "worker"];

/** Every .rs file under `dir`. */
function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith(".rs") ? [path] : [];
  });
}

/** The code of a file without its test module and comments. */
function code(path) {
  const text = readFileSync(path, "utf8");
  const at = text.search(/^#\[cfg\(test\)\]/m);
  return (at < 0 ? text : text.slice(0, at))
    .split("\n")
    .map((line) => line.replace(/\/\/.*$/, ""))
    .join("\n");
}

/** `use a::{b::{c, d}, e as f};` → ["a::b::c", "a::b::d", "a::e"]. */
function expand(tree) {
  tree = tree.replace(/\s+/g, "");
  const open = tree.indexOf("{");
  if (open < 0) return [tree.replace(/as\w+$/, "").replace(/::self$/, "")];
  const prefix = tree.slice(0, open);
  const inner = tree.slice(open + 1, tree.lastIndexOf("}"));
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === "{") depth++;
    if (inner[i] === "}") depth--;
    if (inner[i] === "," && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts
    .filter((p) => p.length > 0)
    .flatMap((p) => expand(p === "self" ? prefix.replace(/::$/, "") : prefix + p));
}

function check(crate) {
  const src = join(root, "crates", crate, "src");
  const all = files(src);
  const rootFile = existsSync(join(src, "lib.rs")) ? join(src, "lib.rs") : join(src, "main.rs");
  // The module path of each file: src/a/b.rs → ["a", "b"]; lib.rs → [].
  const modPath = new Map();
  const byPath = new Map();
  for (const f of all) {
    const rel = relative(src, f).replace(/\.rs$/, "").split("/");
    if (rel[rel.length - 1] === "mod") rel.pop();
    const path = f === rootFile || relative(src, f) === "main.rs" ? [] : rel;
    if (relative(src, f) === "main.rs" && f !== rootFile) continue; // the binary: its own crate
    modPath.set(f, path);
    byPath.set(path.join("::"), f);
  }
  const texts = new Map([...modPath.keys()].map((f) => [f, code(f)]));
  // Each file's re-exports: name → absolute path (as a list of segments).
  const reexports = new Map();
  for (const [f, text] of texts) {
    const map = new Map();
    for (const m of text.matchAll(/^\s*pub(?:\([a-z]+\))? use ([^;]+);/gm)) {
      for (const p of expand(m[1])) {
        const abs = absolute(p.split("::"), modPath.get(f));
        if (abs) map.set(abs[abs.length - 1], abs);
      }
    }
    reexports.set(f, map);
  }

  /** A path written in the file at `here` as absolute segments inside this crate, or null. */
  function absolute(segs, here) {
    if (segs[0] === "crate") return segs.slice(1);
    if (segs[0] === "super") {
      let base = here.slice();
      while (segs[0] === "super") {
        base = base.slice(0, -1);
        segs = segs.slice(1);
      }
      return base.concat(segs);
    }
    if (segs[0] === "self") return here.concat(segs.slice(1));
    return null; // another crate, std, or a local name
  }

  /** The file a path's item is defined in: the deepest module it names, through re-exports. */
  function target(abs, seen = 0) {
    let best = [];
    for (let i = abs.length; i >= 0; i--) {
      if (byPath.has(abs.slice(0, i).join("::"))) {
        best = abs.slice(0, i);
        break;
      }
    }
    const file = byPath.get(best.join("::"));
    const item = abs[best.length];
    const re = item !== undefined ? reexports.get(file).get(item) : undefined;
    if (re && seen < 8 && re.join("::") !== abs.join("::")) return target(re, seen + 1);
    return file;
  }

  const edges = new Map([...modPath.keys()].map((f) => [f, new Set()]));
  for (const [f, text] of texts) {
    const here = modPath.get(f);
    const paths = [];
    for (const m of text.matchAll(/^\s*(?:pub(?:\([a-z]+\))? )?use ([^;]+);/gm)) {
      paths.push(...expand(m[1]));
    }
    // Inline paths: crate::a::b, super::x (not inside a use, already taken).
    const inline = text.replace(/^\s*(?:pub(?:\([a-z]+\))? )?use [^;]+;/gm, "");
    for (const m of inline.matchAll(/\b((?:crate|super)(?:::(?:super|\w+))+)/g)) {
      paths.push(m[1]);
    }
    for (const p of paths) {
      const abs = absolute(p.split("::"), here);
      if (!abs) continue;
      const t = target(abs);
      // A facade's `pub use` of what it declares is how it publishes it, not a dependency.
      if (t && t !== f && f !== rootFile) edges.get(f).add(t);
    }
  }

  // Cycles: Tarjan's strongly connected components.
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const sccs = [];
  function strong(v) {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v)) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) {
        low.set(v, Math.min(low.get(v), idx.get(w)));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) sccs.push(scc);
    }
  }
  for (const v of edges.keys()) if (!idx.has(v)) strong(v);

  const name = (f) => relative(join(root, "crates"), f);
  const count = [...edges.values()].reduce((n, s) => n + s.size, 0);
  console.log(`${crate}: ${edges.size} files, ${count} edges, ${sccs.length} cycles`);
  if (verbose) {
    for (const [f, to] of edges) {
      for (const t of to) console.log(`  ${name(f)} -> ${name(t)}`);
    }
  }
  for (const scc of sccs) {
    const inScc = new Set(scc);
    console.log(`  cycle among ${scc.length} files:`);
    for (const f of scc) {
      const back = [...edges.get(f)].filter((t) => inScc.has(t)).map(name);
      console.log(`    ${name(f)} -> ${back.join(", ")}`);
    }
  }
  // Layers: in the web crate, `view/` (components) may import `platform/` (the browser and
  // the shared state), never the reverse.
  let upward = 0;
  if (crate === "web") {
    const layer = (f) => relative(join(root, "crates", "web", "src"), f).split("/")[0].replace(/\.rs$/, "");
    for (const [f, to] of edges) {
      if (layer(f) !== "platform") continue;
      for (const t of to) {
        if (layer(t) === "view") {
          console.log(`  layer: ${name(f)} (platform) imports ${name(t)} (view)`);
          upward++;
        }
      }
    }
  }
  return sccs.length + upward;
}

let problems = 0;
for (const crate of crates) problems += check(crate);
if (problems > 0) {
  console.log(`imports: ${problems} problem(s): a cycle (a file imports one that imports it back) or platform/ importing view/`);
  process.exit(1);
}
console.log("imports: no file imports one that imports it back; platform/ imports nothing of view/");
