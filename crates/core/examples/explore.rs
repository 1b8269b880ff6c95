//! Runs the fault explorer on every scenario: `cargo run --release -p idem-core --example explore -- 3`.

use std::time::Instant;

use idem_core::scenario::IDS;
use idem_core::{Bounds, Explorer, Scenario};

fn main() {
    let k: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2);
    let total = Instant::now();
    println!(
        "{:<26} {:>9} {:>9} {:>10} {:>10} {:>8}  shortest",
        "scenario", "runs", "states", "steps", "violating", "ms"
    );
    for id in IDS {
        let Ok(scenario) = Scenario::by_id(id) else {
            continue;
        };
        let start = Instant::now();
        let mut explorer = Explorer::new(&scenario, Bounds::faults(k));
        let report = explorer.run_to_end().clone();
        let shortest = report
            .shortest_overall()
            .map(|c| {
                format!(
                    "{} fault(s), {} steps: {:?} {:?}",
                    c.faults(),
                    c.steps,
                    c.invariant,
                    c.injected
                )
            })
            .unwrap_or_default();
        println!(
            "{:<26} {:>9} {:>9} {:>10} {:>10} {:>8.1}  {}",
            id,
            report.runs,
            report.states,
            report.steps,
            report.violating_runs,
            start.elapsed().as_secs_f64() * 1e3,
            shortest
        );
    }
    println!("total {:.1} ms", total.elapsed().as_secs_f64() * 1e3);
}
