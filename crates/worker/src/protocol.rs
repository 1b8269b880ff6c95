//! The messages between the page and a search worker, one set of types for both sides.
//!
//! A worker reads and writes them with the core's own types (the defaults of the type
//! parameters). The page reads only what it acts on (unit numbers, totals, which
//! counter-examples to rebuild) and carries the rest as it came: a unit's outcome as a
//! [`Held`] whose summary stays a JavaScript value, and a rebuilt counter-example as one, so
//! the explorer's types never have to be decoded on the page's main thread. Natively, tests
//! play the page's side with JSON values in their place.
//!
//! The enums are externally tagged (`{ "planned": { "units": 3 } }`, serde's default), not
//! tagged by a `type` field: serde reads an internally tagged enum through a buffer of its own,
//! which would lose the JavaScript values the page carries (`serde_wasm_bindgen::preserve`).

use idem_core::{Action, CounterExample, Prevention, Report, Scenario, UnitOutcome, Wanted};
use serde::{Deserialize, Serialize};

/// What the page asks a worker. `O` is a unit's outcome and `E` a rebuilt counter-example, as
/// the side that writes the request holds them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Request<O = UnitOutcome, E = CounterExample> {
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
        outcomes: Vec<O>,
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
        rebuilt: Vec<Option<E>>,
    },
    /// Check which protections would have prevented a run ([`idem_core::check_prevention`]):
    /// a search per protection, too long for the page's main thread. Independent of any plan.
    Prevent {
        /// The run's scenario, as played (its scripted faults count as the run's).
        scenario: Scenario,
        /// The actions injected into it.
        injected: Vec<(u32, Action)>,
    },
}

/// What a worker answers (`O` and `E` as in [`Request`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Reply<O = UnitOutcome, E = CounterExample> {
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
        outcome: O,
    },
    /// Every unit is merged (the merging worker keeps the totals for [`Request::Finish`]):
    /// which counter-examples to rebuild, where.
    Merged {
        /// The counter-examples to rebuild, in the merge's order.
        wanted: Vec<Wanted>,
    },
    /// The counter-examples asked for, in order (`None` where one could not be rebuilt).
    Rebuilt {
        /// One per wanted.
        rebuilt: Vec<Option<E>>,
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

/// What the coordinator reads of a unit's outcome, whichever way the side holds it.
pub trait Explored: Clone {
    /// The unit's number in the plan.
    fn unit(&self) -> u32;
    /// The unit's totals.
    fn report(&self) -> &Report;
    /// Drops the counter-examples found in the unit: the merge adds up the units' work and
    /// needs none of them (they are the bulk of what would be passed on).
    fn lighten(&mut self);
}

impl Explored for UnitOutcome {
    fn unit(&self) -> u32 {
        self.unit
    }

    fn report(&self) -> &Report {
        &self.report
    }

    fn lighten(&mut self) {
        self.report.shortest.clear();
    }
}

/// A unit's outcome as the page holds it: its number and totals read, its summary (`S`)
/// carried as the worker wrote it. Written back, it reads as the [`UnitOutcome`] it came as
/// (the protocol's tests check that it keeps the same fields).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Held<S> {
    /// The unit's number in the plan.
    pub unit: u32,
    /// The unit's totals (and, until [`Explored::lighten`], its counter-examples).
    pub report: Report,
    /// The rest, which only the merge reads.
    summary: S,
}

impl<S: Clone> Explored for Held<S> {
    fn unit(&self) -> u32 {
        self.unit
    }

    fn report(&self) -> &Report {
        &self.report
    }

    fn lighten(&mut self) {
        self.report.shortest.clear();
    }
}
