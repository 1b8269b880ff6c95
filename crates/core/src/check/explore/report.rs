//! What a search is asked and what it answers: its [`Bounds`], the [`Report`] of the runs it
//! represents, and each [`CounterExample`] as the faults to inject and when.

use serde::{Deserialize, Serialize};

use crate::action::{Action, FaultKind, KindCounts, KindSet};
use crate::verdict::Invariant;

/// Limits of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bounds {
    /// At most this many faults per run (the lesson offers 1 to 4).
    pub max_faults: u32,
    /// A run that takes more steps than this is cut off and counted in `cut_off`.
    pub max_steps: u32,
    /// The fault kinds it may inject (the whole menu unless told): a claim about a run's own
    /// fault kinds searches a smaller menu. (Missing when read back: the whole menu.)
    #[serde(default)]
    pub kinds: KindSet,
}

impl Bounds {
    /// `k` faults of every kind, 300 steps.
    pub fn faults(k: u32) -> Bounds {
        Bounds {
            max_faults: k,
            max_steps: 300,
            kinds: KindSet::ALL,
        }
    }

    /// The same bounds, injecting only faults of `kinds`.
    #[must_use]
    pub fn of_kinds(self, kinds: KindSet) -> Bounds {
        Bounds { kinds, ..self }
    }
}

/// A violating run, as what to inject and when.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CounterExample {
    /// The invariant it breaks (a run may break several; it is listed under each).
    pub invariant: Invariant,
    /// The injected actions with the step count at which each was applied.
    pub injected: Vec<(u32, Action)>,
    /// Length of the run.
    pub steps: u32,
}

impl CounterExample {
    /// Number of faults in the schedule.
    pub fn faults(&self) -> usize {
        self.injected.len()
    }

    /// How many faults of each kind it holds: with its invariant, its class.
    pub fn kinds(&self) -> KindCounts {
        KindCounts::of(self.injected.iter().map(|(_, a)| a))
    }

    /// The kinds of its faults, sorted by name: counter-examples are kept per invariant and
    /// kind set, so the student sees each distinct way to break an invariant.
    pub fn signature(&self) -> Vec<&'static str> {
        let mut kinds: Vec<&'static str> =
            self.injected.iter().map(|(_, a)| a.kind_name()).collect();
        kinds.sort_unstable();
        kinds
    }

    /// Whether one of its faults is of `kind` ([`Action::kind_name`]). (Not
    /// `signature().contains`: that sort would ride into the first screen's wasm with the
    /// challenges' judge.)
    pub fn uses(&self, kind: &str) -> bool {
        self.injected.iter().any(|(_, a)| a.kind_name() == kind)
    }

    /// Whether one of its faults is of `kind`.
    pub fn uses_kind(&self, kind: FaultKind) -> bool {
        self.injected.iter().any(|(_, a)| a.kind() == Some(kind))
    }
}

/// What a search found. (A field missing when it is read back is empty: a page passing a
/// part's report on may leave its counter-examples out.)
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Report {
    /// Runs represented: every fault schedule within the bounds, each counted once, whether
    /// it was simulated or merged with an equal situation met before (so far, while running).
    pub runs: u64,
    /// Distinct situations remembered (a situation: everything that decides what happens next,
    /// plus the faults still allowed): every one the search branched at over the faults left,
    /// and on runs without faults left, the start and the points where runs meet again (a
    /// crash still armed, the phone waking, a step that sent nothing). Each was simulated from
    /// once; a run that reaches one again reuses its outcome. The situations passed in between
    /// are not remembered; every step simulated is counted in `steps`. (The brute-force oracle
    /// counts every node of the tree here.)
    pub states: u64,
    /// Steps actually simulated.
    pub steps: u64,
    /// Runs represented that broke at least one invariant.
    pub violating_runs: u64,
    /// Violating runs represented, per invariant.
    pub by_invariant: Vec<(Invariant, u64)>,
    /// Runs represented that the step bound cut off (not judged).
    pub cut_off: u64,
    /// The shortest counter-example per broken invariant and set of fault kinds, shortest
    /// first (fewest faults, then fewest steps).
    pub shortest: Vec<CounterExample>,
    /// Whether the search has finished.
    pub done: bool,
    /// The fault kinds the search offered somewhere, as bits of their places in
    /// [`FaultKind::ALL`] (see [`Report::kinds_tried`]).
    pub tried: u32,
}

impl Report {
    /// Runs represented (`runs`): "M runs represented".
    pub fn runs_represented(&self) -> u64 {
        self.runs
    }

    /// Distinct situations remembered (`states`): "N distinct situations".
    pub fn distinct_situations(&self) -> u64 {
        self.states
    }

    /// Violating runs for one invariant.
    pub fn violations_of(&self, invariant: Invariant) -> u64 {
        self.by_invariant
            .iter()
            .find(|(i, _)| *i == invariant)
            .map_or(0, |(_, n)| *n)
    }

    /// The fault kinds the search tried (offered at one situation at least), as URL names in
    /// menu order: what a claim about this search covers.
    pub fn tried_kinds(&self) -> Vec<&'static str> {
        self.kinds_tried()
            .into_iter()
            .map(FaultKind::name)
            .collect()
    }

    /// The fault kinds the search tried, in menu order.
    pub fn kinds_tried(&self) -> Vec<FaultKind> {
        FaultKind::ALL
            .into_iter()
            .filter(|k| self.tried & (1 << k.index()) != 0)
            .collect()
    }

    /// The shortest counter-example over all invariants.
    pub fn shortest_overall(&self) -> Option<&CounterExample> {
        self.shortest.first()
    }

    /// Adds the totals of another part of the same search (a unit's report while a search cut
    /// into parts runs): the counts add up, the fault kinds tried join, and each class
    /// (invariant, fault kinds) keeps its shortest counter-example, fewest faults then fewest
    /// steps. What is added up this way is a partial view: the merged report is
    /// [`Plan::merge`](crate::Plan::merge)'s.
    pub fn add(&mut self, other: &Report) {
        self.runs += other.runs;
        self.states += other.states;
        self.steps += other.steps;
        self.violating_runs += other.violating_runs;
        self.cut_off += other.cut_off;
        self.tried |= other.tried;
        for (invariant, n) in &other.by_invariant {
            match self.by_invariant.iter_mut().find(|(i, _)| i == invariant) {
                Some((_, m)) => *m += n,
                None => self.by_invariant.push((*invariant, *n)),
            }
        }
        for cx in &other.shortest {
            let same = |c: &&mut CounterExample| {
                c.invariant == cx.invariant && c.signature() == cx.signature()
            };
            match self.shortest.iter_mut().find(same) {
                Some(best) if (cx.faults(), cx.steps) < (best.faults(), best.steps) => {
                    *best = cx.clone();
                }
                Some(_) => {}
                None => self.shortest.push(cx.clone()),
            }
        }
        self.shortest
            .sort_by_key(|c| (c.faults(), c.steps, c.invariant));
    }
}

/// Marks the kinds of `faults` as tried in `report`.
pub(crate) fn note_tried(report: &mut Report, faults: &[Action]) {
    for action in faults {
        if let Some(kind) = action.kind() {
            report.tried |= 1 << kind.index();
        }
    }
}
