//! Same inputs, same run: the property that makes time travel, deep links and the explorer
//! possible. Plus one golden trace per scenario, so any change of behaviour is a visible diff.

use crate::support;

use idem_core::Scenario;
use idem_core::{Action, World};
use support::*;

#[test]
fn the_same_seed_gives_the_same_world_for_every_scenario() {
    for id in Scenario::IDS {
        let a = run(id);
        let b = run(id);
        assert_eq!(a, b, "{id} is not deterministic");
        assert_eq!(trace_text(&a), trace_text(&b));
    }
}

#[test]
fn another_seed_gives_other_keys_and_jitter() {
    let mut other = scenario("key");
    other.seed = 2;
    let a = run("key");
    let b = run_scenario(&other);
    assert_ne!(
        requests(&a)[0].idempotency_key,
        requests(&b)[0].idempotency_key
    );
    // The story's outcome does not depend on the seed.
    assert_eq!(a.verdict().money, b.verdict().money);
}

#[test]
fn stepping_a_clone_is_stepping_the_original() {
    let mut world = World::new(&scenario("crash-one-tx"));
    for _ in 0..7 {
        world.step();
    }
    let mut copy = world.clone();
    for steps in 0.. {
        assert!(
            steps < STEP_BOUND,
            "the run settles within {STEP_BOUND} steps"
        );
        if world.step().is_none() {
            break;
        }
        copy.step();
        assert_eq!(world, copy);
    }
    assert!(copy.step().is_none());
}

/// Steps `world` until a packet the student may act on is in flight on the phone's link.
fn step_to_a_faultable_packet(world: &mut World) -> idem_core::MsgId {
    for _ in 0..10_000 {
        if let Some(m) = world.network().in_flight().find(|m| m.is_faultable()) {
            return m.id;
        }
        assert!(
            world.step().is_some(),
            "the run ended without a packet on the phone's link"
        );
    }
    panic!("no packet on the phone's link within 10 000 steps")
}

#[test]
fn replay_rebuilds_any_step_of_a_run_with_injected_faults() {
    use idem_core::Note;
    let baseline = run("key");
    let mut world = World::new(&scenario("key"));
    let request = step_to_a_faultable_packet(&mut world);
    let notes = world
        .apply(Action::Duplicate(request))
        .expect("a request on the phone's link can be duplicated")
        .notes
        .clone();
    let [Note::MessageDuplicated { msg, copy }] = notes.as_slice() else {
        panic!("duplicating #{} said {notes:?}", request.0);
    };
    assert_eq!(*msg, request);
    let copy = *copy;
    let notes = world
        .apply(Action::Delay(copy, 500))
        .expect("the copy is in flight on the phone's link")
        .notes
        .clone();
    assert_eq!(notes, vec![Note::MessageDelayed { msg: copy, ms: 500 }]);
    assert_eq!(world.run(STEP_BOUND), idem_core::RunEnd::Quiescent);
    assert_eq!(world.injected().len(), 2, "both faults are recorded");
    // The faults took effect: the delayed copy reached the API while the original was in
    // progress and got 409; that answer took the lost ack, so the original's 201 arrived and
    // the phone never retried (the plain story retries and gets a replay).
    let copy_message = world.network().get(copy).expect("the copy exists");
    assert!(
        matches!(copy_message.fate, idem_core::net::Fate::Delivered(_)),
        "{:?}",
        copy_message.fate
    );
    assert_eq!(statuses_sent(&baseline), vec![201, 201]);
    assert_eq!(statuses_sent(&world), vec![409, 201]);
    assert!(!note_keys(&world).contains(&"client.resends"));
    assert_ne!(trace_text(&world), trace_text(&baseline));
    assert_eq!(world.processor().statement.len(), 1, "the key still holds");
    let snapshots: Vec<World> = (0..=world.steps().len() as u32)
        .map(|n| World::replay(world.scenario(), world.injected(), n).expect("replays"))
        .collect();
    let last = snapshots.last().expect("at least one");
    assert_eq!(last, &world);
    for (n, snapshot) in snapshots.iter().enumerate() {
        assert_eq!(snapshot.steps().len(), n, "replay to step {n}");
        assert_eq!(snapshot.steps(), &world.steps()[..n]);
    }
}

#[test]
fn faults_are_refused_with_a_reason_not_a_panic() {
    use idem_core::{ActionError, MsgId};
    let mut world = World::new(&scenario("naive"));
    assert_eq!(
        world.apply(Action::Drop(MsgId(99))).err(),
        Some(ActionError::NoSuchMessage(MsgId(99)))
    );
    assert_eq!(
        world.apply(Action::RetryNow).err(),
        Some(ActionError::NothingToRetry)
    );
    assert_eq!(
        world.apply(Action::OtherUserSameKey).err(),
        Some(ActionError::NoOperationYet)
    );
    while world
        .network()
        .in_flight()
        .all(|m| m.link == idem_core::Link::ClientApi)
    {
        // Bounded: a run that ends without an internal packet fails here instead of looping.
        assert!(
            world.step().is_some(),
            "the run ended before the API sent a packet to a backend"
        );
    }
    let internal = world
        .network()
        .in_flight()
        .next()
        .map(|m| m.id)
        .expect("an internal packet");
    assert_eq!(
        world.apply(Action::Drop(internal)).err(),
        Some(ActionError::NotOnMobileLink(internal))
    );
    world.run(STEP_BOUND);
    assert_eq!(
        world.apply(Action::Drop(MsgId(0))).err(),
        Some(ActionError::NotInFlight(MsgId(0)))
    );
}

/// Golden traces: every scenario's full trace, notes with their contents and the verdict,
/// against `tests/golden/<id>.trace`. Rewriting them is never a side effect of testing: run
/// `scripts/golden.sh` (the `golden` example) and review the diff.
#[test]
fn golden_traces() {
    assert!(
        std::env::var_os("UPDATE_GOLDEN").is_none(),
        "UPDATE_GOLDEN no longer rewrites golden traces from a test run: run scripts/golden.sh"
    );
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    for id in Scenario::IDS {
        let path = dir.join(format!("{id}.trace"));
        let actual = trace_text(&run(id));
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run scripts/golden.sh to create it",
                path.display()
            )
        });
        assert_eq!(
            actual, expected,
            "{id}: trace changed (scripts/golden.sh rewrites it; review the diff)"
        );
    }
    let files = std::fs::read_dir(&dir)
        .expect("the golden directory")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "trace"))
        })
        .count();
    assert_eq!(
        files,
        Scenario::IDS.len(),
        "one golden trace per scenario, no stale ones"
    );
}

/// What closes each shortest counter-example, against `tests/golden/closing.txt`: the
/// meaning replay behind every "would have prevented it" on the page (a fault replayed under
/// other protections at the moment it means, not at its step number), for every scenario at
/// k = 2. Rewritten only by `scripts/golden.sh`.
#[test]
fn golden_closing_protections() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/closing.txt");
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run scripts/golden.sh to create it",
            path.display()
        )
    });
    let actual = support::closing_text();
    assert!(actual.lines().count() > 200, "every scenario's classes");
    assert!(actual.contains(" -> none"), "some runs no pair closes");
    assert!(actual.contains(" -> key"), "{actual}");
    assert_eq!(
        actual, expected,
        "closing protections changed (scripts/golden.sh rewrites them; review the diff)"
    );
}
