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

/// What kind of thing an injected action does to a run, apart from its packet, phase or
/// duration: what the fault menu offers, what a search's claim names ("with up to 2 faults of
/// kinds drop and crash") and what a counter-example's class is made of. One type instead of
/// the URL spellings, so a kind the explorer counts, the lesson words and the page's buttons
/// cannot drift apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum FaultKind {
    /// Drop a packet on the phone's link.
    Drop,
    /// The network delivers a packet twice.
    Dup,
    /// Hold a packet up.
    Delay,
    /// Crash the API before a phase.
    Crash,
    /// Stall a handler before a phase past its lease.
    Pause,
    /// Lose the API's next answer.
    LoseAck,
    /// Evict the store's keys.
    Evict,
    /// The user presses Retry early.
    Retry,
    /// The phone offline past the key's TTL.
    Clock,
    /// A second request with the same key (a scenario's input, not searched).
    Concurrent,
    /// A new operation reusing a key with another body (a scenario's input, not searched).
    ReuseKey,
    /// Another user's request with the same key (a scenario's input, not searched).
    OtherUser,
}

impl FaultKind {
    /// Every kind, in the player's menu order: the explorer's kinds first ([`FaultKind::SEARCHED`]),
    /// then the scenario-shaping inputs.
    pub const ALL: [FaultKind; 12] = [
        FaultKind::Drop,
        FaultKind::Dup,
        FaultKind::Delay,
        FaultKind::Crash,
        FaultKind::Pause,
        FaultKind::LoseAck,
        FaultKind::Evict,
        FaultKind::Retry,
        FaultKind::Clock,
        FaultKind::Concurrent,
        FaultKind::ReuseKey,
        FaultKind::OtherUser,
    ];

    /// The kinds "Try every failure" injects, in menu order (the others shape a scenario and
    /// stay its own): the first nine of [`FaultKind::ALL`], taken from it so the two lists
    /// cannot drift ([`FaultKind::is_searched`] relies on the prefix).
    pub const SEARCHED: [FaultKind; 9] = {
        let mut searched = [FaultKind::Drop; 9];
        let mut i = 0;
        while i < searched.len() {
            searched[i] = FaultKind::ALL[i];
            i += 1;
        }
        searched
    };

    /// The URL spelling (links, catalog keys `kind.<name>`, test ids).
    pub const fn name(self) -> &'static str {
        match self {
            FaultKind::Drop => "drop",
            FaultKind::Dup => "dup",
            FaultKind::Delay => "delay",
            FaultKind::Crash => "crash",
            FaultKind::Pause => "pause",
            FaultKind::LoseAck => "lose-ack",
            FaultKind::Evict => "evict",
            FaultKind::Retry => "retry",
            FaultKind::Clock => "clock",
            FaultKind::Concurrent => "concurrent",
            FaultKind::ReuseKey => "reuse-key",
            FaultKind::OtherUser => "other-user",
        }
    }

    /// The kind spelled `name` ([`FaultKind::name`]).
    pub fn from_name(name: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Its place in [`FaultKind::ALL`] (an index into [`KindCounts`], a bit of a kind set).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether "Try every failure" injects this kind.
    pub const fn is_searched(self) -> bool {
        self.index() < FaultKind::SEARCHED.len()
    }
}

/// How many faults of each kind a schedule holds (a counter-example's class is its invariant
/// and these counts). A run has far fewer than 256 faults of one kind: the search's bound is at
/// most 4.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KindCounts([u8; FaultKind::ALL.len()]);

impl KindCounts {
    /// No fault.
    pub const NONE: KindCounts = KindCounts([0; FaultKind::ALL.len()]);

    /// One fault of `kind`.
    pub fn one(kind: FaultKind) -> KindCounts {
        KindCounts::NONE.with(kind)
    }

    /// These counts and one more fault of `kind`.
    #[must_use]
    pub fn with(mut self, kind: FaultKind) -> KindCounts {
        self.0[kind.index()] = self.0[kind.index()].saturating_add(1);
        self
    }

    /// These counts with one fault of `kind` fewer (none stays none).
    #[must_use]
    pub fn without(mut self, kind: FaultKind) -> KindCounts {
        self.0[kind.index()] = self.0[kind.index()].saturating_sub(1);
        self
    }

    /// The counts of both.
    #[must_use]
    pub fn plus(mut self, other: KindCounts) -> KindCounts {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a = a.saturating_add(b);
        }
        self
    }

    /// How many faults of `kind`.
    pub fn count(&self, kind: FaultKind) -> u8 {
        self.0[kind.index()]
    }

    /// How many faults in all.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|n| u32::from(*n)).sum()
    }

    /// The kinds present, in menu order (each once).
    pub fn kinds(&self) -> impl Iterator<Item = FaultKind> + '_ {
        FaultKind::ALL.into_iter().filter(|k| self.0[k.index()] > 0)
    }

    /// The counts of `actions`' kinds (the operations they start count for nothing).
    pub fn of<'a>(actions: impl IntoIterator<Item = &'a Action>) -> KindCounts {
        actions
            .into_iter()
            .filter_map(Action::kind)
            .fold(KindCounts::NONE, KindCounts::with)
    }
}

/// A set of fault kinds: which kinds a search may inject ([`crate::Bounds::kinds`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KindSet(u16);

impl KindSet {
    /// Every kind.
    pub const ALL: KindSet = KindSet((1 << FaultKind::ALL.len()) - 1);
    /// No kind.
    pub const NONE: KindSet = KindSet(0);

    /// The set of `kinds`.
    pub fn of(kinds: impl IntoIterator<Item = FaultKind>) -> KindSet {
        kinds.into_iter().fold(KindSet::NONE, |set, k| set.with(k))
    }

    /// This set and `kind`.
    #[must_use]
    pub const fn with(self, kind: FaultKind) -> KindSet {
        KindSet(self.0 | 1 << kind.index())
    }

    /// Whether `kind` is in it.
    pub const fn contains(self, kind: FaultKind) -> bool {
        self.0 & (1 << kind.index()) != 0
    }

    /// Its kinds, in menu order.
    pub fn kinds(self) -> impl Iterator<Item = FaultKind> {
        FaultKind::ALL
            .into_iter()
            .filter(move |k| self.contains(*k))
    }
}

impl Default for KindSet {
    /// A search's default: the whole menu.
    fn default() -> KindSet {
        KindSet::ALL
    }
}

impl Action {
    /// The kind of fault or input this is; `None` for the start of an operation, which is what
    /// a story is about rather than something done to it.
    pub fn kind(&self) -> Option<FaultKind> {
        Some(match self {
            Action::Start(_) => return None,
            Action::RetryNow => FaultKind::Retry,
            Action::Drop(_) => FaultKind::Drop,
            Action::LoseNextAck => FaultKind::LoseAck,
            Action::Duplicate(_) => FaultKind::Dup,
            Action::Delay(..) => FaultKind::Delay,
            Action::Crash(_) => FaultKind::Crash,
            Action::Pause(_) => FaultKind::Pause,
            Action::EvictKeys => FaultKind::Evict,
            Action::AdvanceClock(_) => FaultKind::Clock,
            Action::ConcurrentDuplicate => FaultKind::Concurrent,
            Action::ReuseKeyOtherBody => FaultKind::ReuseKey,
            Action::OtherUserSameKey => FaultKind::OtherUser,
        })
    }

    /// A short stable name of the action's kind (URL spelling): [`FaultKind::name`], or
    /// "start" for the start of an operation.
    pub fn kind_name(&self) -> &'static str {
        self.kind().map_or("start", FaultKind::name)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_named_once_and_read_back() {
        for (i, kind) in FaultKind::ALL.into_iter().enumerate() {
            assert_eq!(kind.index(), i, "{kind:?}");
            assert_eq!(FaultKind::from_name(kind.name()), Some(kind));
            assert_eq!(kind.is_searched(), FaultKind::SEARCHED.contains(&kind));
        }
        assert_eq!(FaultKind::from_name("start"), None);
        assert_eq!(
            Action::Start(OpSpec {
                user: UserId(1),
                kind: OpKind::Like { post: 1 },
            })
            .kind_name(),
            "start"
        );
        assert_eq!(Action::Pause(Phase::Respond).kind(), Some(FaultKind::Pause));
    }

    #[test]
    fn counts_add_and_remove_one_kind_at_a_time() {
        let two = KindCounts::one(FaultKind::Drop).with(FaultKind::Drop);
        let mixed = two.with(FaultKind::Crash);
        assert_eq!(mixed.count(FaultKind::Drop), 2);
        assert_eq!(mixed.total(), 3);
        assert_eq!(mixed.without(FaultKind::Crash), two);
        assert_ne!(two, KindCounts::one(FaultKind::Drop));
        assert_eq!(
            mixed.kinds().collect::<Vec<_>>(),
            [FaultKind::Drop, FaultKind::Crash]
        );
        assert_eq!(KindCounts::NONE.without(FaultKind::Drop), KindCounts::NONE);
        let set = KindSet::of([FaultKind::Retry, FaultKind::Pause]);
        assert!(set.contains(FaultKind::Pause) && !set.contains(FaultKind::Drop));
        assert_eq!(
            set.kinds().collect::<Vec<_>>(),
            [FaultKind::Pause, FaultKind::Retry]
        );
        assert!(FaultKind::ALL.into_iter().all(|k| KindSet::ALL.contains(k)));
    }
}
