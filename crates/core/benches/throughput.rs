//! Throughput of the simulation core: `cargo bench -p idem-core --bench throughput`.
//!
//! Prints figures, asserts nothing: timings on a shared machine are noisy, so compare ratios
//! between lines of one run rather than absolute numbers across runs.

use idem_core::{Scenario, World};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Runs `f` repeatedly for about `budget` and returns (iterations, elapsed).
fn measure(budget: Duration, mut f: impl FnMut() -> usize) -> (usize, usize, Duration) {
    let start = Instant::now();
    let (mut iterations, mut units) = (0usize, 0usize);
    while start.elapsed() < budget {
        units += f();
        iterations += 1;
    }
    (iterations, units, start.elapsed())
}

fn main() {
    let budget = Duration::from_millis(
        std::env::var("BENCH_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(400),
    );
    let scenarios: Vec<Scenario> = Scenario::IDS
        .iter()
        .filter_map(|id| Scenario::by_id(id).ok())
        .collect();

    println!(
        "{:<26} {:>7} {:>14} {:>14}",
        "scenario", "steps", "runs/s", "steps/s"
    );
    let mut total_steps = 0usize;
    let mut total_secs = 0f64;
    for scenario in &scenarios {
        let (runs, steps, elapsed) = measure(budget, || {
            let mut world = World::new(black_box(scenario));
            world.run(10_000);
            black_box(world.steps().len())
        });
        let secs = elapsed.as_secs_f64();
        total_steps += steps;
        total_secs += secs;
        println!(
            "{:<26} {:>7} {:>14.0} {:>14.0}",
            scenario.id,
            steps / runs.max(1),
            runs as f64 / secs,
            steps as f64 / secs
        );
    }
    println!(
        "{:<26} {:>7} {:>14} {:>14.0}",
        "all scenarios",
        "",
        "",
        total_steps as f64 / total_secs
    );

    // Time travel keeps a snapshot per step: how does a clone compare with a step?
    let mut world = World::new(&scenarios[1]);
    world.run(10_000);
    let (clones, _, elapsed) = measure(budget, || {
        black_box(world.clone());
        1
    });
    let clone_ns = elapsed.as_nanos() as f64 / clones as f64;
    let step_ns = total_secs * 1e9 / total_steps as f64;
    println!(
        "clone of a finished '{}' world: {clone_ns:.0} ns = {:.1} steps",
        world.scenario().id,
        clone_ns / step_ns
    );

    let (verdicts, _, elapsed) = measure(budget, || {
        black_box(world.verdict());
        1
    });
    println!(
        "verdict of that world: {:.0} ns",
        elapsed.as_nanos() as f64 / verdicts as f64
    );
}
