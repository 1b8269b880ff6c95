//! The rows a new ledger starts with, as `INSERT`s, and the statement that empties the tables
//! between two runs of the conformance suite.

use crate::ledger::Ledger;
use crate::time::SimTime;

use super::values::{key_row_values, quote, quote_opt};
use super::KEY_COLUMNS;

/// `INSERT` statements that recreate every row of `ledger` (for a new world: account 1 and
/// post 7, the seed rows).
pub fn seed(ledger: &Ledger) -> Vec<String> {
    let mut out = Vec::new();
    for c in &ledger.charges {
        out.push(format!(
            "INSERT INTO charges (payment_id, user_id, amount_cents, idempotency_key) VALUES ({}, {}, {}, {})",
            quote(&c.payment_id),
            c.user.0,
            c.amount_cents,
            quote_opt(c.idempotency_key.as_deref())
        ));
    }
    for a in &ledger.accounts {
        out.push(format!(
            "INSERT INTO accounts (id, balance, version) VALUES ({}, {}, {})",
            a.id, a.balance, a.version
        ));
    }
    for p in &ledger.posts {
        out.push(format!(
            "INSERT INTO posts (id, likes) VALUES ({}, {})",
            p.id, p.likes
        ));
    }
    for op_id in &ledger.like_ops {
        out.push(format!(
            "INSERT INTO like_ops (op_id) VALUES ({})",
            quote(op_id)
        ));
    }
    for op_id in &ledger.account_ops {
        out.push(format!(
            "INSERT INTO account_ops (op_id) VALUES ({})",
            quote(op_id)
        ));
    }
    for (counter, token) in &ledger.fences {
        out.push(format!(
            "INSERT INTO fences (counter, token) VALUES ({}, {token})",
            quote(counter)
        ));
    }
    for row in &ledger.idempotency_keys {
        out.push(format!(
            "INSERT INTO idempotency_keys ({}) VALUES ({})",
            KEY_COLUMNS.join(", "),
            key_row_values(row)
        ));
    }
    out
}

/// The cleanup job the model runs before every batch and step: key rows past their TTL go.
pub fn cleanup(now: SimTime) -> String {
    format!(
        "DELETE FROM idempotency_keys WHERE expires_at <= {}",
        now.ms()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::ledger::{AccountRow, PostRow};

    use crate::sql::tests::SCOPED;
    use crate::sql::*;

    #[test]
    fn seed_rows_of_a_new_ledger() {
        let ledger = Ledger::new(
            AccountRow {
                id: 1,
                balance: 100,
                version: 5,
            },
            PostRow { id: 7, likes: 100 },
            true,
            true,
        );
        assert_eq!(
            seed(&ledger),
            [
                "INSERT INTO accounts (id, balance, version) VALUES (1, 100, 5)",
                "INSERT INTO posts (id, likes) VALUES (7, 100)",
            ]
        );
        assert_eq!(Schema::of(&ledger), SCOPED);
    }
}
