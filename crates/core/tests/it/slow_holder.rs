//! A slow holder past its lease, fencing tokens, and the limits the protections' hints state:
//! each test plays the run that shows the behaviour or the limit.

use crate::support;

use idem_core::Scenario;
use idem_core::SimTime;
use idem_core::{Action, ActionError, DeepLink, Invariant, LinkError, Note, Phase, World};
use support::{noted, run, run_scenario, scenario};

#[test]
fn a_holder_that_stalls_past_its_lease_charges_after_the_retry_took_the_key() {
    let world = run("lease-expiry");
    let money = world.verdict().money;
    assert_eq!(money.statement_cents, 20_000, "charged twice");
    assert_eq!(money.processor_charges, 2);
    assert_eq!(money.ledger_rows, 2);
    assert!(world
        .verdict()
        .violations()
        .any(|(i, _)| i == Invariant::AtMostOnce));
    assert_eq!(
        noted(&world, |n| matches!(
            n,
            Note::ApiPaused {
                phase: Phase::CallProcessor
            }
        )),
        1
    );
    assert_eq!(noted(&world, |n| matches!(n, Note::ApiResumes { .. })), 1);
    // The claim expired while its holder was only paused.
    assert_eq!(
        noted(&world, |n| matches!(n, Note::ClaimsExpired { count: 1 })),
        1
    );
}

#[test]
fn fencing_refuses_the_stale_holder_and_the_card_is_charged_once() {
    let world = run("lease-fencing");
    let verdict = world.verdict();
    assert!(verdict.ok(), "{verdict:?}");
    assert_eq!(verdict.money.statement_cents, 10_000);
    assert_eq!(noted(&world, |n| *n == Note::ApiGetsToken { token: 1 }), 1);
    assert_eq!(noted(&world, |n| *n == Note::ApiGetsToken { token: 2 }), 1);
    assert_eq!(noted(&world, |n| *n == Note::ProcessorFenced), 1);
    assert_eq!(noted(&world, |n| *n == Note::ApiFenced), 1);
    // The counter outlives the claim: it holds the newest token, with no expiry.
    let counters: Vec<u64> = world.store().counters().map(|(_, n)| *n).collect();
    assert_eq!(counters, [2]);
    assert_eq!(world.ledger().fences.len(), 1);
}

#[test]
fn fencing_cannot_undo_a_call_made_before_the_takeover() {
    // The limit its hint states: the stale holder called the processor before it stalled,
    // with the newest token at the time, so that charge stands; the ledger then refuses its
    // row, and the card shows two charges where the ledger has one.
    let mut s = scenario("lease-fencing");
    s.script[0].action = Action::Pause(Phase::WriteLedger);
    let world = run_scenario(&s);
    let money = world.verdict().money;
    assert_eq!(money.processor_charges, 2);
    assert_eq!(money.ledger_rows, 1, "the stale row was refused");
    assert_eq!(noted(&world, |n| *n == Note::ApiFenced), 1);
    // Forwarding the key closes it: the processor recognises the retry's call.
    s.protections.forward_key = true;
    assert!(run_scenario(&s).verdict().ok());
}

#[test]
fn an_eviction_resets_the_fencing_counter() {
    let mut world = World::new(&scenario("lease-fencing"));
    while world.store().counters().next().is_none() {
        assert!(world.step().is_some(), "the claim takes a token");
    }
    world.apply(Action::EvictKeys).expect("applies");
    assert_eq!(world.store().counters().count(), 0);
}

#[test]
fn forwarding_lasts_as_long_as_the_processors_dedup_window() {
    // The phone offline for 25 h with forwarding on: the processor forgot the key at 24 h.
    let s = scenario("ttl").with_protections(idem_core::Protections {
        forward_key: true,
        ..idem_core::Protections::SEED_KEY
    });
    assert_eq!(run_scenario(&s).verdict().money.statement_cents, 20_000);
    // Inside the window it holds.
    let mut short = s.clone();
    short.script[2].action = Action::AdvanceClock(2 * SimTime::HOUR);
    assert_eq!(run_scenario(&short).verdict().money.statement_cents, 10_000);
}

#[test]
fn recovery_needs_the_key_in_the_ledger_transaction_and_forwarding() {
    // With the key in Redis, recovery has no stored request to re-drive: nothing changes.
    let mut window = scenario("crash-window");
    window.protections.recovery = true;
    let world = run_scenario(&window);
    assert_eq!(world.verdict().money.statement_cents, 20_000);
    assert_eq!(noted(&world, |n| *n == Note::ApiRecoverySweep), 0);
    // With the key in PostgreSQL but no forwarding, it re-drives a payment the processor
    // already made, and charges again.
    let mut no_forward = scenario("crash-no-forward");
    no_forward.protections.recovery = true;
    let world = run_scenario(&no_forward);
    assert_eq!(noted(&world, |n| *n == Note::ApiRecoverySweep), 1);
    assert_eq!(world.verdict().money.processor_charges, 2);
    // Both: once.
    no_forward.protections.forward_key = true;
    assert!(run_scenario(&no_forward).verdict().ok());
}

#[test]
fn a_phase_the_design_lacks_is_refused_and_reported_by_the_link() {
    let link = DeepLink::parse("scenario=cas&faults=0.crash.call-processor").expect("parses");
    assert_eq!(
        link.build().err(),
        Some(LinkError::FaultRefused {
            index: 0,
            error: ActionError::NoSuchPhase(Phase::CallProcessor),
        })
    );
    let link =
        DeepLink::parse("scenario=fully-protected&faults=0.pause.record-key").expect("parses");
    assert!(matches!(
        link.build(),
        Err(LinkError::FaultRefused {
            error: ActionError::NoSuchPhase(Phase::RecordKey),
            ..
        })
    ));
    // A phase it has is taken, and the pause round-trips through the link.
    let link =
        DeepLink::parse("scenario=key&base=1&faults=0.pause.call-processor").expect("parses");
    assert!(link.build().is_ok());
    assert!(link.to_query().contains("faults=0.pause.call-processor"));
    let cas = Scenario::by_id("cas").expect("known");
    assert!(!idem_core::Explorer::phases(&cas).contains(&Phase::CallProcessor));
}
