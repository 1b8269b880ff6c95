//! Checks of the page's sources (native only: they read the files of this crate and
//! `idem-lesson`). HTML reaches the DOM only as escaped `SafeHtml`. The catalogs and the code
//! agree: every key the UI can ask for exists in every language, every key of a catalog is
//! asked for somewhere, and the first screen's part of a catalog holds exactly the keys the
//! first screen asks for.
//! "Asked for" means one of two things:
//! - the key is written literally (as a whole string literal) in a source file of the page
//!   (this crate and `idem-lesson`) outside the catalogs and outside `#[cfg(test)]` code, or
//! - it is one of the keys built with `format!` from the core's names, enumerated by
//!   `idem_lesson::i18n::check::generated_keys`: `scenario.{id}.{title,intro,summary}` for
//!   every scenario id, `protect.{name}` and `protect.{name}.hint`, `gloss.{term}.{term,def,match}`
//!   for the glossary's terms, `phase.{name}`, `invariant.{name}`,
//!   `node.{name}.{name,short,tech}` (and `node.{api,ledger}.{…}.{likes,accounts}`, the stories'
//!   own names) and the narration keys `Note::KEYS`.
//!
//! A new `format!`-built key family must be added to `generated_keys`, or the tests fail.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::Path;

use idem_core::Note;
use idem_lesson::i18n::check::{
    all_entries, generated_keys, get_any, has_prefix_of_catalog, looks_like_key,
};
use idem_lesson::i18n::{fill_template, loaded, Lang, Part};

/// Every `.rs` file under `src/` except the catalogs, with its test code cut off, and
/// index.html.
fn ui_sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("read src")
            .map(|e| e.expect("dir entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "i18n") {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("read source");
                let code = text.split("#[cfg(test)]").next().unwrap_or("").to_owned();
                out.push((path.display().to_string(), code));
            }
        }
    }
    // The page's code: the components (idem-web) and what they compute (this crate).
    let mut out = Vec::new();
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    walk(&crates.join("web/src"), &mut out);
    walk(&crates.join("lesson/src"), &mut out);
    assert!(out.len() > 15, "found too few sources: {}", out.len());
    // index.html's first screen shows entries by `data-key="…"` (the e2e shell test checks
    // that its texts equal them).
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../index.html");
    let html = std::fs::read_to_string(&page).expect("read index.html");
    assert!(
        html.contains("data-key=\"shell.loading\""),
        "no first screen in index.html"
    );
    out.push((page.display().to_string(), html));
    out
}

/// Whole string literals in the UI's code that are keys of the English catalog, and the
/// file each was found in.
fn literal_keys() -> Vec<(String, String)> {
    let mut keys = Vec::new();
    for (file, source) in ui_sources() {
        for (i, piece) in source.split('"').enumerate() {
            if i % 2 == 1 && looks_like_key(piece) && has_prefix_of_catalog(piece) {
                keys.push((file.clone(), piece.to_owned()));
            }
        }
    }
    keys
}

fn used_keys() -> BTreeSet<String> {
    let mut used: BTreeSet<String> = generated_keys().into_iter().collect();
    used.extend(literal_keys().into_iter().map(|(_, k)| k));
    used
}

/// A top-level item of the UI's code (a `fn`, `const`, `static`, type, or a method of an
/// `impl` block) and its text (rustfmt's layout: items start at column 0, methods at 4).
struct Item {
    name: String,
    body: String,
    /// The file it is in.
    file: String,
    /// For a method, the type of its `impl` block (`Code` for `impl Default for Code`).
    owner: Option<String>,
}

fn items() -> Vec<Item> {
    let mut items = Vec::new();
    for (file, code) in ui_sources() {
        if !file.ends_with(".rs") {
            continue;
        }
        let mut in_impl = false;
        let mut impl_type: Option<String> = None;
        let mut current = Item {
            name: String::new(),
            body: String::new(),
            file: file.to_string(),
            owner: None,
        };
        for line in code.lines() {
            // bundles.rs's two bundles of later parts are two items: the player's, which the
            // first screen draws, and the lesson's, which it does not.
            let bundle = match line.trim_end() {
                "split_bundles! {" => Some("player_bundle"),
                "    lesson [" if current.name == "player_bundle" => Some("lesson_bundle"),
                _ => None,
            };
            if let Some(name) = bundle {
                items.push(std::mem::replace(
                    &mut current,
                    Item {
                        name: name.to_owned(),
                        body: String::new(),
                        file: file.to_string(),
                        owner: None,
                    },
                ));
            }
            let indent = line.len() - line.trim_start().len();
            let mut head = line.trim_start();
            for modifier in ["pub(crate) ", "pub(super) ", "pub ", "async ", "unsafe "] {
                head = head.strip_prefix(modifier).unwrap_or(head);
            }
            let keyword = [
                "fn ", "const ", "static ", "struct ", "enum ", "type ", "impl",
            ]
            .into_iter()
            .find(|k| head.starts_with(k));
            let starts = keyword.is_some() && (indent == 0 || (in_impl && indent == 4));
            if starts {
                let rest = head[keyword.unwrap_or("").len()..].trim_start();
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                items.push(std::mem::replace(
                    &mut current,
                    Item {
                        name,
                        body: String::new(),
                        file: file.to_string(),
                        owner: if indent == 0 { None } else { impl_type.clone() },
                    },
                ));
                if indent == 0 {
                    in_impl = keyword == Some("impl") && line.trim_end().ends_with('{');
                    // `impl<T> Trait<T> for Type<T> {` → `Type`.
                    impl_type = in_impl.then(|| {
                        let head = line.trim_end().trim_end_matches('{');
                        let ty = head.rsplit(" for ").next().unwrap_or(head);
                        let ty = ty.trim_start_matches("impl").trim_start();
                        let ty = if ty.starts_with('<') {
                            ty.split_once("> ").map_or(ty, |(_, t)| t)
                        } else {
                            ty
                        };
                        ty.chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                            .collect()
                    });
                }
            } else if indent == 0 && line == "}" {
                in_impl = false;
            }
            // Comments name other items without using them.
            if !line.trim_start().starts_with("//") {
                current.body.push_str(line);
                current.body.push('\n');
            }
        }
        items.push(current);
    }
    items
}

/// What the page draws after its first screen, once the panels part is loaded (the page's
/// later slices and the compare mode): the first screen never reaches into them.
const LATER_PARTS: [&str; 23] = [
    "Faults",
    "CheckedClaim",
    "EmbedButton",
    "ChallengeGoal",
    "TermPopover",
    "AfterRunPanel",
    "ProtectionBar",
    "CompareWith",
    "Challenges",
    "TryEveryFailure",
    "StatePanels",
    "Sequence",
    "Transcript",
    "Calculator",
    "Reference",
    "Glossary",
    "CompareStage",
    "HostFit",
    "Stream",
    "NowLine",
    "PacketRings",
    "RingLegend",
    "LostPackets",
];

/// The keys of `Part::Main`, decided from the code: every key that an item reachable from
/// the first screen asks for. The first screen is the page (`App`, and the player's bundle
/// of bundles.rs) without the parts it draws later ([`LATER_PARTS`] named in app.rs and
/// slices.rs, and bundles.rs's lesson bundle, with the footer `ui.keys`; a first-screen part that draws
/// one of them pulls its keys in); "reachable" follows names: an item reaches a type or
/// component whose name it writes, a free function it calls or names by path, and a method
/// whose name and type it writes (or one of its own file). That over-reaches, which only
/// adds keys; a function passed by bare name alone would be missed, and the end-to-end
/// test that holds the panels' file back (catalogs.test.mjs) plays stories without it to
/// catch that. The crash notice (`crash::install`) and
/// the trait methods the compiler calls (`fmt`, `from`, …) count as reached. Keys built with `format!` come
/// with the item that builds them (its literal `"family.{`), the narration's `Note::KEYS`
/// with the item that reads `note.key()`; index.html's first screen shows its `data-key`s.
fn first_screen_keys() -> BTreeSet<String> {
    let items = items();
    let mut reached: BTreeSet<usize> = BTreeSet::new();
    let mut todo: Vec<usize> = items
        .iter()
        .enumerate()
        .filter(|(_, i)| {
            [
                "App",
                "player_bundle",
                "install",
                "fmt",
                "from",
                "drop",
                "default",
                "deref",
            ]
            .contains(&i.name.as_str())
        })
        .map(|(n, _)| n)
        .collect();
    while let Some(n) = todo.pop() {
        if !reached.insert(n) {
            continue;
        }
        let body = &items[n].body;
        // The page's own items (app.rs: App; slices.rs: its slices) and the lists of parts
        // (later.rs, bundles.rs)
        // name the later parts it draws once the panels are here.
        let app = ["app.rs", "later.rs", "slices.rs", "bundles.rs"]
            .iter()
            .any(|f| items[n].file.ends_with(f));
        // `main` (the entry point, which mounts the page or the widget) is called by no
        // one: its name in the code is the `<main>` element.
        // `LaterPart::Faults` names a part whose code comes in a bundle (bundles.rs), not
        // the component: the bundle's own item reaches it when the first screen draws it.
        let unbundled = body.replace("LaterPart::", "LaterPart::_");
        let names: BTreeSet<&str> = unbundled
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|t| !t.is_empty() && *t != "main" && !(app && LATER_PARTS.contains(t)))
            .collect();
        // A method is reached from an item that writes its name and its type's (or from
        // its own file): a `.get(` alone does not reach every `get` of the UI.
        // A lower-case free function or constant is reached where it is called or named by
        // path (`part(`, `::part`, not `.part(`): a local `part` does not reach it.
        let reaches = |i: &Item| {
            let name = i.name.as_str();
            let used = names.contains(name)
                && (i.owner.is_some()
                    || !name.starts_with(|c: char| c.is_ascii_lowercase())
                    || body.match_indices(&format!("{name}(")).any(|(at, _)| {
                        !body[..at]
                            .ends_with(|c: char| c == '.' || c == '_' || c.is_ascii_alphanumeric())
                    })
                    || [format!("::{name}"), format!("= {name};")]
                        .iter()
                        .any(|u| body.contains(u.as_str())));
            used && i
                .owner
                .as_ref()
                .is_none_or(|owner| names.contains(owner.as_str()) || i.file == items[n].file)
        };
        for (m, _) in items
            .iter()
            .enumerate()
            .filter(|(m, i)| !reached.contains(m) && reaches(i))
        {
            todo.push(m);
        }
    }
    let catalog: BTreeSet<&str> = all_entries(Lang::En).iter().map(|(k, _)| *k).collect();
    let mut keys = BTreeSet::new();
    for n in reached {
        // A key asked with `panel_text(` is the panels' (the first screen does without it).
        let body = &without_panel_texts(&items[n].body);
        for (i, piece) in body.split('"').enumerate() {
            if i % 2 == 1
                && catalog.contains(piece)
                && !(items[n].name == "App" && piece == "ui.keys")
            {
                keys.insert(piece.to_owned());
            }
        }
        // The `format!` templates of keys in this item, as (text before the first
        // placeholder, text after the last, dots in the key): `"gloss.{id}.match"` builds
        // `gloss.*.match`, and a placeholder fills one segment of a key (an id, a name),
        // so `"protect.{name}"` builds `protect.key`, not `protect.key.hint`.
        let templates: Vec<(&str, &str, usize)> = body
            .split('"')
            .skip(1)
            .step_by(2)
            .filter(|t| {
                t.contains('{') && looks_like_key(&fill_template(t, &[]).replace(['{', '}'], "x"))
            })
            .filter_map(|t| {
                let dots = fill_template(t, &[]).matches('.').count();
                Some((t.split('{').next()?, t.rsplit('}').next()?, dots))
            })
            .collect();
        for key in generated_keys() {
            let built = if Note::KEYS.contains(&key.as_str()) {
                body.contains("note.key()")
            } else {
                templates.iter().any(|(head, tail, dots)| {
                    head.contains('.')
                        && key.matches('.').count() == *dots
                        && key.len() > head.len() + tail.len()
                        && key.starts_with(head)
                        && key.ends_with(tail)
                })
            };
            if built {
                keys.insert(key);
            }
        }
    }
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../index.html"))
            .expect("read index.html");
    for piece in page.split("data-key=\"").skip(1) {
        keys.insert(piece.split('"').next().unwrap_or("").to_owned());
    }
    keys
}

/// `body` without the key (a literal or a `format!` template) of each `panel_text(` call.
fn without_panel_texts(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    // `panel_text("…")` and `panel_fill("…", …)` alike.
    while let Some(at) = ["panel_text(", "panel_fill("]
        .iter()
        .filter_map(|call| rest.find(call))
        .min()
    {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        // Skip to the end of the call's first string literal.
        let Some(open) = rest.find('"') else { break };
        let Some(close) = rest[open + 1..].find('"') else {
            break;
        };
        rest = &rest[open + 1 + close + 1..];
    }
    out.push_str(rest);
    out
}

/// `Part::Main` holds exactly the first screen's keys, `Part::Panels` the rest of what the
/// page asks for before a reading section is opened.
#[test]
fn the_first_screen_part_holds_exactly_the_first_screen_s_keys() {
    let first = first_screen_keys();
    for lang in Lang::ALL {
        let main: BTreeSet<&str> = loaded(lang, Part::Main)
            .expect("native builds read the files")
            .entries
            .iter()
            .map(|(k, _)| *k)
            .collect();
        let missing: Vec<&String> = first
            .iter()
            .filter(|k| !main.contains(k.as_str()))
            .collect();
        assert!(
            missing.is_empty(),
            "{}: the first screen needs {missing:?} (if App draws a later part under \
             another name, add it to LATER_PARTS)",
            lang.tag()
        );
        let extra: Vec<&&str> = main.iter().filter(|k| !first.contains(**k)).collect();
        assert!(
            extra.is_empty(),
            "{}: only the panels use {extra:?}",
            lang.tag()
        );
    }
}

#[test]
fn every_key_the_ui_asks_for_exists_in_every_language() {
    let literal = literal_keys();
    assert!(literal.len() > 100, "the scan found too few keys");
    for lang in Lang::ALL {
        let tag = lang.tag();
        for key in generated_keys() {
            assert!(lang.catalog().get(&key).is_some(), "{tag}: missing {key}");
        }
        for (file, key) in &literal {
            assert!(
                get_any(lang, key).is_some(),
                "{tag}: {file} uses missing {key}"
            );
        }
    }
}

#[test]
fn every_catalog_key_is_used_by_the_ui() {
    let used = used_keys();
    for lang in Lang::ALL {
        let unused: Vec<&str> = all_entries(lang)
            .iter()
            .map(|(k, _)| *k)
            .filter(|k| !used.contains(*k))
            .collect();
        assert!(unused.is_empty(), "{}: unused keys {unused:?}", lang.tag());
    }
}

/// Issue 9: HTML reaches the DOM only as `SafeHtml` through `inner_html=` in `view!`,
/// and by hand only in idem-web's `embed::api::mount` (the host element); nothing looks elements up by
/// selector.
#[test]
fn html_reaches_the_dom_only_through_safe_html() {
    // The page's code: this crate and what it computes (idem-lesson).
    let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let by_hand = [
        "set_inner",
        "_html(",
        "|query_sel",
        "ector(",
        "|.inner_",
        "html(",
    ]
    .concat();
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&crates.join("lesson/src"), &mut files);
    walk(&crates.join("web/src"), &mut files);
    assert!(files.len() > 20, "the walk found the sources");
    let mut found = Vec::new();
    for path in files {
        // `SafeHtml`'s own file writes no HTML into the DOM.
        if path.ends_with("markup.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let name = path
            .strip_prefix(&crates)
            .expect("inside crates/")
            .to_string_lossy()
            .replace('\\', "/");
        for needle in by_hand.split('|') {
            let n = text.matches(needle).count();
            if n > 0 {
                found.push(format!("{name} {needle} {n}"));
            }
        }
    }
    found.sort();
    assert_eq!(found, ["web/src/view/embed/api.rs set_inner_html( 2"]);
}
