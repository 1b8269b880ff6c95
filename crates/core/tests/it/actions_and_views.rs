//! The world's own rules, beyond the scripted stories the golden traces pin down: the
//! requests the client bugs ("reuse the key", "another user") put on the wire, eviction of an
//! empty store, when the API acts next, the armed lost ack. Written against the survivors of
//! `bash scripts/mutants.sh world` (docs/notes-mutants.md); every test runs in milliseconds.

use crate::support;

use idem_core::client::ClientOp;
use idem_core::http::RequestBody;
use idem_core::{Action, Node, Note, World};
use idem_core::{Scenario, UserId};
use support::*;

/// A world of scenario `id`, stepped until its first operation has started.
fn with_first_op(id: &str) -> World {
    let mut world = World::new(&scenario(id));
    while world.client().ops().is_empty() {
        assert!(world.step().is_some(), "{id} starts an operation");
    }
    world
}

fn op(world: &World, index: usize) -> &ClientOp {
    &world.client().ops()[index]
}

#[test]
fn reusing_the_key_sends_a_different_request_under_the_first_key() {
    for id in ["key", "cas", "counter"] {
        let mut world = with_first_op(id);
        let step = world.apply(Action::ReuseKeyOtherBody).expect("applies");
        assert_eq!(step.notes.first(), Some(&Note::ClientReusesKey), "{id}");
        assert_eq!(world.client().ops().len(), 2, "{id}");
        let (first, second) = (op(&world, 0), op(&world, 1));
        assert_eq!(second.key, first.key, "{id}: the same key");
        assert_eq!(second.user, first.user, "{id}: the same user");
        let expected = match &first.body {
            RequestBody::Charge {
                amount_cents,
                currency,
            } => RequestBody::Charge {
                amount_cents: amount_cents + 5_000,
                currency: currency.clone(),
            },
            RequestBody::Debit {
                account,
                amount,
                expected_version,
                op_id,
            } => {
                let RequestBody::Debit { op_id: again, .. } = &second.body else {
                    panic!("{id}: a debit again: {:?}", second.body);
                };
                assert!(
                    op_id.is_none() || again != op_id,
                    "{id}: another debit has another op_id"
                );
                RequestBody::Debit {
                    account: *account,
                    amount: amount + 10,
                    expected_version: *expected_version,
                    op_id: again.clone(),
                }
            }
            RequestBody::Like { post, .. } => {
                let RequestBody::Like { op_id, .. } = &second.body else {
                    panic!("{id}: a like again: {:?}", second.body);
                };
                assert_ne!(op_id, &None, "{id}: a like with op_id dedup has one");
                RequestBody::Like {
                    post: post + 1,
                    op_id: op_id.clone(),
                }
            }
        };
        assert_eq!(second.body, expected, "{id}");
    }
    // The numbers themselves, so that the rule above is not the only witness.
    let world = {
        let mut w = with_first_op("cas");
        w.apply(Action::ReuseKeyOtherBody).expect("applies");
        w
    };
    assert_eq!(
        op(&world, 1).body,
        RequestBody::Debit {
            account: 1,
            amount: 30,
            expected_version: Some(5),
            op_id: None,
        }
    );
    let mut world = with_first_op("counter");
    world.apply(Action::ReuseKeyOtherBody).expect("applies");
    assert!(
        matches!(op(&world, 1).body, RequestBody::Like { post, .. } if post == Scenario::POST + 1)
    );
}

#[test]
fn another_user_sends_the_same_request_with_the_same_key() {
    for id in ["key", "cas", "counter"] {
        let mut world = with_first_op(id);
        let step = world.apply(Action::OtherUserSameKey).expect("applies");
        assert_eq!(
            step.notes.first(),
            Some(&Note::OtherUserSameKey {
                user: UserId::BOB.0
            }),
            "{id}"
        );
        let (first, second) = (op(&world, 0), op(&world, 1));
        assert_eq!(
            (first.user, second.user),
            (UserId::ALICE, UserId::BOB),
            "{id}"
        );
        assert_eq!(second.key, first.key, "{id}");
        match (&first.body, &second.body) {
            (RequestBody::Like { post: a, .. }, RequestBody::Like { post: b, .. }) => {
                assert_eq!(a, b, "{id}: the same post");
            }
            (a, b) => assert_eq!(a, b, "{id}: the same request"),
        }
    }
}

#[test]
fn evicting_an_empty_store_does_nothing() {
    let mut world = World::new(&scenario("key"));
    let step = world.apply(Action::EvictKeys).expect("always applies");
    assert_eq!(step.notes, vec![Note::NothingToDo]);
}

#[test]
fn the_api_acts_next_when_its_packet_or_its_restart_is_next() {
    // Naive: every delivery is either to the API or from it.
    let mut world = World::new(&scenario("naive"));
    assert!(!world.api_acts_next(), "the script starts the run");
    let (mut to_api, mut elsewhere) = (0, 0);
    for _ in 0..STEP_BOUND {
        let Some(next) = world.next_wakeup() else {
            break;
        };
        let due = world
            .network()
            .next_due()
            .filter(|(at, _)| *at == next)
            .and_then(|(_, id)| world.network().get(id));
        match due {
            Some(m) if m.to == Node::Api => {
                assert!(world.api_acts_next(), "{m:?}");
                to_api += 1;
            }
            Some(m) => {
                assert!(!world.api_acts_next(), "{m:?}");
                elsewhere += 1;
            }
            None => {}
        }
        world.step();
    }
    assert!(world.is_quiescent());
    assert!(to_api > 0 && elsewhere > 0, "{to_api} {elsewhere}");
    assert!(!world.api_acts_next(), "nothing is next");

    // A crashed API's restart is the API acting.
    let mut world = World::new(&scenario("crash-window"));
    let mut restarts = 0;
    for _ in 0..STEP_BOUND {
        let Some(next) = world.next_wakeup() else {
            break;
        };
        if world.api().down_until() == Some(next) {
            assert!(world.api_acts_next());
            restarts += 1;
        }
        world.step();
    }
    assert!(restarts > 0, "the API crashed and came back");
}

#[test]
fn the_armed_lost_ack_is_visible_until_an_ack_takes_it() {
    let mut world = World::new(&scenario("naive"));
    assert!(!world.next_ack_will_be_lost());
    world.step();
    assert!(world.next_ack_will_be_lost(), "armed by the script");
    assert_eq!(world.run(STEP_BOUND), idem_core::RunEnd::Quiescent);
    assert!(!world.next_ack_will_be_lost(), "the first ack was lost");
}

/// Issue 15 review: arming "lose the next answer" on top of the story's own lost answer must
/// doom one more answer, not silently do nothing while the narration says it is armed.
#[test]
fn arming_the_lost_ack_twice_loses_two_answers() {
    let mut once = World::new(&scenario("key"));
    assert_eq!(once.run(STEP_BOUND), idem_core::RunEnd::Quiescent);
    let mut twice = World::new(&scenario("key"));
    twice
        .apply(Action::LoseNextAck)
        .expect("armed before the script's");
    assert_eq!(twice.acks_to_lose(), 1);
    twice.step();
    assert_eq!(twice.acks_to_lose(), 2, "the script arms a second one");
    assert_eq!(twice.run(STEP_BOUND), idem_core::RunEnd::Quiescent);
    assert_eq!(lost_acks(&once), 1);
    assert_eq!(lost_acks(&twice), 2);
    assert_eq!(twice.acks_to_lose(), 0);
}

/// The expiry notes of a run, in order.
fn expiries(world: &World) -> Vec<Note> {
    world
        .steps()
        .iter()
        .flat_map(|s| &s.notes)
        .filter(|n| matches!(n, Note::KeysExpired { .. } | Note::ClaimsExpired { .. }))
        .cloned()
        .collect()
}

#[test]
fn expired_keys_are_counted_wherever_they_live_and_claims_apart() {
    use idem_core::Protections;
    // A finished key in Redis, and one in the ledger's key table, outlive a 25-hour sleep
    // by neither.
    let redis = run_scenario(&scenario("ttl"));
    assert_eq!(expiries(&redis), vec![Note::KeysExpired { count: 1 }]);
    let ledger = run_scenario(&scenario("ttl").with_protections(Protections {
        retry_deadline: false,
        ..Protections::ALL
    }));
    assert_eq!(expiries(&ledger), vec![Note::KeysExpired { count: 1 }]);
    // A claim whose holder crashed expires with its lease: a claim, not a key.
    let claim = run_scenario(&scenario("crash-window"));
    assert_eq!(expiries(&claim), vec![Note::ClaimsExpired { count: 1 }]);
}

#[test]
fn a_world_without_history_keeps_its_future_and_only_the_last_step() {
    let mut world = World::new(&scenario("key"));
    for _ in 0..6 {
        world.step();
    }
    let mut light = world.clone();
    light.forget_history();
    assert_eq!(light.steps(), &world.steps()[world.steps().len() - 1..]);
    assert!(light.network().messages().len() < world.network().messages().len());
    assert!(light
        .network()
        .messages()
        .iter()
        .all(|m| m.fate == idem_core::net::Fate::InFlight));
    assert_eq!(light.step_count(), world.step_count());
    let last = light.step().expect("more to come").clone();
    assert_eq!(light.steps(), std::slice::from_ref(&last));
    let full = world.step().expect("more to come").clone();
    // The same future; without history the step's narration is dropped (cheaper clones for
    // the explorer), what it did is kept.
    assert!(!full.notes.is_empty() && last.notes.is_empty());
    assert_eq!(
        (last.index, last.at, &last.cause, &last.sent),
        (full.index, full.at, &full.cause, &full.sent),
        "the same future"
    );
    assert_eq!(light.run(STEP_BOUND), world.run(STEP_BOUND));
    assert_eq!(light.verdict(), world.verdict());
}

#[test]
fn retry_sends_the_open_operation_again_at_once() {
    let mut world = with_first_op("key");
    let step = world.apply(Action::RetryNow).expect("an open operation");
    assert_eq!(
        step.notes,
        vec![
            Note::ClientRetryPressed {
                op: idem_core::OpId(0)
            },
            Note::ClientSends {
                op: idem_core::OpId(0),
                attempt: 2,
                with_key: true
            },
        ]
    );
    assert_eq!(step.sent.len(), 1);
    assert_eq!(requests(&world).last().map(|r| r.attempt), Some(2));
}
