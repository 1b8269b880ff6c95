//! Idempotency Lab's search worker: "Try every failure" off the page's main thread.
//!
//! The page starts one Web Worker per spare core, each running this crate's wasm (the core and
//! its explorer, no Leptos), and talks to them with [`Request`]s and [`Reply`]s ([`protocol`]),
//! converted with `serde-wasm-bindgen` on both sides. Every worker builds the same [`Plan`] (the
//! search cut into units); the page hands each one unit at a time, the worker explores it as a
//! [`Part`] (telling its progress as it goes) and answers its [`idem_core::UnitOutcome`]. When
//! every unit is in, one worker merges them ([`Plan::merge`]), the workers that explored the
//! units behind the chosen counter-examples rebuild them, and the merging worker puts the report
//! together ([`Plan::finish`]): the report a single search gives.
//!
//! Both sides of that protocol are here without the browser, so they are tested natively:
//! [`Worker`] answers requests, and [`Coordinator`] is the page's side (who gets which request,
//! what the page is told), driven by events. The page links only the coordinator and the
//! protocol's types, never the explorer; the worker's browser glue (its message loop, and the
//! `Search` class the page drives on its main thread where a worker cannot start) is in the
//! binary (`src/main.rs`), so its exports never reach the page's wasm.

use idem_core::{check_prevention, Bounds, Explorer, Merged, Part, Plan, Report, Scenario};

pub mod coordinator;
pub mod protocol;

pub use coordinator::{on_check_reply, CheckStep, Coordinator, Step};
pub use protocol::{Explored, Held, Reply, Request};

/// Milliseconds of search between two progress replies (the page shows progress at least every
/// 250 ms).
pub const PROGRESS_MS: f64 = 100.0;

/// One worker's side of the protocol: its plan, its part and the merge it may be asked for.
#[derive(Debug, Default)]
pub struct Worker {
    part: Option<Part>,
    merged: Option<Merged>,
}

impl Worker {
    /// A worker without a plan.
    pub fn new() -> Worker {
        Worker::default()
    }

    /// Answers `request`, sending each reply to `send` as it comes (a unit's progress every
    /// [`PROGRESS_MS`] of `now`, a clock in milliseconds).
    pub fn handle(&mut self, request: Request, now: impl Fn() -> f64, mut send: impl FnMut(Reply)) {
        let refused = |reason: &str| Reply::Refused {
            reason: reason.to_owned(),
        };
        match request {
            Request::Plan { scenario, k } => {
                let plan = Plan::new(&scenario, Bounds::faults(k));
                let units = plan.units() as u32;
                self.part = Some(Part::new(plan));
                self.merged = None;
                send(Reply::Planned { units });
            }
            Request::Unit { unit } => {
                let Some(part) = self.part.as_mut() else {
                    return send(refused("no plan"));
                };
                if part.begin(unit).is_none() {
                    return send(refused("no such unit"));
                }
                loop {
                    let start = now();
                    if let Some(outcome) = part.run_while(|| now() - start < PROGRESS_MS) {
                        return send(Reply::Done { outcome });
                    }
                    if let Some((unit, report)) = part.progress() {
                        send(Reply::Progress {
                            unit,
                            report: report.clone(),
                        });
                    }
                }
            }
            Request::Merge { outcomes } => {
                let Some(part) = self.part.as_ref() else {
                    return send(refused("no plan"));
                };
                let merged = part.plan().merge(&outcomes);
                let wanted = merged.wanted.clone();
                self.merged = Some(merged);
                send(Reply::Merged { wanted });
            }
            Request::Rebuild { wanted } => {
                let Some(part) = self.part.as_mut() else {
                    return send(refused("no plan"));
                };
                let rebuilt = wanted.iter().map(|w| part.rebuild(w)).collect();
                send(Reply::Rebuilt { rebuilt });
            }
            Request::Finish { rebuilt } => {
                let (Some(part), Some(merged)) = (self.part.as_ref(), self.merged.take()) else {
                    return send(refused("no merge"));
                };
                let report = part.plan().finish(merged, rebuilt);
                send(Reply::Finished { report });
            }
            Request::Prevent { scenario, injected } => {
                let prevention = check_prevention(&scenario, &injected);
                send(Reply::Prevented { prevention });
            }
        }
    }
}

/// A whole search in one place, in time slices: the main thread's fallback where workers
/// cannot start, driven by the page between animation frames (through the binary's `Search`).
#[derive(Debug)]
pub struct Sliced {
    explorer: Explorer,
}

impl Sliced {
    /// A search of `scenario` with up to `k` faults.
    pub fn new(scenario: &Scenario, k: u32) -> Sliced {
        Sliced {
            explorer: Explorer::new(scenario, Bounds::faults(k)),
        }
    }

    /// Searches while `more` says so; true when the search is complete.
    pub fn run_while(&mut self, more: impl FnMut() -> bool) -> bool {
        self.explorer.run_while(more)
    }

    /// The report so far.
    pub fn report(&self) -> &Report {
        self.explorer.report()
    }
}
