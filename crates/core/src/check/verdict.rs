//! Invariants checked on the world's state. The page's verdict ("charged exactly once",
//! "charged twice") is computed here from ground truth, never written by hand.

use serde::{Deserialize, Serialize};

use crate::base::text::Text;
use crate::base::vecmap::VecMap;
use crate::client::{Told, UserView};
use crate::http::{RequestBody, ResponseBody};
use crate::topology::{OpId, UserId};
use crate::world::World;

/// A property the lesson promises (or shows broken).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Invariant {
    /// Every logical operation took effect at most once (card charges, debits, likes).
    AtMostOnce,
    /// Every processor charge has its ledger row and every ledger row its charge (checked when
    /// the run is quiet; in between they may legitimately differ).
    LedgerMatchesProcessor,
    /// Balance = opening balance − the amounts of the distinct debits.
    BalanceMatchesDebits,
    /// Likes = opening likes + the number of distinct like operations.
    LikesMatchOperations,
    /// No user was shown a payment that belongs to another user.
    NoCrossUserReplay,
    /// Every success the user saw corresponds to exactly one effect of that very operation.
    SuccessMeansDone,
    /// No user is told that an operation which was done failed, or left with "we couldn't
    /// confirm" for it (judged by [`Told::contradicts`] on [`UserView::told`]): believing the
    /// screen, they would do it again. A success screen is [`Invariant::SuccessMeansDone`]'s
    /// to judge, so one false screen breaks one invariant.
    UserToldTheTruth,
}

impl Invariant {
    /// All invariants, in display order.
    pub const ALL: [Invariant; 7] = [
        Invariant::AtMostOnce,
        Invariant::LedgerMatchesProcessor,
        Invariant::BalanceMatchesDebits,
        Invariant::LikesMatchOperations,
        Invariant::NoCrossUserReplay,
        Invariant::SuccessMeansDone,
        Invariant::UserToldTheTruth,
    ];

    /// A stable name (catalog key suffix, test ids).
    pub fn name(self) -> &'static str {
        match self {
            Invariant::AtMostOnce => "at-most-once",
            Invariant::LedgerMatchesProcessor => "ledger-matches-processor",
            Invariant::BalanceMatchesDebits => "balance-matches-debits",
            Invariant::LikesMatchOperations => "likes-match-operations",
            Invariant::NoCrossUserReplay => "no-cross-user-replay",
            Invariant::SuccessMeansDone => "success-means-done",
            Invariant::UserToldTheTruth => "user-told-the-truth",
        }
    }
}

/// The state of one invariant.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Status {
    /// Holds now.
    Holds,
    /// Broken, with the numbers that show it.
    Violated(Violation),
    /// Cannot be judged until the run is quiet.
    Pending,
}

/// Evidence of a broken invariant.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Violation {
    /// An operation took effect `times` times.
    Repeated {
        /// The operation.
        op: OpId,
        /// How many effects it had.
        times: usize,
    },
    /// Processor and ledger disagree: charges without a ledger row, rows without a charge.
    Mismatch {
        /// Payment ids the processor has and the ledger lacks.
        unrecorded: Vec<String>,
        /// Payment ids the ledger has and the processor lacks.
        phantom: Vec<String>,
    },
    /// A counter is off.
    WrongTotal {
        /// What it should be.
        expected: i64,
        /// What it is.
        actual: i64,
    },
    /// `shown_to` saw a payment of `owner`.
    Leak {
        /// The user who saw it.
        shown_to: UserId,
        /// The payment's owner.
        owner: UserId,
    },
    /// The user saw success for `op`, which had `effects` effects.
    FalseSuccess {
        /// The operation.
        op: OpId,
        /// Its effects (0 or more than 1).
        effects: usize,
    },
    /// The user was told `told` about `op`, which was done `effects` times.
    FalseFailure {
        /// The operation.
        op: OpId,
        /// What the screen said (failed, or could not be confirmed).
        told: Told,
        /// Its effects (at least 1).
        effects: usize,
    },
}

/// The money as three parties see it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Money {
    /// The first user's card statement total, in cents.
    pub statement_cents: u64,
    /// Number of processor charges (all users).
    pub processor_charges: usize,
    /// Number of rows in `charges`.
    pub ledger_rows: usize,
    /// Sum of `charges.amount` in cents.
    pub ledger_cents: u64,
}

/// All invariants with their status, and the figures the page shows beside them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Verdict {
    /// Each invariant and its status.
    pub checks: Vec<(Invariant, Status)>,
    /// Effects per logical operation (charges, debits or likes).
    pub effects: Vec<(OpId, usize)>,
    /// Statement, ledger and processor figures.
    pub money: Money,
    /// Whether the run is over.
    pub quiescent: bool,
    /// The operations whose user is shown an error (or "we couldn't confirm") although the
    /// operation took effect: the money is right, the user's screen is not, and a user who
    /// believes it may pay again with a new key. Exactly the operations that break
    /// [`Invariant::UserToldTheTruth`]; a 412 that shows the current balance is not one.
    pub error_but_done: Vec<OpId>,
}

impl Verdict {
    /// True when no invariant is violated.
    pub fn ok(&self) -> bool {
        self.violations().next().is_none()
    }

    /// The broken invariants.
    pub fn violations(&self) -> impl Iterator<Item = (Invariant, &Violation)> {
        self.checks.iter().filter_map(|(i, s)| match s {
            Status::Violated(v) => Some((*i, v)),
            _ => None,
        })
    }

    /// The status of one invariant.
    pub fn status(&self, invariant: Invariant) -> Option<&Status> {
        self.checks
            .iter()
            .find(|(i, _)| *i == invariant)
            .map(|(_, s)| s)
    }

    /// The most effects any single operation had (2 = "charged twice").
    pub fn max_effects(&self) -> usize {
        self.effects.iter().map(|(_, n)| *n).max().unwrap_or(0)
    }
}

impl World {
    /// Checks every invariant against the current state.
    pub fn verdict(&self) -> Verdict {
        let quiescent = self.is_quiescent();
        let effects = effects_per_op(self);
        let mut checks = Vec::with_capacity(Invariant::ALL.len());

        let repeated = effects.iter().find(|(_, n)| **n > 1);
        checks.push((
            Invariant::AtMostOnce,
            match repeated {
                Some((op, times)) => Status::Violated(Violation::Repeated {
                    op: *op,
                    times: *times,
                }),
                None => Status::Holds,
            },
        ));

        checks.push((
            Invariant::LedgerMatchesProcessor,
            ledger_matches(self, quiescent),
        ));
        checks.push((Invariant::BalanceMatchesDebits, balance_matches(self)));
        checks.push((Invariant::LikesMatchOperations, likes_match(self)));
        checks.push((Invariant::NoCrossUserReplay, no_leak(self)));
        checks.push((
            Invariant::SuccessMeansDone,
            success_means_done(self, &effects),
        ));
        let error_but_done: Vec<OpId> = self
            .client()
            .ops()
            .iter()
            .filter(|o| o.view.told() != Told::Done)
            .filter(|o| {
                o.view
                    .told()
                    .contradicts(effects.get(&o.op).copied().unwrap_or(0))
            })
            .map(|o| o.op)
            .collect();
        checks.push((
            Invariant::UserToldTheTruth,
            match error_but_done.first() {
                Some(op) => Status::Violated(Violation::FalseFailure {
                    op: *op,
                    told: self
                        .client()
                        .ops()
                        .iter()
                        .find(|o| o.op == *op)
                        .map_or(Told::Failed, |o| o.view.told()),
                    effects: effects.get(op).copied().unwrap_or(0),
                }),
                None => Status::Holds,
            },
        ));

        let first_user = self.client().ops().first().map_or(UserId(1), |o| o.user);
        let ledger = self.ledger();
        let money = Money {
            statement_cents: self.processor().total_for(first_user),
            processor_charges: self.processor().statement.len(),
            ledger_rows: ledger.charges.len(),
            ledger_cents: ledger.charges.iter().map(|c| c.amount_cents).sum(),
        };
        Verdict {
            checks,
            effects: effects.iter().map(|(op, n)| (*op, *n)).collect(),
            money,
            quiescent,
            error_but_done,
        }
    }
}

fn effects_per_op(world: &World) -> VecMap<OpId, usize> {
    let mut counts: VecMap<OpId, usize> = VecMap::default();
    for op in world.client().ops() {
        counts.insert(op.op, 0);
    }
    let mut bump = |op: OpId| match counts.get_mut(&op) {
        Some(n) => *n += 1,
        None => {
            counts.insert(op, 1);
        }
    };
    let ops = world.client().ops();
    let is = |op: OpId, f: fn(&RequestBody) -> bool| ops.iter().any(|o| o.op == op && f(&o.body));
    for line in &world.processor().statement {
        bump(line.op);
    }
    for effect in &world.ledger().debits {
        if is(effect.op, |b| matches!(b, RequestBody::Debit { .. })) {
            bump(effect.op);
        }
    }
    for effect in &world.ledger().likes {
        if is(effect.op, |b| matches!(b, RequestBody::Like { .. })) {
            bump(effect.op);
        }
    }
    counts
}

fn ledger_matches(world: &World, quiescent: bool) -> Status {
    if !quiescent {
        return Status::Pending;
    }
    let charged: Vec<&Text> = world
        .processor()
        .statement
        .iter()
        .map(|l| &l.payment_id)
        .collect();
    let recorded: Vec<&Text> = world
        .ledger()
        .charges
        .iter()
        .map(|c| &c.payment_id)
        .collect();
    let unrecorded: Vec<String> = charged
        .iter()
        .filter(|p| !recorded.contains(p))
        .map(|p| p.as_str().to_owned())
        .collect();
    let phantom: Vec<String> = recorded
        .iter()
        .filter(|p| !charged.contains(p))
        .map(|p| p.as_str().to_owned())
        .collect();
    if unrecorded.is_empty() && phantom.is_empty() {
        Status::Holds
    } else {
        Status::Violated(Violation::Mismatch {
            unrecorded,
            phantom,
        })
    }
}

fn balance_matches(world: &World) -> Status {
    let ledger = world.ledger();
    let Some(account) = ledger.accounts.first() else {
        return Status::Holds;
    };
    let mut seen = Vec::new();
    let mut expected = world.scenario().balance;
    for effect in &ledger.debits {
        if !seen.contains(&effect.op) {
            seen.push(effect.op);
            expected -= effect.amount;
        }
    }
    if expected == account.balance {
        Status::Holds
    } else {
        Status::Violated(Violation::WrongTotal {
            expected,
            actual: account.balance,
        })
    }
}

fn likes_match(world: &World) -> Status {
    let ledger = world.ledger();
    let Some(post) = ledger.posts.first() else {
        return Status::Holds;
    };
    // Kept in order by insertion: a handful of operations, and a sort would add its code
    // to the page's wasm for it.
    let mut distinct: Vec<OpId> = Vec::new();
    for op in ledger.likes.iter().map(|e| e.op) {
        if let Err(at) = distinct.binary_search(&op) {
            distinct.insert(at, op);
        }
    }
    let expected = world.scenario().likes + distinct.len() as i64;
    if expected == post.likes {
        Status::Holds
    } else {
        Status::Violated(Violation::WrongTotal {
            expected,
            actual: post.likes,
        })
    }
}

fn no_leak(world: &World) -> Status {
    // Judged on what users were shown (their screens), so the verdict depends on state only.
    for op in world.client().ops() {
        let UserView::Succeeded(response) = &op.view else {
            continue;
        };
        if let ResponseBody::Charged { customer, .. } = response.body {
            if customer != op.user {
                return Status::Violated(Violation::Leak {
                    shown_to: op.user,
                    owner: customer,
                });
            }
        }
    }
    Status::Holds
}

fn success_means_done(world: &World, effects: &VecMap<OpId, usize>) -> Status {
    for op in world.client().ops() {
        if let UserView::Succeeded(_) = op.view {
            let n = effects.get(&op.op).copied().unwrap_or(0);
            if n != 1 {
                return Status::Violated(Violation::FalseSuccess {
                    op: op.op,
                    effects: n,
                });
            }
        }
    }
    Status::Holds
}
