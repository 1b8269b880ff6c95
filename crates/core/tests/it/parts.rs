//! A search cut into parts (threads, Web Workers) merges into the report one search gives:
//! the same runs, violations, cut-offs and fault kinds tried, and the same shortest
//! counter-example per class, picked the same way among equally short ones. Only the work
//! differs (`states`, `steps`: situations two parts share are explored by both).

use idem_core::{explore_parallel, Bounds, Explorer, Part, Plan, Report, Scenario};

/// The report without the counts of work done.
fn found(report: &Report) -> Report {
    Report {
        states: 0,
        steps: 0,
        ..report.clone()
    }
}

/// Every scenario at k ≤ 2, on one to three threads, equals the single search; one part does
/// exactly the single search's work too: the same situations and steps (parts only add work
/// where two of them share situations).
#[test]
fn the_merged_report_equals_the_single_search_for_every_scenario() {
    for id in Scenario::IDS {
        let scenario = Scenario::by_id(id).expect("a scenario");
        for k in 1..=2 {
            let single = Explorer::new(&scenario, Bounds::faults(k))
                .run_to_end()
                .clone();
            assert!(single.runs > 0 && single.done, "{id} k={k}");
            for threads in [1, 3] {
                let parallel = explore_parallel(&scenario, Bounds::faults(k), threads);
                if threads == 1 {
                    assert_eq!(parallel, single, "{id} k={k}: one part, the same work");
                }
                assert_eq!(
                    found(&parallel),
                    found(&single),
                    "{id} k={k} on {threads} threads"
                );
            }
        }
    }
}

/// The merge does not depend on the order the units finish in, nor on which part explored
/// which: every unit in its own part, merged from the last to the first.
#[test]
fn the_merge_ignores_the_order_and_the_parts_of_the_units() {
    for id in ["key", "scope", "crash-window", "lease-expiry"] {
        let scenario = Scenario::by_id(id).expect("a scenario");
        let bounds = Bounds::faults(2);
        let plan = Plan::new(&scenario, bounds);
        assert!(plan.units() > 0, "{id}: the fault-free run offers faults");
        let mut parts = Vec::new();
        let mut outcomes = Vec::new();
        for unit in (0..plan.units() as u32).rev() {
            let mut part = Part::new(plan.clone());
            part.begin(unit).expect("a unit of the plan");
            // Explored in small slices: a unit resumes where it stopped.
            let mut slices = 0;
            let outcome = loop {
                let mut budget = 3;
                if let Some(o) = part.run_while(|| {
                    budget -= 1;
                    budget > 0
                }) {
                    break o;
                }
                slices += 1;
                assert!(slices < 1_000_000, "{id}: unit {unit} never ends");
            };
            assert_eq!(outcome.unit, unit);
            outcomes.push(outcome);
            parts.push((unit, part));
        }
        let merged = plan.merge(&outcomes);
        let rebuilt = merged
            .wanted
            .iter()
            .map(|w| {
                let (_, part) = parts.iter_mut().find(|(u, _)| *u == w.unit)?;
                part.rebuild(w)
            })
            .collect();
        let report = plan.finish(merged, rebuilt);
        let single = Explorer::new(&scenario, bounds).run_to_end().clone();
        assert_eq!(found(&report), found(&single), "{id}");
    }
}

/// A merge of some units is partial: not done, and never more runs than the whole.
#[test]
fn a_merge_of_some_units_is_partial() {
    let scenario = Scenario::by_id("key").expect("key");
    let plan = Plan::new(&scenario, Bounds::faults(2));
    let mut part = Part::new(plan.clone());
    part.begin(0).expect("unit 0");
    let first = part.run_while(|| true).expect("unit 0 finishes");
    let merged = plan.merge(&[first]);
    assert!(!merged.report.done);
    let single = Explorer::new(&scenario, Bounds::faults(2))
        .run_to_end()
        .clone();
    assert!(merged.report.runs < single.runs);
    assert!(part.begin(plan.units() as u32).is_none(), "no such unit");
}

/// Three parts at k = 3 on the heavier scenarios agree too (the page's largest search).
#[test]
fn three_parts_agree_at_k_3() {
    for id in ["key", "fully-protected"] {
        let scenario = Scenario::by_id(id).expect("a scenario");
        let single = Explorer::new(&scenario, Bounds::faults(3))
            .run_to_end()
            .clone();
        let parallel = explore_parallel(&scenario, Bounds::faults(3), 3);
        assert_eq!(found(&parallel), found(&single), "{id}");
    }
}

/// Every scenario at k = 3 on three threads (the page's heaviest searches): run by
/// `cargo test --release -p idem-core --test it -- parts:: --ignored` (about a minute natively).
#[test]
#[ignore]
fn every_scenario_agrees_at_k_3() {
    for id in Scenario::IDS {
        let scenario = Scenario::by_id(id).expect("a scenario");
        let single = Explorer::new(&scenario, Bounds::faults(3))
            .run_to_end()
            .clone();
        let parallel = explore_parallel(&scenario, Bounds::faults(3), 3);
        assert_eq!(found(&parallel), found(&single), "{id}");
    }
}

/// A unit's progress is readable while it runs and gone once it is over; a unit started again
/// keeps what its part remembered, so it does less work for the same runs.
#[test]
fn a_unit_shows_its_progress_and_a_restarted_one_keeps_its_memory() {
    let scenario = Scenario::by_id("key").expect("key");
    let plan = Plan::new(&scenario, Bounds::faults(2));
    assert_eq!(Part::new(plan.clone()).progress().map(|(u, _)| u), None);

    let mut fresh = Part::new(plan.clone());
    fresh.begin(1).expect("unit 1");
    let whole = fresh.run_while(|| true).expect("unit 1 finishes");
    assert!(whole.report.runs > 1 && whole.report.states > 0);

    let mut part = Part::new(plan.clone());
    part.begin(1).expect("unit 1");
    let mut budget = 20;
    assert!(part
        .run_while(|| {
            budget -= 1;
            budget > 0
        })
        .is_none());
    let (unit, so_far) = part.progress().expect("unit 1 is under way");
    assert_eq!(unit, 1);
    assert!(
        so_far.runs > 0 && so_far.runs < whole.report.runs,
        "{so_far:?}"
    );
    assert!(!so_far.done);
    part.begin(1).expect("unit 1 again");
    assert_eq!(part.progress().map(|(u, r)| (u, r.runs)), Some((1, 0)));
    let again = part.run_while(|| true).expect("unit 1 finishes");
    assert_eq!(part.progress().map(|(u, _)| u), None, "nothing under way");
    assert_eq!(found_runs(&again.report), found_runs(&whole.report));
    assert!(
        again.report.states < whole.report.states,
        "remembered situations are not explored again: {} vs {}",
        again.report.states,
        whole.report.states
    );
}

/// A unit's findings, without its work.
fn found_runs(report: &Report) -> (u64, u64, u64) {
    (report.runs, report.violating_runs, report.cut_off)
}
