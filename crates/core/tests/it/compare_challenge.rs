//! Compare mode, the explorer's "what changed" and the "Can you break it?" challenges: the
//! pairs of scenarios that tell the same story, a pair of worlds on one timeline, the gist of
//! each side, the classes of counter-examples two searches differ by, and challenges judged by
//! the verdict and proved unbreakable by the exhaustive explorer.
use idem_core::{class_diff, class_of, Class};
use idem_core::{
    Action, ActionError, Attempt, Bounds, Challenge, DeepLink, Explorer, Invariant, LinkError,
    Pair, Protections, Scenario, Story, World,
};

fn scenario(id: &str) -> Scenario {
    Scenario::by_id(id).expect("scenario")
}

fn payments(story: Story) -> bool {
    matches!(story, Story::NaivePost | Story::IdempotencyKey)
}

#[test]
fn compared_scenarios_tell_the_same_story() {
    for (a, b) in Scenario::COMPARE {
        let (sa, sb) = (scenario(a), scenario(b));
        assert!(
            sa.story == sb.story || payments(sa.story) && payments(sb.story),
            "{a} vs {b}"
        );
        // The same operations: only the design (and where the crash is armed) differs.
        let starts = |s: &Scenario| {
            s.script
                .iter()
                .filter(|x| matches!(x.action, Action::Start(_)))
                .map(|x| (x.at, x.action))
                .collect::<Vec<_>>()
        };
        assert_eq!(starts(&sa), starts(&sb), "{a} vs {b}");
        assert_ne!(sa.protections, sb.protections, "{a} vs {b}");
        assert!(Scenario::comparable(a, b) && Scenario::comparable(b, a));
        assert!(Scenario::compare_with(a).contains(&b) && Scenario::compare_with(b).contains(&a));
    }
    assert_eq!(Scenario::compare_with("naive"), ["key", "fully-protected"]);
    assert_eq!(Scenario::compare_with("crash-window"), ["crash-one-tx"]);
    assert!(!Scenario::comparable("naive", "cas") && !Scenario::comparable("naive", "naive"));
    assert!(Scenario::compare_with("ttl").is_empty());
    for id in Scenario::IDS {
        assert!(!Scenario::comparable(id, "nope"));
    }
}

fn run_to_end(pair: &mut Pair) {
    for _ in 0..5_000 {
        if !pair.step() {
            break;
        }
    }
    assert!(pair.is_quiescent());
}

#[test]
fn the_same_lost_ack_charges_twice_on_the_left_and_once_on_the_right() {
    let mut pair = Pair::new(&scenario("naive"), &scenario("key"));
    run_to_end(&mut pair);
    let (left, right) = (pair.left().verdict(), pair.right().verdict());
    assert_eq!(left.money.statement_cents, 20_000);
    assert!(!left.ok());
    assert_eq!(right.money.statement_cents, 10_000);
    assert!(right.ok());
    let [l, r] = pair.gists();
    assert_eq!((l.effects, l.broken), (2, Some(Invariant::AtMostOnce)));
    assert!(!l.replayed);
    assert_eq!((r.effects, r.broken), (1, None));
    assert!(r.replayed, "the retry got the stored answer");
    // Each side is exactly its own run: the pair adds no event to either.
    let mut alone = World::new(&scenario("key"));
    alone.run(5_000);
    assert_eq!(pair.right().verdict(), alone.verdict());
    assert_eq!(pair.right().step_count(), alone.step_count());
}

#[test]
fn both_worlds_live_through_the_same_simulated_time() {
    let mut pair = Pair::new(&scenario("counter-naive"), &scenario("counter"));
    let mut steps = 0;
    while pair.step() {
        steps += 1;
        // A bound: a pair that never goes quiet fails here instead of spinning.
        assert!(steps < 1_000, "the pair never went quiet");
        for (a, b) in [(pair.left(), pair.right()), (pair.right(), pair.left())] {
            // Nothing is due on one side before the moment the other has reached.
            if let Some(next) = a.next_wakeup() {
                assert!(next >= b.now(), "step {steps}: {next:?} < {:?}", b.now());
            }
        }
        assert_eq!(pair.now(), pair.left().now().max(pair.right().now()));
    }
    assert_eq!(pair.step_count(), steps);
    assert_eq!(pair.left().ledger().posts[0].likes, 102);
    assert_eq!(pair.right().ledger().posts[0].likes, 101);
}

#[test]
fn an_action_reaches_both_sides_or_is_refused_by_both() {
    let naive = scenario("naive").without_scripted_faults();
    let key = scenario("key").without_scripted_faults();
    let mut pair = Pair::new(&naive, &key);
    let before = pair.clone();
    assert_eq!(
        pair.apply(Action::RetryNow),
        Err(ActionError::NothingToRetry)
    );
    assert_eq!(pair, before, "refused by both: nothing changes");
    assert_eq!(pair.apply(Action::LoseNextAck), Ok([None, None]));
    assert!(pair.left().next_ack_will_be_lost() && pair.right().next_ack_will_be_lost());
    assert_eq!(pair.injected(), &[(0, Action::LoseNextAck)]);
    assert_eq!(pair.step_count(), 1);
    run_to_end(&mut pair);
    assert_eq!(pair.left().verdict().money.statement_cents, 20_000);
    assert_eq!(pair.right().verdict().money.statement_cents, 10_000);
    // Both runs are over: a retry is refused by both.
    assert!(pair.apply(Action::RetryNow).is_err());
    // Evicting keys applies to both (the naive side has an empty store).
    assert_eq!(pair.apply(Action::EvictKeys), Ok([None, None]));
}

#[test]
fn a_compare_link_round_trips_and_rebuilds_the_pair() {
    let link = DeepLink::parse("compare=key&scenario=naive&base=1&faults=0.lose-ack&step=9")
        .expect("valid");
    assert_eq!(link.compare.as_deref(), Some("key"));
    assert_eq!(
        link.to_query(),
        "scenario=naive&base=1&compare=key&faults=0.lose-ack&step=9"
    );
    assert_eq!(DeepLink::parse(&link.to_query()), Ok(link.clone()));
    let snapshots = link.build_pair().expect("builds");
    assert_eq!(snapshots.len(), 10);
    let mut by_hand = Pair::new(
        &scenario("naive").without_scripted_faults(),
        &scenario("key").without_scripted_faults(),
    );
    by_hand.apply(Action::LoseNextAck).expect("applies");
    for _ in 1..9 {
        by_hand.step();
    }
    assert_eq!(snapshots[9], by_hand);
    assert!(DeepLink::parse("scenario=naive")
        .expect("ok")
        .build_pair()
        .expect("ok")
        .is_empty());
}

#[test]
fn bad_compare_and_challenge_values_are_named() {
    for (query, error) in [
        (
            "scenario=naive&compare=cas",
            LinkError::BadCompare("cas".into()),
        ),
        (
            "scenario=naive&compare=nope",
            LinkError::BadCompare("nope".into()),
        ),
        (
            "scenario=naive&compare=naive",
            LinkError::BadCompare("naive".into()),
        ),
        ("challenge=nope", LinkError::UnknownChallenge("nope".into())),
        (
            "challenge=redis-2&compare=naive",
            LinkError::BadCompare("naive".into()),
        ),
    ] {
        let (link, errors) = DeepLink::parse_lenient(query);
        assert_eq!(errors, vec![error], "{query}");
        assert_eq!(link.compare, None, "{query}");
    }
    let (link, errors) = DeepLink::parse_lenient("scenario=cas-naive&compare=cas&step=x");
    assert_eq!(
        link.compare.as_deref(),
        Some("cas"),
        "the good parts are kept"
    );
    assert_eq!(errors.len(), 1);
}

#[test]
fn a_challenge_link_opens_its_design() {
    let link = DeepLink::parse("challenge=redis-2&scenario=naive").expect("valid");
    assert_eq!(link.scenario, "key");
    assert!(link.base);
    assert_eq!(link.challenge.as_deref(), Some("redis-2"));
    assert_eq!(DeepLink::parse(&link.to_query()), Ok(link.clone()));
    for c in Challenge::ALL {
        assert_eq!(Challenge::by_id(c.id), Some(c));
        let design = c.design().expect("its scenario exists");
        assert!(!design.scripted_faults);
        let world = &link_world(&DeepLink::to_challenge(&c));
        assert_eq!(world.scenario(), &design);
        assert_eq!(
            Challenge::judge(&c, world),
            Attempt::Holds,
            "{}: no faults, no break",
            c.id
        );
    }
}

fn link_world(link: &DeepLink) -> World {
    link.build().expect("builds").pop().expect("a world")
}

/// The shortest way the explorer finds to break `c` within its budget, replayed on its design.
fn broken_by_the_explorer(c: &Challenge) -> World {
    let design = c.design().expect("design");
    let report = Explorer::new(&design, Bounds::faults(c.budget))
        .run_to_end()
        .clone();
    let cx = report
        .shortest
        .iter()
        .find(|cx| c.breaks.is_none_or(|b| b == cx.invariant))
        .expect("breakable within the budget");
    assert!(cx.faults() <= c.budget as usize);
    let mut world = World::replay(&design, &cx.injected, cx.steps).expect("replays");
    world.run(5_000);
    world
}

#[test]
fn breakable_challenges_are_solved_by_the_verdict() {
    for id in ["redis-2", "op-id-no-index"] {
        let c = Challenge::by_id(id).expect("challenge");
        let world = broken_by_the_explorer(&c);
        assert_eq!(Challenge::judge(&c, &world), Attempt::Broken, "{id}");
        // The same schedule on a design with more protection is another design.
        let mut other = c.design().expect("design");
        other.protections = Protections::ALL;
        let world = World::replay(&other, world.injected(), 0).expect("start");
        assert_eq!(Challenge::judge(&c, &world), Attempt::OtherDesign, "{id}");
    }
    // Over the budget: the key design with three retries pressed.
    let c = Challenge::by_id("redis-2").expect("challenge");
    let mut world = World::new(&c.design().expect("design"));
    world.step();
    for _ in 0..3 {
        world.apply(Action::RetryNow).expect("pending op");
    }
    assert_eq!(Challenge::judge(&c, &world), Attempt::OverBudget);
}

#[test]
fn the_lease_challenge_needs_a_pause_and_a_double_charge_without_one_does_not_count() {
    let c = Challenge::by_id("lease-2").expect("challenge");
    let design = c.design().expect("design");
    let report = Explorer::new(&design, Bounds::faults(2))
        .run_to_end()
        .clone();
    let with_pause = report
        .shortest
        .iter()
        .find(|cx| cx.invariant == Invariant::AtMostOnce && cx.signature().contains(&"pause"))
        .expect("a pause breaks it");
    let mut world =
        World::replay(&design, &with_pause.injected, with_pause.steps).expect("replays");
    world.run(5_000);
    assert_eq!(Challenge::judge(&c, &world), Attempt::Broken);
    // Charging twice without a pause (a crash in the window) does not meet the challenge.
    let other = report
        .shortest
        .iter()
        .find(|cx| cx.invariant == Invariant::AtMostOnce && !cx.signature().contains(&"pause"))
        .expect("other ways break it too");
    let mut world = World::replay(&design, &other.injected, other.steps).expect("replays");
    world.run(5_000);
    assert_eq!(Challenge::judge(&c, &world), Attempt::Holds);
    assert!(!Challenge::proves_unbreakable(&c, &design, 2, &report));
}

#[test]
fn the_fully_protected_design_is_proved_to_keep_the_money_right_with_three_faults() {
    let fully = Challenge::by_id("fully-3").expect("challenge");
    let design = fully.design().expect("design");
    let report = Explorer::new(&design, Bounds::faults(3))
        .run_to_end()
        .clone();
    // The challenge counts every invariant, the user-truth one too (issue 41): a lost answer
    // to the outcome check after hours offline leaves a paid user told "we couldn't confirm",
    // so it can be won now. The money invariants alone are proved.
    assert!(!Challenge::proves_unbreakable(&fully, &design, 3, &report));
    let c = Challenge {
        breaks: Some(Invariant::AtMostOnce),
        ..fully
    };
    assert!(Challenge::proves_unbreakable(&c, &design, 3, &report));
    assert!(report.runs > 0 && report.done, "{report:?}");
    // A finished report that ran nothing proves nothing (zero violations of zero runs).
    let empty = idem_core::Report {
        done: true,
        ..idem_core::Report::default()
    };
    assert!(!Challenge::proves_unbreakable(&c, &design, 3, &empty));
    // Fewer faults than the budget, an unfinished search, or another design prove nothing.
    let small = Explorer::new(&design, Bounds::faults(2))
        .run_to_end()
        .clone();
    assert!(!Challenge::proves_unbreakable(&c, &design, 2, &small));
    let mut unfinished = Explorer::new(&design, Bounds::faults(3));
    unfinished.run_for(10);
    assert!(!Challenge::proves_unbreakable(
        &c,
        &design,
        3,
        unfinished.report()
    ));
    let key = scenario("key");
    let redis = Challenge::by_id("redis-2").expect("challenge");
    let report_key = Explorer::new(&key, Bounds::faults(2)).run_to_end().clone();
    assert!(
        !Challenge::proves_unbreakable(&redis, &key, 2, &report_key),
        "key breaks"
    );
    assert!(
        !Challenge::proves_unbreakable(&redis, &design, 3, &report),
        "another design"
    );
}

fn classes(id: &str, protections: Protections) -> Vec<Class> {
    let s = scenario(id).with_protections(protections);
    Explorer::new(&s, Bounds::faults(1))
        .run_to_end()
        .shortest
        .iter()
        .map(class_of)
        .collect()
}

#[test]
fn enabling_a_protection_fixes_classes_of_counterexamples() {
    let before = classes("naive", Protections::NONE);
    let mut p = Protections::NONE;
    p.idempotency_key = true;
    let after = classes("naive", p);
    let diff = class_diff(&before, &after);
    assert!(!diff.fixed.is_empty(), "{before:?} -> {after:?}");
    for c in &diff.fixed {
        assert!(before.contains(c) && !after.contains(c));
    }
    for c in &diff.new {
        assert!(after.contains(c) && !before.contains(c));
    }
    // Turning it off again brings exactly those back.
    let back = class_diff(&after, &before);
    assert_eq!(
        (back.fixed, back.new),
        (diff.new.clone(), diff.fixed.clone())
    );
    let same = class_diff(&before, &before);
    assert!(same.fixed.is_empty() && same.new.is_empty());
    assert_eq!(class_diff(&[], &before).new.len(), before.len());
}

#[test]
fn a_standing_is_kept_by_its_name() {
    use idem_core::Standing;
    let all = [Standing::Open, Standing::Solved, Standing::Impossible];
    let names: Vec<&str> = all.iter().map(|s| s.name()).collect();
    assert_eq!(names, ["open", "solved", "impossible"]);
    for s in all {
        assert_eq!(Standing::from_name(s.name()), Some(s));
    }
    assert_eq!(Standing::from_name("nope"), None);
    assert_eq!(Standing::from_name(""), None);
}

/// A challenge of the tests' own: `breaks` and `needs` on a design.
fn custom(
    scenario: &'static str,
    budget: u32,
    breaks: Option<Invariant>,
    needs: Option<&'static str>,
) -> Challenge {
    Challenge {
        id: "test",
        scenario,
        budget,
        breaks,
        needs,
    }
}

#[test]
fn only_the_invariant_a_challenge_names_solves_it() {
    // The key design charged twice: it breaks "at most once", not the likes' invariant.
    let redis = Challenge::by_id("redis-2").expect("challenge");
    let world = broken_by_the_explorer(&redis);
    assert!(world
        .verdict()
        .violations()
        .any(|(i, _)| i == Invariant::AtMostOnce));
    let likes = custom("key", 2, Some(Invariant::LikesMatchOperations), None);
    assert_eq!(Challenge::judge(&likes, &world), Attempt::Holds);
    let once = custom("key", 2, Some(Invariant::AtMostOnce), None);
    assert_eq!(Challenge::judge(&once, &world), Attempt::Broken);
}

#[test]
fn a_proof_counts_only_the_runs_that_break_what_the_challenge_asks_for() {
    // The naive design breaks with one fault, but never by an eviction (it has no store):
    // "break it with an eviction" is proved impossible, "break it" is not.
    let naive = scenario("naive").without_scripted_faults();
    let report = Explorer::new(&naive, Bounds::faults(1))
        .run_to_end()
        .clone();
    assert!(report.violating_runs > 0);
    assert!(Challenge::proves_unbreakable(
        &custom("naive", 1, None, Some("evict")),
        &naive,
        1,
        &report
    ));
    assert!(!Challenge::proves_unbreakable(
        &custom("naive", 1, None, None),
        &naive,
        1,
        &report
    ));
    assert!(!Challenge::proves_unbreakable(
        &custom("naive", 1, None, Some("drop")),
        &naive,
        1,
        &report
    ));
    // Named invariants: the naive design charges twice, and has no likes to miscount.
    let once = custom("naive", 1, Some(Invariant::AtMostOnce), None);
    assert!(!Challenge::proves_unbreakable(&once, &naive, 1, &report));
    let likes = custom("naive", 1, Some(Invariant::LikesMatchOperations), None);
    assert!(Challenge::proves_unbreakable(&likes, &naive, 1, &report));
    let likes_by_drop = custom(
        "naive",
        1,
        Some(Invariant::LikesMatchOperations),
        Some("drop"),
    );
    assert!(Challenge::proves_unbreakable(
        &likes_by_drop,
        &naive,
        1,
        &report
    ));
    let once_by_drop = custom("naive", 1, Some(Invariant::AtMostOnce), Some("drop"));
    assert!(!Challenge::proves_unbreakable(
        &once_by_drop,
        &naive,
        1,
        &report
    ));
    // The same scenario with other protections is another design: its search proves nothing.
    let all = naive.clone().with_protections(Protections::ALL);
    let report_all = Explorer::new(&all, Bounds::faults(1)).run_to_end().clone();
    assert_eq!(report_all.violations_of(Invariant::LikesMatchOperations), 0);
    assert!(!Challenge::proves_unbreakable(&likes, &all, 1, &report_all));
    // The op_id design without its index breaks "at most once" within its budget.
    let c = Challenge::by_id("op-id-no-index").expect("challenge");
    let design = c.design().expect("design");
    let report = Explorer::new(&design, Bounds::faults(2))
        .run_to_end()
        .clone();
    assert!(!Challenge::proves_unbreakable(&c, &design, 2, &report));
}

#[test]
fn a_pair_is_quiet_only_when_both_sides_are_and_its_gist_says_which_broke() {
    use idem_core::Gist;
    let left = scenario("naive");
    let right = scenario("key");
    let mut pair = Pair::new(&left, &right);
    run_to_end(&mut pair);
    assert!(pair.is_quiescent());
    assert!(!pair.step(), "nothing left to step");
    // The left side charged twice, the right once.
    let (l, r) = (Gist::of(pair.left()), Gist::of(pair.right()));
    assert!(!l.ok() && l.broken.is_some());
    assert!(r.ok() && r.broken.is_none());
    // One side still going: the pair is not quiet, and its next event is that side's.
    let mut mixed = Pair::new(&scenario("key"), &scenario("ttl"));
    for _ in 0..1_000 {
        if mixed.left().is_quiescent() {
            break;
        }
        assert!(mixed.step());
    }
    assert!(
        mixed.left().is_quiescent(),
        "the left side never went quiet"
    );
    assert!(!mixed.right().is_quiescent(), "ttl waits a day on");
    assert!(!mixed.is_quiescent());
    assert_eq!(mixed.next_wakeup(), mixed.right().next_wakeup());
    assert!(mixed.next_wakeup().is_some());
}
