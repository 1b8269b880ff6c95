//! Two designs side by side: a [`Pair`] of worlds of the same story (see
//! [`crate::scenario::COMPARE`]) driven by one timeline, so a fault or a button reaches both at
//! the same simulated moment; the [`Gist`] of each side, from which the page says what differs;
//! and what changed between two searches of the explorer ([`class_diff`]).

use serde::{Deserialize, Serialize};

use crate::action::{Action, ActionError};
use crate::client::Told;
use crate::explore::CounterExample;
use crate::outcome::{Ending, Outcome};
use crate::scenario::Scenario;
use crate::time::SimTime;
use crate::verdict::Invariant;
use crate::world::{Step, World};

/// Two worlds on one timeline. A joint step steps every world whose next event is the
/// earliest, so both have lived through the same simulated time; an action applies to both
/// where it applies. Deterministic: the scenarios and the injected actions rebuild it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pair {
    left: World,
    right: World,
    steps: u32,
    injected: Vec<(u32, Action)>,
}

/// What an action did to each side of a pair: `None` where it applied, the refusal where not.
pub type Sides = [Option<ActionError>; 2];

impl Pair {
    /// Both worlds at time zero.
    pub fn new(left: &Scenario, right: &Scenario) -> Pair {
        Pair {
            left: World::new(left),
            right: World::new(right),
            steps: 0,
            injected: Vec::new(),
        }
    }

    /// The left world.
    pub fn left(&self) -> &World {
        &self.left
    }

    /// The right world.
    pub fn right(&self) -> &World {
        &self.right
    }

    /// Takes both worlds' step logs out, left then right (see [`World::take_steps`]).
    pub fn take_steps(&mut self) -> [Vec<Step>; 2] {
        [self.left.take_steps(), self.right.take_steps()]
    }

    /// Puts back step logs taken out by [`Pair::take_steps`] (see [`World::set_steps`]).
    pub fn set_steps(&mut self, [left, right]: [Vec<Step>; 2]) {
        self.left.set_steps(left);
        self.right.set_steps(right);
    }

    /// Joint steps taken (an applied action is one).
    pub fn step_count(&self) -> u32 {
        self.steps
    }

    /// Actions applied, each with the joint step count before it.
    pub fn injected(&self) -> &[(u32, Action)] {
        &self.injected
    }

    /// The simulated time both worlds have reached.
    pub fn now(&self) -> SimTime {
        self.left.now().max(self.right.now())
    }

    /// When the earliest next event of either world is due.
    pub fn next_wakeup(&self) -> Option<SimTime> {
        match (self.left.next_wakeup(), self.right.next_wakeup()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Nothing is left to happen on either side.
    pub fn is_quiescent(&self) -> bool {
        self.left.is_quiescent() && self.right.is_quiescent()
    }

    /// One joint step: every world whose next event is the earliest takes it. False when
    /// both are quiescent.
    pub fn step(&mut self) -> bool {
        let Some(t) = self.next_wakeup() else {
            return false;
        };
        for world in [&mut self.left, &mut self.right] {
            if world.next_wakeup() == Some(t) {
                world.step();
            }
        }
        self.steps += 1;
        true
    }

    /// Applies `action` to both worlds now. A side that refuses it is left as it was (its
    /// refusal is returned); when both refuse, nothing changes and the left refusal is the
    /// error.
    pub fn apply(&mut self, action: Action) -> Result<Sides, ActionError> {
        // A refused action leaves its world untouched (it is checked before it is applied).
        let l = self.left.apply(action).err();
        let r = self.right.apply(action).err();
        if let (Some(e), Some(_)) = (&l, &r) {
            return Err(*e);
        }
        self.injected.push((self.steps, action));
        self.steps += 1;
        Ok([l, r])
    }

    /// Rebuilds a pair like [`World::replay_each`]: the scenarios, then `injected` at their
    /// joint step counts, stepping until `steps` joint steps exist (or nothing is left),
    /// calling `each` after every step. On an action refused by both sides, its index.
    pub fn replay_each(
        left: &Scenario,
        right: &Scenario,
        injected: &[(u32, Action)],
        steps: u32,
        mut each: impl FnMut(&Pair),
    ) -> Result<Pair, (usize, ActionError)> {
        let mut pair = Pair::new(left, right);
        let mut pending = injected.iter().enumerate().peekable();
        while pair.steps < steps {
            let due = pending.peek().is_some_and(|(_, (at, _))| *at <= pair.steps);
            if due || pair.is_quiescent() {
                let Some((index, (_, action))) = pending.next() else {
                    break;
                };
                pair.apply(*action).map_err(|e| (index, e))?;
            } else if !pair.step() {
                // Cannot happen (the pair is not quiescent): no spinning without progress.
                break;
            }
            each(&pair);
        }
        Ok(pair)
    }

    /// What each side amounts to now.
    pub fn gists(&self) -> [Gist; 2] {
        [Gist::of(&self.left), Gist::of(&self.right)]
    }
}

/// What a run amounts to, in the few facts a one-line comparison needs (from [`Outcome`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Gist {
    /// The run is over.
    pub quiescent: bool,
    /// The first broken invariant, if any.
    pub broken: Option<Invariant>,
    /// Most effects one operation had (2 = charged, debited or liked twice).
    pub effects: usize,
    /// Some answer came from the stored response (a replay, not a second effect).
    pub replayed: bool,
    /// Some operation ended telling its user it failed (an error screen, or "we couldn't
    /// confirm"), by [`crate::Told`].
    pub error: bool,
    /// Some operation ended showing the current state (the balance a 412 carries).
    pub shown_state: bool,
}

impl Gist {
    /// The gist of `world` as it stands.
    pub fn of(world: &World) -> Gist {
        let outcome = Outcome::of(world);
        Gist {
            quiescent: outcome.quiescent,
            broken: outcome.broken.first().copied(),
            effects: outcome.ops.iter().map(|o| o.effects).max().unwrap_or(0),
            replayed: outcome
                .ops
                .iter()
                .any(|o| matches!(o.ending, Ending::Success { replayed: true, .. })),
            error: outcome
                .ops
                .iter()
                .any(|o| matches!(o.told, Told::Failed | Told::Unconfirmed)),
            shown_state: outcome.ops.iter().any(|o| o.told == Told::State),
        }
    }

    /// No invariant is broken.
    pub fn ok(&self) -> bool {
        self.broken.is_none()
    }
}

/// A class of counter-examples: the invariant broken and the kinds of faults that break it
/// (the explorer keeps one shortest counter-example per class).
pub type Class = (Invariant, Vec<&'static str>);

/// The class of a counter-example.
pub fn class_of(cx: &CounterExample) -> Class {
    (cx.invariant, cx.signature())
}

/// What changed between two searches: the classes the earlier one found that the later one
/// did not (fixed) and the classes only the later one found (new), each in its search's order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct ClassDiff {
    /// Gone since the previous search.
    pub fixed: Vec<Class>,
    /// Appeared since the previous search.
    pub new: Vec<Class>,
}

/// The classes of `before` missing from `after`, and those of `after` missing from `before`.
pub fn class_diff(before: &[Class], after: &[Class]) -> ClassDiff {
    let missing = |from: &[Class], other: &[Class]| -> Vec<Class> {
        let mut out: Vec<Class> = Vec::new();
        for c in from {
            if !other.contains(c) && !out.contains(c) {
                out.push(c.clone());
            }
        }
        out
    };
    ClassDiff {
        fixed: missing(before, after),
        new: missing(after, before),
    }
}
