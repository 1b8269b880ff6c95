//! What the catalogs' tests check the code against, for this crate's tests and for the web
//! crate's, which read the page's sources (a lower crate's tests never read a higher one's
//! files): every entry of a language, the keys the UI builds with `format!`, and how a
//! literal looks when it is a key.

use std::collections::BTreeSet;

use idem_core::{Invariant, Note, Phase, Protections, Scenario};

use super::{loaded, Lang, Part};

/// Every entry of `lang`, every part.
pub fn all_entries(lang: Lang) -> Vec<(&'static str, &'static str)> {
    Part::ALL
        .into_iter()
        .flat_map(|part| loaded(lang, part).expect("bundled").entries.iter().copied())
        .collect()
}

/// The template of `key` in either part of `lang`.
pub fn get_any(lang: Lang, key: &str) -> Option<&'static str> {
    lang.catalog().get(key).or_else(|| lang.more().get(key))
}

pub fn looks_like_key(piece: &str) -> bool {
    piece.len() > 3
        && piece.contains('.')
        && !piece.starts_with('.')
        && !piece.ends_with('.')
        && piece
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
}

/// Whether `piece` starts with the first segment of some English key (`ui.`, `calc.`, …):
/// literals such as file names or CSS selectors are not keys.
pub fn has_prefix_of_catalog(piece: &str) -> bool {
    let head = piece.split('.').next().unwrap_or("");
    all_entries(Lang::En)
        .iter()
        .any(|(k, _)| k.split('.').next() == Some(head))
}

/// The keys the UI builds with `format!`, enumerated from the core's names.
pub fn generated_keys() -> Vec<String> {
    let mut keys: Vec<String> = Note::KEYS.iter().map(|k| (*k).to_owned()).collect();
    for id in Scenario::IDS {
        for part in ["title", "intro", "summary"] {
            keys.push(format!("scenario.{id}.{part}"));
        }
    }
    for name in Protections::NAMES {
        keys.push(format!("protect.{name}"));
        keys.push(format!("protect.{name}.hint"));
        keys.push(format!("limit.{name}"));
    }
    for source in crate::panels::sources::SOURCES {
        keys.push(format!("src.{}", source.id));
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
    for tag in ["likes", "accounts"] {
        keys.push(format!("phase.{}.{tag}", Phase::WriteLedger.name()));
    }
    for invariant in Invariant::ALL {
        keys.push(format!("invariant.{}", invariant.name()));
    }
    for challenge in idem_core::Challenge::ALL {
        keys.push(format!("challenge.{}", challenge.id));
    }
    // The fault kinds a search tries, in words (`panels::explorer::kinds_text`).
    for kind in idem_core::FaultKind::SEARCHED {
        keys.push(format!("kind.{}", kind.name()));
    }
    keys
}

pub fn placeholders(template: &str) -> BTreeSet<&str> {
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
