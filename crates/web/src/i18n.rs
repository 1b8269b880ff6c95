//! Message catalogs: every sentence the page shows lives here, keyed by a stable name.
//!
//! A catalog is a sorted table of `key → template`; templates hold `{name}` placeholders that
//! [`Catalog::fill`] replaces. Adding a language is one more file beside `en.rs` (same keys,
//! checked by the completeness test) and one more [`Lang`] variant.

mod en;
mod ru;

/// A language the page can speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Russian.
    Ru,
}

impl Lang {
    /// Every language, in the order of the switch.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ru];

    /// The catalog of this language.
    pub fn catalog(self) -> &'static Catalog {
        match self {
            Lang::En => &en::EN,
            Lang::Ru => &ru::RU,
        }
    }

    /// The BCP 47 tag (`en`, `ru`): the `lang` parameter and attribute.
    pub fn tag(self) -> &'static str {
        self.catalog().tag
    }

    /// The language whose tag is exactly `tag` (`en`, `ru`).
    pub fn from_tag(tag: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.tag() == tag)
    }
}

/// One language's table of templates.
#[derive(Debug)]
pub struct Catalog {
    /// BCP 47 tag, for the `lang` attribute.
    pub tag: &'static str,
    /// `(key, template)` pairs; any order, looked up linearly (a few hundred entries).
    pub entries: &'static [(&'static str, &'static str)],
}

impl Catalog {
    /// The template of `key`, if the catalog has it.
    pub fn get(&self, key: &str) -> Option<&'static str> {
        self.entries
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, template)| *template)
    }

    /// The text of `key`. A missing key is a bug: debug builds (and so every test) panic,
    /// release builds show the key itself rather than nothing.
    pub fn text(&self, key: &str) -> String {
        match self.get(key) {
            Some(template) => template.to_owned(),
            None => missing(key),
        }
    }

    /// The text of `key` with every `{name}` replaced by its value from `args`.
    pub fn fill(&self, key: &str, args: &[(&str, String)]) -> String {
        let Some(template) = self.get(key) else {
            return missing(key);
        };
        fill_template(template, args)
    }
}

fn missing(key: &str) -> String {
    debug_assert!(false, "message catalog has no key {key:?}");
    key.to_owned()
}

/// Replaces `{name}` placeholders; unknown placeholders are left as written.
pub fn fill_template(template: &str, args: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                match args.iter().find(|(n, _)| *n == name) {
                    Some((_, value)) => out.push_str(value),
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    //! The catalogs are exact: every key the UI can ask for exists in every language, and every
    //! key of a catalog is asked for somewhere. "Asked for" means one of two things:
    //! - the key is written literally (as a whole string literal) in a source file of this
    //!   crate outside the catalogs and outside `#[cfg(test)]` code, or
    //! - it is one of the keys built with `format!` from the core's names, enumerated by
    //!   [`generated_keys`]: `scenario.{id}.{title,intro,summary}` for every scenario id,
    //!   `protect.{name}`, `phase.{name}`, `invariant.{name}`, `node.{name}.{name,short,tech}`
    //!   and the narration keys `Note::KEYS`.
    //!
    //! A new `format!`-built key family must be added to [`generated_keys`], or the tests fail.
    use super::*;
    use idem_core::scenario::IDS;
    use idem_core::verdict::Invariant;
    use idem_core::{Note, Phase, Protections};
    use std::collections::BTreeSet;
    use std::path::Path;

    /// Every `.rs` file under `src/` except the catalogs, with its test code cut off.
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
        let mut out = Vec::new();
        walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut out);
        assert!(out.len() > 15, "found too few sources: {}", out.len());
        out
    }

    fn looks_like_key(piece: &str) -> bool {
        piece.len() > 3
            && piece.contains('.')
            && !piece.starts_with('.')
            && !piece.ends_with('.')
            && piece
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
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

    /// Whether `piece` starts with the first segment of some English key (`ui.`, `calc.`, …):
    /// literals such as file names or CSS selectors are not keys.
    fn has_prefix_of_catalog(piece: &str) -> bool {
        let head = piece.split('.').next().unwrap_or("");
        Lang::En
            .catalog()
            .entries
            .iter()
            .any(|(k, _)| k.split('.').next() == Some(head))
    }

    /// The keys the UI builds with `format!`, enumerated from the core's names.
    fn generated_keys() -> Vec<String> {
        let mut keys: Vec<String> = Note::KEYS.iter().map(|k| (*k).to_owned()).collect();
        for id in IDS {
            for part in ["title", "intro", "summary"] {
                keys.push(format!("scenario.{id}.{part}"));
            }
        }
        for name in Protections::NAMES {
            keys.push(format!("protect.{name}"));
        }
        for node in idem_core::Node::ALL {
            for part in ["name", "short", "tech"] {
                keys.push(format!("node.{}.{part}", node.name()));
            }
        }
        for phase in Phase::ALL {
            keys.push(format!("phase.{}", phase.name()));
        }
        for invariant in Invariant::ALL {
            keys.push(format!("invariant.{}", invariant.name()));
        }
        keys
    }

    fn used_keys() -> BTreeSet<String> {
        let mut used: BTreeSet<String> = generated_keys().into_iter().collect();
        used.extend(literal_keys().into_iter().map(|(_, k)| k));
        used
    }

    fn placeholders(template: &str) -> BTreeSet<&str> {
        let mut names = BTreeSet::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else { break };
            names.insert(&after[..close]);
            rest = &after[close + 1..];
        }
        names
    }

    #[test]
    fn every_language_has_a_distinct_tag_that_reads_back() {
        for lang in Lang::ALL {
            assert_eq!(Lang::from_tag(lang.catalog().tag), Some(lang));
        }
        assert_eq!(Lang::from_tag("de"), None);
    }

    #[test]
    fn every_key_the_ui_asks_for_exists_in_every_language() {
        let literal = literal_keys();
        assert!(literal.len() > 100, "the scan found too few keys");
        for lang in Lang::ALL {
            let catalog = lang.catalog();
            for key in generated_keys() {
                assert!(
                    catalog.get(&key).is_some(),
                    "{}: missing {key}",
                    catalog.tag
                );
            }
            for (file, key) in &literal {
                assert!(
                    catalog.get(key).is_some(),
                    "{}: {file} uses missing {key}",
                    catalog.tag
                );
            }
        }
    }

    #[test]
    fn every_catalog_key_is_used_by_the_ui() {
        let used = used_keys();
        for lang in Lang::ALL {
            let catalog = lang.catalog();
            let unused: Vec<&str> = catalog
                .entries
                .iter()
                .map(|(k, _)| *k)
                .filter(|k| !used.contains(*k))
                .collect();
            assert!(unused.is_empty(), "{}: unused keys {unused:?}", catalog.tag);
        }
    }

    #[test]
    fn catalogs_have_the_same_keys_and_placeholders() {
        let en = Lang::En.catalog();
        for lang in Lang::ALL {
            let catalog = lang.catalog();
            assert_eq!(catalog.entries.len(), en.entries.len(), "{}", catalog.tag);
            for (key, template) in en.entries {
                let other = catalog
                    .get(key)
                    .unwrap_or_else(|| panic!("{}: missing {key}", catalog.tag));
                assert_eq!(
                    placeholders(template),
                    placeholders(other),
                    "{}: placeholders of {key}",
                    catalog.tag
                );
            }
        }
    }

    #[test]
    fn keys_are_unique_and_templates_well_formed() {
        for lang in Lang::ALL {
            let catalog = lang.catalog();
            let mut seen: Vec<&str> = catalog.entries.iter().map(|(k, _)| *k).collect();
            seen.sort_unstable();
            let before = seen.len();
            seen.dedup();
            assert_eq!(before, seen.len(), "{}: duplicate keys", catalog.tag);
            for (key, template) in catalog.entries {
                assert_eq!(
                    template.matches('{').count(),
                    template.matches('}').count(),
                    "{key}: unbalanced braces"
                );
                assert!(!template.is_empty(), "{key} is empty");
            }
        }
    }

    #[test]
    fn industry_rows_have_four_cells_everywhere() {
        for lang in Lang::ALL {
            for (key, template) in lang.catalog().entries {
                if key.starts_with("industry.") && !key.contains("col_") && *key != "industry.title"
                {
                    assert_eq!(template.split('|').count(), 4, "{key}");
                }
            }
        }
    }

    #[test]
    fn fill_replaces_named_placeholders() {
        let args = [("n", "2".to_owned()), ("who", "Alice".to_owned())];
        assert_eq!(fill_template("{who} paid {n}×", &args), "Alice paid 2×");
        assert_eq!(fill_template("{x} stays", &args), "{x} stays");
        assert_eq!(fill_template("open { brace", &args), "open { brace");
        assert_eq!(placeholders("{a} and {b}, {a}"), BTreeSet::from(["a", "b"]));
    }

    #[test]
    #[should_panic(expected = "no key")]
    fn a_missing_key_is_loud_in_tests() {
        let _ = Lang::En
            .catalog()
            .text(concat!("ui", ".this-key-does-not-exist"));
    }
}
