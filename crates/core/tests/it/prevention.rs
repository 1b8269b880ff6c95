//! "Would have prevented it", proved by the search (issue 41 item 2): the examples
//! pinned, and every answer checked against what it claims (a breaking schedule breaks the
//! design it names; a proof agrees with a whole search of the same bounds).

use crate::support;

use idem_core::{
    check_prevention, Action, Bounds, Challenge, Claim, ClaimAnswer, ClaimScope, Explorer,
    FaultKind, Invariant, KindSet, Phase, Prevention, Protection, Scenario, World,
};
use support::*;

fn names(claim: &Claim) -> Vec<&'static str> {
    claim.protections.iter().map(|p| p.name()).collect()
}

fn proved(p: &Prevention) -> Vec<Vec<&'static str>> {
    p.preventing().into_iter().map(names).collect()
}

/// The run a breaking answer names, played to its end in the claim's design.
fn replayed(scenario: &Scenario, claim: &Claim) -> World {
    let ClaimAnswer::Breaks(cx) = &claim.answer else {
        panic!("{:?} breaks: {:?}", names(claim), claim.answer);
    };
    let design = claim.design(scenario).without_scripted_faults();
    let mut world = World::replay(&design, &cx.injected, cx.steps).expect("it replays");
    world.run(5_000);
    assert!(world.is_quiescent());
    world
}

/// The challenge's own winning run: a pause, then a Retry (the explorer's shortest).
fn lease_2_run() -> (Scenario, Vec<(u32, Action)>) {
    let design = Challenge::by_id("lease-2")
        .and_then(|c| c.design())
        .expect("lease-2");
    let report = Explorer::new(&design, Bounds::faults(2))
        .run_to_end()
        .clone();
    let cx = report
        .shortest
        .iter()
        .find(|c| c.uses_kind(FaultKind::Pause) && c.uses_kind(FaultKind::Retry))
        .expect("a pause and a Retry break it")
        .clone();
    (design, cx.injected)
}

#[test]
fn lease_2_the_key_in_the_ledger_transaction_is_not_credited_and_still_charges_twice() {
    let (design, injected) = lease_2_run();
    let p = check_prevention(&design, &injected);
    assert_eq!(p.faults, 2);
    assert_eq!(p.kinds, [FaultKind::Pause, FaultKind::Retry]);
    assert_eq!(p.scope, ClaimScope::Searched);
    let same_tx = p.single(Protection::SameTx).expect("same-tx is off");
    assert!(!same_tx.prevents(), "{same_tx:?}");
    assert!(same_tx.absent.is_empty(), "the pause's phase is there");
    assert!(same_tx.holds_this_schedule, "the replay alone credited it");
    let world = replayed(&design, same_tx);
    assert!(world
        .verdict()
        .violations()
        .any(|(i, _)| i == Invariant::AtMostOnce));
    assert_eq!(
        world.verdict().money.statement_cents,
        20_000,
        "charged twice"
    );
    // A processor that deduplicates the forwarded key stops every stale holder; fencing the
    // ledger write does not stop one paused before it (what this branch's search finds).
    assert_eq!(proved(&p), [["forward"]]);
    let fencing = p.single(Protection::Fencing).expect("fencing is off");
    assert!(!replayed(&design, fencing).verdict().ok());
    // The scripted story of the same run says the same.
    let story = check_prevention(&scenario("lease-expiry"), &[]);
    assert_eq!(proved(&story), [["forward"]]);
}

#[test]
fn crash_window_names_the_crash_that_cannot_happen_with_the_key_in_the_transaction() {
    let s = scenario("crash-window");
    let p = check_prevention(&s, &[]);
    assert_eq!((p.faults, p.kinds.as_slice()), (1, &[FaultKind::Crash][..]));
    let same_tx = p.single(Protection::SameTx).expect("same-tx is off");
    assert_eq!(same_tx.absent, [Action::Crash(Phase::RecordKey)]);
    assert!(!same_tx.prevents(), "never credited for a vanished crash");
    assert!(
        same_tx.holds_this_schedule,
        "the replay had no crash at all"
    );
    assert!(!replayed(&s, same_tx).verdict().ok());
    assert_eq!(proved(&p), [["forward"]]);
    // No other protection has a crash that cannot happen.
    assert!(p
        .singles
        .iter()
        .filter(|c| c.protections != [Protection::SameTx])
        .all(|c| c.absent.is_empty()));
}

#[test]
fn crash_no_forward_still_breaks_and_only_forwarding_is_credited() {
    let s = scenario("crash-no-forward");
    assert!(!run("crash-no-forward").verdict().ok());
    let p = check_prevention(&s, &[]);
    assert!(p.single(Protection::SameTx).is_none(), "already on");
    assert_eq!(proved(&p), [["forward"]]);
}

/// `ttl` (a lost answer, then the phone offline past the key's 24 h): the retry deadline alone is
/// not credited, because the user it stops is told "we couldn't confirm your payment" for a
/// payment that went through (the user-truth invariant). The deadline with "ask for the
/// outcome" holds this very schedule, yet it is not proved either: the outcome check asks once,
/// and a lost answer to that one question leaves the same screen. The page says what each
/// does not stop, with the breaking schedule, instead of crediting either.
#[test]
fn ttl_neither_the_deadline_nor_the_deadline_with_the_outcome_check_is_credited() {
    let s = scenario("ttl");
    let p = check_prevention(&s, &[]);
    assert_eq!(p.kinds, [FaultKind::LoseAck, FaultKind::Clock]);
    assert!(proved(&p).is_empty(), "{p:?}");
    let deadline = p.single(Protection::Deadline).expect("deadline is off");
    assert!(!deadline.holds_this_schedule, "{deadline:?}");
    let ClaimAnswer::Breaks(cx) = &deadline.answer else {
        panic!("{deadline:?}");
    };
    assert_eq!(cx.invariant, Invariant::UserToldTheTruth);
    // Both on: this schedule holds, but a lost answer to the one status check breaks it.
    let mut both = s.clone();
    both.protections.set("deadline", true);
    both.protections.set("status-check", true);
    let mut world = World::new(&both);
    world.run(5_000);
    assert!(
        world.is_quiescent() && world.verdict().ok(),
        "this schedule holds"
    );
    let search = Explorer::new(
        &both.clone().without_scripted_faults(),
        Bounds::faults(2).of_kinds(KindSet::of([FaultKind::LoseAck, FaultKind::Clock])),
    )
    .run_to_end()
    .clone();
    let cx = search.shortest_overall().expect("the search breaks it");
    assert_eq!(cx.invariant, Invariant::UserToldTheTruth);
    assert!(
        cx.injected.iter().any(|(_, a)| *a == Action::LoseNextAck),
        "{cx:?}"
    );
}

#[test]
fn a_pair_is_tried_only_when_no_single_protection_is_proved() {
    let p = check_prevention(&scenario("counter-naive"), &[]);
    assert!(p.singles.iter().all(|c| !c.prevents()), "{p:?}");
    let pair = p.pair.as_ref().expect("a pair closes it");
    assert_eq!(names(pair), ["op-id", "unique-index"]);
    assert_eq!(proved(&p), [["op-id", "unique-index"]]);
    let naive = check_prevention(&scenario("naive"), &[]);
    assert!(naive.pair.is_none() && proved(&naive).contains(&vec!["key"]));
}

#[test]
fn every_answer_holds_up_against_a_whole_search() {
    // A proof is a search that found nothing: the same search run to the end agrees; a
    // breaking schedule breaks the design it names, with the run's kinds and at most its
    // number of faults.
    for id in [
        "naive",
        "crash-window",
        "evict",
        "ttl",
        "concurrent-no-lock",
    ] {
        let s = scenario(id);
        let p = check_prevention(&s, &[]);
        for claim in &p.singles {
            let bounds = Bounds::faults(p.faults).of_kinds(KindSet::of(p.kinds.iter().copied()));
            match &claim.answer {
                ClaimAnswer::Prevents => {
                    let whole = Explorer::new(&claim.design(&s), bounds)
                        .run_to_end()
                        .clone();
                    assert_eq!(
                        (whole.violating_runs, whole.cut_off),
                        (0, 0),
                        "{id} {claim:?}"
                    );
                }
                ClaimAnswer::Breaks(cx) => {
                    assert!(cx.faults() <= p.faults as usize, "{id} {claim:?}");
                    assert!(cx.kinds().kinds().all(|k| p.kinds.contains(&k)), "{id}");
                    assert!(!replayed(&s, claim).verdict().ok(), "{id} {claim:?}");
                }
                other => panic!("{id} {claim:?}: {other:?}"),
            }
        }
    }
}

#[test]
fn a_run_of_more_than_three_faults_is_checked_on_its_schedule_only() {
    let s = scenario("key").without_scripted_faults();
    // Four answers lost, armed at once (each press loses one more).
    let mut world = World::new(&s);
    world.step();
    for _ in 0..4 {
        world
            .apply(Action::LoseNextAck)
            .expect("an answer is on its way");
    }
    let p = check_prevention(&s, world.injected());
    assert_eq!(p.faults, 4);
    assert_eq!(p.scope, ClaimScope::ThisScheduleOnly);
    assert!(p
        .singles
        .iter()
        .all(|c| !matches!(c.answer, ClaimAnswer::Breaks(_))));
}

/// "Surprise me" runs, as the page checks each broken one: over chaos draws, every answer
/// holds up as above. A proof agrees with the whole search of its bounds; a breaking schedule
/// breaks the design it names; a run of more than three faults, checked on its own schedule
/// only, credits a protection only when that schedule held in its design, and never when one
/// of the run's faults had no place there.
#[test]
fn every_answer_holds_up_on_surprise_me_runs() {
    let mut seen = [0usize; 3]; // proofs searched, breaks replayed, this-schedule claims
    for id in ["naive", "crash-window", "evict"] {
        let s = scenario(id);
        let design = s.clone().without_scripted_faults();
        for seed in 0..30u32 {
            let schedule = idem_core::chaos::schedule(&s, seed);
            let last = schedule.iter().map(|(at, _)| *at).max().unwrap_or(0);
            let mut world = World::replay(&design, &schedule, last + 1).expect("replays");
            world.run(5_000);
            if world.verdict().ok() {
                continue; // the page checks broken runs only
            }
            let p = check_prevention(&design, &schedule);
            assert_eq!(
                p.scope == ClaimScope::ThisScheduleOnly,
                p.faults > 3,
                "{id} {seed}: {p:?}"
            );
            let bounds = Bounds::faults(p.faults).of_kinds(KindSet::of(p.kinds.iter().copied()));
            for claim in p.singles.iter().chain(&p.pair) {
                match (&p.scope, &claim.answer) {
                    (ClaimScope::Searched, ClaimAnswer::Prevents) => {
                        let whole = Explorer::new(&claim.design(&design), bounds)
                            .run_to_end()
                            .clone();
                        assert_eq!(
                            (whole.violating_runs, whole.cut_off),
                            (0, 0),
                            "{id} {seed} {claim:?}"
                        );
                        seen[0] += 1;
                    }
                    (_, ClaimAnswer::Breaks(cx)) => {
                        assert!(cx.faults() <= p.faults as usize, "{id} {seed} {claim:?}");
                        assert!(!replayed(&design, claim).verdict().ok(), "{id} {seed}");
                        seen[1] += 1;
                    }
                    (ClaimScope::ThisScheduleOnly, ClaimAnswer::Prevents) => {
                        // Replayed by meaning in that design and held there; never because a
                        // fault of the run had no place in it.
                        assert!(claim.holds_this_schedule, "{id} {seed} {claim:?}");
                        assert!(claim.absent.is_empty(), "{id} {seed} {claim:?}");
                        seen[2] += 1;
                    }
                    (ClaimScope::ThisScheduleOnly, ClaimAnswer::BreaksThisSchedule(_))
                    | (_, ClaimAnswer::Undecided) => assert!(!claim.prevents()),
                    (_, other) => panic!("{id} {seed}: {other:?}"),
                }
            }
        }
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "each kind of answer met: {seen:?}"
    );
}
