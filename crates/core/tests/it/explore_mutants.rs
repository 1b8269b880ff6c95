//! The explorer's public surface, pinned against the survivors of
//! `bash scripts/mutants.sh explore` (docs/notes-mutants.md): which faults it offers in a
//! situation, which crash phases a scenario's handler can reach, its bounds, its
//! counter-examples and its report. The brute-force oracle (`explore_brute`) shares
//! `faults` and `root` with the explorer, so comparing the two cannot see a mutant there:
//! these tests state what the menu must be. Only the public API is used, so the tests hold
//! through a rewrite of the search's internals; each runs in milliseconds.

use crate::support;

use idem_core::{
    Action, Bounds, CounterExample, Explorer, Invariant, MsgId, Phase, Report, Scenario, SimTime,
    World,
};
use support::*;

const HOUR: u64 = SimTime::HOUR;

/// The explorer's menu in `world` (see [`Explorer::faults`]).
fn faults(world: &World) -> Vec<Action> {
    Explorer::faults(world)
}

/// The phases a handler of `scenario` reaches (see [`Explorer::phases`]).
fn phases(scenario: &Scenario) -> Vec<Phase> {
    Explorer::phases(scenario)
}

/// The explorer's starting world for `id`: its operations, none of its scripted faults.
fn base(id: &str) -> World {
    World::new(&scenario(id).without_scripted_faults())
}

/// The packets in flight.
fn in_flight(world: &World) -> Vec<MsgId> {
    world.network().in_flight().map(|m| m.id).collect()
}

/// The client faults offered while an operation is open and the phone online (a concurrent
/// second request is the scenario's own choice, not a fault the search adds).
const CLIENT: [Action; 2] = [Action::RetryNow, Action::AdvanceClock(25 * HOUR)];

/// What the API offers just before it acts in `naive` (no key, so no store to evict): a crash
/// and a pause before each of its phases, and losing its next answer.
fn api_faults(crash: bool, pause: bool, lose: bool) -> Vec<Action> {
    let phases = [Phase::CallProcessor, Phase::WriteLedger, Phase::Respond];
    let mut out = Vec::new();
    if crash {
        out.extend(phases.map(Action::Crash));
    }
    if pause {
        out.extend(phases.map(Action::Pause));
    }
    if lose {
        out.push(Action::LoseNextAck);
    }
    out
}

#[test]
fn the_crash_phases_are_those_the_scenarios_handler_reaches() {
    use Phase::*;
    let cases: [(&str, &[Phase]); 7] = [
        // No key: a charge goes straight to the processor.
        ("naive", &[CallProcessor, WriteLedger, Respond]),
        // A key in Redis: claimed first, recorded after the ledger.
        (
            "key",
            &[ClaimKey, CallProcessor, WriteLedger, RecordKey, Respond],
        ),
        // The key in the ledger's transaction: nothing left to record afterwards.
        (
            "fully-protected",
            &[ClaimKey, CallProcessor, WriteLedger, Respond],
        ),
        // The API wants keys but the client sends none: nothing to claim or record.
        ("missing-key", &[CallProcessor, WriteLedger, Respond]),
        // Debits and likes never call the processor.
        ("cas", &[WriteLedger, Respond]),
        ("counter", &[WriteLedger, Respond]),
        ("counter-naive", &[WriteLedger, Respond]),
    ];
    for (id, expected) in cases {
        assert_eq!(phases(&scenario(id)), expected, "{id}");
    }
}

#[test]
fn a_packet_is_offered_only_in_the_step_that_sent_it() {
    let mut world = base("naive");
    assert_eq!(
        faults(&world),
        [],
        "nothing sent, nothing to handle, no operation yet"
    );
    world.step().expect("the client starts its charge");
    let request = in_flight(&world);
    assert_eq!(request.len(), 1, "the charge request");
    let request = request[0];
    let mut expected = vec![
        Action::Drop(request),
        Action::Duplicate(request),
        Action::Delay(request, SimTime::SECOND),
    ];
    expected.extend(api_faults(true, true, true));
    expected.extend(CLIENT);
    assert_eq!(faults(&world), expected);

    // A copy may be dropped or delayed but not copied again; the original, sent a step ago,
    // is no longer offered.
    let mut copied = world.clone();
    copied
        .apply(Action::Duplicate(request))
        .expect("the request is in flight");
    let copy = *in_flight(&copied).last().expect("the copy");
    assert_ne!(copy, request);
    let mut expected = vec![Action::Drop(copy), Action::Delay(copy, SimTime::SECOND)];
    expected.extend(api_faults(true, true, true));
    expected.extend(CLIENT);
    assert_eq!(faults(&copied), expected);

    // Once a crash is armed, no other is offered; nor a second pause or a second lost
    // answer. Arming sends nothing.
    let mut armed = world.clone();
    armed.apply(Action::Crash(Phase::Respond)).expect("arms");
    let mut expected = api_faults(false, true, true);
    expected.extend(CLIENT);
    assert_eq!(faults(&armed), expected);
    let mut paused = world.clone();
    paused.apply(Action::Pause(Phase::Respond)).expect("arms");
    paused.apply(Action::LoseNextAck).expect("arms");
    let mut expected = api_faults(true, false, false);
    expected.extend(CLIENT);
    assert_eq!(faults(&paused), expected);

    // An offline phone offers no client fault.
    let mut offline = world.clone();
    offline
        .apply(Action::AdvanceClock(25 * HOUR))
        .expect("the operation is open");
    assert_eq!(faults(&offline), api_faults(true, true, true));
}

#[test]
fn an_eviction_is_offered_only_while_the_store_holds_something() {
    let mut world = base("key");
    let mut offered = 0;
    while world.step().is_some() {
        assert!(world.step_count() < 2_000, "the run ends");
        let evict = faults(&world).contains(&Action::EvictKeys);
        let holds = world.store().entries().next().is_some();
        assert_eq!(
            evict,
            holds && world.api_acts_next(),
            "step {}",
            world.step_count()
        );
        offered += usize::from(evict);
    }
    assert!(offered >= 2, "{offered}");
    // Keys in PostgreSQL: no store, never offered.
    let mut world = base("fully-protected");
    while world.step().is_some() {
        assert!(!faults(&world).contains(&Action::EvictKeys));
    }
}

#[test]
fn crashes_are_offered_only_when_the_api_acts_next_and_nothing_once_the_run_is_over() {
    let mut world = base("naive");
    let mut offered_crash = 0;
    let mut offered_none = 0;
    while world.step().is_some() {
        assert!(world.step_count() < 2_000, "the run ends");
        let menu = faults(&world);
        let api = menu
            .iter()
            .filter(|a| matches!(a, Action::Crash(_) | Action::Pause(_) | Action::LoseNextAck))
            .count();
        if world.api_acts_next() {
            assert_eq!(api, 7, "{menu:?}");
            offered_crash += 1;
        } else {
            assert_eq!(api, 0, "{menu:?}");
            offered_none += 1;
        }
        let open = world.client().retryable_op(world.now()).is_some();
        let client = menu.iter().filter(|a| CLIENT.contains(a)).count();
        assert_eq!(client, if open { 2 } else { 0 }, "{menu:?}");
        for a in &menu {
            if let Action::Drop(id) | Action::Duplicate(id) | Action::Delay(id, _) = a {
                let sent = &world.steps().last().expect("a step").sent;
                assert!(sent.contains(id), "{a:?} was sent in this step");
            }
            assert!(
                !matches!(
                    a,
                    Action::ConcurrentDuplicate
                        | Action::ReuseKeyOtherBody
                        | Action::OtherUserSameKey
                ),
                "scenario-shaping inputs are the scenario's: {a:?}"
            );
        }
    }
    assert!(
        offered_crash >= 2 && offered_none >= 2,
        "{offered_crash} {offered_none}"
    );
    assert!(world.is_quiescent());
    assert_eq!(faults(&world), [], "the run is over");
}

#[test]
fn the_menu_names_every_kind_the_player_offers_that_the_design_can_meet() {
    let all = [
        "drop", "dup", "delay", "crash", "pause", "lose-ack", "evict", "retry", "clock",
    ];
    assert_eq!(Explorer::menu_kinds(&scenario("key")), all);
    let no_store: Vec<&str> = all.into_iter().filter(|k| *k != "evict").collect();
    assert_eq!(Explorer::menu_kinds(&scenario("fully-protected")), no_store);
    assert_eq!(Explorer::menu_kinds(&scenario("naive")), no_store);
    assert_eq!(Explorer::menu_kinds(&scenario("cas")), no_store);
}

#[test]
fn the_default_bounds_are_k_faults_and_300_steps() {
    assert_eq!(
        Bounds::faults(3),
        Bounds {
            max_faults: 3,
            max_steps: 300,
            kinds: idem_core::KindSet::ALL,
        }
    );
}

#[test]
fn a_counter_examples_signature_is_its_fault_kinds_sorted() {
    let c = CounterExample {
        invariant: Invariant::AtMostOnce,
        injected: vec![
            (2, Action::RetryNow),
            (5, Action::Drop(MsgId(4))),
            (9, Action::Crash(Phase::Respond)),
            (9, Action::Drop(MsgId(7))),
        ],
        steps: 30,
    };
    assert_eq!(c.faults(), 4);
    assert_eq!(c.signature(), ["crash", "drop", "drop", "retry"]);
}

#[test]
fn the_reports_accessors_read_its_fields() {
    let empty = Report::default();
    assert_eq!(empty.violations_of(Invariant::AtMostOnce), 0);
    assert_eq!(empty.shortest_overall(), None);
    let report = Explorer::new(&scenario("naive"), Bounds::faults(1))
        .run_to_end()
        .clone();
    assert!(report.done);
    assert_eq!(report.runs_represented(), report.runs);
    assert_eq!(report.distinct_situations(), report.states);
    assert!(report.runs > 1 && report.states > 1);
    let broken = report.violations_of(Invariant::AtMostOnce);
    assert!(broken > 0 && broken <= report.violating_runs);
    assert_eq!(report.shortest_overall(), report.shortest.first());
}
