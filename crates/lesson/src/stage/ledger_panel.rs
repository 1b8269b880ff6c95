//! PostgreSQL: the tables of the current story, the constraints in force, and the rows the
//! last statements affected (from the step's `LedgerRan` note).

use idem_core::net::Fate;

use idem_core::http::RequestBody;
use idem_core::ledger::Statement;
use idem_core::message::Payload;
use idem_core::sql::{quote, Schema};
use idem_core::{Note, Story, World};

use crate::i18n::Catalog;
use crate::labels::{record_label, rows_words, writes, ShortNames};
use crate::markup::{el, table, wrap, SafeHtml};

/// The ledger panel's markup.
pub fn ledger_html(world: &World, catalog: &Catalog) -> SafeHtml {
    let l = world.ledger();
    let names = ShortNames::of(world);
    let story = world.scenario().story;
    let mut out = crate::stage::state_panels::heading(world, idem_core::Node::Ledger, catalog);
    let mut add = |name: &str, head: &[&str], rows: Vec<Vec<String>>| {
        out.push_str(&wrap("h3", "", &el("code", "", name)));
        out.push_str(&table(name, head, &rows));
    };
    let charges = matches!(story, Story::NaivePost | Story::IdempotencyKey);
    if charges {
        // The columns as the SQL names them (amount_cents, idempotency_key: one set of names
        // on the panel and in its SQL); a design without keys (story 1) has no key column.
        let keyed = world.scenario().protections.idempotency_key
            || l.charges.iter().any(|c| c.idempotency_key.is_some());
        let rows = l
            .charges
            .iter()
            .map(|c| {
                let mut row = vec![
                    c.payment_id.as_str().to_owned(),
                    format!("#{}", c.user.0),
                    format!("#{}", c.amount_cents),
                ];
                if keyed {
                    row.push(
                        c.idempotency_key
                            .as_deref()
                            .map_or_else(|| "NULL".to_owned(), |k| names.key_tail(k)),
                    );
                }
                row
            })
            .collect();
        // The names may break after their underscore (a zero-width space), so the four
        // columns fit a state panel's card (a quarter of 1280 px, and a phone) as the short
        // names did (overlap.test.mjs).
        let head = [
            "payment_\u{200b}id",
            "#user_\u{200b}id",
            "#amount_\u{200b}cents",
            "idempotency_\u{200b}key",
        ];
        add("charges", &head[..3 + usize::from(keyed)], rows);
    }
    if charges && (!l.idempotency_keys.is_empty() || world.scenario().protections.key_in_ledger_tx)
    {
        let rows = l
            .idempotency_keys
            .iter()
            .map(|k| {
                vec![
                    names.key_tail(&k.key),
                    format!("#{}", k.stored.record.user.0),
                    record_label(&k.stored.record),
                ]
            })
            .collect();
        add("idempotency_keys", &["key", "#user_id", "status"], rows);
    }
    if story == Story::CompareAndSet {
        let rows = l
            .accounts
            .iter()
            .map(|a| {
                vec![
                    a.id.to_string(),
                    format!("#{}", a.balance),
                    format!("#{}", a.version),
                ]
            })
            .collect();
        add("accounts", &["id", "#balance", "#version"], rows);
    }
    if story == Story::Counter {
        let rows = l
            .posts
            .iter()
            .map(|p| vec![p.id.to_string(), format!("#{}", p.likes)])
            .collect();
        add("posts", &["id", "#likes"], rows);
    }
    // A design whose likes carry no op_id has no like_ops to show (#42: story 4a's panel
    // showed an op_id table it never writes).
    if story == Story::Counter && world.scenario().protections.op_dedup {
        let rows = l
            .like_ops
            .iter()
            .map(|id| vec![names.shorten(id)])
            .collect();
        add("like_ops", &["op_id"], rows);
    }
    let last_rows = world.steps().last().and_then(|s| {
        s.notes.iter().find_map(|n| match n {
            Note::LedgerRan { rows, statements } => {
                // A statement that is not a read writes (the model's own descriptions).
                let writes: Vec<bool> = statements
                    .iter()
                    .map(|s| !s.trim_start().starts_with("SELECT"))
                    .collect();
                Some(rows_words(&writes, rows, catalog))
            }
            _ => None,
        })
    });
    let mut constraints: SafeHtml = crate::outcome_text::ledger_constraints(world, catalog)
        .iter()
        .map(|line| el("li", "", line))
        .collect();
    // `rows-affected` is shown once: beside "Last statement" when this step ran SQL, else on
    // the last SQL block's rows (nothing at all before the ledger ran anything).
    let rows_affected = |rows: &str| el("strong", "data-testid=\"rows-affected\"", rows);
    if let Some(rows) = &last_rows {
        constraints.push_str(&wrap(
            "li",
            "",
            &(SafeHtml::text(&format!("{} ", catalog.text("panel.last_rows")))
                + rows_affected(rows)),
        ));
    }
    out.push_str(&wrap("ul", "class=\"constraints\"", &constraints));
    if let Some((sql, rows)) = last_sql(world, catalog) {
        out.push_str(&el("h3", "", &catalog.text("panel.last_sql")));
        let rows = if last_rows.is_some() {
            SafeHtml::text(&rows)
        } else {
            rows_affected(&rows)
        };
        out.push_str(&wrap(
            "pre",
            "class=\"wire sql\" data-testid=\"sql-last\" tabindex=\"0\"",
            &(SafeHtml::text(&format!("{sql}-- ")) + rows),
        ));
    }
    out
}

/// The last batch the ledger ran, as the SQL PostgreSQL would receive (rendered by the core's
/// `sql` module, the same text the conformance suite runs against a real server), and the rows
/// each statement affected, from the ledger's reply. Two things are said on top, as SQL
/// comments (issue 42): a like's op_id is written as the tables and the narration name it
/// (`'op1'`), with its real value in a comment, so the student sees one value everywhere. (A
/// charge without a key is written without a key column or ON CONFLICT by the core: story 1's
/// SQL and its panel speak of no key.)
pub fn last_sql(world: &World, catalog: &Catalog) -> Option<(String, String)> {
    let messages = world.network().messages();
    let (handler, batch, at) = messages
        .iter()
        .rev()
        .find_map(|m| match (&m.payload, m.fate) {
            (Payload::Sql(h, batch), Fate::Delivered(at)) => Some((*h, batch, at)),
            _ => None,
        })?;
    let mut script = Schema::of(world.ledger())
        .render_batch(batch, at)
        .ok()?
        .script();
    let mut said = Vec::new();
    let names = ShortNames::of(world);
    for op in world.client().ops() {
        // A like's op_id and an Idempotency-Key, as the tables name them (words4: the ledger
        // showed K1 while its SQL had the UUID).
        let op_id = match &op.body {
            RequestBody::Like {
                op_id: Some(id), ..
            } => Some(id.as_str()),
            _ => None,
        };
        let ids = [(op_id, "sql.op_id_is"), (op.key.as_deref(), "sql.key_is")];
        for (id, key) in ids {
            let Some((real, Some(short))) = id.map(|id| (quote(id), names.get(id))) else {
                continue;
            };
            if script.contains(&real) {
                script = script.replace(&real, &quote(short));
                said.push(catalog.fill(key, &[("short", quote(short)), ("value", real)]));
            }
        }
    }
    // Words4: the debit's batch reads balance and version twice (RETURNING, then SELECT);
    // the SELECT is there for the 412, and says so.
    let debit_select = batch.statements.iter().any(|s| {
        matches!(
            s,
            Statement::Debit {
                expected_version: Some(_),
                ..
            }
        )
    }) && batch
        .statements
        .iter()
        .any(|s| matches!(s, Statement::SelectAccount { .. }));
    if debit_select {
        said.push(catalog.text("sql.debit_select"));
    }
    let comments: String = said.iter().map(|c| format!("-- {c}\n")).collect();
    script.insert_str(0, &comments);
    let rows = messages.iter().rev().find_map(|m| match &m.payload {
        Payload::SqlResults(h, results) if *h == handler && m.sent_at == at => Some(rows_words(
            &batch.statements.iter().map(writes).collect::<Vec<_>>(),
            &results.iter().map(|r| r.rows).collect::<Vec<_>>(),
            catalog,
        )),
        _ => None,
    })?;
    Some((script, rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::test_support::end;
    use idem_core::Scenario;

    #[test]
    fn the_last_batch_is_shown_as_real_sql_with_its_rows() {
        let (sql, rows) =
            last_sql(&end("counter"), Lang::En.catalog()).expect("the ledger ran something");
        assert!(sql.contains("\nBEGIN;\n"), "{sql}");
        assert!(sql.contains("ON CONFLICT DO NOTHING"), "{sql}");
        assert!(sql.ends_with("COMMIT;\n"), "{sql}");
        assert_eq!(
            rows, "wrote nothing · found 1 row",
            "the retry inserted nothing and skipped the increment"
        );
        // Issue 42: the op_id in the SQL is the value the like_ops table shows (op1), its
        // real value said once in a comment.
        assert!(sql.contains("VALUES ('op1')"), "{sql}");
        assert!(sql.starts_with("-- 'op1' "), "{sql}");
        // Stop 52, item 8: story 1's SQL and panel speak of no key and no ON CONFLICT, and name
        // the columns as the SQL does.
        let naive_world = end("naive");
        let (naive, _) = last_sql(&naive_world, Lang::En.catalog()).expect("ran");
        assert!(
            naive.contains("INSERT INTO charges (payment_id, user_id, amount_cents) VALUES"),
            "{naive}"
        );
        for lang in Lang::ALL {
            let panel = ledger_html(&naive_world, lang.catalog()).to_string();
            for word in [
                "ON CONFLICT",
                "idempotency_key",
                "idem_key",
                "Idempotency",
                "ключ",
                " key",
            ] {
                assert!(!panel.contains(word), "{lang:?} {word}: {panel}");
            }
            assert!(
                panel.contains("amount_cents") && panel.contains(">10000<"),
                "{panel}"
            );
        }
        let keyed = ledger_html(&end("key"), Lang::En.catalog()).to_string();
        assert!(
            keyed.contains("amount_cents") && keyed.contains("idempotency_key"),
            "{keyed}"
        );
        assert!(!keyed.contains("idem_key"), "{keyed}");
        let (key, _) = last_sql(&end("key"), Lang::Ru.catalog()).expect("ran");
        // Words4: the key is written as the table shows it (K1), its UUID said once above.
        assert!(key.starts_with("-- 'K1' "), "{key}");
        assert!(
            key.contains("'K1') ON CONFLICT DO NOTHING"),
            "a keyed insert can conflict: {key}"
        );
        let (sql, rows) = last_sql(&end("cas"), Lang::En.catalog()).expect("ran");
        assert!(sql.contains("WHERE id = 1 AND version = 5"), "{sql}");
        assert_eq!(rows, "wrote nothing · found 1 row");
        let html = ledger_html(&end("cas"), Lang::En.catalog());
        assert!(html.contains("data-testid=\"sql-last\""));
    }

    /// Issue 42: story 3 says why the account has a version before it shows any SQL.
    #[test]
    fn story_3_says_why_there_is_a_version_before_any_sql() {
        let world = idem_core::World::new(&Scenario::by_id("cas").expect("cas"));
        for (lang, why) in [(Lang::En, "that is why"), (Lang::Ru, "для этого")] {
            let intro = crate::outcome_text::intro(&world, lang.catalog());
            let said = intro.find(why).expect("the reason is said");
            let sql = intro.find("UPDATE").expect("the SQL is shown");
            assert!(said < sql, "{lang:?}: {intro}");
        }
    }

    #[test]
    fn the_last_redis_command_is_shown_with_its_reply() {
        let text =
            crate::stage::state_panels::last_redis(&end("key")).expect("the store ran something");
        assert!(text.starts_with("> GET idem:user_1:"), "{text}");
        assert!(text.ends_with('}') || text.ends_with('"'), "{text}");
        assert!(
            crate::stage::state_panels::last_redis(&end("naive")).is_none(),
            "no store in the naive story"
        );
    }

    #[test]
    fn each_story_shows_its_tables() {
        let catalog = Lang::En.catalog();
        let html = ledger_html(&end("naive"), catalog);
        assert!(
            html.contains("<code>charges</code>") && html.contains("pay_abd"),
            "{html}"
        );
        let html = ledger_html(&end("cas"), catalog);
        assert!(
            html.contains("<code>accounts</code>") && html.contains(">80<"),
            "{html}"
        );
        let html = ledger_html(&end("counter"), catalog);
        assert!(
            html.contains("<code>like_ops</code>") && html.contains(">101<"),
            "{html}"
        );
        assert!(
            html.contains("UNIQUE INDEX on like_ops(op_id): on"),
            "{html}"
        );
        let html = ledger_html(&end("crash-one-tx"), catalog);
        assert!(html.contains("<code>idempotency_keys</code>"), "{html}");
    }

    #[test]
    fn the_last_statement_rows_come_from_the_step() {
        let catalog = Lang::En.catalog();
        let mut world = World::new(&Scenario::by_id("cas").expect("cas"));
        while let Some(step) = world.step() {
            if step
                .notes
                .iter()
                .any(|n| matches!(n, Note::LedgerRan { .. }))
            {
                break;
            }
        }
        let html = ledger_html(&world, catalog);
        assert!(
            html.contains("data-testid=\"rows-affected\">wrote 1 row<"),
            "{html}"
        );
        assert_eq!(html.matches("rows-affected").count(), 1, "{html}");
        assert!(html.contains("Last statement"), "{html}");
    }

    #[test]
    fn a_step_that_ran_no_sql_has_no_last_statement_line() {
        let catalog = Lang::En.catalog();
        let html = ledger_html(&World::new(&Scenario::by_id("cas").expect("cas")), catalog);
        assert!(!html.contains("Last statement"), "{html}");
        assert!(!html.contains('—'), "{html}");
        let world = end("cas");
        let html = ledger_html(&world, catalog);
        assert!(!html.contains("Last statement"), "{html}");
        assert!(
            html.contains(
                "-- <strong data-testid=\"rows-affected\">wrote nothing · found 1 row</strong></pre>"
            ),
            "{html}"
        );
        assert_eq!(html.matches("rows-affected").count(), 1, "{html}");
    }
}
