//! The narration of a step, from its notes: a mark before a step a fault caused, the plain
//! sentence and its detail (the SQL, the first use of a key), with the packets, operations and
//! statuses each note names.

use idem_core::http::{reason_phrase, RequestBody};
use idem_core::{Action, Cause, Note, OpId, Step, World};

use crate::i18n::Catalog;
use crate::labels::{duration_in, msg_no, packet_label, usd_in, ShortNames};

/// "Fault: duplicate request" before the narration of a step an injected or scripted fault
/// caused, so a fault never reads like ordinary traffic.
pub fn fault_mark(step: &Step, catalog: &Catalog) -> Option<String> {
    let action = match &step.cause {
        Cause::Injected(a) | Cause::Scripted(a) => a,
        _ => return None,
    };
    let key = match action {
        Action::Start(_) => return None,
        Action::RetryNow => "mark.retry",
        Action::Drop(_) => "mark.drop",
        Action::LoseNextAck => "mark.lose_ack",
        Action::Duplicate(_) => "mark.duplicate",
        Action::Delay(..) => "mark.delay",
        Action::Crash(_) => "mark.crash",
        Action::Pause(_) => "mark.pause",
        Action::EvictKeys => "mark.evict",
        Action::AdvanceClock(_) => "mark.offline",
        Action::ConcurrentDuplicate => "mark.second_request",
        Action::ReuseKeyOtherBody => "mark.reuse_key",
        Action::OtherUserSameKey => "mark.other_user",
    };
    let mark = catalog.text(key);
    Some(match step.cause {
        // A fault the story itself plays is not something the student did.
        Cause::Scripted(_) => catalog.fill("mark.scripted", &[("mark", mark)]),
        _ => mark,
    })
}

/// A step in words: one sentence per note of `step`, in order, after a "Fault: …" mark when an
/// injected or scripted fault caused the step, told plainly first: the plain lines, where the
/// SQL a step ran is one short sentence,
/// and the detail (the statements with their row counts, and once the legend of the counts)
/// for a disclosure beside it (review finding 11: the SQL legend was repeated in every step).
pub fn narrate_plain(step: &Step, world: &World, catalog: &Catalog) -> (Vec<String>, Vec<String>) {
    let names = ShortNames::of(world);
    let mut plain: Vec<String> = fault_mark(step, catalog).into_iter().collect();
    let mut detail = Vec::new();
    // A note that already says what the API answers (a failed compare-and-set's 412, a
    // recognised debit's 200) is not followed by the plain "the API answers …".
    let answered = step
        .notes
        .iter()
        .any(|n| matches!(n, Note::ApiCasRejected | Note::ApiReconciled));
    for note in &step.notes {
        if answered && matches!(note, Note::ApiResponds { .. }) {
            continue;
        }
        let text = one_note(note, step, world, &names, catalog);
        if let Note::LedgerRan { statements, .. } = note {
            plain.push(catalog.fill("ledger.ran_plain", &[("n", statements.len().to_string())]));
            detail.push(text);
        } else {
            plain.push(text);
        }
    }
    if !detail.is_empty() {
        detail.push(catalog.text("ledger.legend"));
    }
    (plain, detail)
}

/// One note of `step` in words where one request is alive (for a statement batch, its
/// statements with their row counts): which Redis command a (nil) answers, the first
/// request with a key.
fn one_note(
    note: &Note,
    step: &Step,
    world: &World,
    names: &ShortNames,
    catalog: &Catalog,
) -> String {
    // The very first request with a key says what happens, not what the API cannot
    // tell (issue 42); a later "no record" keeps the careful words.
    if matches!(note, Note::ApiKeyIsNew) {
        if let Some(key) = first_key_use(step, world, names) {
            return catalog.fill("api.key_new_first", &[("key", key)]);
        }
    }
    catalog.fill(
        if found_no_key(note, step, world) {
            "store.nil_get"
        } else {
            note_key(note, world)
        },
        &note_args(note, world, names, catalog),
    )
}

/// One note of `step` in words where two requests are alive ([`super::speaker`], the lesson's
/// bundle: the first screen carries none of this): [`one_note`], but an OK between two
/// handlers' steps says what it did and a "no record" while the first request is still running
/// says why ([`meant`]).
pub(crate) fn note_line(
    note: &Note,
    step: &Step,
    world: &World,
    names: &ShortNames,
    catalog: &Catalog,
) -> String {
    meant(note, step, world, names, catalog)
        .unwrap_or_else(|| one_note(note, step, world, names, catalog))
}

/// What a note means where the run shows more than its words say (#42: a bare "Redis answers
/// OK" between two handlers' steps, "no record of this key" on a double tap): an OK to the
/// claim says the key is this handler's, an OK to a plain SET that the answer is stored; a
/// "no record" while the request that found none before is still running says so. The
/// words live with the panels' texts (the first screen's catalog does not grow): until they
/// are here, `None`, and the plain words stand.
fn meant(
    note: &Note,
    step: &Step,
    world: &World,
    names: &ShortNames,
    catalog: &Catalog,
) -> Option<String> {
    use idem_core::store::RedisCommand;
    match note {
        Note::StoreOk => match redis_command(step, world)? {
            RedisCommand::Set { nx: true, .. } => catalog.panel_text("store.ok_claimed"),
            RedisCommand::Set { nx: false, .. } | RedisCommand::SetIfToken { .. } => {
                catalog.panel_text("store.ok_stored")
            }
            _ => None,
        },
        // What a real processor would do with the stale call depends on whether this run's
        // API forwards the key (issue 42: "the forwarded Idempotency-Key stops a second
        // charge" was said where the API passes no key on).
        Note::ProcessorFenced => {
            let real = if world.scenario().protections.forward_key {
                "processor.fenced_forwarded"
            } else {
                "processor.fenced_not_forwarded"
            };
            let real = catalog.panel_text(real)?;
            Some(format!("{} {real}", catalog.text(note.key())))
        }
        Note::ApiKeyIsNew if first_still_running(step, world) => {
            let key = world.client().ops().first()?.key.as_deref()?;
            let key = names.get(key).map_or_else(|| key.to_owned(), str::to_owned);
            catalog.panel_fill("api.key_new_inflight", &[("key", key)])
        }
        _ => None,
    }
}

/// The command `step` delivered to Redis, if it delivered one.
fn redis_command<'a>(step: &Step, world: &'a World) -> Option<&'a idem_core::store::RedisCommand> {
    let Cause::Deliver(msg) = step.cause else {
        return None;
    };
    match &world.network().get(msg)?.payload {
        idem_core::message::Payload::Redis(_, command) => Some(command),
        _ => None,
    }
}

/// Whether an earlier request found no record of its key and is still running at `step`
/// (it has not answered, crashed, nor lost its key or claim since): a double tap's second
/// request that finds no record finds none because the first has not written one yet.
fn first_still_running(step: &Step, world: &World) -> bool {
    let earlier: Vec<&Step> = world
        .steps()
        .iter()
        .take_while(|s| s.index < step.index)
        .collect();
    let Some(found) = earlier
        .iter()
        .rposition(|s| s.notes.iter().any(|n| matches!(n, Note::ApiKeyIsNew)))
    else {
        return false;
    };
    !earlier[found + 1..].iter().any(|s| {
        s.notes.iter().any(|n| {
            matches!(
                n,
                Note::ApiResponds { .. }
                    | Note::ApiCrashed { .. }
                    | Note::KeysExpired { .. }
                    | Note::KeysEvicted { .. }
                    | Note::ClaimsExpired { .. }
            )
        })
    })
}

/// The version a step's compare-and-set UPDATE expects (the If-Match it carries), when the
/// step delivered such a batch to PostgreSQL.
fn expected_version(step: &Step, world: &World) -> Option<u64> {
    let Cause::Deliver(msg) = step.cause else {
        return None;
    };
    match &world.network().get(msg)?.payload {
        idem_core::message::Payload::Sql(_, batch) => {
            batch.statements.iter().find_map(|s| match s {
                idem_core::ledger::Statement::Debit {
                    expected_version, ..
                } => *expected_version,
                _ => None,
            })
        }
        _ => None,
    }
}

/// `line` (statements as the ledger describes them) with the compare-and-set's `$expected`
/// replaced by the version the step's UPDATE expects (#42: "WHERE version = $expected" read
/// as a placeholder shown by mistake).
pub(crate) fn with_expected_version(line: String, step: &Step, world: &World) -> String {
    match expected_version(step, world) {
        Some(v) if line.contains("$expected") => line.replace("$expected", &v.to_string()),
        _ => line,
    }
}

/// The short name of the first operation's key when `step` holds the run's first "no record
/// of this key" (the simulation knows it is the first request to carry the key, though the
/// API could not); `None` for any later one, or when the run's early steps are not kept.
fn first_key_use(step: &Step, world: &World, names: &ShortNames) -> Option<String> {
    let steps = world.steps();
    if steps.first().map(|s| s.index) != Some(0) {
        return None;
    }
    let earlier = steps
        .iter()
        .take_while(|s| s.index < step.index)
        .any(|s| s.notes.iter().any(|n| matches!(n, Note::ApiKeyIsNew)));
    if earlier {
        return None;
    }
    let key = world.client().ops().first()?.key.as_deref()?;
    names.get(key).map(str::to_owned)
}

/// Whether `note` is Redis's (nil) to a GET: "no such key". Any other (nil) is a write that
/// stored nothing (SET NX on a taken key, a claim's write with an old token), which
/// `store.nil` says (issue 42: a bare "(nil)" needed a second read).
fn found_no_key(note: &Note, step: &Step, world: &World) -> bool {
    matches!(note, Note::StoreNil)
        && matches!(
            redis_command(step, world),
            Some(idem_core::store::RedisCommand::Get { .. })
        )
}

/// The catalog key of a note, refined by what the run shows where the note alone cannot
/// tell: which store the claim runs in, whether a like is counted or only tried, whether a 412's debit went through or lost a race,
/// whose payment a foreign success was, whether a lost answer was a refusal, whether
/// a lost answer was already armed.
fn note_key(note: &Note, world: &World) -> &'static str {
    match note {
        Note::ApiClaimsKey if world.scenario().protections.key_in_ledger_tx => "api.claims_key_pg",
        // With a key, a call while the processor has charged nothing says what guards this
        // run (the API's own check); the processor's missing key is said where it matters,
        // once a charge is there to repeat (words4: story 2's safe run read "the processor
        // cannot tell a retry"). Only while the calling handler is the API's one request in
        // progress: beside a stalled holder (the lease runs) the key check has already let a
        // second handler in, and the processor's missing key is what matters.
        Note::ApiCallsProcessor { forwarded: false }
            if world.scenario().protections.idempotency_key
                && world.processor().statement.is_empty()
                && world.api().handlers().count() <= 1 =>
        {
            "api.calls_processor_keyed"
        }
        // A deduplicated like may yet be skipped: say what the transaction will try, not that
        // the like is counted (story 4b's retry said "counts the like", then skipped it).
        Note::ApiLikes { dedup: true } => "api.likes_dedup",
        Note::ClientGotAnswer {
            op, status: 412, ..
        } => {
            let applied = world.ledger().debits.iter().any(|d| d.op == *op);
            if applied {
                "client.got_current_state"
            } else {
                "client.got_lost_race"
            }
        }
        Note::ClientGotForeignAnswer { op, .. } => {
            let own = world.client().op(*op).is_some_and(|o| match &o.view {
                idem_core::client::UserView::Succeeded(r) => matches!(
                    r.body,
                    idem_core::http::ResponseBody::Charged { customer, .. } if customer == o.user
                ),
                _ => false,
            });
            if own {
                "client.got_own_earlier_answer"
            } else {
                "client.got_foreign_answer"
            }
        }
        Note::MessageLost {
            msg,
            reason: idem_core::message::DropReason::LostAck,
        } if world.network().get(*msg).is_some_and(
            |m| matches!(&m.payload, idem_core::message::Payload::Response(r) if !r.is_success()),
        ) =>
        {
            "net.refusal_lost"
        }
        Note::NextAckWillBeLost if world.acks_to_lose() > 1 => "fault.lose_one_more_ack",
        _ => note.key(),
    }
}

/// A statement's description with the core's English asides in the catalog's language.
pub(crate) fn localized_statement(statement: &str, catalog: &Catalog) -> String {
    statement
        .replace(" (only if inserted)", &catalog.text("sql.only_if_inserted"))
        .replace(" (take over)", &catalog.text("sql.take_over"))
        .replace(
            " (only with the current token)",
            &catalog.text("sql.only_current_token"),
        )
        .replace(
            " (only a newer token)",
            &catalog.text("sql.only_newer_token"),
        )
        .replace(" (recording op_id)", &catalog.text("sql.recording_op_id"))
        // Not a placeholder shown by mistake (#42): the version the request's If-Match
        // carries (the speaker's words put the number in first, `with_expected_version`).
        .replace("$expected", &catalog.text("sql.expected"))
}

fn op_args(
    op: OpId,
    world: &World,
    names: &ShortNames,
    catalog: &Catalog,
) -> Vec<(&'static str, String)> {
    let mut args = vec![("op", (op.0 + 1).to_string())];
    let Some(client_op) = world.client().op(op) else {
        return args;
    };
    let what = match &client_op.body {
        RequestBody::Charge { amount_cents, .. } => {
            format!("POST /charges {}", usd_in(*amount_cents, catalog))
        }
        RequestBody::Debit {
            account,
            amount,
            expected_version: Some(v),
            ..
        } => {
            format!("PATCH /accounts/{account} −{amount} (If-Match: \"{v}\")")
        }
        RequestBody::Debit {
            account, amount, ..
        } => format!("PATCH /accounts/{account} −{amount}"),
        RequestBody::Like { post, .. } => format!("POST /posts/{post}/likes"),
    };
    args.push(("what", what));
    let is_charge = matches!(client_op.body, RequestBody::Charge { .. });
    let key = client_op
        .key
        .as_deref()
        .and_then(|k| names.get(k))
        .map(str::to_owned);
    // A like says its op_id as it travels (the body's field the retry repeats), by the short
    // name the ledger panel shows.
    let op_id = match &client_op.body {
        RequestBody::Like {
            op_id: Some(id), ..
        } => Some(
            names
                .get(id)
                .map_or_else(|| id.as_str().to_owned(), str::to_owned),
        ),
        _ => None,
    };
    let key_part = match (is_charge, &key, op_id) {
        (true, Some(k), _) => catalog.fill("narr.with_key", &[("key", k.clone())]),
        (true, None, _) => catalog.text("narr.without_key"),
        (false, _, Some(id)) => catalog.fill("narr.with_op_id", &[("op_id", id)]),
        (false, _, None) => String::new(),
    };
    args.push(("key_part", key_part));
    args.push(("key", key.unwrap_or_default()));
    args.push(("user", client_op.user.0.to_string()));
    args
}

fn status_args(status: u16) -> Vec<(&'static str, String)> {
    vec![
        ("status", status.to_string()),
        ("reason", reason_phrase(status).to_owned()),
    ]
}

fn msg_args(
    id: idem_core::MsgId,
    world: &World,
    names: &ShortNames,
    catalog: &Catalog,
) -> Vec<(&'static str, String)> {
    let label = world
        .network()
        .get(id)
        .map(|m| packet_label(m, names, catalog))
        .unwrap_or_default();
    vec![("msg", msg_no(id, catalog)), ("label", label)]
}

fn note_args(
    note: &Note,
    world: &World,
    names: &ShortNames,
    catalog: &Catalog,
) -> Vec<(&'static str, String)> {
    match note {
        Note::ClientSends { op, attempt, .. } | Note::ClientTimedOut { op, attempt } => {
            let mut args = op_args(*op, world, names, catalog);
            args.push(("attempt", attempt.to_string()));
            args
        }
        Note::ClientBacksOff { op, wait_ms } => {
            let mut args = op_args(*op, world, names, catalog);
            args.push(("wait", duration_in(*wait_ms, catalog)));
            args
        }
        Note::OtherUserSameKey { user } => vec![("user", user.to_string())],
        Note::ClaimsExpired { count } => vec![("count", count.to_string())],
        Note::ClientGotForeignAnswer { op, status }
        | Note::ClientGotAnswer { op, status, .. }
        | Note::ClientIgnoredLateAnswer { op, status } => {
            let mut args = op_args(*op, world, names, catalog);
            args.extend(status_args(*status));
            args
        }
        Note::ClientRetryPressed { op }
        | Note::ClientGaveUp { op }
        | Note::ClientAsksStatus { op }
        | Note::ClientToldToWait { op }
        | Note::OperationStarted { op } => op_args(*op, world, names, catalog),
        Note::ApiReplays { status } | Note::ApiResponds { status } => status_args(*status),
        Note::ApiCrashed { phase }
        | Note::CrashArmed { phase }
        | Note::PauseArmed { phase }
        | Note::ApiPaused { phase }
        | Note::ApiResumes { phase } => {
            vec![(
                "phase",
                crate::labels::phase_in(*phase, world.scenario().story, catalog),
            )]
        }
        Note::LedgerRan { rows, statements } => vec![(
            "rows",
            statements
                .iter()
                .zip(rows)
                .map(|(statement, n)| format!("{} → {n}", localized_statement(statement, catalog)))
                .collect::<Vec<_>>()
                .join("; "),
        )],
        Note::ProcessorCharged { payment_id } | Note::ProcessorDeduplicated { payment_id } => {
            vec![("payment", payment_id.clone())]
        }
        Note::MessageLost { msg, .. } => msg_args(*msg, world, names, catalog),
        Note::MessageDuplicated { msg, copy } => {
            let mut args = msg_args(*msg, world, names, catalog);
            args.push(("copy", msg_no(*copy, catalog)));
            args
        }
        Note::MessageDelayed { msg, ms } => {
            let mut args = msg_args(*msg, world, names, catalog);
            args.push(("ms", duration_in(*ms, catalog)));
            args
        }
        Note::KeysEvicted { count } | Note::KeysExpired { count } | Note::ApiRecovers { count } => {
            vec![("count", count.to_string())]
        }
        Note::ClockAdvanced { ms } => vec![("ms", duration_in(*ms, catalog))],
        Note::ApiGetsToken { token } => vec![("token", token.to_string())],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::test_support::{end, narrated};
    use idem_core::{Action, Scenario, World};

    /// The keys the narration of a whole run uses, step by step, for the notes matching `pick`.
    fn keys_of(mut world: World, pick: fn(&Note) -> bool) -> Vec<&'static str> {
        let mut keys = Vec::new();
        while let Some(step) = world.step().cloned() {
            keys.extend(
                step.notes
                    .iter()
                    .filter(|n| pick(n))
                    .map(|n| note_key(n, &world)),
            );
        }
        keys
    }

    /// Issue 42: "Redis answers (nil)" needed a second read. A (nil) to SET NX says the key is
    /// taken; a (nil) to a GET says there is no such key.
    #[test]
    fn a_nil_says_what_it_means_here() {
        for (id, key) in [
            ("key", "store.nil"),
            ("concurrent-no-lock", "store.nil_get"),
        ] {
            for lang in crate::i18n::Lang::ALL {
                let c = lang.catalog();
                let mut world = World::new(&Scenario::by_id(id).expect("scenario"));
                let mut lines = Vec::new();
                while let Some(step) = world.step().cloned() {
                    if step.notes.iter().any(|n| matches!(n, Note::StoreNil)) {
                        lines.extend(narrate_plain(&step, &world, c).0);
                    }
                }
                assert!(lines.contains(&c.text(key)), "{id} {lang:?}: {lines:?}");
                let other = if key == "store.nil" {
                    "store.nil_get"
                } else {
                    "store.nil"
                };
                assert!(!lines.contains(&c.text(other)), "{id} {lang:?}: {lines:?}");
            }
        }
        let en = crate::i18n::Lang::En.catalog();
        assert!(en.text("store.nil").contains("already taken"));
        assert!(en.text("store.nil_get").contains("no such key"));
    }

    /// A key store without a record of the key cannot tell a first request from
    /// a retry whose record is gone (expired, evicted, never written before a crash), so both
    /// are narrated alike, as "no record", never as "a first request".
    #[test]
    fn a_key_without_a_record_is_not_called_a_first_request() {
        let new_key = |n: &Note| matches!(n, Note::ApiKeyIsNew);
        for id in ["ttl", "evict", "crash-window"] {
            let world = World::new(&Scenario::by_id(id).expect("scenario"));
            // The first request and a retry that found no record: the same note.
            assert_eq!(keys_of(world, new_key), ["api.key_new"; 2], "{id}");
        }
        for lang in Lang::ALL {
            let text = lang.catalog().text("api.key_new");
            let (no_record, first) = match lang {
                Lang::En => ("no record of this key", "this is a first request"),
                Lang::Ru => ("Записи об этом ключе нет", "это первый запрос"),
            };
            assert!(text.contains(no_record), "{text}");
            assert!(!text.contains(first), "{text}");
        }
    }

    /// Issue 42: the first request's note says what happens (no record of K1 yet, so the API
    /// goes on); the retry that found its record gone keeps "no record of this key".
    #[test]
    fn the_first_request_says_what_happens() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            let mut world = World::new(&Scenario::by_id("ttl").expect("ttl"));
            let mut said = Vec::new();
            while let Some(step) = world.step().cloned() {
                if step.notes.iter().any(|n| matches!(n, Note::ApiKeyIsNew)) {
                    said.push(narrate_plain(&step, &world, c).0.join(" "));
                }
            }
            assert_eq!(said.len(), 2, "{said:?}");
            let first = c.fill("api.key_new_first", &[("key", "K1".into())]);
            assert!(said[0].contains(&first), "{lang:?}: {}", said[0]);
            assert!(said[1].contains(&c.text("api.key_new")), "{}", said[1]);
            assert!(!said[1].contains(&first), "{}", said[1]);
        }
    }

    /// The words at the point of use are plain (a reader meets them before the glossary): the backoff says what it does,
    /// the moment between the commit and the stored answer says what a crash then would leave.
    #[test]
    fn the_retry_wait_and_the_unrecorded_answer_are_said_plainly() {
        let c = Lang::En.catalog();
        let wait = c.text("client.backs_off");
        assert!(
            !wait.contains("backoff") && !wait.contains("jitter"),
            "{wait}"
        );
        assert!(wait.contains("twice as long"), "{wait}");
        let recorded = c.text("api.records_key");
        assert!(!recorded.contains("a window"), "{recorded}");
        assert!(
            recorded.contains("the key would have no answer"),
            "{recorded}"
        );
        // Both are said in the stories that have them.
        let backs_off = |n: &Note| matches!(n, Note::ClientBacksOff { .. });
        let key = World::new(&Scenario::by_id("key").expect("key"));
        assert!(keys_of(key.clone(), backs_off).contains(&"client.backs_off"));
        let records = |n: &Note| matches!(n, Note::ApiRecordsKey);
        assert!(keys_of(key, records).contains(&"api.records_key"));
    }

    #[test]
    fn a_lost_refusal_is_not_narrated_as_work_done() {
        // Without a key the API refuses with 400; losing that answer loses a refusal.
        let mut refused = World::new(&Scenario::by_id("missing-key").expect("missing-key"));
        refused.apply(Action::LoseNextAck).expect("armed");
        let lost = |n: &Note| matches!(n, Note::MessageLost { .. });
        assert_eq!(keys_of(refused, lost), ["net.refusal_lost"]);
        // The naive story's lost answer is a 201: the server did the work.
        let naive = World::new(&Scenario::by_id("naive").expect("naive"));
        assert_eq!(keys_of(naive, lost), ["net.ack_lost"]);
    }

    #[test]
    fn arming_the_lost_answer_again_says_one_more_is_doomed() {
        let mut twice = World::new(&Scenario::by_id("key").expect("key"));
        let first = twice.apply(Action::LoseNextAck).expect("armed").clone();
        assert_eq!(note_key(&first.notes[0], &twice), "fault.lose_next_ack");
        let armed = |n: &Note| matches!(n, Note::NextAckWillBeLost);
        assert_eq!(keys_of(twice, armed), ["fault.lose_one_more_ack"]);
    }

    #[test]
    fn every_step_of_every_scenario_narrates_without_placeholders() {
        let catalog = Lang::En.catalog();
        for scenario in Scenario::all() {
            let mut world = World::new(&scenario);
            while let Some(step) = world.step().cloned() {
                for sentence in narrated(&step, &world, catalog) {
                    assert!(!sentence.contains('{'), "{}: {sentence}", scenario.id);
                    assert!(!sentence.is_empty());
                }
            }
        }
    }

    #[test]
    fn the_key_story_names_its_key_and_payment() {
        let catalog = Lang::En.catalog();
        let mut world = World::new(&Scenario::by_id("key").expect("key"));
        let mut text = Vec::new();
        while let Some(step) = world.step().cloned() {
            text.extend(narrated(&step, &world, catalog));
        }
        let all = text.join(" ");
        assert!(all.contains("Idempotency-Key K1"), "{all}");
        assert!(all.contains("pay_abc"), "{all}");
    }

    fn all_narration(id: &str, catalog: &Catalog) -> Vec<String> {
        let mut world = World::new(&Scenario::by_id(id).expect("scenario"));
        let mut text = Vec::new();
        while let Some(step) = world.step().cloned() {
            text.extend(narrated(&step, &world, catalog));
        }
        text
    }

    /// Review finding 5: one thing had three names; the narration now names the header the
    /// client sends (`If-Match: "5"`) and the API's SQL, never a field that is not sent.
    #[test]
    fn the_version_is_named_as_it_travels() {
        for lang in Lang::ALL {
            let all = all_narration("cas", lang.catalog()).join(" ");
            assert!(!all.contains("expected_version"), "{all}");
            assert!(!all.contains("ожидаемой"), "{all}");
            assert!(all.contains("If-Match: \"5\""), "{all}");
        }
    }

    /// A duplicated or delayed packet is named by its number, with its copy's number or how
    /// long it is held up.
    #[test]
    fn a_duplicate_and_a_delay_name_their_packets() {
        use idem_core::Action;
        let en = Lang::En.catalog();
        let said = |action: Action| {
            let mut world = World::new(
                &Scenario::by_id("key")
                    .expect("key")
                    .without_scripted_faults(),
            );
            world.run(1);
            let step = world.apply(action).expect("applies").clone();
            narrated(&step, &world, en).join(" ")
        };
        let first = idem_core::MsgId(0);
        let dup = said(Action::Duplicate(first));
        assert!(
            dup.contains("A second copy of #1 arrives (copy #2)"),
            "{dup}"
        );
        let held = said(Action::Delay(first, 2_000));
        assert!(held.contains("Message #1 is held up by 2.0 s"), "{held}");
    }

    /// A like says its op_id as it travels, by the short name the ledger panel shows
    /// (#42 item 2: the same value everywhere).
    #[test]
    fn the_like_names_its_op_id_as_it_travels() {
        let en = all_narration("counter", Lang::En.catalog()).join(" ");
        assert!(en.contains("with op_id op1 in its body"), "{en}");
        let naive = all_narration("counter-naive", Lang::En.catalog()).join(" ");
        assert!(!naive.contains("op_id"), "{naive}");
    }

    /// Defect 5: the final narration names the right cause.
    #[test]
    fn the_last_answer_is_explained_by_what_happened() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            let reuse = all_narration("key-reuse-no-fingerprint", c);
            assert!(
                reuse.contains(
                    &c.fill("client.got_own_earlier_answer", &[("status", "201".into())])
                ),
                "{reuse:?}"
            );
            assert!(!reuse
                .iter()
                .any(|l| l
                    .contains(&c.fill("client.got_foreign_answer", &[("status", "201".into())]))));
            let race = all_narration("cas-race", c);
            assert!(race.contains(&c.text("client.got_lost_race")), "{race:?}");
            assert!(
                !race.iter().any(|l| l.starts_with(
                    c.text("client.got_current_state")
                        .split(" If-Match: \"")
                        .next()
                        .unwrap_or_default()
                )),
                "{race:?}"
            );
            let cas = all_narration("cas", c);
            let current = c.text("client.got_current_state");
            assert!(cas.contains(&current), "{cas:?}");
            // Step 10 says what a real app does next, with the version to send: the account's
            // version once the debit went through (the words name it; the run checks it).
            let version = end("cas").ledger().accounts[0].version;
            assert!(
                current.contains(&format!("If-Match: \"{version}\"")),
                "{current}"
            );
            let leak = all_narration("scope-off", c);
            assert!(
                leak.contains(&c.fill("client.got_foreign_answer", &[("status", "201".into())])),
                "{leak:?}"
            );
        }
    }

    /// Defect 6: the claim names the store it runs in.
    #[test]
    fn the_claim_names_its_store() {
        let c = Lang::En.catalog();
        for id in ["crash-no-forward", "crash-one-tx", "fully-protected"] {
            let text = all_narration(id, c).join(" ");
            assert!(
                text.contains("in PostgreSQL (INSERT INTO idempotency_keys"),
                "{id}: {text}"
            );
            assert!(!text.contains("SET NX"), "{id}: {text}");
        }
        let text = all_narration("concurrent", c).join(" ");
        assert!(text.contains("in Redis (SET NX)"), "{text}");
    }

    /// Review finding 11: each step leads with plain words; the SQL and the legend of its row
    /// counts are the detail, the legend once per step, never in the plain lines.
    #[test]
    fn the_sql_of_a_step_is_detail_and_its_legend_is_said_once() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            let legend = c.text("ledger.legend");
            let mut world = World::new(&Scenario::by_id("counter").expect("counter"));
            let mut with_sql = 0;
            while let Some(step) = world.step().cloned() {
                let (plain, detail) = narrate_plain(&step, &world, c);
                assert!(
                    plain
                        .iter()
                        .all(|l| !l.contains("INSERT") && !l.contains(&legend)),
                    "{plain:?}"
                );
                if !detail.is_empty() {
                    with_sql += 1;
                    assert_eq!(
                        detail.iter().filter(|l| **l == legend).count(),
                        1,
                        "{detail:?}"
                    );
                    assert!(detail.iter().any(|l| l.contains("→")), "{detail:?}");
                }
                let mark = fault_mark(&step, c).is_some();
                assert_eq!(
                    plain.len(),
                    step.notes.len() + usize::from(mark),
                    "one plain line per note"
                );
            }
            assert!(with_sql >= 2, "the likes story runs SQL on two deliveries");
        }
    }

    /// Defect 11 and 12: SELECTs are not said to affect rows; message numbers count from 1
    /// like operations; Russian narration has Russian units and no English asides.
    #[test]
    fn narration_wording_is_exact_in_both_languages() {
        let en = all_narration("counter", Lang::En.catalog()).join(" ");
        assert!(en.contains(" → 1; SELECT likes FROM posts → 1"), "{en}");
        assert!(Lang::En
            .catalog()
            .text("ledger.legend")
            .contains("for a SELECT how many it returned"));
        assert!(en.contains("operation #1"), "{en}");
        assert!(!en.contains("#0 "), "{en}");
        let ru = all_narration("counter", Lang::Ru.catalog()).join(" ");
        assert!(ru.contains("только если строка вставлена"), "{ru}");
        assert!(!ru.contains("only if"), "{ru}");
        let ru = all_narration("ttl", Lang::Ru.catalog()).join(" ");
        assert!(ru.contains("на 25 ч;"), "{ru}");
        assert!(!ru.contains("25h"), "{ru}");
        let ru = all_narration("naive", Lang::Ru.catalog()).join(" ");
        assert!(ru.contains("ждёт 1,2 с перед повтором"), "{ru}");
        assert!(!ru.contains(" s "), "{ru}");
    }

    #[test]
    fn injected_faults_are_marked() {
        let mut w = World::new(&Scenario::by_id("key").expect("key"));
        w.run(3);
        let step = w
            .apply(Action::ConcurrentDuplicate)
            .expect("open op")
            .clone();
        let mark = fault_mark(&step, Lang::En.catalog()).expect("a fault");
        assert!(mark.starts_with("Fault:"), "{mark}");
        assert!(!mark.contains("script"), "{mark}");
        let first = World::new(&Scenario::by_id("key").expect("key"));
        let mut first = first;
        let step = first.step().expect("a step").clone();
        // The scripted "lose the next ack" is a fault too, and says it is the story's own.
        for lang in [Lang::En, Lang::Ru] {
            let mark = fault_mark(&step, lang.catalog()).expect("a fault");
            let script = lang
                .catalog()
                .fill("mark.scripted", &[("mark", String::new())]);
            assert!(mark.ends_with(script.trim()), "{mark}");
            assert!(mark.len() > script.len(), "{mark}");
        }
    }
}
