//! A search cut into parts (threads, Web Workers) merges into the report one search gives:
//! the same runs, violations, cut-offs and fault kinds tried, and the same shortest
//! counter-example per class, picked the same way among equally short ones. Only the work
//! differs (`states`, `steps`: situations two parts share are explored by both).

mod support;

use idem_core::{explore_parallel, Bounds, Explorer, Part, Plan, Report, Scenario};

/// The report without the counts of work done.
fn found(report: &Report) -> Report {
    Report {
        states: 0,
        steps: 0,
        ..report.clone()
    }
}

/// Every scenario at k ≤ 2, on one to three threads, equals the single search.
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
/// `cargo test --release -p idem-core --test parts -- --ignored` (about a minute natively).
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
