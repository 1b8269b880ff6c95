//! Facts the state panels print under the stores: the card processor's totals per customer
//! and the ledger's constraints that decide where deduplication happens.

use idem_core::{Figures, Outcome, Story, World};

use crate::i18n::Catalog;
use crate::labels::usd_in;
use crate::markup::{el, wrap, SafeHtml};

/// The card processor's totals per customer, one line each ("Total, user 1 … **$100.00**"),
/// so a statement with several customers adds up on screen.
pub fn processor_totals_html(world: &World, catalog: &Catalog) -> SafeHtml {
    let Figures::Charges { per_user, .. } = Outcome::of(world).figures else {
        return SafeHtml::default();
    };
    let first = world.client().ops().first().map_or(1, |o| o.user.0);
    let mut users: Vec<(u32, u64)> = per_user.iter().map(|(u, _, c)| (u.0, *c)).collect();
    if !users.iter().any(|(u, _)| *u == first) {
        users.insert(0, (first, 0));
    }
    users
        .iter()
        .map(|(u, cents)| {
            wrap(
                "p",
                "class=\"total\"",
                &(SafeHtml::text(&catalog.fill("panel.total_user", &[("user", u.to_string())]))
                    + el("strong", "", &usd_in(*cents, catalog))),
            )
        })
        .collect()
}

/// The constraints that decide where deduplication happens, for the ledger panel: the unique
/// index of `like_ops`, of `idempotency_keys` (when keys live in PostgreSQL), and the absence
/// of one on `charges (user_id, idempotency_key)`, so a second row with the same key is
/// visibly allowed; where keys live in Redis, that the claim happens there.
pub fn ledger_constraints(world: &World, catalog: &Catalog) -> Vec<String> {
    let l = world.ledger();
    let p = world.scenario().protections;
    match world.scenario().story {
        // Likes without an op_id run only the increment: no ON CONFLICT to speak of.
        Story::Counter if !p.op_dedup => vec![catalog.text("panel.no_op_id")],
        Story::Counter => vec![catalog.text(if l.like_ops_unique {
            "panel.unique_on"
        } else {
            "panel.unique_off"
        })],
        Story::CompareAndSet => vec![catalog.text(if p.cas {
            "panel.cas_guard"
        } else {
            "panel.no_guard"
        })],
        Story::NaivePost | Story::IdempotencyKey => {
            // A design without keys hears nothing of a key (stop 52, item 8).
            let mut out = vec![catalog.text(if p.idempotency_key {
                "panel.charges_no_unique"
            } else {
                "panel.charges_pk_only"
            })];
            if p.idempotency_key && p.key_in_ledger_tx {
                out.push(catalog.text(if l.keys_scoped {
                    "panel.keys_unique_user"
                } else {
                    "panel.keys_unique_global"
                }));
            } else if p.idempotency_key {
                out.push(catalog.text(if l.keys_scoped {
                    "panel.dedup_redis_user"
                } else {
                    "panel.dedup_redis_global"
                }));
            } else {
                out.push(catalog.text("panel.no_dedup"));
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::test_support::end;

    /// Defect 3: tables without the unique constraint say so.
    #[test]
    fn the_ledger_shows_where_deduplication_happens() {
        let c = Lang::En.catalog();
        for id in ["concurrent-no-lock", "ttl", "evict", "crash-window"] {
            let lines = ledger_constraints(&end(id), c).join(" ");
            assert!(lines.contains("no unique index"), "{id}: {lines}");
            assert!(
                lines.contains("UNIQUE") || lines.contains("Redis"),
                "{id}: {lines}"
            );
        }
        let lines = ledger_constraints(&end("fully-protected"), c).join(" ");
        assert!(lines.contains("UNIQUE (user_id, key)"), "{lines}");
        assert!(ledger_constraints(&end("cas"), c)[0].contains("If-Match"));
        assert!(ledger_constraints(&end("cas-naive"), c)[0].starts_with("No guard"));
        let lines = ledger_constraints(&end("counter-no-index"), c).join(" ");
        assert!(lines.contains("off"), "{lines}");
        // Where the key is checked decides the second line: Redis, the ledger's own table,
        // or nowhere (no key at all).
        let second = |id: &str| ledger_constraints(&end(id), c)[1].clone();
        assert!(second("key").starts_with("Deduplication happens in Redis"));
        assert!(second("fully-protected").starts_with("idempotency_keys: UNIQUE"));
        assert!(second("naive").starts_with("Nothing deduplicates"));
    }

    /// The processor's totals: one line per customer charged, and the first customer's line
    /// even before anything was charged ($0.00), never twice.
    #[test]
    fn the_totals_name_each_customer_once() {
        let c = Lang::En.catalog();
        let totals = |world: &World| processor_totals_html(world, c).to_string();
        let start = totals(&crate::test_support::played("naive", 0));
        assert_eq!(start.matches("Total, user 1").count(), 1, "{start}");
        assert!(start.contains("$0.00"), "{start}");
        let end_of_run = totals(&end("naive"));
        assert_eq!(end_of_run.matches("Total, user").count(), 1, "{end_of_run}");
        assert!(end_of_run.contains("$200.00"), "{end_of_run}");
    }
}
