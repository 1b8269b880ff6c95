//! A run's timeline: how each step came from the one before, a checkpoint every
//! [`CHECKPOINT`] steps, the step log kept once, and the state at the cursor whole. Keeping the
//! world after every step, each with the whole log before it, made a run's memory grow with
//! the square of its length, and keeping every world even without its log still grew with the
//! world's own state (its messages, its rows) times the steps (issue #44 item 4; figures in
//! docs/measurements.md, `cargo run --release -p idem-lesson --example run_memory`). The
//! core is deterministic, so any other state is rebuilt from the checkpoint before it by
//! taking the same steps again.
use idem_core::{Action, ActionError, Pair, SimTime, Step, World};

/// Steps between two kept states: rebuilding a state takes at most this many steps of a
/// world without its log (microseconds), and the kept states are this many times fewer.
pub(super) const CHECKPOINT: usize = 64;

/// What a timeline holds at each step: one world, or two on one timeline (compare mode).
/// Its step logs come out and go back in, one per world (a single world's second is empty).
pub(super) trait Frame: Clone {
    fn steps(&self) -> [&[Step]; 2];
    fn without_steps(&self) -> Self;
    fn take_steps(&mut self) -> [Vec<Step>; 2];
    fn set_steps(&mut self, logs: [Vec<Step>; 2]);
    fn injected(&self) -> &[(u32, Action)];
    fn now(&self) -> SimTime;
    /// One step on; false when nothing is left to happen.
    fn step(&mut self) -> bool;
    fn apply(&mut self, action: Action) -> Result<(), ActionError>;
}

impl Frame for World {
    fn steps(&self) -> [&[Step]; 2] {
        [World::steps(self), &[]]
    }
    fn without_steps(&self) -> World {
        World::without_steps(self)
    }
    fn take_steps(&mut self) -> [Vec<Step>; 2] {
        [World::take_steps(self), Vec::new()]
    }
    fn set_steps(&mut self, [log, _]: [Vec<Step>; 2]) {
        World::set_steps(self, log);
    }
    fn injected(&self) -> &[(u32, Action)] {
        World::injected(self)
    }
    fn now(&self) -> SimTime {
        World::now(self)
    }
    fn step(&mut self) -> bool {
        World::step(self).is_some()
    }
    fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        World::apply(self, action).map(drop)
    }
}

impl Frame for Pair {
    fn steps(&self) -> [&[Step]; 2] {
        [self.left().steps(), self.right().steps()]
    }
    fn without_steps(&self) -> Pair {
        Pair::without_steps(self)
    }
    fn take_steps(&mut self) -> [Vec<Step>; 2] {
        Pair::take_steps(self)
    }
    fn set_steps(&mut self, logs: [Vec<Step>; 2]) {
        Pair::set_steps(self, logs);
    }
    fn injected(&self) -> &[(u32, Action)] {
        Pair::injected(self)
    }
    fn now(&self) -> SimTime {
        Pair::now(self)
    }
    fn step(&mut self) -> bool {
        Pair::step(self)
    }
    fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        Pair::apply(self, action).map(drop)
    }
}

/// How a state came from the one before it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Move {
    Step,
    Apply(Action),
}

/// What the timeline knows of each state without rebuilding it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Mark {
    /// How it came from the state before (the first state's is never read).
    how: Move,
    /// How long its step logs were: the first steps of the timeline's.
    lengths: [usize; 2],
    /// Its simulated time.
    now: SimTime,
}

/// Every state of one timeline, kept as moves and checkpoints, and the one at the cursor.
/// Every state lived through the first steps of `logs` (a state's log only grows by new
/// steps, and the states after a changed past are dropped with their steps).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Track<T> {
    marks: Vec<Mark>,
    /// The states after 0, CHECKPOINT, 2 × CHECKPOINT, … steps, without their step logs.
    checkpoints: Vec<T>,
    /// The last state, without its step logs: the next steps start from it.
    last: T,
    /// The step logs of the last state: every earlier state's are their first steps.
    logs: [Vec<Step>; 2],
    /// The state at the cursor with its step logs, which is what the views read.
    shown: T,
    cursor: usize,
}

impl<T: Frame> Track<T> {
    /// A timeline whose first state is `start` (with no steps yet), shown.
    pub(super) fn new(start: &T) -> Track<T> {
        let bare = start.without_steps();
        Track {
            marks: vec![Mark {
                how: Move::Step,
                lengths: start.steps().map(<[Step]>::len),
                now: start.now(),
            }],
            checkpoints: vec![bare.clone()],
            last: bare,
            logs: start.steps().map(<[Step]>::to_vec),
            shown: start.clone(),
            cursor: 0,
        }
    }

    /// Adds `whole`, the state one step or one action after the last, with its step logs (its
    /// new steps are copied, the others are the timeline's already).
    pub(super) fn push_whole(&mut self, whole: &T) {
        let how = match whole.injected() {
            [.., (_, action)] if whole.injected().len() > self.last.injected().len() => {
                Move::Apply(*action)
            }
            _ => Move::Step,
        };
        let mut bare = whole.without_steps();
        let logs = whole.steps();
        bare.set_steps([0, 1].map(|side| logs[side][self.logs[side].len()..].to_vec()));
        self.push_bare(bare, how);
    }

    /// Adds `bare`, the state `how` made of the last one, whose step logs hold only its new
    /// steps (they move onto the timeline's).
    fn push_bare(&mut self, bare: T, how: Move) {
        self.last = bare;
        self.record(how);
    }

    /// Records the last state, which `how` has just made of the one before, in place (its
    /// step logs hold only its new steps, which move onto the timeline's).
    fn record(&mut self, how: Move) {
        for (log, new) in self.logs.iter_mut().zip(self.last.take_steps()) {
            log.extend(new);
        }
        self.marks.push(Mark {
            how,
            lengths: [self.logs[0].len(), self.logs[1].len()],
            now: self.last.now(),
        });
        if (self.marks.len() - 1).is_multiple_of(CHECKPOINT) {
            self.checkpoints.push(self.last.clone());
        }
    }

    /// How many states are known (one more than the steps).
    pub(super) fn len(&self) -> usize {
        self.marks.len()
    }

    pub(super) fn cursor(&self) -> usize {
        self.cursor
    }

    /// The state at the cursor, with its step logs.
    pub(super) fn shown(&self) -> &T {
        &self.shown
    }

    /// The last known state, without its step logs.
    pub(super) fn last(&self) -> &T {
        &self.last
    }

    /// The simulated time of the state after `index` steps, if known.
    pub(super) fn time(&self, index: usize) -> Option<SimTime> {
        self.marks.get(index).map(|m| m.now)
    }

    /// The state after `index` steps (known) without its step logs: the checkpoint before it,
    /// moved on as it was.
    fn rebuild(&self, index: usize) -> T {
        let from = index / CHECKPOINT * CHECKPOINT;
        let mut state = self.checkpoints[index / CHECKPOINT].clone();
        for mark in &self.marks[from + 1..=index] {
            replay(&mut state, mark.how);
        }
        // Its new steps are the timeline's already.
        state.take_steps();
        state
    }

    /// The state after `index` steps, with its step logs (a copy).
    pub(super) fn state(&self, index: usize) -> Option<T> {
        let lengths = self.marks.get(index)?.lengths;
        let mut state = self.rebuild(index);
        state.set_steps([0, 1].map(|side| self.logs[side][..lengths[side]].to_vec()));
        Some(state)
    }

    /// Shows the state after `index` steps (known: `index < len()`).
    pub(super) fn show(&mut self, index: usize) {
        if index == self.cursor {
            return;
        }
        let mark = self.marks[index];
        if index == self.cursor + 1 {
            // The next state: the shown one moved on, its log growing by the same steps.
            replay(&mut self.shown, mark.how);
        } else {
            let mut logs = self.shown.take_steps();
            // The shown logs are the first steps of the timeline's: cut or extend them.
            for (side, log) in logs.iter_mut().enumerate() {
                log.truncate(mark.lengths[side]);
                let have = log.len();
                log.extend_from_slice(&self.logs[side][have..mark.lengths[side]]);
            }
            self.shown = self.rebuild(index);
            self.shown.set_steps(logs);
        }
        self.cursor = index;
    }

    /// Changes the past: drops the states after the cursor, then adds the state `action`
    /// makes of the one at the cursor and shows it. Nothing changes when it is refused.
    pub(super) fn branch(&mut self, action: Action) -> Result<(), ActionError> {
        let mut next = self.shown.without_steps();
        next.apply(action)?;
        let kept = self.cursor + 1;
        let lengths = self.marks[self.cursor].lengths;
        self.marks.truncate(kept);
        self.checkpoints.truncate(kept.div_ceil(CHECKPOINT));
        for (log, length) in self.logs.iter_mut().zip(lengths) {
            log.truncate(length);
        }
        self.push_bare(next, Move::Apply(action));
        self.show(kept);
        Ok(())
    }

    /// Adds the state one step after the last one, when something is left to happen (true).
    pub(super) fn extend(&mut self) -> bool {
        // A step that finds nothing to do changes nothing: the last state moves on in place.
        if !self.last.step() {
            return false;
        }
        self.record(Move::Step);
        true
    }
}

/// Moves `state` on as `how` says; it moved so once, and the core is deterministic.
fn replay<T: Frame>(state: &mut T, how: Move) {
    match how {
        Move::Step => {
            let stepped = state.step();
            debug_assert!(stepped, "a step replayed makes progress");
        }
        Move::Apply(action) => {
            let applied = state.apply(action);
            debug_assert!(applied.is_ok(), "an action replayed applies: {applied:?}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use idem_core::Scenario;

    /// The memory fix itself: however long the run, its step log is held once (the
    /// timeline's), and no stored world carries one.
    #[test]
    fn the_step_log_is_held_once() {
        let scenario = Scenario::by_id("naive").expect("naive");
        let mut track = Track::new(&World::new(&scenario));
        while track.extend() {}
        let steps = track.len() - 1;
        assert!(steps > 5, "{steps}");
        assert_eq!(track.logs[0].len(), steps);
        assert!(track.logs[1].is_empty());
        assert!(track.last.steps().is_empty());
        assert!(track.checkpoints.iter().all(|w| w.steps().is_empty()));
        assert_eq!(track.checkpoints.len(), steps / CHECKPOINT + 1);
        assert_eq!(track.marks[steps].lengths, [steps, 0]);
        track.show(steps);
        assert_eq!(track.shown().steps(), &track.logs[0][..]);
        track.show(2);
        assert_eq!(track.shown().steps().len(), 2);
    }
}
