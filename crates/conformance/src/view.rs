//! The model's answers and tables as plain rows, in the shape a real server gives them back,
//! so the two compare with `==`. JSON columns hold the text that `idem_core::sql` renders; a
//! caller comparing with `jsonb` output normalises both sides first ([`Tables::map_json`]).

use idem_core::ledger::{ChargeRow, KeyRow, Ledger, Returned, StatementResult};
use idem_core::sql;

/// One `idempotency_keys` row.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct KeyView {
    /// `user_id`.
    pub user_id: i64,
    /// `key`.
    pub key: String,
    /// `fingerprint`.
    pub fingerprint: String,
    /// `status`.
    pub status: String,
    /// `response` (JSON).
    pub response: Option<String>,
    /// `locked_until` (ms).
    pub locked_until: i64,
    /// `expires_at` (ms).
    pub expires_at: i64,
    /// `request_params` (JSON).
    pub request_params: Option<String>,
}

impl KeyView {
    /// The row as the model keeps it.
    pub fn of(row: &KeyRow) -> KeyView {
        let record = &row.stored.record;
        KeyView {
            user_id: i64::from(record.user.0),
            key: row.key.to_string(),
            fingerprint: record.fingerprint.to_string(),
            status: sql::status_name(&record.status).to_owned(),
            response: match &record.status {
                idem_core::record::KeyStatus::InProgress => None,
                idem_core::record::KeyStatus::Completed(r) => Some(sql::response_json(r)),
            },
            locked_until: ms(row.locked_until.ms()),
            expires_at: ms(row.stored.expires_at.ms()),
            request_params: row.request.as_ref().map(sql::request_json),
        }
    }

    /// The row with `f` applied to its JSON columns.
    pub fn map_json(mut self, f: &mut impl FnMut(&str) -> String) -> KeyView {
        self.response = self.response.as_deref().map(&mut *f);
        self.request_params = self.request_params.as_deref().map(&mut *f);
        self
    }
}

/// What a statement returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReturnedView {
    /// Nothing.
    Nothing,
    /// `balance, version`.
    Account(i64, i64),
    /// `likes`.
    Likes(i64),
    /// One key row.
    Key(KeyView),
    /// Key rows, in order.
    Keys(Vec<KeyView>),
    /// One `charges` row.
    Charge(ChargeView),
}

/// A statement's row count and returned row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultView {
    /// Rows affected or selected.
    pub rows: u64,
    /// What came back.
    pub returned: ReturnedView,
}

impl ResultView {
    /// The model's result.
    pub fn of(result: &StatementResult) -> ResultView {
        ResultView {
            rows: result.rows,
            returned: match &result.returned {
                Returned::Nothing => ReturnedView::Nothing,
                Returned::Account { balance, version } => {
                    ReturnedView::Account(*balance, ms(*version))
                }
                Returned::Likes(n) => ReturnedView::Likes(*n),
                Returned::Key(row) => ReturnedView::Key(KeyView::of(row)),
                Returned::Keys(rows) => ReturnedView::Keys(rows.iter().map(KeyView::of).collect()),
                Returned::Charge(c) => ReturnedView::Charge(charge_view(c)),
            },
        }
    }

    /// The result with `f` applied to the JSON columns of returned key rows.
    pub fn map_json(self, f: &mut impl FnMut(&str) -> String) -> ResultView {
        let returned = match self.returned {
            ReturnedView::Key(k) => ReturnedView::Key(k.map_json(f)),
            ReturnedView::Keys(ks) => {
                ReturnedView::Keys(ks.into_iter().map(|k| k.map_json(f)).collect())
            }
            other => other,
        };
        ResultView { returned, ..self }
    }
}

/// A `charges` row: payment id, user, cents, key.
pub type ChargeView = (String, i64, i64, Option<String>);

/// The model's `charges` row as the real table holds it.
pub fn charge_view(c: &ChargeRow) -> ChargeView {
    (
        c.payment_id.to_string(),
        i64::from(c.user.0),
        ms(c.amount_cents),
        c.idempotency_key.as_deref().map(str::to_owned),
    )
}

/// Every table's rows, each sorted by its natural key (SQL has no row order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tables {
    /// `charges` by payment id.
    pub charges: Vec<ChargeView>,
    /// `accounts (id, balance, version)` by id.
    pub accounts: Vec<(i64, i64, i64)>,
    /// `posts (id, likes)` by id.
    pub posts: Vec<(i64, i64)>,
    /// `like_ops.op_id`, sorted, duplicates kept.
    pub like_ops: Vec<String>,
    /// `account_ops.op_id`, sorted.
    pub account_ops: Vec<String>,
    /// `idempotency_keys` by (user_id, key).
    pub keys: Vec<KeyView>,
    /// `fences (counter, token)` by counter.
    pub fences: Vec<(String, i64)>,
}

impl Tables {
    /// The model's tables.
    pub fn of(ledger: &Ledger) -> Tables {
        let mut t = Tables {
            charges: ledger.charges.iter().map(charge_view).collect(),
            accounts: ledger
                .accounts
                .iter()
                .map(|a| (i64::from(a.id), a.balance, ms(a.version)))
                .collect(),
            posts: ledger
                .posts
                .iter()
                .map(|p| (i64::from(p.id), p.likes))
                .collect(),
            like_ops: ledger.like_ops.iter().map(|o| o.to_string()).collect(),
            account_ops: ledger.account_ops.iter().map(|o| o.to_string()).collect(),
            keys: ledger.idempotency_keys.iter().map(KeyView::of).collect(),
            fences: ledger
                .fences
                .iter()
                .map(|(c, t)| (c.to_string(), ms(*t)))
                .collect(),
        };
        t.sort();
        t
    }

    /// Puts every table in its canonical order.
    pub fn sort(&mut self) {
        self.charges.sort();
        self.accounts.sort();
        self.posts.sort();
        self.like_ops.sort();
        self.account_ops.sort();
        self.keys.sort();
        self.fences.sort();
    }

    /// The tables with `f` applied to the key rows' JSON columns.
    pub fn map_json(mut self, f: &mut impl FnMut(&str) -> String) -> Tables {
        self.keys = self.keys.into_iter().map(|k| k.map_json(f)).collect();
        self
    }
}

/// A model number in a `BIGINT` column (the lesson's numbers are far below `i64::MAX`).
fn ms(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}
