//! A model of the PostgreSQL payments ledger: the tables of the lesson, the statements the API
//! runs on them, and rows-affected counts exactly as PostgreSQL reports them.
//!
//! A [`SqlBatch`] arrives as one message and runs as one unit; with `transaction` it is wrapped
//! in `BEGIN … COMMIT`, so either all of its writes are visible or (when the API dies before
//! sending it) none.

use crate::base::text::Text;
use serde::{Deserialize, Serialize};

use crate::http::HttpRequest;
use crate::record::{KeyRecord, KeyStatus, StoredKey, StoredResponse};
use crate::time::SimTime;
use crate::topology::{OpId, UserId};

/// `charges`: one row per payment the API recorded. `payment_id` is the primary key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChargeRow {
    /// The processor's payment id (primary key).
    pub payment_id: Text,
    /// The customer.
    pub user: UserId,
    /// Amount in cents.
    pub amount_cents: u64,
    /// The Idempotency-Key of the request, if any.
    pub idempotency_key: Option<Text>,
    /// Ground truth: the logical operation that wrote the row.
    pub op: OpId,
}

/// `accounts`: a balance guarded by a version for compare-and-set.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AccountRow {
    /// Primary key.
    pub id: u32,
    /// Balance in dollars.
    pub balance: i64,
    /// Bumped by every successful update.
    pub version: u64,
}

/// `posts`: a like counter.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PostRow {
    /// Primary key.
    pub id: u32,
    /// The counter.
    pub likes: i64,
}

/// `idempotency_keys`: the key record kept in PostgreSQL, so it can commit together with the
/// effect. `locked_until` is the lease of an in-progress claim.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KeyRow {
    /// The client's key.
    pub key: Text,
    /// Record and expiry (deleted by the cleanup job after the TTL).
    pub stored: StoredKey,
    /// An in-progress claim may be taken over after this time (recovery of a crashed handler).
    pub locked_until: SimTime,
    /// The request that claimed the key (`request_params`), so a recovery job can finish it.
    pub request: Option<HttpRequest>,
}

/// One SQL statement the API can run. Field values are the statement's parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Statement {
    /// `INSERT INTO charges … ON CONFLICT DO NOTHING` (conflicts on the primary key).
    InsertCharge {
        /// Payment id.
        payment_id: Text,
        /// Customer.
        user: UserId,
        /// Cents.
        amount_cents: u64,
        /// Key, if any.
        idempotency_key: Option<Text>,
        /// With fencing: insert only while `fences` holds exactly this token for this
        /// counter (a newer holder has moved it on).
        fence: Option<(Text, u64)>,
    },
    /// `INSERT INTO fences … ON CONFLICT (counter) DO UPDATE … WHERE fences.token <
    /// EXCLUDED.token`: records the writer's fencing token, one row when it is the newest
    /// seen, none when a newer one was.
    Fence {
        /// The claim's counter (`fence:` and the store key).
        counter: Text,
        /// The writer's token.
        token: u64,
    },
    /// `UPDATE accounts SET balance = balance - $amount, version = version + 1 WHERE id = $account
    /// [AND version = $expected]`: conditional when `expected_version` is set.
    Debit {
        /// Account id.
        account: u32,
        /// Dollars to take.
        amount: i64,
        /// Compare-and-set guard.
        expected_version: Option<u64>,
        /// With `reconcile`: the operation's id, inserted into `account_ops` in the same
        /// statement when the update applies (a CTE on the UPDATE … RETURNING).
        op_id: Option<Text>,
    },
    /// `SELECT balance, version FROM accounts WHERE id = $1`.
    SelectAccount {
        /// Account id.
        account: u32,
    },
    /// `SELECT … FROM charges WHERE user_id = $1 AND idempotency_key = $2 AND amount_cents =
    /// $3`: the payment made with this key for this amount, for a status check (a key reused
    /// for another amount does not find the first payment).
    SelectChargeByKey {
        /// The caller.
        user: UserId,
        /// The key.
        key: Text,
        /// The amount asked about.
        amount_cents: u64,
    },
    /// `SELECT 1 FROM account_ops WHERE op_id = $1`: whether this operation's debit is
    /// already applied (one row) or not (none).
    SelectAccountOp {
        /// The operation's id.
        op_id: Text,
    },
    /// `INSERT INTO like_ops (op_id) VALUES ($1) ON CONFLICT DO NOTHING`.
    InsertLikeOp {
        /// The client's op_id.
        op_id: Text,
    },
    /// `UPDATE posts SET likes = likes + 1 WHERE id = $1 RETURNING likes`; with
    /// `only_if_inserted`, runs only when the previous statement inserted a row (the two are
    /// one statement in real SQL: a CTE on the INSERT … RETURNING).
    IncrementLikes {
        /// Post id.
        post: u32,
        /// Skip when the previous statement affected 0 rows.
        only_if_inserted: bool,
    },
    /// `SELECT likes FROM posts WHERE id = $1`.
    SelectLikes {
        /// Post id.
        post: u32,
    },
    /// `INSERT INTO idempotency_keys … ON CONFLICT DO NOTHING`: the claim.
    ClaimKey {
        /// The client's key.
        key: Text,
        /// The record (in progress).
        record: KeyRecord,
        /// Lease end for the claim.
        locked_until: SimTime,
        /// Row expiry (TTL).
        expires_at: SimTime,
        /// The request, stored for recovery.
        request: Option<HttpRequest>,
    },
    /// `SELECT … FROM idempotency_keys WHERE status = 'in_progress' AND locked_until <= $now`:
    /// the recovery job's query for claims whose holder died.
    SelectStaleKeys {
        /// The current time.
        now: SimTime,
    },
    /// `SELECT … FROM idempotency_keys WHERE [user_id = $1 AND] key = $2`.
    SelectKey {
        /// The caller.
        user: UserId,
        /// The key.
        key: Text,
    },
    /// `UPDATE idempotency_keys SET locked_until = $new WHERE … AND status = 'in_progress' AND
    /// locked_until <= $now`: take over a claim whose holder died.
    ReclaimKey {
        /// The caller.
        user: UserId,
        /// The key.
        key: Text,
        /// The current time.
        now: SimTime,
        /// The new lease end.
        locked_until: SimTime,
    },
    /// `UPDATE idempotency_keys SET status = 'completed', response = $3 WHERE …`.
    CompleteKey {
        /// The caller.
        user: UserId,
        /// The key.
        key: Text,
        /// The response to replay from now on.
        response: StoredResponse,
    },
}

impl Statement {
    /// A short name of what the statement does, for narration (`UPDATE accounts … WHERE version`).
    pub fn summary(&self) -> &'static str {
        match self {
            Statement::InsertCharge { fence: Some(_), .. } => {
                "INSERT INTO charges (only with the current token)"
            }
            Statement::InsertCharge { .. } => "INSERT INTO charges",
            Statement::Fence { .. } => "INSERT INTO fences (only a newer token)",
            Statement::Debit {
                expected_version: Some(_),
                op_id: Some(_),
                ..
            } => "UPDATE accounts … WHERE version = $expected (recording op_id)",
            Statement::Debit {
                expected_version: Some(_),
                ..
            } => "UPDATE accounts … WHERE version = $expected",
            Statement::Debit { .. } => "UPDATE accounts SET balance = balance − $amount",
            Statement::SelectAccount { .. } => "SELECT balance, version FROM accounts",
            Statement::SelectAccountOp { .. } => "SELECT 1 FROM account_ops WHERE op_id = $op_id",
            Statement::SelectChargeByKey { .. } => {
                "SELECT … FROM charges WHERE idempotency_key = $key"
            }
            Statement::InsertLikeOp { .. } => "INSERT INTO like_ops … ON CONFLICT DO NOTHING",
            Statement::IncrementLikes {
                only_if_inserted: true,
                ..
            } => "UPDATE posts SET likes = likes + 1 (only if inserted)",
            Statement::IncrementLikes { .. } => "UPDATE posts SET likes = likes + 1",
            Statement::SelectLikes { .. } => "SELECT likes FROM posts",
            Statement::ClaimKey { .. } => "INSERT INTO idempotency_keys … ON CONFLICT DO NOTHING",
            Statement::SelectStaleKeys { .. } => "SELECT stale in-progress keys",
            Statement::SelectKey { .. } => "SELECT … FROM idempotency_keys",
            Statement::ReclaimKey { .. } => "UPDATE idempotency_keys SET locked_until (take over)",
            Statement::CompleteKey { .. } => "UPDATE idempotency_keys SET status = 'completed'",
        }
    }
}

/// Statements sent together; with `transaction`, wrapped in BEGIN/COMMIT.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SqlBatch {
    /// The statements, in order.
    pub statements: Vec<Statement>,
    /// Run inside one transaction.
    pub transaction: bool,
    /// Ground truth: the logical operation on whose behalf the batch runs.
    pub op: Option<OpId>,
}

/// What a statement returned.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Returned {
    /// Nothing beyond the row count.
    Nothing,
    /// An account's balance and version.
    Account {
        /// Balance.
        balance: i64,
        /// Version.
        version: u64,
    },
    /// A post's like counter.
    Likes(i64),
    /// A charges row.
    Charge(Box<ChargeRow>),
    /// An idempotency_keys row.
    Key(Box<KeyRow>),
    /// Several idempotency_keys rows.
    Keys(Vec<KeyRow>),
}

/// The outcome of one statement: PostgreSQL's command tag count and any returned row.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StatementResult {
    /// Rows inserted/updated/selected, as in `INSERT 0 1` or `UPDATE 0`.
    pub rows: u64,
    /// The returned row, if any.
    pub returned: Returned,
}

/// The effect of a debit or like, kept for the invariant checks (ground truth).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Effect {
    /// The logical operation.
    pub op: OpId,
    /// Dollars debited (0 for a like).
    pub amount: i64,
}

/// The ledger's tables and constraints.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ledger {
    /// `charges`.
    pub charges: Vec<ChargeRow>,
    /// `accounts`.
    pub accounts: Vec<AccountRow>,
    /// `posts`.
    pub posts: Vec<PostRow>,
    /// `like_ops(op_id)`.
    pub like_ops: Vec<Text>,
    /// `account_ops(op_id)`: the debits applied, by operation id (with `reconcile`).
    pub account_ops: Vec<Text>,
    /// Whether `like_ops.op_id` has a unique index. Without it ON CONFLICT never fires.
    pub like_ops_unique: bool,
    /// `idempotency_keys`.
    pub idempotency_keys: Vec<KeyRow>,
    /// Whether the unique index is on `(user_id, key)` (scoped) or on `key` alone.
    pub keys_scoped: bool,
    /// Ground truth: debits applied.
    pub debits: Vec<Effect>,
    /// Ground truth: likes applied.
    pub likes: Vec<Effect>,
    /// `fences`: the newest fencing token written per counter.
    pub fences: Vec<(Text, u64)>,
}

impl Ledger {
    /// A ledger with one account and one post.
    pub fn new(
        account: AccountRow,
        post: PostRow,
        like_ops_unique: bool,
        keys_scoped: bool,
    ) -> Self {
        Self {
            charges: Vec::new(),
            accounts: vec![account],
            posts: vec![post],
            like_ops: Vec::new(),
            account_ops: Vec::new(),
            like_ops_unique,
            idempotency_keys: Vec::new(),
            keys_scoped,
            debits: Vec::new(),
            likes: Vec::new(),
            fences: Vec::new(),
        }
    }

    /// Runs a batch at `now` and returns one result per statement.
    pub fn execute(&mut self, now: SimTime, batch: &SqlBatch) -> Vec<StatementResult> {
        self.expire(now);
        let mut results: Vec<StatementResult> = Vec::with_capacity(batch.statements.len());
        for statement in &batch.statements {
            let previous_rows = results.last().map(|r| r.rows);
            let result = self.run(now, statement, previous_rows, batch.op);
            results.push(result);
        }
        results
    }

    /// The cleanup job: deletes idempotency_keys rows past their TTL. Returns the deleted keys.
    pub fn expire(&mut self, now: SimTime) -> Vec<Text> {
        let mut gone = Vec::new();
        self.idempotency_keys.retain(|row| {
            let keep = row.stored.expires_at > now;
            if !keep {
                gone.push(row.key.clone());
            }
            keep
        });
        gone
    }

    /// The earliest expiry among key rows.
    pub fn next_expiry(&self) -> Option<SimTime> {
        self.idempotency_keys
            .iter()
            .map(|r| r.stored.expires_at)
            .min()
    }

    fn key_index(&self, user: UserId, key: &str) -> Option<usize> {
        self.idempotency_keys
            .iter()
            .position(|r| r.key == key && (!self.keys_scoped || r.stored.record.user == user))
    }

    fn run(
        &mut self,
        now: SimTime,
        statement: &Statement,
        previous_rows: Option<u64>,
        op: Option<OpId>,
    ) -> StatementResult {
        let op = op.unwrap_or(OpId(u32::MAX));
        let done = |rows: u64| StatementResult {
            rows,
            returned: Returned::Nothing,
        };
        match statement {
            Statement::InsertCharge {
                payment_id,
                user,
                amount_cents,
                idempotency_key,
                fence,
            } => {
                let stale = fence.as_ref().is_some_and(|(counter, token)| {
                    !self.fences.iter().any(|(c, t)| c == counter && t == token)
                });
                if stale || self.charges.iter().any(|c| &c.payment_id == payment_id) {
                    return done(0);
                }
                self.charges.push(ChargeRow {
                    payment_id: payment_id.clone(),
                    user: *user,
                    amount_cents: *amount_cents,
                    idempotency_key: idempotency_key.clone(),
                    op,
                });
                done(1)
            }
            Statement::Fence { counter, token } => {
                match self.fences.iter_mut().find(|(c, _)| c == counter) {
                    Some((_, newest)) if *newest >= *token => done(0),
                    Some((_, newest)) => {
                        *newest = *token;
                        done(1)
                    }
                    None => {
                        self.fences.push((counter.clone(), *token));
                        done(1)
                    }
                }
            }
            Statement::Debit {
                account,
                amount,
                expected_version,
                op_id,
            } => {
                let Some(row) = self.accounts.iter_mut().find(|a| a.id == *account) else {
                    return done(0);
                };
                if expected_version.is_some_and(|v| v != row.version) {
                    return done(0);
                }
                row.balance -= amount;
                row.version += 1;
                let returned = Returned::Account {
                    balance: row.balance,
                    version: row.version,
                };
                self.account_ops.extend(op_id.clone());
                self.debits.push(Effect {
                    op,
                    amount: *amount,
                });
                StatementResult { rows: 1, returned }
            }
            Statement::SelectChargeByKey {
                user,
                key,
                amount_cents,
            } => {
                match self.charges.iter().find(|c| {
                    c.user == *user
                        && c.idempotency_key.as_deref() == Some(key)
                        && c.amount_cents == *amount_cents
                }) {
                    Some(row) => StatementResult {
                        rows: 1,
                        returned: Returned::Charge(Box::new(row.clone())),
                    },
                    None => done(0),
                }
            }
            Statement::SelectAccountOp { op_id } => {
                done(u64::from(self.account_ops.contains(op_id)))
            }
            Statement::SelectAccount { account } => {
                match self.accounts.iter().find(|a| a.id == *account) {
                    Some(row) => StatementResult {
                        rows: 1,
                        returned: Returned::Account {
                            balance: row.balance,
                            version: row.version,
                        },
                    },
                    None => done(0),
                }
            }
            Statement::InsertLikeOp { op_id } => {
                if self.like_ops_unique && self.like_ops.contains(op_id) {
                    return done(0);
                }
                self.like_ops.push(op_id.clone());
                done(1)
            }
            Statement::IncrementLikes {
                post,
                only_if_inserted,
            } => {
                if *only_if_inserted && previous_rows == Some(0) {
                    return done(0);
                }
                let Some(row) = self.posts.iter_mut().find(|p| p.id == *post) else {
                    return done(0);
                };
                row.likes += 1;
                let likes = row.likes;
                self.likes.push(Effect { op, amount: 0 });
                StatementResult {
                    rows: 1,
                    returned: Returned::Likes(likes),
                }
            }
            Statement::SelectLikes { post } => match self.posts.iter().find(|p| p.id == *post) {
                Some(row) => StatementResult {
                    rows: 1,
                    returned: Returned::Likes(row.likes),
                },
                None => done(0),
            },
            Statement::ClaimKey {
                key,
                record,
                locked_until,
                expires_at,
                request,
            } => {
                if self.key_index(record.user, key).is_some() {
                    return done(0);
                }
                self.idempotency_keys.push(KeyRow {
                    key: key.clone(),
                    stored: StoredKey {
                        record: record.clone(),
                        expires_at: *expires_at,
                    },
                    locked_until: *locked_until,
                    request: request.clone(),
                });
                done(1)
            }
            Statement::SelectStaleKeys { now: at } => {
                // SQL promises no order; the rendered query says ORDER BY user_id, key. Each row
                // goes in at its place (a few rows; a sort would add its code to the wasm).
                let mut rows: Vec<KeyRow> = Vec::new();
                for row in self.idempotency_keys.iter().filter(|r| {
                    r.stored.record.status == KeyStatus::InProgress && r.locked_until <= *at
                }) {
                    let place = rows.partition_point(|other| {
                        (other.stored.record.user, &other.key) < (row.stored.record.user, &row.key)
                    });
                    rows.insert(place, row.clone());
                }
                StatementResult {
                    rows: rows.len() as u64,
                    returned: Returned::Keys(rows),
                }
            }
            Statement::SelectKey { user, key } => match self.key_index(*user, key) {
                Some(i) => StatementResult {
                    rows: 1,
                    returned: Returned::Key(Box::new(self.idempotency_keys[i].clone())),
                },
                None => done(0),
            },
            Statement::ReclaimKey {
                user,
                key,
                now: at,
                locked_until,
            } => {
                let Some(i) = self.key_index(*user, key) else {
                    return done(0);
                };
                let row = &mut self.idempotency_keys[i];
                if row.stored.record.status != KeyStatus::InProgress || row.locked_until > *at {
                    return done(0);
                }
                row.locked_until = *locked_until;
                done(1)
            }
            Statement::CompleteKey {
                user,
                key,
                response,
            } => {
                let Some(i) = self.key_index(*user, key) else {
                    return done(0);
                };
                let row = &mut self.idempotency_keys[i];
                row.stored.record.status = KeyStatus::Completed(response.clone());
                row.locked_until = now;
                done(1)
            }
        }
    }
}
