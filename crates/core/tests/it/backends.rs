//! The backends one call at a time: the Redis store and the PostgreSQL ledger at their
//! boundaries (expiry to the millisecond, scoped and unscoped keys), and the verdict's figures.
//! The stories exercise them as a whole; these tests pin the details a story run cannot tell
//! apart (found by mutation testing, `scripts/mutants.sh`).

use crate::support;

use idem_core::ledger::{AccountRow, Ledger, PostRow, Returned, SqlBatch, Statement};
use idem_core::record::{KeyRecord, KeyStatus};
use idem_core::store::{RedisCommand, RedisReply, Store};
use idem_core::{Invariant, SimTime, UserId, World};
use support::*;

fn record(user: u32) -> KeyRecord {
    KeyRecord {
        user: UserId(user),
        fingerprint: "ab".into(),
        status: KeyStatus::InProgress,
    }
}

fn set(key: &str, nx: bool, ttl_ms: u64) -> RedisCommand {
    RedisCommand::Set {
        key: key.into(),
        value: record(1),
        nx,
        ttl_ms,
    }
}

#[test]
fn the_store_knows_its_next_expiry() {
    let mut store = Store::default();
    assert_eq!(store.next_expiry(), None);
    store.execute(SimTime(10), &set("a", true, 500));
    store.execute(SimTime(20), &set("b", true, 100));
    assert_eq!(store.next_expiry(), Some(SimTime(120)));
    // "b" lives through its last millisecond and is gone the next one.
    assert!(store.expire(SimTime(120)).is_empty());
    let gone = store.expire(SimTime(121));
    assert_eq!(gone.len(), 1);
    assert_eq!(gone[0].0, "b");
    assert_eq!(store.next_expiry(), Some(SimTime(510)));
    assert_eq!(store.evict_all(), 1);
    assert_eq!(store.next_expiry(), None);
}

#[test]
fn redis_commands_render_as_redis_cli_shows_them() {
    assert_eq!(RedisCommand::Get { key: "k".into() }.render(), "GET k");
    let json = record(1).to_json(12);
    assert_eq!(
        set("idem:k", true, 500).render(),
        format!("SET idem:k '{json}' NX PX 500")
    );
    assert_eq!(
        set("idem:k", false, 86_400_000).render(),
        format!("SET idem:k '{json}' PX 86400000")
    );
    // A plain SET overwrites, SET NX does not.
    let mut store = Store::default();
    assert_eq!(
        store.execute(SimTime(0), &set("k", true, 10)),
        RedisReply::Ok
    );
    assert_eq!(
        store.execute(SimTime(1), &set("k", false, 10)),
        RedisReply::Ok
    );
    assert_eq!(store.next_expiry(), Some(SimTime(11)));
}

fn ledger(scoped: bool) -> Ledger {
    Ledger::new(
        AccountRow {
            id: 7,
            balance: 100,
            version: 1,
        },
        PostRow { id: 1, likes: 0 },
        true,
        scoped,
    )
}

fn batch(statements: Vec<Statement>) -> SqlBatch {
    SqlBatch {
        statements,
        transaction: false,
        op: None,
    }
}

fn claim(user: u32, key: &str, at: u64, ttl: u64) -> Statement {
    Statement::ClaimKey {
        key: key.into(),
        record: record(user),
        locked_until: SimTime(at + 5),
        expires_at: SimTime(at + ttl),
        request: None,
    }
}

fn rows(ledger: &mut Ledger, at: u64, statement: Statement) -> u64 {
    ledger.execute(SimTime(at), &batch(vec![statement]))[0].rows
}

#[test]
fn key_rows_expire_at_their_time_and_say_which() {
    let mut ledger = ledger(true);
    assert_eq!(ledger.next_expiry(), None);
    assert_eq!(rows(&mut ledger, 0, claim(1, "a", 0, 300)), 1);
    assert_eq!(rows(&mut ledger, 0, claim(1, "b", 0, 100)), 1);
    assert_eq!(ledger.next_expiry(), Some(SimTime(100)));
    assert!(ledger.expire(SimTime(99)).is_empty());
    // The cleanup deletes rows whose expiry is not in the future (`expires_at <= now`).
    assert_eq!(ledger.expire(SimTime(100)), vec!["b".to_owned()]);
    assert_eq!(ledger.next_expiry(), Some(SimTime(300)));
    assert_eq!(ledger.expire(SimTime(1_000)), vec!["a".to_owned()]);
    assert_eq!(ledger.next_expiry(), None);
}

#[test]
fn scoped_keys_belong_to_their_user_and_unscoped_keys_to_everyone() {
    let select = |user: u32, key: &str| Statement::SelectKey {
        user: UserId(user),
        key: key.into(),
    };
    let mut scoped = ledger(true);
    assert_eq!(rows(&mut scoped, 0, claim(1, "a", 0, 1_000)), 1);
    assert_eq!(rows(&mut scoped, 1, select(1, "a")), 1);
    assert_eq!(rows(&mut scoped, 1, select(1, "b")), 0, "another key");
    assert_eq!(rows(&mut scoped, 1, select(2, "a")), 0, "another user");
    assert_eq!(rows(&mut scoped, 1, claim(2, "a", 1, 1_000)), 1, "own row");
    assert_eq!(rows(&mut scoped, 1, claim(1, "a", 1, 1_000)), 0, "taken");

    let mut unscoped = ledger(false);
    assert_eq!(rows(&mut unscoped, 0, claim(1, "a", 0, 1_000)), 1);
    assert_eq!(rows(&mut unscoped, 1, select(2, "a")), 1, "one key for all");
    assert_eq!(rows(&mut unscoped, 1, select(1, "b")), 0);
    assert_eq!(rows(&mut unscoped, 1, claim(2, "a", 1, 1_000)), 0);
    let result = unscoped.execute(SimTime(1), &batch(vec![select(2, "a")]));
    let Returned::Key(row) = &result[0].returned else {
        panic!("{result:?}");
    };
    assert_eq!(
        row.stored.record.user,
        UserId(1),
        "user 2 sees user 1's row"
    );
}

#[test]
fn every_statement_has_its_own_summary() {
    let statements = [
        Statement::InsertCharge {
            payment_id: "pay_1".into(),
            user: UserId(1),
            amount_cents: 1,
            idempotency_key: None,
            fence: None,
        },
        Statement::InsertCharge {
            payment_id: "pay_1".into(),
            user: UserId(1),
            amount_cents: 1,
            idempotency_key: None,
            fence: Some(("fence:k".into(), 2)),
        },
        Statement::Fence {
            counter: "fence:k".into(),
            token: 2,
        },
        Statement::Debit {
            account: 7,
            amount: 1,
            expected_version: Some(1),
            op_id: None,
        },
        Statement::Debit {
            account: 7,
            amount: 1,
            expected_version: Some(1),
            op_id: Some("op".into()),
        },
        Statement::Debit {
            account: 7,
            amount: 1,
            expected_version: None,
            op_id: None,
        },
        Statement::SelectAccount { account: 7 },
        Statement::SelectAccountOp { op_id: "op".into() },
        Statement::InsertLikeOp { op_id: "op".into() },
        Statement::IncrementLikes {
            post: 1,
            only_if_inserted: true,
        },
        Statement::IncrementLikes {
            post: 1,
            only_if_inserted: false,
        },
        Statement::SelectLikes { post: 1 },
        claim(1, "a", 0, 1),
        Statement::SelectStaleKeys { now: SimTime(0) },
        Statement::SelectKey {
            user: UserId(1),
            key: "a".into(),
        },
    ];
    let summaries: Vec<&str> = statements.iter().map(Statement::summary).collect();
    assert_eq!(summaries[0], "INSERT INTO charges");
    assert_eq!(summaries[6], "SELECT balance, version FROM accounts");
    for (i, s) in summaries.iter().enumerate() {
        assert!(s.len() > 10, "{s:?}");
        assert!(!summaries[..i].contains(s), "{s:?} names two statements");
    }
}

#[test]
fn invariants_have_stable_distinct_names() {
    let names: Vec<&str> = Invariant::ALL.iter().map(|i| i.name()).collect();
    assert_eq!(
        names,
        [
            "at-most-once",
            "ledger-matches-processor",
            "balance-matches-debits",
            "likes-match-operations",
            "no-cross-user-replay",
            "success-means-done",
            "user-told-the-truth",
        ]
    );
}

#[test]
fn max_effects_is_the_most_any_operation_had() {
    let fresh = World::new(&scenario("naive"));
    assert_eq!(fresh.verdict().max_effects(), 0, "nothing happened yet");
    assert_eq!(run("naive").verdict().max_effects(), 2, "charged twice");
    assert_eq!(run("key").verdict().max_effects(), 1);
    assert_eq!(run("counter-naive").verdict().max_effects(), 2);
    assert_eq!(run("cas-naive").verdict().max_effects(), 2);
    assert_eq!(run("cas").verdict().max_effects(), 1);
}

#[test]
fn stale_claims_come_back_ordered_by_user_then_key() {
    // The rendered query says ORDER BY user_id, key: rows claimed in another order come back
    // in that one.
    let mut ledger = ledger(true);
    for (user, key) in [(2, "b"), (1, "c"), (2, "a"), (1, "a")] {
        assert_eq!(rows(&mut ledger, 0, claim(user, key, 0, 1_000)), 1);
    }
    let result = ledger.execute(
        SimTime(5),
        &batch(vec![Statement::SelectStaleKeys { now: SimTime(5) }]),
    );
    let Returned::Keys(keys) = &result[0].returned else {
        panic!("{result:?}");
    };
    let order: Vec<(u32, &str)> = keys
        .iter()
        .map(|k| (k.stored.record.user.0, k.key.as_str()))
        .collect();
    assert_eq!(order, [(1, "a"), (1, "c"), (2, "a"), (2, "b")]);
}

#[test]
fn only_in_progress_claims_past_their_lease_are_stale_or_reclaimable() {
    use idem_core::http::ResponseBody;
    use idem_core::record::StoredResponse;
    let mut ledger = ledger(true);
    // Claimed at 0 with a lease to 5; "done" completes at 2 (its lease then ends at 2).
    assert_eq!(rows(&mut ledger, 0, claim(1, "open", 0, 1_000)), 1);
    assert_eq!(rows(&mut ledger, 0, claim(1, "done", 0, 1_000)), 1);
    let response = StoredResponse {
        status: 201,
        body: ResponseBody::Charged {
            payment_id: "pay_1".into(),
            amount_cents: 1,
            customer: UserId(1),
        },
    };
    let complete = Statement::CompleteKey {
        user: UserId(1),
        key: "done".into(),
        response,
    };
    assert_eq!(rows(&mut ledger, 2, complete), 1);
    let stale = |ledger: &mut Ledger, at: u64| -> Vec<String> {
        let result = ledger.execute(
            SimTime(at),
            &batch(vec![Statement::SelectStaleKeys { now: SimTime(at) }]),
        );
        let Returned::Keys(keys) = &result[0].returned else {
            panic!("{result:?}");
        };
        assert_eq!(result[0].rows, keys.len() as u64);
        keys.iter().map(|k| k.key.to_string()).collect()
    };
    assert_eq!(
        stale(&mut ledger, 4),
        Vec::<String>::new(),
        "leases still run"
    );
    assert_eq!(
        stale(&mut ledger, 5),
        vec!["open".to_owned()],
        "completed is never stale"
    );
    let reclaim = |key: &str, at: u64| Statement::ReclaimKey {
        user: UserId(1),
        key: key.into(),
        now: SimTime(at),
        locked_until: SimTime(at + 5),
    };
    assert_eq!(rows(&mut ledger, 4, reclaim("open", 4)), 0, "lease until 5");
    assert_eq!(rows(&mut ledger, 9, reclaim("done", 9)), 0, "completed");
    assert_eq!(
        rows(&mut ledger, 5, reclaim("open", 5)),
        1,
        "lease over at 5"
    );
    assert_eq!(
        rows(&mut ledger, 6, reclaim("open", 6)),
        0,
        "taken until 10"
    );
    assert_eq!(rows(&mut ledger, 11, reclaim("open", 11)), 1);
    assert_eq!(rows(&mut ledger, 11, reclaim("nope", 11)), 0);
}

#[test]
fn replies_are_what_comes_back_to_the_caller() {
    use idem_core::Node;
    let world = run("crash-one-tx");
    let messages = world.network().messages();
    assert!(messages.len() > 10);
    for m in messages {
        // Everything sent to a backend, and the phone's requests, go out; what a backend sends
        // to the API, and what the API sends to the phone, comes back.
        let back = m.to == Node::Client || (m.to == Node::Api && m.from != Node::Client);
        assert_eq!(m.payload.is_reply(), back, "#{} {:?}", m.id.0, m.payload);
    }
}

#[test]
fn a_world_without_history_keeps_only_what_is_in_flight() {
    let mut world = World::new(&scenario("naive"));
    for _ in 0..6 {
        world.step();
    }
    let in_flight: Vec<_> = world.network().in_flight().map(|m| m.id).collect();
    assert!(!in_flight.is_empty());
    assert!(world.network().messages().len() > in_flight.len());
    let mut future = world.clone();
    future.forget_history();
    let kept: Vec<_> = future.network().messages().iter().map(|m| m.id).collect();
    assert_eq!(kept, in_flight, "settled messages are forgotten");
    assert_eq!(future.steps().len(), 1, "only the latest step is kept");
    // The future is the same either way.
    world.run(STEP_BOUND);
    future.run(STEP_BOUND);
    assert_eq!(world.verdict(), future.verdict());
    assert_eq!(world.step_count(), future.step_count());
    assert_eq!(
        future.network().messages().len(),
        0,
        "nothing in flight at the end"
    );
}

#[test]
fn a_duplicate_is_a_later_healthy_copy_of_its_original() {
    use idem_core::Action;
    // In the naive story the ack is doomed ("lose the next ack"): its copy is not.
    let mut world = World::new(&scenario("naive"));
    assert!(world.network().is_idle());
    let mut steps = 0;
    let ack = loop {
        steps += 1;
        assert!(steps < 10_000, "the run reaches the doomed ack");
        world.step().expect("the run reaches the doomed ack");
        if let Some(m) = world
            .network()
            .in_flight()
            .find(|m| m.is_faultable() && m.doomed)
        {
            break m.clone();
        }
    };
    assert!(!world.network().is_idle());
    world
        .apply(Action::Duplicate(ack.id))
        .expect("on the phone link");
    let copy = world.network().messages().last().expect("the copy").clone();
    assert_ne!(copy.id, ack.id);
    assert_eq!(copy.duplicate_of, Some(ack.id));
    assert_eq!(copy.deliver_at, ack.deliver_at.plus(60));
    assert!(!copy.doomed, "the copy is not lost with the original");
    assert_eq!(copy.payload, ack.payload);
    world.run(STEP_BOUND);
    assert!(world.network().is_idle());
}
