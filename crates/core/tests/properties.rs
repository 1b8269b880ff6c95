//! Property tests over random fault schedules: what must hold with the protections on, what
//! must break without them, and determinism under any schedule.

mod support;

use idem_core::time::HOUR;
use idem_core::{Action, Invariant, Phase, Protections, Scenario, Status, World};
use proptest::prelude::*;
use support::*;

/// A fault, with message choices as indexes into whatever is in flight on the mobile link.
#[derive(Clone, Debug)]
enum Fault {
    Drop(usize),
    Duplicate(usize),
    Delay(usize, u64),
    LoseNextAck,
    Crash(Phase),
    EvictKeys,
    RetryNow,
    ConcurrentDuplicate,
    AdvanceClock(u64),
}

fn network_fault() -> impl Strategy<Value = Fault> {
    prop_oneof![
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
    ]
}

fn any_fault() -> impl Strategy<Value = Fault> {
    prop_oneof![
        4 => network_fault(),
        1 => prop::sample::select(Phase::ALL.to_vec()).prop_map(Fault::Crash),
        1 => Just(Fault::EvictKeys),
        1 => prop_oneof![Just(HOUR / 2), Just(25 * HOUR)].prop_map(Fault::AdvanceClock),
    ]
}

/// Up to four faults, each at a step number within the first 40 steps.
fn schedule(fault: impl Strategy<Value = Fault>) -> impl Strategy<Value = Vec<(usize, Fault)>> {
    prop::collection::vec((0..40usize, fault), 0..=4).prop_map(|mut s| {
        s.sort_by_key(|(at, _)| *at);
        s
    })
}

fn to_action(world: &World, fault: &Fault) -> Action {
    let mobile: Vec<_> = world
        .network()
        .in_flight()
        .filter(|m| m.is_faultable())
        .map(|m| m.id)
        .collect();
    let pick = |i: usize| {
        mobile
            .get(i % mobile.len().max(1))
            .copied()
            .unwrap_or(idem_core::MsgId(u32::MAX))
    };
    match fault {
        Fault::Drop(i) => Action::Drop(pick(*i)),
        Fault::Duplicate(i) => Action::Duplicate(pick(*i)),
        Fault::Delay(i, ms) => Action::Delay(pick(*i), *ms),
        Fault::LoseNextAck => Action::LoseNextAck,
        Fault::Crash(phase) => Action::Crash(*phase),
        Fault::EvictKeys => Action::EvictKeys,
        Fault::RetryNow => Action::RetryNow,
        Fault::ConcurrentDuplicate => Action::ConcurrentDuplicate,
        Fault::AdvanceClock(ms) => Action::AdvanceClock(*ms),
    }
}

/// Runs `scenario` with `faults` injected at their step numbers (inapplicable ones are
/// refused by the world and skipped), then to quiescence.
fn run_with(scenario: &Scenario, faults: &[(usize, Fault)]) -> World {
    let mut world = World::new(scenario);
    let mut pending = faults.iter().peekable();
    for _ in 0..STEP_BOUND {
        while let Some((_, fault)) = pending.next_if(|(at, _)| *at <= world.steps().len()) {
            let action = to_action(&world, fault);
            let _refused_or_applied = world.apply(action);
        }
        if world.step().is_none() && pending.peek().is_none() {
            break;
        }
    }
    assert!(world.is_quiescent(), "{} did not settle", scenario.id);
    world
}

fn with_seed(id: &str, seed: u64) -> Scenario {
    let mut s = scenario(id);
    s.seed = seed;
    s
}

/// 300 cases per property, or `PROPTEST_CASES` for a longer hunt.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

fn holds(world: &World, invariant: Invariant) -> bool {
    world.verdict().status(invariant) == Some(&Status::Holds)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Every protection on: no fault schedule charges twice, loses a ledger row, leaks, or
    /// shows a false success.
    #[test]
    fn fully_protected_charges_survive_any_schedule(seed in any::<u64>(), faults in schedule(any_fault())) {
        let world = run_with(&with_seed("fully-protected", seed), &faults);
        let verdict = world.verdict();
        prop_assert!(verdict.ok(), "{:?}\n{}", verdict, trace_text(&world));
        prop_assert!(world.processor().statement.len() <= 1);
    }

    /// The seed's key design (Redis, lock, fingerprint, scope) survives any network fault:
    /// losses, duplicates, delays, early retries. Its windows need a crash, an eviction or time.
    #[test]
    fn seed_key_design_survives_network_faults(seed in any::<u64>(), faults in schedule(network_fault())) {
        let world = run_with(&with_seed("key", seed), &faults);
        prop_assert!(holds(&world, Invariant::AtMostOnce), "{}", trace_text(&world));
        prop_assert!(holds(&world, Invariant::SuccessMeansDone));
    }

    /// Compare-and-set never debits twice, whatever happens.
    #[test]
    fn compare_and_set_never_double_debits(seed in any::<u64>(), faults in schedule(any_fault())) {
        let world = run_with(&with_seed("cas", seed), &faults);
        prop_assert!(holds(&world, Invariant::AtMostOnce), "{}", trace_text(&world));
        prop_assert!(holds(&world, Invariant::BalanceMatchesDebits));
        let account = &world.ledger().accounts[0];
        prop_assert!(account.balance == 100 || account.balance == 80);
    }

    /// An op_id with a unique index never counts a like twice.
    #[test]
    fn op_id_dedup_never_overcounts(seed in any::<u64>(), faults in schedule(any_fault())) {
        let world = run_with(&with_seed("counter", seed), &faults);
        prop_assert!(holds(&world, Invariant::LikesMatchOperations), "{}", trace_text(&world));
        prop_assert!(world.ledger().posts[0].likes <= 101);
    }

    /// The naive variants break under the seed's own schedule whatever the seed (jitter, keys),
    /// and their protected twins hold.
    #[test]
    fn the_seed_stories_do_not_depend_on_the_seed(seed in any::<u64>()) {
        for id in ["naive", "cas-naive", "counter-naive", "counter-no-index", "concurrent-no-lock", "crash-window"] {
            prop_assert!(!run_scenario(&with_seed(id, seed)).verdict().ok(), "{} held", id);
        }
        for id in ["key", "cas", "counter", "concurrent", "crash-one-tx", "fully-protected"] {
            prop_assert!(run_scenario(&with_seed(id, seed)).verdict().ok(), "{} broke", id);
        }
    }

    /// Same scenario, seed and schedule: equal worlds, whatever the protections.
    #[test]
    fn any_schedule_is_deterministic(
        id in prop::sample::select(idem_core::scenario::IDS.to_vec()),
        bits in any::<u16>(),
        seed in any::<u64>(),
        faults in schedule(any_fault()),
    ) {
        let mut protections = Protections::NONE;
        for (i, name) in Protections::NAMES.iter().enumerate() {
            protections.set(name, bits & (1 << i) != 0);
        }
        let scenario = with_seed(id, seed).with_protections(protections);
        prop_assert_eq!(run_with(&scenario, &faults), run_with(&scenario, &faults));
    }
}

#[test]
fn naive_breaks_with_a_single_lost_ack_injected_by_hand() {
    let mut scenario = scenario("naive");
    scenario.script.retain(|s| s.action != Action::LoseNextAck);
    assert!(run_scenario(&scenario).verdict().ok(), "no fault, no harm");
    let world = run_with(&scenario, &[(0, Fault::LoseNextAck)]);
    assert!(!world.verdict().ok());
}
