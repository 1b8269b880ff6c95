//! "Try every failure" cut into parts that run apart (threads, Web Workers) and merge into
//! exactly the report one [`Explorer`] gives: the same runs, the same violations per invariant,
//! the same shortest counter-example per (invariant, fault kinds), chosen the same way among
//! equally short ones.
//!
//! The search tree hangs off the fault-free run, the *spine*: at each of its steps the
//! explorer tries every fault of the menu (each a subtree with one fault fewer left), then
//! takes the step. Those fault subtrees are the *units*: a part explores the units it is
//! given, one after another, with one memory of situations for all of them (so a part gains
//! what the single search gains from situations met again), and says what each unit holds as
//! a [`UnitOutcome`]. [`Plan::merge`] then folds the outcomes up the spine in the order the
//! single search visits them (each fault of a step in menu order, then the step), which is
//! what makes the merged report equal, tie-breaks included; the counter-examples the merge
//! picks are rebuilt by the parts that explored their units ([`Part::rebuild`]).
//!
//! What differs is the work: situations shared by units of two parts are explored by both, so
//! `states` and `steps` count each part's own (their sum is reported).

use serde::{Deserialize, Serialize};

use crate::action::{Action, KindCounts};
use crate::check::explore::{
    note_tried, rebuild, root, Best, Bounds, CounterExample, Edge, Explorer, Maps, Report, Summary,
    END, STEP,
};
use crate::scenario::Scenario;
use crate::verdict::Invariant;
use crate::world::World;

/// One step of the fault-free run: its world and the faults the menu offers there.
#[derive(Clone, Debug)]
struct Spine {
    world: World,
    faults: Vec<Action>,
}

/// A search cut into units, the same for everyone who builds it from the same scenario and
/// bounds (every part builds its own: it is a few hundred steps of the fault-free run).
#[derive(Clone, Debug)]
pub struct Plan {
    bounds: Bounds,
    /// The steps of the fault-free run that branch (not quiescent, under the step bound, with
    /// faults left).
    spine: Vec<Spine>,
    /// Where the fault-free run ends: its leaf (or the step bound's cut).
    end: Summary,
    /// The world where it ends (the counter-example of a fault-free run that breaks something).
    end_world: World,
    /// The units: (spine step, fault choice), in the order the single search visits them.
    units: Vec<(u32, u32)>,
    /// The fault kinds offered along the spine.
    tried: u32,
}

/// What a unit (a fault subtree of the spine) holds, as a part reports it: enough to merge
/// (its summary) and to show while a search runs (its report so far, with the shortest
/// counter-examples its part found).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitOutcome {
    /// The unit's number in the plan.
    pub unit: u32,
    /// The unit's totals, as a report: runs, violations, cut-offs, situations and steps of its
    /// part's work, the fault kinds it tried, and the shortest counter-examples found in it.
    /// The merge reads its work (situations, steps, kinds tried) and the summary; its
    /// counter-examples are only for showing (a page may drop them before passing it on).
    pub report: Report,
    summary: UnitSummary,
}

/// A [`Summary`] that crosses a thread or a worker (fault kinds as their counts, small numbers
/// JavaScript holds exactly).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct UnitSummary {
    applied: bool,
    runs: u64,
    violating: u64,
    cut_off: u64,
    by_invariant: Vec<u64>,
    longest: u32,
    at_step: u32,
    best: Vec<(u8, KindCounts, u32)>,
}

/// A counter-example the merge picked, to be rebuilt where it was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wanted {
    /// The unit it is in.
    pub unit: u32,
    invariant: u8,
    kinds: KindCounts,
}

/// The merge of every unit: the report without its counter-examples, and which to rebuild (in
/// the single search's order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Merged {
    /// The totals (`shortest` holds only the fault-free run's own counter-examples).
    pub report: Report,
    /// The counter-examples to rebuild, each by the part that explored its unit.
    pub wanted: Vec<Wanted>,
    /// Where each rebuilt counter-example and each of the report's own goes, in order.
    order: Vec<Option<usize>>,
}

impl Plan {
    /// The plan of a search of `scenario` within `bounds` (without its scripted faults, as the
    /// explorer searches).
    pub fn new(scenario: &Scenario, bounds: Bounds) -> Plan {
        let mut world = root(scenario);
        let mut spine = Vec::new();
        let mut units = Vec::new();
        let mut tried = Report::default();
        let end = loop {
            if world.is_quiescent() {
                break Summary::leaf(&world);
            }
            if world.step_count() >= bounds.max_steps {
                break Summary::cut(&world);
            }
            if bounds.max_faults == 0 {
                // No branching at all: the whole search is one straight run, a single unit.
                break Summary::default();
            }
            let faults = crate::explore::faults_of(&world, bounds.kinds);
            note_tried(&mut tried, &faults);
            let at = spine.len() as u32;
            units.extend((0..faults.len() as u32).map(|choice| (at, choice)));
            let next = world.clone();
            spine.push(Spine { world, faults });
            world = next;
            world.step();
        };
        Plan {
            bounds,
            spine,
            end,
            end_world: world,
            units,
            tried: tried.tried,
        }
    }

    /// How many units there are to explore.
    pub fn units(&self) -> usize {
        self.units.len()
    }

    /// The world a unit starts from (the fault applied at its spine step), if the fault applies.
    fn unit_root(&self, unit: usize) -> Option<(World, Action)> {
        let (at, choice) = *self.units.get(unit)?;
        let node = self.spine.get(at as usize)?;
        let action = *node.faults.get(choice as usize)?;
        let mut world = node.world.clone();
        world.apply(action).ok()?;
        Some((world, action))
    }

    /// Folds every unit's outcome up the spine, as the single search does. `outcomes` may come
    /// in any order; a unit missing from it counts as not explored (the merge is then partial).
    pub fn merge(&self, outcomes: &[UnitOutcome]) -> Merged {
        let mut by_unit: Vec<Option<&UnitOutcome>> = vec![None; self.units.len()];
        for o in outcomes {
            if let Some(slot) = by_unit.get_mut(o.unit as usize) {
                *slot = Some(o);
            }
        }
        let mut report = Report {
            by_invariant: Invariant::ALL.iter().map(|i| (*i, 0)).collect(),
            tried: self.tried,
            ..Report::default()
        };
        for o in by_unit.iter().flatten() {
            report.states += o.report.states;
            report.steps += o.report.steps;
            report.tried |= o.report.tried;
        }
        report.steps += self.spine.len() as u64;
        report.states += self.spine.len() as u64;
        // The spine bottom-up: each step's summary absorbs its faults' units in menu order,
        // then the next step's summary.
        let mut summaries: Vec<Summary> = vec![Summary::default(); self.spine.len()];
        let mut below = self.end.clone();
        let mut unit = self.units.len();
        for (at, node) in self.spine.iter().enumerate().rev() {
            let first = unit - node.faults.len();
            let mut acc = Summary::default();
            for (choice, action) in node.faults.iter().enumerate() {
                let Some(outcome) = by_unit[first + choice] else {
                    continue;
                };
                if !outcome.summary.applied {
                    continue;
                }
                let edge = Edge {
                    choice: choice as u32,
                    kind: action.kind(),
                };
                acc.absorb(&outcome.summary.to_summary(), edge, 1);
            }
            let step = Edge {
                choice: STEP,
                kind: None,
            };
            acc.absorb(&below, step, 1);
            acc.at_step = node.world.step_count();
            summaries[at] = acc.clone();
            below = acc;
            unit = first;
        }
        let mut top = Summary::default();
        let edge = Edge {
            choice: END,
            kind: None,
        };
        // With no fault allowed, the one run is the search: the explorer's straight root.
        if self.bounds.max_faults == 0 {
            let mut explorer = Explorer::new_at(self.end_world.clone(), self.bounds);
            explorer.run_to_end();
            return Merged {
                report: explorer.report().clone(),
                wanted: Vec::new(),
                order: Vec::new(),
            };
        }
        top.absorb(&below, edge, 0);
        report.runs = top.runs;
        report.violating_runs = top.violating;
        report.cut_off = top.cut_off;
        for (i, (_, n)) in report.by_invariant.iter_mut().enumerate() {
            *n = top.by_invariant[i];
        }
        // Which unit holds each shortest counter-example: follow its choices down the spine.
        let mut wanted = Vec::new();
        let mut order = Vec::new();
        for best in &top.best {
            let mut kinds = best.kinds;
            let mut at = 0usize;
            let found = loop {
                let Some(summary) = summaries.get(at) else {
                    // The end of the spine: the fault-free run itself breaks the invariant.
                    break Some(None);
                };
                let Some(entry) = summary
                    .best
                    .iter()
                    .find(|b| b.invariant == best.invariant && b.kinds == kinds)
                else {
                    break None;
                };
                match entry.choice {
                    STEP => at += 1,
                    END => break Some(None),
                    choice => {
                        let first = self.units.partition_point(|(a, _)| (*a as usize) < at);
                        let u = first + choice as usize;
                        let action = self.spine[at].faults[choice as usize];
                        if let Some(kind) = action.kind() {
                            kinds = kinds.without(kind);
                        }
                        break Some(Some(Wanted {
                            unit: u as u32,
                            invariant: best.invariant,
                            kinds,
                        }));
                    }
                }
            };
            match found {
                Some(Some(w)) => {
                    order.push(Some(wanted.len()));
                    wanted.push(w);
                }
                Some(None) => {
                    let invariant = Invariant::ALL[usize::from(best.invariant)];
                    order.push(None);
                    report.shortest.push(CounterExample {
                        invariant,
                        injected: self.end_world.injected().to_vec(),
                        steps: self.end_world.step_count(),
                    });
                }
                None => {}
            }
        }
        report.done = by_unit.iter().all(Option::is_some);
        Merged {
            report,
            wanted,
            order,
        }
    }

    /// The final report: `merged` with the counter-examples its parts rebuilt, one per
    /// [`Merged::wanted`] in order (`None` for one that could not be rebuilt), sorted as the
    /// single search sorts them.
    pub fn finish(&self, merged: Merged, rebuilt: Vec<Option<CounterExample>>) -> Report {
        let Merged {
            mut report, order, ..
        } = merged;
        let mut own = std::mem::take(&mut report.shortest).into_iter();
        let mut shortest = Vec::new();
        for slot in order {
            let cx = match slot {
                Some(i) => rebuilt.get(i).cloned().flatten(),
                None => own.next(),
            };
            shortest.extend(cx);
        }
        shortest.sort_by_key(|c| (c.faults(), c.steps, c.invariant));
        report.shortest = shortest;
        report
    }
}

impl UnitSummary {
    fn of(summary: &Summary) -> UnitSummary {
        UnitSummary {
            applied: true,
            runs: summary.runs,
            violating: summary.violating,
            cut_off: summary.cut_off,
            by_invariant: summary.by_invariant.to_vec(),
            longest: summary.longest,
            at_step: summary.at_step,
            best: summary
                .best
                .iter()
                .map(|b| (b.invariant, b.kinds, b.steps))
                .collect(),
        }
    }

    fn skipped() -> UnitSummary {
        UnitSummary {
            applied: false,
            runs: 0,
            violating: 0,
            cut_off: 0,
            by_invariant: Vec::new(),
            longest: 0,
            at_step: 0,
            best: Vec::new(),
        }
    }

    fn to_summary(&self) -> Summary {
        let mut by_invariant = [0u64; Invariant::ALL.len()];
        for (a, b) in by_invariant.iter_mut().zip(&self.by_invariant) {
            *a = *b;
        }
        Summary {
            runs: self.runs,
            violating: self.violating,
            cut_off: self.cut_off,
            by_invariant,
            longest: self.longest,
            at_step: self.at_step,
            best: self
                .best
                .iter()
                .map(|(invariant, kinds, steps)| Best {
                    invariant: *invariant,
                    kinds: *kinds,
                    steps: *steps,
                    // Not followed: a part rebuilds inside its unit from its own memory.
                    choice: END,
                })
                .collect(),
        }
    }
}

/// One part of a search: explores the units it is given, one at a time and resumably, with one
/// memory of situations for all of them, and rebuilds the counter-examples of its units.
#[derive(Debug)]
pub struct Part {
    plan: Plan,
    maps: Maps,
    /// The unit being explored (no explorer: its fault does not apply, nothing to explore).
    current: Option<(u32, Option<Explorer>)>,
}

impl Part {
    /// A part of `plan`'s search, with nothing explored yet.
    pub fn new(plan: Plan) -> Part {
        Part {
            plan,
            maps: Maps::default(),
            current: None,
        }
    }

    /// The plan this part works on.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Starts exploring unit `unit` (dropping a unit not finished); its outcome comes from
    /// [`Part::run_while`]. `None` when the plan has no such unit.
    pub fn begin(&mut self, unit: u32) -> Option<()> {
        self.park();
        let (world, _) = match self.plan.unit_root(unit as usize) {
            Some(found) => found,
            None if (unit as usize) < self.plan.units() => {
                // The fault does not apply here: the single search skips it too.
                self.current = Some((unit, None));
                return Some(());
            }
            None => return None,
        };
        let bounds = Bounds {
            max_faults: self.plan.bounds.max_faults - 1,
            ..self.plan.bounds
        };
        let explorer = Explorer::with_maps(world, bounds, std::mem::take(&mut self.maps));
        self.current = Some((unit, Some(explorer)));
        Some(())
    }

    /// Explores the current unit while `more` says so (see [`Explorer::run_while`]); its
    /// outcome once it is finished.
    pub fn run_while(&mut self, more: impl FnMut() -> bool) -> Option<UnitOutcome> {
        let (unit, explorer) = self.current.as_mut()?;
        let unit = *unit;
        let Some(explorer) = explorer else {
            self.current = None;
            return Some(UnitOutcome {
                unit,
                report: Report {
                    by_invariant: Invariant::ALL.iter().map(|i| (*i, 0)).collect(),
                    done: true,
                    ..Report::default()
                },
                summary: UnitSummary::skipped(),
            });
        };
        if !explorer.explore_while(more) {
            return None;
        }
        let explorer = self.current.take()?.1?;
        let (report, top, maps) = explorer.into_parts();
        self.maps = maps;
        Some(UnitOutcome {
            unit,
            report,
            summary: UnitSummary::of(&top),
        })
    }

    /// The current unit's totals so far (`None` when no unit is being explored).
    pub fn progress(&self) -> Option<(u32, &Report)> {
        match &self.current {
            Some((unit, Some(explorer))) => Some((*unit, explorer.report())),
            _ => None,
        }
    }

    /// Puts an unfinished unit's memory back (its situations stay valid).
    fn park(&mut self) {
        if let Some((_, Some(explorer))) = self.current.take() {
            let (_, _, maps) = explorer.into_parts();
            self.maps = maps;
        }
    }

    /// Rebuilds a counter-example the merge picked in one of this part's units, from the part's
    /// memory of the unit's situations.
    pub fn rebuild(&mut self, wanted: &Wanted) -> Option<CounterExample> {
        self.park();
        let (world, _) = self.plan.unit_root(wanted.unit as usize)?;
        let bounds = Bounds {
            max_faults: self.plan.bounds.max_faults - 1,
            ..self.plan.bounds
        };
        let best = Best {
            invariant: wanted.invariant,
            kinds: wanted.kinds,
            steps: 0,
            choice: END,
        };
        rebuild(&self.maps, world, bounds, &best)
    }
}

/// Runs a search on `threads` threads (at least one), each a [`Part`] taking the next unit as
/// it finishes one, and merges their outcomes: the report [`Explorer`] gives, but for `states`
/// and `steps` (each part's own work, summed).
#[cfg(not(target_arch = "wasm32"))]
pub fn explore_parallel(scenario: &Scenario, bounds: Bounds, threads: usize) -> Report {
    use std::sync::atomic::{AtomicU32, Ordering};
    let plan = Plan::new(scenario, bounds);
    let next = AtomicU32::new(0);
    let units = plan.units() as u32;
    let (outcomes, mut parts): (Vec<Vec<UnitOutcome>>, Vec<Part>) = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let plan = plan.clone();
                let next = &next;
                s.spawn(move || {
                    let mut part = Part::new(plan);
                    let mut mine = Vec::new();
                    loop {
                        let unit = next.fetch_add(1, Ordering::Relaxed);
                        if unit >= units || part.begin(unit).is_none() {
                            break;
                        }
                        mine.extend(part.run_while(|| true));
                    }
                    (mine, part)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a search thread panicked"))
            .unzip()
    });
    let all: Vec<UnitOutcome> = outcomes.iter().flatten().cloned().collect();
    let merged = plan.merge(&all);
    let rebuilt = merged
        .wanted
        .iter()
        .map(|w| {
            let owner = outcomes
                .iter()
                .position(|mine| mine.iter().any(|o| o.unit == w.unit))?;
            parts[owner].rebuild(w)
        })
        .collect();
    plan.finish(merged, rebuilt)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The explorer's menu offers only faults that apply, so no unit of any scenario's plan is
    /// skipped; should one not apply, its unit is explored as nothing, as the single search
    /// skips it, and the merge leaves it out.
    #[test]
    fn a_unit_whose_fault_does_not_apply_is_explored_as_nothing() {
        let scenario = Scenario::by_id("key").expect("key");
        let mut plan = Plan::new(&scenario, Bounds::faults(2));
        let whole = plan.merge(&[]).report.runs;
        let (at, choice) = plan.units[0];
        plan.spine[at as usize].faults[choice as usize] = Action::Drop(crate::topology::MsgId(999));
        let mut part = Part::new(plan.clone());
        part.begin(0).expect("unit 0 is the plan's");
        assert_eq!(part.progress(), None, "nothing to explore");
        let outcome = part.run_while(|| true).expect("over at once");
        assert_eq!(outcome.unit, 0);
        assert!(outcome.report.done);
        assert_eq!(outcome.report.runs, 0);
        assert_eq!(
            outcome.report.by_invariant,
            Invariant::ALL.iter().map(|i| (*i, 0)).collect::<Vec<_>>()
        );
        assert!(!outcome.summary.applied);
        assert_eq!(part.run_while(|| true), None, "no unit is being explored");
        let merged = plan.merge(&[outcome]);
        assert_eq!(merged.report.runs, whole, "the skipped unit adds no run");
        assert!(part.begin(plan.units() as u32).is_none(), "no such unit");
    }
}
