//! The glossary: one entry per term of the trade the narration uses, and the links from the
//! first use of each term in a step's narration to its entry.
//!
//! Each term has three catalog entries: `gloss.<id>.term` (its name in the list),
//! `gloss.<id>.def` (one or two sentences) and `gloss.<id>.match` (the words that count as a
//! use of it, `|`-separated, matched whole; a trailing `*` also matches any ending, for
//! Russian cases). The linking is pure and tested natively; the links are plain anchors
//! (`<a href="#term-…">`, keyboard and touch alike) described by the entry's definition.

use crate::i18n::Catalog;
use crate::markup::{el, esc, wrap, SafeHtml};

/// The terms, in the glossary's order.
pub const TERMS: [&str; 21] = [
    "ack",
    "set-nx",
    "nil",
    "atomic",
    "cas",
    "op-id",
    "on-conflict",
    "unique-index",
    "ttl",
    "invariant",
    "psp",
    "chargeback",
    "400",
    "409",
    "412",
    "422",
    "key",
    "if-match",
    "lease",
    "fencing-token",
    "incr",
];

/// Where a term's claim was checked: its entry in the sources list, if it has one (a status
/// code's meaning, a header, a Redis or PostgreSQL command). The glossary entry and the box
/// opened in place both link to it.
pub fn term_source(id: &str) -> Option<&'static str> {
    Some(match id {
        "set-nx" | "nil" | "ttl" => "redis-set",
        "on-conflict" | "unique-index" => "postgres-insert",
        "400" | "409" | "422" | "key" => "ietf-draft",
        "412" => "rfc9110-412",
        "if-match" => "rfc9110-if-match",
        "lease" | "fencing-token" => "fencing",
        _ => return None,
    })
}

/// A space and the link to term `id`'s source, or nothing.
pub fn source_of(id: &str, catalog: &Catalog) -> SafeHtml {
    term_source(id)
        .map(|src| SafeHtml::text(" ") + crate::panels::sources::source_ref(src, catalog))
        .unwrap_or_default()
}

/// A word character: a use of a term must not be part of a longer word. The lesson's texts are
/// English and Russian, so Latin and Cyrillic letters and digits are enough (and spare the wasm
/// Unicode's tables of every alphabet).
fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || matches!(c, 'А'..='я' | 'Ё' | 'ё')
}

/// Where `form` is first used as a whole word in `text` at or after byte `from`: its start and
/// end. A form ending in `*` matches any word ending after it.
fn find_form(text: &str, form: &str) -> Option<(usize, usize)> {
    let (stem, open_end) = match form.strip_suffix('*') {
        Some(stem) => (stem, true),
        None => (form, false),
    };
    if stem.is_empty() {
        return None;
    }
    let mut from = 0;
    while let Some(at) = text[from..].find(stem) {
        let start = from + at;
        let mut end = start + stem.len();
        let before_ok = !text[..start].chars().next_back().is_some_and(word_char)
            || !stem.starts_with(word_char);
        if open_end {
            end += text[end..]
                .char_indices()
                .find(|(_, c)| !word_char(*c))
                .map_or(text.len() - end, |(i, _)| i);
        }
        let after_ok =
            !text[end..].chars().next().is_some_and(word_char) || !stem.ends_with(word_char);
        if before_ok && after_ok {
            return Some((start, end));
        }
        from = start + stem.chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// The first use of each term in `text` not yet in `seen`: `(start, end, term)`, in text
/// order, without overlaps (the earlier, then the longer, wins).
pub fn find_terms(
    text: &str,
    catalog: &Catalog,
    seen: &[&str],
) -> Vec<(usize, usize, &'static str)> {
    let order = |(start, end, _): &(usize, usize, &str)| (*start, usize::MAX - end);
    // Each hit goes in at its place (after equal ones, as a stable sort would put it): a
    // dozen terms at most, and a `sort_by_key` here would add sort code to the wasm for nothing.
    let mut found: Vec<(usize, usize, &'static str)> = Vec::new();
    for id in TERMS.iter().filter(|id| !seen.contains(id)) {
        let Some(forms) = catalog.get(&format!("gloss.{id}.match")) else {
            continue;
        };
        let Some(hit) = forms
            .split('|')
            .filter_map(|form| find_form(text, form))
            .min_by_key(|(start, end)| (*start, usize::MAX - end))
            .map(|(start, end)| (start, end, *id))
        else {
            continue;
        };
        let at = found.partition_point(|other| order(other) <= order(&hit));
        found.insert(at, hit);
    }
    let mut kept: Vec<(usize, usize, &'static str)> = Vec::new();
    for hit in found {
        if kept.last().is_none_or(|last| hit.0 >= last.1) {
            kept.push(hit);
        }
    }
    kept
}

/// `lines` as paragraphs, the first use of each term (across all of them) a link to its
/// glossary entry; everything else escaped text.
pub fn linked_lines(lines: &[String], catalog: &Catalog) -> SafeHtml {
    let mut seen: Vec<&str> = Vec::new();
    lines
        .iter()
        .map(|line| {
            let mut out = SafeHtml::default();
            let mut at = 0;
            for (start, end, id) in find_terms(line, catalog, &seen) {
                seen.push(id);
                out += SafeHtml::text(&line[at..start]);
                out += el(
                    "a",
                    &format!(
                        "class=\"term\" data-testid=\"term\" data-term=\"{id}\" href=\"#term-{id}\" aria-describedby=\"def-{id}\"",
                        id = esc(id)
                    ),
                    &line[start..end],
                );
                at = end;
            }
            out += SafeHtml::text(&line[at..]);
            wrap("p", "", &out)
        })
        .collect()
}

/// The glossary as markup: a definition list, each entry with its anchor and a link back to
/// the player.
pub fn glossary_html(catalog: &Catalog, back_to: &str) -> SafeHtml {
    let back = catalog.text("gloss.back");
    let items: SafeHtml = TERMS
        .iter()
        .map(|id| {
            let id = esc(id);
            let entry = el(
                "dt",
                &format!("id=\"term-{id}\" data-term=\"{id}\""),
                &catalog.text(&format!("gloss.{id}.term")),
            ) + wrap(
                "dd",
                "",
                &(el(
                    "span",
                    &format!("id=\"def-{id}\""),
                    &catalog.text(&format!("gloss.{id}.def")),
                ) + source_of(&id, catalog)
                    + SafeHtml::text(" ")
                    + el(
                        "a",
                        &format!("class=\"back\" href=\"#{}\"", esc(back_to)),
                        &back,
                    )),
            );
            wrap("div", "class=\"gloss-entry\"", &entry)
        })
        .collect();
    wrap("dl", "class=\"glossary-list\"", &items)
}

/// The term `id` if it is one of [`TERMS`] and its definition is here (the panels' texts
/// are loaded): what a pressed link opens in place. Otherwise the link just leads to the list.
pub fn term_in_place(id: &str, catalog: &Catalog) -> Option<&'static str> {
    let term = TERMS.iter().copied().find(|t| *t == id)?;
    let lang = crate::i18n::Lang::from_tag(catalog.tag)?;
    crate::i18n::loaded(lang, crate::i18n::Part::Panels).map(|_| term)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use std::collections::BTreeSet;

    /// A student's review: "lease", "fencing token" and INCR were used with no entry.
    #[test]
    fn the_lease_its_fencing_token_and_incr_are_terms_where_the_story_uses_them() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            let ids = |key: &str| -> Vec<&str> {
                let text = c.fill(key, &[("token", "2".into())]);
                find_terms(&text, c, &[])
                    .into_iter()
                    .map(|(_, _, id)| id)
                    .collect()
            };
            let first = ids("api.gets_token");
            assert!(
                first.contains(&"incr") && first.contains(&"fencing-token"),
                "{first:?}"
            );
            let later = ids("api.gets_later_token");
            assert!(
                later.contains(&"lease") && later.contains(&"fencing-token"),
                "{later:?}"
            );
            for id in ["lease", "fencing-token"] {
                assert_eq!(term_source(id), Some("fencing"));
            }
        }
    }

    fn linked(text: &str, lang: Lang) -> String {
        linked_lines(&[text.to_owned()], lang.catalog()).to_string()
    }

    #[test]
    fn a_term_opens_in_place_only_when_it_is_one_and_its_words_are_here() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            for id in TERMS {
                assert_eq!(term_in_place(id, c), Some(id));
            }
            assert_eq!(term_in_place("nope", c), None);
            assert_eq!(term_in_place("\"><b>", c), None);
        }
    }

    #[test]
    fn every_term_has_its_entries_in_both_languages() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            for id in TERMS {
                for part in ["term", "def", "match"] {
                    let key = format!("gloss.{id}.{part}");
                    assert!(c.get(&key).is_some_and(|t| !t.is_empty()), "{lang:?} {key}");
                }
            }
            let html = glossary_html(c, "player");
            assert_eq!(html.matches("<dt ").count(), TERMS.len());
            assert_eq!(html.matches("href=\"#player\"").count(), TERMS.len());
        }
    }

    /// Status codes, headers and store commands lead to where their meaning was checked: the
    /// glossary entry (and the box opened in place, drawn from the same `source_of`) ends with
    /// a link to the source's entry.
    #[test]
    fn status_codes_headers_and_commands_link_to_their_sources() {
        use crate::panels::sources::SOURCES;
        for lang in Lang::ALL {
            let html = glossary_html(lang.catalog(), "player").to_string();
            let mut linked = 0;
            for id in TERMS {
                let entry = html
                    .split("<div class=\"gloss-entry\">")
                    .find(|e| e.contains(&format!("id=\"term-{id}\"")))
                    .expect("an entry per term");
                match term_source(id) {
                    Some(src) => {
                        assert!(SOURCES.iter().any(|s| s.id == src), "{id}: no source {src}");
                        assert!(
                            entry.contains(&format!("href=\"#src-{src}\"")),
                            "{id}: {entry}"
                        );
                        linked += 1;
                    }
                    None => assert!(!entry.contains("src-ref"), "{id}: {entry}"),
                }
            }
            assert!(linked >= 11, "{linked} terms link a source");
            for id in [
                "400",
                "409",
                "412",
                "422",
                "key",
                "if-match",
                "set-nx",
                "on-conflict",
            ] {
                assert!(term_source(id).is_some(), "{id} has a source");
            }
        }
        // If-Match is a term: the story 3 narration links it.
        let c = Lang::En.catalog();
        assert!(linked_lines(&["It sends If-Match: \"5\".".to_owned()], c)
            .to_string()
            .contains("data-term=\"if-match\""));
    }

    #[test]
    fn only_the_first_use_is_linked_and_text_stays_escaped() {
        let html = linked(
            "Redis answers (nil) <b> & (nil) again; TTL, TTLs.",
            Lang::En,
        );
        assert_eq!(
            html,
            "<p>Redis answers <a class=\"term\" data-testid=\"term\" data-term=\"nil\" href=\"#term-nil\" \
             aria-describedby=\"def-nil\">(nil)</a> &lt;b&gt; &amp; (nil) again; \
             <a class=\"term\" data-testid=\"term\" data-term=\"ttl\" href=\"#term-ttl\" \
             aria-describedby=\"def-ttl\">TTL</a>, TTLs.</p>"
        );
        // Across the lines of one step, a term is linked once.
        let two = linked_lines(
            &["409 Conflict.".to_owned(), "Then 409 again.".to_owned()],
            Lang::En.catalog(),
        );
        assert_eq!(two.matches("data-term=\"409\"").count(), 1);
        // Not inside a longer word or number.
        assert!(!linked("4090 attempts, unique indexes", Lang::En).contains("<a"));
    }

    #[test]
    fn word_characters_are_the_latin_and_cyrillic_letters_digits_and_underscore() {
        for c in "azAZ09_АЯаяЁёжЩ".chars() {
            assert!(word_char(c), "{c}");
        }
        for c in " .,:;!?()«»—–-'\"№%\u{00a0}é".chars() {
            assert!(!word_char(c), "{c}");
        }
        // A term followed by a Cyrillic letter is part of a longer word.
        assert!(!linked("Ответами не назовёшь", Lang::Ru).contains("<a"));
    }

    #[test]
    fn russian_endings_are_matched_whole() {
        let html = linked("Ответа нет: уникального индекса не было.", Lang::Ru);
        assert!(html.contains(">Ответа</a>"), "{html}");
        assert!(html.contains(">уникального индекса</a>"), "{html}");
        assert!(!linked("API отвечает 201", Lang::Ru).contains("<a"));
    }

    /// Every term is met somewhere in the stories' narration, intros or summaries, in both
    /// languages, so no entry is dead weight.
    #[test]
    fn every_term_is_used_by_the_lesson() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            let mut used = BTreeSet::new();
            let texts = c.entries.iter().filter(|(k, _)| !k.starts_with("gloss."));
            for text in texts.map(|(_, t)| t.to_string()) {
                for (_, _, id) in find_terms(&text, c, &[]) {
                    used.insert(id);
                }
            }
            for id in TERMS {
                assert!(used.contains(id), "{lang:?}: {id} is never used");
            }
        }
    }
}
