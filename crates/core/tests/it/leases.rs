//! Leases and fencing under faults: a handler that stalls past its claim's lease is a stale
//! holder once a retry has taken its key over with a newer token, and fencing must refuse every
//! write it still makes. Random schedules of network and pause faults (no crash, eviction or
//! clock advance: those end a claim in other ways, tested in `properties.rs` and
//! `slow_holder.rs`) on `lease-fencing`, with the key in Redis; `fully-protected` keeps the key
//! in PostgreSQL, where fencing does not apply, so it cannot stand in for this design. Then a
//! deterministic table of a pause at every phase.

use crate::support;

use std::collections::{BTreeMap, BTreeSet};

use idem_core::message::Payload;
use idem_core::store::{RedisCommand, RedisReply};
use idem_core::{Action, Cause, HandlerRef, Invariant, MsgId, Note, Phase, Scenario, World};
use proptest::prelude::*;
use proptest::test_runner::{RngSeed, TestCaseError, TestRunner};
use support::{holds, noted, run_scenario, scenario, STEP_BOUND};

/// A fault of these properties; a packet is chosen by index among those in flight on the
/// mobile link when the fault comes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fault {
    Drop(usize),
    Duplicate(usize),
    Delay(usize, u64),
    LoseNextAck,
    RetryNow,
    ConcurrentDuplicate,
    /// A handler stalls past its lease before this phase.
    Pause(Phase),
}

fn fault() -> impl Strategy<Value = Fault> {
    let network = prop_oneof![
        (0..4usize).prop_map(Fault::Drop),
        (0..4usize).prop_map(Fault::Duplicate),
        (
            0..4usize,
            prop_oneof![Just(500u64), Just(4_000), Just(12_000)]
        )
            .prop_map(|(i, ms)| Fault::Delay(i, ms)),
        Just(Fault::LoseNextAck),
        Just(Fault::RetryNow),
        Just(Fault::ConcurrentDuplicate),
    ];
    // A pause as likely as a network fault: pauses are what this file is about.
    prop_oneof![
        network,
        prop::sample::select(Phase::ALL.to_vec()).prop_map(Fault::Pause),
    ]
}

/// Up to four faults, each at a position given per mille of the plain run's length.
fn schedule() -> impl Strategy<Value = Vec<(u32, Fault)>> {
    prop::collection::vec((0..=1_000u32, fault()), 0..=4).prop_map(|mut s| {
        s.sort_by_key(|(at, _)| *at);
        s
    })
}

fn to_action(world: &World, fault: Fault) -> Action {
    let mobile: Vec<MsgId> = world
        .network()
        .in_flight()
        .filter(|m| m.is_faultable())
        .map(|m| m.id)
        .collect();
    let pick = |i: usize| {
        mobile
            .get(i % mobile.len().max(1))
            .copied()
            .unwrap_or(MsgId(u32::MAX))
    };
    match fault {
        Fault::Drop(i) => Action::Drop(pick(i)),
        Fault::Duplicate(i) => Action::Duplicate(pick(i)),
        Fault::Delay(i, ms) => Action::Delay(pick(i), ms),
        Fault::LoseNextAck => Action::LoseNextAck,
        Fault::RetryNow => Action::RetryNow,
        Fault::ConcurrentDuplicate => Action::ConcurrentDuplicate,
        Fault::Pause(phase) => Action::Pause(phase),
    }
}

/// What a run showed about its claims.
#[derive(Debug, Default)]
struct Leases {
    /// Handlers that were stale holders at some step: they held a token older than their key's
    /// counter (someone took the key over after their claim expired).
    stale: BTreeSet<HandlerRef>,
    /// Handlers that came back from a pause stale, before a phase that still writes (not the
    /// answer): the holders fencing is for, which must be refused.
    resumed_stale: BTreeSet<HandlerRef>,
    /// Handlers that left the API in a step that noted `ApiFenced`.
    fenced: BTreeSet<HandlerRef>,
    /// How many pauses fired (`ApiPaused` notes).
    pauses: usize,
    /// How many claims expired (`ClaimsExpired` counts).
    expired: usize,
}

/// The stale holders now: handlers whose token is older than their key's fencing counter.
fn stale_now(world: &World) -> BTreeSet<HandlerRef> {
    let counters: BTreeMap<&str, u64> = world
        .store()
        .counters()
        .map(|(k, n)| (k.as_str(), *n))
        .collect();
    world
        .api()
        .handlers()
        .filter(|(_, h)| {
            let (Some(token), Some(key)) = (h.token, h.store_key.as_deref()) else {
                return false;
            };
            counters
                .iter()
                .any(|(counter, newest)| counter.ends_with(key) && *newest > token)
        })
        .map(|(r, _)| r)
        .collect()
}

/// Plays `scenario` with `faults` at their positions, then to quiescence (a fault still due
/// when the run is quiet is applied then), watching the handlers after every step.
fn play(scenario: &Scenario, faults: &[(u32, Fault)]) -> (World, Leases) {
    let length = run_scenario(scenario).step_count();
    let mut world = World::new(scenario);
    let mut leases = Leases::default();
    let mut pending = faults
        .iter()
        .map(|(at, f)| (at * length / 1_000, *f))
        .peekable();
    // Each handler's state after the previous step: paused or not, and its phase.
    let mut before: BTreeMap<HandlerRef, (bool, Phase)> = BTreeMap::new();
    let mut watch = |world: &World, leases: &mut Leases| {
        let now: BTreeMap<HandlerRef, (bool, Phase)> = world
            .api()
            .handlers()
            .map(|(r, h)| (r, (h.paused_until.is_some(), h.phase)))
            .collect();
        let stale = stale_now(world);
        for (r, (paused, phase)) in &now {
            let resumed = before.get(r).is_some_and(|(was, _)| *was) && !paused;
            if resumed && *phase != Phase::Respond && stale.contains(r) {
                leases.resumed_stale.insert(*r);
            }
        }
        let fenced_here = world
            .steps()
            .last()
            .is_some_and(|s| s.notes.contains(&Note::ApiFenced));
        if fenced_here {
            leases
                .fenced
                .extend(before.keys().filter(|r| !now.contains_key(r)));
        }
        leases.stale.extend(stale);
        before = now;
    };
    for _ in 0..STEP_BOUND {
        let due = pending
            .peek()
            .is_some_and(|(at, _)| *at <= world.step_count());
        if due || (world.is_quiescent() && pending.peek().is_some()) {
            let Some((_, fault)) = pending.next() else {
                break;
            };
            let action = to_action(&world, fault);
            let _ = world.apply(action);
        } else if world.step().is_none() {
            break;
        }
        watch(&world, &mut leases);
    }
    assert!(world.is_quiescent(), "{} did not settle", scenario.id);
    for note in world.steps().iter().flat_map(|s| &s.notes) {
        match note {
            Note::ApiPaused { .. } => leases.pauses += 1,
            Note::ClaimsExpired { count } => leases.expired += count,
            _ => {}
        }
    }
    (world, leases)
}

/// 300 cases, or `PROPTEST_CASES`; zero is refused (it would check nothing).
fn cases() -> u32 {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .map(|v| v.parse().expect("PROPTEST_CASES is a number"))
        .unwrap_or(300);
    assert!(cases > 0, "PROPTEST_CASES=0 would run no cases");
    cases
}

/// Runs `property` on random schedules of `scenario` (a fixed seed unless PROPTEST_RNG_SEED
/// picks another) and returns how many cases had a stale holder, so a test can demand that the
/// faults made some (a property never tested on a stale holder would pass for nothing).
fn check(
    scenario: &Scenario,
    property: impl Fn(&World, &Leases) -> Result<(), TestCaseError>,
) -> u32 {
    let seed = std::env::var("PROPTEST_RNG_SEED")
        .ok()
        .map(|v| v.parse().expect("PROPTEST_RNG_SEED is a number"))
        .unwrap_or(45);
    let config = ProptestConfig {
        cases: cases(),
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let mut runner = TestRunner::new(config);
    let stale_cases = std::cell::Cell::new(0u32);
    let result = runner.run(&schedule(), |faults| {
        let (world, leases) = play(scenario, &faults);
        if !leases.resumed_stale.is_empty() {
            stale_cases.set(stale_cases.get() + 1);
        }
        property(&world, &leases).map_err(|e| {
            TestCaseError::fail(format!("{e}\nfaults: {faults:?}\nleases: {leases:?}"))
        })
    });
    if let Err(e) = result {
        panic!("{}: {e}", scenario.id);
    }
    stale_cases.get()
}

/// `lease-fencing` with the processor deduplicating on the forwarded key: fencing keeps a stale
/// holder from writing, forwarding keeps the processor from charging twice for a call made
/// before the takeover (the limit `fencing_cannot_undo_a_call_made_before_the_takeover` in
/// `slow_holder.rs` shows without it).
fn fencing_and_forwarding() -> Scenario {
    let mut s = scenario("lease-fencing");
    s.protections.forward_key = true;
    s
}

#[test]
fn lease_fencing_charges_at_most_once_under_network_and_pause_faults() {
    let stale = check(&fencing_and_forwarding(), |world, _| {
        let money = world.verdict().money;
        prop_assert!(holds(world, Invariant::AtMostOnce), "{:?}", world.verdict());
        prop_assert!(money.processor_charges <= 1, "{money:?}");
        prop_assert!(money.statement_cents <= 10_000, "{money:?}");
        prop_assert!(money.ledger_rows <= 1, "{money:?}");
        Ok(())
    });
    assert!(
        stale * 10 >= cases(),
        "a stale holder in only {stale} cases"
    );
}

#[test]
fn a_stale_holder_is_fenced_whenever_its_claim_was_taken_over() {
    for s in [scenario("lease-fencing"), fencing_and_forwarding()] {
        let stale = check(&s, |world, leases| {
            // Every holder that came back from its pause after a takeover, with a write still
            // to make, was refused; nobody was refused who never held a stale token; and a
            // takeover needs an expired claim.
            prop_assert!(
                leases.resumed_stale.is_subset(&leases.fenced),
                "a stale holder was not fenced"
            );
            prop_assert!(
                leases.fenced.is_subset(&leases.stale),
                "fenced while current"
            );
            prop_assert!(noted(world, |n| *n == Note::ApiFenced) >= leases.resumed_stale.len());
            prop_assert!(leases.stale.is_empty() || leases.expired > 0);
            Ok(())
        });
        assert!(
            stale * 10 >= cases(),
            "{}: a stale holder in only {stale} cases",
            s.id
        );
    }
}

/// One row of the pause table: the scenario's own pause moved to `phase`.
#[derive(Debug, PartialEq)]
struct Row {
    phase: Phase,
    processor_charges: usize,
    ledger_rows: usize,
    statement_cents: u64,
    paused: usize,
    expired: usize,
    tokens: Vec<u64>,
    processor_fenced: usize,
    api_fenced: usize,
    ok: bool,
}

fn pause_row(mut s: Scenario, phase: Phase) -> Row {
    s.script[0].action = Action::Pause(phase);
    let world = run_scenario(&s);
    let money = world.verdict().money;
    Row {
        phase,
        processor_charges: money.processor_charges,
        ledger_rows: money.ledger_rows,
        statement_cents: money.statement_cents,
        paused: noted(
            &world,
            |n| matches!(n, Note::ApiPaused { phase: p } if *p == phase),
        ),
        expired: noted(&world, |n| matches!(n, Note::ClaimsExpired { .. })),
        tokens: world
            .steps()
            .iter()
            .flat_map(|s| &s.notes)
            .filter_map(|n| match n {
                Note::ApiGetsToken { token } => Some(*token),
                _ => None,
            })
            .collect(),
        processor_fenced: noted(&world, |n| *n == Note::ProcessorFenced),
        api_fenced: noted(&world, |n| *n == Note::ApiFenced),
        ok: world.verdict().ok(),
    }
}

/// The table: the scenario's pause moved to every phase, with fencing alone and with the key
/// forwarded too. A pause before the claim or before the answer leaves nothing to take over
/// (the retry waits, or is answered from the record), so no token is refused. A pause before
/// the processor call is refused by the processor. A pause after the call (before the ledger
/// write or the key's record) is refused at its next write (the ledger, or Redis), but the
/// charge it made stands: without forwarding the retry charges again (and before "record the
/// key" the stale row is already in the ledger), with forwarding the processor answers the
/// retry with the first charge.
#[test]
fn a_pause_at_every_phase_pins_charges_and_fence_notes() {
    #[rustfmt::skip]
    let expected = [
        // phase, forwarded: charges, rows, cents, expired, tokens, processor fenced, API fenced, ok
        (Phase::ClaimKey, false, 1, 1, 10_000, 0, vec![1], 0, 0, true),
        (Phase::ClaimKey, true, 1, 1, 10_000, 0, vec![1], 0, 0, true),
        (Phase::CallProcessor, false, 1, 1, 10_000, 1, vec![1, 2], 1, 1, true),
        (Phase::CallProcessor, true, 1, 1, 10_000, 1, vec![1, 2], 1, 1, true),
        (Phase::WriteLedger, false, 2, 1, 20_000, 1, vec![1, 2], 0, 1, false),
        (Phase::WriteLedger, true, 1, 1, 10_000, 1, vec![1, 2], 0, 1, true),
        (Phase::RecordKey, false, 2, 2, 20_000, 1, vec![1, 2], 0, 1, false),
        (Phase::RecordKey, true, 1, 1, 10_000, 1, vec![1, 2], 0, 1, true),
        (Phase::Respond, false, 1, 1, 10_000, 0, vec![1], 0, 0, true),
        (Phase::Respond, true, 1, 1, 10_000, 0, vec![1], 0, 0, true),
    ];
    assert_eq!(
        expected.len(),
        Phase::ALL.len() * 2,
        "every phase, both ways"
    );
    for (phase, forwarded, charges, rows, cents, expired, tokens, p_fenced, a_fenced, ok) in
        expected
    {
        let base = if forwarded {
            fencing_and_forwarding()
        } else {
            scenario("lease-fencing")
        };
        let row = pause_row(base, phase);
        assert_eq!(
            row,
            Row {
                phase,
                processor_charges: charges,
                ledger_rows: rows,
                statement_cents: cents,
                paused: 1,
                expired,
                tokens,
                processor_fenced: p_fenced,
                api_fenced: a_fenced,
                ok,
            },
            "paused before {phase:?}, forwarded: {forwarded}"
        );
    }
}

/// Every command Redis ran, in the order it ran them (a command runs in the step that
/// delivers it, and its reply leaves in that step), with the handler that sent it.
fn redis_log(world: &World) -> Vec<(HandlerRef, RedisCommand, RedisReply)> {
    let messages = world.network().messages();
    let payload = |id: MsgId| messages.iter().find(|m| m.id == id).map(|m| &m.payload);
    world
        .steps()
        .iter()
        .filter_map(|step| {
            let Cause::Deliver(id) = step.cause else {
                return None;
            };
            let Some(Payload::Redis(handler, command)) = payload(id) else {
                return None;
            };
            let reply = step.sent.iter().find_map(|sent| match payload(*sent) {
                Some(Payload::RedisReply(h, reply)) if h == handler => Some(reply.clone()),
                _ => None,
            })?;
            Some((*handler, command.clone(), reply))
        })
        .collect()
}

/// What Redis did with the holders' records: how many fenced records came from a holder whose
/// key another handler had claimed since its own claim, and how many of those were accepted.
/// The claim, not the counter, says who holds a key: with the claim and its token as two
/// commands, a stale record landing between them found the counter unmoved and was accepted.
fn stale_records(world: &World) -> (usize, usize) {
    let mut holder: BTreeMap<idem_core::Text, HandlerRef> = BTreeMap::new();
    let (mut sent, mut accepted) = (0, 0);
    for (handler, command, reply) in redis_log(world) {
        match (&command, &reply) {
            (RedisCommand::ClaimWithToken { key, .. }, RedisReply::Int(_))
            | (RedisCommand::Set { key, nx: true, .. }, RedisReply::Ok) => {
                holder.insert(key.clone(), handler);
            }
            (RedisCommand::SetIfToken { key, .. }, _) if holder.get(key) != Some(&handler) => {
                sent += 1;
                if reply != RedisReply::Nil {
                    accepted += 1;
                }
            }
            _ => {}
        }
    }
    (sent, accepted)
}

/// The model gap of the claim and its token as two round trips, on the schedule that found it:
/// two lost answers, the retry dropped, and the holder (stalled past its lease before the
/// processor call, as the scenario scripts it) stalled again before the ledger write. Its
/// record reached Redis after the retry's claim but before that claim's `INCR`, passed the
/// token check, and the retry charged again (pay_abc and pay_abd). With one script for both,
/// one charge, and no stale record is accepted.
#[test]
fn a_stale_record_cannot_land_between_a_claim_and_its_token() {
    let faults = [
        (0, Fault::LoseNextAck),
        (0, Fault::LoseNextAck),
        (563, Fault::Drop(0)),
        (563, Fault::Pause(Phase::WriteLedger)),
    ];
    let (world, leases) = play(&scenario("lease-fencing"), &faults);
    assert_eq!(leases.pauses, 2, "both stalls fired");
    let money = world.verdict().money;
    assert!(
        holds(&world, Invariant::AtMostOnce),
        "{:?}",
        world.verdict()
    );
    assert_eq!(
        (money.processor_charges, money.ledger_rows),
        (1, 1),
        "{money:?}"
    );
    assert_eq!(stale_records(&world).1, 0, "a stale record accepted");
    // The claim brings its token with it: no INCR of its own, no step between.
    let log = redis_log(&world);
    assert!(log.iter().any(|(_, c, r)| matches!(
        (c, r),
        (RedisCommand::ClaimWithToken { .. }, RedisReply::Int(1))
    )));
}

/// Redis, the one place that checks a token against the key's own counter, refuses every record
/// from a holder whose key was claimed by someone else since: with fencing alone and with the key
/// forwarded too, under network and pause faults. (Fencing alone does not keep the charge to
/// one: a stalled holder may call the processor after its lease ran out but before anyone took
/// the key over, and the retry charges again; the pause table pins that limit.)
#[test]
fn redis_refuses_the_record_of_a_holder_whose_key_was_claimed_since() {
    for s in [scenario("lease-fencing"), fencing_and_forwarding()] {
        let tried = std::cell::Cell::new(0u32);
        check(&s, |world, _| {
            let (sent, accepted) = stale_records(world);
            if sent > 0 {
                tried.set(tried.get() + 1);
            }
            prop_assert_eq!(
                accepted,
                0,
                "{} stale records accepted of {}",
                accepted,
                sent
            );
            Ok(())
        });
        assert!(
            tried.get() * 20 >= cases(),
            "{}: a stale record sent in only {} cases",
            s.id,
            tried.get()
        );
    }
}
