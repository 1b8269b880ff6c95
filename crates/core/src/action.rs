//! Everything that can happen to a world from outside the engine: the user's buttons, the
//! scripted faults of a scenario, and the faults the explorer branches on.

use serde::{Deserialize, Serialize};

use crate::phase::Phase;
use crate::topology::{MsgId, UserId};

/// What a new logical operation asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OpKind {
    /// `POST /charges` of this many cents.
    Charge {
        /// Cents.
        amount_cents: u64,
    },
    /// `PATCH /accounts/1` taking this many dollars, by a client that read the account at
    /// `read_version`.
    Debit {
        /// Dollars.
        amount: i64,
        /// The version the client saw when it read the balance.
        read_version: u64,
    },
    /// `POST /posts/{post}/likes`.
    Like {
        /// The post.
        post: u32,
    },
}

/// A logical operation a script starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OpSpec {
    /// Who asks.
    pub user: UserId,
    /// What.
    pub kind: OpKind,
}

/// An input to the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// The user starts a logical operation (the client makes its key now).
    Start(OpSpec),
    /// The user presses Retry on the latest unsettled operation.
    RetryNow,
    /// Drop a message in flight on the mobile link.
    Drop(MsgId),
    /// Lose the next response the API sends.
    LoseNextAck,
    /// The network delivers a message twice.
    Duplicate(MsgId),
    /// Hold a message up by some milliseconds.
    Delay(MsgId, u64),
    /// Crash the API the next time a handler is about to start this phase.
    Crash(Phase),
    /// Stall the next handler about to start this phase for longer than its claim's lease (a
    /// long GC pause, a slow call): it then carries on as if nothing happened.
    Pause(Phase),
    /// Evict every key from the Redis store (memory pressure, or a restart without persistence).
    EvictKeys,
    /// Let this many milliseconds pass with the phone offline (asleep, no signal): the servers
    /// finish what they were doing and their keys age; the phone's retry comes after.
    AdvanceClock(u64),
    /// A second request for the latest operation, with the same key, right now (double tap,
    /// second device).
    ConcurrentDuplicate,
    /// A client bug: a new operation that reuses the first operation's key with another body.
    ReuseKeyOtherBody,
    /// Another user sends a request with the first operation's key.
    OtherUserSameKey,
}

impl Action {
    /// Faults (and early retries) as opposed to the operations a story is about: the explorer
    /// strips these from a scenario's script and injects its own.
    /// A short stable name of the action's kind (URL spelling).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Action::Start(_) => "start",
            Action::RetryNow => "retry",
            Action::Drop(_) => "drop",
            Action::LoseNextAck => "lose-ack",
            Action::Duplicate(_) => "dup",
            Action::Delay(..) => "delay",
            Action::Crash(_) => "crash",
            Action::Pause(_) => "pause",
            Action::EvictKeys => "evict",
            Action::AdvanceClock(_) => "clock",
            Action::ConcurrentDuplicate => "concurrent",
            Action::ReuseKeyOtherBody => "reuse-key",
            Action::OtherUserSameKey => "other-user",
        }
    }

    /// Faults (and early retries) as opposed to what a story is about: the explorer strips
    /// these from a scenario's script and injects its own. The operations, and the inputs that
    /// shape a scenario (a concurrent second request, a reused key, another user's key), stay:
    /// they are the scenario's choice, not the network's.
    pub fn is_fault(&self) -> bool {
        !matches!(
            self,
            Action::Start(_)
                | Action::ConcurrentDuplicate
                | Action::ReuseKeyOtherBody
                | Action::OtherUserSameKey
        )
    }
}

/// Why an action was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ActionError {
    /// There is no message with this id.
    NoSuchMessage(MsgId),
    /// The message has already arrived or been lost.
    NotInFlight(MsgId),
    /// The message travels inside the data centre, where this model has no packet loss; crash
    /// the API instead.
    NotOnMobileLink(MsgId),
    /// There is no unsettled operation to retry.
    NothingToRetry,
    /// There is no earlier operation whose key could be reused.
    NoOperationYet,
    /// The phone is offline until the clock reaches its wake-up time.
    ClientOffline,
    /// Nothing is left to happen, so no answer is on its way to be lost.
    NothingOnItsWay,
    /// This design's handler has no such phase (an accounts API calls no card processor).
    NoSuchPhase(Phase),
}
