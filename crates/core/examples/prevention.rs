//! Measures "would have prevented it" (`check_prevention`) on the runs and on the
//! heaviest scenario at 1 to 3 faults, and prints each run's page link (the slowest at each k
//! are the ones `tests/e2e/measure-prevent.mjs` opens):
//! `cargo run --profile release-worker -p idem-core --example prevention` (the worker's
//! optimisation; `PROFILE=1` also times each protection's search to its first break and to
//! its end, at each k: where a check's time goes).

use std::time::Instant;

use idem_core::{check_prevention, Action, Bounds, Challenge, DeepLink, Explorer, Scenario};

/// The page's link to the run of `scenario` (by id) with `injected`: what
/// `tests/e2e/measure-prevent.mjs` opens.
fn link(scenario: &Scenario, injected: &[(u32, Action)]) -> String {
    DeepLink {
        scenario: scenario.id.clone(),
        protections: Some(scenario.protections),
        faults: injected.to_vec(),
        base: !scenario.scripted_faults,
        ..DeepLink::default()
    }
    .to_query()
}

fn show(label: &str, scenario: &Scenario, injected: &[(u32, Action)]) {
    let start = Instant::now();
    let p = check_prevention(scenario, injected);
    let ms = start.elapsed().as_secs_f64() * 1e3;
    println!(
        "{label}: {} faults {:?} {:?} in {ms:.0} ms",
        p.faults, p.kinds, p.scope
    );
    let breaks = idem_core::World::replay(scenario, injected, 5_000).map(|mut w| {
        w.run(5_000);
        !w.verdict().ok()
    });
    println!("  ?{} (breaks: {breaks:?})", link(scenario, injected));
    for c in p.singles.iter().chain(p.pair.iter()) {
        let names: Vec<&str> = c.protections.iter().map(|x| x.name()).collect();
        let answer = match &c.answer {
            idem_core::ClaimAnswer::Breaks(cx) => {
                format!("breaks {:?} with {:?}", cx.invariant, cx.injected)
            }
            other => format!("{other:?}"),
        };
        println!("  {names:?} absent {:?}: {answer}", c.absent);
    }
}

fn main() {
    let lease = Challenge::by_id("lease-2").expect("lease-2");
    let design = lease.design().expect("design");
    // The challenge's winning schedule: the scripted lease-expiry run's pause and Retry.
    let run = Scenario::by_id("lease-expiry").expect("lease-expiry");
    let cx = Explorer::new(&design, Bounds::faults(2))
        .run_to_end()
        .shortest
        .iter()
        .find(|c| c.uses("pause") && c.uses("retry"))
        .cloned()
        .expect("pause + retry breaks it");
    show("lease-2 (explorer's pause+retry)", &design, &cx.injected);
    show("lease-expiry (scripted)", &run, &[]);
    for id in ["crash-window", "crash-no-forward", "ttl", "naive", "evict"] {
        show(id, &Scenario::by_id(id).expect("known"), &[]);
    }
    // The heaviest: scope at 1, 2 and 3 faults. Every counter-example of its k = 3 search
    // (each class: invariant and fault kinds) with that many faults, checked; the slowest at
    // each k is the figure.
    let scope = Scenario::by_id("scope")
        .expect("scope")
        .without_scripted_faults();
    let report = Explorer::new(&scope, Bounds::faults(3))
        .run_to_end()
        .clone();
    for k in 1..=3 {
        let mut worst = (0.0f64, Vec::new());
        let mut slowest = Vec::new();
        let mut times = Vec::new();
        for cx in report.shortest.iter().filter(|c| c.faults() == k) {
            let start = Instant::now();
            let p = check_prevention(&scope, &cx.injected);
            let ms = start.elapsed().as_secs_f64() * 1e3;
            times.push(ms);
            if ms > worst.0 {
                worst = (ms, p.kinds.clone());
                slowest = cx.injected.clone();
            }
        }
        times.sort_by(f64::total_cmp);
        println!(
            "scope k={k}: {} runs of {k} faults checked; median {:.0} ms, slowest {:.0} ms ({:?})",
            times.len(),
            times.get(times.len() / 2).copied().unwrap_or(0.0),
            worst.0,
            worst.1
        );
        show(&format!("scope k={k} slowest"), &scope, &slowest);
        if std::env::var_os("PROFILE").is_some() {
            profile(&scope, &slowest);
        }
    }
    // A run that every protection lets through except a full search: three kinds, nothing
    // breaks with the deadline on.
    let three = [
        (2, Action::LoseNextAck),
        (3, Action::RetryNow),
        (4, Action::RetryNow),
    ];
    show("scope lose-ack + 2 retries", &scope, &three);
}

/// Where the slowest check's time goes (`PROFILE=1`): per protection that is off, the search
/// of its design to the first break and to the end, at each k up to the run's.
fn profile(scenario: &Scenario, injected: &[(u32, Action)]) {
    let p = check_prevention(scenario, injected);
    let kinds = idem_core::KindSet::of(p.kinds.iter().copied());
    for x in idem_core::Protection::ALL {
        if scenario.protections.is_on(x) {
            continue;
        }
        let mut on = scenario.protections;
        on.set_on(x, true);
        let design = scenario
            .clone()
            .with_protections(on)
            .without_scripted_faults();
        let mut row = format!("  with {:>14}:", x.name());
        for k in 1..=p.faults {
            let start = Instant::now();
            let mut explorer = Explorer::new(&design, Bounds::faults(k).of_kinds(kinds));
            let mut first = None;
            loop {
                let done = explorer.run_for(512);
                if first.is_none() && explorer.report().violating_runs > 0 {
                    first = Some(start.elapsed().as_secs_f64() * 1e3);
                }
                if done {
                    break;
                }
            }
            let all = start.elapsed().as_secs_f64() * 1e3;
            row += &match first {
                Some(ms) => format!(" k={k} break at {ms:.0} ms (end {all:.0})"),
                None => format!(" k={k} none ({all:.0} ms)"),
            };
        }
        println!("{row}");
    }
}
