//! The page's words about a run read the core's one record of it (issue 41, items 1 and 3):
//! "What hit this run" names a stall, a fault that found nothing to hit is said to have found
//! nothing (and its label leaves the Payment API box), and the `cas` story's phone panel,
//! compare line and verdict agree on what the user was shown, in both languages.

use idem_core::{Action, DeepLink, Node, Outcome, Phase, Scenario, World};
use idem_lesson::fault_record::{chaos_count, missed_sentence};
use idem_lesson::i18n::{Catalog, Lang};
use idem_lesson::outcome_text::{composed, faults_sentence};
use idem_lesson::stage::compare::difference_line;
use idem_lesson::stage::state_panels::client_html;
use idem_lesson::stage::topology::status_line;
use idem_lesson::text::{badge, badge_text};

fn run(scenario: &Scenario, faults: &[(u32, Action)]) -> World {
    let last = faults.iter().map(|(at, _)| *at).max().unwrap_or(0);
    let mut world = World::replay(scenario, faults, last + 1).expect("replays");
    world.run(5_000);
    world
}

fn linked(query: &str) -> World {
    let link = DeepLink::parse(query).expect("link");
    run(&link.scenario().expect("scenario"), &link.faults)
}

fn end(id: &str) -> World {
    run(&Scenario::by_id(id).expect("scenario"), &[])
}

const LANGS: [Lang; 2] = [Lang::En, Lang::Ru];

fn phase(catalog: &Catalog, world: &World, p: Phase) -> String {
    idem_lesson::labels::phase_in(p, world.scenario().story, catalog)
}

fn stall(catalog: &Catalog, world: &World) -> String {
    catalog.fill(
        "fact.paused",
        &[("phase", phase(catalog, world, Phase::CallProcessor))],
    )
}

#[test]
fn the_pause_link_says_the_handler_stalled() {
    let world = linked("scenario=key&base=1&faults=0.pause.call-processor");
    for lang in LANGS {
        let c = lang.catalog();
        let first = composed(&world, c).remove(0);
        assert_ne!(first, c.text("sum.no_faults"), "{lang:?}");
        assert!(first.contains(&stall(c, &world)), "{lang:?}: {first}");
    }
}

#[test]
fn the_lease_challenge_s_summary_lists_its_pause() {
    // The design the `lease-2` challenge hands out, broken with a pause and an early Retry
    // injected where the scripted story has them.
    let c = idem_core::Challenge::by_id("lease-2").expect("challenge");
    let design = c.design().expect("design");
    let mut probe = World::new(&Scenario::by_id("lease-expiry").expect("scripted"));
    probe.run(5_000);
    let faults: Vec<(u32, Action)> = probe
        .steps()
        .iter()
        .filter_map(|s| match s.cause {
            idem_core::Cause::Scripted(a) if a.is_fault() => Some((s.index, a)),
            _ => None,
        })
        .collect();
    assert_eq!(faults.len(), 2, "{faults:?}");
    let world = run(&design, &faults);
    assert!(!world.verdict().ok());
    let outcome = Outcome::of(&world);
    for lang in LANGS {
        let c = lang.catalog();
        let line = faults_sentence(&outcome.faults, world.scenario().story, c);
        assert!(line.contains(&stall(c, &world)), "{lang:?}: {line}");
        assert!(line.contains(&c.text("fact.retry")), "{lang:?}: {line}");
    }
}

/// A "Surprise me" seed on the key story that draws four faults: an early Retry and a delay
/// hit; a crash and a pause found no handler reaching their phase.
const SEED: u32 = 121;

#[test]
fn a_chaos_run_counts_what_hit_and_what_found_nothing() {
    let key = Scenario::by_id("key").expect("key");
    let schedule = idem_core::chaos::schedule(&key, SEED);
    let world = run(&key.clone().without_scripted_faults(), &schedule);
    let outcome = Outcome::of(&world);
    let n = outcome.placed.len();
    let missed = outcome.placed.iter().filter(|p| p.hit.is_none()).count();
    assert_eq!((n, missed), (4, 2), "{outcome:?}");
    for lang in LANGS {
        let c = lang.catalog();
        let line = missed_sentence(&outcome.placed, world.scenario().story, c).expect("missed");
        let counts = c.fill(
            "sum.missed",
            &[
                ("n", n.to_string()),
                ("hit", (n - missed).to_string()),
                ("missed", missed.to_string()),
                ("list", String::new()),
            ],
        );
        let head = counts.trim_end_matches('.').trim_end();
        assert!(line.starts_with(head), "{lang:?}: {line} / {counts}");
        assert!(composed(&world, c).contains(&line), "{lang:?}");
        // The hint under "Surprise me" counts the same record once the run is over.
        let hint = chaos_count(&world, c).expect("over");
        let expected = c.fill(
            "ui.chaos_count",
            &[
                ("n", "4".into()),
                ("hit", "2".into()),
                ("missed", "2".into()),
            ],
        );
        assert_eq!(hint, expected, "{lang:?}");
    }
}

#[test]
fn an_armed_crash_that_never_fired_is_not_shown_as_about_to() {
    let key = Scenario::by_id("key")
        .expect("key")
        .without_scripted_faults();
    let mut world = World::new(&key);
    world.run(5_000);
    world
        .apply(Action::Crash(Phase::WriteLedger))
        .expect("arms");
    let outcome = Outcome::of(&world);
    for lang in LANGS {
        let c = lang.catalog();
        let p = phase(c, &world, Phase::WriteLedger);
        let (label, _) = status_line(&world, Node::Api, c);
        assert_eq!(label, c.fill("node.crash_unused", &[("phase", p.clone())]));
        assert_ne!(label, c.fill("node.crash_armed", &[("phase", p.clone())]));
        let line = missed_sentence(&outcome.placed, world.scenario().story, c).expect("missed");
        assert!(
            line.contains(&c.fill("missed.crash", &[("phase", p)])),
            "{line}"
        );
    }
}

#[test]
fn the_cas_words_agree_on_the_balance_shown() {
    let cas = end("cas");
    let naive = end("cas-naive");
    let prefix = |s: String| s.split('(').next().expect("prefix").trim().to_owned();
    for lang in LANGS {
        let c = lang.catalog();
        // The phone panel: the new balance from the 412, not an error.
        let panel = client_html(&cas, 0.0, c).to_string();
        let sees = prefix(c.fill("panel.sees_current_state", &[("answer", String::new())]));
        let error = prefix(c.fill("panel.sees_error", &[("answer", String::new())]));
        let esc = idem_lesson::markup::esc;
        assert!(panel.contains(&esc(&sees)), "{lang:?}: {panel}");
        assert!(!panel.contains(&esc(&error)), "{lang:?}: {panel}");
        // The compare line: done once, the balance shown (not "shown an error").
        let line = difference_line(&naive, &cas, c);
        assert!(
            line.contains(&c.text("gist.once_state")),
            "{lang:?}: {line}"
        );
        assert!(
            !line.contains(&c.text("gist.once_error")),
            "{lang:?}: {line}"
        );
        // The verdict: no lie told, so neither the badge nor the caveat says one.
        assert_ne!(
            badge_text(&badge(&cas), c),
            c.text("verdict.told_failed.debit")
        );
        assert_eq!(
            idem_lesson::stage::summary::caveat_text(&cas, &cas.verdict(), c),
            None
        );
    }
}

#[test]
fn a_payment_told_unconfirmed_gets_its_own_verdict_line() {
    let mut s = Scenario::by_id("ttl").expect("ttl");
    s.protections.set("deadline", true);
    let world = run(&s, &[]);
    for lang in LANGS {
        let c = lang.catalog();
        assert_eq!(
            badge_text(&badge(&world), c),
            c.text("verdict.told_failed"),
            "{lang:?}"
        );
    }
}
