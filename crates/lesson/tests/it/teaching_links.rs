//! The teacher's guide (`docs/teaching.md`, issue 43 item 7) gives links to hand to students;
//! a link that no longer opens what the guide says is worse than none. Every link in it to the
//! lab is read here by the lesson's own parsers (the deep link's, then the page's parameters)
//! and replayed, and a link that claims to solve a challenge must solve it by the core's
//! judgement.

use idem_core::{Attempt, Challenge, DeepLink};
use idem_lesson::link_params::page_params;
use idem_lesson::playback::Run;

const GUIDE: &str = include_str!("../../../../docs/teaching.md");

/// Where the guide says the lab is hosted (a stand-in the reader replaces).
const HOST: &str = "https://example.org/lab/";

/// The queries of every link to the lab in `text`: absolute ones to [`HOST`] and the example
/// page's relative `lab/?…` (its `&amp;` unescaped).
fn lab_queries(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for start in [HOST, "\"lab/"] {
        let mut rest = text;
        while let Some(at) = rest.find(start) {
            rest = &rest[at + start.len()..];
            let end = rest
                .find(|c: char| c.is_whitespace() || matches!(c, ')' | '"' | '|' | '`'))
                .unwrap_or(rest.len());
            let url = &rest[..end];
            if let Some(query) = url.strip_prefix('?') {
                out.push(query.replace("&amp;", "&"));
            }
        }
    }
    out
}

#[test]
fn every_link_in_the_guide_opens_without_a_notice() {
    let queries = lab_queries(GUIDE);
    // The guide has four activities and a table of misconceptions: far more links than this.
    assert!(queries.len() >= 25, "only {} links found", queries.len());
    for query in &queries {
        let link = DeepLink::parse(query).unwrap_or_else(|e| panic!("{query}: {e:?}"));
        let params = page_params(query);
        assert_eq!(params.problems, vec![], "{query}");
        let mut run = Run::from_link(&link).unwrap_or_else(|e| panic!("{query}: {e:?}"));
        // A link that spells a challenge's faults is the guide's solution: the core must judge
        // the run broken within the budget.
        if let (Some(id), false) = (&link.challenge, link.faults.is_empty()) {
            let challenge = Challenge::by_id(id).expect("a parsed challenge exists");
            run.run_to_end();
            assert_eq!(
                Challenge::judge(&challenge, run.world()),
                Attempt::Broken,
                "{query}"
            );
        }
    }
    // Each activity's story is among them.
    for id in ["naive", "crash-no-forward", "lease-expiry", "lease-fencing"] {
        let wanted = format!("scenario={id}");
        assert!(
            queries.iter().any(|q| q.split('&').any(|p| p == wanted)),
            "{id}"
        );
    }
    for id in ["redis-2", "lease-2"] {
        let wanted = format!("challenge={id}");
        assert!(queries.iter().any(|q| q.contains(&wanted)), "{id}");
    }
}

#[test]
fn the_reader_finds_a_broken_link() {
    // The checks above fail on what a stale guide would hold.
    for bad in [
        "scenario=lease-expiri&embed",
        "challenge=redis-3",
        "scenario=naive&them=dark",
        "scenario=key&lang=de&embed",
    ] {
        let found = lab_queries(&format!("[x]({HOST}?{bad})"));
        assert_eq!(found, vec![bad.to_owned()]);
        let link_ok = DeepLink::parse(bad).is_ok();
        let params_ok = page_params(bad).problems.is_empty();
        assert!(!(link_ok && params_ok), "{bad} passes");
    }
    // A solution link whose faults do not break the challenge (the lost answer the key was
    // made for) is caught by the core.
    let link = DeepLink::parse("challenge=redis-2&faults=1.lose-ack").expect("parses");
    let mut run = Run::from_link(&link).expect("replays");
    run.run_to_end();
    let redis = Challenge::by_id("redis-2").expect("challenge");
    assert_ne!(Challenge::judge(&redis, run.world()), Attempt::Broken);
}

#[test]
fn the_guide_is_linked_from_the_readme_and_the_docs_it_names_exist() {
    let readme = include_str!("../../../../README.md");
    assert!(readme.contains("docs/teaching.md"));
    let doc = "embedding.md";
    assert!(GUIDE.contains(&format!("]({doc}")), "{doc}");
    assert!(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs")
            .join(doc)
            .exists(),
        "{doc}"
    );
}
