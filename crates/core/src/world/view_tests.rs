//! The canonical view the explorer merges situations by ([`World::view`]), part by part: two
//! worlds whose views are equal have the same future, and two worlds that differ in one
//! hashed part that matters get different views.
//!
//! The pairs that differ in a single part are built by setting the phone's operations, the
//! clock or the processor's memory directly (this module sits inside `world`); they are
//! situations the "phone offline" fault reaches (timers overdue when it wakes, operations
//! older than the retry deadline, keys past their expiry), made exact to the millisecond.

use super::*;
use crate::action::Action;
use crate::http::RequestBody;
use crate::phase::Phase;
use crate::processor::ChargeRequest;
use crate::scenario::ALICE;
use crate::time::HOUR;

/// No run in these tests needs more steps; a loop that reaches it fails instead of spinning.
const STEP_BOUND: u32 = 2_000;

fn scenario(id: &str) -> Scenario {
    Scenario::by_id(id)
        .expect("a known scenario")
        .without_scripted_faults()
}

/// A world of scenario `id` whose phone has one open charge per entry of `sent_at`, in that
/// order (operation 0, 1, …) and nothing else to come, each one's first attempt sent at that millisecond (so its answer
/// timer is due 3 s later), looked at when the clock reads `now`.
fn phone(id: &str, sent_at: &[u64], now: u64) -> World {
    let mut world = World::new(&scenario(id));
    // The script is done (its operation is replaced by these).
    world.script_pos = world.scenario.script.len();
    world.next_op = sent_at.len() as u32;
    world.client = Client::new(world.client.config().clone());
    for (op, &at) in (0..).zip(sent_at) {
        let body = RequestBody::Charge {
            amount_cents: 2_000,
            currency: "usd".into(),
        };
        world.client.start(SimTime(at), OpId(op), ALICE, body, None);
    }
    // What the phone wanted to send is left out: only its timers matter here.
    while world.client.poll().is_some() {}
    world.now = SimTime(now);
    world
}

/// The answer timer of operation `op`.
fn timer(world: &World, op: u32) -> SimTime {
    match world.client.op(OpId(op)).map(|o| o.wait) {
        Some(crate::client::Wait::Answer { timeout_at }) => timeout_at,
        other => panic!("op {op} waits for an answer: {other:?}"),
    }
}

/// Steps `a` and `b` side by side after the same input (none, or the same action), asserting
/// at every step that their views stay equal, that they end together, and that they end with
/// the same verdict and the same effects: what "equal views have the same future" promises.
fn assert_same_future(a: &World, b: &World, what: &str) {
    let inputs = [
        None,
        Some(Action::LoseNextAck),
        Some(Action::RetryNow),
        Some(Action::EvictKeys),
        Some(Action::Crash(Phase::WriteLedger)),
        Some(Action::AdvanceClock(2 * HOUR)),
    ];
    for input in inputs {
        let (mut a, mut b) = (a.clone(), b.clone());
        if let Some(action) = input {
            let (ra, rb) = (a.apply(action).map(|_| ()), b.apply(action).map(|_| ()));
            assert_eq!(ra, rb, "{what}, {input:?}: both take it or both refuse it");
        }
        let mut steps = 0;
        loop {
            assert_eq!(
                a.view(true),
                b.view(true),
                "{what}, {input:?}, step {steps}"
            );
            let (more_a, more_b) = (a.step().is_some(), b.step().is_some());
            assert_eq!(more_a, more_b, "{what}, {input:?}: they end together");
            if !more_a {
                break;
            }
            steps += 1;
            assert!(steps < STEP_BOUND, "{what}, {input:?}: the run ends");
        }
        assert_eq!(a.verdict(), b.verdict(), "{what}, {input:?}");
        assert_eq!(
            (a.processor.statement.len(), a.ledger.charges.len()),
            (b.processor.statement.len(), b.ledger.charges.len()),
            "{what}, {input:?}: the same charges"
        );
        assert_eq!(
            a.client.ops().iter().map(|o| &o.view).collect::<Vec<_>>(),
            b.client.ops().iter().map(|o| &o.view).collect::<Vec<_>>(),
            "{what}, {input:?}: the user sees the same"
        );
    }
}

/// Steps until the first operation has started, then takes the phone offline for `offline`
/// ms (after `extra` more steps) and steps until it wakes.
fn woken(id: &str, extra: usize, second_op: bool, offline: u64) -> World {
    let mut world = World::new(&scenario(id));
    let mut steps = 0;
    while world.client.ops().is_empty() {
        assert!(world.step().is_some(), "{id} starts an operation");
    }
    if second_op {
        world
            .apply(Action::OtherUserSameKey)
            .expect("an operation is open");
    }
    for _ in 0..extra {
        assert!(world.step().is_some(), "{id}: the run goes on");
    }
    world
        .apply(Action::AdvanceClock(offline))
        .expect("the clock can always advance");
    while world.client_offline_until.is_some() {
        assert!(world.step().is_some(), "{id}: the phone wakes");
        steps += 1;
        assert!(steps < STEP_BOUND, "{id}: the phone wakes");
    }
    // The answers to the phone were lost while it was offline: its timers are all overdue.
    let overdue = |o: &crate::client::ClientOp| match o.wait {
        crate::client::Wait::Answer { timeout_at: t } => t < world.now,
        _ => false,
    };
    let ops = world.client.ops();
    assert!(ops.iter().all(overdue), "{id}: {ops:?}");
    assert!(ops.len() > usize::from(second_op), "{id}");
    world
}

#[test]
fn worlds_with_equal_views_have_the_same_future() {
    // The phone offline for 25 h or for 26 h: every key has expired either way, the request's
    // timer is overdue by a different amount, the operation is older than the retry deadline
    // by a different amount; nothing else differs. The same situation, so the same view, and
    // the same future whatever happens next.
    for id in [
        "naive",
        "key",
        "fully-protected",
        "cas",
        "counter",
        "ttl",
        "scope",
    ] {
        for second_op in [false, true] {
            for extra in [0, 1, 2] {
                let a = woken(id, extra, second_op, 25 * HOUR);
                let b = woken(id, extra, second_op, 26 * HOUR);
                assert_ne!(a.now, b.now, "{id}: woke at different times");
                let what = format!("{id}, {extra} steps in, second op {second_op}");
                assert_eq!(a.view(true), b.view(true), "{what}");
                assert_eq!(a.view(false), b.view(false), "{what}");
                assert_same_future(&a, &b, &what);
            }
        }
    }
}

#[test]
fn overdue_timers_count_by_their_order_only() {
    // Two operations whose answer timers are overdue (the phone was offline): they fire at
    // once, in order of due time, so only that order counts, not by how much each is late.
    let a = phone("key", &[1_000, 1_500], 10_000);
    let later = phone("key", &[2_000, 2_600], 10_000);
    assert!(timer(&a, 0) < timer(&a, 1) && timer(&later, 0) < timer(&later, 1));
    assert_eq!(a.view(false), later.view(false));
    assert_same_future(&a, &later, "overdue in the same order");
    // The other order: operation 1's timer fires first. A different situation.
    let swapped = phone("key", &[1_000, 500], 10_000);
    assert!(timer(&swapped, 1) < timer(&swapped, 0));
    assert_ne!(a.view(false), swapped.view(false));
    let (mut a, mut swapped) = (a, swapped);
    let first = |w: &mut World| w.step().map(|s| s.cause.clone());
    assert_eq!(first(&mut a), Some(Cause::ClientTimer(OpId(0))));
    assert_eq!(first(&mut swapped), Some(Cause::ClientTimer(OpId(1))));
}

#[test]
fn a_timer_due_now_is_not_an_overdue_one() {
    // Due exactly now, a timer fires after everything else due now (events at the same time
    // go script, wake, restart, sweep, packet, timer); overdue, it fires before them.
    let due_now = phone("key", &[1_000], 4_000);
    let overdue = phone("key", &[500], 4_000);
    assert_eq!(timer(&due_now, 0), due_now.now);
    assert!(timer(&overdue, 0) < overdue.now);
    assert_ne!(due_now.view(false), overdue.view(false));
    // And one still to come differs from both.
    let to_come = phone("key", &[1_500], 4_000);
    assert_ne!(to_come.view(false), due_now.view(false));
    assert_ne!(to_come.view(false), overdue.view(false));
}

#[test]
fn an_operations_age_counts_up_to_the_retry_deadline() {
    // With a retry deadline the client retries an operation up to the deadline's last
    // millisecond and gives up after it: ages up to the deadline differ, ages past it are all
    // "past".
    let d = RETRY_DEADLINE_MS;
    let aged = |age: u64| phone("fully-protected", &[1_000], 1_000 + age);
    assert_eq!(aged(d).client.config().retry_deadline_ms, Some(d));
    assert_ne!(aged(d - 1).view(false), aged(d).view(false));
    assert_ne!(aged(d).view(false), aged(d + 1).view(false));
    assert_eq!(aged(d + 1).view(false), aged(d + 5_000).view(false));
    assert_same_future(&aged(d + 1), &aged(d + 5_000), "past the retry deadline");
    // Without a deadline the age is not part of the situation at all.
    let aged = |age: u64| phone("key", &[1_000], 1_000 + age);
    assert_eq!(aged(d).client.config().retry_deadline_ms, None);
    assert_eq!(aged(d - 1).view(false), aged(d).view(false));
}

#[test]
fn a_processor_key_counts_until_its_expiry() {
    // The processor forgets a key only when the next charge comes, but a key at or past its
    // expiry (a day after the charge) deduplicates nothing any more: it is as good as gone.
    let charged = |key: Option<&str>, now: u64| {
        let mut world = World::new(&scenario("fully-protected"));
        let request = ChargeRequest {
            user: ALICE,
            amount_cents: 2_000,
            idempotency_key: key.map(Into::into),
            op: OpId(0),
            fence: None,
        };
        world.processor.charge(SimTime(0), &request);
        world.now = SimTime(now);
        (world, request)
    };
    let day = crate::processor::PROCESSOR_KEY_TTL_MS;
    let (keyed, _) = charged(Some("k"), day - 1);
    let (keyless, _) = charged(None, day - 1);
    assert_ne!(keyed.view(false), keyless.view(false), "a live key counts");
    for now in [day, day + 1, 2 * day] {
        let (mut keyed, request) = charged(Some("k"), now);
        let (keyless, _) = charged(None, now);
        assert_eq!(
            keyed.view(false),
            keyless.view(false),
            "{now}: as good as gone"
        );
        assert!(
            !keyed.processor.charge(keyed.now, &request).replayed,
            "{now}: the key no longer deduplicates"
        );
    }
}
