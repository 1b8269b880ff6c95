//! The world: five machines, the network between them, a clock and a seeded RNG, as one value.
//! [`World::step`] processes the next due event; [`World::apply`] injects an action now.
//! Cloning a world and stepping both copies gives equal results: that is time travel and the
//! explorer's branching.

use serde::{Deserialize, Serialize};

use crate::action::{Action, ActionError, OpKind, OpSpec};
use crate::api::{Api, ApiInput, ApiOutput};
use crate::base::canonical::CanonicalView;
use crate::base::rng::SimRng;
use crate::client::{Client, ClientOutput, RETRY_DEADLINE_MS};
use crate::http::RequestBody;
use crate::ledger::{AccountRow, Ledger, PostRow};
use crate::net::{Fate, Network};
use crate::nodes::message::{DropReason, Payload};
use crate::note::Note;
use crate::processor::Processor;
use crate::scenario::{Scenario, ACCOUNT, BOB, POST};
use crate::store::{RedisReply, Store};
use crate::time::SimTime;
use crate::topology::{Link, MsgId, Node, OpId};

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
        Some(self.push_step(cause, notes, sent))
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

    /// The explorer's view of this world: a 128-bit fingerprint of everything that decides
    /// the future and the verdict, up to a shift in time and a renumbering of messages, plus
    /// (`with_sent`) which packets the last step sent (the explorer faults a packet only then).
    ///
    /// - Every time is seen relative to now (the canonical view, `base::canonical`, is told
    ///   which values are times): nothing in the simulation reads the clock's absolute value,
    ///   only differences and comparisons, and the script's next entry is seen as a time too.
    /// - Message ids are left out (the view is told which values are ids): the network keeps
    ///   messages in id order, a fresh id is always the greatest, and the only other readers
    ///   of an id (`in_reply_to`, `request_msg`, `duplicate_of`) use no more than whether
    ///   there is one.
    /// - The past is left out: the step count, the step log, the injected actions, when each
    ///   message left and when each charge was made (nothing reads those but the page).
    ///
    /// So two worlds with equal views step to worlds with equal views, offer the same faults
    /// in the same order, and judge alike.
    pub(crate) fn view(&self, with_sent: bool) -> u128 {
        let mut v = CanonicalView::new(self.now);
        v.plain(&self.rng);
        self.view_client(&mut v);
        v.visit(&self.api);
        self.view_keys(&mut v);
        v.plain(&self.ledger.charges);
        v.plain(&self.ledger.accounts);
        v.plain(&self.ledger.posts);
        v.plain(&self.ledger.like_ops);
        v.plain(&self.ledger.account_ops);
        v.plain(&self.ledger.debits);
        v.plain(&self.ledger.likes);
        v.plain(&self.ledger.fences);
        v.visit(&self.processor.statement);
        v.plain(&self.script_pos);
        v.visit(&self.scenario.script.get(self.script_pos).map(|s| s.at));
        v.plain(&self.lose_next_acks);
        v.visit(&self.client_offline_until);
        v.plain(&self.next_op);
        // The packets in flight, in id order (settled ones, kept with history, are past).
        for message in self.net.in_flight() {
            v.visit(message);
        }
        v.end_of_list();
        if with_sent {
            // Which packets in flight on the mobile link (by place, as ids are left out) the
            // last step sent: the explorer faults those only.
            let sent = self.steps.last().map_or(&[][..], |s| s.sent.as_slice());
            for (place, message) in self.net.in_flight().enumerate() {
                if message.is_faultable() && sent.contains(&message.id) {
                    v.plain(&place);
                }
            }
            v.end_of_list();
        }
        v.finish128()
    }

    /// The client's operations for [`World::view`], with what is past left out where only its
    /// being past matters: a timer already due fires at once (or when the phone wakes), so
    /// only its order among the due ones counts; an operation's start counts only against the
    /// retry deadline, and not at all without one.
    fn view_client(&self, v: &mut CanonicalView) {
        use crate::client::Wait;
        let now = self.now;
        let due_at = |wait: &Wait| match *wait {
            Wait::Answer { timeout_at: t }
            | Wait::Backoff { retry_at: t }
            | Wait::Status { timeout_at: t } => Some(t),
            Wait::Nothing => None,
        };
        let ops = self.client.ops();
        let deadline = self.client.config().retry_deadline_ms;
        for o in ops {
            v.plain(&o.op);
            v.plain(&o.user);
            v.plain(&o.body);
            v.plain(&o.key);
            v.plain(&o.attempts);
            v.visit(&o.view);
            v.plain(&std::mem::discriminant(&o.wait));
            match due_at(&o.wait) {
                Some(t) if t < now => {
                    let rank = ops
                        .iter()
                        .filter_map(|p| due_at(&p.wait).map(|u| (u, p.op)))
                        .filter(|(u, op)| *u < now && (*u, *op) < (t, o.op))
                        .count();
                    v.plain(&(true, rank));
                }
                t => {
                    v.plain(&false);
                    v.visit(&t);
                }
            }
            if let Some(d) = deadline {
                v.plain(&now.since(o.started_at).min(d + 1));
            }
        }
    }

    /// The idempotency keys of the store, the ledger and the processor for [`World::view`],
    /// without those past their expiry: each is deleted before anything reads it again.
    fn view_keys(&self, v: &mut CanonicalView) {
        let now = self.now;
        // Redis keeps a key up to and including its expiry time.
        for (key, stored) in self.store.entries() {
            if stored.expires_at >= now {
                v.visit(&(key, stored));
            }
        }
        v.end_of_list();
        for row in &self.ledger.idempotency_keys {
            if row.stored.expires_at > now {
                v.visit(row);
            }
        }
        v.end_of_list();
        for counter in self.store.counters() {
            v.plain(&counter);
        }
        v.end_of_list();
        v.plain(&self.ledger.like_ops_unique);
        v.plain(&self.ledger.keys_scoped);
        for fence in self.processor.fences() {
            v.plain(&fence);
        }
        v.end_of_list();
        for (key, remembered) in self.processor.keys() {
            if remembered.1 > now {
                v.visit(&(key, remembered));
            }
        }
        v.end_of_list();
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

    fn check(&self, action: Action) -> Result<(), ActionError> {
        let in_flight = |id: MsgId| -> Result<(), ActionError> {
            let message = self.net.get(id).ok_or(ActionError::NoSuchMessage(id))?;
            if message.fate != Fate::InFlight {
                return Err(ActionError::NotInFlight(id));
            }
            if !message.is_faultable() {
                return Err(ActionError::NotOnMobileLink(id));
            }
            Ok(())
        };
        match action {
            Action::Drop(id) | Action::Duplicate(id) | Action::Delay(id, _) => in_flight(id),
            Action::RetryNow
            | Action::ConcurrentDuplicate
            | Action::ReuseKeyOtherBody
            | Action::OtherUserSameKey
                if self.client_offline_until.is_some() =>
            {
                Err(ActionError::ClientOffline)
            }
            Action::RetryNow if self.client.retryable_op(self.now).is_none() => {
                Err(ActionError::NothingToRetry)
            }
            Action::LoseNextAck if self.is_quiescent() => Err(ActionError::NothingOnItsWay),
            Action::Crash(phase) | Action::Pause(phase)
                if !crate::explore::phases(&self.scenario).contains(&phase) =>
            {
                Err(ActionError::NoSuchPhase(phase))
            }
            Action::ConcurrentDuplicate | Action::ReuseKeyOtherBody | Action::OtherUserSameKey
                if self.client.ops().is_empty() =>
            {
                Err(ActionError::NoOperationYet)
            }
            _ => Ok(()),
        }
    }

    fn perform(&mut self, action: Action, notes: &mut Vec<Note>, sent: &mut Vec<MsgId>) {
        let now = self.now;
        match action {
            Action::Start(spec) => self.start_op(spec, None, None),
            Action::RetryNow => {
                if let Some(op) = self.client.retryable_op(now) {
                    self.client.retry_now(now, op);
                }
            }
            Action::Drop(id) => {
                if self.net.settle(id, Fate::Lost(now, DropReason::Dropped)) {
                    notes.push(Note::MessageLost {
                        msg: id,
                        reason: DropReason::Dropped,
                    });
                }
            }
            Action::LoseNextAck => {
                self.lose_next_acks = self.lose_next_acks.saturating_add(1);
                notes.push(Note::NextAckWillBeLost);
            }
            Action::Duplicate(id) => {
                if let Some(copy) = self.net.duplicate(id, 60) {
                    notes.push(Note::MessageDuplicated { msg: id, copy });
                    sent.push(copy);
                }
            }
            Action::Delay(id, ms) => {
                if self.net.delay(id, ms) {
                    notes.push(Note::MessageDelayed { msg: id, ms });
                }
            }
            Action::Crash(phase) => {
                self.api.arm_crash(phase);
                notes.push(Note::CrashArmed { phase });
            }
            Action::Pause(phase) => {
                self.api.arm_pause(phase);
                notes.push(Note::PauseArmed { phase });
            }
            Action::EvictKeys => {
                let count = self.store.evict_all();
                notes.push(if count > 0 {
                    Note::KeysEvicted { count }
                } else {
                    Note::NothingToDo
                });
            }
            Action::AdvanceClock(ms) => {
                // The phone goes offline for `ms`: the servers keep working on their own
                // schedule, answers to the phone are lost, and its timers wait for it.
                let wake = now.plus(ms);
                self.client_offline_until =
                    Some(self.client_offline_until.map_or(wake, |w| w.max(wake)));
                notes.push(Note::ClockAdvanced { ms });
            }
            Action::ConcurrentDuplicate => {
                if let Some(op) = self.client.ops().last().map(|o| o.op) {
                    self.client.send_copy(now, op);
                }
            }
            Action::ReuseKeyOtherBody => {
                if let Some(first) = self.client.ops().first().cloned() {
                    notes.push(Note::ClientReusesKey);
                    let kind = match first.body {
                        RequestBody::Charge { amount_cents, .. } => OpKind::Charge {
                            amount_cents: amount_cents + 5_000,
                        },
                        RequestBody::Debit { amount, .. } => OpKind::Debit {
                            amount: amount + 10,
                            read_version: self.scenario.version,
                        },
                        RequestBody::Like { post, .. } => OpKind::Like { post: post + 1 },
                    };
                    let spec = OpSpec {
                        user: first.user,
                        kind,
                    };
                    self.start_op(spec, Some(first.key), None);
                }
            }
            Action::OtherUserSameKey => {
                if let Some(first) = self.client.ops().first().cloned() {
                    notes.push(Note::OtherUserSameKey { user: BOB.0 });
                    let spec = OpSpec {
                        user: BOB,
                        kind: kind_of(&first.body, self.scenario.version),
                    };
                    self.start_op(spec, Some(first.key), None);
                }
            }
        }
    }

    /// Starts an operation; `key` overrides the fresh key (`Some(None)` = no key).
    fn start_op(&mut self, spec: OpSpec, key: Option<Option<String>>, op_id: Option<String>) {
        let p = self.scenario.protections;
        let op = OpId(self.next_op);
        self.next_op += 1;
        let key = match key {
            Some(k) => k,
            None if p.idempotency_key && !self.scenario.client_omits_key => Some(self.uuid()),
            None => None,
        };
        let body = match spec.kind {
            OpKind::Charge { amount_cents } => RequestBody::Charge {
                amount_cents,
                currency: "usd".to_owned(),
            },
            OpKind::Debit {
                amount,
                read_version,
            } => RequestBody::Debit {
                account: ACCOUNT,
                amount,
                expected_version: p.cas.then_some(read_version),
                op_id: op_id.or_else(|| p.reconcile.then(|| self.uuid())),
            },
            OpKind::Like { post } => RequestBody::Like {
                post,
                op_id: op_id.or_else(|| p.op_dedup.then(|| self.uuid())),
            },
        };
        self.client.start(self.now, op, spec.user, body, key);
    }

    fn uuid(&mut self) -> String {
        uuid::Builder::from_random_bytes(self.rng.bytes16())
            .into_uuid()
            .to_string()
    }

    fn deliver(&mut self, id: MsgId, notes: &mut Vec<Note>, sent: &mut Vec<MsgId>) {
        let now = self.now;
        let Some(message) = self.net.get(id) else {
            return;
        };
        let (to, doomed) = (message.to, message.doomed);
        if doomed {
            self.net.settle(id, Fate::Lost(now, DropReason::LostAck));
            notes.push(Note::MessageLost {
                msg: id,
                reason: DropReason::LostAck,
            });
            return;
        }
        if to == Node::Client && self.client_offline_until.is_some() {
            self.net
                .settle(id, Fate::Lost(now, DropReason::ClientOffline));
            notes.push(Note::MessageLost {
                msg: id,
                reason: DropReason::ClientOffline,
            });
            return;
        }
        if to == Node::Api && !self.api.is_up() {
            self.net.settle(id, Fate::Lost(now, DropReason::ApiDown));
            notes.push(Note::MessageLost {
                msg: id,
                reason: DropReason::ApiDown,
            });
            return;
        }
        let Some(payload) = self.net.deliver(id, now) else {
            return;
        };
        let p = self.scenario.protections;
        // Without history the narration is dropped at the end of the step: not built at all.
        let narrate = self.keep_history;
        match (to, payload) {
            (Node::Client, Payload::Response(response)) => {
                self.client.on_response(now, &response, &mut self.rng)
            }
            (Node::Api, Payload::Request(request)) => {
                self.api.handle(now, ApiInput::Request(id, request), &p)
            }
            (Node::Api, reply) => self.api.handle(now, ApiInput::Reply(reply), &p),
            (Node::Store, Payload::Redis(handler, command)) => {
                let reply = self.store.execute(now, &command);
                if narrate {
                    notes.push(match reply {
                        RedisReply::Ok => Note::StoreOk,
                        RedisReply::Nil => Note::StoreNil,
                        RedisReply::Value(_) => Note::StoreValue,
                        RedisReply::Int(_) => Note::StoreOk,
                    });
                }
                self.reply(Node::Store, Payload::RedisReply(handler, reply), sent);
            }
            (Node::Ledger, Payload::Sql(handler, batch)) => {
                let results = self.ledger.execute(now, &batch);
                if narrate {
                    notes.push(Note::LedgerRan {
                        rows: results.iter().map(|r| r.rows).collect(),
                        statements: batch
                            .statements
                            .iter()
                            .map(|s| s.summary().to_owned())
                            .collect(),
                    });
                }
                self.reply(Node::Ledger, Payload::SqlResults(handler, results), sent);
            }
            (Node::Processor, Payload::Charge(handler, request)) => {
                let reply = self.processor.charge(now, &request);
                if narrate {
                    notes.push(if reply.fenced {
                        Note::ProcessorFenced
                    } else if reply.replayed {
                        Note::ProcessorDeduplicated {
                            payment_id: reply.payment_id.clone(),
                        }
                    } else {
                        Note::ProcessorCharged {
                            payment_id: reply.payment_id.clone(),
                        }
                    });
                }
                self.reply(Node::Processor, Payload::ChargeReply(handler, reply), sent);
            }
            _ => {}
        }
    }

    /// A backend answers the API over its link.
    fn reply(&mut self, from: Node, payload: Payload, sent: &mut Vec<MsgId>) {
        let link = Link::to(from).unwrap_or(Link::ClientApi);
        let delay = self.scenario.latencies.of(link);
        let id = self
            .net
            .send(self.now, from, Node::Api, payload, delay, false);
        sent.push(id);
    }

    /// Moves what the client and the API want sent onto the network, and their notes into
    /// the step.
    fn flush(&mut self, notes: &mut Vec<Note>, sent: &mut Vec<MsgId>) {
        let narrate = self.keep_history;
        loop {
            let mut progressed = false;
            while let Some(output) = self.client.poll() {
                progressed = true;
                match output {
                    ClientOutput::Note(note) if narrate => notes.push(note),
                    ClientOutput::Note(_) => {}
                    ClientOutput::Send(request) => {
                        let delay = self.scenario.latencies.client_api;
                        let id = self.net.send(
                            self.now,
                            Node::Client,
                            Node::Api,
                            Payload::Request(request),
                            delay,
                            false,
                        );
                        sent.push(id);
                    }
                }
            }
            while let Some(output) = self.api.poll() {
                progressed = true;
                match output {
                    ApiOutput::Note(note) if narrate => notes.push(note),
                    ApiOutput::Note(_) => {}
                    ApiOutput::Send(to, payload) => {
                        let link = Link::to(to).unwrap_or(Link::ClientApi);
                        let doomed =
                            matches!(payload, Payload::Response(_)) && self.lose_next_acks > 0;
                        if doomed {
                            self.lose_next_acks -= 1;
                        }
                        let delay = self.scenario.latencies.of(link);
                        let id = self
                            .net
                            .send(self.now, Node::Api, to, payload, delay, doomed);
                        sent.push(id);
                    }
                }
            }
            if !progressed {
                break;
            }
        }
    }
}

fn kind_of(body: &RequestBody, read_version: u64) -> OpKind {
    match body {
        RequestBody::Charge { amount_cents, .. } => OpKind::Charge {
            amount_cents: *amount_cents,
        },
        RequestBody::Debit {
            amount,
            expected_version,
            ..
        } => OpKind::Debit {
            amount: *amount,
            read_version: expected_version.unwrap_or(read_version),
        },
        RequestBody::Like { post, .. } => OpKind::Like { post: *post },
    }
}

#[cfg(test)]
mod view_tests;

mod canonical;
