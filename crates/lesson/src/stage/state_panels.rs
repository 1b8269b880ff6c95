//! The state panels: what the phone, the idempotency store, the ledger and the card processor
//! hold at the current step, with live countdowns: each panel as markup, a pure function of
//! the world (the web crate's `StatePanels` shows them).

use idem_core::client::{Told, UserView, Wait};
use idem_core::http::RequestBody;
use idem_core::record::KeyStatus;
use idem_core::{Node, Note, OpId, Party, SimTime, World};

use crate::i18n::Catalog;
use crate::labels::{duration_in, node_text, record_label, response_label, usd_in, ShortNames};
use crate::markup::{el, table, wrap, SafeHtml};

/// Time left until `at`, seen at display time `now` (simulated ms).
pub fn countdown(now: f64, at: SimTime, catalog: &Catalog) -> String {
    duration_in((at.ms() as f64 - now).max(0.0) as u64, catalog)
}

/// A panel's heading: the node's name in the story of `world`.
pub fn heading(world: &World, node: Node, catalog: &Catalog) -> SafeHtml {
    wrap(
        "h2",
        "",
        &(el("span", &format!("class=\"dot {}\"", node.name()), "")
            + SafeHtml::text(&node_text(world, node, "name", catalog))),
    )
}

/// The operation a request body asks for, in protocol notation.
/// The amount is written as the narration writes it (`$100.00`, `$100,00` in Russian).
pub fn op_title(body: &RequestBody, catalog: &Catalog) -> String {
    match body {
        RequestBody::Charge { amount_cents, .. } => {
            format!("POST /charges {}", usd_in(*amount_cents, catalog))
        }
        RequestBody::Debit {
            account, amount, ..
        } => format!("PATCH /accounts/{account} −{amount}"),
        RequestBody::Like { post, .. } => format!("POST /posts/{post}/likes"),
    }
}

/// The phone: each operation with its key, attempt, timer and what the user sees.
pub fn client_html(world: &World, now: f64, catalog: &Catalog) -> SafeHtml {
    let mut out = heading(world, Node::Client, catalog);
    let names = ShortNames::of(world);
    if let Some(t) = world.client_offline_until() {
        let text = catalog.fill("panel.offline", &[("time", countdown(now, t, catalog))]);
        out.push_str(&el("p", "class=\"badge warn\"", &text));
    }
    let ops = world.client().ops();
    if ops.is_empty() {
        out.push_str(&el("p", "class=\"empty\"", &catalog.text("panel.no_ops")));
        return out;
    }
    let mut items = SafeHtml::default();
    for op in ops {
        let key = match op.key.as_deref() {
            Some(k) => names.get(k).unwrap_or("?").to_owned(),
            None => catalog.text("panel.no_key"),
        };
        let timer = match op.wait {
            Wait::Answer { timeout_at } => catalog.fill(
                "panel.timeout_in",
                &[("time", countdown(now, timeout_at, catalog))],
            ),
            Wait::Backoff { retry_at } => catalog.fill(
                "panel.retry_in",
                &[("time", countdown(now, retry_at, catalog))],
            ),
            Wait::Status { timeout_at } => catalog.fill(
                "panel.status_in",
                &[("time", countdown(now, timeout_at, catalog))],
            ),
            Wait::Nothing => "—".to_owned(),
        };
        // Worded from what the screen tells the user (`UserView::told`, the definition the
        // verdict checks), so the panel, the compare line and the verdict cannot disagree.
        let answer =
            |r: &idem_core::http::HttpResponse| vec![("answer", response_label(r, catalog))];
        let (sees, class) = match (op.view.told(), &op.view) {
            (Told::Done, UserView::Succeeded(r)) => {
                (catalog.fill("panel.sees_success", &answer(r)), "ok")
            }
            // 412 carries the current state: the app shows it instead of reporting a failure.
            (Told::State, UserView::Failed(r)) => {
                (catalog.fill("panel.sees_current_state", &answer(r)), "ok")
            }
            (Told::Failed, UserView::Failed(r)) => {
                (catalog.fill("panel.sees_error", &answer(r)), "warn")
            }
            (Told::Unconfirmed, _) => (catalog.text("panel.sees_gave_up"), "warn"),
            _ => (catalog.text("panel.sees_waiting"), "busy"),
        };
        let user = if op.user.0 == 1 {
            SafeHtml::default()
        } else {
            let who = catalog.fill("panel.user", &[("user", op.user.0.to_string())]);
            el("span", "class=\"tag\"", &who)
        };
        let head = el("strong", "", &format!("#{}", op.op.0 + 1))
            + SafeHtml::text(" ")
            + el("code", "", &op_title(&op.body, catalog))
            + user;
        let kv = [
            el("dt", "", &catalog.text("panel.key")),
            wrap("dd", "", &el("code", "data-testid=\"client-key\"", &key)),
            el("dt", "", &catalog.text("panel.attempt")),
            el(
                "dd",
                "data-testid=\"client-attempt\"",
                &attempt_text(world, op, catalog),
            ),
            el("dt", "", &catalog.text("panel.timer")),
            el("dd", "", &timer),
        ]
        .into_iter()
        .collect();
        items.push_str(&wrap(
            "li",
            "class=\"op\"",
            &(wrap("div", "class=\"op-head\"", &head)
                + wrap("dl", "class=\"kv\"", &kv)
                + el("p", &format!("class=\"screen {class}\""), &sees)),
        ));
    }
    out.push_str(&wrap("ul", "class=\"ops\"", &items));
    out
}

/// The attempt row of an operation: the attempts sent, and when the answer on the screen is an
/// earlier attempt's, whose it is ("2 sent · answer of attempt 1": with Retry pressed early,
/// attempt 1's 201 came back after attempt 2 left; #42, the review of stop 54). The answer's
/// attempt is the one the core's speakers give the step where the phone took it.
fn attempt_text(world: &World, op: &idem_core::client::ClientOp, catalog: &Catalog) -> String {
    let answered = op
        .view
        .is_settled()
        .then(|| answered_attempt(world, op.op))
        .flatten();
    match answered {
        Some(n) if n != op.attempts => catalog.fill(
            "panel.attempt_answered",
            &[
                ("sent", op.attempts.to_string()),
                ("answered", n.to_string()),
            ],
        ),
        _ => op.attempts.to_string(),
    }
}

/// The number of the attempt whose answer operation `op` showed last: the speaker of the last
/// `ClientGotAnswer` of it.
fn answered_attempt(world: &World, op: OpId) -> Option<u32> {
    world.steps().iter().rev().find_map(|step| {
        let at = step
            .notes
            .iter()
            .position(|n| matches!(n, Note::ClientGotAnswer { op: o, .. } if *o == op))?;
        match step.speakers(world).get(at).copied().flatten()?.party {
            Party::Attempt(a) => Some(a.number),
            _ => None,
        }
    })
}

/// Redis: each key with its status and TTL countdown.
pub fn store_html(world: &World, now: f64, catalog: &Catalog) -> SafeHtml {
    let mut out = heading(world, Node::Store, catalog);
    let names = ShortNames::of(world);
    let rows: Vec<Vec<String>> = world
        .store()
        .entries()
        .map(|(key, stored)| {
            // The label already ends in ✓ when completed: mark only the pending state.
            let status = match stored.record.status {
                KeyStatus::InProgress => "… ",
                KeyStatus::Completed(_) => "",
            };
            vec![
                names.shorten(key),
                format!("{status}{}", record_label(&stored.record)),
                format!("#{}", countdown(now, stored.expires_at, catalog)),
            ]
        })
        .collect();
    if rows.is_empty() {
        out.push_str(&el("p", "class=\"empty\"", &catalog.text("panel.no_keys")));
    } else {
        let head = [
            catalog.text("panel.col_key"),
            catalog.text("panel.col_status"),
            format!("#{}", catalog.text("panel.col_ttl")),
        ];
        let head: Vec<&str> = head.iter().map(String::as_str).collect();
        out.push_str(&table("keys", &head, &rows));
    }
    if let Some(command) = last_redis(world) {
        out.push_str(&el("h3", "", &catalog.text("panel.last_redis")));
        // The key as the table above names it (K1), the full command on hover (words4: the
        // panel showed K1 over a command with the UUID).
        let short = names.shorten(&command);
        out.push_str(&el(
            "pre",
            &format!(
                "class=\"wire redis\" data-testid=\"redis-last\" tabindex=\"0\" title=\"{}\"",
                crate::markup::esc(&command)
            ),
            &short,
        ));
    }
    out
}

/// The last command the store ran, as `redis-cli` shows it, and Redis's reply.
pub fn last_redis(world: &World) -> Option<String> {
    use idem_core::message::Payload;
    use idem_core::net::Fate;
    use idem_core::store::RedisReply;
    let messages = world.network().messages();
    let (handler, command, at) =
        messages
            .iter()
            .rev()
            .find_map(|m| match (&m.payload, m.fate) {
                (Payload::Redis(h, command), Fate::Delivered(at)) => Some((*h, command, at)),
                _ => None,
            })?;
    let reply = messages.iter().rev().find_map(|m| match &m.payload {
        // `redis-cli`'s own spelling; INCR's reply shows its number (the fencing token).
        Payload::RedisReply(h, reply) if *h == handler && m.sent_at == at => Some(match reply {
            RedisReply::Ok => "OK".to_owned(),
            RedisReply::Nil => "(nil)".to_owned(),
            RedisReply::Value(_) => "\"{…}\"".to_owned(),
            RedisReply::Int(n) => format!("(integer) {n}"),
        }),
        _ => None,
    })?;
    Some(format!("> {}\n{reply}", command.render()))
}

/// The card processor: the customer's card statement and its total.
pub fn processor_html(world: &World, catalog: &Catalog) -> SafeHtml {
    let mut out = heading(world, Node::Processor, catalog);
    let rows: Vec<Vec<String>> = world
        .processor()
        .statement
        .iter()
        .map(|line| {
            vec![
                line.payment_id.as_str().to_owned(),
                catalog.fill("panel.user", &[("user", line.user.0.to_string())]),
                format!("#{}", usd_in(line.amount_cents, catalog)),
            ]
        })
        .collect();
    let head = [
        catalog.text("panel.col_payment"),
        catalog.text("panel.col_customer"),
        format!("#{}", catalog.text("panel.col_amount")),
    ];
    let head: Vec<&str> = head.iter().map(String::as_str).collect();
    let table = table("statement", &head, &rows);
    let foot = crate::outcome_text::processor_totals_html(world, catalog);
    out.push_str(&table);
    out.push_str(&foot);
    out
}

/// The four panels, re-rendered when the step changes (and ten times a second while a
/// countdown runs).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::test_support::{end, played};

    #[test]
    fn the_client_panel_shows_key_attempts_and_screen() {
        let catalog = Lang::En.catalog();
        let html = client_html(&end("key"), 0.0, catalog);
        assert!(html.contains(">K1<"), "{html}");
        assert!(html.contains("201 pay_abc ↺"), "{html}");
        let html = client_html(&played("key", 2), 1_000.0, catalog);
        assert!(html.contains("timeout in 2.0 s"), "{html}");
        // Review finding 9: the phone writes money as the narration does, in each language.
        let ru = client_html(&end("key"), 0.0, Lang::Ru.catalog());
        assert!(ru.contains("POST /charges $100,00"), "{ru}");
        assert!(!ru.contains("$100.00"), "{ru}");
    }

    /// Retry pressed early in story 2: attempt 1's 201 is the answer the phone shows after it
    /// sent attempt 2 (the panel said "Attempt 2" beside it: #42, the review of stop 54); in
    /// the story as told, the answer is the last attempt's and the row is the count alone.
    #[test]
    fn the_client_panel_names_the_attempt_whose_answer_it_shows() {
        let (mut run, errors) = crate::playback::run_from_query("scenario=key&faults=5.retry");
        assert!(errors.is_empty(), "{errors:?}");
        run.run_to_end();
        let attempt = |html: &SafeHtml| {
            let at = html
                .find("data-testid=\"client-attempt\">")
                .expect("the attempt row");
            let rest = &html[at..];
            rest[rest.find('>').expect("tag") + 1..rest.find("</dd>").expect("row")].to_owned()
        };
        let html = client_html(run.world(), 0.0, Lang::En.catalog());
        assert_eq!(
            attempt(&html),
            "2 sent · the answer is attempt\u{a0}1&#39;s",
            "{html}"
        );
        let ru = client_html(run.world(), 0.0, Lang::Ru.catalog());
        assert!(attempt(&ru).ends_with("попытки\u{a0}1"), "{ru}");
        assert_eq!(
            attempt(&client_html(&end("key"), 0.0, Lang::En.catalog())),
            "2"
        );
        assert_eq!(
            attempt(&client_html(&played("key", 2), 0.0, Lang::En.catalog())),
            "1"
        );
    }

    #[test]
    fn the_store_panel_shows_a_status_once() {
        let catalog = Lang::En.catalog();
        let html = store_html(&end("key"), 0.0, catalog);
        assert!(html.contains(">201 ✓<"), "{html}");
        assert_eq!(html.matches('✓').count(), 1, "{html}");
    }

    #[test]
    fn the_store_panel_counts_down_the_ttl() {
        let catalog = Lang::En.catalog();
        let world = end("key");
        let html = store_html(&world, world.now().ms() as f64, catalog);
        assert!(html.contains("idem:user_1:K1"), "{html}");
        assert!(html.contains("23h 59m"), "{html}");
    }

    #[test]
    fn the_processor_panel_totals_the_statement() {
        let catalog = Lang::En.catalog();
        let html = processor_html(&end("naive"), catalog);
        assert_eq!(html.matches("$100.00").count(), 2, "{html}");
        assert!(html.contains("<strong>$200.00</strong>"), "{html}");
        // Defect 7: two customers, one total each, adding up to what the table lists.
        let html = processor_html(&end("scope"), catalog);
        assert!(
            html.contains("Total, user 1<strong>$100.00</strong>"),
            "{html}"
        );
        assert!(
            html.contains("Total, user 2<strong>$100.00</strong>"),
            "{html}"
        );
    }
}
