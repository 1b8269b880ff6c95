//! The payment API and the world, pinned against the survivors of the full
//! `bash scripts/mutants.sh api world` run and of the 2026-12-07 `api` run
//! (docs/notes-mutants.md). Every test runs in milliseconds.

use crate::support;

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use idem_core::api::{Api, ApiInput, ApiOutput, RESTART_MS};
use idem_core::http::{HttpRequest, HttpResponse, RequestBody, ResponseBody};
use idem_core::ledger::{Returned, SqlBatch, Statement, StatementResult};
use idem_core::message::{DropReason, Payload};
use idem_core::sql::Schema;
use idem_core::{
    Action, ActionError, Cause, HandlerRef, MsgId, Node, Note, OpId, Protections, RunEnd, Scenario,
    SimTime, Text, UserId, World,
};
use support::*;

fn hash_of(value: &impl Hash) -> u64 {
    let mut h = DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

#[test]
fn the_apis_hash_sees_every_step_of_a_handler() {
    // The explorer tells situations apart by hashing the world (the API included): a handler
    // moving to its next phase, or getting the processor's answer, is a new situation even
    // when nothing else about the API changed.
    for id in ["naive", "key", "fully-protected"] {
        let mut world = World::new(&scenario(id));
        let mut changes = 0;
        let mut previous = world.api().clone();
        let mut steps = 0;
        while world.step().is_some() {
            steps += 1;
            assert!(steps < STEP_BOUND, "{id}: the run ends");
            let api = world.api().clone();
            if api != previous {
                assert_ne!(hash_of(&api), hash_of(&previous), "{id}: {api:?}");
                if api.handlers().count() == previous.handlers().count() {
                    changes += 1;
                }
            }
            previous = api;
        }
        assert!(changes > 0, "{id}: a handler changed in place");
    }
}

#[test]
fn a_crashed_api_is_down_until_its_restart_and_loses_what_reaches_it() {
    let mut world = World::new(&scenario("crash-window"));
    assert!(world.api().is_up());
    assert_eq!(world.api().down_until(), None);
    let mut steps = 0;
    while !world
        .steps()
        .last()
        .is_some_and(|s| s.notes.iter().any(|n| matches!(n, Note::ApiCrashed { .. })))
    {
        world.step().expect("the armed crash fires");
        steps += 1;
        assert!(steps < STEP_BOUND, "the crash fired");
    }
    let crashed_at = world.now();
    assert!(!world.api().is_up(), "down after the crash");
    assert_eq!(world.api().down_until(), Some(crashed_at.plus(RESTART_MS)));
    // The client retries at once: its request reaches the API while it is down.
    let retry = world.apply(Action::RetryNow).expect("the charge is open");
    let request = *retry.sent.last().expect("the retry is on the wire");
    let mut lost = false;
    while !world.api().is_up() {
        let step = world.step().expect("the API comes back");
        lost |= step.cause == Cause::Deliver(request)
            && step.notes.contains(&Note::MessageLost {
                msg: request,
                reason: DropReason::ApiDown,
            });
        steps += 1;
        assert!(steps < STEP_BOUND, "the API restarted");
    }
    assert!(lost, "the retry reached a down API and was lost");
    assert_eq!(
        world.now(),
        crashed_at.plus(RESTART_MS),
        "up after one restart time"
    );
    assert_eq!(world.api().down_until(), None);
    assert_eq!(
        world.steps().last().map(|s| &s.cause),
        Some(&Cause::ApiRestart)
    );
    // The restarted API numbers its handlers in a new epoch: a reply meant for a handler of
    // the crashed process can never be taken for one of the new process.
    world
        .apply(Action::RetryNow)
        .expect("the charge is still open");
    while world.api().handlers().next().is_none() {
        world.step().expect("the retry reaches the API");
        steps += 1;
        assert!(steps < STEP_BOUND, "a handler started");
    }
    let (handler, _) = world.api().handlers().next().expect("the retry's handler");
    assert_eq!(handler.epoch, 1);
}

/// Every response the API put on the wire (lost ones too), in order.
fn responses(world: &World) -> Vec<&HttpResponse> {
    world
        .network()
        .messages()
        .iter()
        .filter_map(|m| match &m.payload {
            Payload::Response(r) => Some(r),
            _ => None,
        })
        .collect()
}

#[test]
fn a_debits_answers_carry_the_accounts_balance_and_version() {
    // The ack of the applied debit is lost; the retry is refused by the version check. Both
    // answers say what the account holds after the one debit.
    let s = scenario("cas");
    let world = run_scenario(&s);
    let (balance, version) = (s.balance - 20, s.version + 1);
    let answers: Vec<_> = responses(&world)
        .iter()
        .map(|r| (r.status, r.body.clone()))
        .collect();
    assert_eq!(
        answers,
        [
            (200, ResponseBody::Debited { balance, version }),
            (412, ResponseBody::PreconditionFailed { balance, version }),
        ]
    );
}

#[test]
fn a_likes_answer_carries_the_posts_like_count() {
    // With op_id dedup the retry changes nothing and says so with the same count.
    let s = scenario("counter");
    let world = run_scenario(&s);
    let likes = s.likes + 1;
    let answers: Vec<_> = responses(&world).iter().map(|r| r.body.clone()).collect();
    assert_eq!(
        answers,
        [ResponseBody::Liked { likes }, ResponseBody::Liked { likes }]
    );
    assert_eq!(
        note_keys(&world)
            .iter()
            .filter(|k| **k == "api.like_skipped")
            .count(),
        1,
        "the retry was recognised"
    );
}

#[test]
fn a_charges_answer_is_the_payment_and_its_replay_is_the_same() {
    for (id, payments) in [("naive", 2), ("key", 1)] {
        let world = run_scenario(&scenario(id));
        let statement = &world.processor().statement;
        assert_eq!(statement.len(), payments, "{id}");
        let answers = responses(&world);
        assert_eq!(
            answers.len(),
            2,
            "{id}: the lost ack and the retry's answer"
        );
        for (i, r) in answers.iter().enumerate() {
            // Without a key each attempt is its own payment; with it the retry replays the first.
            let line = &statement[i.min(payments - 1)];
            assert_eq!(r.status, 201, "{id}");
            assert_eq!(
                r.body,
                ResponseBody::Charged {
                    payment_id: line.payment_id.clone(),
                    amount_cents: 10_000,
                    customer: line.user,
                },
                "{id}"
            );
            assert!(!line.payment_id.is_empty(), "{id}");
            assert_eq!(r.replayed, id == "key" && i == 1, "{id}");
        }
    }
}

#[test]
fn a_bounded_run_says_whether_it_settled() {
    let s = scenario("naive");
    let whole = run_scenario(&s);
    let n = whole.step_count() as usize;
    assert!(n > 2);
    let mut world = World::new(&s);
    assert_eq!(world.run(n - 1), RunEnd::BoundReached);
    assert_eq!(world.step_count() as usize, n - 1);
    assert!(!world.is_quiescent());
    // The bound's last step is the run's last: it settled.
    assert_eq!(world.run(1), RunEnd::Quiescent);
    assert_eq!(world, whole);
    assert_eq!(world.run(5), RunEnd::Quiescent);
    assert_eq!(world.step_count() as usize, n);
}

#[test]
fn a_replay_applies_each_action_at_its_step_and_names_the_one_refused() {
    let s = scenario("naive").without_scripted_faults();
    let mut seen = 0;
    let world = World::replay_each(&s, &[(1, Action::LoseNextAck)], 6, |w| {
        seen += 1;
        assert_eq!(w.step_count(), seen, "called after every step");
    })
    .expect("replays");
    assert_eq!(seen, 6);
    assert_eq!(world.injected(), [(1, Action::LoseNextAck)]);
    assert_eq!(world.steps()[1].cause, Cause::Injected(Action::LoseNextAck));
    assert!(world.next_ack_will_be_lost() || world.network().messages().iter().any(|m| m.doomed));

    let refused = World::replay_each(
        &s,
        &[(1, Action::LoseNextAck), (3, Action::Drop(MsgId(99)))],
        10,
        |_| {},
    )
    .expect_err("no message 99");
    assert_eq!(refused, (1, ActionError::NoSuchMessage(MsgId(99))));

    // Actions still pending when the run settles are applied then, in order.
    let settled = run_scenario(&s).step_count();
    let world =
        World::replay(&s, &[(settled + 50, Action::EvictKeys)], settled + 1).expect("replays");
    assert_eq!(world.injected(), [(settled, Action::EvictKeys)]);
}

#[test]
fn a_like_without_op_id_that_changes_nothing_is_not_called_a_duplicate() {
    // "Reuse the key" on a like story likes another post, which the table does not have: the
    // UPDATE changes no row. Only the op_id batch (insert, then update) can be skipped as a
    // duplicate; this lone UPDATE is not one.
    let mut s = scenario("counter-naive").without_scripted_faults();
    s.protections.op_dedup = false;
    let mut world = World::new(&s);
    world.step().expect("the like starts");
    world
        .apply(Action::ReuseKeyOtherBody)
        .expect("an operation exists");
    assert_eq!(world.run(STEP_BOUND), RunEnd::Quiescent);
    let updates: Vec<_> = world
        .steps()
        .iter()
        .flat_map(|s| &s.notes)
        .filter_map(|n| match n {
            Note::LedgerRan { rows, .. } => Some(rows.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        updates,
        [vec![1], vec![0]],
        "one like counted, one post missing"
    );
    assert!(!note_keys(&world).contains(&"api.like_skipped"));
    assert_eq!(responses(&world).len(), 2);
    assert!(responses(&world).iter().all(|r| r.status == 200));
}

// Written against the survivors of the 2026-12-07 `api` run (docs/notes-mutants.md).

/// Every batch the API sent the ledger that writes a charge row, as the page's ledger panel
/// shows it and the conformance tests send it to PostgreSQL (`BEGIN` … `COMMIT` around a
/// transaction).
fn charge_writes(world: &World) -> Vec<Vec<String>> {
    let schema = Schema::of(world.ledger());
    world
        .network()
        .messages()
        .iter()
        .filter_map(|m| match &m.payload {
            Payload::Sql(_, batch)
                if batch
                    .statements
                    .iter()
                    .any(|s| matches!(s, Statement::InsertCharge { .. })) =>
            {
                let rendered = schema.render_batch(batch, m.sent_at).expect("it renders");
                Some(rendered.statements())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_ledger_write_is_one_transaction_exactly_when_it_writes_more_than_the_charge() {
    // The charge row alone is one INSERT, with nothing to commit together. With the key in
    // the ledger's transaction, the charge and the key's completion commit together or not at
    // all; with fencing, the token's check and the charge do.
    for id in ["naive", "key"] {
        let writes = charge_writes(&run(id));
        assert!(!writes.is_empty(), "{id}: the charge is written");
        for write in writes {
            assert_eq!(write.len(), 1, "{id}: {write:?}");
            assert!(
                write[0].starts_with("INSERT INTO charges"),
                "{id}: {write:?}"
            );
        }
    }
    let together = [
        ("fully-protected", "UPDATE idempotency_keys"),
        ("lease-fencing", "INSERT INTO fences"),
    ];
    for (id, beside) in together {
        let writes = charge_writes(&run(id));
        assert!(!writes.is_empty(), "{id}: the charge is written");
        for write in writes {
            assert_eq!(write.first().map(String::as_str), Some("BEGIN"), "{id}");
            assert_eq!(write.last().map(String::as_str), Some("COMMIT"), "{id}");
            assert!(
                write.iter().any(|s| s.starts_with("INSERT INTO charges")),
                "{id}: {write:?}"
            );
            assert!(
                write.iter().any(|s| s.starts_with(beside)),
                "{id}: {beside} in {write:?}"
            );
        }
    }
}

#[test]
fn reconciling_needs_the_compare_and_set_and_records_nothing_without_it() {
    // Reconciling answers a compare-and-set that failed because this very debit was applied
    // before. Without the compare-and-set nothing fails, so the API sends the plain debit,
    // records no operation id and reads none back, though the phone sends one.
    let debits = |p: Protections| {
        let world = run_scenario(&scenario("cas-naive").with_protections(p));
        let sent_op_id = requests(&world)
            .iter()
            .any(|r| matches!(&r.body, RequestBody::Debit { op_id: Some(_), .. }));
        assert!(sent_op_id, "the phone tags its debit: {p:?}");
        let batches: Vec<Vec<Statement>> = world
            .network()
            .messages()
            .iter()
            .filter_map(|m| match &m.payload {
                Payload::Sql(_, batch) => Some(batch.statements.clone()),
                _ => None,
            })
            .collect();
        (batches, world.ledger().account_ops.len())
    };
    let reads_op = |batch: &Vec<Statement>| {
        batch
            .iter()
            .any(|s| matches!(s, Statement::SelectAccountOp { .. }))
    };
    let (batches, recorded) = debits(Protections {
        reconcile: true,
        ..Protections::NONE
    });
    assert!(!batches.is_empty(), "the debits reach the ledger");
    for batch in &batches {
        assert!(
            batch.iter().all(|s| matches!(
                s,
                Statement::Debit {
                    expected_version: None,
                    op_id: None,
                    ..
                } | Statement::SelectAccount { .. }
            )),
            "a plain debit and the account read back: {batch:?}"
        );
    }
    assert_eq!(
        recorded, 0,
        "no operation recorded without the compare-and-set"
    );
    // With it, each debit records its id and reads whether it is applied.
    let (batches, recorded) = debits(Protections {
        reconcile: true,
        cas: true,
        ..Protections::NONE
    });
    assert!(batches.iter().all(reads_op), "{batches:?}");
    assert_eq!(recorded, 1, "the debit applied once, with its id");
}

/// A client request (attempt 1, no status check).
fn request(key: Option<&str>, body: RequestBody) -> HttpRequest {
    HttpRequest {
        user: UserId::ALICE,
        idempotency_key: key.map(Text::from),
        body,
        attempt: 1,
        op: OpId(0),
        status_query: false,
    }
}

/// Everything the API wants done, drained.
fn drain(api: &mut Api) -> Vec<ApiOutput> {
    std::iter::from_fn(|| api.poll()).collect()
}

/// The ledger batches in `out`, with the handler that sent each.
fn sql(out: &[ApiOutput]) -> Vec<(HandlerRef, &SqlBatch)> {
    out.iter()
        .filter_map(|o| match o {
            ApiOutput::Send(Node::Ledger, Payload::Sql(h, batch)) => Some((*h, batch)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_likes_op_id_is_used_only_with_deduplication_on() {
    // The op_id is worth something only with the server's `like_ops` table: without the
    // protection the like is a plain increment, whatever the request carries; with it, a like
    // without an op_id has nothing to deduplicate by. (The world's phone sends an op_id
    // exactly when the protection is on; these are the API's answers to any client.)
    let like = |op_dedup: bool, op_id: Option<&str>| {
        let p = Protections {
            op_dedup,
            unique_index: op_dedup,
            ..Protections::NONE
        };
        let mut api = Api::default();
        let body = RequestBody::Like {
            post: Scenario::POST,
            op_id: op_id.map(Text::from),
        };
        api.handle(
            SimTime::ZERO,
            ApiInput::Request(MsgId(1), request(None, body)),
            &p,
        );
        let out = drain(&mut api);
        let narrated = out.iter().find_map(|o| match o {
            ApiOutput::Note(Note::ApiLikes { dedup }) => Some(*dedup),
            _ => None,
        });
        let batches = sql(&out);
        assert_eq!(batches.len(), 1, "one batch: {out:?}");
        let first = batches[0].1.statements.first().cloned();
        (narrated, first)
    };
    let plain = Some(Statement::IncrementLikes {
        post: Scenario::POST,
        only_if_inserted: false,
    });
    assert_eq!(like(false, Some("op-1")), (Some(false), plain.clone()));
    assert_eq!(like(true, None), (Some(false), plain));
    assert_eq!(
        like(true, Some("op-1")),
        (
            Some(true),
            Some(Statement::InsertLikeOp {
                op_id: Text::from("op-1")
            })
        )
    );
}

#[test]
fn a_request_during_the_recovery_sweep_is_answered_as_itself() {
    // The recovery job asks the ledger for stale claims; meanwhile a charge arrives and claims
    // its key. The network may bring the claim's answer back first (a delay fault on the
    // other): it is the charge's, which goes on to the processor, and the sweep's answer,
    // when it comes, is the sweep's.
    let p = Protections::ALL;
    let mut api = Api::default();
    api.restart(SimTime::ZERO, &p);
    let due = api.sweep_at().expect("the recovery job is scheduled");
    drain(&mut api);
    api.sweep(due);
    let swept = drain(&mut api);
    let [(sweeper, _)] = sql(&swept)[..] else {
        panic!("the sweep asks the ledger once: {swept:?}");
    };
    let charge = RequestBody::Charge {
        amount_cents: 10_000,
        currency: Text::from("usd"),
    };
    let arrived = ApiInput::Request(MsgId(1), request(Some("k-1"), charge));
    api.handle(due, arrived, &p);
    let claimed = drain(&mut api);
    let [(claimant, _)] = sql(&claimed)[..] else {
        panic!("the charge claims its key in the ledger: {claimed:?}");
    };
    assert_ne!(claimant, sweeper, "two handlers, two names");
    let won = StatementResult {
        rows: 1,
        returned: Returned::Nothing,
    };
    api.handle(
        due,
        ApiInput::Reply(Payload::SqlResults(claimant, vec![won])),
        &p,
    );
    let out = drain(&mut api);
    assert!(
        out.contains(&ApiOutput::Note(Note::ApiKeyIsNew)),
        "the charge won its claim: {out:?}"
    );
    assert!(
        out.iter()
            .any(|o| matches!(o, ApiOutput::Send(Node::Processor, Payload::Charge(h, _)) if *h == claimant)),
        "and calls the processor: {out:?}"
    );
    let none_stale = StatementResult {
        rows: 0,
        returned: Returned::Keys(Vec::new()),
    };
    let answer = Payload::SqlResults(sweeper, vec![none_stale]);
    api.handle(due, ApiInput::Reply(answer), &p);
    assert_eq!(
        drain(&mut api),
        [ApiOutput::Note(Note::ApiRecovers { count: 0 })],
        "the sweep found nothing stale"
    );
    assert_eq!(api.handlers().count(), 1, "the charge goes on");
}
