//! Message catalogs: every sentence the page shows lives in a text file per language and
//! part, keyed by a stable name, and is fetched at run time, so the wasm carries no text and a
//! reader downloads only the language they read.
//!
//! The files are `web/i18n/{tag}.txt` (the first screen: loaded before the page is drawn),
//! `web/i18n/{tag}-panels.txt` (the panels below the player: fetched once the first screen is
//! drawn, the page draws them when it is here) and `web/i18n/{tag}-more.txt` (the reading
//! sections below the fold, fetched when one is first opened); Trunk copies them to
//! `dist/i18n/`. The first screen's catalog answers for the panels' keys too once their file is
//! loaded ([`Catalog::get`]), so a component looks every key up the same way. Their format (one `key = template` a line) is read by [`parse`] and described
//! at the top of each file. Templates hold `{name}` placeholders that [`Catalog::fill`]
//! replaces. Adding a language is one more pair of files (same keys, checked by the
//! completeness tests) and one more [`Lang`] variant.
//!
//! A loaded file lives for the rest of the page ([`install`]); [`Lang::catalog`] is
//! synchronous and answers from what is loaded. Native builds (unit tests) read the files
//! at compile time instead; in the browser the web crate fetches them and [`install`]s them.
//!
//! The files' format is `format`'s, filling a template `template`'s; this module holds the
//! languages, the parts and the loaded catalogs.

mod format;
mod template;

pub use format::{parse, render, valid_key, ParseError};
pub use template::{fill_plural, fill_template, plural_en, plural_ru};

/// Whether the first screen's texts of `lang` are here, and the panels' too when `panels`:
/// what the web crate's `load_parts` waits for.
pub fn parts_loaded(lang: Lang, panels: bool) -> bool {
    loaded(lang, Part::Main).is_some() && (!panels || loaded(lang, Part::Panels).is_some())
}

/// Why a catalog file could not be used, in English (no catalog may be at hand to say it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The file, relative to the module (`i18n/en.txt`).
    pub file: String,
    /// What went wrong.
    pub problem: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.problem)
    }
}

use std::sync::OnceLock;

/// A language the page can speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Russian.
    Ru,
}

/// Which file of a language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// `{tag}.txt`: everything the first screen and the player need.
    Main,
    /// `{tag}-more.txt`: the long reading sections, loaded when first opened.
    More,
    /// `{tag}-panels.txt`: what only the panels below the player show, loaded once the first
    /// screen is drawn.
    Panels,
}

impl Part {
    /// Every part.
    pub const ALL: [Part; 3] = [Part::Main, Part::More, Part::Panels];

    /// The file's name under `i18n/` for language `lang`.
    pub fn file(self, lang: Lang) -> String {
        match self {
            Part::Main => format!("{}.txt", lang.tag()),
            Part::More => format!("{}-more.txt", lang.tag()),
            Part::Panels => format!("{}-panels.txt", lang.tag()),
        }
    }
}

/// The loaded catalogs: one slot per language and part, filled once.
static SLOTS: [OnceLock<Catalog>; 6] = [const { OnceLock::new() }; 6];

/// What a catalog answers before its file is loaded: nothing (release builds show keys).
static EMPTY: [Catalog; 2] = [
    Catalog {
        tag: "en",
        entries: &[],
        part: Part::Main,
    },
    Catalog {
        tag: "ru",
        entries: &[],
        part: Part::Main,
    },
];

fn slot(lang: Lang, part: Part) -> &'static OnceLock<Catalog> {
    &SLOTS[lang as usize * 3 + part as usize]
}

/// The files as they are in the repository, for native builds (unit tests, tools).
#[cfg(not(target_arch = "wasm32"))]
pub fn bundled(lang: Lang, part: Part) -> &'static str {
    match (lang, part) {
        (Lang::En, Part::Main) => include_str!("../../../web/i18n/en.txt"),
        (Lang::En, Part::More) => include_str!("../../../web/i18n/en-more.txt"),
        (Lang::En, Part::Panels) => include_str!("../../../web/i18n/en-panels.txt"),
        (Lang::Ru, Part::Main) => include_str!("../../../web/i18n/ru.txt"),
        (Lang::Ru, Part::More) => include_str!("../../../web/i18n/ru-more.txt"),
        (Lang::Ru, Part::Panels) => include_str!("../../../web/i18n/ru-panels.txt"),
    }
}

/// Reads `text` as the file `part` of `lang` and keeps it for the rest of the page (the text
/// is leaked on purpose: a catalog is loaded once and used until the page goes). A part
/// already loaded stays as it was.
pub fn install(lang: Lang, part: Part, text: &str) -> Result<&'static Catalog, ParseError> {
    if let Some(catalog) = loaded(lang, part) {
        return Ok(catalog);
    }
    let text: &'static str = text.to_owned().leak();
    let entries = parse(text)?.leak();
    Ok(slot(lang, part).get_or_init(|| Catalog {
        tag: lang.tag(),
        entries,
        part,
    }))
}

/// The catalog of `part` of `lang`, if its file is loaded (native builds: always).
pub fn loaded(lang: Lang, part: Part) -> Option<&'static Catalog> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        Some(slot(lang, part).get_or_init(|| {
            Catalog {
                tag: lang.tag(),
                entries: parse(bundled(lang, part))
                    .unwrap_or_else(|e| panic!("web/i18n/{}: {e}", part.file(lang)))
                    .leak(),
                part,
            }
        }))
    }
    #[cfg(target_arch = "wasm32")]
    {
        slot(lang, part).get()
    }
}

impl Lang {
    /// Every language, in the order of the switch.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ru];

    /// The first-screen catalog of this language: what is loaded (empty until then).
    pub fn catalog(self) -> &'static Catalog {
        loaded(self, Part::Main).unwrap_or(&EMPTY[self as usize])
    }

    /// The long-form catalog of this language (the reading sections), empty until loaded.
    pub fn more(self) -> &'static Catalog {
        loaded(self, Part::More).unwrap_or(&EMPTY[self as usize])
    }

    /// The BCP 47 tag (`en`, `ru`): the `lang` parameter and attribute.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
        }
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
    /// The file it was read from.
    pub part: Part,
}

impl Catalog {
    /// The template of `key`, if the catalog has it; the first screen's catalog also answers
    /// with the panels' entries of its language once they are loaded.
    pub fn get(&self, key: &str) -> Option<&'static str> {
        let panels = || {
            let lang = Lang::from_tag(self.tag)?;
            (self.part == Part::Main)
                .then(|| loaded(lang, Part::Panels))??
                .get(key)
        };
        self.entries
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, template)| *template)
            .or_else(panels)
    }

    /// The text of `key`. A missing key is a bug: debug builds (and so every test) panic,
    /// release builds show the key itself rather than nothing.
    pub fn text(&self, key: &str) -> String {
        match self.get(key) {
            Some(template) => template.to_owned(),
            None => missing(key),
        }
    }

    /// The text of `key` if the panels' part holds it and is here already: for a first-screen
    /// place that can say the same from the run's facts until then (a mechanic's written
    /// summary). The first-screen split does not count these keys as the first screen's.
    pub fn panel_text(&self, key: &str) -> Option<String> {
        self.get(key).map(str::to_owned)
    }

    /// [`Catalog::fill`] for a key of the panels' part, if that part is here already (see
    /// [`Catalog::panel_text`]): a line the first screen's bundles can do without until then.
    pub fn panel_fill(&self, key: &str, args: &[(&str, String)]) -> Option<String> {
        self.get(key)
            .map(|template| fill_plural(template, args, self.plural_rule()))
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

fn missing(key: &str) -> String {
    debug_assert!(false, "message catalog has no key {key:?}");
    key.to_owned()
}

#[cfg(any(test, feature = "test-support"))]
pub mod check;
#[cfg(test)]
mod review;
#[cfg(test)]
mod second_read;
#[cfg(test)]
mod words4;

#[cfg(test)]
mod tests {
    //! The catalogs' own consistency: the two languages hold the same keys and placeholders,
    //! templates are well formed, plurals follow each language's rule, the files read back.
    //! That the code and the catalogs agree (every key asked for exists, every key is asked
    //! for, the first screen's part holds exactly its keys) is `idem-web`'s test
    //! `page_sources`, which reads the page's sources.
    use super::*;

    use check::{all_entries, placeholders};
    #[test]
    fn every_language_has_a_distinct_tag_that_reads_back() {
        for lang in Lang::ALL {
            assert_eq!(Lang::from_tag(lang.catalog().tag), Some(lang));
        }
        assert_eq!(Lang::from_tag("de"), None);
    }

    #[test]
    fn catalogs_have_the_same_keys_and_placeholders() {
        for part in Part::ALL {
            let en = loaded(Lang::En, part).expect("native builds read the files");
            for lang in Lang::ALL {
                let catalog = loaded(lang, part).expect("native builds read the files");
                let file = part.file(lang);
                assert_eq!(catalog.entries.len(), en.entries.len(), "{file}");
                for (key, template) in en.entries {
                    let other = catalog
                        .get(key)
                        .unwrap_or_else(|| panic!("{file}: missing {key}"));
                    assert_eq!(
                        placeholders(template),
                        placeholders(other),
                        "{file}: placeholders of {key}"
                    );
                }
            }
        }
    }

    #[test]
    fn keys_are_unique_and_templates_well_formed() {
        for lang in Lang::ALL {
            let entries = all_entries(lang);
            let mut seen: Vec<&str> = entries.iter().map(|(k, _)| *k).collect();
            seen.sort_unstable();
            let before = seen.len();
            seen.dedup();
            assert_eq!(before, seen.len(), "{}: a key in two parts", lang.tag());
            for (key, template) in &entries {
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
            for (key, template) in lang.more().entries {
                if crate::panels::reference::INDUSTRY.contains(key) {
                    assert_eq!(template.split('|').count(), 4, "{key}");
                }
            }
        }
    }

    /// Review finding 7: the broker drops only the producer's own retries; an application's
    /// re-send is a new message (KIP-98).
    #[test]
    fn the_kafka_row_says_which_duplicates_the_broker_drops() {
        for lang in Lang::ALL {
            let row = lang.more().text("industry.kafka");
            let outcome = row.rsplit('|').next().unwrap_or_default();
            assert!(outcome.contains("KIP-98"), "{outcome}");
            assert!(
                outcome.contains("new sequence number") || outcome.contains("новый номер"),
                "{outcome}"
            );
        }
    }

    #[test]
    fn every_plural_placeholder_has_its_language_s_forms_and_no_bracketed_plurals_remain() {
        for lang in Lang::ALL {
            let catalog = lang.catalog();
            for (key, template) in all_entries(lang) {
                let mut rest = template;
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
        for (key, template) in all_entries(Lang::Ru) {
            assert!(
                !template.contains('“') && !template.contains('”'),
                "ru: {key}: {template}"
            );
            // Review finding 9: one word for each thing, and no borrowed jargon.
            for english in [
                "(user ",
                "(only if",
                "(take over)",
                "платит лишним походом",
                "Карта списана",
                "процессинг",
                "Процессинг",
                "леджер",
                "Леджер",
                "оммит",
                "чарджбэк",
                "совпадает с 0 строк",
                "сутки",
                "#{",
            ] {
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
        assert!(ru.text("path.definition").to_lowercase().contains("только"));
        assert!(ru
            .text("scenario.naive.summary")
            .contains("Пользователь видит"));
    }

    #[test]
    #[should_panic(expected = "no key")]
    fn a_missing_key_is_loud_in_tests() {
        let _ = Lang::En
            .catalog()
            .text(concat!("ui", ".this-key-does-not-exist"));
    }

    #[test]
    fn the_files_read_back_as_written_and_the_parts_split_the_keys() {
        for lang in Lang::ALL {
            for part in Part::ALL {
                let catalog = loaded(lang, part).expect("native builds read the files");
                assert!(catalog.entries.len() > 15, "{}", part.file(lang));
                let again = render(catalog.entries);
                assert_eq!(parse(&again).as_deref(), Ok(catalog.entries));
            }
            // The reading sections' texts are not in the first file, and the other way round.
            assert!(lang.catalog().get("industry.stripe").is_none());
            assert!(lang.more().get("industry.stripe").is_some());
            assert!(lang.more().get("ui.title").is_none());
            // The first screen's catalog answers for the panels' keys, no other catalog does.
            let panels = loaded(lang, Part::Panels).expect("bundled");
            assert!(panels.get("calc.title").is_some());
            assert!(panels.get("ui.title").is_none());
            assert!(lang
                .catalog()
                .entries
                .iter()
                .all(|(k, _)| *k != "calc.title"));
            assert_eq!(lang.catalog().get("calc.title"), panels.get("calc.title"));
            assert!(lang.more().get("calc.title").is_none());
        }
        assert_eq!(Part::Panels.file(Lang::En), "en-panels.txt");
        assert_eq!(Part::More.file(Lang::Ru), "ru-more.txt");
        assert_eq!(Lang::Ru.catalog().text("calc.thousands"), "\u{a0}");
    }

    #[test]
    fn install_keeps_the_first_file_of_a_part() {
        // Native builds already hold the repository's files: installing another text leaves
        // them, and a bad text is refused before anything is kept.
        let before = Lang::En.catalog().entries.len();
        assert!(install(Lang::En, Part::Main, "ui.x = y").is_ok());
        assert_eq!(Lang::En.catalog().entries.len(), before);
    }
}
