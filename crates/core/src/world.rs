//! The world: five machines, the network between them, a clock and a seeded RNG, as one value.
//! [`World::step`] processes the next due event; [`World::apply`] injects an action now.
//! Cloning a world and stepping both copies gives equal results: that is time travel and the
//! explorer's branching.
//!
//! This file holds the world's state and its run loop (the next event, a step, a run, a
//! replay); doing an action (`actions`), delivering a message (`delivery`) and the canonical
//! view (`view`) are files of their own.

use serde::{Deserialize, Serialize};

use crate::action::{Action, ActionError};
use crate::api::Api;
use crate::base::rng::SimRng;
use crate::client::{Client, RETRY_DEADLINE_MS};
use crate::ledger::{AccountRow, Ledger, PostRow};
use crate::net::Network;
use crate::note::Note;
use crate::processor::Processor;
use crate::scenario::{Scenario, ACCOUNT, POST};
use crate::store::Store;
use crate::time::SimTime;
use crate::topology::{MsgId, Node, OpId};

mod actions;
mod delivery;
mod speakers;
mod view;

pub use speakers::{Party, RequestAttempt, Role, Sent, Speaker};

/// What made a step happen.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cause {
    /// A message arrived (or was lost on arrival).
    Deliver(MsgId),
    /// A client timer fired for this operation.
    ClientTimer(OpId),
    /// The crashed API came back.
    ApiRestart,
    /// The API's recovery job ran.
    RecoverySweep,
    /// A paused handler carried on.
    ApiResume,
    /// The phone came back online after an "advance the clock" fault.
    ClientWake,
    /// The scenario's script.
    Scripted(Action),
    /// Someone injected an action (the student, a deep link, the explorer).
    Injected(Action),
}

/// One step of a run: its cause, the narration notes, and the messages it sent.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Step {
    /// 0-based position in the run.
    pub index: u32,
    /// Simulated time of the step.
    pub at: SimTime,
    /// What triggered it.
    pub cause: Cause,
    /// What happened, in order, for the narration.
    pub notes: Vec<Note>,
    /// Messages put on the wire in this step.
    pub sent: Vec<MsgId>,
}

/// How a bounded run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RunEnd {
    /// Nothing left to happen.
    Quiescent,
    /// The step bound was reached first.
    BoundReached,
}

/// The whole simulation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct World {
    /// Shared, not copied, by the clones of a world (the explorer clones one per branch);
    /// serialised as the scenario itself.
    #[serde(with = "shared")]
    scenario: std::sync::Arc<Scenario>,
    now: SimTime,
    rng: SimRng,
    net: Network,
    client: Client,
    api: Api,
    store: Store,
    ledger: Ledger,
    processor: Processor,
    script_pos: usize,
    /// How many of the API's next answers to the phone will be lost ("lose the next ack",
    /// armed once per fault: arming it again dooms one more answer).
    lose_next_acks: u8,
    client_offline_until: Option<SimTime>,
    next_op: u32,
    steps: Vec<Step>,
    step_count: u32,
    keep_history: bool,
    injected: Vec<(u32, Action)>,
}

/// Serde for a shared scenario, as the value (serde's `rc` feature is not enabled).
mod shared {
    use super::Scenario;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    pub(super) fn serialize<S: Serializer>(
        value: &Arc<Scenario>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        Scenario::serialize(value, serializer)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Arc<Scenario>, D::Error> {
        Scenario::deserialize(deserializer).map(Arc::new)
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Event {
    Script,
    Wake,
    Restart,
    Sweep,
    Resume,
    Deliver(MsgId),
    Timer(OpId),
}

impl World {
    /// A world at time zero for `scenario`.
    pub fn new(scenario: &Scenario) -> World {
        let p = scenario.protections;
        let mut client_config = scenario.client.clone();
        client_config.retry_deadline_ms = p.retry_deadline.then_some(RETRY_DEADLINE_MS);
        client_config.status_check = p.status_check && p.idempotency_key;
        World {
            scenario: std::sync::Arc::new(scenario.clone()),
            now: SimTime::ZERO,
            rng: SimRng::new(scenario.seed),
            net: Network::default(),
            client: Client::new(client_config),
            api: Api::default(),
            store: Store::default(),
            ledger: Ledger::new(
                AccountRow {
                    id: ACCOUNT,
                    balance: scenario.balance,
                    version: scenario.version,
                },
                PostRow {
                    id: POST,
                    likes: scenario.likes,
                },
                p.unique_index,
                p.scope_by_user,
            ),
            processor: Processor::default(),
            script_pos: 0,
            lose_next_acks: 0,
            client_offline_until: None,
            next_op: 0,
            steps: Vec::new(),
            step_count: 0,
            keep_history: true,
            injected: Vec::new(),
        }
    }

    /// The scenario this world runs.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The simulated clock.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Every message so far.
    pub fn network(&self) -> &Network {
        &self.net
    }

    /// The mobile client.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The payment API.
    pub fn api(&self) -> &Api {
        &self.api
    }

    /// The Redis idempotency store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The PostgreSQL ledger.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The card processor.
    pub fn processor(&self) -> &Processor {
        &self.processor
    }

    /// The steps so far (only the latest one when history is off).
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Takes the step log out, leaving an empty one; stepping reads nothing of it, so the
    /// world runs on the same and its log holds only the steps taken since. A player that
    /// keeps a world every few steps (the lesson's `playback::Run`) keeps one log beside them
    /// instead of one per world, which would grow with the square of the run's length.
    pub fn take_steps(&mut self) -> Vec<Step> {
        std::mem::take(&mut self.steps)
    }

    /// Puts back a step log taken out by [`World::take_steps`] (or the first steps of a later
    /// world of the same run: the ones this world has lived through).
    pub fn set_steps(&mut self, steps: Vec<Step>) {
        self.steps = steps;
    }

    /// How many steps have run.
    pub fn step_count(&self) -> u32 {
        self.step_count
    }

    /// Stops recording the past (step log, settled messages, the narration of the latest
    /// step): cheaper to clone, for the explorer. The future is unchanged, and the injected
    /// actions are still recorded.
    pub fn forget_history(&mut self) {
        self.keep_history = false;
        self.net.forget_history();
        let last = self.steps.pop();
        self.steps.clear();
        self.steps.extend(last);
    }

    /// Actions injected so far, each with the number of steps taken before it: with the
    /// scenario, this is everything needed to rebuild the run (a deep link).
    pub fn injected(&self) -> &[(u32, Action)] {
        &self.injected
    }

    /// Until when the phone is offline, after an "advance the clock" fault.
    pub fn client_offline_until(&self) -> Option<SimTime> {
        self.client_offline_until
    }

    /// Whether "lose the next ack" is armed.
    pub fn next_ack_will_be_lost(&self) -> bool {
        self.lose_next_acks > 0
    }

    /// How many of the API's next answers will be lost (one per "lose the next ack").
    pub fn acks_to_lose(&self) -> u8 {
        self.lose_next_acks
    }

    /// When the next event is due, if anything is left to happen.
    pub fn next_wakeup(&self) -> Option<SimTime> {
        self.next_event().map(|(t, _)| t.max(self.now))
    }

    /// Whether the next event is the API handling a message (or restarting, or recovering):
    /// the moments at which arming a crash can matter.
    pub fn api_acts_next(&self) -> bool {
        match self.next_event() {
            Some((_, Event::Deliver(id))) => self.net.get(id).is_some_and(|m| m.to == Node::Api),
            Some((_, Event::Restart | Event::Sweep | Event::Resume)) => true,
            _ => false,
        }
    }

    /// Nothing is in flight, no timer is set, the API is up and the script is done.
    pub fn is_quiescent(&self) -> bool {
        self.next_event().is_none()
    }

    /// Processes the next due event and returns the step it made, or `None` when quiescent.
    pub fn step(&mut self) -> Option<&Step> {
        let (time, event) = self.next_event()?;
        let paused_before = if cfg!(debug_assertions) {
            self.paused_handlers()
        } else {
            0
        };
        self.now = self.now.max(time);
        let (mut notes, mut sent) = self.buffers();
        self.expire_keys(&mut notes);
        let cause = match event {
            Event::Script => {
                let action = self.scenario.script[self.script_pos].action;
                self.script_pos += 1;
                self.perform(action, &mut notes, &mut sent);
                Cause::Scripted(action)
            }
            Event::Wake => {
                self.client_offline_until = None;
                notes.push(Note::ClientWoke);
                Cause::ClientWake
            }
            Event::Restart => {
                let p = self.scenario.protections;
                self.api.restart(self.now, &p);
                Cause::ApiRestart
            }
            Event::Sweep => {
                self.api.sweep(self.now);
                Cause::RecoverySweep
            }
            Event::Resume => {
                let p = self.scenario.protections;
                self.api.resume(self.now, &p);
                Cause::ApiResume
            }
            Event::Deliver(id) => {
                self.deliver(id, &mut notes, &mut sent);
                Cause::Deliver(id)
            }
            Event::Timer(op) => {
                self.client.on_timeout(self.now, op, &mut self.rng);
                Cause::ClientTimer(op)
            }
        };
        self.flush(&mut notes, &mut sent);
        // Every step makes progress: the event it took is not due again at the same time (a
        // delivered message has left the network, a restart or a sweep is done), and a resume
        // woke a handler. Were it not so, every run would loop to its step bound instead of
        // failing here. The script (its next action may be due at once), a phone's timer (a
        // retry with no backoff) and a resume (two handlers paused until the same time) can
        // rightly come again.
        debug_assert!(
            match event {
                Event::Script | Event::Timer(_) => true,
                Event::Resume => self.paused_handlers() < paused_before,
                _ => self.next_event() != Some((time, event)),
            },
            "{event:?} at {time:?} made no progress"
        );
        Some(self.push_step(cause, notes, sent))
    }

    /// How many of the API's handlers are paused (for `step`'s progress check).
    fn paused_handlers(&self) -> usize {
        self.api
            .handlers()
            .filter(|(_, h)| h.paused_until.is_some())
            .count()
    }

    /// Applies an action now, as its own step.
    pub fn apply(&mut self, action: Action) -> Result<&Step, ActionError> {
        self.check(action)?;
        self.injected.push((self.step_count, action));
        let (mut notes, mut sent) = self.buffers();
        self.perform(action, &mut notes, &mut sent);
        self.flush(&mut notes, &mut sent);
        Ok(self.push_step(Cause::Injected(action), notes, sent))
    }

    /// Steps until quiescent or until `max_steps` more steps have run.
    pub fn run(&mut self, max_steps: usize) -> RunEnd {
        for _ in 0..max_steps {
            if self.step().is_none() {
                return RunEnd::Quiescent;
            }
        }
        if self.is_quiescent() {
            RunEnd::Quiescent
        } else {
            RunEnd::BoundReached
        }
    }

    /// Rebuilds a run: the scenario, then `injected` actions at their step counts, stepping
    /// until `steps` steps exist (or nothing is left). Deterministic: same inputs, same world.
    pub fn replay(
        scenario: &Scenario,
        injected: &[(u32, Action)],
        steps: u32,
    ) -> Result<World, ActionError> {
        World::replay_each(scenario, injected, steps, |_| {}).map_err(|(_, e)| e)
    }

    /// [`World::replay`], calling `each` with the world after every step; on a refused action
    /// returns its index in `injected` with the reason.
    pub fn replay_each(
        scenario: &Scenario,
        injected: &[(u32, Action)],
        steps: u32,
        each: impl FnMut(&World),
    ) -> Result<World, (usize, ActionError)> {
        World::new(scenario).replay_on(injected, steps, each)
    }

    fn replay_on(
        self,
        injected: &[(u32, Action)],
        steps: u32,
        mut each: impl FnMut(&World),
    ) -> Result<World, (usize, ActionError)> {
        let mut world = self;
        let mut pending = injected.iter().enumerate().peekable();
        while world.step_count < steps {
            let due = pending
                .peek()
                .is_some_and(|(_, (at, _))| *at <= world.step_count);
            if due || world.is_quiescent() {
                let Some((index, (_, action))) = pending.next() else {
                    break;
                };
                world.apply(*action).map_err(|e| (index, e))?;
            } else if world.step().is_none() {
                // Cannot happen (the world is not quiescent): a step that makes no progress
                // ends the replay rather than spinning.
                break;
            }
            each(&world);
        }
        Ok(world)
    }

    fn push_step(&mut self, cause: Cause, notes: Vec<Note>, sent: Vec<MsgId>) -> &Step {
        let index = self.step_count;
        self.step_count += 1;
        let mut notes = notes;
        if !self.keep_history {
            // Without history the latest step is kept for what it sent (the explorer faults
            // those packets); its narration is dropped, so cloning the world stays cheap.
            self.steps.clear();
            notes.clear();
        }
        self.steps.push(Step {
            index,
            at: self.now,
            cause,
            notes,
            sent,
        });
        &self.steps[self.steps.len() - 1]
    }

    fn next_event(&self) -> Option<(SimTime, Event)> {
        let mut best: Option<(SimTime, u8, Event)> = None;
        let mut consider = |t: SimTime, rank: u8, e: Event| {
            if best
                .as_ref()
                .is_none_or(|(bt, br, _)| (t, rank) < (*bt, *br))
            {
                best = Some((t, rank, e));
            }
        };
        if let Some(s) = self.scenario.script.get(self.script_pos) {
            consider(s.at, 0, Event::Script);
        }
        if let Some(t) = self.client_offline_until {
            consider(t, 1, Event::Wake);
        }
        if let Some(t) = self.api.down_until() {
            consider(t, 2, Event::Restart);
        }
        if let Some(t) = self.api.sweep_at() {
            consider(t, 3, Event::Sweep);
        }
        if let Some(t) = self.api.resume_at() {
            consider(t, 4, Event::Resume);
        }
        if let Some((t, id)) = self.net.next_due() {
            consider(t, 5, Event::Deliver(id));
        }
        if let Some((t, op)) = self.client.next_wakeup() {
            // An offline phone's timers wait until it is back.
            let t = self.client_offline_until.map_or(t, |wake| t.max(wake));
            consider(t, 6, Event::Timer(op));
        }
        best.map(|(t, _, e)| (t, e))
    }

    /// Empty buffers for a new step's notes and sent messages. Without history the latest step
    /// is about to be replaced (see `push_step`): its buffers are reused rather than freed and
    /// allocated again, once per step.
    fn buffers(&mut self) -> (Vec<Note>, Vec<MsgId>) {
        if self.keep_history {
            return (Vec::new(), Vec::new());
        }
        match self.steps.pop() {
            Some(mut last) => {
                last.notes.clear();
                last.sent.clear();
                (last.notes, last.sent)
            }
            None => (Vec::new(), Vec::new()),
        }
    }

    fn expire_keys(&mut self, notes: &mut Vec<Note>) {
        // A Redis claim's short TTL is its lease: say so, rather than "the key's TTL".
        let gone = self.store.expire(self.now);
        let claims = gone
            .iter()
            .filter(|(_, k)| k.record.status == crate::record::KeyStatus::InProgress)
            .count();
        let count = gone.len() - claims + self.ledger.expire(self.now).len();
        if claims > 0 {
            notes.push(Note::ClaimsExpired { count: claims });
        }
        if count > 0 {
            notes.push(Note::KeysExpired { count });
        }
    }
}

#[cfg(test)]
mod view_tests;

mod canonical;
