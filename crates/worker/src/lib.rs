//! Idempotency Lab's search worker: "Try every failure" off the page's main thread.
//!
//! The page starts one Web Worker per spare core, each running this crate's wasm (the core and
//! its explorer, no Leptos), and talks to them with [`Request`]s and [`Reply`]s, plain objects
//! converted with `serde-wasm-bindgen`. Every worker builds the same [`Plan`] (the search cut
//! into units); the page hands each one unit at a time, the worker explores it as a [`Part`]
//! (telling its progress as it goes) and answers its [`UnitOutcome`]. When every unit is in,
//! one worker merges them ([`Plan::merge`]), the workers that explored the units behind the
//! chosen counter-examples rebuild them, and the merging worker puts the report together
//! ([`Plan::finish`]): the report a single search gives.
//!
//! Where a worker cannot start (a host page's CSP, an old browser), the page imports this same
//! module on its main thread and drives a whole [`Search`] in time slices. Either way the
//! explorer's code stays out of the page's own wasm.
//!
//! [`Worker`] is the protocol without the browser, so it is tested natively.

use idem_core::{
    check_prevention, Action, Bounds, CounterExample, Explorer, Merged, Part, Plan, Prevention,
    Report, Scenario, UnitOutcome, Wanted,
};
use serde::{Deserialize, Serialize};

#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(target_arch = "wasm32")]
pub use web::{serve, Search};

/// Milliseconds of search between two progress replies (the page shows progress at least every
/// 250 ms).
pub const PROGRESS_MS: f64 = 100.0;

/// What the page asks a worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Request {
    /// Build the plan of a search of `scenario` with up to `k` faults.
    Plan {
        /// The design searched (its scripted faults are left out, as the explorer does).
        scenario: Scenario,
        /// The fault bound.
        k: u32,
    },
    /// Explore unit `unit` of the plan.
    Unit {
        /// The unit's number.
        unit: u32,
    },
    /// Merge every unit's outcome (this worker then answers which counter-examples to rebuild).
    Merge {
        /// Every unit's outcome, in any order.
        outcomes: Vec<UnitOutcome>,
    },
    /// Rebuild counter-examples the merge picked in units this worker explored.
    Rebuild {
        /// What to rebuild, in the merge's order.
        wanted: Vec<Wanted>,
    },
    /// Put the report together from the merge and the rebuilt counter-examples (in the merge's
    /// order).
    Finish {
        /// The rebuilt counter-examples, one per wanted.
        rebuilt: Vec<Option<CounterExample>>,
    },
    /// Check which protections would have prevented a run ([`check_prevention`]): a search
    /// per protection, too long for the page's main thread. Independent of any plan.
    Prevent {
        /// The run's scenario, as played (its scripted faults count as the run's).
        scenario: Scenario,
        /// The actions injected into it.
        injected: Vec<(u32, Action)>,
    },
}

/// What a worker answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Reply {
    /// The worker is listening (sent once, when it starts).
    Ready,
    /// The plan is built: it has `units` units.
    Planned {
        /// How many units to hand out.
        units: u32,
    },
    /// The unit being explored, so far.
    Progress {
        /// The unit's number.
        unit: u32,
        /// Its totals so far.
        report: Report,
    },
    /// A unit is explored.
    Done {
        /// What it holds.
        outcome: UnitOutcome,
    },
    /// The merge: its totals and which counter-examples to rebuild, where.
    Merged {
        /// The merge (`report` without the counter-examples of units).
        merged: Merged,
    },
    /// The counter-examples asked for, in order (`None` where one could not be rebuilt).
    Rebuilt {
        /// One per wanted.
        rebuilt: Vec<Option<CounterExample>>,
    },
    /// The search's report.
    Finished {
        /// The report one search would give.
        report: Report,
    },
    /// The answer to [`Request::Prevent`].
    Prevented {
        /// The claims, proved or refuted.
        prevention: Prevention,
    },
    /// A request this worker could not answer (no plan yet, a unit out of range).
    Refused {
        /// Why, for the page's console.
        reason: String,
    },
}

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
                self.merged = Some(merged.clone());
                send(Reply::Merged { merged });
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
/// cannot start, driven by the page between animation frames.
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
