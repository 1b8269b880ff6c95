//! The reference docs list what the code has (issue 43: `docs/page.md`'s scenario list lacked
//! the lease stories, `docs/embedding.md` said a bad `lang` falls back): a list in the docs that
//! misses an id, or a statement the code contradicts, fails here.

use idem_core::{DeepLink, Scenario};
use idem_lesson::link_params::PAGE_PARAMS;
use idem_lesson::options::FIELDS;

const PAGE: &str = include_str!("../../../../docs/page.md");
const EMBEDDING: &str = include_str!("../../../../docs/embedding.md");

/// The paragraph of `doc` that starts with `opening`.
fn paragraph<'a>(doc: &'a str, opening: &str) -> &'a str {
    let start = doc
        .find(opening)
        .unwrap_or_else(|| panic!("no paragraph {opening:?}"));
    let rest = &doc[start..];
    &rest[..rest.find("\n\n").unwrap_or(rest.len())]
}

#[test]
fn the_page_doc_lists_every_scenario_id() {
    let list = paragraph(PAGE, "Scenario ids (");
    for id in Scenario::IDS {
        assert!(list.contains(&format!("`{id}`")), "{id} missing");
    }
}

#[test]
fn the_embedding_doc_names_every_option_and_link_parameter() {
    for field in FIELDS {
        assert!(
            EMBEDDING.contains(&format!("| `{field}` |")),
            "option {field}"
        );
    }
    for name in DeepLink::PARAMS.into_iter().chain(PAGE_PARAMS) {
        assert!(
            EMBEDDING.contains(&format!("`{name}`")) || PAGE.contains(&format!("{name}=")),
            "parameter {name}"
        );
    }
    // The wrong statements of issue 43 stay gone.
    assert!(!EMBEDDING.contains("falls back to English"));
    assert!(EMBEDDING.contains("?challenge=redis-2&embed"));
    assert!(EMBEDDING.contains("idem:height"));
}
