//! The mobile client: starts logical operations, waits with a timeout, retries with
//! exponential backoff and jitter, keeps one Idempotency-Key per logical operation, and
//! records what the user saw.

use crate::base::text::Text;
use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::base::rng::SimRng;
use crate::http::{HttpRequest, HttpResponse, RequestBody, ResponseBody};
use crate::note::Note;
use crate::time::{SimTime, HOUR};
use crate::topology::{OpId, UserId};

/// Retry policy.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClientConfig {
    /// How long to wait for an answer before giving the attempt up.
    pub timeout_ms: u64,
    /// Automatic attempts per operation, the first included.
    pub max_attempts: u32,
    /// The first backoff; doubled before each further retry.
    pub backoff_base_ms: u64,
    /// Random extra wait in `0..jitter_ms`, so clients that failed together do not retry together.
    pub jitter_ms: u64,
    /// Stop retrying automatically once an operation is this old (`None`: never stop early).
    pub retry_deadline_ms: Option<u64>,
    /// Before giving up on a keyed operation, ask the API for its outcome (status check).
    pub status_check: bool,
}

impl Default for ClientConfig {
    fn default() -> Self {
        Self {
            timeout_ms: 3_000,
            max_attempts: 4,
            backoff_base_ms: 1_000,
            jitter_ms: 250,
            retry_deadline_ms: None,
            status_check: false,
        }
    }
}

/// The client's deadline when the "retry deadline" protection is on: well inside the key TTL.
pub const RETRY_DEADLINE_MS: u64 = HOUR;

/// What the user sees for one operation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UserView {
    /// A spinner.
    Waiting,
    /// A success screen with this response.
    Succeeded(HttpResponse),
    /// An error screen with this response.
    Failed(HttpResponse),
    /// "We couldn't confirm your payment" — retries used up or deadline passed.
    GaveUp,
}

impl UserView {
    /// Success or failure shown: the operation is settled for the user.
    pub fn is_settled(&self) -> bool {
        matches!(self, UserView::Succeeded(_) | UserView::Failed(_))
    }

    /// What this screen tells the user about their operation: the one definition that the
    /// verdict's [`crate::Invariant::UserToldTheTruth`], the summary, the compare line, the
    /// phone panel and the narration all read, so they cannot disagree.
    pub fn told(&self) -> Told {
        match self {
            UserView::Waiting => Told::Nothing,
            UserView::Succeeded(_) => Told::Done,
            UserView::Failed(r) => match r.body {
                ResponseBody::PreconditionFailed { .. } => Told::State,
                _ => Told::Failed,
            },
            UserView::GaveUp => Told::Unconfirmed,
        }
    }
}

/// What the user is told, at the end of a run, about one operation. Judged against what
/// happened by [`Told::contradicts`]: a screen is a lie when a user who believes it would act
/// wrongly (pay again for a payment that went through, or trust one that never did).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Told {
    /// Nothing either way yet: a spinner.
    Nothing,
    /// A success screen: it was done.
    Done,
    /// An error screen: it was not done.
    Failed,
    /// "We couldn't confirm your payment": no answer at all. A user reads it as "it did not go
    /// through" and may pay again, so it counts as told failed when the operation was done.
    Unconfirmed,
    /// The state as it is now (the balance and version a 412 carries), shown instead of a
    /// verdict on the operation: true whether or not this very operation went through.
    State,
}

impl Told {
    /// Whether this screen is false for an operation that took effect `effects` times: told it
    /// failed (or could not be confirmed) although it was done, or told it was done although
    /// it never was. Repeats (done twice) are `AtMostOnce`'s to judge, not the screen's.
    pub fn contradicts(self, effects: usize) -> bool {
        match self {
            Told::Failed | Told::Unconfirmed => effects > 0,
            Told::Done => effects == 0,
            Told::Nothing | Told::State => false,
        }
    }
}

/// What the client is waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Wait {
    /// An answer to the latest attempt, until `timeout_at`.
    Answer {
        /// When the attempt is given up.
        timeout_at: SimTime,
    },
    /// The end of a backoff, then it retries.
    Backoff {
        /// When the next attempt leaves.
        retry_at: SimTime,
    },
    /// The answer to a status check, until `timeout_at`; then it gives up.
    Status {
        /// When the check is given up.
        timeout_at: SimTime,
    },
    /// Nothing: the operation is settled or abandoned.
    Nothing,
}

/// One logical operation the user asked for.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClientOp {
    /// Ground-truth id.
    pub op: OpId,
    /// Who asks.
    pub user: UserId,
    /// What is asked (identical on every retry).
    pub body: RequestBody,
    /// The Idempotency-Key, generated once for the operation, reused on every retry.
    pub key: Option<Text>,
    /// When the user asked.
    pub started_at: SimTime,
    /// Attempts sent so far.
    pub attempts: u32,
    /// Timer state.
    pub wait: Wait,
    /// What the user sees.
    pub view: UserView,
}

/// Something the client wants done.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ClientOutput {
    /// Put this request on the wire.
    Send(HttpRequest),
    /// Narrate this.
    Note(Note),
}

/// The client machine.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Client {
    config: ClientConfig,
    ops: Vec<ClientOp>,
    outbox: VecDeque<ClientOutput>,
}

impl Client {
    /// A client with no operations yet.
    pub fn new(config: ClientConfig) -> Self {
        Self {
            config,
            ops: Vec::new(),
            outbox: VecDeque::new(),
        }
    }

    /// The retry policy.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// Every operation so far, in the order they started.
    pub fn ops(&self) -> &[ClientOp] {
        &self.ops
    }

    /// One operation.
    pub fn op(&self, op: OpId) -> Option<&ClientOp> {
        self.ops.iter().find(|o| o.op == op)
    }

    /// Drains what the client wants done.
    pub fn poll(&mut self) -> Option<ClientOutput> {
        self.outbox.pop_front()
    }

    /// Starts a logical operation and sends its first attempt.
    pub fn start(
        &mut self,
        now: SimTime,
        op: OpId,
        user: UserId,
        body: RequestBody,
        key: Option<Text>,
    ) {
        self.ops.push(ClientOp {
            op,
            user,
            body,
            key,
            started_at: now,
            attempts: 0,
            wait: Wait::Nothing,
            view: UserView::Waiting,
        });
        self.outbox
            .push_back(ClientOutput::Note(Note::OperationStarted { op }));
        self.send_attempt(now, op);
    }

    /// The earliest timer: when and for which operation.
    pub fn next_wakeup(&self) -> Option<(SimTime, OpId)> {
        self.ops
            .iter()
            .filter_map(|o| match o.wait {
                Wait::Answer { timeout_at: t }
                | Wait::Backoff { retry_at: t }
                | Wait::Status { timeout_at: t } => Some((t, o.op)),
                Wait::Nothing => None,
            })
            .min()
    }

    /// Fires the timer of `op` (a timeout or the end of a backoff).
    pub fn on_timeout(&mut self, now: SimTime, op: OpId, rng: &mut SimRng) {
        let Some(index) = self.index(op) else { return };
        match self.ops[index].wait {
            Wait::Answer { .. } => {
                let attempt = self.ops[index].attempts;
                self.note(Note::ClientTimedOut { op, attempt });
                self.schedule_retry(now, index, rng);
            }
            Wait::Backoff { .. } if self.within_deadline(now, index) => self.send_attempt(now, op),
            Wait::Backoff { .. } => self.give_up(now, index),
            Wait::Status { .. } => self.gave_up(index),
            Wait::Nothing => {}
        }
    }

    /// Handles an answer from the API.
    pub fn on_response(&mut self, now: SimTime, response: &HttpResponse, rng: &mut SimRng) {
        let Some(index) = self.index(response.op) else {
            return;
        };
        let op = response.op;
        if self.ops[index].view.is_settled() {
            self.note(Note::ClientIgnoredLateAnswer {
                op,
                status: response.status,
            });
            return;
        }
        let checking = matches!(self.ops[index].wait, Wait::Status { .. });
        if response.status == 409 {
            self.note(Note::ClientToldToWait { op });
            if checking {
                // Still in progress when asked: the outcome is not known yet.
                self.gave_up(index);
            } else {
                self.schedule_retry(now, index, rng);
            }
            return;
        }
        // The app can see whether a success is its own: same customer, same amount.
        let foreign = match (&response.body, &self.ops[index].body) {
            (
                ResponseBody::Charged {
                    customer,
                    amount_cents,
                    ..
                },
                RequestBody::Charge {
                    amount_cents: asked,
                    ..
                },
            ) => *customer != self.ops[index].user || amount_cents != asked,
            _ => false,
        };
        self.note(if foreign {
            Note::ClientGotForeignAnswer {
                op,
                status: response.status,
            }
        } else {
            Note::ClientGotAnswer {
                op,
                status: response.status,
                replayed: response.replayed,
            }
        });
        let entry = &mut self.ops[index];
        entry.wait = Wait::Nothing;
        entry.view = if response.is_success() {
            UserView::Succeeded(response.clone())
        } else {
            UserView::Failed(response.clone())
        };
    }

    /// The user pressed Retry: sends `op` again now, unless it is already settled.
    /// Returns whether anything was sent.
    pub fn retry_now(&mut self, now: SimTime, op: OpId) -> bool {
        match self.index(op) {
            Some(index)
                if !self.ops[index].view.is_settled() && self.within_deadline(now, index) =>
            {
                self.note(Note::ClientRetryPressed { op });
                self.send_attempt(now, op);
                true
            }
            _ => false,
        }
    }

    /// Sends one more request for `op` at once, as a second tap or a second device would,
    /// without touching the timers of the attempt already in flight.
    /// Past the retry deadline nothing is sent: the key may be gone on the server.
    pub fn send_copy(&mut self, now: SimTime, op: OpId) {
        let Some(index) = self.index(op).filter(|i| self.within_deadline(now, *i)) else {
            return;
        };
        let wait = self.ops[index].wait;
        let view = self.ops[index].view.clone();
        self.send_attempt(now, op);
        let entry = &mut self.ops[index];
        if view.is_settled() || wait != Wait::Nothing {
            entry.wait = wait;
            entry.view = view;
        }
    }

    /// The latest operation the user could still retry at `now`.
    pub fn retryable_op(&self, now: SimTime) -> Option<OpId> {
        (0..self.ops.len())
            .rev()
            .find(|i| !self.ops[*i].view.is_settled() && self.within_deadline(now, *i))
            .map(|i| self.ops[i].op)
    }

    /// Whether operation `index` is young enough to be sent again (always, without a deadline).
    fn within_deadline(&self, now: SimTime, index: usize) -> bool {
        self.config
            .retry_deadline_ms
            .is_none_or(|d| now.since(self.ops[index].started_at) <= d)
    }

    fn index(&self, op: OpId) -> Option<usize> {
        self.ops.iter().position(|o| o.op == op)
    }

    fn note(&mut self, note: Note) {
        self.outbox.push_back(ClientOutput::Note(note));
    }

    fn schedule_retry(&mut self, now: SimTime, index: usize, rng: &mut SimRng) {
        let past_deadline = !self.within_deadline(now, index);
        let entry = &self.ops[index];
        let op = entry.op;
        if entry.attempts >= self.config.max_attempts || past_deadline {
            self.give_up(now, index);
            return;
        }
        let doubling = 1u64 << entry.attempts.saturating_sub(1).min(16);
        let wait_ms = self.config.backoff_base_ms * doubling + rng.below(self.config.jitter_ms);
        self.ops[index].wait = Wait::Backoff {
            retry_at: now.plus(wait_ms),
        };
        self.note(Note::ClientBacksOff { op, wait_ms });
    }

    /// No more attempts for operation `index`: with the status check (and a key to ask
    /// about), it asks what became of it first; else the user is told it is unconfirmed.
    fn give_up(&mut self, now: SimTime, index: usize) {
        let entry = &mut self.ops[index];
        if !self.config.status_check || entry.key.is_none() {
            self.gave_up(index);
            return;
        }
        entry.wait = Wait::Status {
            timeout_at: now.plus(self.config.timeout_ms),
        };
        let request = HttpRequest {
            user: entry.user,
            idempotency_key: entry.key.clone(),
            body: entry.body.clone(),
            attempt: entry.attempts,
            op: entry.op,
            status_query: true,
        };
        let op = entry.op;
        self.note(Note::ClientAsksStatus { op });
        self.outbox.push_back(ClientOutput::Send(request));
    }

    /// "We couldn't confirm your payment": operation `index` is abandoned unsettled.
    fn gave_up(&mut self, index: usize) {
        let entry = &mut self.ops[index];
        entry.wait = Wait::Nothing;
        entry.view = UserView::GaveUp;
        let op = entry.op;
        self.note(Note::ClientGaveUp { op });
    }

    fn send_attempt(&mut self, now: SimTime, op: OpId) {
        let Some(index) = self.index(op) else { return };
        let timeout_ms = self.config.timeout_ms;
        let entry = &mut self.ops[index];
        entry.attempts += 1;
        entry.wait = Wait::Answer {
            timeout_at: now.plus(timeout_ms),
        };
        if entry.view == UserView::GaveUp {
            entry.view = UserView::Waiting;
        }
        let request = HttpRequest {
            user: entry.user,
            idempotency_key: entry.key.clone(),
            body: entry.body.clone(),
            attempt: entry.attempts,
            op,
            status_query: false,
        };
        let note = Note::ClientSends {
            op,
            attempt: entry.attempts,
            with_key: entry.key.is_some(),
        };
        self.note(note);
        self.outbox.push_back(ClientOutput::Send(request));
    }
}
