//! What the user is told is a checked invariant (issue 41, item 3), and the record of the
//! faults placed on a run says which took effect and where (item 1): the seed stories keep
//! their verdicts, no scripted scenario's verdict changes, and the review's examples are pinned.

use crate::support;

use idem_core::{
    Action, DeepLink, Fault, Gist, Invariant, Outcome, Phase, PlacedBy, Scenario, Told, World,
};

use support::{holds, record_beside_notes, user_misinformed, RECORD_DESIGNS};

fn end(id: &str) -> World {
    let mut world = World::new(&Scenario::by_id(id).expect("scenario"));
    world.run(5_000);
    world
}

fn linked(query: &str) -> World {
    let link = DeepLink::parse(query).expect("link");
    let scenario = link.scenario().expect("scenario");
    let last = link.faults.iter().map(|(at, _)| *at).max().unwrap_or(0);
    let mut world = World::replay(&scenario, &link.faults, last + 1).expect("replays");
    world.run(5_000);
    world
}

#[test]
fn no_scripted_scenario_changes_its_verdict_and_the_seed_stories_keep_theirs() {
    // Every scenario as scripted tells its user the truth: the new invariant changes none of
    // their verdicts (the list of changes is empty).
    let changed: Vec<&str> = Scenario::IDS
        .into_iter()
        .filter(|id| !holds(&end(id), Invariant::UserToldTheTruth))
        .collect();
    assert_eq!(changed, Vec::<&str>::new());
    for (id, ok) in [
        ("naive", false),
        ("key", true),
        ("cas", true),
        ("counter-naive", false),
        ("counter", true),
    ] {
        assert_eq!(end(id).verdict().ok(), ok, "{id}");
    }
}

#[test]
fn the_cas_412_shows_the_balance_and_every_reader_says_so() {
    let world = end("cas");
    let outcome = Outcome::of(&world);
    assert_eq!(
        outcome
            .ops
            .iter()
            .map(|o| (o.told, o.effects))
            .collect::<Vec<_>>(),
        vec![(Told::State, 1)]
    );
    assert!(holds(&world, Invariant::UserToldTheTruth));
    assert!(world.verdict().error_but_done.is_empty());
    let gist = Gist::of(&world);
    assert!(gist.shown_state && !gist.error, "{gist:?}");
    // A 412 for a debit another writer beat: shown the state, nothing done, no lie either.
    let race = Outcome::of(&end("cas-race"));
    assert!(race
        .ops
        .iter()
        .any(|o| (o.told, o.effects) == (Told::State, 0)));
}

#[test]
fn a_payment_that_went_through_but_could_not_be_confirmed_breaks_the_user_truth() {
    // `ttl` with only the client's retry deadline: the phone gives up ("we couldn't confirm")
    // on a payment that went through. With the outcome check as well, it asks and is told.
    let mut deadline = Scenario::by_id("ttl").expect("ttl");
    deadline.protections.set("deadline", true);
    let mut world = World::new(&deadline);
    world.run(5_000);
    let outcome = Outcome::of(&world);
    assert!(
        outcome
            .ops
            .iter()
            .any(|o| o.told == Told::Unconfirmed && o.effects == 1),
        "{outcome:?}"
    );
    assert_eq!(outcome.broken, vec![Invariant::UserToldTheTruth]);
    let mut both = deadline.clone();
    both.protections.set("status-check", true);
    let mut world = World::new(&both);
    world.run(5_000);
    assert!(world.verdict().ok(), "{:?}", world.verdict());
}

#[test]
fn the_pause_link_records_the_stall_and_where_it_hit() {
    let world = linked("scenario=key&base=1&faults=0.pause.call-processor");
    let outcome = Outcome::of(&world);
    assert!(
        outcome
            .faults
            .contains(&Fault::Paused(Phase::CallProcessor)),
        "{outcome:?}"
    );
    let pause = outcome.placed.first().expect("placed");
    assert_eq!(pause.by, PlacedBy::Injected);
    let hit = pause.hit.expect("it took effect");
    assert_eq!(hit.fault, Fault::Paused(Phase::CallProcessor));
    assert_eq!((hit.op.map(|o| o.0), hit.attempt), (Some(0), Some(1)));
    assert!(hit.msg.is_some());
    assert!(hit.step > pause.step);
}

#[test]
fn the_scenario_s_own_faults_are_marked_as_scripted() {
    let outcome = Outcome::of(&end("lease-expiry"));
    let kinds: Vec<(&str, PlacedBy, bool)> = outcome
        .placed
        .iter()
        .map(|p| (p.action.kind_name(), p.by, p.hit.is_some()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("pause", PlacedBy::Script, true),
            ("retry", PlacedBy::Script, true)
        ]
    );
    assert!(outcome
        .faults
        .contains(&Fault::Paused(Phase::CallProcessor)));
}

#[test]
fn a_crash_or_a_clock_jump_at_the_quiet_end_finds_nothing_to_hit() {
    let key = Scenario::by_id("key")
        .expect("key")
        .without_scripted_faults();
    let mut world = World::new(&key);
    world.run(5_000);
    world
        .apply(Action::Crash(Phase::WriteLedger))
        .expect("arms");
    world
        .apply(Action::AdvanceClock(25 * idem_core::SimTime::HOUR))
        .expect("applies");
    world.run(5_000);
    let outcome = Outcome::of(&world);
    assert_eq!(outcome.placed.len(), 2);
    assert!(
        outcome.placed.iter().all(|p| p.hit.is_none()),
        "{outcome:?}"
    );
    assert!(!outcome.faults.contains(&Fault::Offline), "{outcome:?}");
    // The same jump while the first request is on its way does take effect.
    let mut world = World::new(&key);
    world.step().expect("starts");
    world
        .apply(Action::AdvanceClock(25 * idem_core::SimTime::HOUR))
        .expect("applies");
    world.run(5_000);
    let outcome = Outcome::of(&world);
    assert!(outcome.placed[0].hit.is_some(), "{outcome:?}");
    assert!(outcome.faults.contains(&Fault::Offline));
}

#[test]
fn the_lease_challenge_s_break_lists_its_pause() {
    let c = idem_core::Challenge::by_id("lease-2").expect("challenge");
    let design = c.design().expect("design");
    let report = idem_core::Explorer::new(&design, idem_core::Bounds::faults(2))
        .run_to_end()
        .clone();
    let cx = report
        .shortest
        .iter()
        .find(|cx| cx.invariant == Invariant::AtMostOnce && cx.signature().contains(&"pause"))
        .expect("a pause breaks it");
    let mut world = World::replay(&design, &cx.injected, cx.steps).expect("replays");
    world.run(5_000);
    let outcome = Outcome::of(&world);
    assert!(
        outcome.faults.iter().any(|f| matches!(f, Fault::Paused(_))),
        "{outcome:?}"
    );
}

#[test]
fn the_narration_s_last_answer_and_the_told_state_agree() {
    // The narration picks "shows the balance from the answer" by the note's key; the verdict,
    // the phone panel and the compare line read `Told`: for every scenario's operations the
    // two say the same (a settled screen is the last answer the phone took).
    let mut states = 0;
    for id in Scenario::IDS {
        let world = end(id);
        for op in world.client().ops() {
            let last = world
                .steps()
                .iter()
                .rev()
                .flat_map(|s| s.notes.iter().rev())
                .find(
                    |n| matches!(n, idem_core::Note::ClientGotAnswer { op: o, .. } if *o == op.op),
                )
                .map(|n| n.key());
            let told = op.view.told();
            assert_eq!(
                told == Told::State,
                last == Some("client.got_current_state"),
                "{id}: {told:?} {last:?}"
            );
            states += usize::from(told == Told::State);
        }
    }
    assert!(states >= 2, "cas and cas-race show a state");
}

/// "Surprise me" draws: over many seeds and designs, the record holds every drawn fault, says
/// a crash, a stall, a lost answer or an eviction took effect exactly as often as the notes
/// tell one, and the user-truth verdict agrees with the phone's final screens.
#[test]
fn chaos_draws_are_recorded_as_the_notes_tell() {
    let mut missed = 0;
    for id in RECORD_DESIGNS {
        let scenario = Scenario::by_id(id).expect("scenario");
        let design = scenario.clone().without_scripted_faults();
        for seed in 0..40u32 {
            let schedule = idem_core::chaos::schedule(&scenario, seed);
            let last = schedule.iter().map(|(at, _)| *at).max().unwrap_or(0);
            let mut world = World::replay(&design, &schedule, last + 1).expect("replays");
            world.run(5_000);
            let outcome = Outcome::of(&world);
            let drawn: Vec<Action> = schedule.iter().map(|(_, a)| *a).collect();
            let placed: Vec<Action> = outcome.placed.iter().map(|p| p.action).collect();
            assert_eq!(placed, drawn, "{id} {seed}");
            for (kind, hits, notes) in record_beside_notes(&world, &outcome) {
                assert_eq!(hits, notes, "{id} {seed}: {kind}");
            }
            missed += outcome.placed.iter().filter(|p| p.hit.is_none()).count();
            assert_eq!(
                !holds(&world, Invariant::UserToldTheTruth),
                user_misinformed(&world),
                "{id} {seed}"
            );
        }
    }
    assert!(missed > 0, "some drawn faults find nothing to hit");
}
