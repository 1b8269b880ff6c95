//! Runs the fault explorer on every scenario and prints one row per scenario:
//! `cargo run --release -p idem-core --example explore -- 3 [--brute] [scenario ...]`.
//!
//! Columns: runs represented (every schedule within the bound), distinct situations remembered
//! (`Report::states`: where the search branched, and the meeting points of runs without faults
//! left), steps simulated (every step, remembered or not) — what the page shows —, violating runs, milliseconds (wall clock) and CPU milliseconds (on Linux:
//! the time this thread ran, which other work on a shared machine does not inflate much).
//! `--brute` runs the brute-force oracle instead (every schedule simulated one by one) for a
//! before/after comparison; `--threads N` the search cut into parts on N threads
//! (`explore_parallel`, the same report; situations and steps are the parts' own, summed).

use std::time::Instant;

use idem_core::explore_brute;
use idem_core::{explore_parallel, Bounds, Explorer, Scenario};

/// Nanoseconds this thread has run on a CPU (Linux `/proc/thread-self/schedstat`), if known.
fn cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

fn cpu_ms(since: Option<u64>) -> String {
    match (since, cpu_ns()) {
        (Some(a), Some(b)) => format!("{:.1}", (b.saturating_sub(a)) as f64 / 1e6),
        _ => "-".to_owned(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let k: u32 = args.first().and_then(|a| a.parse().ok()).unwrap_or(2);
    let brute = args.iter().any(|a| a == "--brute");
    let threads: Option<usize> = args
        .iter()
        .position(|a| a == "--threads")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok());
    let only: Vec<&str> = args
        .iter()
        .skip(1)
        .filter(|a| !a.starts_with("--") && a.parse::<usize>().is_err())
        .map(String::as_str)
        .collect();
    let total = Instant::now();
    let total_cpu = cpu_ns();
    let mut sums = (0u64, 0u64, 0u64);
    println!(
        "{:<26} {:>10} {:>10} {:>10} {:>10} {:>9} {:>9}  shortest",
        "scenario", "runs", "situations", "steps", "violating", "ms", "cpu ms"
    );
    for id in Scenario::IDS {
        if !only.is_empty() && !only.contains(&id) {
            continue;
        }
        let Ok(scenario) = Scenario::by_id(id) else {
            continue;
        };
        let start = Instant::now();
        let start_cpu = cpu_ns();
        let report = if brute {
            explore_brute(&scenario, Bounds::faults(k))
        } else if let Some(threads) = threads {
            explore_parallel(&scenario, Bounds::faults(k), threads)
        } else {
            Explorer::new(&scenario, Bounds::faults(k))
                .run_to_end()
                .clone()
        };
        let ms = start.elapsed().as_secs_f64() * 1e3;
        sums.0 += report.runs;
        sums.1 += report.states;
        sums.2 += report.steps;
        let shortest = report
            .shortest_overall()
            .map(|c| {
                format!(
                    "{} fault(s), {} steps, {} classes",
                    c.faults(),
                    c.steps,
                    report.shortest.len()
                )
            })
            .unwrap_or_default();
        println!(
            "{:<26} {:>10} {:>10} {:>10} {:>10} {:>9.1} {:>9}  {}",
            id,
            report.runs,
            report.states,
            report.steps,
            report.violating_runs,
            ms,
            cpu_ms(start_cpu),
            shortest
        );
    }
    println!(
        "{:<26} {:>10} {:>10} {:>10} {:>10} {:>9.1} {:>9}",
        "total",
        sums.0,
        sums.1,
        sums.2,
        "",
        total.elapsed().as_secs_f64() * 1e3,
        cpu_ms(total_cpu)
    );
}
