//! "Try every failure": the explorer agrees with the scenario tests, and its counter-examples
//! replay to the same broken world.

mod support;

use idem_core::{Action, Bounds, Explorer, Invariant, Protections, Scenario, World};
use support::*;

fn explore(id: &str, k: u32) -> idem_core::Report {
    Explorer::new(&scenario(id), Bounds::faults(k))
        .run_to_end()
        .clone()
}

#[test]
fn the_fault_free_runs_are_all_fine() {
    for id in [
        "naive",
        "key",
        "cas",
        "counter-naive",
        "counter",
        "fully-protected",
    ] {
        let report = explore(id, 0);
        assert_eq!(report.runs, 1, "{id}: one run without faults");
        assert_eq!(report.violating_runs, 0, "{id}");
    }
}

#[test]
fn naive_post_breaks_with_one_fault_and_a_lost_ack_is_one_of_them() {
    let report = explore("naive", 1);
    assert!(report.violations_of(Invariant::AtMostOnce) > 0);
    let shortest = report.shortest_overall().expect("a counter-example");
    assert_eq!(shortest.faults(), 1);
    assert!(
        report.shortest.iter().any(|c| c.signature() == ["drop"]),
        "dropping the ack is among the ways: {:?}",
        report.shortest
    );
}

#[test]
fn every_counter_example_replays_to_a_broken_world() {
    for id in [
        "naive",
        "key",
        "crash-window",
        "counter-no-index",
        "scope-off",
    ] {
        let base = scenario(id).without_scripted_faults();
        for example in &explore(id, 1).shortest {
            let world = World::replay(&base, &example.injected, example.steps).expect("replays");
            assert!(world.is_quiescent(), "{id}: {example:?}");
            assert_eq!(world.step_count(), example.steps);
            let verdict = world.verdict();
            assert!(
                verdict.violations().any(|(i, _)| i == example.invariant),
                "{id}: {example:?} did not break {:?}",
                example.invariant
            );
        }
    }
}

#[test]
fn the_seed_key_design_breaks_with_a_crash_in_the_window() {
    let report = explore("key", 1);
    let crash = report
        .shortest
        .iter()
        .find(|c| c.invariant == Invariant::AtMostOnce && c.signature() == ["crash"])
        .expect("a crash breaks the Redis design without forwarding");
    // The window: after the processor charged, before the key's response is recorded.
    assert!(
        matches!(
            crash.injected[0].1,
            Action::Crash(idem_core::Phase::WriteLedger | idem_core::Phase::RecordKey)
        ),
        "{crash:?}"
    );
}

#[test]
fn every_protection_survives_every_schedule_up_to_three_faults() {
    let report = explore("fully-protected", 3);
    assert!(report.runs > 10_000, "a real search: {} runs", report.runs);
    assert_eq!(report.cut_off, 0);
    assert_eq!(report.violating_runs, 0, "{:?}", report.shortest);
}

#[test]
fn compare_and_set_never_debits_twice_up_to_three_faults() {
    let report = explore("cas", 3);
    assert_eq!(report.violations_of(Invariant::AtMostOnce), 0);
    assert_eq!(report.violations_of(Invariant::BalanceMatchesDebits), 0);
}

#[test]
fn op_id_needs_its_unique_index() {
    assert_eq!(explore("counter", 2).violating_runs, 0);
    let report = explore("counter-no-index", 1);
    assert!(report.violations_of(Invariant::LikesMatchOperations) > 0);
}

#[test]
fn the_search_is_deterministic_and_resumable() {
    let scenario = Scenario::by_id("key").expect("known");
    let whole = Explorer::new(&scenario, Bounds::faults(2))
        .run_to_end()
        .clone();
    let mut sliced = Explorer::new(&scenario, Bounds::faults(2));
    let mut slices = 0;
    while !sliced.run_for(100) {
        slices += 1;
    }
    assert!(slices > 5);
    assert_eq!(sliced.report(), &whole);
}

#[test]
fn turning_one_protection_off_is_found() {
    // Full protection minus forwarding and minus the shared transaction: a crash between the
    // charge and the key record charges twice once the lease runs out.
    let mut protections = Protections::ALL;
    protections.forward_key = false;
    protections.key_in_ledger_tx = false;
    let scenario = scenario("fully-protected").with_protections(protections);
    let report = Explorer::new(&scenario, Bounds::faults(1))
        .run_to_end()
        .clone();
    assert!(report.violations_of(Invariant::AtMostOnce) > 0);
}
