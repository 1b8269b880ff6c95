//! "Try every failure": a bounded, exhaustive search over fault schedules.
//!
//! From the scenario's start, every state branches into "nothing goes wrong, take the next
//! step" and, while fewer than `max_faults` faults were used, "inject fault F now" for every
//! fault that applies: drop or duplicate each packet on the mobile link, crash the API before
//! each phase, the client retrying early, a concurrent second request, the phone going
//! offline past the key TTL. Every run that reaches quiescence is judged with
//! [`World::verdict`]; the shortest violating schedule per invariant and set of fault kinds
//! (fewest faults, then fewest steps) is kept as the injected actions, which
//! [`World::replay`] turns back into a world.
//!
//! The tree is walked as a graph: a situation met again (same view, same number of faults
//! left) reuses what its first visit found, so the work grows with the distinct situations
//! while the report still counts every schedule ("runs represented"). The view is canonical
//! (`World::view`: times relative to now, message ids and the page-only past left out, keys
//! past their expiry gone), so schedules that reach the same situation at other times or
//! through other message numbers merge. With no fault left, a run is a straight line: it is
//! looked up where straight runs meet (a crash still armed, the phone just woken), and a
//! crash armed one step later than one already played out is the same run one step shorter
//! (arming commutes with every step until the crash fires), so it is carried down the line of
//! steps instead of simulated. [`crate::explore_brute`] walks every schedule one by one; the
//! tests check that both agree on the runs, the violations and the shortest counter-example
//! of every class.
//!
//! The search is resumable: [`Explorer::run_for`] does a bounded slice of work, so a page can
//! interleave it with animation frames.

use serde::{Deserialize, Serialize};

use crate::action::{Action, FaultKind, KindCounts, KindSet, OpKind, OpSpec};
use crate::phase::Phase;
use crate::scenario::Scenario;
use crate::time::{HOUR, SECOND};
use crate::verdict::Invariant;
use crate::world::World;

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

/// What a search remembers of the situations it met: each explored node's summary (by view and
/// faults left) and each straight run's outcome (by view). Valid for any search within the same
/// bounds, so the parts of a split search keep one for all their units.
#[derive(Clone, Debug, Default)]
pub(crate) struct Maps {
    memo: rustc_hash::FxHashMap<(u128, u32), Summary>,
    straight: rustc_hash::FxHashMap<u128, Straight>,
}

/// A resumable search over fault schedules that visits each distinct situation once.
///
/// Every node of the search tree (a world plus how many faults are left) is reduced to its
/// view (`World::view`: a 128-bit fingerprint of everything that decides the future and the
/// verdict, up to a shift in time and a renumbering of messages, with the past — step log,
/// injected actions, step count — left out). The first time a view
/// is met, its subtree is explored and summarised: how many runs it holds, how many break each
/// invariant, and for every (invariant, set of fault kinds) the shortest way to break it from
/// there. Meeting the same view again reuses
/// the summary, shifted by the faults and steps already taken. So the report is exactly what
/// walking every schedule would give ([`crate::explore_brute::explore_brute`] checks this in
/// the tests) while the work is proportional to the number of distinct situations.
#[derive(Clone, Debug)]
pub struct Explorer {
    bounds: Bounds,
    root: World,
    pending_root: bool,
    stack: Vec<Frame>,
    memo: rustc_hash::FxHashMap<(u128, u32), Summary>,
    straight: rustc_hash::FxHashMap<u128, Straight>,
    top: Summary,
    /// While running: the shortest counter-example per (invariant, kinds) among the runs
    /// simulated so far, shown if the search is stopped early.
    found: Vec<(u8, KindCounts, CounterExample)>,
    /// Whether `found` changed since the report last listed it.
    found_changed: bool,
    /// Whether the final counter-examples were rebuilt.
    rebuilt: bool,
    /// How many of `top.best` were rebuilt so far, into `shortest`.
    rebuilt_from: usize,
    shortest: Vec<CounterExample>,
    report: Report,
    /// The straight run [`Explorer::play_out`] last absorbed.
    last_run: Option<Straight>,
    /// The carries for the next frame pushed.
    pending_carry: Vec<Carry>,
    /// Whether the search ends once explored, leaving the counter-examples unbuilt (a part).
    stop_before_rebuild: bool,
}

/// A node being explored: its world, its key, its children still to try, what its finished
/// children add up to, and how it hangs below its parent.
#[derive(Clone, Debug)]
struct Frame {
    world: Option<World>,
    key: (u128, u32),
    at_step: u32,
    faults: Vec<Action>,
    next: usize,
    acc: Summary,
    edge: Edge,
    /// Crashes armed at an earlier node of this straight line of steps, still armed here: their
    /// runs from this node are known (see [`Carry`]).
    carry: Vec<Carry>,
    /// Crashes armed here whose runs were played out: carried to the step child.
    carry_next: Vec<Carry>,
}

/// A crash armed at node N one fault before the end, whose straight run `run` is known: as
/// long as it has not fired, "arm, then step" is "step, then arm" (arming changes nothing
/// until the handler enters that phase), so at N's step child the same crash leads to the
/// same run one step shorter, without simulating it (`run.armed`: for how many more steps).
#[derive(Clone, Copy, Debug)]
struct Carry {
    action: Action,
    run: Straight,
}

/// How a child hangs below its parent: which choice, and which fault kind it adds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge {
    pub(crate) choice: u32,
    pub(crate) kind: Option<FaultKind>,
}

/// The choice "take the next step" (faults are numbered by their place in [`faults`]).
pub(crate) const STEP: u32 = u32::MAX;
/// No choice: the run ends here.
pub(crate) const END: u32 = u32::MAX - 1;

/// What the runs below a node add up to.
#[derive(Clone, Debug, Default)]
pub(crate) struct Summary {
    pub(crate) runs: u64,
    pub(crate) violating: u64,
    pub(crate) cut_off: u64,
    pub(crate) by_invariant: [u64; Invariant::ALL.len()],
    /// Steps of the longest run below (to reuse the summary only where the step bound cannot
    /// cut any of them off).
    pub(crate) longest: u32,
    /// Step count of the node it was computed at.
    pub(crate) at_step: u32,
    pub(crate) best: Vec<Best>,
}

/// The shortest way from a node to break `invariant` with exactly the fault kinds `kinds`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Best {
    pub(crate) invariant: u8,
    pub(crate) kinds: KindCounts,
    pub(crate) steps: u32,
    pub(crate) choice: u32,
}

/// What the single run from a node without faults left comes to (most nodes are such, so
/// this is kept small): the invariants it breaks, whether the bound cut it off, its steps.
#[derive(Clone, Copy, Debug)]
struct Straight {
    broken: u8,
    cut: bool,
    steps: u32,
    at_step: u32,
    /// For how many of the next steps a crash armed in this situation stays armed (0 when
    /// none is).
    armed: u32,
}

impl Straight {
    fn of(world: &World, steps: u32, at_step: u32) -> Straight {
        let mut broken = 0u8;
        let cut = !world.is_quiescent();
        if !cut {
            for (invariant, _) in world.verdict().violations() {
                broken |= 1 << invariant_index(invariant);
            }
        }
        Straight {
            broken,
            cut,
            steps,
            at_step,
            armed: 0,
        }
    }

    /// The same run seen from one step further (while a crash armed here stays armed).
    fn advanced(&self) -> Option<Straight> {
        (self.armed > 0 && self.steps > 0).then(|| Straight {
            steps: self.steps - 1,
            at_step: self.at_step + 1,
            armed: self.armed - 1,
            ..*self
        })
    }

    fn valid_at(&self, at_step: u32, max_steps: u32) -> bool {
        at_step == self.at_step || (!self.cut && at_step.saturating_add(self.steps) <= max_steps)
    }
}

/// Whether a straight run remembers the situation it is in (every remembered situation costs
/// a fingerprint and a map entry; a run met again is looked up only where it was remembered).
/// Runs meet where a crash armed earlier is still armed (one armed later starts there), where
/// the phone wakes after going offline at different moments (by then the servers are idle
/// and what differed is past), and after a step that sent nothing: a packet was absorbed (a
/// duplicate answered and ignored, a reply lost, an ack that arrived), which is where runs that
/// differed in an extra packet come back together (k = 3 `scope`: 28 % fewer steps; recording
/// after every step saves more steps but costs more fingerprints than it saves).
fn worth_recording(world: &World) -> bool {
    world.api().crash_armed().is_some()
        || world
            .steps()
            .last()
            .is_some_and(|s| s.sent.is_empty() || s.cause == crate::world::Cause::ClientWake)
}

/// Marks the kinds of `faults` as tried in `report`.
pub(crate) fn note_tried(report: &mut Report, faults: &[Action]) {
    for action in faults {
        if let Some(kind) = action.kind() {
            report.tried |= 1 << kind.index();
        }
    }
}

impl Summary {
    pub(crate) fn leaf(world: &World) -> Summary {
        let mut summary = Summary {
            runs: 1,
            at_step: world.step_count(),
            ..Summary::default()
        };
        for (invariant, _) in world.verdict().violations() {
            let i = invariant_index(invariant);
            summary.by_invariant[i] += 1;
            summary.best.push(Best {
                invariant: i as u8,
                kinds: KindCounts::NONE,
                steps: 0,
                choice: END,
            });
        }
        summary.violating = u64::from(!summary.best.is_empty());
        summary
    }

    pub(crate) fn cut(world: &World) -> Summary {
        Summary {
            runs: 1,
            cut_off: 1,
            at_step: world.step_count(),
            ..Summary::default()
        }
    }

    /// Adds a child's runs, one step further down and with `edge`'s fault kind.
    pub(crate) fn absorb(&mut self, child: &Summary, edge: Edge, step: u32) {
        self.runs += child.runs;
        self.violating += child.violating;
        self.cut_off += child.cut_off;
        for (a, b) in self.by_invariant.iter_mut().zip(child.by_invariant) {
            *a += b;
        }
        self.longest = self.longest.max(child.longest + step);
        for b in &child.best {
            let kinds = edge.kind.map_or(b.kinds, |k| b.kinds.with(k));
            let steps = b.steps + step;
            match self
                .best
                .iter_mut()
                .find(|m| m.invariant == b.invariant && m.kinds == kinds)
            {
                Some(m) if steps < m.steps => {
                    m.steps = steps;
                    m.choice = edge.choice;
                }
                Some(_) => {}
                None => self.best.push(Best {
                    invariant: b.invariant,
                    kinds,
                    steps,
                    choice: edge.choice,
                }),
            }
        }
    }

    /// Adds a straight run one step further down, with `edge`'s fault kind.
    fn absorb_straight(&mut self, run: &Straight, edge: Edge) {
        self.runs += 1;
        self.cut_off += u64::from(run.cut);
        self.violating += u64::from(run.broken != 0);
        self.longest = self.longest.max(run.steps + 1);
        let kinds = edge.kind.map_or(KindCounts::NONE, KindCounts::one);
        for i in 0..Invariant::ALL.len() {
            if run.broken & (1 << i) == 0 {
                continue;
            }
            self.by_invariant[i] += 1;
            let steps = run.steps + 1;
            match self
                .best
                .iter_mut()
                .find(|m| usize::from(m.invariant) == i && m.kinds == kinds)
            {
                Some(m) if steps < m.steps => {
                    m.steps = steps;
                    m.choice = edge.choice;
                }
                Some(_) => {}
                None => self.best.push(Best {
                    invariant: i as u8,
                    kinds,
                    steps,
                    choice: edge.choice,
                }),
            }
        }
    }

    /// Whether this summary is what the node would give at step count `at_step`: always when
    /// no run below was cut off and the longest still fits under the bound.
    fn valid_at(&self, at_step: u32, max_steps: u32) -> bool {
        at_step == self.at_step
            || (self.cut_off == 0 && at_step.saturating_add(self.longest) <= max_steps)
    }
}

fn invariant_index(invariant: Invariant) -> usize {
    Invariant::ALL
        .iter()
        .position(|i| *i == invariant)
        .unwrap_or(0)
}

impl Explorer {
    /// A search within `bounds` from `scenario`'s operations, without its scripted faults:
    /// counter-examples replay on [`Scenario::without_scripted_faults`].
    pub fn new(scenario: &Scenario, bounds: Bounds) -> Explorer {
        Explorer::new_at(root(scenario), bounds)
    }

    /// A search within `bounds` from `root`, a world the caller built.
    pub(crate) fn new_at(root: World, bounds: Bounds) -> Explorer {
        Explorer {
            bounds,
            root,
            pending_root: true,
            stack: Vec::new(),
            memo: rustc_hash::FxHashMap::default(),
            straight: rustc_hash::FxHashMap::default(),
            top: Summary::default(),
            found: Vec::new(),
            found_changed: false,
            rebuilt: false,
            rebuilt_from: 0,
            shortest: Vec::new(),
            last_run: None,
            pending_carry: Vec::new(),
            stop_before_rebuild: false,
            report: Report {
                by_invariant: Invariant::ALL.iter().map(|i| (*i, 0)).collect(),
                ..Report::default()
            },
        }
    }

    /// A search from `root` that starts with what `maps` remembers (a part's earlier units).
    pub(crate) fn with_maps(root: World, bounds: Bounds, maps: Maps) -> Explorer {
        let mut explorer = Explorer::new_at(root, bounds);
        explorer.memo = maps.memo;
        explorer.straight = maps.straight;
        explorer
    }

    /// Explores while `more` says so, like [`Explorer::run_while`], but stops once every
    /// situation is explored, without rebuilding the counter-examples (a part's unit: the
    /// merge picks which to rebuild). True when the exploration is complete.
    pub(crate) fn explore_while(&mut self, more: impl FnMut() -> bool) -> bool {
        self.stop_before_rebuild = true;
        self.run_while(more);
        self.explored()
    }

    /// Whether every situation has been explored.
    fn explored(&self) -> bool {
        !self.pending_root && self.stack.is_empty()
    }

    /// The report so far, the summary of the root, and what the search remembers.
    pub(crate) fn into_parts(self) -> (Report, Summary, Maps) {
        let maps = Maps {
            memo: self.memo,
            straight: self.straight,
        };
        (self.report, self.top, maps)
    }

    /// Does up to `budget` more units of work and returns true when the search is complete.
    /// A unit is one situation met: simulated, looked up or carried (each costs at most one
    /// clone and one fingerprint, or one straight run), so a slice's time is bounded however
    /// many situations merge. The report's totals cover the runs finished so far.
    pub fn run_for(&mut self, budget: u64) -> bool {
        let mut left = budget;
        self.run_while(|| {
            left = left.saturating_sub(1);
            left > 0
        })
    }

    /// Does units of work (see [`Explorer::run_for`]) while `more` says so, asking it before
    /// every unit after the first, and returns true when the search is complete. The page
    /// passes a clock check, so a time slice overruns by at most one unit; the core itself
    /// reads no clock.
    pub fn run_while(&mut self, mut more: impl FnMut() -> bool) -> bool {
        if self.report.done {
            return true;
        }
        let mut visited = 0u64;
        let mut go_on = move |visited: u64| visited == 0 || more();
        if self.pending_root {
            self.pending_root = false;
            let world = self.root.clone();
            let edge = Edge {
                choice: END,
                kind: None,
            };
            self.enter(world, self.bounds.max_faults, edge);
            visited += 1;
        }
        while go_on(visited) {
            let Some(frame) = self.stack.last_mut() else {
                if self.pending_root || self.stop_before_rebuild || !self.rebuild_next() {
                    break;
                }
                visited += 1;
                continue;
            };
            let total = frame.faults.len();
            if frame.next < total {
                let choice = frame.next;
                frame.next += 1;
                let action = frame.faults[choice];
                let remaining = frame.key.1 - 1;
                let edge = Edge {
                    choice: choice as u32,
                    kind: action.kind(),
                };
                if let Some(carried) = frame.carry.iter().find(|c| c.action == action) {
                    let run = carried.run;
                    frame.acc.absorb_straight(&run, edge);
                    visited += 1;
                    continue;
                }
                let Some(mut child) = frame.world.clone() else {
                    continue;
                };
                if child.apply(action).is_err() {
                    continue;
                }
                self.last_run = None;
                self.enter(child, remaining, edge);
                visited += 1;
                let run = self.last_run.take().and_then(|r| r.advanced());
                if let (Some(run), Some(frame)) = (run, self.stack.last_mut()) {
                    if remaining == 0 && matches!(action, Action::Crash(_)) {
                        frame.carry_next.push(Carry { action, run });
                    }
                }
            } else if frame.next == total {
                frame.next += 1;
                let Some(mut child) = frame.world.take() else {
                    continue;
                };
                let mut carry: Vec<Carry> = frame
                    .carry
                    .iter()
                    .filter_map(|c| {
                        c.run.advanced().map(|run| Carry {
                            action: c.action,
                            run,
                        })
                    })
                    .collect();
                carry.append(&mut frame.carry_next);
                child.step();
                self.report.steps += 1;
                let remaining = frame.key.1;
                let edge = Edge {
                    choice: STEP,
                    kind: None,
                };
                self.pending_carry = carry;
                self.enter(child, remaining, edge);
                visited += 1;
                self.pending_carry.clear();
            } else {
                let Some(frame) = self.stack.pop() else {
                    break;
                };
                let mut summary = frame.acc;
                summary.at_step = frame.at_step;
                self.absorb(&summary, frame.edge);
                self.memo.insert(frame.key, summary);
            }
        }
        self.publish();
        self.report.done
    }

    /// Runs the search to the end (one call that is never asked to stop).
    pub fn run_to_end(&mut self) -> &Report {
        self.run_while(|| true);
        &self.report
    }

    /// What has been found so far.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// Distinct situations remembered so far (the report's `states`).
    pub fn distinct_situations(&self) -> u64 {
        self.report.states
    }

    /// Runs accounted for so far, each schedule counted once even when its situations were
    /// merged with others' (the report's `runs`).
    pub fn runs_represented(&self) -> u64 {
        self.report.runs
    }

    /// Adds a finished child to its parent (or to the top of the search).
    fn absorb(&mut self, child: &Summary, edge: Edge) {
        let step = u32::from(edge.choice != END);
        match self.stack.last_mut() {
            Some(parent) => parent.acc.absorb(child, edge, step),
            None => self.top.absorb(child, edge, 0),
        }
    }

    /// Meets a node: a leaf is judged, a known situation reuses its summary, a new one is
    /// pushed to be explored.
    fn enter(&mut self, world: World, remaining: u32, edge: Edge) {
        if world.is_quiescent() {
            let leaf = Summary::leaf(&world);
            self.note_found(&world, leaf.best.iter().map(|b| b.invariant));
            self.absorb(&leaf, edge);
            return;
        }
        let at_step = world.step_count();
        if at_step >= self.bounds.max_steps {
            let cut = Summary::cut(&world);
            self.absorb(&cut, edge);
            return;
        }
        if remaining == 0 {
            return self.play_out(world, edge);
        }
        let view = self.view(&world);
        let key = (view, remaining);
        let Explorer {
            memo, stack, top, ..
        } = self;
        let known = memo.get(&key);
        if let Some(known) = known.filter(|k| k.valid_at(at_step, self.bounds.max_steps)) {
            match stack.last_mut() {
                Some(parent) => parent
                    .acc
                    .absorb(known, edge, u32::from(edge.choice != END)),
                None => top.absorb(known, edge, 0),
            }
            return;
        }
        // Met before but too close to the step bound to reuse: explored again, not counted
        // again.
        self.report.states += u64::from(known.is_none());
        let faults = faults_of(&world, self.bounds.kinds);
        note_tried(&mut self.report, &faults);
        self.stack.push(Frame {
            world: Some(world),
            key,
            at_step,
            faults,
            next: 0,
            acc: Summary::default(),
            edge,
            carry: std::mem::take(&mut self.pending_carry),
            carry_next: Vec::new(),
        });
    }

    /// A node without faults left: its single run, looked up or played out. Without faults
    /// left, which packets the last step sent no longer matters, so the view leaves it out;
    /// the situations where runs meet ([`worth_recording`]) are looked up and remembered on
    /// the way, so a run that meets another is played out no further.
    fn play_out(&mut self, mut world: World, edge: Edge) {
        let max = self.bounds.max_steps;
        let at_step = world.step_count();
        let view = world.view(false);
        if let Some(known) = self
            .straight
            .get(&view)
            .filter(|s| s.valid_at(at_step, max))
        {
            let known = Straight { at_step, ..*known };
            self.last_run = Some(known);
            self.absorb_straight(&known, edge);
            return;
        }
        let world_armed_at_start = world.api().crash_armed().is_some();
        let mut path: Vec<(u128, u32)> = Vec::new();
        let mut known: Option<Straight> = None;
        // Steps after which the crash armed at the start (if any) was still armed.
        let mut armed_until = 0u32;
        let mut disarmed = world.api().crash_armed().is_none();
        while world.step_count() < max {
            if world.step().is_none() {
                break;
            }
            self.report.steps += 1;
            // Whether the run ended is asked only where it matters (it costs a look at every
            // timer and packet): the next `step` says so anyway.
            if !worth_recording(&world) {
                disarmed = true;
                continue;
            }
            if world.is_quiescent() {
                break;
            }
            if !disarmed && world.api().crash_armed().is_some() {
                armed_until += 1;
            } else {
                disarmed = true;
            }
            let here = (world.view(false), world.step_count());
            if let Some(s) = self
                .straight
                .get(&here.0)
                .filter(|s| s.valid_at(here.1, max))
            {
                known = Some(*s);
                break;
            }
            path.push(here);
        }
        let end = world.step_count();
        let (broken, cut, tail) = match known {
            Some(s) => {
                if !disarmed {
                    armed_until += s.armed;
                }
                (s.broken, s.cut, s.steps)
            }
            None => {
                let s = Straight::of(&world, 0, end);
                let broken = (0..Invariant::ALL.len() as u8).filter(|i| s.broken & (1 << i) != 0);
                self.note_found(&world, broken);
                (s.broken, s.cut, 0)
            }
        };
        // A crash armed at the start stays armed for `armed_until` steps (counted from it).
        let armed_from_start = if world_armed_at_start { armed_until } else { 0 };
        let from = |start: u32| Straight {
            broken,
            cut,
            steps: end - start + tail,
            at_step: start,
            armed: armed_from_start.saturating_sub(start - at_step),
        };
        let mut new = 0;
        for (k, s) in path {
            new += u64::from(self.straight.insert(k, from(s)).is_none());
        }
        let run = from(at_step);
        new += u64::from(self.straight.insert(view, run).is_none());
        self.report.states += new;
        self.last_run = Some(run);
        self.absorb_straight(&run, edge);
    }

    /// Adds a finished straight run to its parent (or to the top of the search).
    fn absorb_straight(&mut self, run: &Straight, edge: Edge) {
        match self.stack.last_mut() {
            Some(parent) => parent.acc.absorb_straight(run, edge),
            None => {
                // The root itself has no faults to offer (k = 0): no step leads to it.
                let mut summary = Summary::default();
                summary.absorb_straight(run, edge);
                summary.longest -= 1;
                for b in &mut summary.best {
                    b.steps -= 1;
                }
                self.top.absorb(&summary, edge, 0);
            }
        }
    }

    /// Keeps a run simulated to its end as a counter-example found so far.
    fn note_found(&mut self, world: &World, broken: impl Iterator<Item = u8>) {
        let kinds = KindCounts::of(world.injected().iter().map(|(_, a)| a));
        for i in broken {
            let before = self.found.len();
            let Some(invariant) = Invariant::ALL.get(usize::from(i)) else {
                continue;
            };
            let steps = world.step_count();
            let faults = world.injected().len();
            match self.found.iter_mut().find(|f| f.0 == i && f.1 == kinds) {
                Some(f) if (faults, steps) < (f.2.faults(), f.2.steps) => {
                    f.2.injected = world.injected().to_vec();
                    f.2.steps = steps;
                    self.found_changed = true;
                }
                Some(_) => {}
                None => self.found.push((
                    i,
                    kinds,
                    CounterExample {
                        invariant: *invariant,
                        injected: world.injected().to_vec(),
                        steps,
                    },
                )),
            }
            self.found_changed |= self.found.len() != before;
        }
    }

    fn view(&self, world: &World) -> u128 {
        world.view(true)
    }

    /// Copies the totals into the report; when done, rebuilds each shortest counter-example.
    fn publish(&mut self) {
        let mut total = self.top.clone();
        for frame in &self.stack {
            total.runs += frame.acc.runs;
            total.violating += frame.acc.violating;
            total.cut_off += frame.acc.cut_off;
            for (a, b) in total.by_invariant.iter_mut().zip(frame.acc.by_invariant) {
                *a += b;
            }
        }
        self.report.runs = total.runs;
        self.report.violating_runs = total.violating;
        self.report.cut_off = total.cut_off;
        for (i, (_, n)) in self.report.by_invariant.iter_mut().enumerate() {
            *n = total.by_invariant[i];
        }
        self.report.done = self.rebuilt;
        if !self.rebuilt && self.found_changed {
            self.found_changed = false;
            let mut found: Vec<CounterExample> = self.found.iter().map(|f| f.2.clone()).collect();
            found.sort_by_key(|c| (c.faults(), c.steps, c.invariant));
            self.report.shortest = found;
        }
    }

    /// Once every situation is explored, rebuilds one more shortest counter-example (one unit
    /// of work each: a replay from the root), then puts them in the report. False when there
    /// is nothing left to do.
    fn rebuild_next(&mut self) -> bool {
        if self.rebuilt {
            return false;
        }
        if let Some(best) = self.top.best.get(self.rebuilt_from).copied() {
            self.rebuilt_from += 1;
            if let Some(cx) = self.rebuild(&best) {
                self.shortest.push(cx);
            }
            return true;
        }
        self.rebuilt = true;
        self.found = Vec::new();
        let mut shortest = std::mem::take(&mut self.shortest);
        shortest.sort_by_key(|c| (c.faults(), c.steps, c.invariant));
        self.report.shortest = shortest;
        true
    }

    /// Follows the recorded choices from the root to rebuild the run behind `best`.
    fn rebuild(&mut self, best: &Best) -> Option<CounterExample> {
        let maps = Maps {
            memo: std::mem::take(&mut self.memo),
            straight: std::mem::take(&mut self.straight),
        };
        let cx = rebuild(&maps, self.root.clone(), self.bounds, best);
        self.memo = maps.memo;
        self.straight = maps.straight;
        cx
    }
}

/// Follows the choices `maps` recorded from `root` (a search within `bounds`) to rebuild the
/// run behind `best`.
pub(crate) fn rebuild(
    maps: &Maps,
    mut world: World,
    bounds: Bounds,
    best: &Best,
) -> Option<CounterExample> {
    let mut remaining = bounds.max_faults;
    let mut kinds = best.kinds;
    let invariant = *Invariant::ALL.get(usize::from(best.invariant))?;
    while !world.is_quiescent() {
        if remaining == 0 {
            world.run(bounds.max_steps as usize);
            break;
        }
        let key = (world.view(true), remaining);
        let entry = maps
            .memo
            .get(&key)?
            .best
            .iter()
            .find(|b| b.invariant == best.invariant && b.kinds == kinds)?;
        match entry.choice {
            STEP => {
                // Always a step here (the world is not quiescent); were it not, the rebuild
                // ends rather than spinning.
                if world.step().is_none() {
                    break;
                }
            }
            END => break,
            choice => {
                let action = *faults_of(&world, bounds.kinds).get(choice as usize)?;
                world.apply(action).ok()?;
                if let Some(kind) = action.kind() {
                    kinds = kinds.without(kind);
                }
                remaining -= 1;
            }
        }
    }
    Some(CounterExample {
        invariant,
        injected: world.injected().to_vec(),
        steps: world.step_count(),
    })
}

pub(crate) fn root(scenario: &Scenario) -> World {
    let mut world = World::new(&scenario.clone().without_scripted_faults());
    world.forget_history();
    world
}

/// Every fault the explorer may inject in `world` now: the player's whole menu but the
/// scenario-shaping inputs (a concurrent second request, a reused key, another user's key),
/// which are the scenario's own. Positions that cannot change the outcome are skipped: a
/// packet is dropped, duplicated or delayed (by a second, as the player does) only in the step
/// that sent it (later would be the same run); a crash, a pause, a lost next answer and an
/// eviction are armed only just before the API handles something (in between they change
/// nothing), crashes and pauses only for the phases this design has, an eviction only while the
/// store holds something, and the client's Retry and going offline only while an operation is
/// open.
pub(crate) fn faults(world: &World) -> Vec<Action> {
    faults_of(world, KindSet::ALL)
}

/// [`faults`] of the kinds in `kinds` only, in the same order.
pub(crate) fn faults_of(world: &World, kinds: KindSet) -> Vec<Action> {
    let mut out = faults_all(world);
    if kinds != KindSet::ALL {
        out.retain(|a| a.kind().is_some_and(|k| kinds.contains(k)));
    }
    out
}

fn faults_all(world: &World) -> Vec<Action> {
    let mut out = Vec::new();
    let just_sent = world
        .steps()
        .last()
        .map(|s| s.sent.as_slice())
        .unwrap_or_default();
    for message in world.network().in_flight().filter(|m| m.is_faultable()) {
        if !just_sent.contains(&message.id) {
            continue;
        }
        out.push(Action::Drop(message.id));
        if message.duplicate_of.is_none() {
            out.push(Action::Duplicate(message.id));
        }
        out.push(Action::Delay(message.id, SECOND));
    }
    if world.api_acts_next() {
        let phases = phases(world.scenario());
        if world.api().crash_armed().is_none() {
            out.extend(phases.iter().copied().map(Action::Crash));
        }
        if world.api().pause_armed().is_none() {
            out.extend(phases.iter().copied().map(Action::Pause));
        }
        if !world.next_ack_will_be_lost() {
            out.push(Action::LoseNextAck);
        }
        if world.store().entries().next().is_some() || world.store().counters().next().is_some() {
            out.push(Action::EvictKeys);
        }
    }
    let open = world.client().retryable_op(world.now()).is_some()
        && world.client_offline_until().is_none();
    if open {
        out.push(Action::RetryNow);
        out.push(Action::AdvanceClock(25 * HOUR));
    }
    out
}

/// The kinds of fault the explorer's menu holds for `scenario` (in menu order): what
/// a search of it tries wherever they apply. A kind whose precondition the design never meets
/// (an eviction without a Redis store) is left out.
pub(crate) fn menu(scenario: &Scenario) -> Vec<FaultKind> {
    let p = scenario.protections;
    let mut kinds = vec![FaultKind::Drop, FaultKind::Dup, FaultKind::Delay];
    if !phases(scenario).is_empty() {
        kinds.extend([FaultKind::Crash, FaultKind::Pause]);
    }
    kinds.push(FaultKind::LoseAck);
    let redis = p.idempotency_key && !p.key_in_ledger_tx && !scenario.client_omits_key;
    if redis
        && scenario
            .story
            .nodes()
            .contains(&crate::topology::Node::Store)
    {
        kinds.push(FaultKind::Evict);
    }
    kinds.extend([FaultKind::Retry, FaultKind::Clock]);
    kinds
}

/// The phases a handler of this scenario can reach.
pub(crate) fn phases(scenario: &Scenario) -> Vec<Phase> {
    let p = scenario.protections;
    let charges = scenario.script.iter().any(|s| {
        matches!(
            s.action,
            Action::Start(OpSpec {
                kind: OpKind::Charge { .. },
                ..
            })
        )
    });
    let keyed = p.idempotency_key && !scenario.client_omits_key;
    Phase::ALL
        .into_iter()
        .filter(|phase| match phase {
            Phase::ClaimKey => charges && keyed,
            Phase::CallProcessor => charges,
            Phase::RecordKey => charges && keyed && !p.key_in_ledger_tx,
            Phase::WriteLedger | Phase::Respond => true,
        })
        .collect()
}

/// The explorer's menu, as the page shows it.
impl Explorer {
    /// Every fault the explorer can add to `world` now, in menu order: what the player offers
    /// (drop, duplicate and delay a packet, lose the next answer, crash or pause before a phase,
    /// evict keys, the phone offline, Retry) where it would change something.
    pub fn faults(world: &World) -> Vec<Action> {
        faults(world)
    }

    /// The kinds of fault a search of `scenario` tries (URL names, in menu order).
    pub fn menu_kinds(scenario: &Scenario) -> Vec<&'static str> {
        menu(scenario).into_iter().map(FaultKind::name).collect()
    }

    /// The kinds of fault a search of `scenario` tries, in menu order.
    pub fn menu(scenario: &Scenario) -> Vec<FaultKind> {
        menu(scenario)
    }

    /// The phases a handler of `scenario` can reach (where a crash or a pause can be armed).
    pub fn phases(scenario: &Scenario) -> Vec<Phase> {
        phases(scenario)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::IDS;
    use crate::time::SimTime;

    /// The scenario with every scripted input `shift` milliseconds later.
    fn later(scenario: &Scenario, shift: u64) -> Scenario {
        let mut later = scenario.clone();
        for s in &mut later.script {
            s.at = s.at.plus(shift);
        }
        later
    }

    #[test]
    fn the_view_sees_times_relative_to_now() {
        // The same run started later passes through situations with the same view at every
        // step, though every time in it differs; a different run does not.
        for id in IDS {
            let Ok(scenario) = Scenario::by_id(id) else {
                continue;
            };
            let mut a = World::new(&scenario);
            let mut b = World::new(&later(&scenario, 7_777));
            a.step();
            b.step();
            let mut steps = 0;
            while !a.is_quiescent() {
                assert!(steps < 2_000, "{id}: the run ends");
                assert_eq!(b.now(), a.now().plus(7_777), "{id}");
                assert_eq!(a.view(true), b.view(true), "{id} after {steps} steps");
                assert_eq!(a.view(false), b.view(false), "{id}");
                a.step();
                b.step();
                steps += 1;
            }
            assert!(b.is_quiescent(), "{id}");
            assert!(steps > 0, "{id}: a real run");
        }
    }

    #[test]
    fn the_view_tells_different_situations_apart() {
        let scenario = Scenario::by_id("naive")
            .expect("known")
            .without_scripted_faults();
        let mut world = World::new(&scenario);
        world.step();
        let mut seen = vec![world.view(true)];
        while world.step().is_some() {
            assert!(seen.len() < 2_000, "the run ends");
            let view = world.view(true);
            assert!(
                !seen.contains(&view),
                "every step of a run changes the view"
            );
            seen.push(view);
        }
        // A fault changes it; a packet just sent is part of it only with `with_sent`.
        let mut world = World::new(&scenario);
        world.step();
        let sent = world.network().in_flight().next().map(|m| m.id);
        let mut dropped = world.clone();
        dropped
            .apply(Action::Drop(sent.expect("the request is in flight")))
            .expect("applies");
        assert_ne!(world.view(false), dropped.view(false));
        let mut armed = world.clone();
        armed.apply(Action::Crash(Phase::Respond)).expect("applies");
        assert_ne!(world.view(false), armed.view(false));
        // Arming a crash sends nothing: only which packets were just sent differs from before.
        assert_ne!(world.view(true), armed.view(true));
    }

    #[test]
    fn a_key_past_its_expiry_counts_as_gone() {
        // The phone offline past the key TTL at two different moments: once it wakes, both
        // runs are in the same situation (the keys written at different times are gone).
        let scenario = Scenario::by_id("key")
            .expect("known")
            .without_scripted_faults();
        let offline_at = |steps: usize| {
            let mut world = World::new(&scenario);
            for _ in 0..steps {
                world.step();
            }
            world
                .apply(Action::AdvanceClock(25 * HOUR))
                .expect("the op is open");
            let mut left = 2_000;
            while world.client_offline_until().is_some() {
                assert!(left > 0, "the phone wakes");
                left -= 1;
                world.step();
            }
            world
        };
        let (a, b) = (offline_at(3), offline_at(4));
        assert_ne!(a.now(), b.now(), "woke at different times");
        assert_eq!(a.view(false), b.view(false));
        assert!(a.now() > SimTime(24 * HOUR));
    }

    #[test]
    fn situations_counted_are_the_situations_remembered() {
        // The report's `states` is exactly what the search keeps to merge runs by: the
        // situations it branched at and those remembered on runs without faults left.
        for (id, k) in [("naive", 2), ("key", 2), ("crash-window", 1)] {
            let scenario = Scenario::by_id(id).expect("known");
            let mut explorer = Explorer::new(&scenario, Bounds::faults(k));
            let report = explorer.run_to_end().clone();
            let kept = explorer.memo.len() + explorer.straight.len();
            assert_eq!(report.states, kept as u64, "{id} k={k}");
            assert!(
                explorer.straight.len() > explorer.memo.len(),
                "{id}: both kinds"
            );
            assert!(report.steps > report.states, "{id}: steps between them");
        }
    }

    #[test]
    fn a_carried_crash_is_the_run_it_stands_for() {
        // Every crash the explorer carried instead of simulating: simulating it gives the
        // same run (same verdict, same length).
        let scenario = Scenario::by_id("crash-window").expect("known");
        let mut explorer = Explorer::new(&scenario, Bounds::faults(1));
        let mut checked = 0;
        explorer.pending_root = false;
        let root = explorer.root.clone();
        explorer.enter(
            root,
            1,
            Edge {
                choice: END,
                kind: None,
            },
        );
        // Until the report is done: once the stack is empty, the last units rebuild the
        // counter-examples.
        let mut slices = 0;
        while !explorer.report.done {
            slices += 1;
            assert!(slices < 2_000, "the search ends");
            let Some(frame) = explorer.stack.last() else {
                explorer.run_for(1);
                continue;
            };
            if frame.next < frame.faults.len() {
                let action = frame.faults[frame.next];
                if let (Some(c), Some(world)) = (
                    frame.carry.iter().find(|c| c.action == action),
                    frame.world.as_ref(),
                ) {
                    let mut child = world.clone();
                    child.apply(action).expect("applies");
                    let start = child.step_count();
                    child.run(300);
                    let played = Straight::of(&child, child.step_count() - start, start);
                    assert_eq!(
                        (played.broken, played.cut, played.steps),
                        (c.run.broken, c.run.cut, c.run.steps),
                        "{action:?}"
                    );
                    checked += 1;
                }
            }
            explorer.run_for(1);
        }
        assert!(checked > 5, "crashes were carried: {checked}");
    }
}

#[cfg(test)]
mod lookups;
