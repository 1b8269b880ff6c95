//! A stale fencing token against the real servers. `lease-fencing` as defined pauses its
//! holder before it calls the processor, which refuses the stale token itself, so the stale
//! holder never reaches PostgreSQL or Redis and the variants of `scenarios.rs` only replay
//! writes that succeed. Here the holder stalls past its lease later: before "write the ledger"
//! (its fenced `INSERT` must change 0 rows in real PostgreSQL) and before "record the key" (its
//! Lua-guarded `SET` must be refused by real Redis), each compared statement by statement and
//! command by command with the model. Each claim is the one Lua script that sets the key and
//! takes its token, so the real script hands out the model's tokens.

use crate::common;

use common::{announce, check, serial, Reply, ScenarioCheck};
use idem_conformance::RedisEvent;
use idem_core::ledger::Statement;
use idem_core::store::{RedisCommand, RedisReply};
use idem_core::{Action, Note, Phase, Scenario};

/// `lease-fencing` with its holder paused before `phase` instead of before the processor call.
fn paused_before(phase: Phase) -> Scenario {
    let mut s = Scenario::by_id("lease-fencing").expect("lease-fencing");
    assert_eq!(s.script[0].action, Action::Pause(Phase::CallProcessor));
    s.script[0].action = Action::Pause(phase);
    s
}

/// Checks `scenario` on both servers: no disagreement, something compared on each, and the
/// stale holder fenced in the model (one `ApiFenced`).
fn checked(scenario: &Scenario) -> ScenarioCheck {
    let c = check(scenario);
    c.assert_agrees();
    assert!(c.sql > 0, "no SQL statement compared");
    assert!(c.redis > 0, "no Redis command compared");
    let fenced = c
        .world
        .steps()
        .iter()
        .flat_map(|s| &s.notes)
        .filter(|n| **n == Note::ApiFenced)
        .count();
    assert_eq!(fenced, 1, "the stale holder is fenced once");
    // The claim and its token are one script in real Redis too: the holder's token 1, the
    // retry's 2 after the lease ran out, the same numbers from the real script as from the model.
    let tokens: Vec<(u64, Option<Reply>)> = c
        .harvest
        .redis
        .iter()
        .zip(&c.redis_replay.real)
        .filter_map(|(event, real)| match event {
            RedisEvent::Command {
                command: RedisCommand::ClaimWithToken { .. },
                reply: RedisReply::Int(token),
                ..
            } => Some((*token, real.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        tokens,
        [(1, Some(Reply::Int(1))), (2, Some(Reply::Int(2)))],
        "claims with their tokens"
    );
    announce(&format!(
        "fencing, paused before {:?}: {} SQL statements, {} Redis commands compared",
        scenario.script[0].action, c.sql, c.redis
    ));
    c
}

#[test]
fn real_postgres_refuses_a_stale_token_before_the_ledger_write() {
    let _one_at_a_time = serial();
    let c = checked(&paused_before(Phase::WriteLedger));
    // The fenced inserts of charges, as (batch, statement, model rows, real rows).
    let fenced: Vec<(usize, usize, u64, u64)> = c
        .harvest
        .sql
        .iter()
        .enumerate()
        .flat_map(|(b, event)| {
            event
                .batch
                .statements
                .iter()
                .enumerate()
                .filter(|(_, s)| matches!(s, Statement::InsertCharge { fence: Some(_), .. }))
                .map(move |(i, _)| (b, i))
        })
        .map(|(b, i)| {
            let real = c.sql_replay.real[b].get(i).map_or(u64::MAX, |r| r.rows);
            (b, i, c.harvest.sql[b].results[i].rows, real)
        })
        .collect();
    // The retry's insert (token 2) goes in; the stale holder's (token 1) changes nothing, in
    // the model and in PostgreSQL.
    let rows: Vec<(u64, u64)> = fenced.iter().map(|(_, _, m, r)| (*m, *r)).collect();
    assert_eq!(rows, [(1, 1), (0, 0)], "fenced inserts {fenced:?}");
    assert_eq!(
        c.tables.charges.len(),
        1,
        "one row in the real charges table"
    );
}

#[test]
fn real_redis_refuses_a_stale_token_before_the_key_is_recorded() {
    let _one_at_a_time = serial();
    let c = checked(&paused_before(Phase::RecordKey));
    // The fenced SETs, as (model reply, real reply) in the order Redis ran them.
    let sets: Vec<(RedisReply, Option<Reply>)> = c
        .harvest
        .redis
        .iter()
        .zip(&c.redis_replay.real)
        .filter_map(|(event, real)| match event {
            RedisEvent::Command {
                command: RedisCommand::SetIfToken { .. },
                reply,
                ..
            } => Some((reply.clone(), real.clone())),
            _ => None,
        })
        .collect();
    // The retry (token 2) records the key; the stale holder (token 1) is refused: nil from
    // the Lua script, as the model says.
    assert_eq!(
        sets,
        [
            (RedisReply::Ok, Some(Reply::Ok)),
            (RedisReply::Nil, Some(Reply::Nil))
        ],
        "fenced SETs"
    );
}
