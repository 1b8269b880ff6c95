//! The payment API under protection combinations no scripted story uses: the key kept in
//! the ledger without a lock, a charge without a key when the key is optional, keys on debits
//! and likes, which combinations run the recovery job, and what the API shows while it works
//! (its handlers, the armed crash). Written against the survivors of
//! `bash scripts/mutants.sh api` (docs/notes-mutants.md); every test runs in milliseconds.

use crate::support;

use idem_core::{Action, Note, OpSpec, Phase, Protections, Scenario, Scripted, SimTime, World};
use support::*;

fn notes(world: &World) -> Vec<&Note> {
    world.steps().iter().flat_map(|s| &s.notes).collect()
}

/// `id` with protections `p`.
fn with(id: &str, p: Protections) -> Scenario {
    scenario(id).with_protections(p)
}

/// A charge whose handler crashes while the ledger is written, with the phone asleep for an
/// hour so that only the recovery job (if it runs) can finish it.
fn crash_while_asleep(p: Protections) -> Scenario {
    let mut s = with("fully-protected", p);
    s.script.retain(|s| s.action != Action::LoseNextAck);
    for (i, action) in [
        Action::Crash(Phase::WriteLedger),
        Action::AdvanceClock(SimTime::HOUR),
    ]
    .into_iter()
    .enumerate()
    {
        s.script.insert(
            i,
            Scripted {
                at: SimTime::ZERO,
                action,
            },
        );
    }
    s
}

#[test]
fn the_recovery_job_runs_only_with_the_key_table_and_its_lock() {
    let all = Protections::ALL;
    let cases = [
        ("all", all, true),
        (
            "no recovery",
            Protections {
                recovery: false,
                ..all
            },
            false,
        ),
        ("no lock", Protections { lock: false, ..all }, false),
        (
            "key outside the ledger",
            Protections {
                key_in_ledger_tx: false,
                ..all
            },
            false,
        ),
        (
            "no key",
            Protections {
                idempotency_key: false,
                require_key: false,
                ..all
            },
            false,
        ),
    ];
    for (what, p, runs) in cases {
        let world = run_scenario(&crash_while_asleep(p));
        let keys = note_keys(&world);
        assert!(keys.contains(&"api.crashed"), "{what}");
        assert!(keys.contains(&"api.restarted"), "{what}");
        assert_eq!(
            keys.contains(&"api.recovery_sweep"),
            runs,
            "{what}: {keys:?}"
        );
        assert_eq!(keys.contains(&"api.recovered"), runs, "{what}: {keys:?}");
    }
}

/// The API's notes of a run, as catalog keys.
fn api_keys(world: &World) -> Vec<&'static str> {
    note_keys(world)
        .into_iter()
        .filter(|k| k.starts_with("api."))
        .collect()
}

#[test]
fn the_recovery_job_runs_a_lease_after_the_restart() {
    let world = run_scenario(&crash_while_asleep(Protections::ALL));
    let at = |cause: &idem_core::Cause| {
        world
            .steps()
            .iter()
            .find(|s| &s.cause == cause)
            .map(|s| s.at)
            .expect("happened")
    };
    let restart = at(&idem_core::Cause::ApiRestart);
    // The lease of a claim is 5 s: the job looks for claims older than that.
    assert_eq!(at(&idem_core::Cause::RecoverySweep), restart.plus(5_000));
}

#[test]
fn a_key_kept_in_the_ledger_without_a_lock_still_replays_the_retry() {
    let p = Protections {
        lock: false,
        key_in_ledger_tx: true,
        ..Protections::SEED_KEY
    };
    let world = run_scenario(&with("key", p));
    assert_eq!(
        api_keys(&world),
        vec![
            "api.looks_up_key",
            "api.key_new",
            "api.calls_processor",
            "api.writes_ledger_with_key",
            "api.responds",
            "api.looks_up_key",
            "api.replays",
            "api.responds",
        ]
    );
    // Without a lock the key row is written with the charge, as a finished record.
    assert!(notes(&world).contains(&&Note::LedgerRan {
        rows: vec![1, 1],
        statements: vec![
            "INSERT INTO charges".to_owned(),
            "INSERT INTO idempotency_keys … ON CONFLICT DO NOTHING".to_owned(),
        ],
    }));
    assert_eq!(world.processor().statement.len(), 1);
    assert_eq!(world.ledger().charges.len(), 1);
    assert!(world.verdict().ok(), "{:?}", world.verdict());
}

#[test]
fn an_optional_key_lets_a_charge_without_one_through() {
    let p = Protections {
        require_key: false,
        ..Protections::SEED_KEY
    };
    let world = run_scenario(&with("missing-key", p));
    assert_eq!(
        api_keys(&world),
        vec!["api.calls_processor", "api.writes_ledger", "api.responds",]
    );
    assert_eq!(statuses_sent(&world), vec![201]);
    assert!(requests(&world).iter().all(|r| r.idempotency_key.is_none()));
}

#[test]
fn only_charges_go_through_the_key_but_every_request_carries_it() {
    for (id, extra) in [
        (
            "cas",
            Protections {
                cas: true,
                ..Protections::SEED_KEY
            },
        ),
        (
            "counter",
            Protections {
                op_dedup: true,
                ..Protections::SEED_KEY
            },
        ),
    ] {
        for omit in [false, true] {
            let mut s = with(id, extra);
            s.client_omits_key = omit;
            let world = run_scenario(&s);
            let keys = api_keys(&world);
            assert!(
                !keys.iter().any(|k| k.contains("key")),
                "{id} omit={omit}: {keys:?}"
            );
            assert_eq!(
                statuses_sent(&world).first(),
                Some(&200),
                "{id} omit={omit}"
            );
            assert_eq!(
                requests(&world)[0].idempotency_key.is_some(),
                !omit,
                "{id} omit={omit}"
            );
        }
    }
}

#[test]
fn the_api_shows_its_handler_s_phase_and_the_armed_crash() {
    let mut world = World::new(&scenario("key"));
    assert_eq!(world.api().crash_armed(), None);
    let mut phases = Vec::new();
    for _ in 0..STEP_BOUND {
        let handlers: Vec<_> = world.api().handlers().collect();
        assert!(handlers.len() <= 1, "one request at a time here");
        if let Some((handler, h)) = handlers.first() {
            assert_eq!(handler.epoch, 0);
            assert_eq!(h.request.op, idem_core::OpId(0));
            if phases.last() != Some(&h.phase) {
                phases.push(h.phase);
            }
        }
        if world.step().is_none() {
            break;
        }
    }
    assert_eq!(
        phases,
        vec![
            Phase::ClaimKey,
            Phase::CallProcessor,
            Phase::WriteLedger,
            Phase::RecordKey,
            Phase::ClaimKey,
        ]
    );
    assert_eq!(world.api().handlers().count(), 0);

    let mut world = World::new(&scenario("key"));
    world
        .apply(Action::Crash(Phase::RecordKey))
        .expect("a crash can always be armed");
    assert_eq!(world.api().crash_armed(), Some(Phase::RecordKey));
    assert_eq!(world.run(STEP_BOUND), idem_core::RunEnd::Quiescent);
    assert_eq!(world.api().crash_armed(), None, "it fired");
    assert!(note_keys(&world).contains(&"api.crashed"));
}

#[test]
fn two_charges_with_their_own_keys_are_two_payments() {
    // The same $100 twice, as two operations: two keys, two payments, in the Redis store
    // and in the ledger's key table alike.
    for (what, p) in [
        ("redis", Protections::SEED_KEY),
        ("ledger", Protections::ALL),
    ] {
        let mut s = with("key", p);
        s.script = vec![
            Scripted {
                at: SimTime::ZERO,
                action: Action::Start(OpSpec::CHARGE_100),
            },
            Scripted {
                at: SimTime(100),
                action: Action::Start(OpSpec::CHARGE_100),
            },
        ];
        let world = run_scenario(&s);
        let keys: Vec<_> = world
            .client()
            .ops()
            .iter()
            .map(|o| o.key.clone().expect("keyed"))
            .collect();
        assert_eq!(keys.len(), 2, "{what}");
        assert_ne!(keys[0], keys[1], "{what}");
        assert_eq!(world.processor().statement.len(), 2, "{what}");
        assert_eq!(world.ledger().charges.len(), 2, "{what}");
        assert_eq!(statuses_sent(&world), vec![201, 201], "{what}");
        assert!(world.verdict().ok(), "{what}: {:?}", world.verdict());
        if p.key_in_ledger_tx {
            let rows: Vec<&str> = world
                .ledger()
                .idempotency_keys
                .iter()
                .map(|r| r.key.as_str())
                .collect();
            assert_eq!(rows, vec![keys[0].as_str(), keys[1].as_str()], "{what}");
        } else {
            let mut stored: Vec<String> = world
                .store()
                .entries()
                .map(|(k, _)| k.to_string())
                .collect();
            stored.sort();
            let mut expected: Vec<String> =
                keys.iter().map(|k| format!("idem:user_1:{k}")).collect();
            expected.sort();
            assert_eq!(stored, expected, "{what}");
        }
    }
}

#[test]
fn a_request_that_arrives_while_the_recovery_job_runs_is_handled_at_once() {
    use idem_core::{Cause, OpKind, OpSpec};
    let base = crash_while_asleep(Protections::ALL);
    let sweep = run_scenario(&base)
        .steps()
        .iter()
        .find(|s| s.cause == Cause::RecoverySweep)
        .map(|s| s.at)
        .expect("the recovery job ran");
    // A second charge whose request reaches the API during the job: 50 ms into its round
    // trip to the ledger (100 ms each way), or 250 ms in, while the stale charge it found is
    // being re-driven. The phone is still asleep, so only the API can finish either charge.
    for into_job in [50, 250] {
        let mut s = base.clone();
        let sent = SimTime(sweep.ms() + into_job - s.latencies.client_api);
        s.script.push(Scripted {
            at: sent,
            action: Action::Start(OpSpec {
                user: idem_core::UserId::ALICE,
                kind: OpKind::Charge {
                    amount_cents: 2_000,
                },
            }),
        });
        let mut world = World::new(&s);
        while world.now() < sweep.plus(3_000) {
            assert!(world.step().is_some(), "the phone sleeps for an hour");
        }
        let statement = &world.processor().statement;
        assert_eq!(statement.len(), 2, "{into_job} ms: both charges are made");
        assert_eq!(
            world.ledger().charges.len(),
            2,
            "{into_job} ms: and written"
        );
        let keys = note_keys(&world);
        assert!(keys.contains(&"api.recovered"), "{into_job} ms: {keys:?}");
        assert!(
            !keys.contains(&"api.orphan_reply"),
            "{into_job} ms: {keys:?}"
        );
    }
}
