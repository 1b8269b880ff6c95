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

    /// The text of `key` with every `{name}` replaced by its value from `args`, and every
    /// `{name:form|form|…}` by the plural form this language's rule picks for that number.
    pub fn fill(&self, key: &str, args: &[(&str, String)]) -> String {
        let Some(template) = self.get(key) else {
            return missing(key);
        };
        fill_plural(template, args, self.plural_rule())
    }

    /// This language's plural rule: the index of the form for a count (see [`plural_en`],
    /// [`plural_ru`]).
    pub fn plural_rule(&self) -> fn(u64) -> usize {
        match self.tag {
            "ru" => plural_ru,
            _ => plural_en,
        }
    }

    /// How many plural forms a `{n:…}` placeholder has in this language.
    pub fn plural_forms(&self) -> usize {
        match self.tag {
            "ru" => 3,
            _ => 2,
        }
    }
}

/// English (CLDR): form 0 "one" for exactly 1, form 1 "other" for everything else.
pub fn plural_en(n: u64) -> usize {
    usize::from(n != 1)
}

/// Russian (CLDR, integers): form 0 "one" (1, 21, 31, … but not 11), form 1 "few" (2–4,
/// 22–24, … but not 12–14), form 2 "many" (0, 5–20, 25–30, …).
pub fn plural_ru(n: u64) -> usize {
    let (d, h) = (n % 10, n % 100);
    if d == 1 && h != 11 {
        0
    } else if (2..=4).contains(&d) && !(12..=14).contains(&h) {
        1
    } else {
        2
    }
}

fn missing(key: &str) -> String {
    debug_assert!(false, "message catalog has no key {key:?}");
    key.to_owned()
}

/// Replaces `{name}` placeholders (English plural rule for `{name:one|other}`); unknown
/// placeholders are left as written.
pub fn fill_template(template: &str, args: &[(&str, String)]) -> String {
    fill_plural(template, args, plural_en)
}

/// Replaces `{name}` with its value and `{name:form0|form1|…}` with the form `rule` picks for
/// the value read as a whole number (the last form when there are fewer forms than the rule
/// knows, the placeholder as written when the value is not a number or `name` is unknown).
pub fn fill_plural(template: &str, args: &[(&str, String)], rule: fn(u64) -> usize) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let inner = &after[..close];
                let (name, forms) = match inner.split_once(':') {
                    Some((name, forms)) => (name, Some(forms)),
                    None => (inner, None),
                };
                let value = args.iter().find(|(n, _)| *n == name).map(|(_, v)| v);
                let chosen = match (value, forms) {
                    (Some(v), Some(forms)) => v.parse::<u64>().ok().and_then(|n| {
                        let forms: Vec<&str> = forms.split('|').collect();
                        forms.get(rule(n).min(forms.len() - 1)).copied()
                    }),
                    (Some(v), None) => Some(v.as_str()),
                    (None, _) => None,
                };
                match chosen {
                    Some(text) => out.push_str(text),
                    None => {
                        out.push('{');
                        out.push_str(inner);
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
    //!   `protect.{name}` and `protect.{name}.hint`, `gloss.{term}.{term,def,match}` for the
    //!   glossary's terms, `phase.{name}`, `invariant.{name}`, `node.{name}.{name,short,tech}` (and
    //!   `node.{api,ledger}.{…}.{likes,accounts}`, the stories' own names)
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
            keys.push(format!("protect.{name}.hint"));
        }
        for id in crate::panels::glossary::TERMS {
            for part in ["term", "def", "match"] {
                keys.push(format!("gloss.{id}.{part}"));
            }
        }
        for node in idem_core::Node::ALL {
            for part in ["name", "short", "tech"] {
                keys.push(format!("node.{}.{part}", node.name()));
            }
        }
        for id in crate::panels::quiz::QUESTIONS {
            keys.push(format!("quiz.{id}"));
        }
        for tag in ["likes", "accounts"] {
            for node in ["api", "ledger"] {
                for part in ["name", "short", "tech"] {
                    keys.push(format!("node.{node}.{part}.{tag}"));
                }
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
            let inner = &after[..close];
            names.insert(inner.split(':').next().unwrap_or(inner));
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
    fn plurals_follow_each_language_s_rule() {
        let ru = |n: u64| {
            fill_plural(
                "{n} {n:ключ|ключа|ключей}",
                &[("n", n.to_string())],
                plural_ru,
            )
        };
        assert_eq!(ru(1), "1 ключ");
        assert_eq!(ru(2), "2 ключа");
        assert_eq!(ru(5), "5 ключей");
        assert_eq!(ru(11), "11 ключей");
        assert_eq!(ru(12), "12 ключей");
        assert_eq!(ru(21), "21 ключ");
        assert_eq!(ru(22), "22 ключа");
        assert_eq!(ru(0), "0 ключей");
        assert_eq!(ru(111), "111 ключей");
        let en = |n: u64| fill_template("{n} {n:key|keys}", &[("n", n.to_string())]);
        assert_eq!(en(1), "1 key");
        assert_eq!(en(0), "0 keys");
        assert_eq!(en(2), "2 keys");
        assert_eq!(fill_template("{n:a|b}", &[("n", "x".into())]), "{n:a|b}");
    }

    #[test]
    fn every_plural_placeholder_has_its_language_s_forms_and_no_bracketed_plurals_remain() {
        for lang in Lang::ALL {
            let catalog = lang.catalog();
            for (key, template) in catalog.entries {
                let mut rest = *template;
                while let Some(open) = rest.find('{') {
                    let after = &rest[open + 1..];
                    let Some(close) = after.find('}') else { break };
                    if let Some((_, forms)) = after[..close].split_once(':') {
                        assert_eq!(
                            forms.split('|').count(),
                            catalog.plural_forms(),
                            "{}: {key}",
                            catalog.tag
                        );
                    }
                    rest = &after[close + 1..];
                }
                for lazy in ["(s)", "(es)", "(ы)", "(и)", "(а)"] {
                    assert!(
                        !template.contains(lazy),
                        "{}: {key}: {template}",
                        catalog.tag
                    );
                }
            }
        }
    }

    /// Defect 12: Russian text uses «ёлочки», Russian units and no English asides.
    #[test]
    fn russian_reads_as_russian() {
        let ru = Lang::Ru.catalog();
        for (key, template) in ru.entries {
            assert!(
                !template.contains('“') && !template.contains('”'),
                "ru: {key}: {template}"
            );
            for english in ["(user ", "(only if", "(take over)", "платит лишним походом"]
            {
                assert!(!template.contains(english), "ru: {key}: {template}");
            }
        }
        let expired = |n: u64| ru.fill("store.expired", &[("count", n.to_string())]);
        assert_eq!(expired(1), "1 ключ дожил до конца TTL и исчез.");
        assert_eq!(expired(3), "3 ключа дожили до конца TTL и исчезли.");
        assert_eq!(expired(5), "5 ключей дожили до конца TTL и исчезли.");
        let wrong = ru.fill(
            "predict.wrong",
            &[
                ("guess", "Баланс 60".into()),
                ("answer", "Баланс 80".into()),
            ],
        );
        assert_eq!(
            wrong,
            "Не угадали: вы выбрали «Баланс 60», а вышло «Баланс 80»."
        );
        assert!(!ru.text("transcript.lost").contains("ПОТЕРЯНО"));
    }

    #[test]
    #[should_panic(expected = "no key")]
    fn a_missing_key_is_loud_in_tests() {
        let _ = Lang::En
            .catalog()
            .text(concat!("ui", ".this-key-does-not-exist"));
    }
}
