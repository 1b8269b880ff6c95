//! The view the search merges situations by, and what the search counts and carries.

use super::summary::Straight;
use super::*;
use crate::action::Action;
use crate::phase::Phase;
use crate::scenario::Scenario;
use crate::scenario::IDS;
use crate::time::SimTime;
use crate::time::HOUR;
use crate::world::World;

/// The scenario with every scripted input `shift` milliseconds later.
fn later(scenario: &Scenario, shift: u64) -> Scenario {
    let mut later = scenario.clone();
    for s in &mut later.script {
        s.at = s.at.plus(shift);
    }
    later
}

#[test]
fn the_view_sees_times_relative_to_now() {
    // The same run started later passes through situations with the same view at every
    // step, though every time in it differs; a different run does not.
    for id in IDS {
        let Ok(scenario) = Scenario::by_id(id) else {
            continue;
        };
        let mut a = World::new(&scenario);
        let mut b = World::new(&later(&scenario, 7_777));
        a.step();
        b.step();
        let mut steps = 0;
        while !a.is_quiescent() {
            assert!(steps < 2_000, "{id}: the run ends");
            assert_eq!(b.now(), a.now().plus(7_777), "{id}");
            assert_eq!(a.view(true), b.view(true), "{id} after {steps} steps");
            assert_eq!(a.view(false), b.view(false), "{id}");
            a.step();
            b.step();
            steps += 1;
        }
        assert!(b.is_quiescent(), "{id}");
        assert!(steps > 0, "{id}: a real run");
    }
}

#[test]
fn the_view_tells_different_situations_apart() {
    let scenario = Scenario::by_id("naive")
        .expect("known")
        .without_scripted_faults();
    let mut world = World::new(&scenario);
    world.step();
    let mut seen = vec![world.view(true)];
    while world.step().is_some() {
        assert!(seen.len() < 2_000, "the run ends");
        let view = world.view(true);
        assert!(
            !seen.contains(&view),
            "every step of a run changes the view"
        );
        seen.push(view);
    }
    // A fault changes it; a packet just sent is part of it only with `with_sent`.
    let mut world = World::new(&scenario);
    world.step();
    let sent = world.network().in_flight().next().map(|m| m.id);
    let mut dropped = world.clone();
    dropped
        .apply(Action::Drop(sent.expect("the request is in flight")))
        .expect("applies");
    assert_ne!(world.view(false), dropped.view(false));
    let mut armed = world.clone();
    armed.apply(Action::Crash(Phase::Respond)).expect("applies");
    assert_ne!(world.view(false), armed.view(false));
    // Arming a crash sends nothing: only which packets were just sent differs from before.
    assert_ne!(world.view(true), armed.view(true));
}

#[test]
fn a_key_past_its_expiry_counts_as_gone() {
    // The phone offline past the key TTL at two different moments: once it wakes, both
    // runs are in the same situation (the keys written at different times are gone).
    let scenario = Scenario::by_id("key")
        .expect("known")
        .without_scripted_faults();
    let offline_at = |steps: usize| {
        let mut world = World::new(&scenario);
        for _ in 0..steps {
            world.step();
        }
        world
            .apply(Action::AdvanceClock(25 * HOUR))
            .expect("the op is open");
        let mut left = 2_000;
        while world.client_offline_until().is_some() {
            assert!(left > 0, "the phone wakes");
            left -= 1;
            world.step();
        }
        world
    };
    let (a, b) = (offline_at(3), offline_at(4));
    assert_ne!(a.now(), b.now(), "woke at different times");
    assert_eq!(a.view(false), b.view(false));
    assert!(a.now() > SimTime(24 * HOUR));
}

#[test]
fn situations_counted_are_the_situations_remembered() {
    // The report's `states` is exactly what the search keeps to merge runs by: the
    // situations it branched at and those remembered on runs without faults left.
    for (id, k) in [("naive", 2), ("key", 2), ("crash-window", 1)] {
        let scenario = Scenario::by_id(id).expect("known");
        let mut explorer = Explorer::new(&scenario, Bounds::faults(k));
        let report = explorer.run_to_end().clone();
        let kept = explorer.memo.len() + explorer.straight.len();
        assert_eq!(report.states, kept as u64, "{id} k={k}");
        assert!(
            explorer.straight.len() > explorer.memo.len(),
            "{id}: both kinds"
        );
        assert!(report.steps > report.states, "{id}: steps between them");
    }
}

#[test]
fn a_carried_crash_is_the_run_it_stands_for() {
    // Every crash the explorer carried instead of simulating: simulating it gives the
    // same run (same verdict, same length).
    let scenario = Scenario::by_id("crash-window").expect("known");
    let mut explorer = Explorer::new(&scenario, Bounds::faults(1));
    let mut checked = 0;
    explorer.pending_root = false;
    let root = explorer.root.clone();
    explorer.enter(
        root,
        1,
        Edge {
            choice: END,
            kind: None,
        },
    );
    // Until the report is done: once the stack is empty, the last units rebuild the
    // counter-examples.
    let mut slices = 0;
    while !explorer.report.done {
        slices += 1;
        assert!(slices < 2_000, "the search ends");
        let Some(frame) = explorer.stack.last() else {
            explorer.run_for(1);
            continue;
        };
        if frame.next < frame.faults.len() {
            let action = frame.faults[frame.next];
            if let (Some(c), Some(world)) = (
                frame.carry.iter().find(|c| c.action == action),
                frame.world.as_ref(),
            ) {
                let mut child = world.clone();
                child.apply(action).expect("applies");
                let start = child.step_count();
                child.run(300);
                let played = Straight::of(&child, child.step_count() - start, start);
                assert_eq!(
                    (played.broken, played.cut, played.steps),
                    (c.run.broken, c.run.cut, c.run.steps),
                    "{action:?}"
                );
                checked += 1;
            }
        }
        explorer.run_for(1);
    }
    assert!(checked > 5, "crashes were carried: {checked}");
}
