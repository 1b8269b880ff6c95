//! Message catalogs: every sentence the page shows lives here, keyed by a stable name.
//!
//! A catalog is a sorted table of `key → template`; templates hold `{name}` placeholders that
//! [`Catalog::fill`] replaces. Adding a language is one more file beside `en.rs` (same keys,
//! checked by the completeness test) and one more [`Lang`] variant.

mod en;

/// A language the page can speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// English.
    #[default]
    En,
}

impl Lang {
    /// The catalog of this language.
    pub fn catalog(self) -> &'static Catalog {
        match self {
            Lang::En => &en::EN,
        }
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
    use super::*;
    use idem_core::scenario::IDS;
    use idem_core::verdict::Invariant;
    use idem_core::{Note, Phase, Protections};

    /// Every source file of the crate, to find the keys the UI uses.
    const SOURCES: [(&str, &str); 18] = [
        ("app.rs", include_str!("app.rs")),
        ("browser.rs", include_str!("browser.rs")),
        ("controls.rs", include_str!("controls.rs")),
        ("faults.rs", include_str!("faults.rs")),
        ("geometry.rs", include_str!("geometry.rs")),
        ("hooks.rs", include_str!("hooks.rs")),
        ("lab.rs", include_str!("lab.rs")),
        ("labels.rs", include_str!("labels.rs")),
        ("lib.rs", include_str!("lib.rs")),
        ("panels.rs", include_str!("panels.rs")),
        ("markup.rs", include_str!("markup.rs")),
        ("ledger_panel.rs", include_str!("ledger_panel.rs")),
        ("playback.rs", include_str!("playback.rs")),
        ("sequence.rs", include_str!("sequence.rs")),
        ("summary.rs", include_str!("summary.rs")),
        ("text.rs", include_str!("text.rs")),
        ("topology.rs", include_str!("topology.rs")),
        ("i18n.rs", include_str!("i18n.rs")),
    ];

    /// Prefixes of the keys written literally in the UI's source.
    const PREFIXES: [&str; 12] = [
        "ui.", "verdict.", "error.", "link.", "panel.", "narr.", "money.", "fault.", "node.",
        "view.", "group.", "protect.",
    ];

    fn literal_keys() -> Vec<(&'static str, String)> {
        let mut keys = Vec::new();
        for (file, source) in SOURCES {
            for (i, piece) in source.split('"').enumerate() {
                let is_key = i % 2 == 1
                    && PREFIXES.iter().any(|p| piece.starts_with(p))
                    && piece.len() > 4
                    && piece
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
                    && !piece.ends_with('.');
                if is_key {
                    keys.push((file, piece.to_owned()));
                }
            }
        }
        keys
    }

    fn all_catalogs() -> Vec<&'static Catalog> {
        vec![Lang::En.catalog()]
    }

    #[test]
    fn every_note_key_has_a_sentence() {
        for catalog in all_catalogs() {
            for key in Note::KEYS {
                assert!(
                    catalog.get(key).is_some(),
                    "{}: missing note {key}",
                    catalog.tag
                );
            }
        }
    }

    #[test]
    fn every_key_written_in_the_ui_exists() {
        let keys = literal_keys();
        assert!(keys.len() > 40, "the scan found too few keys: {keys:?}");
        for catalog in all_catalogs() {
            for (file, key) in &keys {
                assert!(
                    catalog.get(key).is_some(),
                    "{}: {file} uses missing {key}",
                    catalog.tag
                );
            }
        }
    }

    #[test]
    fn every_generated_key_exists() {
        let mut keys: Vec<String> = Vec::new();
        for id in IDS {
            keys.push(format!("scenario.{id}.title"));
            keys.push(format!("scenario.{id}.intro"));
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
        for catalog in all_catalogs() {
            for key in &keys {
                assert!(catalog.get(key).is_some(), "{}: missing {key}", catalog.tag);
            }
        }
    }

    #[test]
    fn keys_are_unique_and_placeholders_close() {
        for catalog in all_catalogs() {
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
            }
        }
    }

    #[test]
    fn fill_replaces_named_placeholders() {
        let args = [("n", "2".to_owned()), ("who", "Alice".to_owned())];
        assert_eq!(fill_template("{who} paid {n}×", &args), "Alice paid 2×");
        assert_eq!(fill_template("{x} stays", &args), "{x} stays");
        assert_eq!(fill_template("open { brace", &args), "open { brace");
    }

    #[test]
    #[should_panic(expected = "no key")]
    fn a_missing_key_is_loud_in_tests() {
        let _ = Lang::En
            .catalog()
            .text(concat!("ui", ".this-key-does-not-exist"));
    }
}
