//! How much memory a long run of the player takes (issue #44 item 4; the figures are in
//! docs/measurements.md). Plays a run of `steps` steps the way the page does, one
//! `step_forward` at a time, the student starting a new payment (`Action::Start`) whenever the
//! last one has settled, then prints the peak resident memory (`VmHWM` in /proc/self/status)
//! and the time taken. A benchmark, not a test: its figures depend on the machine.
//!
//! cargo run --release -p idem-lesson --example run_memory -- [steps] [--compare]
//!   (--compare: the same on a comparison, two worlds on one timeline)
use idem_core::{Action, DeepLink};
use idem_lesson::playback::Run;
use std::time::Instant;

/// A `/proc/self/status` figure in kB (0 where there is no /proc).
fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let steps: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(10_000);
    let compare = args.iter().any(|a| a == "--compare");
    let query = if compare {
        "scenario=naive&compare=key&base=1"
    } else {
        "scenario=naive&base=1"
    };
    let link = DeepLink::parse(query).expect("a valid link");
    let start = link
        .scenario()
        .expect("a scenario")
        .script
        .iter()
        .find_map(|s| matches!(s.action, Action::Start(_)).then_some(s.action))
        .expect("the scenario starts a payment");
    let base_kb = status_kb("VmHWM:");
    let clock = Instant::now();
    let mut run = Run::from_link(&link).expect("builds");
    let mut payments = 1;
    while run.cursor() < steps {
        if !run.step_forward() {
            run.apply(start).expect("a new payment can start");
            payments += 1;
        }
    }
    let elapsed = clock.elapsed();
    let peak_kb = status_kb("VmHWM:");
    println!(
        "{} steps{} ({payments} payments, {} known): peak RSS {} kB ({} kB over the start), {:.2} s",
        run.cursor(),
        if compare { ", compare" } else { "" },
        run.known_steps(),
        peak_kb,
        peak_kb.saturating_sub(base_kb),
        elapsed.as_secs_f64(),
    );
}
