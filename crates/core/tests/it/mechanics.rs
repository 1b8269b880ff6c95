//! The mechanics the seeds add beyond the four stories: 400, 422, 409 and the lock, TTL,
//! scope, eviction, the crash window and how one transaction plus key forwarding closes it.

use crate::support;

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
    // The money is right, but the phone says "we couldn't confirm" for a payment that went
    // through: the user-truth invariant (issue 41) is the only one broken.
    let broken: Vec<Invariant> = world.verdict().violations().map(|(i, _)| i).collect();
    assert_eq!(broken, vec![Invariant::UserToldTheTruth]);
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
    use idem_core::{Note, Phase};
    // With the key in the ledger's transaction there is no separate "record the key" round
    // trip, so a crash armed for RecordKey never fires: the plain run shows the phase is
    // never entered, and the loop checks that it indeed stays unfired.
    let plain = run("fully-protected");
    assert!(!note_keys(&plain).contains(&"api.records_key"));
    let never_reached = [Phase::RecordKey];
    for phase in Phase::ALL {
        let mut scenario = scenario("fully-protected");
        scenario.script.insert(
            0,
            idem_core::Scripted {
                at: idem_core::SimTime::ZERO,
                action: idem_core::Action::Crash(phase),
            },
        );
        let world = run_scenario(&scenario);
        let crashes: Vec<Phase> = world
            .steps()
            .iter()
            .flat_map(|s| &s.notes)
            .filter_map(|n| match n {
                Note::ApiCrashed { phase } => Some(*phase),
                _ => None,
            })
            .collect();
        if never_reached.contains(&phase) {
            assert!(crashes.is_empty(), "crash at {phase:?} fired: {crashes:?}");
        } else {
            assert_eq!(crashes, vec![phase], "the crash at {phase:?} happened once");
            assert!(note_keys(&world).contains(&"api.restarted"), "{phase:?}");
        }
        let verdict = world.verdict();
        assert!(verdict.ok(), "crash at {phase:?}: {verdict:?}");
        assert_eq!(world.processor().statement.len(), 1, "crash at {phase:?}");
        assert_eq!(world.ledger().charges.len(), 1, "crash at {phase:?}");
    }
}

#[test]
fn protections_switch_by_name() {
    let mut p = Protections::NONE;
    assert!(p.set("forward", true));
    assert!(p.forward_key);
    assert!(!p.set("teleport", true));
}

/// The notes of a run, flattened.
fn notes(world: &idem_core::World) -> Vec<&idem_core::Note> {
    world.steps().iter().flat_map(|s| &s.notes).collect()
}

#[test]
fn the_recovery_job_finishes_a_charge_whose_handler_died() {
    use idem_core::{Action, Note, Phase, SimTime};
    // Crash while the ledger is written, with the phone asleep for an hour so that no retry
    // comes before the recovery job: the job alone must finish the charge.
    let mut with_recovery = scenario("fully-protected");
    with_recovery
        .script
        .retain(|s| s.action != Action::LoseNextAck);
    for (i, action) in [
        Action::Crash(Phase::WriteLedger),
        Action::AdvanceClock(idem_core::SimTime::HOUR),
    ]
    .into_iter()
    .enumerate()
    {
        with_recovery.script.insert(
            i,
            idem_core::Scripted {
                at: SimTime::ZERO,
                action,
            },
        );
    }
    let world = run_scenario(&with_recovery);
    let all = notes(&world);
    assert!(all.contains(&&Note::ApiCrashed {
        phase: Phase::WriteLedger
    }));
    let sweep = all
        .iter()
        .position(|n| **n == Note::ApiRecoverySweep)
        .expect("the recovery job ran");
    let recovers = all
        .iter()
        .position(|n| **n == Note::ApiRecovers { count: 1 })
        .expect("it found the one stale key");
    let recovered = all
        .iter()
        .position(|n| **n == Note::ApiRecovered)
        .expect("it finished the charge");
    assert!(sweep < recovers && recovers < recovered);
    assert_eq!(world.ledger().charges.len(), 1);
    assert_eq!(world.processor().statement.len(), 1);
    assert!(world.verdict().ok(), "{:?}", world.verdict());

    // Without the recovery switch no job runs.
    let mut without = with_recovery.clone();
    without.protections.recovery = false;
    let world = run_scenario(&without);
    let keys = note_keys(&world);
    assert!(keys.contains(&"api.crashed"));
    assert!(!keys.contains(&"api.recovery_sweep"));
    assert!(!keys.contains(&"api.recovered"));
}

#[test]
fn a_delayed_packet_arrives_that_much_later() {
    use idem_core::{Action, Note};
    let mut world = idem_core::World::new(&scenario("naive"));
    let mut steps = 0;
    let request = loop {
        if let Some(m) = world.network().in_flight().find(|m| m.is_faultable()) {
            break m.id;
        }
        assert!(world.step().is_some());
        steps += 1;
        assert!(steps < 10_000, "a packet reaches the phone's link");
    };
    let due = world.network().get(request).expect("sent").deliver_at;
    let step = world
        .apply(Action::Delay(request, 4_000))
        .expect("delayable");
    assert_eq!(
        step.notes,
        vec![Note::MessageDelayed {
            msg: request,
            ms: 4_000
        }]
    );
    assert_eq!(
        world.network().get(request).expect("sent").deliver_at,
        due.plus(4_000)
    );
    assert_eq!(world.run(STEP_BOUND), idem_core::RunEnd::Quiescent);
    let delivered = world
        .steps()
        .iter()
        .find(|s| s.cause == idem_core::Cause::Deliver(request))
        .expect("delivered in the end");
    assert_eq!(delivered.at, due.plus(4_000));
}

#[test]
fn an_offline_phone_cannot_retry_or_send() {
    use idem_core::{Action, ActionError};
    let mut world = idem_core::World::new(&scenario("key"));
    while world.client().ops().is_empty() {
        world.step().expect("the story starts an operation");
    }
    world
        .apply(Action::AdvanceClock(60_000))
        .expect("the clock can always advance");
    for action in [
        Action::RetryNow,
        Action::ConcurrentDuplicate,
        Action::ReuseKeyOtherBody,
        Action::OtherUserSameKey,
    ] {
        assert_eq!(
            world.apply(action).err(),
            Some(ActionError::ClientOffline),
            "{action:?}"
        );
    }
    assert!(world.client_offline_until().is_some());
    while world.client_offline_until().is_some() {
        world.step().expect("the phone wakes up");
    }
    assert_eq!(
        world.steps().last().map(|s| s.cause.clone()),
        Some(idem_core::Cause::ClientWake)
    );
    assert_ne!(
        world.apply(Action::ConcurrentDuplicate).err(),
        Some(ActionError::ClientOffline)
    );
}

#[test]
fn the_ledger_check_waits_for_a_quiet_run() {
    use idem_core::Invariant::LedgerMatchesProcessor;
    let mut world = idem_core::World::new(&scenario("key"));
    let mut pending_while_charged = 0;
    for steps in 0.. {
        assert!(
            steps < STEP_BOUND,
            "the run settles within {STEP_BOUND} steps"
        );
        let verdict = world.verdict();
        if world.is_quiescent() {
            assert_eq!(verdict.status(LedgerMatchesProcessor), Some(&Status::Holds));
            break;
        }
        assert_eq!(
            verdict.status(LedgerMatchesProcessor),
            Some(&Status::Pending)
        );
        assert!(!verdict.quiescent);
        // Charged by the processor, not yet written to the ledger: pending, not violated.
        if world.processor().statement.len() > world.ledger().charges.len() {
            pending_while_charged += 1;
            assert!(verdict.ok(), "pending is not a violation");
        }
        world.step();
    }
    assert!(
        pending_while_charged > 0,
        "the run passed through that window"
    );
}

/// Issue 15: a story's drawing shows only its nodes, so no message of any of its scenarios
/// may reach a node outside `Story::nodes()` (the likes and compare-and-set stories have no
/// idempotency store and no card processor).
#[test]
fn every_message_stays_among_its_story_s_nodes() {
    for id in idem_core::Scenario::IDS {
        let scenario = idem_core::Scenario::by_id(id).expect("scenario");
        let mut world = idem_core::World::new(&scenario);
        world.run(1_000);
        let nodes = scenario.story.nodes();
        assert!(!world.network().messages().is_empty(), "{id}");
        for m in world.network().messages() {
            assert!(
                nodes.contains(&m.from) && nodes.contains(&m.to),
                "{id}: {:?} → {:?}",
                m.from,
                m.to
            );
        }
    }
    use idem_core::{Node, Story};
    assert_eq!(
        Story::Counter.nodes(),
        [Node::Client, Node::Api, Node::Ledger]
    );
    assert_eq!(Story::NaivePost.nodes(), Node::ALL);
}

/// Issue 15: "lose the next answer" on a finished run is refused with its reason (nothing is
/// left to happen), like "retry" with nothing to retry; before the end it is taken.
#[test]
fn losing_the_next_answer_needs_something_on_its_way() {
    use idem_core::{Action, ActionError};
    let scenario = idem_core::Scenario::by_id("key").expect("key");
    let mut world = idem_core::World::new(&scenario);
    assert!(world.apply(Action::LoseNextAck).is_ok());
    world.run(1_000);
    assert!(world.is_quiescent());
    assert_eq!(
        world.apply(Action::LoseNextAck).err(),
        Some(ActionError::NothingOnItsWay)
    );
    assert_eq!(
        world.apply(Action::RetryNow).err(),
        Some(ActionError::NothingToRetry)
    );
}

#[test]
fn the_menu_splits_into_the_seed_stories_and_the_other_mechanics() {
    use idem_core::Scenario;
    // The seed tells four stories with five scenarios: the counter story has its unprotected
    // and its protected run.
    assert_eq!(
        Scenario::seed_ids(),
        ["naive", "key", "cas", "counter-naive", "counter"]
    );
    let mut joined = Scenario::seed_ids().to_vec();
    joined.extend_from_slice(Scenario::mechanic_ids());
    assert_eq!(
        joined,
        Scenario::IDS,
        "seed ids then mechanics, in menu order"
    );
    assert!(Scenario::mechanic_ids().contains(&"lease-fencing"));
    for id in Scenario::IDS {
        assert_eq!(
            Scenario::is_seed(id),
            Scenario::seed_ids().contains(&id),
            "{id}"
        );
    }
    assert!(Scenario::is_seed("cas"));
    assert!(!Scenario::is_seed("cas-race"));
    assert!(!Scenario::is_seed("no-such-scenario"));
    let ids: Vec<String> = Scenario::all().into_iter().map(|s| s.id).collect();
    assert_eq!(ids, Scenario::IDS, "every scenario builds, in menu order");
}
