//! The mechanics the seeds add beyond the four stories: 400, 422, 409 and the lock, TTL,
//! scope, eviction, the crash window and how one transaction plus key forwarding closes it.

mod support;

use idem_core::http::{ApiError, ResponseBody};
use idem_core::{Invariant, Protections, Status, Violation};
use support::*;

fn violated(world: &idem_core::World, invariant: Invariant) -> bool {
    matches!(world.verdict().status(invariant), Some(Status::Violated(_)))
}

#[test]
fn a_charge_without_a_required_key_gets_400_and_charges_nothing() {
    let world = run("missing-key");
    assert_eq!(statuses_sent(&world), vec![400]);
    assert_eq!(
        delivered_responses(&world)[0].body,
        ResponseBody::Error(ApiError::MissingKey)
    );
    assert!(world.processor().statement.is_empty());
}

#[test]
fn the_same_key_with_another_body_gets_422() {
    let world = run("key-reuse");
    assert_eq!(statuses_sent(&world), vec![201, 422]);
    let sent = requests(&world);
    assert_eq!(sent[0].idempotency_key, sent[1].idempotency_key);
    assert_ne!(sent[0].body.fingerprint(), sent[1].body.fingerprint());
    assert_eq!(world.processor().statement.len(), 1);
    assert!(world.verdict().ok());
}

#[test]
fn without_the_fingerprint_the_other_body_gets_the_old_answer() {
    let world = run("key-reuse-no-fingerprint");
    assert_eq!(statuses_sent(&world), vec![201, 201]);
    assert!(delivered_responses(&world)[1].replayed);
    // The user asked for $150 and was shown the $100 payment: success without an effect.
    assert_eq!(
        world.verdict().status(Invariant::SuccessMeansDone),
        Some(&Status::Violated(Violation::FalseSuccess {
            op: idem_core::OpId(1),
            effects: 0
        }))
    );
}

#[test]
fn a_concurrent_duplicate_gets_409_while_the_first_is_in_progress() {
    let world = run("concurrent");
    let statuses = statuses_sent(&world);
    assert_eq!(
        statuses[0], 409,
        "the duplicate is refused first: {statuses:?}"
    );
    assert!(statuses.contains(&201));
    assert_eq!(world.processor().statement.len(), 1);
    assert!(world.verdict().ok());
}

#[test]
fn without_the_lock_both_requests_miss_and_both_charge() {
    let world = run("concurrent-no-lock");
    assert_eq!(world.processor().statement.len(), 2);
    assert!(violated(&world, Invariant::AtMostOnce));
    let keys = note_keys(&world);
    assert_eq!(keys.iter().filter(|k| **k == "api.looks_up_key").count(), 2);
}

#[test]
fn a_retry_after_the_ttl_is_a_new_request() {
    let world = run("ttl");
    let keys = note_keys(&world);
    assert!(keys.contains(&"fault.clock_advanced"));
    assert!(keys.contains(&"store.expired"));
    assert_eq!(world.verdict().money.statement_cents, 20_000);
    assert!(violated(&world, Invariant::AtMostOnce));
}

#[test]
fn a_retry_deadline_inside_the_ttl_gives_up_instead_of_charging_again() {
    let mut scenario = scenario("ttl");
    scenario.protections.retry_deadline = true;
    let world = run_scenario(&scenario);
    assert_eq!(world.processor().statement.len(), 1);
    assert!(note_keys(&world).contains(&"client.gave_up"));
    assert!(world.verdict().ok());
}

#[test]
fn another_users_key_is_not_a_hit_when_keys_are_scoped() {
    let world = run("scope");
    assert_eq!(statuses_sent(&world), vec![201, 201]);
    let seen = delivered_responses(&world);
    assert!(!seen[1].replayed);
    assert_eq!(
        world.processor().statement.len(),
        2,
        "each user paid for their own order"
    );
    assert!(world.verdict().ok());
}

#[test]
fn unscoped_keys_leak_one_users_payment_to_another() {
    let world = run("scope-off");
    assert_eq!(
        world.verdict().status(Invariant::NoCrossUserReplay),
        Some(&Status::Violated(Violation::Leak {
            shown_to: idem_core::UserId(2),
            owner: idem_core::UserId(1)
        }))
    );
}

#[test]
fn an_evicted_key_lets_the_retry_charge_again() {
    let world = run("evict");
    assert!(note_keys(&world).contains(&"fault.evicted"));
    assert_eq!(world.processor().statement.len(), 2);
}

#[test]
fn an_evicted_key_is_harmless_when_the_processor_deduplicates() {
    let mut scenario = scenario("evict");
    scenario.protections.forward_key = true;
    let world = run_scenario(&scenario);
    assert_eq!(world.processor().statement.len(), 1);
    assert!(note_keys(&world).contains(&"processor.deduplicated"));
    assert!(world.verdict().ok(), "{:?}", world.verdict());
}

#[test]
fn a_crash_between_commit_and_recording_the_key_charges_twice() {
    let world = run("crash-window");
    let keys = note_keys(&world);
    assert!(keys.contains(&"api.crashed"));
    assert!(keys.contains(&"api.restarted"));
    // Until the claim's lease runs out the retry is told 409; then it runs as new.
    assert!(statuses_sent(&world).contains(&409));
    assert_eq!(world.processor().statement.len(), 2);
    assert_eq!(world.ledger().charges.len(), 2);
    assert!(violated(&world, Invariant::AtMostOnce));
}

#[test]
fn one_transaction_alone_does_not_cover_the_processor() {
    let world = run("crash-no-forward");
    assert_eq!(world.processor().statement.len(), 2);
    assert_eq!(world.ledger().charges.len(), 1);
    assert_eq!(
        world.verdict().status(Invariant::LedgerMatchesProcessor),
        Some(&Status::Violated(Violation::Mismatch {
            unrecorded: vec!["pay_abc".to_owned()],
            phantom: vec![]
        }))
    );
}

#[test]
fn one_transaction_and_a_forwarded_key_close_the_window() {
    let world = run("crash-one-tx");
    let keys = note_keys(&world);
    assert!(
        keys.contains(&"api.reclaims_key"),
        "the lease ran out and the key was taken over"
    );
    assert!(keys.contains(&"processor.deduplicated"));
    assert_eq!(world.processor().statement.len(), 1);
    assert_eq!(world.ledger().charges.len(), 1);
    assert!(world.verdict().ok());
}

#[test]
fn every_crash_phase_is_survived_with_every_protection() {
    for phase in idem_core::Phase::ALL {
        let mut scenario = scenario("fully-protected");
        scenario.script.insert(
            0,
            idem_core::scenario::Scripted {
                at: idem_core::SimTime::ZERO,
                action: idem_core::Action::Crash(phase),
            },
        );
        let world = run_scenario(&scenario);
        let verdict = world.verdict();
        assert!(verdict.ok(), "crash at {phase:?}: {verdict:?}");
        assert_eq!(world.processor().statement.len(), 1, "crash at {phase:?}");
    }
}

#[test]
fn protections_switch_by_name() {
    let mut p = Protections::NONE;
    assert!(p.set("forward", true));
    assert!(p.forward_key);
    assert!(!p.set("teleport", true));
}
