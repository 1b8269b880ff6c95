//! The payment API and the world, pinned against the survivors of the full
//! `bash scripts/mutants.sh api world` run (notes-mutants.md). Every test runs in milliseconds.

mod support;

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use idem_core::api::RESTART_MS;
use idem_core::net::DropReason;
use idem_core::{Action, Cause, Note, World};
use support::*;

fn hash_of(value: &impl Hash) -> u64 {
    let mut h = DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

#[test]
fn the_apis_hash_sees_every_step_of_a_handler() {
    // The explorer tells situations apart by hashing the world (the API included): a handler
    // moving to its next phase, or getting the processor's answer, is a new situation even
    // when nothing else about the API changed.
    for id in ["naive", "key", "fully-protected"] {
        let mut world = World::new(&scenario(id));
        let mut changes = 0;
        let mut previous = world.api().clone();
        let mut steps = 0;
        while world.step().is_some() {
            steps += 1;
            assert!(steps < STEP_BOUND, "{id}: the run ends");
            let api = world.api().clone();
            if api != previous {
                assert_ne!(hash_of(&api), hash_of(&previous), "{id}: {api:?}");
                if api.handlers().count() == previous.handlers().count() {
                    changes += 1;
                }
            }
            previous = api;
        }
        assert!(changes > 0, "{id}: a handler changed in place");
    }
}

#[test]
fn a_crashed_api_is_down_until_its_restart_and_loses_what_reaches_it() {
    let mut world = World::new(&scenario("crash-window"));
    assert!(world.api().is_up());
    assert_eq!(world.api().down_until(), None);
    let mut steps = 0;
    while !world
        .steps()
        .last()
        .is_some_and(|s| s.notes.iter().any(|n| matches!(n, Note::ApiCrashed { .. })))
    {
        world.step().expect("the armed crash fires");
        steps += 1;
        assert!(steps < STEP_BOUND, "the crash fired");
    }
    let crashed_at = world.now();
    assert!(!world.api().is_up(), "down after the crash");
    assert_eq!(world.api().down_until(), Some(crashed_at.plus(RESTART_MS)));
    // The client retries at once: its request reaches the API while it is down.
    let retry = world.apply(Action::RetryNow).expect("the charge is open");
    let request = *retry.sent.last().expect("the retry is on the wire");
    let mut lost = false;
    while !world.api().is_up() {
        let step = world.step().expect("the API comes back");
        lost |= step.cause == Cause::Deliver(request)
            && step.notes.contains(&Note::MessageLost {
                msg: request,
                reason: DropReason::ApiDown,
            });
        steps += 1;
        assert!(steps < STEP_BOUND, "the API restarted");
    }
    assert!(lost, "the retry reached a down API and was lost");
    assert_eq!(
        world.now(),
        crashed_at.plus(RESTART_MS),
        "up after one restart time"
    );
    assert_eq!(world.api().down_until(), None);
    assert_eq!(
        world.steps().last().map(|s| &s.cause),
        Some(&Cause::ApiRestart)
    );
}
