//! The lesson's claims about PostgreSQL and Redis, each checked on the real servers next to
//! the model.

use crate::common;

use std::sync::{mpsc, Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use common::{
    check, model_events, redis_connection, replay_batches, replay_redis, run, send, serial, Db,
    Reply,
};
use idem_conformance::plan::{Plan, Target};
use idem_conformance::view::ReturnedView;
use idem_conformance::RedisEvent;
use idem_core::ledger::{AccountRow, Ledger, PostRow, SqlBatch, Statement};
use idem_core::record::{KeyRecord, KeyStatus};
use idem_core::sql::{self, Schema};
use idem_core::store::{RedisCommand, RedisReply, Store};
use idem_core::{Note, Scenario, SimTime, UserId, World};

fn ledger(like_ops_unique: bool) -> Ledger {
    Ledger::new(
        AccountRow {
            id: 1,
            balance: 100,
            version: 5,
        },
        PostRow { id: 7, likes: 100 },
        like_ops_unique,
        true,
    )
}

fn batch(statements: Vec<Statement>, transaction: bool) -> SqlBatch {
    SqlBatch {
        statements,
        transaction,
        op: None,
    }
}

/// `(rows of the model, rows of the real server)` of every statement matching `pick`.
fn rows_of(c: &common::ScenarioCheck, pick: impl Fn(&Statement) -> bool) -> (Vec<u64>, Vec<u64>) {
    let mut model = Vec::new();
    let mut real = Vec::new();
    for (event, got) in c.harvest.sql.iter().zip(&c.sql_replay.real) {
        for (i, statement) in event.batch.statements.iter().enumerate() {
            if pick(statement) {
                model.push(event.results[i].rows);
                real.push(got[i].rows);
            }
        }
    }
    (model, real)
}

fn like_op_twice(unique: bool) -> (Vec<Vec<u64>>, Vec<Vec<u64>>, Vec<String>) {
    let initial = ledger(unique);
    let mut model = initial.clone();
    let insert = batch(
        vec![Statement::InsertLikeOp {
            op_id: "op-1".into(),
        }],
        false,
    );
    let events = model_events(&mut model, &[(0, insert.clone()), (100, insert)]);
    let mut replay = replay_batches(
        if unique {
            "like-op-unique"
        } else {
            "like-op-no-index"
        },
        &initial,
        &events,
    );
    let tables = replay.compare_tables(&model, SimTime(100));
    assert!(replay.problems.is_empty(), "{}", replay.problems.join("\n"));
    let model_rows = events
        .iter()
        .map(|e| e.results.iter().map(|r| r.rows).collect())
        .collect();
    let real_rows = replay
        .real
        .iter()
        .map(|r| r.iter().map(|r| r.rows).collect())
        .collect();
    (model_rows, real_rows, tables.like_ops)
}

#[test]
fn on_conflict_do_nothing_without_unique_index_lets_duplicates_through() {
    let _one_at_a_time = serial();
    let (model, real, like_ops) = like_op_twice(false);
    assert_eq!(model, [[1], [1]]);
    assert_eq!(
        real,
        [[1], [1]],
        "no unique index: nothing conflicts, both inserts land"
    );
    assert_eq!(like_ops, ["op-1", "op-1"]);
    // The story: the retry's op_id goes in again and the like is counted twice.
    let c = check(&Scenario::by_id("counter-no-index").expect("scenario"));
    c.assert_agrees();
    assert_eq!(c.tables.posts, [(7, 102)]);
    assert_eq!(c.tables.like_ops.len(), 2);
    assert_eq!(c.tables.like_ops[0], c.tables.like_ops[1]);
}

#[test]
fn on_conflict_do_nothing_with_unique_index_skips_the_duplicate() {
    let _one_at_a_time = serial();
    let (model, real, like_ops) = like_op_twice(true);
    assert_eq!(model, [[1], [0]]);
    assert_eq!(
        real,
        [[1], [0]],
        "the unique index makes the second insert a no-op"
    );
    assert_eq!(like_ops, ["op-1"]);
    let c = check(&Scenario::by_id("counter").expect("scenario"));
    c.assert_agrees();
    assert_eq!(c.tables.posts, [(7, 101)]);
    let (model, real) = rows_of(&c, |s| matches!(s, Statement::IncrementLikes { .. }));
    assert_eq!(model, [1, 0], "the retry's increment is skipped");
    assert_eq!(real, model);
}

#[test]
fn cas_retry_updates_zero_rows() {
    let _one_at_a_time = serial();
    let c = check(&Scenario::by_id("cas").expect("scenario"));
    c.assert_agrees();
    let (model, real) = rows_of(&c, |s| matches!(s, Statement::Debit { .. }));
    assert_eq!(
        model,
        [1, 0],
        "UPDATE … WHERE version = 5: the retry finds version 6"
    );
    assert_eq!(real, [1, 0]);
    assert_eq!(c.tables.accounts, [(1, 80, 6)]);
}

#[test]
fn naive_like_retry_increments_twice_to_102() {
    let _one_at_a_time = serial();
    let c = check(&Scenario::by_id("counter-naive").expect("scenario"));
    c.assert_agrees();
    let (model, real) = rows_of(&c, |s| matches!(s, Statement::IncrementLikes { .. }));
    assert_eq!(model, [1, 1]);
    assert_eq!(real, [1, 1]);
    let returned: Vec<&ReturnedView> = c
        .sql_replay
        .real
        .iter()
        .flatten()
        .map(|r| &r.returned)
        .collect();
    assert_eq!(
        returned,
        [&ReturnedView::Likes(101), &ReturnedView::Likes(102)]
    );
    assert_eq!(c.tables.posts, [(7, 102)]);
}

#[test]
fn crash_before_commit_leaves_no_rows() {
    let _one_at_a_time = serial();
    let scenario = Scenario::by_id("crash-one-tx").expect("scenario");
    // The model: the API dies just before sending the charge + key transaction.
    let mut crashed = World::new(&scenario);
    while let Some(step) = crashed.step() {
        if step
            .notes
            .iter()
            .any(|n| matches!(n, Note::ApiCrashed { .. }))
        {
            break;
        }
    }
    assert!(
        crashed.ledger().charges.is_empty(),
        "model: nothing was sent, nothing was written"
    );
    let before = idem_conformance::harvest(&crashed).expect("pairs");
    // The batch the dead handler was about to send is the one its retry sends later.
    let full = idem_conformance::run(&scenario);
    let whole = idem_conformance::harvest(&full).expect("pairs");
    let write = whole
        .sql
        .iter()
        .find(|e| e.batch.transaction)
        .expect("the charge is written in one transaction");
    assert!(matches!(
        write.batch.statements[0],
        Statement::InsertCharge { .. }
    ));

    let mut replay = common::replay_sql(&scenario, &before);
    let schema = Schema::of(crashed.ledger());
    let rendered = schema
        .render_batch(&write.batch, crashed.now())
        .expect("renders");
    // Real: the transaction runs in full but the connection dies before COMMIT.
    let mut doomed = replay.db.connect();
    run(&mut doomed, "BEGIN").expect("BEGIN");
    for unit in &rendered.units {
        let outcome = run(&mut doomed, &unit.sql).expect("statement");
        assert_eq!(outcome.count, 1, "{}", unit.sql);
    }
    let inside = run(&mut doomed, "SELECT count(*) AS n FROM charges").expect("select");
    assert_eq!(
        inside.rows[0].get("n"),
        Some("1"),
        "the transaction sees its own row"
    );
    let outside = replay.db.run("SELECT count(*) AS n FROM charges");
    assert_eq!(
        outside.rows[0].get("n"),
        Some("0"),
        "nobody else does before COMMIT"
    );
    drop(doomed);
    // Wait until the server has ended that backend (and rolled its transaction back).
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let others = replay
            .db
            .run("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
        if others.rows[0].get("n") == Some("0") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the dropped connection's backend did not go away"
        );
        thread::sleep(Duration::from_millis(10));
    }
    let tables = replay.compare_tables(crashed.ledger(), crashed.now());
    assert!(replay.problems.is_empty(), "{}", replay.problems.join("\n"));
    assert!(tables.charges.is_empty(), "rolled back: no charge row");
    assert_eq!(tables.keys.len(), 1);
    assert_eq!(
        tables.keys[0].status, "in_progress",
        "only the committed claim is left"
    );
    // Nothing half-done blocks the retry: the same transaction commits later, as in the model.
    replay.db.run("BEGIN");
    for unit in &rendered.units {
        assert_eq!(replay.db.run(&unit.sql).count, 1, "{}", unit.sql);
    }
    replay.db.run("COMMIT");
    assert!(write.results.iter().all(|r| r.rows == 1));
}

fn claim(key: &str) -> Statement {
    Statement::ClaimKey {
        key: key.into(),
        record: KeyRecord {
            user: UserId(1),
            fingerprint: "fp".into(),
            status: KeyStatus::InProgress,
        },
        locked_until: SimTime(5_000),
        expires_at: SimTime(SimTime::DAY),
        request: None,
    }
}

/// Waits until some backend of `db` waits for a lock.
fn await_lock_wait(db: &mut Db) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let waiting = db.run(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        if waiting.rows[0].get("n") == Some("1") {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the second claim never waited for the first"
        );
        thread::sleep(Duration::from_millis(10));
    }
}

/// Runs `sql` in two transactions at once: the first runs it and holds its transaction open,
/// the second runs it and must wait for a lock; then the first commits (or rolls back).
/// Returns both row counts.
fn race(db: &mut Db, sql: &str, first_commits: bool) -> (u64, u64) {
    let mut first = db.connect();
    run(&mut first, "BEGIN").expect("BEGIN");
    let first_rows = run(&mut first, sql).expect("first").count;
    let mut second = db.connect();
    let (tx, rx) = mpsc::channel();
    let sql2 = sql.to_owned();
    let racer = thread::spawn(move || {
        run(&mut second, "BEGIN").expect("BEGIN");
        let rows = run(&mut second, &sql2).expect("second").count;
        tx.send(rows).expect("send");
        run(&mut second, "COMMIT").expect("COMMIT");
    });
    await_lock_wait(db);
    assert!(
        rx.try_recv().is_err(),
        "the second statement returned before the first transaction ended"
    );
    run(
        &mut first,
        if first_commits { "COMMIT" } else { "ROLLBACK" },
    )
    .expect("end");
    let second_rows = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("the second statement returns");
    racer.join().expect("racer");
    (first_rows, second_rows)
}

fn render_one(schema: Schema, statement: Statement) -> String {
    let rendered = schema
        .render_batch(&batch(vec![statement], false), SimTime(0))
        .expect("renders");
    rendered.units[0].sql.clone()
}

#[test]
fn racing_claims_in_postgres_one_insert_wins() {
    let _one_at_a_time = serial();
    let initial = ledger(true);
    let schema = Schema::of(&initial);
    // The model: two claims of one key, one after the other.
    let mut model = initial.clone();
    let rows: Vec<u64> = (0..2)
        .map(|_| model.execute(SimTime(0), &batch(vec![claim("k1")], false))[0].rows)
        .collect();
    assert_eq!(rows, [1, 0]);
    // Real: concurrently. The second INSERT waits on the unique index for the first
    // transaction's outcome: after a COMMIT it conflicts, after a ROLLBACK it inserts.
    let mut db = Db::with_ledger("race-claim", &initial);
    assert_eq!(
        race(&mut db, &render_one(schema, claim("k1")), true),
        (1, 0)
    );
    assert_eq!(
        race(&mut db, &render_one(schema, claim("k2")), false),
        (1, 1)
    );
    let keys = db.run("SELECT key FROM idempotency_keys ORDER BY key");
    let keys: Vec<&str> = keys.rows.iter().filter_map(|r| r.get("key")).collect();
    assert_eq!(keys, ["k1", "k2"], "exactly one row per key");
}

#[test]
fn racing_debits_with_the_same_version_one_wins() {
    let _one_at_a_time = serial();
    let initial = ledger(true);
    let debit = Statement::Debit {
        account: 1,
        amount: 20,
        expected_version: Some(5),
        op_id: None,
    };
    let mut model = initial.clone();
    let rows: Vec<u64> = (0..2)
        .map(|_| model.execute(SimTime(0), &batch(vec![debit.clone()], false))[0].rows)
        .collect();
    assert_eq!(rows, [1, 0]);
    // Real: the second UPDATE waits for the row lock, then re-checks `version = 5` on the
    // committed row (READ COMMITTED) and finds version 6.
    let mut db = Db::with_ledger("race-cas", &initial);
    let sql = render_one(Schema::of(&initial), debit);
    assert_eq!(race(&mut db, &sql, true), (1, 0));
    assert_eq!(db.tables().accounts, [(1, 80, 6)]);
    assert_eq!(db.expected_tables(&model).accounts, [(1, 80, 6)]);
}

#[test]
fn racing_set_nx_in_redis_exactly_one_ok() {
    let _one_at_a_time = serial();
    let command = RedisCommand::Set {
        key: "idem:user_1:race".into(),
        value: KeyRecord {
            user: UserId(1),
            fingerprint: "fp".into(),
            status: KeyStatus::InProgress,
        },
        nx: true,
        ttl_ms: 5_000,
    };
    let mut model = Store::default();
    let model_replies = [
        model.execute(SimTime(0), &command),
        model.execute(SimTime(0), &command),
    ];
    assert_eq!(model_replies, [RedisReply::Ok, RedisReply::Nil]);

    send(&mut redis_connection(), &["FLUSHALL".to_owned()]);
    let argv = sql::redis_argv(&command);
    let start = Arc::new(Barrier::new(2));
    let racers: Vec<_> = (0..2)
        .map(|_| {
            let (argv, start) = (argv.clone(), Arc::clone(&start));
            let mut con = redis_connection();
            thread::spawn(move || {
                start.wait();
                send(&mut con, &argv)
            })
        })
        .collect();
    let mut replies: Vec<Reply> = racers
        .into_iter()
        .map(|r| r.join().expect("racer"))
        .collect();
    replies.sort_by_key(|r| r != &Reply::Ok);
    assert_eq!(replies, [Reply::Ok, Reply::Nil], "exactly one SET NX wins");
}

#[test]
fn set_nx_px_expires_after_the_scaled_ttl() {
    let _one_at_a_time = serial();
    // The model, like Redis: a 24 h claim still answers at 24 h exactly and is gone after.
    let key = "idem:user_1:ttl";
    let set = RedisCommand::Set {
        key: key.into(),
        value: KeyRecord {
            user: UserId(1),
            fingerprint: "fp".into(),
            status: KeyStatus::InProgress,
        },
        nx: true,
        ttl_ms: SimTime::DAY,
    };
    let get = RedisCommand::Get { key: key.into() };
    let mut model = Store::default();
    let script = [
        (0, set.clone()),
        (1_000, get.clone()),
        (2_000, set.clone()),
        (SimTime::DAY, get.clone()),
        (SimTime::DAY + 1, get.clone()),
        (SimTime::DAY + 1, set),
        (SimTime::DAY + 2, get),
    ];
    let events: Vec<RedisEvent> = script
        .iter()
        .map(|(at, command)| RedisEvent::Command {
            step: 0,
            at: SimTime(*at),
            command: command.clone(),
            reply: model.execute(SimTime(*at), command),
        })
        .collect();
    let expected_nil_at = events.iter().position(
        |e| matches!(e, RedisEvent::Command { reply: RedisReply::Nil, at, .. } if at.ms() == SimTime::DAY + 1),
    );
    assert_eq!(
        expected_nil_at,
        Some(4),
        "model: GET a millisecond after 24 h is (nil)"
    );

    // Real: the 24 h TTL becomes a PX of a few dozen ms, and the replay sleeps past it.
    let replay = replay_redis("ttl-24h", &events, SimTime(SimTime::DAY + 2), &model);
    assert!(replay.problems.is_empty(), "{}", replay.problems.join("\n"));
    let replies: Vec<Reply> = replay.real.into_iter().flatten().collect();
    assert_eq!(replies[0], Reply::Ok);
    assert!(matches!(replies[1], Reply::Value(_)));
    assert_eq!(replies[2], Reply::Nil, "SET NX on a live key");
    assert!(
        matches!(replies[3], Reply::Value(_)),
        "alive at its last millisecond"
    );
    assert_eq!(replies[4], Reply::Nil, "gone after the TTL");
    assert_eq!(replies[5], Reply::Ok, "and free to claim again");
    // The 24 h are never slept, whatever the machine's speed: the plan puts the first key's
    // expiry at its one boundary, just before the GET a millisecond after 24 h, and the key set
    // again at 24 h + 1 ms outlives the replay.
    let plan = Plan::new(&events, SimTime(SimTime::DAY + 2));
    assert_eq!(plan.boundaries, 1);
    assert_eq!(plan.wait_before[4], Some(1));
    assert_eq!(plan.target[0], Some(Target::Boundary(1)));
    assert_eq!(
        plan.target[2],
        Some(Target::Beyond),
        "its SET NX was refused"
    );
    assert_eq!(plan.target[5], Some(Target::Beyond));

    // The same by hand: PX 300 ms, wait past it, GET → (nil).
    let mut con = redis_connection();
    send(&mut con, &["FLUSHALL".to_owned()]);
    let argv = |ttl: &str| ["SET", key, "v", "NX", "PX", ttl].map(str::to_owned);
    assert_eq!(send(&mut con, &argv("300")), Reply::Ok);
    assert_eq!(send(&mut con, &argv("300")), Reply::Nil);
    thread::sleep(Duration::from_millis(320));
    assert_eq!(
        send(&mut con, &["GET".to_owned(), key.to_owned()]),
        Reply::Nil
    );
    assert_eq!(send(&mut con, &argv("300")), Reply::Ok);
}

#[test]
fn ttl_story_claims_again_after_the_key_expired() {
    let _one_at_a_time = serial();
    let c = check(&Scenario::by_id("ttl").expect("scenario"));
    c.assert_agrees();
    let claims: Vec<(u64, &RedisReply, &Reply)> = c
        .harvest
        .redis
        .iter()
        .zip(&c.redis_replay.real)
        .filter_map(|(e, real)| match (e, real) {
            (
                RedisEvent::Command {
                    at,
                    command: RedisCommand::Set { nx: true, .. },
                    reply,
                    ..
                },
                Some(real),
            ) => Some((at.ms(), reply, real)),
            _ => None,
        })
        .collect();
    let last = claims.last().expect("claims");
    assert!(last.0 > SimTime::DAY, "the retry comes after 25 h");
    assert_eq!(
        (last.1, last.2),
        (&RedisReply::Ok, &Reply::Ok),
        "the key had expired: claimed again"
    );
    assert!(c.slept < Duration::from_secs(2), "slept {:?}", c.slept);
}

/// Redis keeps a key through the millisecond its expiry names: it expires a key when
/// `now > expiry`, so `PTTL` reads 0 (alive, no time left) before the key is gone. The model's
/// store drops it when `expires_at <= now`, one millisecond earlier. The replays never land on
/// that tie (their time mapping follows the model's rule); this test pins the real behaviour
/// and the model's, so a change to either shows up here.
#[test]
fn redis_keeps_a_key_through_its_last_millisecond() {
    let _one_at_a_time = serial();
    let mut con = redis_connection();
    send(&mut con, &["FLUSHALL".to_owned()]);
    let mut alive_at_expiry = false;
    for _ in 0..20 {
        send(
            &mut con,
            &["SET", "edge", "v", "PX", "20"].map(str::to_owned),
        );
        loop {
            let ttl: i64 = redis::cmd("PTTL")
                .arg("edge")
                .query(&mut con)
                .expect("PTTL");
            alive_at_expiry |= ttl == 0;
            if ttl < 0 {
                break;
            }
        }
        if alive_at_expiry {
            break;
        }
    }
    assert!(
        alive_at_expiry,
        "real Redis: PTTL 0 (still there) at the expiry millisecond"
    );

    let mut model = Store::default();
    let set = RedisCommand::Set {
        key: "edge".into(),
        value: KeyRecord {
            user: UserId(1),
            fingerprint: "fp".into(),
            status: KeyStatus::InProgress,
        },
        nx: false,
        ttl_ms: 20,
    };
    model.execute(SimTime(0), &set);
    let get = RedisCommand::Get { key: "edge".into() };
    assert!(matches!(
        model.execute(SimTime(20), &get),
        RedisReply::Value(_)
    ));
    assert_eq!(
        model.execute(SimTime(21), &get),
        RedisReply::Nil,
        "the model changed its expiry rule: update plan.rs's tie rule (`at(o) > expires`) to match"
    );
}

/// Reconcile's op_id and the status check, on the real server: a debit that applied records
/// its op_id in the same statement (a retry matches 0 rows and records nothing), the lookup
/// finds exactly that id, and the status check finds a payment by user, key and amount only.
#[test]
fn the_op_id_lookup_and_the_status_check_read_what_the_model_reads() {
    let _one_at_a_time = serial();
    let initial = ledger(true);
    let mut model = initial.clone();
    let debit = Statement::Debit {
        account: 1,
        amount: 20,
        expected_version: Some(5),
        op_id: Some("op-1".into()),
    };
    let lookups = |op_id: &str| Statement::SelectAccountOp {
        op_id: op_id.into(),
    };
    let status = |user: u32, key: &str, amount_cents: u64| Statement::SelectChargeByKey {
        user: UserId(user),
        key: key.into(),
        amount_cents,
    };
    let charge = Statement::InsertCharge {
        payment_id: "pay_1".into(),
        user: UserId(1),
        amount_cents: 10_000,
        idempotency_key: Some("k-1".into()),
        fence: None,
    };
    let events = model_events(
        &mut model,
        &[
            (0, batch(vec![debit.clone(), lookups("op-1")], false)),
            (
                100,
                batch(vec![debit, lookups("op-1"), lookups("op-2")], false),
            ),
            (200, batch(vec![charge], false)),
            (
                300,
                batch(
                    vec![
                        status(1, "k-1", 10_000),
                        status(1, "k-1", 15_000),
                        status(2, "k-1", 10_000),
                        status(1, "k-2", 10_000),
                    ],
                    false,
                ),
            ),
        ],
    );
    let rows: Vec<Vec<u64>> = events
        .iter()
        .map(|e| e.results.iter().map(|r| r.rows).collect())
        .collect();
    assert_eq!(rows, [vec![1, 1], vec![0, 1, 0], vec![1], vec![1, 0, 0, 0]]);
    let mut replay = replay_batches("op-id-and-status", &initial, &events);
    let tables = replay.compare_tables(&model, SimTime(300));
    assert!(replay.problems.is_empty(), "{}", replay.problems.join("\n"));
    assert_eq!(tables.account_ops, ["op-1"]);
    assert!(matches!(
        &replay.real[3][0].returned,
        ReturnedView::Charge((id, 1, 10_000, Some(key))) if id == "pay_1" && key == "k-1"
    ));
}
