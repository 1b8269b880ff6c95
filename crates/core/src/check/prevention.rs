//! "Would have prevented it", proved: which protection, switched on, stops every run like this
//! one, not merely this one schedule replayed.
//!
//! Replaying a run's faults under another design ([`crate::closing_protections`]) is not a
//! proof: a stale holder paused past its lease and a Retry still charge twice with the key in
//! the ledger transaction, only at other moments; and a fault whose place that design lacks (a
//! crash before "record the key" where the key is written with the charge) silently vanishes,
//! so the replay holds for want of a fault. Here a protection X is credited only when the
//! explorer's search, over the run's own fault kinds and with at most as many faults as the run
//! had, finds no run of the design with X on that breaks an invariant (and cuts none off). A
//! fault of the run whose phase the other design has not is named; it never counts as
//! prevention. When X does not prevent it, the answer carries the breaking schedule the search
//! found, so the page can open it in that design. Runs with more than [`MAX_SEARCHED`] faults
//! are checked on their own schedule only (the replay by meaning), and say so.
//!
//! Pure and deterministic like the rest of the core; a page runs it off its main thread (the
//! search worker) because a search per protection takes a while on the larger designs.

use serde::{Deserialize, Serialize};

use crate::action::{Action, FaultKind, KindCounts, KindSet};
use crate::explore::{phases, Bounds, CounterExample, Explorer};
use crate::meaning::Planned;
use crate::phase::Phase;
use crate::protections::{Protection, Protections};
use crate::scenario::Scenario;
use crate::verdict::Invariant;

/// Runs with at most this many faults are checked by a search; longer ones on their own
/// schedule only (the search grows steeply with the faults allowed).
pub const MAX_SEARCHED: u32 = 3;

/// Work units per slice of a search between looks at whether it broke already (so a "no"
/// stops soon after the first breaking run).
const SLICE: u64 = 512;

/// How far a claim was checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ClaimScope {
    /// Every schedule of the run's fault kinds with at most `faults` faults (searched).
    Searched,
    /// Only this run's schedule, replayed by meaning (the run had more than
    /// [`MAX_SEARCHED`] faults).
    ThisScheduleOnly,
}

/// What switching protections on does to runs like this one.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ClaimAnswer {
    /// No run within the scope breaks the design with them on: proved (or, for
    /// [`ClaimScope::ThisScheduleOnly`], this schedule holds there).
    Prevents,
    /// A schedule within the scope still breaks it: what to open in that design (the design's
    /// operations without its scripted faults, plus these injected actions).
    Breaks(CounterExample),
    /// This schedule still breaks it ([`ClaimScope::ThisScheduleOnly`]): the invariant.
    BreaksThisSchedule(Invariant),
    /// Not decided: the search cut runs off at its step bound, or this schedule cannot be
    /// played in that design. Never credited.
    Undecided,
}

/// One claim: these protections switched on in addition to the run's.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Claim {
    /// The protections switched on (one, or a pair).
    pub protections: Vec<Protection>,
    /// The run's crashes and pauses before a phase that design does not have: they cannot
    /// happen there (named, never counted as prevention).
    pub absent: Vec<Action>,
    /// What the check found.
    pub answer: ClaimAnswer,
    /// Whether this run's own schedule, replayed by meaning, holds in that design (what the
    /// old replay credited): a claim that holds here but is refuted by the search is the
    /// misleading one the page must correct ("X does not stop it").
    pub holds_this_schedule: bool,
}

impl Claim {
    /// Whether the claim is proved within its scope.
    pub fn prevents(&self) -> bool {
        self.answer == ClaimAnswer::Prevents
    }

    /// The design the claim is about: `scenario` (the run's) with its protections on too. A
    /// [`ClaimAnswer::Breaks`] schedule replays on it without its scripted faults.
    pub fn design(&self, scenario: &Scenario) -> Scenario {
        design_with(scenario, &self.protections)
    }
}

/// The check of a run: its faults, the scope, and a claim per protection that is off.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Prevention {
    /// How many faults the run had (scripted and injected; the operations and the inputs that
    /// shape a scenario are not faults).
    pub faults: u32,
    /// Their kinds, in menu order.
    pub kinds: Vec<FaultKind>,
    /// How far each claim was checked.
    pub scope: ClaimScope,
    /// One claim per protection that is off, in [`Protection::ALL`]'s order.
    pub singles: Vec<Claim>,
    /// When no single protection prevents it: the first pair that does, if one does.
    pub pair: Option<Claim>,
}

impl Prevention {
    /// The claims that are proved: the single protections, else the pair.
    pub fn preventing(&self) -> Vec<&Claim> {
        let singles: Vec<&Claim> = self.singles.iter().filter(|c| c.prevents()).collect();
        if singles.is_empty() {
            self.pair.iter().filter(|c| c.prevents()).collect()
        } else {
            singles
        }
    }

    /// The claim about protection `p` alone.
    pub fn single(&self, p: Protection) -> Option<&Claim> {
        self.singles.iter().find(|c| c.protections == [p])
    }
}

/// The faults of the run of `scenario` with `injected`: the scenario's scripted faults (while
/// it has them) and the injected ones, without the operations and the scenario's own inputs.
pub fn run_faults(scenario: &Scenario, injected: &[(u32, Action)]) -> Vec<Action> {
    let scripted = scenario
        .script
        .iter()
        .filter(|_| scenario.scripted_faults)
        .map(|s| s.action);
    scripted
        .chain(injected.iter().map(|(_, a)| *a))
        .filter(Action::is_fault)
        .collect()
}

/// Checks, for each protection that is off in `scenario`, whether it would have prevented the
/// run of `scenario` with `injected` (see the module's documentation); then pairs, when no
/// single one is proved.
pub fn check_prevention(scenario: &Scenario, injected: &[(u32, Action)]) -> Prevention {
    let faults = run_faults(scenario, injected);
    let counts = KindCounts::of(faults.iter());
    let n = counts.total();
    let scope = if n <= MAX_SEARCHED {
        ClaimScope::Searched
    } else {
        ClaimScope::ThisScheduleOnly
    };
    let base = scenario.protections;
    let off: Vec<Protection> = Protection::ALL
        .into_iter()
        .filter(|p| !base.is_on(*p))
        .collect();
    let planned = crate::meaning::describe(scenario, injected);
    // The breaking schedules found so far, by meaning: tried on each next design before its
    // search (one that breaks it answers "no" at the cost of a replay; most protections do
    // not touch what broke the run).
    let known = std::cell::RefCell::new(Vec::<Vec<Planned>>::new());
    // The claim for `on`, given its design and this schedule replayed there.
    let check = |on: &[Protection], design: Scenario, replayed: ClaimAnswer| {
        let absent = absent(scenario, &design, &faults);
        let holds_this_schedule = replayed == ClaimAnswer::Prevents;
        let answer = match scope {
            ClaimScope::Searched => {
                let base = design.clone().without_scripted_faults();
                let found = known_break(&base, &known.borrow());
                match found {
                    Some(cx) => ClaimAnswer::Breaks(cx),
                    None => {
                        let answer = search(&design, n, KindSet::of(counts.kinds()));
                        if let ClaimAnswer::Breaks(cx) = &answer {
                            if let Some(p) = crate::meaning::describe(&base, &cx.injected) {
                                known.borrow_mut().push(p);
                            }
                        }
                        answer
                    }
                }
            }
            ClaimScope::ThisScheduleOnly => replayed,
        };
        Claim {
            protections: on.to_vec(),
            absent,
            answer,
            holds_this_schedule,
        }
    };
    let replayed_with = |on: &[Protection]| {
        let design = design_with(scenario, on);
        let replayed = this_schedule(&design, planned.as_deref());
        (design, replayed)
    };
    let singles: Vec<Claim> = off
        .iter()
        .map(|x| {
            let (design, replayed) = replayed_with(&[*x]);
            check(&[*x], design, replayed)
        })
        .collect();
    let pair = if singles.iter().any(Claim::prevents) {
        None
    } else {
        pairs(&off).find_map(|on| {
            let (design, replayed) = replayed_with(&on);
            // This schedule breaking the pair's design already answers no: skip its search.
            if let ClaimAnswer::BreaksThisSchedule(_) = replayed {
                return None;
            }
            Some(check(&on, design, replayed)).filter(Claim::prevents)
        })
    };
    Prevention {
        faults: n,
        kinds: counts.kinds().collect(),
        scope,
        singles,
        pair,
    }
}

/// Every pair of `off`, in order.
fn pairs(off: &[Protection]) -> impl Iterator<Item = [Protection; 2]> + '_ {
    off.iter()
        .enumerate()
        .flat_map(move |(i, a)| off[i + 1..].iter().map(move |b| [*a, *b]))
}

/// The crashes and pauses of `faults` before a phase `scenario`'s handler has but `design`'s
/// has not.
fn absent(scenario: &Scenario, design: &Scenario, faults: &[Action]) -> Vec<Action> {
    let (here, there): (Vec<Phase>, Vec<Phase>) = (phases(scenario), phases(design));
    faults
        .iter()
        .filter(|a| match a {
            Action::Crash(p) | Action::Pause(p) => here.contains(p) && !there.contains(p),
            _ => false,
        })
        .copied()
        .collect()
}

/// The first of `known` (breaking schedules found in other designs, by meaning) that breaks
/// `base` (a design without its scripted faults) too, as a counter-example of `base`.
fn known_break(base: &Scenario, known: &[Vec<Planned>]) -> Option<CounterExample> {
    known.iter().find_map(|planned| {
        let mut world = crate::meaning::replay(base, planned)?;
        world.run(crate::meaning::MAX_STEPS as usize);
        let (invariant, _) = world
            .verdict()
            .violations()
            .next()
            .filter(|_| world.is_quiescent())?;
        Some(CounterExample {
            invariant,
            injected: world.injected().to_vec(),
            steps: world.step_count(),
        })
    })
}

/// Searches `design` (without its scripted faults) for a run with at most `n` faults of
/// `kinds` that breaks an invariant, stopping at the first.
fn search(design: &Scenario, n: u32, kinds: KindSet) -> ClaimAnswer {
    let bounds = Bounds::faults(n).of_kinds(kinds);
    let mut explorer = Explorer::new(design, bounds);
    loop {
        let done = explorer.run_for(SLICE);
        let report = explorer.report();
        if report.violating_runs > 0 {
            if let Some(cx) = report.shortest_overall() {
                return ClaimAnswer::Breaks(cx.clone());
            }
        }
        if done {
            return if report.violating_runs > 0 {
                // Found but not rebuilt (cannot happen once done): not a proof either way.
                ClaimAnswer::Undecided
            } else if report.cut_off > 0 {
                ClaimAnswer::Undecided
            } else {
                ClaimAnswer::Prevents
            };
        }
    }
}

/// Replays this run's faults, by meaning, in `design`: does this schedule hold there?
fn this_schedule(design: &Scenario, planned: Option<&[Planned]>) -> ClaimAnswer {
    let Some(mut world) = planned.and_then(|p| crate::meaning::replay(design, p)) else {
        return ClaimAnswer::Undecided;
    };
    world.run(crate::meaning::MAX_STEPS as usize);
    if !world.is_quiescent() {
        return ClaimAnswer::Undecided;
    }
    match world.verdict().violations().next() {
        Some((invariant, _)) => ClaimAnswer::BreaksThisSchedule(invariant),
        None => ClaimAnswer::Prevents,
    }
}

/// `scenario` with `on` switched on too.
fn design_with(scenario: &Scenario, on: &[Protection]) -> Scenario {
    let mut p: Protections = scenario.protections;
    for x in on {
        p.set_on(*x, true);
    }
    scenario.clone().with_protections(p)
}
