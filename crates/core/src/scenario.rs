//! Scenarios as data: initial state, protections, the client's retry policy and a timed script
//! of operations and faults. The same engine runs all of them.

use serde::{Deserialize, Serialize};

use crate::action::{Action, OpKind, OpSpec};
use crate::client::ClientConfig;
use crate::net::Latencies;
use crate::phase::Phase;
use crate::protections::{Protection, Protections};
use crate::time::{SimTime, HOUR};
use crate::topology::{Node, UserId};

/// Which of the seed's stories a scenario belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Story {
    /// 1. Naive POST → double charge.
    NaivePost,
    /// 2. Idempotency-Key and its mechanics (fingerprint, lock, TTL, scope, transactions).
    IdempotencyKey,
    /// 3. Conditional update (compare-and-set).
    CompareAndSet,
    /// 4. Counter increment and op_id dedup.
    Counter,
}

impl Story {
    /// The protections that matter for this story, in display order (the page offers these).
    pub fn protections(self) -> &'static [Protection] {
        use Protection::*;
        match self {
            Story::NaivePost | Story::IdempotencyKey => &[
                Key,
                RequireKey,
                Fingerprint,
                Lock,
                Fencing,
                Scope,
                SameTx,
                Forward,
                Recovery,
                Deadline,
                StatusCheck,
            ],
            Story::CompareAndSet => &[Cas, Reconcile],
            Story::Counter => &[OpId, UniqueIndex],
        }
    }

    /// The nodes a run of this story involves, in drawing order: the payment stories use all
    /// five; compare-and-set and the counter talk only to their database (no idempotency
    /// store, no card processor).
    pub fn nodes(self) -> &'static [Node] {
        match self {
            Story::NaivePost | Story::IdempotencyKey => &Node::ALL,
            Story::CompareAndSet | Story::Counter => &[Node::Client, Node::Api, Node::Ledger],
        }
    }
}

/// A timed input of a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Scripted {
    /// When it happens.
    pub at: SimTime,
    /// What happens.
    pub action: Action,
}

/// A complete description of a run.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Scenario {
    /// URL id, e.g. `naive`.
    pub id: String,
    /// The seed story it belongs to.
    pub story: Story,
    /// Protections in force.
    pub protections: Protections,
    /// The client's retry policy (the deadline is filled in from the protections).
    pub client: ClientConfig,
    /// Link delays.
    pub latencies: Latencies,
    /// The client forgets the Idempotency-Key header (a client bug).
    pub client_omits_key: bool,
    /// Opening balance of account 1.
    pub balance: i64,
    /// Opening version of account 1.
    pub version: u64,
    /// Opening likes of post 7.
    pub likes: i64,
    /// Timed inputs.
    pub script: Vec<Scripted>,
    /// Seed of every random choice (keys, jitter).
    pub seed: u64,
    /// Whether the script still holds its faults (false for the explorer's fault-free base).
    pub scripted_faults: bool,
}

/// Why a scenario could not be built.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ScenarioError {
    /// No scenario has this id.
    UnknownId(String),
}

/// The user of most stories.
pub(crate) const ALICE: UserId = UserId(1);
/// The other user (key-scope stories).
pub(crate) const BOB: UserId = UserId(2);
/// The account of the compare-and-set story.
pub(crate) const ACCOUNT: u32 = 1;
/// The post of the counter story.
pub(crate) const POST: u32 = 7;

/// The seed's $100 charge.
pub(crate) const CHARGE_100: OpSpec = OpSpec {
    user: ALICE,
    kind: OpKind::Charge {
        amount_cents: 10_000,
    },
};
/// The seed's debit of 20 by a client that read version 5.
pub(crate) const DEBIT_20: OpSpec = OpSpec {
    user: ALICE,
    kind: OpKind::Debit {
        amount: 20,
        read_version: 5,
    },
};
/// A like of post 7.
pub(crate) const LIKE: OpSpec = OpSpec {
    user: ALICE,
    kind: OpKind::Like { post: POST },
};

/// How many scenarios at the head of [`IDS`] tell the seed's four stories; the rest are more
/// mechanics.
pub(crate) const SEED_COUNT: usize = 5;

/// The ids of the seed stories' scenarios, in menu order.
pub(crate) fn seed_ids() -> &'static [&'static str] {
    &IDS[..SEED_COUNT]
}

/// The ids of the other mechanics' scenarios, in menu order.
pub(crate) fn mechanic_ids() -> &'static [&'static str] {
    &IDS[SEED_COUNT..]
}

/// Whether `id` is one of the seed stories' scenarios (not one of the other mechanics).
pub(crate) fn is_seed(id: &str) -> bool {
    seed_ids().contains(&id)
}

/// Every scenario id, in menu order. The first [`SEED_COUNT`] are the seed's four stories.
pub(crate) const IDS: [&str; 23] = [
    "naive",
    "key",
    "cas",
    "counter-naive",
    "counter",
    "cas-naive",
    "counter-no-index",
    "missing-key",
    "key-reuse",
    "key-reuse-no-fingerprint",
    "concurrent",
    "concurrent-no-lock",
    "ttl",
    "scope",
    "scope-off",
    "evict",
    "crash-window",
    "crash-no-forward",
    "crash-one-tx",
    "lease-expiry",
    "lease-fencing",
    "cas-race",
    "fully-protected",
];

/// Scenarios that tell the same story with another design, so the two can be played side by
/// side (the same inputs, the same faults): (less protected, more protected).
pub(crate) const COMPARE: [(&str, &str); 11] = [
    ("naive", "key"),
    ("naive", "fully-protected"),
    ("key", "fully-protected"),
    ("cas-naive", "cas"),
    ("counter-naive", "counter"),
    ("counter-no-index", "counter"),
    ("crash-window", "crash-one-tx"),
    ("crash-no-forward", "crash-one-tx"),
    ("concurrent-no-lock", "concurrent"),
    ("scope-off", "scope"),
    ("lease-expiry", "lease-fencing"),
];

/// The scenarios `id` can be compared with (in [`COMPARE`] order).
pub(crate) fn compare_with(id: &str) -> Vec<&'static str> {
    COMPARE
        .iter()
        .filter_map(|&(a, b)| {
            if a == id {
                Some(b)
            } else if b == id {
                Some(a)
            } else {
                None
            }
        })
        .collect()
}

/// Whether `left` and `right` tell the same story (see [`COMPARE`]), in either order.
pub(crate) fn comparable(left: &str, right: &str) -> bool {
    compare_with(left).contains(&right)
}

/// The scenarios' table, as the page and the tests read it: the ids in menu order, the seed's
/// stories and the other mechanics, and the pairs a comparison offers.
impl Scenario {
    /// Every scenario id, in menu order. The first [`Scenario::SEED_COUNT`] tell the seed's
    /// four stories.
    pub const IDS: [&'static str; 23] = IDS;
    /// How many scenarios at the head of [`Scenario::IDS`] tell the seed's four stories.
    pub const SEED_COUNT: usize = SEED_COUNT;
    /// Scenarios that tell the same story with another design: (less protected, more
    /// protected).
    pub const COMPARE: [(&'static str, &'static str); 11] = COMPARE;
    /// The account of the compare-and-set story.
    pub const ACCOUNT: u32 = ACCOUNT;
    /// The post of the counter story.
    pub const POST: u32 = POST;

    /// The ids of the seed stories' scenarios, in menu order.
    pub fn seed_ids() -> &'static [&'static str] {
        seed_ids()
    }

    /// The ids of the other mechanics' scenarios, in menu order.
    pub fn mechanic_ids() -> &'static [&'static str] {
        mechanic_ids()
    }

    /// Whether `id` is one of the seed stories' scenarios.
    pub fn is_seed(id: &str) -> bool {
        is_seed(id)
    }

    /// The scenarios `id` can be compared with (in [`Scenario::COMPARE`] order).
    pub fn compare_with(id: &str) -> Vec<&'static str> {
        compare_with(id)
    }

    /// Whether `left` and `right` tell the same story, in either order.
    pub fn comparable(left: &str, right: &str) -> bool {
        comparable(left, right)
    }
}

/// The stories' users.
impl UserId {
    /// The user of most stories.
    pub const ALICE: UserId = ALICE;
    /// The other user (key-scope stories).
    pub const BOB: UserId = BOB;
}

/// The stories' operations.
impl OpSpec {
    /// The seed's $100 charge.
    pub const CHARGE_100: OpSpec = CHARGE_100;
    /// The seed's debit of 20 by a client that read version 5.
    pub const DEBIT_20: OpSpec = DEBIT_20;
    /// A like of post 7.
    pub const LIKE: OpSpec = LIKE;
}

fn at(ms: u64, action: Action) -> Scripted {
    Scripted {
        at: SimTime(ms),
        action,
    }
}

impl Scenario {
    /// The scenario with this id.
    pub fn by_id(id: &str) -> Result<Scenario, ScenarioError> {
        use Action::*;
        let key = Protections::SEED_KEY;
        let lost_ack = vec![at(0, LoseNextAck), at(0, Start(CHARGE_100))];
        let (story, protections, script) = match id {
            "naive" => (Story::NaivePost, Protections::NONE, lost_ack),
            "key" => (Story::IdempotencyKey, key, lost_ack),
            "cas" => (
                Story::CompareAndSet,
                Protections {
                    cas: true,
                    ..Protections::NONE
                },
                vec![at(0, LoseNextAck), at(0, Start(DEBIT_20))],
            ),
            "cas-naive" => (
                Story::CompareAndSet,
                Protections::NONE,
                vec![at(0, LoseNextAck), at(0, Start(DEBIT_20))],
            ),
            "counter-naive" => (
                Story::Counter,
                Protections::NONE,
                vec![at(0, LoseNextAck), at(0, Start(LIKE))],
            ),
            "counter" => (
                Story::Counter,
                Protections {
                    op_dedup: true,
                    unique_index: true,
                    ..Protections::NONE
                },
                vec![at(0, LoseNextAck), at(0, Start(LIKE))],
            ),
            "counter-no-index" => (
                Story::Counter,
                Protections {
                    op_dedup: true,
                    ..Protections::NONE
                },
                vec![at(0, LoseNextAck), at(0, Start(LIKE))],
            ),
            "missing-key" => (Story::IdempotencyKey, key, vec![at(0, Start(CHARGE_100))]),
            "key-reuse" => (
                Story::IdempotencyKey,
                key,
                vec![at(0, Start(CHARGE_100)), at(2_500, ReuseKeyOtherBody)],
            ),
            "key-reuse-no-fingerprint" => (
                Story::IdempotencyKey,
                Protections {
                    fingerprint: false,
                    ..key
                },
                vec![at(0, Start(CHARGE_100)), at(2_500, ReuseKeyOtherBody)],
            ),
            "concurrent" => (
                Story::IdempotencyKey,
                key,
                vec![at(0, Start(CHARGE_100)), at(50, ConcurrentDuplicate)],
            ),
            "concurrent-no-lock" => (
                Story::IdempotencyKey,
                Protections { lock: false, ..key },
                vec![at(0, Start(CHARGE_100)), at(50, ConcurrentDuplicate)],
            ),
            "ttl" => (
                Story::IdempotencyKey,
                key,
                vec![
                    at(0, LoseNextAck),
                    at(0, Start(CHARGE_100)),
                    at(2_000, AdvanceClock(25 * HOUR)),
                ],
            ),
            "scope" => (
                Story::IdempotencyKey,
                key,
                vec![at(0, Start(CHARGE_100)), at(2_500, OtherUserSameKey)],
            ),
            "scope-off" => (
                Story::IdempotencyKey,
                Protections {
                    scope_by_user: false,
                    ..key
                },
                vec![at(0, Start(CHARGE_100)), at(2_500, OtherUserSameKey)],
            ),
            "evict" => (
                Story::IdempotencyKey,
                key,
                vec![
                    at(0, LoseNextAck),
                    at(0, Start(CHARGE_100)),
                    at(2_000, EvictKeys),
                ],
            ),
            "crash-window" => (
                Story::IdempotencyKey,
                key,
                vec![at(0, Crash(Phase::RecordKey)), at(0, Start(CHARGE_100))],
            ),
            "crash-no-forward" => (
                Story::IdempotencyKey,
                Protections {
                    key_in_ledger_tx: true,
                    ..key
                },
                vec![at(0, Crash(Phase::WriteLedger)), at(0, Start(CHARGE_100))],
            ),
            "crash-one-tx" => (
                Story::IdempotencyKey,
                Protections {
                    key_in_ledger_tx: true,
                    forward_key: true,
                    ..key
                },
                vec![at(0, Crash(Phase::WriteLedger)), at(0, Start(CHARGE_100))],
            ),
            "lease-expiry" => (
                Story::IdempotencyKey,
                key,
                vec![
                    at(0, Pause(Phase::CallProcessor)),
                    at(0, Start(CHARGE_100)),
                    at(5_600, RetryNow),
                ],
            ),
            "lease-fencing" => (
                Story::IdempotencyKey,
                Protections {
                    fencing: true,
                    ..key
                },
                vec![
                    at(0, Pause(Phase::CallProcessor)),
                    at(0, Start(CHARGE_100)),
                    at(5_600, RetryNow),
                ],
            ),
            "cas-race" => (
                Story::CompareAndSet,
                Protections {
                    cas: true,
                    ..Protections::NONE
                },
                vec![
                    at(0, Start(DEBIT_20)),
                    at(
                        0,
                        Start(OpSpec {
                            user: ALICE,
                            kind: OpKind::Debit {
                                amount: 30,
                                read_version: 5,
                            },
                        }),
                    ),
                ],
            ),
            "fully-protected" => (Story::IdempotencyKey, Protections::ALL, lost_ack),
            other => return Err(ScenarioError::UnknownId(other.to_owned())),
        };
        Ok(Scenario {
            id: id.to_owned(),
            story,
            protections,
            client: ClientConfig::default(),
            latencies: Latencies::default(),
            client_omits_key: id == "missing-key",
            balance: 100,
            version: 5,
            likes: 100,
            script,
            seed: 1,
            scripted_faults: true,
        })
    }

    /// All scenarios, in menu order.
    pub fn all() -> Vec<Scenario> {
        IDS.iter()
            .filter_map(|id| Scenario::by_id(id).ok())
            .collect()
    }

    /// The same operations without the scripted faults: the fault-free run the explorer
    /// starts from.
    pub fn without_scripted_faults(mut self) -> Scenario {
        self.script.retain(|s| !s.action.is_fault());
        self.scripted_faults = false;
        self
    }

    /// The same scenario with other protections.
    pub fn with_protections(mut self, protections: Protections) -> Scenario {
        self.protections = protections;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_come_first_and_every_story_offers_its_protections() {
        assert_eq!(seed_ids().len() + mechanic_ids().len(), IDS.len());
        assert!(is_seed("naive") && is_seed("counter") && !is_seed("missing-key"));
        let seed_stories: Vec<Story> = seed_ids()
            .iter()
            .map(|id| Scenario::by_id(id).expect("seed").story)
            .collect();
        for story in [
            Story::NaivePost,
            Story::IdempotencyKey,
            Story::CompareAndSet,
            Story::Counter,
        ] {
            assert!(seed_stories.contains(&story), "{story:?}");
        }
        assert_eq!(
            Story::CompareAndSet.protections(),
            [Protection::Cas, Protection::Reconcile]
        );
        assert!(Story::Counter
            .protections()
            .contains(&Protection::UniqueIndex));
        assert!(!Story::NaivePost.protections().contains(&Protection::Cas));
    }
}
