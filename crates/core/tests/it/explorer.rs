//! "Try every failure": the explorer agrees with the scenario tests, and its counter-examples
//! replay to the same broken world.

use crate::support;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use idem_core::explore_brute;
use idem_core::{
    Action, Bounds, CounterExample, DeepLink, Explorer, Invariant, Protections, Report, Scenario,
    World,
};
use proptest::prelude::*;
use support::*;

/// The oracle's search of `scenario` within `bounds`, made once per run of this file: several
/// tests ask for the same one (`key` and `scope` at k = 2 by three tests each), and the oracle,
/// walking every schedule one by one, is this file's slowest part. Tests run on several
/// threads; two asking at once may both search, and the first one stored is kept.
fn brute(scenario: &Scenario, bounds: Bounds) -> Arc<Report> {
    static DONE: Mutex<BTreeMap<String, Arc<Report>>> = Mutex::new(BTreeMap::new());
    let key = format!("{scenario:?} {bounds:?}");
    if let Some(report) = DONE.lock().expect("not poisoned").get(&key) {
        return Arc::clone(report);
    }
    let report = Arc::new(explore_brute(scenario, bounds));
    Arc::clone(
        DONE.lock()
            .expect("not poisoned")
            .entry(key)
            .or_insert(report),
    )
}

fn explore(id: &str, k: u32) -> idem_core::Report {
    Explorer::new(&scenario(id), Bounds::faults(k))
        .run_to_end()
        .clone()
}

#[test]
fn the_fault_free_runs_are_all_fine() {
    for id in [
        "naive",
        "key",
        "cas",
        "counter-naive",
        "counter",
        "fully-protected",
    ] {
        let report = explore(id, 0);
        assert_eq!(report.runs, 1, "{id}: one run without faults");
        assert_eq!(report.violating_runs, 0, "{id}");
    }
}

#[test]
fn naive_post_breaks_with_one_fault_and_a_lost_ack_is_one_of_them() {
    let report = explore("naive", 1);
    assert!(report.violations_of(Invariant::AtMostOnce) > 0);
    let shortest = report.shortest_overall().expect("a counter-example");
    assert_eq!(shortest.faults(), 1);
    assert!(
        report.shortest.iter().any(|c| c.signature() == ["drop"]),
        "dropping the ack is among the ways: {:?}",
        report.shortest
    );
}

#[test]
fn the_search_tries_the_players_whole_menu_and_a_delay_and_a_lost_answer_break_the_seed() {
    // The seed's key design at k = 2: among the ways to break it are a delayed packet and a
    // lost answer (the player's Delay and Lose the next answer), and every kind of the menu
    // was tried.
    let report = explore("key", 2);
    let kinds: Vec<Vec<&str>> = report.shortest.iter().map(|c| c.signature()).collect();
    assert!(kinds.iter().any(|k| k.contains(&"delay")), "{kinds:?}");
    assert!(kinds.iter().any(|k| k.contains(&"lose-ack")), "{kinds:?}");
    assert!(kinds.iter().any(|k| k.contains(&"pause")), "{kinds:?}");
    assert_eq!(
        report.tried_kinds(),
        idem_core::Explorer::menu_kinds(&scenario("key"))
    );
    assert!(report.tried_kinds().contains(&"evict"));
    // Every design tries what its menu holds.
    for id in [
        "naive",
        "cas",
        "counter",
        "fully-protected",
        "lease-fencing",
    ] {
        let report = explore(id, 1);
        assert_eq!(
            report.tried_kinds(),
            idem_core::Explorer::menu_kinds(&scenario(id)),
            "{id}"
        );
    }
    // The locked design breaks with a pause and a Retry in the lease's gap (the lease-expiry
    // story); the client's own backoff alone comes back after the holder finished.
    assert!(kinds.iter().any(|k| *k == ["pause", "retry"]), "{kinds:?}");
    let one = explore("key", 1);
    assert!(!one.shortest.iter().any(|c| c.signature() == ["pause"]));
}

#[test]
fn every_counter_example_replays_to_a_broken_world() {
    for id in [
        "naive",
        "key",
        "crash-window",
        "counter-no-index",
        "scope-off",
    ] {
        let base = scenario(id).without_scripted_faults();
        let report = explore(id, 1);
        assert!(
            !report.shortest.is_empty(),
            "{id} breaks with one fault: a counter-example to replay"
        );
        for example in &report.shortest {
            let world = World::replay(&base, &example.injected, example.steps).expect("replays");
            assert!(world.is_quiescent(), "{id}: {example:?}");
            assert_eq!(world.step_count(), example.steps);
            let verdict = world.verdict();
            assert!(
                verdict.violations().any(|(i, _)| i == example.invariant),
                "{id}: {example:?} did not break {:?}",
                example.invariant
            );
        }
    }
}

#[test]
fn the_seed_key_design_breaks_with_a_crash_in_the_window() {
    let report = explore("key", 1);
    let crash = report
        .shortest
        .iter()
        .find(|c| c.invariant == Invariant::AtMostOnce && c.signature() == ["crash"])
        .expect("a crash breaks the Redis design without forwarding");
    // The window: after the processor charged, before the key's response is recorded.
    assert!(
        matches!(
            crash.injected[0].1,
            Action::Crash(idem_core::Phase::WriteLedger | idem_core::Phase::RecordKey)
        ),
        "{crash:?}"
    );
}

#[test]
fn every_protection_keeps_the_money_right_in_every_schedule_up_to_three_faults() {
    let report = explore("fully-protected", 3);
    assert!(report.runs > 10_000, "a real search: {} runs", report.runs);
    assert_eq!(report.cut_off, 0);
    for invariant in Invariant::ALL {
        if invariant != Invariant::UserToldTheTruth {
            assert_eq!(report.violations_of(invariant), 0, "{invariant:?}");
        }
    }
    // What the user is told is checked too (issue 41), and no design can promise it: the
    // outcome check asks once, so its answer lost after hours offline leaves "we couldn't
    // confirm" for a payment that went through, and a payment still in progress (a stalled
    // handler) reads as not found.
    assert!(report.violating_runs > 0);
    assert!(report
        .shortest
        .iter()
        .all(|cx| cx.invariant == Invariant::UserToldTheTruth));
    assert!(report
        .shortest
        .iter()
        .any(|cx| cx.signature() == ["clock", "drop"]));
    assert!(report
        .shortest
        .iter()
        .any(|cx| cx.signature().contains(&"pause") && !cx.signature().contains(&"clock")));
}

#[test]
fn compare_and_set_never_debits_twice_up_to_three_faults() {
    let report = explore("cas", 3);
    assert!(report.done);
    assert!(report.runs > 10_000, "a real search: {} runs", report.runs);
    assert_eq!(report.cut_off, 0, "every run was judged");
    assert_eq!(report.violations_of(Invariant::AtMostOnce), 0);
    assert_eq!(report.violations_of(Invariant::BalanceMatchesDebits), 0);
}

#[test]
fn op_id_needs_its_unique_index() {
    let report = explore("counter", 2);
    assert!(report.done);
    assert!(report.runs > 500, "a real search: {} runs", report.runs);
    assert_eq!(report.cut_off, 0, "every run was judged");
    assert_eq!(report.violating_runs, 0, "{:?}", report.shortest);
    let report = explore("counter-no-index", 1);
    assert!(report.violations_of(Invariant::LikesMatchOperations) > 0);
}

#[test]
fn the_search_is_deterministic_and_resumable() {
    let scenario = Scenario::by_id("key").expect("known");
    let whole = Explorer::new(&scenario, Bounds::faults(2))
        .run_to_end()
        .clone();
    let mut sliced = Explorer::new(&scenario, Bounds::faults(2));
    let mut slices = 0;
    let mut so_far = 0;
    while !sliced.run_for(100) {
        slices += 1;
        assert!(slices < 100_000, "the sliced search ends");
        let partial = sliced.report();
        assert!(!partial.done);
        assert!(
            so_far <= partial.runs && partial.runs <= whole.runs,
            "partial totals only grow, up to the whole: {so_far} → {} of {}",
            partial.runs,
            whole.runs
        );
        so_far = partial.runs;
        if slices == 5 {
            // Stopped here, the page lists what was found so far: real, replayable runs.
            assert!(
                !partial.shortest.is_empty(),
                "key breaks within 500 situations"
            );
            let base = scenario.clone().without_scripted_faults();
            for c in &partial.shortest {
                replays_to_a_broken_world(&base, "key", c);
            }
        }
    }
    assert!(slices > 5);
    assert_eq!(sliced.report(), &whole);
    // A clock-like check that stops after a few units gives the same search too.
    let mut clocked = Explorer::new(&scenario, Bounds::faults(2));
    let mut calls = 0;
    loop {
        let mut left = 7;
        let done = clocked.run_while(|| {
            left -= 1;
            left > 0
        });
        calls += 1;
        if done {
            break;
        }
        assert!(calls < 1_000_000, "the clocked search ends");
    }
    assert!(calls > slices, "{calls} calls of 7 units, {slices} of 100");
    assert_eq!(clocked.report(), &whole);
    // What the page shows: "N distinct situations, M runs represented".
    assert_eq!(sliced.distinct_situations(), whole.states);
    assert_eq!(sliced.runs_represented(), whole.runs);
    assert_eq!(whole.distinct_situations(), whole.states);
    assert_eq!(whole.runs_represented(), whole.runs);
    let brute = brute(&scenario, Bounds::faults(2));
    assert!(
        whole.steps * 2 < brute.steps,
        "situations are merged: {} steps simulated, {} one run at a time",
        whole.steps,
        brute.steps
    );
}

#[test]
fn turning_one_protection_off_is_found() {
    // Full protection minus forwarding and minus the shared transaction: a crash between the
    // charge and the key record charges twice once the lease runs out.
    let mut protections = Protections::ALL;
    protections.forward_key = false;
    protections.key_in_ledger_tx = false;
    let scenario = scenario("fully-protected").with_protections(protections);
    let report = Explorer::new(&scenario, Bounds::faults(1))
        .run_to_end()
        .clone();
    assert!(report.violations_of(Invariant::AtMostOnce) > 0);
}

/// Each (invariant, fault kinds) class with its shortest length (faults, steps).
fn classes(report: &Report) -> BTreeMap<(Invariant, Vec<&'static str>), (usize, u32)> {
    let mut out = BTreeMap::new();
    for c in &report.shortest {
        let previous = out.insert((c.invariant, c.signature()), (c.faults(), c.steps));
        assert!(previous.is_none(), "one counter-example per class: {c:?}");
    }
    out
}

/// The counter-example rebuilt from a deep link (the explorer's base run) ends quiescent at its
/// length, with its invariant broken.
fn replays_to_a_broken_world(base: &Scenario, id: &str, c: &CounterExample) {
    let link = DeepLink {
        scenario: id.to_owned(),
        protections: Some(base.protections),
        faults: c.injected.clone(),
        step: Some(c.steps),
        base: true,
        ..DeepLink::default()
    };
    let parsed = DeepLink::parse(&link.to_query()).expect("the link parses back");
    let snapshots = parsed.build().expect("the link replays");
    let world = snapshots.last().expect("at least the start");
    assert!(world.is_quiescent(), "{id}: {c:?}");
    assert_eq!(world.step_count(), c.steps, "{id}: {c:?}");
    assert!(
        world.verdict().violations().any(|(i, _)| i == c.invariant),
        "{id}: {c:?} does not break {:?}",
        c.invariant
    );
}

/// The merging explorer and the brute-force oracle agree on everything they report about the
/// runs: how many, how many break each invariant, cut off, and the shortest counter-example of
/// every class; the merging explorer's counter-examples replay through a deep link.
/// The merged search and the oracle's, checked equal on everything they both count.
fn agrees_with_the_oracle(id: &str, scenario: &Scenario, k: u32) -> (Report, Arc<Report>) {
    agrees_within(id, scenario, Bounds::faults(k))
}

fn agrees_within(id: &str, scenario: &Scenario, bounds: Bounds) -> (Report, Arc<Report>) {
    let brute = brute(scenario, bounds);
    let merged = Explorer::new(scenario, bounds).run_to_end().clone();
    let what = format!("{id} {:?} {bounds:?}", scenario.protections);
    assert!(merged.done && brute.done, "{what}");
    assert!(brute.runs > 0, "{what}");
    assert_eq!(merged.runs, brute.runs, "{what}: runs represented");
    assert_eq!(merged.violating_runs, brute.violating_runs, "{what}");
    assert_eq!(merged.by_invariant, brute.by_invariant, "{what}");
    for (invariant, n) in &merged.by_invariant {
        assert_eq!(merged.violations_of(*invariant), *n, "{what}");
    }
    assert_eq!(merged.cut_off, brute.cut_off, "{what}");
    assert_eq!(classes(&merged), classes(&brute), "{what}");
    assert_eq!(
        merged.tried_kinds(),
        brute.tried_kinds(),
        "{what}: kinds tried"
    );
    assert!(
        merged.states <= brute.states && merged.steps <= brute.steps,
        "{what}: merging never remembers more situations ({} > {}) nor simulates more steps ({} > {})",
        merged.states,
        brute.states,
        merged.steps,
        brute.steps
    );
    let base = scenario.clone().without_scripted_faults();
    for c in &merged.shortest {
        assert_eq!(c.faults(), c.injected.len(), "{what}");
        assert!(c.faults() <= bounds.max_faults as usize, "{what}");
        replays_to_a_broken_world(&base, id, c);
    }
    (merged, brute)
}

#[test]
fn merging_respects_the_step_bound() {
    // A bound short enough to cut runs off, at different depths: a situation met again at a
    // later step must not reuse what it found with more steps to spare.
    for (id, max_steps) in [("naive", 14), ("key", 22), ("scope", 30)] {
        let bounds = Bounds {
            max_faults: 2,
            max_steps,
            kinds: idem_core::KindSet::ALL,
        };
        let (report, _) = agrees_within(id, &scenario(id), bounds);
        assert!(report.cut_off > 0, "{id}: the bound cuts runs off");
        assert!(report.cut_off < report.runs, "{id}: not all of them");
    }
}

#[test]
fn merging_situations_loses_nothing_for_any_scenario_up_to_two_faults() {
    let mut merged_somewhere = false;
    for id in Scenario::IDS {
        for k in 0..=2 {
            let (report, brute) = agrees_with_the_oracle(id, &scenario(id), k);
            merged_somewhere |= report.steps < brute.steps;
        }
    }
    assert!(merged_somewhere, "the test covers merged situations");
}

#[test]
fn merging_situations_loses_nothing_at_three_faults() {
    for id in [
        "cas",
        "counter-no-index",
        "missing-key",
        "cas-naive",
        "counter",
    ] {
        let (report, brute) = agrees_with_the_oracle(id, &scenario(id), 3);
        assert!(
            report.steps < brute.steps,
            "{id}: some runs were merged ({} steps simulated, {} one run at a time)",
            report.steps,
            brute.steps
        );
    }
}

#[test]
fn merging_loses_nothing_with_the_retry_deadline_and_the_key_ttl_in_play() {
    // The view hashes an operation's start only against the retry deadline and leaves keys
    // past their TTL out: the phone offline for 25 h at different moments meets itself again
    // on waking. With the deadline on, both matter.
    for id in ["key", "scope", "crash-window", "fully-protected"] {
        let mut protections = scenario(id).protections;
        protections.retry_deadline = true;
        let (report, brute) =
            agrees_with_the_oracle(id, &scenario(id).with_protections(protections), 2);
        assert!(report.steps < brute.steps, "{id}");
    }
}

#[test]
fn situations_that_differ_only_in_the_past_are_merged() {
    // Times relative to now, message ids left out, crashes armed earlier or later carried,
    // and runs meeting again after the phone wakes: fewer than half the steps of walking every
    // schedule one by one.
    for (id, k) in [("scope", 2), ("key", 2), ("naive", 3)] {
        let report = explore(id, k);
        let brute = brute(&scenario(id), Bounds::faults(k));
        assert!(
            report.steps * 2 < brute.steps,
            "{id} k={k}: {} steps simulated, {} one run at a time",
            report.steps,
            brute.steps
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any scenario under any set of protections: the merging explorer agrees with the oracle.
    #[test]
    fn merging_agrees_with_the_oracle_under_any_protections(
        index in 0..Scenario::IDS.len(),
        on in proptest::collection::vec(any::<bool>(), Protections::NAMES.len()),
        k in 1u32..=2,
    ) {
        let id = Scenario::IDS[index];
        let mut protections = Protections::NONE;
        for (name, on) in Protections::NAMES.iter().zip(&on) {
            prop_assert!(protections.set(name, *on), "{name} is a protection");
        }
        let scenario = scenario(id).with_protections(protections);
        agrees_with_the_oracle(id, &scenario, k);
    }
}

#[test]
fn partial_totals_only_grow_to_the_final_ones() {
    // Every total the page shows while a search runs (runs, violating runs, runs cut off, runs
    // per invariant) only grows from one slice to the next and ends at the final figure; a
    // short step bound cuts some runs off.
    let scenario = Scenario::by_id("naive").expect("known");
    let bounds = Bounds {
        max_faults: 2,
        max_steps: 20,
        kinds: idem_core::KindSet::ALL,
    };
    let whole = Explorer::new(&scenario, bounds).run_to_end().clone();
    assert!(whole.cut_off > 0 && whole.violating_runs > 0, "{whole:?}");
    let totals = |r: &Report| {
        let mut v = vec![r.runs, r.violating_runs, r.cut_off];
        v.extend(r.by_invariant.iter().map(|(_, n)| *n));
        v
    };
    let last = totals(&whole);
    let mut sliced = Explorer::new(&scenario, bounds);
    let mut before = vec![0; last.len()];
    let mut seen_running = vec![0; last.len()];
    let mut slices = 0;
    while !sliced.run_for(1) {
        slices += 1;
        assert!(slices < 1_000_000, "the search ends");
        let now = totals(sliced.report());
        for (i, ((b, n), l)) in before.iter().zip(&now).zip(&last).enumerate() {
            assert!(
                b <= n && n <= l,
                "total {i} after {slices} slices: {b} → {n} of {l}"
            );
        }
        before = now;
        for (seen, n) in seen_running.iter_mut().zip(&before) {
            *seen = (*seen).max(*n);
        }
    }
    // And each total that ends above zero was already counting while the search ran.
    for (i, (seen, l)) in seen_running.iter().zip(&last).enumerate() {
        assert!(
            *l == 0 || *seen > 0,
            "total {i} showed nothing before the end"
        );
    }
    assert_eq!(totals(sliced.report()), last);
}

/// A search over a smaller menu (the run's own fault kinds, for "would have prevented it")
/// is still exact: it agrees with the oracle over the same menu, injects only those kinds,
/// and finds less than the whole menu where another kind was needed.
#[test]
fn a_search_over_some_kinds_agrees_with_the_oracle_and_injects_only_them() {
    use idem_core::{FaultKind, KindSet};
    let cases = [
        ("key", [FaultKind::Crash, FaultKind::Drop]),
        ("lease-expiry", [FaultKind::Pause, FaultKind::Retry]),
        ("naive", [FaultKind::Dup, FaultKind::Clock]),
    ];
    for (id, kinds) in cases {
        let s = scenario(id);
        let bounds = Bounds::faults(2).of_kinds(KindSet::of(kinds));
        let (report, _) = agrees_within(id, &s, bounds);
        assert!(
            report.kinds_tried().iter().all(|k| kinds.contains(k)),
            "{id}: {:?}",
            report.kinds_tried()
        );
        for c in &report.shortest {
            assert!(c.kinds().kinds().all(|k| kinds.contains(&k)), "{id}: {c:?}");
        }
        let whole = Explorer::new(&s, Bounds::faults(2)).run_to_end().clone();
        assert!(
            whole.runs > report.runs,
            "{id}: the smaller menu has fewer runs"
        );
    }
}
