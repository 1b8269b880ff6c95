//! The explorer's bookkeeping that only saves work: straight runs looked up instead of
//! simulated again, and when a remembered run may stand for a new one. The oracle tests
//! (tests/it/explorer.rs) check that the reports agree; these check that the work is saved.

use super::search::worth_recording;
use super::summary::{invariant_index, Straight};
use super::*;
use crate::action::{Action, KindCounts};
use crate::phase::Phase;
use crate::scenario::Scenario;
use crate::time::HOUR;
use crate::world::World;

/// The choice "take the next step", as the edge a played-out run hangs by.
const STEP_EDGE: Edge = Edge {
    choice: STEP,
    kind: None,
};

/// `naive` after its first step (the request on its way), with no fault left to inject, and
/// the same situation one step later: an eviction with nothing to evict changes nothing.
fn a_situation_twice() -> (Explorer, World, World) {
    let scenario = Scenario::by_id("naive").expect("known");
    let explorer = Explorer::new(&scenario, Bounds::faults(1));
    let mut world = explorer.root.clone();
    assert!(world.step().is_some(), "the story starts");
    let mut later = world.clone();
    later.apply(Action::EvictKeys).expect("always applies");
    assert_eq!(later.view(false), world.view(false), "the same situation");
    assert_eq!(later.step_count(), world.step_count() + 1);
    (explorer, world, later)
}

#[test]
fn a_straight_run_met_again_is_looked_up_not_simulated() {
    let (mut explorer, world, later) = a_situation_twice();
    explorer.play_out(world.clone(), STEP_EDGE);
    let first = explorer.last_run.expect("played out");
    let work = (explorer.report.states, explorer.report.steps);
    assert_eq!(work.0, 1, "one situation simulated");
    assert!(work.1 > 5, "its run simulated: {work:?}");
    // Met again at the same step count: looked up.
    explorer.play_out(world, STEP_EDGE);
    assert_eq!((explorer.report.states, explorer.report.steps), work);
    // Met again one step later: the run is as long and fits under the bound, so it is the
    // same run, looked up too.
    explorer.play_out(later, STEP_EDGE);
    assert_eq!((explorer.report.states, explorer.report.steps), work);
    let again = explorer.last_run.expect("looked up");
    assert_eq!(
        (again.broken, again.cut, again.steps, again.at_step),
        (first.broken, first.cut, first.steps, first.at_step + 1)
    );
    assert_eq!(explorer.top.runs, 3, "each meeting is a run represented");
}

#[test]
fn a_remembered_run_stands_for_a_new_one_only_where_the_bound_allows() {
    let (mut explorer, world, _) = a_situation_twice();
    explorer.play_out(world.clone(), STEP_EDGE);
    let run = explorer.last_run.expect("played out");
    let end = world.step_count() + run.steps;
    assert!(!run.cut);
    // At its own step count, always; elsewhere only while it still ends within the bound.
    assert!(run.valid_at(run.at_step, 0));
    assert!(run.valid_at(run.at_step + 1, end + 1));
    assert!(run.valid_at(run.at_step + 1, end + 1 + 7));
    assert!(!run.valid_at(run.at_step + 1, end));
    // A run the bound cut off stands only for itself.
    let cut = Straight { cut: true, ..run };
    assert!(cut.valid_at(run.at_step, 0));
    assert!(!cut.valid_at(run.at_step + 1, u32::MAX));
}

#[test]
fn runs_are_remembered_where_they_can_meet() {
    let scenario = Scenario::by_id("naive").expect("known");
    let mut world = Explorer::new(&scenario, Bounds::faults(1)).root;
    // A step that put a packet on the wire, nothing armed: runs part here, not meet.
    let sent = world.step().map(|s| s.sent.len());
    assert_eq!(sent, Some(1), "the request leaves");
    assert!(!worth_recording(&world));
    // A step that sent nothing (here: an eviction with nothing to evict).
    let mut quiet = world.clone();
    quiet.apply(Action::EvictKeys).expect("always applies");
    assert!(worth_recording(&quiet));
    // A crash still armed, even after a step that sent something.
    let mut armed = world.clone();
    armed.apply(Action::Crash(Phase::Respond)).expect("applies");
    let mut steps = 0;
    while armed.step().is_some_and(|s| s.sent.is_empty()) {
        steps += 1;
        assert!(steps < 100, "a packet is sent");
    }
    assert!(armed.api().crash_armed().is_some(), "not fired yet");
    assert!(worth_recording(&armed));
    // The phone waking up.
    let mut woken = world.clone();
    woken
        .apply(Action::AdvanceClock(25 * HOUR))
        .expect("an operation is open");
    let mut steps = 0;
    while woken.client_offline_until().is_some() {
        woken.step();
        steps += 1;
        assert!(steps < 100, "the phone wakes");
    }
    assert_eq!(
        woken.steps().last().map(|s| &s.cause),
        Some(&crate::world::Cause::ClientWake)
    );
    assert!(worth_recording(&woken));
}

#[test]
fn a_remembered_subtree_stands_for_a_new_one_only_where_the_bound_allows() {
    // Explored at step 3, its longest run 5 steps: it stands for the same situation met at
    // step 4 if 4 + 5 steps still fit under the bound, and always at step 3.
    let summary = Summary {
        runs: 12,
        longest: 5,
        at_step: 3,
        ..Summary::default()
    };
    assert!(summary.valid_at(3, 0));
    assert!(summary.valid_at(4, 9));
    assert!(summary.valid_at(2, 7));
    assert!(!summary.valid_at(4, 8));
    // One of its runs was cut off: it stands only for itself.
    let cut = Summary {
        cut_off: 1,
        ..summary.clone()
    };
    assert!(cut.valid_at(3, 0));
    assert!(!cut.valid_at(4, u32::MAX));
}

#[test]
fn a_situation_with_faults_left_is_counted_once_and_explored() {
    let (mut explorer, world, _) = a_situation_twice();
    explorer.enter(world.clone(), 1, STEP_EDGE);
    assert_eq!(explorer.report.states, 1, "a distinct situation");
    assert_eq!(explorer.stack.len(), 1, "to be explored");
    let frame = explorer.stack.last().expect("pushed");
    assert_eq!(frame.faults, faults(&world));
    assert_eq!(frame.key, (world.view(true), 1));
}

#[test]
fn a_played_out_run_remembers_its_start_and_the_meeting_points_on_its_way() {
    let (mut explorer, mut world, _) = a_situation_twice();
    // The answer will be lost: its loss sends nothing, and the client retries later.
    world.apply(Action::LoseNextAck).expect("always applies");
    explorer.play_out(world.clone(), STEP_EDGE);
    // The same run stepped by hand: where a run can meet another (and goes on), it is
    // remembered; where it cannot, it is not.
    let mut expected = vec![world.view(false)];
    let mut passed_by = 0;
    let mut run = world;
    while run.step().is_some() && !run.is_quiescent() {
        if worth_recording(&run) {
            expected.push(run.view(false));
        } else {
            passed_by += 1;
        }
    }
    assert!(
        expected.len() > 1 && passed_by > 0,
        "both kinds of step: {} {passed_by}",
        expected.len()
    );
    let mut remembered: Vec<u128> = explorer.straight.keys().copied().collect();
    remembered.sort_unstable();
    expected.sort_unstable();
    assert_eq!(remembered, expected);
}

#[test]
fn a_played_out_run_knows_how_long_its_armed_crash_stays_armed() {
    let (mut explorer, mut world, _) = a_situation_twice();
    world
        .apply(Action::Crash(Phase::Respond))
        .expect("always applies");
    explorer.play_out(world.clone(), STEP_EDGE);
    let run = explorer.last_run.expect("played out");
    // By hand: the steps after which the crash is still armed.
    let mut armed = 0;
    while world.step().is_some() && world.api().crash_armed().is_some() {
        armed += 1;
        assert!(armed < 100, "the crash fires");
    }
    assert!(armed > 1, "armed for a while: {armed}");
    assert_eq!(run.armed, armed);
}

#[test]
fn a_run_that_meets_a_remembered_one_adds_up_how_long_the_crash_stays_armed() {
    let (mut explorer, mut world, _) = a_situation_twice();
    world
        .apply(Action::Crash(Phase::Respond))
        .expect("always applies");
    // The same line one step further first: the run from `world` meets it after a step.
    let mut further = world.clone();
    further.step();
    assert!(further.api().crash_armed().is_some());
    explorer.play_out(further.clone(), STEP_EDGE);
    let rest = explorer.last_run.expect("played out").armed;
    let states = explorer.report.states;
    explorer.play_out(world, STEP_EDGE);
    assert_eq!(explorer.report.states, states + 1, "one more situation");
    let run = explorer.last_run.expect("met the remembered run");
    assert!(rest > 0);
    assert_eq!(run.armed, rest + 1);
}

#[test]
fn a_played_out_run_is_kept_under_every_invariant_it_breaks() {
    // What a search stopped early shows: each simulated run is kept under each invariant it
    // breaks, not only the first.
    let mut beyond_the_first = 0;
    for id in [
        "naive",
        "counter-naive",
        "cas-naive",
        "crash-window",
        "missing-key",
    ] {
        for fault in [Action::LoseNextAck, Action::Crash(Phase::WriteLedger)] {
            let scenario = Scenario::by_id(id).expect("known");
            let mut explorer = Explorer::new(&scenario, Bounds::faults(1));
            let mut world = explorer.root.clone();
            world.step();
            if world.apply(fault).is_err() {
                continue;
            }
            let mut ended = world.clone();
            assert_eq!(ended.run(300), crate::world::RunEnd::Quiescent, "{id}");
            let broken: Vec<u8> = ended
                .verdict()
                .violations()
                .map(|(i, _)| invariant_index(i) as u8)
                .collect();
            beyond_the_first += broken.iter().filter(|i| **i > 0).count();
            explorer.play_out(world, STEP_EDGE);
            let mut kept: Vec<u8> = explorer.found.iter().map(|f| f.0).collect();
            kept.sort_unstable();
            assert_eq!(kept, broken, "{id}, {fault:?}");
        }
    }
    assert!(
        beyond_the_first > 0,
        "some run breaks another invariant than the first"
    );
}

#[test]
fn the_running_report_keeps_the_shortest_run_per_invariant_and_fault_kinds() {
    let scenario = Scenario::by_id("naive").expect("known");
    let mut explorer = Explorer::new(&scenario, Bounds::faults(2));
    // A run with `fault` injected after `before` steps, then `after` more steps.
    let run = |before: u32, fault: Action, after: u32| {
        let mut world = explorer.root.clone();
        for _ in 0..before {
            world.step();
        }
        world.apply(fault).expect("applies");
        for _ in 0..after {
            world.step();
        }
        world
    };
    let a = run(1, Action::LoseNextAck, 5);
    let same_length = run(2, Action::LoseNextAck, 4);
    let shorter = run(1, Action::LoseNextAck, 3);
    let other_kind = run(1, Action::Crash(Phase::Respond), 5);
    assert_eq!(a.step_count(), same_length.step_count());
    assert_ne!(a.injected(), same_length.injected());
    // (invariant, injected actions, steps) of each run kept.
    type Kept = (u8, Vec<(u32, Action)>, u32);
    let kept = |e: &Explorer| -> Vec<Kept> {
        e.found
            .iter()
            .map(|f| (f.0, f.2.injected.clone(), f.2.steps))
            .collect()
    };
    let entry = |i: u8, w: &World| (i, w.injected().to_vec(), w.step_count());
    explorer.note_found(&a, [0].into_iter());
    explorer.note_found(&same_length, [0].into_iter());
    assert_eq!(
        kept(&explorer),
        [entry(0, &a)],
        "the first of equal length stays"
    );
    explorer.note_found(&shorter, [0].into_iter());
    explorer.note_found(&a, [0].into_iter());
    assert_eq!(kept(&explorer), [entry(0, &shorter)], "the shortest");
    explorer.note_found(&other_kind, [0].into_iter());
    explorer.note_found(&a, [1].into_iter());
    assert_eq!(
        kept(&explorer),
        [entry(0, &shorter), entry(0, &other_kind), entry(1, &a)],
        "one per invariant and kinds"
    );
}

#[test]
fn the_running_report_counts_the_runs_finished_so_far() {
    let scenario = Scenario::by_id("naive").expect("known");
    let mut explorer = Explorer::new(&scenario, Bounds::faults(1));
    let mut seen_while_running = 0;
    let mut slices = 0;
    while !explorer.run_for(1) {
        seen_while_running = seen_while_running.max(explorer.report().runs);
        slices += 1;
        assert!(slices < 2_000, "the search ends");
    }
    let total = explorer.report().runs;
    assert!(
        seen_while_running > 0 && seen_while_running <= total,
        "{seen_while_running} of {total}"
    );
}

#[test]
fn a_parent_counts_its_longest_run_from_where_it_stands() {
    // A child whose longest run has 5 steps hangs one step below its parent: 6 from there;
    // the top takes it as it is.
    let child = Summary {
        runs: 1,
        longest: 5,
        ..Summary::default()
    };
    let mut parent = Summary::default();
    parent.absorb(&child, STEP_EDGE, 1);
    assert_eq!(parent.longest, 6);
    let mut top = Summary::default();
    top.absorb(&child, STEP_EDGE, 0);
    assert_eq!(top.longest, 5);
    // A straight run of 4 steps, one step below: 5.
    let run = Straight {
        broken: 0,
        cut: false,
        steps: 4,
        at_step: 0,
        armed: 0,
    };
    let mut parent = Summary::default();
    parent.absorb_straight(&run, STEP_EDGE);
    assert_eq!(parent.longest, 5);
}

#[test]
fn of_equally_short_counter_examples_the_first_found_is_kept() {
    let found = Best {
        invariant: 0,
        kinds: KindCounts::NONE,
        steps: 3,
        choice: END,
    };
    let child = Summary {
        runs: 1,
        violating: 1,
        best: vec![found],
        ..Summary::default()
    };
    let edge = |choice| Edge { choice, kind: None };
    let mut parent = Summary::default();
    parent.absorb(&child, edge(7), 1);
    parent.absorb(&child, edge(9), 1);
    let kept = |s: &Summary| {
        s.best
            .iter()
            .map(|b| (b.steps, b.choice))
            .collect::<Vec<_>>()
    };
    assert_eq!(kept(&parent), [(4, 7)], "the first of two as short");
    // A shorter one takes its place.
    let shorter = Summary {
        best: vec![Best { steps: 1, ..found }],
        ..child.clone()
    };
    parent.absorb(&shorter, edge(11), 1);
    assert_eq!(kept(&parent), [(2, 11)]);
    // The same for straight runs: the first of two as short stays.
    let run = Straight {
        broken: 1,
        cut: false,
        steps: 2,
        at_step: 0,
        armed: 0,
    };
    let mut parent = Summary::default();
    parent.absorb_straight(&run, edge(7));
    parent.absorb_straight(&run, edge(9));
    assert_eq!(kept(&parent), [(3, 7)]);
}

#[test]
fn the_first_slice_of_one_unit_enters_the_root_only() {
    let scenario = Scenario::by_id("naive").expect("known");
    let mut explorer = Explorer::new(&scenario, Bounds::faults(1));
    assert!(!explorer.run_for(1));
    assert_eq!(explorer.stack.len(), 1, "the root is entered");
    assert_eq!(
        explorer.stack[0].next, 0,
        "and none of its faults is tried yet"
    );
    assert_eq!(explorer.report.states, 1);
}
