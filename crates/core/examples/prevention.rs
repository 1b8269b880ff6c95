//! Measures "would have prevented it" (`check_prevention`) on the runs and on the
//! heaviest scenario at 1 to 3 faults: `cargo run --release -p idem-core --example prevention`.

use std::time::Instant;

use idem_core::{check_prevention, Action, Bounds, Challenge, Explorer, Scenario};

fn show(label: &str, scenario: &Scenario, injected: &[(u32, Action)]) {
    let start = Instant::now();
    let p = check_prevention(scenario, injected);
    let ms = start.elapsed().as_secs_f64() * 1e3;
    println!(
        "{label}: {} faults {:?} {:?} in {ms:.0} ms",
        p.faults, p.kinds, p.scope
    );
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
    // The heaviest: scope at 3 faults. Every 3-fault counter-example of its k = 3 search (each
    // class: invariant and fault kinds), checked; the slowest is the figure.
    let scope = Scenario::by_id("scope")
        .expect("scope")
        .without_scripted_faults();
    let report = Explorer::new(&scope, Bounds::faults(3))
        .run_to_end()
        .clone();
    let mut worst = (0.0f64, Vec::new());
    let mut slowest = Vec::new();
    let mut times = Vec::new();
    for cx in report.shortest.iter().filter(|c| c.faults() == 3) {
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
        "scope k=3: {} runs of 3 faults checked; median {:.0} ms, slowest {:.0} ms ({:?})",
        times.len(),
        times.get(times.len() / 2).copied().unwrap_or(0.0),
        worst.0,
        worst.1
    );
    show("scope slowest", &scope, &slowest);
    // A run that every protection lets through except a full search: three kinds, nothing
    // breaks with the deadline on.
    let three = [
        (2, Action::LoseNextAck),
        (3, Action::RetryNow),
        (4, Action::RetryNow),
    ];
    show("scope lose-ack + 2 retries", &scope, &three);
}

/// The slowest check's claims one by one (`PROFILE=1`): where its time goes.
#[allow(dead_code)]
fn profile(scenario: &Scenario, injected: &[(u32, Action)]) {
    for x in idem_core::Protection::ALL {
        if scenario.protections.is_on(x) {
            continue;
        }
        let mut p = scenario.protections;
        p.set_on(x, true);
        let design = scenario.clone().with_protections(p);
        let start = Instant::now();
        let one = check_prevention(&design, injected);
        let _ = one;
        println!(
            "  with {}: {:.0} ms (its whole check)",
            x.name(),
            start.elapsed().as_secs_f64() * 1e3
        );
    }
}
