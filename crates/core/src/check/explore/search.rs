//! The search itself: a resumable walk over the situations of the fault-schedule tree, each
//! distinct one explored once ([`Explorer`]), and the replay that rebuilds a shortest
//! counter-example from what it remembered ([`rebuild`]).

use super::menu::faults_of;
use super::report::{note_tried, Bounds, CounterExample, Report};
use super::summary::{Best, Edge, Straight, Summary, END, STEP};
use crate::action::{Action, KindCounts};
use crate::scenario::Scenario;
use crate::verdict::Invariant;
use crate::world::World;

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
    pub(super) bounds: Bounds,
    pub(super) root: World,
    pub(super) pending_root: bool,
    pub(super) stack: Vec<Frame>,
    pub(super) memo: rustc_hash::FxHashMap<(u128, u32), Summary>,
    pub(super) straight: rustc_hash::FxHashMap<u128, Straight>,
    pub(super) top: Summary,
    /// While running: the shortest counter-example per (invariant, kinds) among the runs
    /// simulated so far, shown if the search is stopped early.
    pub(super) found: Vec<(u8, KindCounts, CounterExample)>,
    /// Whether `found` changed since the report last listed it.
    pub(super) found_changed: bool,
    /// Whether the final counter-examples were rebuilt.
    pub(super) rebuilt: bool,
    /// How many of `top.best` were rebuilt so far, into `shortest`.
    pub(super) rebuilt_from: usize,
    pub(super) shortest: Vec<CounterExample>,
    pub(super) report: Report,
    /// The straight run [`Explorer::play_out`] last absorbed.
    pub(super) last_run: Option<Straight>,
    /// The carries for the next frame pushed.
    pub(super) pending_carry: Vec<Carry>,
    /// Whether the search ends once explored, leaving the counter-examples unbuilt (a part).
    pub(super) stop_before_rebuild: bool,
}

/// A node being explored: its world, its key, its children still to try, what its finished
/// children add up to, and how it hangs below its parent.
#[derive(Clone, Debug)]
pub(super) struct Frame {
    pub(super) world: Option<World>,
    pub(super) key: (u128, u32),
    pub(super) at_step: u32,
    pub(super) faults: Vec<Action>,
    pub(super) next: usize,
    pub(super) acc: Summary,
    pub(super) edge: Edge,
    /// Crashes armed at an earlier node of this straight line of steps, still armed here: their
    /// runs from this node are known (see [`Carry`]).
    pub(super) carry: Vec<Carry>,
    /// Crashes armed here whose runs were played out: carried to the step child.
    pub(super) carry_next: Vec<Carry>,
}

/// A crash armed at node N one fault before the end, whose straight run `run` is known: as
/// long as it has not fired, "arm, then step" is "step, then arm" (arming changes nothing
/// until the handler enters that phase), so at N's step child the same crash leads to the
/// same run one step shorter, without simulating it (`run.armed`: for how many more steps).
#[derive(Clone, Copy, Debug)]
pub(super) struct Carry {
    pub(super) action: Action,
    pub(super) run: Straight,
}

/// Whether a straight run remembers the situation it is in (every remembered situation costs
/// a fingerprint and a map entry; a run met again is looked up only where it was remembered).
/// Runs meet where a crash armed earlier is still armed (one armed later starts there), where
/// the phone wakes after going offline at different moments (by then the servers are idle
/// and what differed is past), and after a step that sent nothing: a packet was absorbed (a
/// duplicate answered and ignored, a reply lost, an ack that arrived), which is where runs that
/// differed in an extra packet come back together (k = 3 `scope`: 28 % fewer steps; recording
/// after every step saves more steps but costs more fingerprints than it saves).
pub(super) fn worth_recording(world: &World) -> bool {
    world.api().crash_armed().is_some()
        || world
            .steps()
            .last()
            .is_some_and(|s| s.sent.is_empty() || s.cause == crate::world::Cause::ClientWake)
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
    pub(super) fn enter(&mut self, world: World, remaining: u32, edge: Edge) {
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
    pub(super) fn play_out(&mut self, mut world: World, edge: Edge) {
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
    pub(super) fn note_found(&mut self, world: &World, broken: impl Iterator<Item = u8>) {
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
