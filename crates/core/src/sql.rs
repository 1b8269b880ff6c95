//! The ledger's schema and statements as the PostgreSQL text a real API would send, and the
//! store's commands as a real Redis client sends them: what the lesson shows is what a real
//! engine runs. `crates/conformance` replays these texts against real servers and checks that
//! they answer what the models answer.
//!
//! Parameters are rendered as literals (strings quoted by doubling `'`), so each text can be
//! pasted into `psql` as it is. Times stay on the model's clock: `locked_until` and `expires_at`
//! are `BIGINT` milliseconds of [`SimTime`].
//!
//! A [`SqlBatch`] renders to a list of [`SqlUnit`]s, each naming the model statements it covers
//! and where each one's row count and returned row can be read, so rows affected can be
//! compared statement by statement even where two model statements are one SQL statement.
//! Where the model returns a row the SQL asks for it: a debit ends in `RETURNING balance,
//! version`, an increment in `RETURNING likes`, and the recovery job's query is ordered by
//! `(user_id, key)`, since a table has no row order of its own.
//!
//! This file renders the schema and the statements; values as literals and JSON (`values`),
//! Redis's commands (`redis`) and a new ledger's rows (`seed`) are files of their own.

use crate::ledger::{Ledger, SqlBatch, Statement};
use crate::time::SimTime;
use crate::topology::UserId;

mod redis;
mod seed;
mod values;

pub use redis::{redis_argv, redis_value};
pub use seed::{cleanup, seed};
pub(crate) use values::stored_body_json;
pub use values::{key_row_values, quote, request_json, response_json, status_name};
use values::{key_values, quote_opt};

/// The columns of an `idempotency_keys` row, in the order every query returns them.
pub const KEY_COLUMNS: [&str; 8] = [
    "user_id",
    "key",
    "fingerprint",
    "status",
    "response",
    "locked_until",
    "expires_at",
    "request_params",
];

/// The ledger's two schema switches: which unique indexes exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Schema {
    /// `like_ops.op_id` has a unique index; without it `ON CONFLICT DO NOTHING` never fires.
    pub like_ops_unique: bool,
    /// The key's unique index is on `(user_id, key)`; otherwise on `key` alone.
    pub keys_scoped: bool,
}

/// Where the row count of a covered model statement is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowCount {
    /// PostgreSQL's command tag: `INSERT 0 1`, `UPDATE 0`, `SELECT 1`.
    Tag,
    /// This bigint column of the unit's single result row.
    Column(&'static str),
}

/// What a covered model statement gives back beyond its row count, and under which columns.
/// A missing row or a `NULL` column means `Returned::Nothing`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Returns {
    /// Only the count.
    Nothing,
    /// Columns `balance`, `version` of the first row.
    Account,
    /// Column `likes` of the first row.
    Likes,
    /// The [`KEY_COLUMNS`] of the first row.
    Key,
    /// The [`KEY_COLUMNS`] of every row, in order.
    Keys,
    /// Columns `payment_id, user_id, amount_cents, idempotency_key` of the first row.
    Charge,
}

/// One model statement inside a [`SqlUnit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Covered {
    /// Its index in [`SqlBatch::statements`].
    pub index: usize,
    /// Where its row count is read.
    pub rows: RowCount,
    /// What it returns.
    pub returns: Returns,
}

/// One SQL statement sent to the server, covering one or more model statements.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SqlUnit {
    /// The statement, without a trailing semicolon.
    pub sql: String,
    /// The model statements it runs, in order.
    pub covers: Vec<Covered>,
}

/// A batch as SQL: its units, run inside `BEGIN … COMMIT` when `transaction` is set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RenderedBatch {
    /// Whether the units run in one transaction.
    pub transaction: bool,
    /// The units, in order; together they cover every model statement exactly once.
    pub units: Vec<SqlUnit>,
}

impl RenderedBatch {
    /// Every statement to send, with `BEGIN` and `COMMIT` around a transaction.
    pub fn statements(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(self.units.len() + 2);
        if self.transaction {
            out.push("BEGIN".to_owned());
        }
        out.extend(self.units.iter().map(|u| u.sql.clone()));
        if self.transaction {
            out.push("COMMIT".to_owned());
        }
        out
    }

    /// The batch as a `psql` script: one statement per line, each ending with `;`.
    pub fn script(&self) -> String {
        self.statements()
            .iter()
            .map(|s| format!("{s};\n"))
            .collect()
    }
}

/// Why a batch has no faithful SQL rendering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RenderError {
    /// A conditional `IncrementLikes` follows something other than `InsertLikeOp`: PostgreSQL
    /// has no "rows of the previous statement", and only the insert can become its CTE
    /// (another write to `posts` in the same statement would touch a row twice).
    ConditionalIncrementWithoutInsert {
        /// The increment's index in the batch.
        index: usize,
    },
}

impl Schema {
    /// The schema of `ledger`.
    pub fn of(ledger: &Ledger) -> Schema {
        Schema {
            like_ops_unique: ledger.like_ops_unique,
            keys_scoped: ledger.keys_scoped,
        }
    }

    /// `CREATE TABLE` and `CREATE UNIQUE INDEX` statements, in order.
    pub fn ddl(&self) -> Vec<String> {
        let mut out = vec![
            "CREATE TABLE charges (payment_id TEXT PRIMARY KEY, user_id BIGINT NOT NULL, \
             amount_cents BIGINT NOT NULL, idempotency_key TEXT)"
                .to_owned(),
            "CREATE TABLE accounts (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL, version BIGINT NOT NULL)"
                .to_owned(),
            "CREATE TABLE posts (id BIGINT PRIMARY KEY, likes BIGINT NOT NULL)".to_owned(),
            "CREATE TABLE like_ops (op_id TEXT NOT NULL)".to_owned(),
            "CREATE TABLE fences (counter TEXT PRIMARY KEY, token BIGINT NOT NULL)".to_owned(),
            "CREATE TABLE account_ops (op_id TEXT PRIMARY KEY)".to_owned(),
        ];
        if self.like_ops_unique {
            out.push("CREATE UNIQUE INDEX like_ops_op_id ON like_ops (op_id)".to_owned());
        }
        out.push(
            "CREATE TABLE idempotency_keys (user_id BIGINT NOT NULL, key TEXT NOT NULL, \
             fingerprint TEXT NOT NULL, \
             status TEXT NOT NULL CHECK (status IN ('in_progress', 'completed')), \
             response JSONB, locked_until BIGINT NOT NULL, expires_at BIGINT NOT NULL, \
             request_params JSONB)"
                .to_owned(),
        );
        out.push(if self.keys_scoped {
            "CREATE UNIQUE INDEX idempotency_keys_scope ON idempotency_keys (user_id, key)"
                .to_owned()
        } else {
            "CREATE UNIQUE INDEX idempotency_keys_scope ON idempotency_keys (key)".to_owned()
        });
        out
    }

    /// The batch as SQL, for a ledger that runs it at `now` (`CompleteKey` stamps
    /// `locked_until` with the time it runs).
    ///
    /// An `IncrementLikes { only_if_inserted: true }` right after an `InsertLikeOp` becomes one
    /// statement with it, so the increment sees the insert's result inside the server:
    /// `WITH ins AS (INSERT … ON CONFLICT DO NOTHING RETURNING 1), upd AS (UPDATE posts … AND
    /// EXISTS (SELECT 1 FROM ins) RETURNING likes) SELECT …`, whose one row carries both row
    /// counts. As the first statement of a batch it runs unconditionally, as in the model.
    pub fn render_batch(
        &self,
        batch: &SqlBatch,
        now: SimTime,
    ) -> Result<RenderedBatch, RenderError> {
        let mut units = Vec::with_capacity(batch.statements.len());
        let statements = &batch.statements;
        let mut index = 0;
        while index < statements.len() {
            let statement = &statements[index];
            match (statement, statements.get(index + 1)) {
                (
                    Statement::InsertLikeOp { op_id },
                    Some(Statement::IncrementLikes {
                        post,
                        only_if_inserted: true,
                    }),
                ) => {
                    units.push(insert_then_increment(op_id, *post, index));
                    index += 2;
                    continue;
                }
                (
                    Statement::IncrementLikes {
                        only_if_inserted: true,
                        ..
                    },
                    _,
                ) if index > 0 => {
                    return Err(RenderError::ConditionalIncrementWithoutInsert { index });
                }
                _ => {}
            }
            let (sql, returns) = self.render_one(statement, now);
            units.push(SqlUnit {
                sql,
                covers: vec![Covered {
                    index,
                    rows: RowCount::Tag,
                    returns,
                }],
            });
            index += 1;
        }
        Ok(RenderedBatch {
            transaction: batch.transaction,
            units,
        })
    }

    /// The `WHERE` condition that finds a key row, scoped by user when the index is.
    fn key_match(&self, user: UserId, key: &str) -> String {
        if self.keys_scoped {
            format!("user_id = {} AND key = {}", user.0, quote(key))
        } else {
            format!("key = {}", quote(key))
        }
    }

    fn render_one(&self, statement: &Statement, now: SimTime) -> (String, Returns) {
        let keys = KEY_COLUMNS.join(", ");
        match statement {
            // A charge without a key (story 1's design) is written as that design would: no
            // key column, no ON CONFLICT (nothing could conflict with a new payment_id), so
            // the SQL speaks of no key the design does not have. Same rows, same effect.
            Statement::InsertCharge {
                payment_id,
                user,
                amount_cents,
                idempotency_key: None,
                fence: None,
            } => (
                format!(
                    "INSERT INTO charges (payment_id, user_id, amount_cents) \
                     VALUES ({}, {}, {amount_cents})",
                    quote(payment_id),
                    user.0,
                ),
                Returns::Nothing,
            ),
            Statement::InsertCharge {
                payment_id,
                user,
                amount_cents,
                idempotency_key,
                fence: None,
            } => (
                format!(
                    "INSERT INTO charges (payment_id, user_id, amount_cents, idempotency_key) \
                     VALUES ({}, {}, {amount_cents}, {}) ON CONFLICT DO NOTHING",
                    quote(payment_id),
                    user.0,
                    quote_opt(idempotency_key.as_deref()),
                ),
                Returns::Nothing,
            ),
            Statement::InsertCharge {
                payment_id,
                user,
                amount_cents,
                idempotency_key,
                fence: Some((counter, token)),
            } => (
                format!(
                    "INSERT INTO charges (payment_id, user_id, amount_cents, idempotency_key) \
                     SELECT {}, {}, {amount_cents}, {} WHERE EXISTS (SELECT 1 FROM fences \
                     WHERE counter = {} AND token = {token}) ON CONFLICT DO NOTHING",
                    quote(payment_id),
                    user.0,
                    quote_opt(idempotency_key.as_deref()),
                    quote(counter),
                ),
                Returns::Nothing,
            ),
            Statement::Fence { counter, token } => (
                format!(
                    "INSERT INTO fences (counter, token) VALUES ({}, {token}) ON CONFLICT (counter) \
                     DO UPDATE SET token = EXCLUDED.token WHERE fences.token < EXCLUDED.token",
                    quote(counter),
                ),
                Returns::Nothing,
            ),
            Statement::Debit {
                account,
                amount,
                expected_version,
                op_id,
            } => {
                let guard = expected_version.map(|v| format!(" AND version = {v}")).unwrap_or_default();
                let update = format!(
                    "UPDATE accounts SET balance = balance - {amount}, version = version + 1 \
                     WHERE id = {account}{guard} RETURNING balance, version"
                );
                let sql = match op_id {
                    // The operation's id is recorded by the same statement, only when the
                    // update applied: SELECT's count is the UPDATE's.
                    Some(op_id) => format!(
                        "WITH upd AS ({update}), ops AS (INSERT INTO account_ops (op_id) \
                         SELECT {} FROM upd) SELECT balance, version FROM upd",
                        quote(op_id)
                    ),
                    None => update,
                };
                (sql, Returns::Account)
            }
            Statement::SelectAccount { account } => (
                format!("SELECT balance, version FROM accounts WHERE id = {account}"),
                Returns::Account,
            ),
            Statement::SelectChargeByKey {
                user,
                key,
                amount_cents,
            } => (
                format!(
                    "SELECT payment_id, user_id, amount_cents, idempotency_key FROM charges \
                     WHERE user_id = {} AND idempotency_key = {} AND amount_cents = {amount_cents}",
                    user.0,
                    quote(key)
                ),
                Returns::Charge,
            ),
            Statement::SelectAccountOp { op_id } => (
                format!("SELECT 1 FROM account_ops WHERE op_id = {}", quote(op_id)),
                Returns::Nothing,
            ),
            Statement::InsertLikeOp { op_id } => (insert_like_op(op_id), Returns::Nothing),
            Statement::IncrementLikes { post, .. } => (
                format!("UPDATE posts SET likes = likes + 1 WHERE id = {post} RETURNING likes"),
                Returns::Likes,
            ),
            Statement::SelectLikes { post } => (format!("SELECT likes FROM posts WHERE id = {post}"), Returns::Likes),
            Statement::ClaimKey {
                key,
                record,
                locked_until,
                expires_at,
                request,
            } => (
                format!(
                    "INSERT INTO idempotency_keys ({keys}) VALUES ({}) ON CONFLICT DO NOTHING",
                    key_values(key, record, *locked_until, *expires_at, request.as_ref()),
                ),
                Returns::Nothing,
            ),
            Statement::SelectStaleKeys { now: at } => (
                format!(
                    "SELECT {keys} FROM idempotency_keys WHERE status = 'in_progress' AND locked_until <= {} \
                     ORDER BY user_id, key",
                    at.ms()
                ),
                Returns::Keys,
            ),
            Statement::SelectKey { user, key } => (
                format!("SELECT {keys} FROM idempotency_keys WHERE {}", self.key_match(*user, key)),
                Returns::Key,
            ),
            Statement::ReclaimKey {
                user,
                key,
                now: at,
                locked_until,
            } => (
                format!(
                    "UPDATE idempotency_keys SET locked_until = {} WHERE {} AND status = 'in_progress' \
                     AND locked_until <= {}",
                    locked_until.ms(),
                    self.key_match(*user, key),
                    at.ms()
                ),
                Returns::Nothing,
            ),
            Statement::CompleteKey { user, key, response } => (
                format!(
                    "UPDATE idempotency_keys SET status = 'completed', response = {}, locked_until = {} \
                     WHERE {}",
                    quote(&response_json(response)),
                    now.ms(),
                    self.key_match(*user, key)
                ),
                Returns::Nothing,
            ),
        }
    }
}

fn insert_like_op(op_id: &str) -> String {
    format!(
        "INSERT INTO like_ops (op_id) VALUES ({}) ON CONFLICT DO NOTHING",
        quote(op_id)
    )
}

/// `InsertLikeOp` at `index` and the conditional `IncrementLikes` after it, as one statement.
fn insert_then_increment(op_id: &str, post: u32, index: usize) -> SqlUnit {
    SqlUnit {
        sql: format!(
            "WITH ins AS ({} RETURNING 1), \
             upd AS (UPDATE posts SET likes = likes + 1 WHERE id = {post} AND EXISTS (SELECT 1 FROM ins) \
             RETURNING likes) \
             SELECT (SELECT count(*) FROM ins) AS inserted, (SELECT count(*) FROM upd) AS incremented, \
             (SELECT likes FROM upd) AS likes",
            insert_like_op(op_id)
        ),
        covers: vec![
            Covered {
                index,
                rows: RowCount::Column("inserted"),
                returns: Returns::Nothing,
            },
            Covered {
                index: index + 1,
                rows: RowCount::Column("incremented"),
                returns: Returns::Likes,
            },
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::ResponseBody;

    use crate::record::{KeyRecord, KeyStatus, StoredResponse};

    pub(super) const SCOPED: Schema = Schema {
        like_ops_unique: true,
        keys_scoped: true,
    };

    const LOOSE: Schema = Schema {
        like_ops_unique: false,
        keys_scoped: false,
    };

    fn batch(statements: Vec<Statement>, transaction: bool) -> SqlBatch {
        SqlBatch {
            statements,
            transaction,
            op: None,
        }
    }

    fn one(schema: Schema, statement: Statement) -> String {
        let rendered = schema
            .render_batch(&batch(vec![statement], false), SimTime(1_000))
            .expect("renders");
        assert_eq!(rendered.units.len(), 1);
        rendered.units[0].sql.clone()
    }

    pub(super) fn charged() -> StoredResponse {
        StoredResponse {
            status: 201,
            body: ResponseBody::Charged {
                payment_id: "pay_abc".into(),
                amount_cents: 10_000,
                customer: UserId(1),
            },
        }
    }

    pub(super) fn record(status: KeyStatus) -> KeyRecord {
        KeyRecord {
            user: UserId(1),
            fingerprint: "2e11".into(),
            status,
        }
    }

    #[test]
    fn ddl_follows_the_switches() {
        let ddl = SCOPED.ddl();
        assert_eq!(ddl.len(), 9);
        assert_eq!(
            ddl[0],
            "CREATE TABLE charges (payment_id TEXT PRIMARY KEY, user_id BIGINT NOT NULL, amount_cents BIGINT NOT NULL, idempotency_key TEXT)"
        );
        assert_eq!(
            ddl[1],
            "CREATE TABLE accounts (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL, version BIGINT NOT NULL)"
        );
        assert_eq!(
            ddl[2],
            "CREATE TABLE posts (id BIGINT PRIMARY KEY, likes BIGINT NOT NULL)"
        );
        assert_eq!(ddl[3], "CREATE TABLE like_ops (op_id TEXT NOT NULL)");
        assert_eq!(
            ddl[4],
            "CREATE TABLE fences (counter TEXT PRIMARY KEY, token BIGINT NOT NULL)"
        );
        assert_eq!(ddl[5], "CREATE TABLE account_ops (op_id TEXT PRIMARY KEY)");
        assert_eq!(
            ddl[6],
            "CREATE UNIQUE INDEX like_ops_op_id ON like_ops (op_id)"
        );
        assert_eq!(
            ddl[7],
            "CREATE TABLE idempotency_keys (user_id BIGINT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, \
             status TEXT NOT NULL CHECK (status IN ('in_progress', 'completed')), response JSONB, \
             locked_until BIGINT NOT NULL, expires_at BIGINT NOT NULL, request_params JSONB)"
        );
        assert_eq!(
            ddl[8],
            "CREATE UNIQUE INDEX idempotency_keys_scope ON idempotency_keys (user_id, key)"
        );
        let loose = LOOSE.ddl();
        assert_eq!(loose.len(), 8, "no index on like_ops");
        assert!(!loose.iter().any(|s| s.contains("like_ops_op_id")));
        assert_eq!(
            loose[7],
            "CREATE UNIQUE INDEX idempotency_keys_scope ON idempotency_keys (key)"
        );
    }

    #[test]
    fn strings_are_quoted_by_doubling() {
        assert_eq!(quote("it's"), "'it''s'");
        assert_eq!(
            quote("''; DROP TABLE charges; --"),
            "'''''; DROP TABLE charges; --'"
        );
        assert_eq!(quote(r"back\slash"), r"'back\slash'");
        let sql = one(
            SCOPED,
            Statement::InsertLikeOp {
                op_id: "o'k".into(),
            },
        );
        assert_eq!(
            sql,
            "INSERT INTO like_ops (op_id) VALUES ('o''k') ON CONFLICT DO NOTHING"
        );
    }

    #[test]
    fn charge_and_account_statements() {
        assert_eq!(
            one(
                SCOPED,
                Statement::InsertCharge {
                    payment_id: "pay_abc".into(),
                    user: UserId(1),
                    amount_cents: 10_000,
                    idempotency_key: Some("k1".into()),
                    fence: None,
                }
            ),
            "INSERT INTO charges (payment_id, user_id, amount_cents, idempotency_key) \
             VALUES ('pay_abc', 1, 10000, 'k1') ON CONFLICT DO NOTHING"
        );
        assert_eq!(
            one(
                SCOPED,
                Statement::InsertCharge {
                    payment_id: "pay_abd".into(),
                    user: UserId(2),
                    amount_cents: 5,
                    idempotency_key: None,
                    fence: None,
                }
            ),
            "INSERT INTO charges (payment_id, user_id, amount_cents) VALUES ('pay_abd', 2, 5)"
        );
        assert_eq!(
            one(
                SCOPED,
                Statement::Debit {
                    account: 1,
                    amount: 20,
                    expected_version: Some(5),
                    op_id: None,
                }
            ),
            "UPDATE accounts SET balance = balance - 20, version = version + 1 WHERE id = 1 AND version = 5 \
             RETURNING balance, version"
        );
        assert_eq!(
            one(
                SCOPED,
                Statement::Debit {
                    account: 1,
                    amount: 20,
                    expected_version: None,
                    op_id: None,
                }
            ),
            "UPDATE accounts SET balance = balance - 20, version = version + 1 WHERE id = 1 RETURNING balance, version"
        );
        assert_eq!(
            one(SCOPED, Statement::SelectAccount { account: 1 }),
            "SELECT balance, version FROM accounts WHERE id = 1"
        );
    }

    #[test]
    fn like_statements() {
        assert_eq!(
            one(
                LOOSE,
                Statement::IncrementLikes {
                    post: 7,
                    only_if_inserted: false,
                }
            ),
            "UPDATE posts SET likes = likes + 1 WHERE id = 7 RETURNING likes"
        );
        assert_eq!(
            one(LOOSE, Statement::SelectLikes { post: 7 }),
            "SELECT likes FROM posts WHERE id = 7"
        );
        // No conflict target: without a unique index, nothing ever conflicts.
        assert_eq!(
            one(
                LOOSE,
                Statement::InsertLikeOp {
                    op_id: "op-1".into()
                }
            ),
            "INSERT INTO like_ops (op_id) VALUES ('op-1') ON CONFLICT DO NOTHING"
        );
    }

    #[test]
    fn conditional_increment_becomes_one_cte_with_both_counts() {
        let b = batch(
            vec![
                Statement::InsertLikeOp {
                    op_id: "op-1".into(),
                },
                Statement::IncrementLikes {
                    post: 7,
                    only_if_inserted: true,
                },
                Statement::SelectLikes { post: 7 },
            ],
            true,
        );
        let rendered = SCOPED.render_batch(&b, SimTime(0)).expect("renders");
        assert_eq!(rendered.units.len(), 2);
        assert_eq!(
            rendered.units[0].sql,
            "WITH ins AS (INSERT INTO like_ops (op_id) VALUES ('op-1') ON CONFLICT DO NOTHING RETURNING 1), \
             upd AS (UPDATE posts SET likes = likes + 1 WHERE id = 7 AND EXISTS (SELECT 1 FROM ins) RETURNING likes) \
             SELECT (SELECT count(*) FROM ins) AS inserted, (SELECT count(*) FROM upd) AS incremented, \
             (SELECT likes FROM upd) AS likes"
        );
        assert_eq!(
            rendered.units[0].covers,
            [
                Covered {
                    index: 0,
                    rows: RowCount::Column("inserted"),
                    returns: Returns::Nothing,
                },
                Covered {
                    index: 1,
                    rows: RowCount::Column("incremented"),
                    returns: Returns::Likes,
                },
            ]
        );
        assert_eq!(
            rendered.units[1].covers,
            [Covered {
                index: 2,
                rows: RowCount::Tag,
                returns: Returns::Likes,
            }]
        );
        let script = rendered.script();
        assert!(script.starts_with("BEGIN;\nWITH ins AS ("), "{script}");
        assert!(
            script.ends_with(";\nSELECT likes FROM posts WHERE id = 7;\nCOMMIT;\n"),
            "{script}"
        );
        assert_eq!(rendered.statements().len(), 4);
    }

    #[test]
    fn conditional_increment_first_runs_unconditionally_and_elsewhere_is_refused() {
        let inc = Statement::IncrementLikes {
            post: 7,
            only_if_inserted: true,
        };
        assert_eq!(
            one(SCOPED, inc.clone()),
            "UPDATE posts SET likes = likes + 1 WHERE id = 7 RETURNING likes"
        );
        let b = batch(vec![Statement::SelectLikes { post: 7 }, inc], false);
        assert_eq!(
            SCOPED.render_batch(&b, SimTime(0)),
            Err(RenderError::ConditionalIncrementWithoutInsert { index: 1 })
        );
    }

    #[test]
    fn every_statement_is_covered_once_in_order() {
        let b = batch(
            vec![
                Statement::Debit {
                    account: 1,
                    amount: 20,
                    expected_version: Some(5),
                    op_id: None,
                },
                Statement::SelectAccount { account: 1 },
                Statement::InsertLikeOp { op_id: "a".into() },
                Statement::IncrementLikes {
                    post: 7,
                    only_if_inserted: true,
                },
                Statement::InsertLikeOp { op_id: "b".into() },
            ],
            false,
        );
        let rendered = LOOSE.render_batch(&b, SimTime(0)).expect("renders");
        let covered: Vec<usize> = rendered
            .units
            .iter()
            .flat_map(|u| u.covers.iter().map(|c| c.index))
            .collect();
        assert_eq!(covered, [0, 1, 2, 3, 4]);
        assert_eq!(
            rendered.statements().len(),
            4,
            "no BEGIN/COMMIT outside a transaction"
        );
    }

    #[test]
    fn key_statements_follow_the_scope() {
        let claim = Statement::ClaimKey {
            key: "k1".into(),
            record: record(KeyStatus::InProgress),
            locked_until: SimTime(5_300),
            expires_at: SimTime(86_400_300),
            request: None,
        };
        assert_eq!(
            one(SCOPED, claim),
            "INSERT INTO idempotency_keys (user_id, key, fingerprint, status, response, locked_until, expires_at, \
             request_params) VALUES (1, 'k1', '2e11', 'in_progress', NULL, 5300, 86400300, NULL) ON CONFLICT DO NOTHING"
        );
        let select = Statement::SelectKey {
            user: UserId(2),
            key: "k1".into(),
        };
        let columns =
            "user_id, key, fingerprint, status, response, locked_until, expires_at, request_params";
        assert_eq!(
            one(SCOPED, select.clone()),
            format!("SELECT {columns} FROM idempotency_keys WHERE user_id = 2 AND key = 'k1'")
        );
        assert_eq!(
            one(LOOSE, select),
            format!("SELECT {columns} FROM idempotency_keys WHERE key = 'k1'")
        );
        assert_eq!(
            one(
                SCOPED,
                Statement::ReclaimKey {
                    user: UserId(1),
                    key: "k1".into(),
                    now: SimTime(9_000),
                    locked_until: SimTime(14_000),
                }
            ),
            "UPDATE idempotency_keys SET locked_until = 14000 WHERE user_id = 1 AND key = 'k1' \
             AND status = 'in_progress' AND locked_until <= 9000"
        );
        assert_eq!(
            one(SCOPED, Statement::SelectStaleKeys { now: SimTime(7) }),
            format!(
                "SELECT {columns} FROM idempotency_keys WHERE status = 'in_progress' AND locked_until <= 7 \
                 ORDER BY user_id, key"
            )
        );
        // CompleteKey stamps locked_until with the time the ledger runs it (here 1000).
        assert_eq!(
            one(
                LOOSE,
                Statement::CompleteKey {
                    user: UserId(1),
                    key: "k1".into(),
                    response: charged(),
                }
            ),
            "UPDATE idempotency_keys SET status = 'completed', \
             response = '{\"body\":{\"amount\":10000,\"customer\":\"user_1\",\"id\":\"pay_abc\"},\"status\":201}', \
             locked_until = 1000 WHERE key = 'k1'"
        );
    }
}
