//! "Try every failure": a bounded, exhaustive search over fault schedules.
//!
//! From the scenario's start, every state branches into "nothing goes wrong, take the next
//! step" and, while fewer than `max_faults` faults were used, "inject fault F now" for every
//! fault that applies: drop or duplicate each packet on the mobile link, crash the API before
//! each phase, the client retrying early, a concurrent second request, the phone going
//! offline past the key TTL. States already visited with at least as many faults left are
//! skipped (see [`World::state_hash`]). Every run that reaches quiescence is judged with
//! [`World::verdict`]; the shortest violating schedule per invariant (fewest faults, then fewest
//! steps) is kept as the injected actions, which [`World::replay`] turns back into a world.
//!
//! The search is resumable: [`Explorer::run_for`] does a bounded slice of work, so a page can
//! interleave it with animation frames.

use serde::{Deserialize, Serialize};

use crate::action::{Action, OpKind, OpSpec};
use crate::api::Phase;
use crate::scenario::Scenario;
use crate::time::HOUR;
use crate::verdict::Invariant;
use crate::world::World;

/// Limits of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bounds {
    /// At most this many faults per run (the lesson offers 1 to 4).
    pub max_faults: u32,
    /// A run that takes more steps than this is cut off and counted in `cut_off`.
    pub max_steps: u32,
}

impl Bounds {
    /// `k` faults, 300 steps.
    pub fn faults(k: u32) -> Bounds {
        Bounds {
            max_faults: k,
            max_steps: 300,
        }
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

    /// The kinds of its faults, sorted: counter-examples are kept per invariant and kind set,
    /// so the student sees each distinct way to break an invariant.
    pub fn signature(&self) -> Vec<&'static str> {
        let mut kinds: Vec<&'static str> =
            self.injected.iter().map(|(_, a)| a.kind_name()).collect();
        kinds.sort_unstable();
        kinds
    }

    fn shorter_than(&self, other: &CounterExample) -> bool {
        (self.faults(), self.steps) < (other.faults(), other.steps)
    }
}

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Report {
    /// Runs explored to the end (or to the step bound).
    pub runs: u64,
    /// Distinct states visited where a fault could still be injected.
    pub states: u64,
    /// Steps simulated in all (branch points and straight runs).
    pub steps: u64,
    /// Runs that broke at least one invariant.
    pub violating_runs: u64,
    /// Violating runs per invariant.
    pub by_invariant: Vec<(Invariant, u64)>,
    /// Runs cut off by the step bound (not judged).
    pub cut_off: u64,
    /// The shortest counter-example per broken invariant and set of fault kinds, shortest
    /// first (fewest faults, then fewest steps).
    pub shortest: Vec<CounterExample>,
    /// Whether the search has finished.
    pub done: bool,
}

impl Report {
    /// Violating runs for one invariant.
    pub fn violations_of(&self, invariant: Invariant) -> u64 {
        self.by_invariant
            .iter()
            .find(|(i, _)| *i == invariant)
            .map_or(0, |(_, n)| *n)
    }

    /// The shortest counter-example over all invariants.
    pub fn shortest_overall(&self) -> Option<&CounterExample> {
        self.shortest.first()
    }
}

/// A resumable depth-first search.
#[derive(Clone, Debug)]
pub struct Explorer {
    bounds: Bounds,
    stack: Vec<(World, u32)>,
    seen: rustc_hash::FxHashMap<u64, u32>,
    report: Report,
}

impl Explorer {
    /// A search within `bounds` from `scenario`'s operations, without its scripted faults:
    /// counter-examples replay on [`Scenario::without_scripted_faults`].
    pub fn new(scenario: &Scenario, bounds: Bounds) -> Explorer {
        Explorer {
            bounds,
            stack: vec![(root(scenario), 0)],
            seen: rustc_hash::FxHashMap::default(),
            report: Report {
                by_invariant: Invariant::ALL.iter().map(|i| (*i, 0)).collect(),
                ..Report::default()
            },
        }
    }

    /// Explores up to `budget` more states; returns true when the search is complete.
    pub fn run_for(&mut self, budget: u64) -> bool {
        let mut visited = 0;
        while visited < budget {
            let Some((world, used)) = self.stack.pop() else {
                self.report.done = true;
                return true;
            };
            let remaining = self.bounds.max_faults - used;
            let key = world.state_hash();
            match self.seen.get(&key) {
                Some(seen_remaining) if *seen_remaining >= remaining => continue,
                _ => {}
            }
            self.seen.insert(key, remaining);
            self.report.states += 1;
            visited += 1;
            self.expand(world, used);
        }
        self.report.done = self.stack.is_empty();
        self.report.done
    }

    /// Runs the search to the end.
    pub fn run_to_end(&mut self) -> &Report {
        while !self.run_for(u64::MAX) {}
        &self.report
    }

    /// What has been found so far.
    pub fn report(&self) -> &Report {
        &self.report
    }

    fn expand(&mut self, mut world: World, used: u32) {
        if used == self.bounds.max_faults {
            // No faults left: this branch is a single run; play it out without hashing.
            while world.step_count() < self.bounds.max_steps && world.step().is_some() {
                self.report.steps += 1;
            }
        }
        if world.is_quiescent() {
            self.judge(&world);
            return;
        }
        if world.step_count() >= self.bounds.max_steps {
            self.report.runs += 1;
            self.report.cut_off += 1;
            return;
        }
        if used < self.bounds.max_faults {
            for action in faults(&world) {
                let mut branch = world.clone();
                if branch.apply(action).is_ok() {
                    self.stack.push((branch, used + 1));
                }
            }
        }
        world.step();
        self.report.steps += 1;
        self.stack.push((world, used));
    }

    fn judge(&mut self, world: &World) {
        self.report.runs += 1;
        let verdict = world.verdict();
        let mut violated = false;
        for (invariant, _) in verdict.violations() {
            violated = true;
            if let Some((_, n)) = self
                .report
                .by_invariant
                .iter_mut()
                .find(|(i, _)| *i == invariant)
            {
                *n += 1;
            }
            let candidate = CounterExample {
                invariant,
                injected: world.injected().to_vec(),
                steps: world.step_count(),
            };
            let signature = candidate.signature();
            let same_kind =
                |c: &&mut CounterExample| c.invariant == invariant && c.signature() == signature;
            match self.report.shortest.iter_mut().find(same_kind) {
                Some(best) if candidate.shorter_than(best) => *best = candidate,
                Some(_) => {}
                None => self.report.shortest.push(candidate),
            }
            self.report
                .shortest
                .sort_unstable_by_key(|c| (c.faults(), c.steps, c.invariant));
        }
        if violated {
            self.report.violating_runs += 1;
        }
    }
}

fn root(scenario: &Scenario) -> World {
    let mut world = World::new(&scenario.clone().without_scripted_faults());
    world.forget_history();
    world
}

/// Every fault the explorer may inject in `world` now. Positions that cannot change the
/// outcome are skipped: a packet is dropped or duplicated only in the step that sent it (later
/// would be the same run), a crash is armed only just before the API handles something and
/// only for phases this scenario has, and client faults only while an operation is open.
pub fn faults(world: &World) -> Vec<Action> {
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
    }
    if world.api().crash_armed().is_none() && world.api_acts_next() {
        out.extend(phases(world.scenario()).into_iter().map(Action::Crash));
    }
    let open = world.client().retryable_op(world.now()).is_some()
        && world.client_offline_until().is_none();
    if open {
        out.push(Action::RetryNow);
        out.push(Action::ConcurrentDuplicate);
        out.push(Action::AdvanceClock(25 * HOUR));
    }
    out
}

/// The phases a handler of this scenario can reach.
pub fn phases(scenario: &Scenario) -> Vec<Phase> {
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
