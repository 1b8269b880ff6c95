//! A run's timeline: a kept state every [`CHECKPOINT`] steps without its step log, the last
//! state whole (the one full copy of the log), and the state at the cursor whole. Keeping the world after every step, each with the whole log before it,
//! made a run's memory grow with the square of its length (issue #44 item 4; figures in
//! docs/measurements.md, `cargo run --release -p idem-lesson --example run_memory`). The core
//! is deterministic and the last state lists every action injected on the timeline with its
//! step count, so any other state is rebuilt from the checkpoint before it by taking the same
//! steps again.
//!
//! One code path serves both shapes ([`Worlds`]): no code is generated twice for the page's
//! first download.
use idem_core::{Action, ActionError, DeepLink, Pair, SimTime, World};

/// Steps between two kept states: rebuilding a state takes at most this many steps of a world
/// without its log (microseconds), and the kept states are this many times fewer.
pub(super) const CHECKPOINT: usize = 64;

/// The shape of a run: one world, or two on one timeline in compare mode (the core's
/// [`Pair`], whose left world is the run's).
#[derive(Clone, Debug, PartialEq)]
#[expect(
    clippy::large_enum_variant,
    reason = "a box would cost the first download its code; a run holds few of them"
)]
pub(super) enum Worlds {
    One(World),
    Two(Pair),
}

impl Worlds {
    /// The run's world (the left one of a pair).
    pub(super) fn left(&self) -> &World {
        match self {
            Worlds::One(w) => w,
            Worlds::Two(p) => p.left(),
        }
    }

    /// The pair, in compare mode.
    pub(super) fn pair(&self) -> Option<&Pair> {
        match self {
            Worlds::One(_) => None,
            Worlds::Two(p) => Some(p),
        }
    }

    /// The run's world, taken out of its state.
    pub(super) fn into_left(self) -> World {
        match self {
            Worlds::One(w) => w,
            Worlds::Two(p) => p.left().clone(),
        }
    }

    /// Steps taken (an applied action is one; a pair's are joint steps).
    fn step_count(&self) -> u32 {
        match self {
            Worlds::One(w) => w.step_count(),
            Worlds::Two(p) => p.step_count(),
        }
    }

    /// Every action injected so far, each with the step count before it.
    pub(super) fn injected(&self) -> &[(u32, Action)] {
        match self {
            Worlds::One(w) => w.injected(),
            Worlds::Two(p) => p.injected(),
        }
    }

    /// The simulated time reached (both sides' in compare mode).
    pub(super) fn now(&self) -> SimTime {
        match self {
            Worlds::One(w) => w.now(),
            Worlds::Two(p) => p.now(),
        }
    }

    /// When the next event is due, if anything is left to happen.
    pub(super) fn next_wakeup(&self) -> Option<SimTime> {
        match self {
            Worlds::One(w) => w.next_wakeup(),
            Worlds::Two(p) => p.next_wakeup(),
        }
    }

    /// Nothing is left to happen.
    pub(super) fn is_quiescent(&self) -> bool {
        match self {
            Worlds::One(w) => w.is_quiescent(),
            Worlds::Two(p) => p.is_quiescent(),
        }
    }

    /// One step on; false when nothing is left to happen.
    fn step(&mut self) -> bool {
        match self {
            Worlds::One(w) => w.step().is_some(),
            Worlds::Two(p) => p.step(),
        }
    }

    /// Applies `action` now (in compare mode to both worlds, refused when both refuse).
    fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        match self {
            Worlds::One(w) => w.apply(action).map(drop),
            Worlds::Two(p) => p.apply(action).map(drop),
        }
    }

    /// This state without its step logs.
    fn without_steps(mut self) -> Worlds {
        match &mut self {
            Worlds::One(w) => drop(w.take_steps()),
            Worlds::Two(p) => drop(p.take_steps()),
        }
        self
    }

    /// Gives this state without its step logs the ones it has lived through: the first steps
    /// of `later`'s, a state of the same timeline at least as far on (a world's log holds one
    /// step per step taken).
    fn lived(&mut self, later: &Worlds) {
        let first = |w: &World, all: &World| {
            let log = all.steps();
            log[..log.len().min(w.step_count() as usize)].to_vec()
        };
        match (self, later) {
            (Worlds::One(w), Worlds::One(all)) => w.set_steps(first(w, all)),
            (Worlds::Two(p), Worlds::Two(all)) => {
                p.set_steps([first(p.left(), all.left()), first(p.right(), all.right())])
            }
            _ => {}
        }
    }

    /// Moves on by one move of a replay placing `pending` (the injected actions still to come,
    /// each at its step count) as the core replays a deep link (`World::replay_each`): the
    /// next action once its step count is reached or nothing else is left to happen, a step
    /// otherwise. False when nothing is left; a refused action is not taken off `pending`.
    fn advance(&mut self, pending: &mut &[(u32, Action)]) -> Result<bool, ActionError> {
        match pending.split_first() {
            Some((&(at, action), rest)) if at <= self.step_count() || self.is_quiescent() => {
                self.apply(action)?;
                *pending = rest;
                Ok(true)
            }
            _ => Ok(self.step()),
        }
    }
}

/// Every state of one run, kept as checkpoints and rebuilt on demand, the last one whole and
/// the one at the cursor whole. Every state lived through the first steps of the last one's
/// logs: a state's log only grows, and the states after a changed past are dropped with their
/// steps.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Timeline {
    /// The simulated time of each state: after 0, 1, 2, … steps.
    times: Vec<SimTime>,
    /// The states after 0, CHECKPOINT, 2 × CHECKPOINT, … steps, without their step logs.
    checkpoints: Vec<Worlds>,
    /// The last state, with the step logs (the only whole copy of the run's) and every
    /// action injected on the timeline; the next steps start from it.
    last: Worlds,
    /// The state at the cursor with its step logs, which is what the views read.
    shown: Worlds,
    cursor: usize,
}

impl Timeline {
    /// The timeline of one state, `start` (no step taken yet), shown.
    pub(super) fn new(start: Worlds) -> Timeline {
        let mut timeline = Timeline {
            times: Vec::new(),
            checkpoints: Vec::new(),
            last: start.clone(),
            shown: start,
            cursor: 0,
        };
        timeline.record();
        timeline
    }

    /// Adds the steps after the last state with `faults` placed at their step counts as a
    /// deep link places them, up to [`DeepLink::MAX_STEP`] steps. A refused fault: its index
    /// in `faults` and why.
    pub(super) fn play(&mut self, faults: &[(u32, Action)]) -> Result<(), (usize, ActionError)> {
        let mut pending = faults;
        while self.times.len() <= DeepLink::MAX_STEP as usize
            && self
                .last
                .advance(&mut pending)
                .map_err(|e| (faults.len() - pending.len(), e))?
        {
            self.record();
        }
        Ok(())
    }

    /// Records the last state, just moved on.
    fn record(&mut self) {
        if self.times.len().is_multiple_of(CHECKPOINT) {
            // (A copy of the log made and dropped once every CHECKPOINT steps: less code than
            // copying the world around it.)
            self.checkpoints.push(self.last.clone().without_steps());
        }
        self.times.push(self.last.now());
    }

    /// How many states are known (one more than the steps).
    pub(super) fn len(&self) -> usize {
        self.times.len()
    }

    pub(super) fn cursor(&self) -> usize {
        self.cursor
    }

    /// The state at the cursor, with its step logs.
    pub(super) fn shown(&self) -> &Worlds {
        &self.shown
    }

    /// The first state (no step taken: no log to keep).
    pub(super) fn first(&self) -> &Worlds {
        &self.checkpoints[0]
    }

    /// The last known state, with its step logs: the run's whole.
    pub(super) fn last(&self) -> &Worlds {
        &self.last
    }

    /// The simulated time of the state after `index` steps, if known.
    pub(super) fn time(&self, index: usize) -> Option<SimTime> {
        self.times.get(index).copied()
    }

    /// The state after `index` steps, with its step logs (a copy), if known: the checkpoint
    /// before it, moved on as it was.
    pub(super) fn state(&self, index: usize) -> Option<Worlds> {
        let mut state = self.checkpoints.get(index / CHECKPOINT)?.clone();
        state.lived(&self.last);
        replay(&mut state, self.last.injected(), index);
        Some(state)
    }

    /// Shows the state after `index` steps (known: `index < len()`).
    pub(super) fn show(&mut self, index: usize) {
        if index == self.cursor + 1 {
            // The next state: the shown one moved on, its log growing by the same steps.
            replay(&mut self.shown, self.last.injected(), index);
        } else if index != self.cursor {
            if let Some(state) = self.state(index) {
                self.shown = state;
            }
        }
        self.cursor = index;
    }

    /// Changes the past: drops the states after the cursor, then adds the state `action`
    /// makes of the one at the cursor and shows it. Nothing changes when it is refused.
    pub(super) fn branch(&mut self, action: Action) -> Result<(), ActionError> {
        let mut next = self.shown.clone();
        next.apply(action)?;
        let kept = self.cursor + 1;
        self.times.truncate(kept);
        self.checkpoints.truncate(kept.div_ceil(CHECKPOINT));
        self.last = next;
        self.record();
        self.show(kept);
        Ok(())
    }

    /// Adds the state one step after the last one, when something is left to happen (true).
    pub(super) fn extend(&mut self) -> bool {
        // A step that finds nothing to do changes nothing.
        if !self.last.step() {
            return false;
        }
        self.record();
        true
    }
}

/// Moves `state` (a state of the timeline whose injected actions are `all`) on until it has
/// taken `index` steps: the same moves as the first time, the core being deterministic.
fn replay(state: &mut Worlds, all: &[(u32, Action)], index: usize) {
    let mut pending = &all[state.injected().len()..];
    while (state.step_count() as usize) < index && matches!(state.advance(&mut pending), Ok(true)) {
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use idem_core::Scenario;

    /// The memory fix itself: however long the run, its step log is held once whole (the last
    /// state's), and no checkpoint carries one.
    #[test]
    fn the_step_log_is_held_once() {
        let scenario = Scenario::by_id("naive").expect("naive");
        let mut timeline = Timeline::new(Worlds::One(World::new(&scenario)));
        while timeline.extend() {}
        let steps = timeline.len() - 1;
        assert!(steps > 5, "{steps}");
        assert_eq!(timeline.last().left().steps().len(), steps);
        assert!(timeline
            .checkpoints
            .iter()
            .all(|w| w.left().steps().is_empty()));
        assert_eq!(timeline.checkpoints.len(), steps / CHECKPOINT + 1);
        timeline.show(steps);
        assert_eq!(timeline.shown(), timeline.last());
        timeline.show(2);
        assert_eq!(timeline.shown().left().steps().len(), 2);
        assert_eq!(
            timeline.shown().left().steps(),
            &timeline.last().left().steps()[..2]
        );
    }
}
