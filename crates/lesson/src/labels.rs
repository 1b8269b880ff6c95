//! Short labels: K1/K2 for Idempotency-Keys, op1/op2 for op_ids, packet captions in protocol
//! notation (`POST /charges · K1`, `SET NX K1`, `201 pay_abc`) whose words come from the
//! catalog (`charge $100.00`, `списание $100,00`), money and durations. Pure functions of core
//! values, unit-tested natively.

use idem_core::http::{HttpRequest, HttpResponse, RequestBody, ResponseBody};
use idem_core::ledger::{SqlBatch, Statement, StatementResult};
use idem_core::message::Payload;
use idem_core::net::Message;
use idem_core::record::{KeyRecord, KeyStatus};
use idem_core::store::{RedisCommand, RedisReply};
use idem_core::HandlerRef;
use idem_core::{MsgId, Node, Phase, Story, World};

use crate::i18n::{Catalog, Lang};

/// Human-sized names for the UUIDs of a run, in order of first appearance, and what each SQL
/// batch of the run asked (so a reply's caption can say what it wrote or found).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShortNames {
    names: Vec<(String, String)>,
    /// Each batch sent to the ledger: its handler, its message, and per statement whether it
    /// writes (an INSERT or UPDATE) rather than reads (a SELECT).
    batches: Vec<(HandlerRef, MsgId, Vec<bool>)>,
}

impl ShortNames {
    /// Names every Idempotency-Key (`K1`, `K2`…) and op_id (`op1`…) the world's client made,
    /// in the order the operations started. Stable along a run: later steps only add names.
    pub fn of(world: &World) -> ShortNames {
        let mut names = ShortNames::default();
        for op in world.client().ops() {
            if let Some(key) = &op.key {
                names.add(key, "K");
            }
            if let RequestBody::Like {
                op_id: Some(id), ..
            } = &op.body
            {
                names.add(id, "op");
            }
        }
        for m in world.network().messages() {
            if let Payload::Sql(handler, batch) = &m.payload {
                let writes = batch.statements.iter().map(writes).collect();
                names.batches.push((*handler, m.id, writes));
            }
        }
        names
    }

    /// Per statement, whether it writes, of the batch `reply` (a ledger's answer) answers: the
    /// handler's last batch sent before it. `None` when the run's history no longer holds it.
    pub fn batch_answered_by(&self, reply: &Message) -> Option<&[bool]> {
        let Payload::SqlResults(handler, _) = &reply.payload else {
            return None;
        };
        self.batches
            .iter()
            .rev()
            .find(|(h, id, _)| h == handler && *id < reply.id)
            .map(|(_, _, writes)| writes.as_slice())
    }

    /// Gives `uuid` the next name with `prefix`, unless it has one.
    pub fn add(&mut self, uuid: &str, prefix: &str) {
        if self.names.iter().any(|(u, _)| u == uuid) {
            return;
        }
        let n = self
            .names
            .iter()
            .filter(|(_, l)| l.starts_with(prefix))
            .count()
            + 1;
        self.names.push((uuid.to_owned(), format!("{prefix}{n}")));
    }

    /// The short name of `uuid`, if it has one.
    pub fn get(&self, uuid: &str) -> Option<&str> {
        self.names
            .iter()
            .find(|(u, _)| u == uuid)
            .map(|(_, l)| l.as_str())
    }

    /// `text` with every known UUID inside it replaced by its short name
    /// (`idem:user_1:<uuid>` → `idem:user_1:K1`).
    pub fn shorten(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for (uuid, label) in &self.names {
            if out.contains(uuid.as_str()) {
                out = out.replace(uuid.as_str(), label);
            }
        }
        out
    }

    /// The short name of a key as the store spells it: the part after the last `:`.
    pub fn key_tail(&self, text: &str) -> String {
        let short = self.shorten(text);
        match short.rsplit_once(':') {
            Some((_, tail)) => tail.to_owned(),
            None => short,
        }
    }
}

/// Whether a message is a request (towards the far node) or a response (coming back).
pub fn packet_kind(message: &Message) -> &'static str {
    if message.payload.is_reply() {
        "response"
    } else {
        "request"
    }
}

/// Which protocol a message speaks, for its colour: `http`, `redis`, `sql` or `psp`.
pub fn protocol(payload: &Payload) -> &'static str {
    match payload {
        Payload::Request(_) | Payload::Response(_) => "http",
        Payload::Redis(..) | Payload::RedisReply(..) => "redis",
        Payload::Sql(..) | Payload::SqlResults(..) => "sql",
        Payload::Charge(..) | Payload::ChargeReply(..) => "psp",
    }
}

/// The caption of a packet, its words in the catalog's language.
pub fn packet_label(message: &Message, names: &ShortNames, catalog: &Catalog) -> String {
    match &message.payload {
        Payload::Request(request) => request_label(request, names),
        Payload::Response(response) => response_label(response, catalog),
        Payload::Redis(_, command) => redis_label(command, names),
        Payload::RedisReply(_, reply) => redis_reply_label(reply),
        Payload::Sql(_, batch) => sql_label(batch, catalog),
        Payload::SqlResults(_, results) => match names.batch_answered_by(message) {
            Some(writes) => results_label(writes, results, catalog),
            None => rows_label(results, catalog),
        },
        Payload::Charge(_, charge) => {
            let mut label = catalog.fill(
                "packet.charge",
                &[("amount", usd_in(charge.amount_cents, catalog))],
            );
            if let Some(key) = &charge.idempotency_key {
                label.push_str(" · ");
                label.push_str(&names.key_tail(key));
            }
            if let Some((_, token)) = &charge.fence {
                label.push_str(" · ");
                label.push_str(&catalog.fill("packet.token", &[("n", token.to_string())]));
            }
            label
        }
        Payload::ChargeReply(_, reply) => {
            if reply.fenced {
                catalog.text("packet.fenced")
            } else if reply.replayed {
                format!("{} ↺", reply.payment_id)
            } else {
                reply.payment_id.as_str().to_owned()
            }
        }
    }
}

fn request_label(request: &HttpRequest, names: &ShortNames) -> String {
    let mut label = match &request.body {
        _ if request.status_query => format!("GET {}", idem_core::http::STATUS_PATH),
        RequestBody::Charge { .. } => "POST /charges".to_owned(),
        RequestBody::Debit {
            account,
            amount,
            expected_version,
            ..
        } => match expected_version {
            Some(v) => format!("PATCH /accounts/{account} −{amount} v{v}"),
            None => format!("PATCH /accounts/{account} −{amount}"),
        },
        RequestBody::Like { post, op_id } => match op_id {
            Some(id) => format!("POST /posts/{post}/likes · {}", names.shorten(id)),
            None => format!("POST /posts/{post}/likes"),
        },
    };
    if let Some(key) = &request.idempotency_key {
        label.push_str(" · ");
        label.push_str(&names.shorten(key));
    }
    label
}

/// The caption of an HTTP response: status and the one detail that matters.
pub fn response_label(response: &HttpResponse, catalog: &Catalog) -> String {
    let status = response.status;
    let mut label = match &response.body {
        ResponseBody::Charged { payment_id, .. } => format!("{status} {payment_id}"),
        ResponseBody::Debited { balance, version } => catalog.fill(
            "packet.balance",
            &[
                ("status", status.to_string()),
                ("balance", balance.to_string()),
                ("version", version.to_string()),
            ],
        ),
        ResponseBody::PreconditionFailed { version, .. } => format!("{status} v{version}"),
        ResponseBody::Liked { likes } => catalog.fill(
            "packet.likes",
            &[("status", status.to_string()), ("n", likes.to_string())],
        ),
        // The reason phrase is in the transcript and the narration; on a packet it would not fit.
        ResponseBody::Error(_) => status.to_string(),
    };
    if response.replayed {
        label.push_str(" ↺");
    }
    label
}

fn redis_label(command: &RedisCommand, names: &ShortNames) -> String {
    match command {
        RedisCommand::Set { key, nx: true, .. } => format!("SET NX {}", names.key_tail(key)),
        RedisCommand::Set { key, value, .. } => {
            format!("SET {} {}", names.key_tail(key), record_label(value))
        }
        RedisCommand::Get { key } => format!("GET {}", names.key_tail(key)),
        RedisCommand::ClaimWithToken { key, .. } => {
            format!("SET NX {} + INCR", names.key_tail(key))
        }
        RedisCommand::SetIfToken {
            key, value, token, ..
        } => format!(
            "SET {} {} if token {token}",
            names.key_tail(key),
            record_label(value)
        ),
    }
}

fn redis_reply_label(reply: &RedisReply) -> String {
    match reply {
        RedisReply::Ok => "OK".to_owned(),
        RedisReply::Nil => "(nil)".to_owned(),
        RedisReply::Value(record) => record_label(record),
        RedisReply::Int(n) => n.to_string(),
    }
}

/// A key record in a few characters: `in_progress` or `201 ✓`.
pub fn record_label(record: &KeyRecord) -> String {
    match &record.status {
        KeyStatus::InProgress => "in_progress".to_owned(),
        KeyStatus::Completed(response) => format!("{} ✓", response.status),
    }
}

/// A statement in a few words of SQL (table names as they are, other words from the catalog).
pub fn statement_label(statement: &Statement, catalog: &Catalog) -> String {
    let key = match statement {
        Statement::Debit {
            amount,
            expected_version: Some(v),
            ..
        } => return format!("UPDATE −{amount} WHERE v={v}"),
        Statement::Debit { amount, .. } => return format!("UPDATE −{amount}"),
        Statement::InsertCharge { .. } => "sql.insert_charge",
        Statement::SelectAccount { .. } => "sql.select_account",
        Statement::SelectAccountOp { .. } => "sql.select_account_op",
        Statement::SelectChargeByKey { .. } => "sql.select_charge_by_key",
        Statement::InsertLikeOp { .. } => "sql.insert_like_op",
        Statement::IncrementLikes { .. } => "sql.increment_likes",
        Statement::SelectLikes { .. } => "sql.select_likes",
        Statement::ClaimKey { .. } => "sql.claim_key",
        Statement::SelectStaleKeys { .. } => "sql.select_stale_keys",
        Statement::SelectKey { .. } => "sql.select_key",
        Statement::ReclaimKey { .. } => "sql.reclaim_key",
        Statement::CompleteKey { .. } => "sql.complete_key",
        Statement::Fence { token, .. } => {
            return catalog.fill("sql.fence", &[("token", token.to_string())])
        }
    };
    catalog.text(key)
}

fn sql_label(batch: &SqlBatch, catalog: &Catalog) -> String {
    let first = batch
        .statements
        .first()
        .map(|s| statement_label(s, catalog))
        .unwrap_or_default();
    let more = batch.statements.len().saturating_sub(1);
    // As the SQL panel writes it, not "TX … +2" (words4: "+1" after "WHERE v=5" read as the
    // version's + 1): the rest of the batch is "…", its count in the SQL panel.
    match (batch.transaction && more > 0, more) {
        (true, _) => format!("BEGIN; {first} …"),
        (false, 0) => first,
        (false, _) => format!("{first} …"),
    }
}

/// Whether a statement writes (INSERT, UPDATE) rather than only reads (SELECT).
pub fn writes(statement: &Statement) -> bool {
    match statement {
        Statement::InsertCharge { .. }
        | Statement::Fence { .. }
        | Statement::Debit { .. }
        | Statement::InsertLikeOp { .. }
        | Statement::IncrementLikes { .. }
        | Statement::ClaimKey { .. }
        | Statement::ReclaimKey { .. }
        | Statement::CompleteKey { .. } => true,
        Statement::SelectAccount { .. }
        | Statement::SelectAccountOp { .. }
        | Statement::SelectChargeByKey { .. }
        | Statement::SelectLikes { .. }
        | Statement::SelectStaleKeys { .. }
        | Statement::SelectKey { .. } => false,
    }
}

/// A ledger reply's caption in words: the rows its writes wrote (`wrote 2 rows`, `wrote
/// nothing`), and when they wrote nothing, what its reads found (`wrote nothing · found 1
/// row`: a skipped debit that found its op_id already applied); for a batch of reads, the rows
/// they found (`found 1 row`, `found nothing`). `writes` says per statement whether it writes;
/// the per-statement counts stay in the SQL detail and the ledger panel.
pub fn results_label(writes: &[bool], results: &[StatementResult], catalog: &Catalog) -> String {
    let rows: Vec<u64> = results.iter().map(|r| r.rows).collect();
    rows_words(writes, &rows, catalog)
}

/// A batch's rows in words, by what its statements do (`writes`, in order with `rows`): what
/// the writes wrote and, when they wrote nothing, what the reads found (`wrote 1 row`, `wrote
/// nothing · found 1 row`, `found 1 row`), never a bare list of counts.
pub fn rows_words(writes: &[bool], rows: &[u64], catalog: &Catalog) -> String {
    let rows = |write: bool| -> u64 {
        rows.iter()
            .zip(writes)
            .filter(|(_, w)| **w == write)
            .map(|(r, _)| *r)
            .sum()
    };
    let (written, found) = (rows(true), rows(false));
    let any_write = writes.iter().any(|w| *w);
    let key = match (any_write, written, found) {
        (true, 0, 0) => "packet.wrote_nothing",
        (true, 0, _) => "packet.wrote_nothing_found",
        (true, _, _) => "packet.wrote",
        (false, _, 0) => "packet.found_nothing",
        (false, _, _) => "packet.found",
    };
    let n = if any_write && written > 0 {
        written
    } else {
        found
    };
    catalog.fill(key, &[("n", n.to_string())])
}

/// Rows affected, as PostgreSQL's command tags count them: `1 row`, `0 rows`, `rows 1,0`.
pub fn rows_label(results: &[StatementResult], catalog: &Catalog) -> String {
    let rows: Vec<u64> = results.iter().map(|r| r.rows).collect();
    rows_text(&rows, catalog)
}

/// `1 row`, `0 rows`, `rows 1,0` (`1 строка`, `0 строк`, `строки 1,0`).
pub fn rows_text(rows: &[u64], catalog: &Catalog) -> String {
    match rows {
        [n] => catalog.fill("packet.rows", &[("n", n.to_string())]),
        _ => catalog.fill(
            "packet.rows_each",
            &[(
                "list",
                rows.iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(","),
            )],
        ),
    }
}

/// Cents as US dollars: `$200.00`, `$1,250.50`.
pub fn usd(cents: u64) -> String {
    format!(
        "${}.{:02}",
        crate::markup::grouped(cents / 100, ","),
        cents % 100
    )
}

/// Money as the page's language writes it: `$1,250.50` in English, `$1 250,50` in Russian
/// (a no-break space between thousands, the decimal comma).
pub fn usd_in(cents: u64, catalog: &Catalog) -> String {
    let en = usd(cents);
    if catalog.tag == "ru" {
        en.replace(',', "\u{a0}").replace('.', ",")
    } else {
        en
    }
}

/// A duration for countdowns: `2.4 s`, `3m 05s`, `23h 59m 58s`.
pub fn duration(ms: u64) -> String {
    duration_in(ms, Lang::En.catalog())
}

/// A span of time in the catalog's units: `2.4 s`, `3m 05s`, `25h 00m 02s`, `25h` in English;
/// `2,4 с`, `3 мин 05 с`, `25 ч 00 мин 02 с`, `25 ч` in Russian.
pub fn duration_in(ms: u64, catalog: &Catalog) -> String {
    let s = ms / 1_000;
    let two = |n: u64| format!("{n:02}");
    if ms >= 3_600_000 && s.is_multiple_of(3_600) {
        catalog.fill("dur.hours_only", &[("h", (s / 3_600).to_string())])
    } else if ms >= 3_600_000 {
        catalog.fill(
            "dur.hours",
            &[
                ("h", (s / 3_600).to_string()),
                ("m", two((s / 60) % 60)),
                ("s", two(s % 60)),
            ],
        )
    } else if ms >= 60_000 {
        catalog.fill(
            "dur.minutes",
            &[("m", (s / 60).to_string()), ("s", two(s % 60))],
        )
    } else {
        catalog.fill(
            "dur.seconds",
            &[
                ("s", s.to_string()),
                ("f", ((ms % 1_000) / 100).to_string()),
            ],
        )
    }
}

/// The simulation clock: `0.300 s`, or `25h 00m 01s` once hours have passed.
pub fn clock(ms: u64) -> String {
    clock_in(ms, Lang::En.catalog())
}

/// [`clock`] in the catalog's units (`0,300 с` in Russian).
pub fn clock_in(ms: u64, catalog: &Catalog) -> String {
    if ms >= 3_600_000 {
        duration_in(ms, catalog)
    } else {
        catalog.fill(
            "dur.clock",
            &[
                ("s", (ms / 1_000).to_string()),
                ("f", format!("{:03}", ms % 1_000)),
            ],
        )
    }
}

/// The stories whose API and database are named for what they hold (`likes`: a likes
/// service and a posts table; `accounts`: an accounts API and table); the payment stories use
/// the nodes' own names.
pub fn story_tag(story: Story) -> Option<&'static str> {
    match story {
        Story::Counter => Some("likes"),
        Story::CompareAndSet => Some("accounts"),
        Story::NaivePost | Story::IdempotencyKey => None,
    }
}

/// A handler's phase in the words of `story`: a like or a debit updates its table, it does
/// not "write the ledger" (review finding 16).
pub fn phase_in(phase: Phase, story: Story, catalog: &Catalog) -> String {
    match (phase, story_tag(story)) {
        (Phase::WriteLedger, Some(tag)) => catalog.text(&format!("phase.{}.{tag}", phase.name())),
        _ => catalog.text(&format!("phase.{}", phase.name())),
    }
}

/// The catalog key of a node's `part` (`name`, `short`, `tech`) in `story`.
pub fn node_key(story: Story, node: Node, part: &str) -> String {
    let name = node.name();
    match (story_tag(story), node) {
        (Some(tag), Node::Api | Node::Ledger) => format!("node.{name}.{part}.{tag}"),
        _ => format!("node.{name}.{part}"),
    }
}

/// A node's `part` in the story of `world`, in the catalog's language. In a payment run
/// without the Idempotency-Key the API checks nothing and the key store is not used: their
/// lines say so (`node.api.tech.none`, `node.store.tech.none`).
pub fn node_text(world: &World, node: Node, part: &str, catalog: &Catalog) -> String {
    let scenario = world.scenario();
    let keyless = part == "tech"
        && story_tag(scenario.story).is_none()
        && !scenario.protections.idempotency_key
        && matches!(node, Node::Api | Node::Store);
    if keyless {
        return catalog.text(if node == Node::Api {
            "node.api.tech.none"
        } else {
            "node.store.tech.none"
        });
    }
    // With the key record in the ledger's transaction, the API never talks to Redis.
    if part == "tech" && node == Node::Store && scenario.protections.key_in_ledger_tx {
        return catalog.text("node.store.tech.in_ledger");
    }
    catalog.text(&node_key(scenario.story, node, part))
}

/// A message's number in a sentence, counted from 1 like operations (`#1` in English, `№1`
/// in Russian, is the first message); the core's ids count from 0.
pub fn msg_no(id: MsgId, catalog: &Catalog) -> String {
    catalog.fill("msg.no", &[("n", (id.0 + 1).to_string())])
}

/// A message's number on the drawings (`#1` in every language): a tag beside a protocol
/// caption, and read the same in the element's name (Unicode folds `№` to `No`, so a
/// checker comparing the drawn text with the name would see two different words).
pub fn msg_tag(id: MsgId) -> String {
    format!("#{}", id.0 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::end;

    /// Review finding 16: "Postgres · accounts" spilled out of its card. A card fits about
    /// 17 characters on a line at its size; every story's name and tech line, in every
    /// language and design, stays within that.
    #[test]
    fn node_lines_fit_their_card() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            for scenario in idem_core::Scenario::all() {
                let world = World::new(&scenario);
                for node in Node::ALL {
                    for part in ["short", "tech"] {
                        let text = node_text(&world, node, part, c);
                        assert!(
                            text.chars().count() <= 17,
                            "{} {node:?} {part}: {text}",
                            scenario.id
                        );
                    }
                }
            }
        }
    }

    /// Review finding 10: with the keys in PostgreSQL the Redis node said "TTL 24 h".
    #[test]
    fn the_store_node_says_where_the_keys_live() {
        let en = Lang::En.catalog();
        let full = end("fully-protected");
        assert!(full.scenario().protections.key_in_ledger_tx);
        assert_eq!(
            full.store().entries().count(),
            0,
            "Redis holds nothing in this design"
        );
        let tech = node_text(&full, Node::Store, "tech", en);
        assert!(!tech.contains("TTL"), "{tech}");
        assert!(tech.contains("Postgres"), "{tech}");
        let key = node_text(&end("key"), Node::Store, "tech", en);
        assert!(key.contains("TTL 24"), "{key}");
        // Without a key, each of the two says so in its own words.
        let naive = end("naive");
        assert_eq!(node_text(&naive, Node::Api, "tech", en), "no key check");
        assert_eq!(node_text(&naive, Node::Store, "tech", en), "Redis · unused");
    }

    #[test]
    fn keys_are_named_in_order_of_first_appearance() {
        let mut names = ShortNames::default();
        names.add("7f0c-aaaa", "K");
        names.add("1234-bbbb", "K");
        names.add("7f0c-aaaa", "K");
        names.add("op-uuid", "op");
        assert_eq!(names.get("7f0c-aaaa"), Some("K1"));
        assert_eq!(names.get("1234-bbbb"), Some("K2"));
        assert_eq!(names.get("op-uuid"), Some("op1"));
        assert_eq!(names.shorten("idem:user_1:1234-bbbb"), "idem:user_1:K2");
        assert_eq!(names.key_tail("idem:user_1:1234-bbbb"), "K2");
        assert_eq!(names.shorten("no uuid here"), "no uuid here");
    }

    #[test]
    fn the_key_story_labels_its_packets() {
        let world = end("key");
        let names = ShortNames::of(&world);
        let en = Lang::En.catalog();
        let labels: Vec<String> = world
            .network()
            .messages()
            .iter()
            .map(|m| packet_label(m, &names, en))
            .collect();
        assert_eq!(labels[0], "POST /charges · K1");
        assert_eq!(labels[1], "SET NX K1");
        assert_eq!(labels[2], "OK");
        assert_eq!(labels[3], "charge $100.00");
        assert_eq!(labels[4], "pay_abc");
        assert_eq!(labels[5], "INSERT charges");
        assert_eq!(labels[6], "wrote 1 row");
        assert_eq!(labels[7], "SET K1 201 ✓");
        assert_eq!(labels[9], "201 pay_abc");
        assert!(labels.contains(&"201 pay_abc ↺".to_owned()));
        // In Russian the words are Russian; the protocol stays as it is written.
        let ru = Lang::Ru.catalog();
        let label = |i: usize| packet_label(&world.network().messages()[i], &names, ru);
        assert_eq!(label(0), "POST /charges · K1");
        assert_eq!(label(3), "списание $100,00");
        assert_eq!(label(6), "записано: 1 строка");
        let kinds: Vec<&str> = world.network().messages().iter().map(packet_kind).collect();
        assert_eq!(&kinds[..3], ["request", "request", "response"]);
        // A status check asks with GET and the same key, whatever the payment's body.
        let Payload::Request(first) = &world.network().messages()[0].payload else {
            panic!("the key story opens with a request");
        };
        let status = HttpRequest {
            status_query: true,
            ..first.clone()
        };
        assert_eq!(request_label(&status, &names), "GET /charges/status · K1");
    }

    /// A ledger reply says in words what the batch it answers did, never a bare list of counts
    /// like `rows 0,0,1` (a student cannot tell which number belongs to which statement).
    #[test]
    fn a_ledger_reply_says_what_its_batch_wrote_or_found() {
        let captions = |story: &str, catalog: &Catalog| -> Vec<String> {
            let world = end(story);
            let names = ShortNames::of(&world);
            world
                .network()
                .messages()
                .iter()
                .filter(|m| matches!(m.payload, Payload::SqlResults(..)))
                .map(|m| packet_label(m, &names, catalog))
                .collect()
        };
        let (en, ru) = (Lang::En.catalog(), Lang::Ru.catalog());
        // The retried like: INSERT like_ops 0, UPDATE likes 0, SELECT likes 1 (the count).
        assert_eq!(
            captions("counter", en),
            ["wrote 2 rows", "wrote nothing · found 1 row"]
        );
        assert_eq!(
            captions("counter", ru),
            [
                "записано: 2 строки",
                "ничего не записано · найдено: 1 строка"
            ]
        );
        // The retried debit matched no row (its version had moved on); the SELECT beside it
        // found the account, whose version the 412 carries (the narration says the same).
        assert_eq!(
            captions("cas", en),
            ["wrote 1 row", "wrote nothing · found 1 row"]
        );
        for story in [
            "naive",
            "key",
            "counter",
            "cas",
            "crash-window",
            "fully-protected",
        ] {
            for caption in captions(story, en) {
                assert!(
                    caption.starts_with("wrote ") || caption.starts_with("found "),
                    "{story}: {caption}"
                );
            }
        }
        // A lone SELECT (the API looking up a key's charge) says what it found.
        let world = end("fully-protected");
        let names = ShortNames::of(&world);
        let found: Vec<String> = world
            .network()
            .messages()
            .iter()
            .filter(|m| matches!(m.payload, Payload::SqlResults(..)))
            .map(|m| packet_label(m, &names, en))
            .filter(|c| c.starts_with("found"))
            .collect();
        assert!(!found.is_empty(), "no read-only batch in fully-protected");
        // A reply whose batch the names do not hold falls back to PostgreSQL's row counts.
        let world = end("counter");
        let replies: Vec<&Message> = world
            .network()
            .messages()
            .iter()
            .filter(|m| matches!(m.payload, Payload::SqlResults(..)))
            .collect();
        let bare = ShortNames::default();
        assert_eq!(packet_label(replies[0], &bare, en), "rows 1,1,1");
        assert_eq!(packet_label(replies[1], &bare, en), "rows 0,0,1");
        assert_eq!(packet_label(replies[1], &bare, ru), "строки 0,0,1");
    }

    /// A batch's caption: its first statement, "…" when more follow, and `BEGIN;` only when
    /// they run in one transaction (a single statement needs no transaction to be whole).
    #[test]
    fn a_batch_caption_counts_what_follows_and_says_tx_only_for_several() {
        let world = end("counter");
        let en = Lang::En.catalog();
        let batch = world
            .network()
            .messages()
            .iter()
            .find_map(|m| match &m.payload {
                Payload::Sql(_, b) if b.statements.len() == 3 => Some(b.clone()),
                _ => None,
            })
            .expect("the like's batch: INSERT like_ops, UPDATE likes, SELECT likes");
        let first = statement_label(&batch.statements[0], en);
        let with = |statements: usize, transaction: bool| SqlBatch {
            statements: batch.statements[..statements].to_vec(),
            transaction,
            op: batch.op,
        };
        assert_eq!(sql_label(&with(3, true), en), format!("BEGIN; {first} …"));
        assert_eq!(sql_label(&with(3, false), en), format!("{first} …"));
        assert_eq!(sql_label(&with(2, false), en), format!("{first} …"));
        assert_eq!(sql_label(&with(1, true), en), first);
        assert_eq!(sql_label(&with(1, false), en), first);
    }

    /// With a Retry pressed early, two handlers talk to the ledger at once: each reply is read
    /// against its own handler's last batch (one entry per statement it answers), not against
    /// the last batch anyone sent.
    #[test]
    fn a_ledger_reply_is_read_against_its_own_handler_s_batch() {
        use idem_core::{Action, Scenario};
        let mut interleaved = 0;
        for id in ["key", "fully-protected", "cas", "counter"] {
            let scenario = Scenario::by_id(id)
                .expect("scenario")
                .without_scripted_faults();
            for k in 0..12 {
                let mut world = World::new(&scenario);
                world.run(k);
                if world.apply(Action::RetryNow).is_err() {
                    continue;
                }
                world.run(1_000);
                let names = ShortNames::of(&world);
                let mut handlers_seen = Vec::new();
                for m in world.network().messages() {
                    if let Payload::Sql(handler, _) = &m.payload {
                        if !handlers_seen.contains(handler) {
                            handlers_seen.push(*handler);
                        }
                    }
                    let Payload::SqlResults(_, results) = &m.payload else {
                        continue;
                    };
                    let writes = names.batch_answered_by(m).expect("its batch is in the run");
                    assert_eq!(writes.len(), results.len(), "{id}, retry after {k}: {m:?}");
                }
                interleaved += usize::from(handlers_seen.len() > 1);
            }
        }
        assert!(
            interleaved > 0,
            "no run had two handlers talking to the ledger"
        );
    }

    /// A student's review: the processor's refusal of a stale token was drawn as a bare "#22",
    /// and the calls it judged did not show their tokens.
    #[test]
    fn a_fenced_call_shows_its_token_and_its_refusal_says_why() {
        let world = end("lease-fencing");
        let names = ShortNames::of(&world);
        for lang in Lang::ALL {
            let c = lang.catalog();
            let labels = |pick: fn(&Payload) -> bool| -> Vec<String> {
                world
                    .network()
                    .messages()
                    .iter()
                    .filter(|m| pick(&m.payload))
                    .map(|m| packet_label(m, &names, c))
                    .collect()
            };
            let calls = labels(|p| matches!(p, Payload::Charge(..)));
            assert!(calls.len() >= 2, "{calls:?}");
            // The stalled holder's token 1 and the retry's token 2, whichever is sent first.
            for token in [1, 2] {
                let shown = c.fill("packet.token", &[("n", token.to_string())]);
                assert!(calls.iter().any(|call| call.ends_with(&shown)), "{calls:?}");
            }
            let refused = labels(|p| matches!(p, Payload::ChargeReply(_, r) if r.fenced));
            assert_eq!(refused, [c.text("packet.fenced")]);
        }
    }

    #[test]
    fn the_naive_story_has_no_key_in_its_labels() {
        let world = end("naive");
        let names = ShortNames::of(&world);
        let first = &world.network().messages()[0];
        assert_eq!(
            packet_label(first, &names, Lang::En.catalog()),
            "POST /charges"
        );
        assert_eq!(protocol(&first.payload), "http");
    }

    #[test]
    fn counter_and_cas_labels() {
        let world = end("counter");
        let names = ShortNames::of(&world);
        let first = &world.network().messages()[0];
        assert_eq!(
            packet_label(first, &names, Lang::En.catalog()),
            "POST /posts/7/likes · op1"
        );
        let world = end("cas");
        let names = ShortNames::of(&world);
        let first = &world.network().messages()[0];
        assert_eq!(
            packet_label(first, &names, Lang::En.catalog()),
            "PATCH /accounts/1 −20 v5"
        );
    }

    #[test]
    fn money_is_formatted_in_dollars() {
        assert_eq!(usd(0), "$0.00");
        assert_eq!(usd(10_000), "$100.00");
        assert_eq!(usd(20_000), "$200.00");
        assert_eq!(usd(125_050), "$1,250.50");
        assert_eq!(usd(123_456_789), "$1,234,567.89");
        assert_eq!(usd_in(125_050, Lang::En.catalog()), "$1,250.50");
        assert_eq!(usd_in(125_050, Lang::Ru.catalog()), "$1\u{a0}250,50");
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(2_400), "2.4 s");
        assert_eq!(duration(0), "0.0 s");
        assert_eq!(duration(185_000), "3m 05s");
        assert_eq!(duration(86_398_000), "23h 59m 58s");
        assert_eq!(clock(300), "0.300 s");
        assert_eq!(clock(90_001_000), "25h 00m 01s");
        let ru = Lang::Ru.catalog();
        assert_eq!(duration_in(2_400, ru), "2,4 с");
        assert_eq!(duration_in(185_000, ru), "3 мин 05 с");
        assert_eq!(duration_in(90_000_000, ru), "25 ч");
        assert_eq!(duration_in(90_002_000, ru), "25 ч 00 мин 02 с");
        assert_eq!(duration(90_000_000), "25h");
        assert_eq!(clock_in(5_415, ru), "5,415 с");
        assert_eq!(msg_no(MsgId(4), Lang::En.catalog()), "#5");
        // Review finding 9: Russian numbers messages as it numbers operations.
        assert_eq!(msg_no(MsgId(4), ru), "№5");
    }

    #[test]
    fn rows_follow_postgres_counts() {
        let (en, ru) = (Lang::En.catalog(), Lang::Ru.catalog());
        assert_eq!(rows_text(&[1], en), "1 row");
        assert_eq!(rows_text(&[0], en), "0 rows");
        assert_eq!(rows_text(&[1, 0], en), "rows 1,0");
        assert_eq!(rows_text(&[0], ru), "0 строк");
        assert_eq!(rows_text(&[2], ru), "2 строки");
        assert_eq!(rows_text(&[1, 0], ru), "строки 1,0");
    }
}
