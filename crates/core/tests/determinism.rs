//! Same inputs, same run: the property that makes time travel, deep links and the explorer
//! possible. Plus one golden trace per scenario, so any change of behaviour is a visible diff.

mod support;

use idem_core::scenario::IDS;
use idem_core::{Action, World};
use support::*;

#[test]
fn the_same_seed_gives_the_same_world_for_every_scenario() {
    for id in IDS {
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
    while world.step().is_some() {
        copy.step();
        assert_eq!(world, copy);
    }
    assert!(copy.step().is_none());
}

#[test]
fn replay_rebuilds_any_step_of_a_run_with_injected_faults() {
    let mut world = World::new(&scenario("key"));
    for _ in 0..3 {
        world.step();
    }
    let request = world
        .network()
        .in_flight()
        .next()
        .map(|m| m.id)
        .expect("a packet in flight");
    let _ = world.apply(Action::Duplicate(request));
    world.step();
    world.apply(Action::LoseNextAck).expect("always applicable");
    world.run(STEP_BOUND);
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
        world.step();
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

#[test]
fn golden_traces() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    for id in IDS {
        let path = dir.join(format!("{id}.trace"));
        let actual = trace_text(&run(id));
        if update {
            std::fs::write(&path, &actual).expect("write golden");
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run with UPDATE_GOLDEN=1 to create it",
                path.display()
            )
        });
        assert_eq!(
            actual, expected,
            "{id}: trace changed (UPDATE_GOLDEN=1 rewrites it after review)"
        );
    }
}
