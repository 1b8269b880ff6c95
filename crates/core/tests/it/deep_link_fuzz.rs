//! Fuzzing the deep-link parser: whatever arrives in the address bar (random bytes, unicode,
//! huge numbers, repeated and unknown parameters), `DeepLink::parse` and `parse_lenient` never
//! panic, and every error names the parameter that is wrong.
//!
//! `LINK_FUZZ_CASES` sets the number of inputs per property; the default is 1 000 in a debug
//! build (quick CI) and 10 000 in a release build (`cargo test --release -p idem-core --test it
//! -- deep_link_fuzz::`).

use idem_core::{DeepLink, LinkError};
use proptest::prelude::*;
use proptest::test_runner::{RngSeed, TestRunner};
use std::cell::Cell;

fn cases() -> u32 {
    let default = if cfg!(debug_assertions) {
        1_000
    } else {
        10_000
    };
    let cases = std::env::var("LINK_FUZZ_CASES")
        .ok()
        .map(|v| v.parse().expect("LINK_FUZZ_CASES is a number"))
        .unwrap_or(default);
    assert!(cases > 0, "LINK_FUZZ_CASES=0 would run no cases");
    cases
}

const KNOWN: [&str; 8] = [
    "scenario",
    "protect",
    "faults",
    "step",
    "base",
    "compare",
    "challenge",
    "chaos",
];

/// The parameter an error is about (`None` for the whole query).
fn field(error: &LinkError) -> Option<&str> {
    match error {
        LinkError::TooLong(_) => None,
        LinkError::UnknownScenario(_) => Some("scenario"),
        LinkError::UnknownProtection(_) => Some("protect"),
        LinkError::BadFault(_) | LinkError::TooManyFaults(_) => Some("faults"),
        LinkError::BadStep(_) => Some("step"),
        LinkError::Repeated(name) | LinkError::BadCharacters(name) => Some(name.as_str()),
        LinkError::FaultRefused { .. } => Some("faults"),
        LinkError::BadCompare(_) => Some("compare"),
        LinkError::UnknownChallenge(_) => Some("challenge"),
        LinkError::BadChaos(_) | LinkError::ChaosWith(_) => Some("chaos"),
    }
}

/// The values of parameter `name` in `query`, as the parser splits it.
fn values<'q>(query: &'q str, name: &str) -> Vec<&'q str> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').unwrap_or((p, "")))
        .filter(|(n, _)| *n == name)
        .map(|(_, v)| v)
        .collect()
}

/// What must hold for any query.
fn check_query(query: &str) -> Result<(), TestCaseError> {
    let strict = DeepLink::parse(query);
    let (lenient, errors) = DeepLink::parse_lenient(query);
    match &strict {
        Ok(link) => {
            prop_assert!(errors.is_empty());
            prop_assert_eq!(link, &lenient);
            // A valid link survives its own spelling.
            let respelled = DeepLink::parse(&link.to_query());
            prop_assert_eq!(respelled.as_ref(), Ok(link));
            prop_assert!(link.faults.len() <= DeepLink::MAX_FAULTS);
        }
        Err(strict_errors) => {
            prop_assert!(!strict_errors.is_empty(), "an error without a reason");
            prop_assert_eq!(strict_errors, &errors);
        }
    }
    if query.len() > DeepLink::MAX_QUERY_LEN {
        prop_assert_eq!(errors, vec![LinkError::TooLong(query.len())]);
        return Ok(());
    }
    for error in &errors {
        let name = field(error);
        let name = name.ok_or_else(|| TestCaseError::fail(format!("{error:?} names no field")))?;
        prop_assert!(KNOWN.contains(&name), "{:?} names {}", error, name);
        let given = values(query, name);
        prop_assert!(!given.is_empty(), "{:?}: the query has no {}", error, name);
        match error {
            LinkError::Repeated(_) => prop_assert!(given.len() > 1),
            LinkError::UnknownScenario(v)
            | LinkError::BadStep(v)
            | LinkError::BadCompare(v)
            | LinkError::UnknownChallenge(v)
            | LinkError::BadChaos(v) => {
                prop_assert!(given.contains(&v.as_str()), "{:?} not in {:?}", v, given)
            }
            // A parameter a seed cannot join is in the query (one it needs may be absent, or
            // present with a value that does not count: `base=0`, an empty `faults`).
            LinkError::ChaosWith(other) => {
                if matches!(other.as_str(), "compare" | "challenge") {
                    prop_assert!(
                        !values(query, other).is_empty(),
                        "no {} in {:?}",
                        other,
                        query
                    )
                }
            }
            LinkError::UnknownProtection(v) | LinkError::BadFault(v) => prop_assert!(
                given.iter().any(|g| g.contains(v.as_str())),
                "{:?} not in {:?}",
                v,
                given
            ),
            _ => {}
        }
    }
    Ok(())
}

/// Pieces real and hostile links are made of.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(idem_core::Scenario::IDS.to_vec()).prop_map(str::to_owned),
        prop::sample::select(idem_core::Protections::NAMES.to_vec()).prop_map(str::to_owned),
        prop::sample::select(idem_core::Challenge::ALL.map(|c| c.id).to_vec())
            .prop_map(str::to_owned),
        any::<u64>().prop_map(|n| n.to_string()),
        // Small numbers: steps, seeds (`chaos`).
        (0..1000u32).prop_map(|n| n.to_string()),
        any::<u128>().prop_map(|n| format!("{n}{n}")),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<String>(),
        "[a-z0-9._~-]{0,24}",
        fault_list(),
        Just(String::new()),
    ]
}

fn fault() -> impl Strategy<Value = String> {
    let kind = prop::sample::select(vec![
        "retry",
        "lose-ack",
        "evict",
        "concurrent",
        "reuse-key",
        "other-user",
        "drop",
        "dup",
        "delay",
        "clock",
        "crash",
        "teleport",
        "",
    ]);
    let number = prop_oneof![
        (0..40u64).prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        Just("99999999999999999999999999".to_owned()),
        Just("-1".to_owned()),
        prop::sample::select(idem_core::Phase::ALL.to_vec()).prop_map(|p| p.name().to_owned()),
    ];
    (0..30u32, kind, prop::collection::vec(number, 0..3)).prop_map(|(at, kind, args)| {
        let mut parts = vec![at.to_string(), kind.to_owned()];
        parts.extend(args);
        parts.join(".")
    })
}

fn fault_list() -> impl Strategy<Value = String> {
    prop::collection::vec(fault(), 0..(DeepLink::MAX_FAULTS + 4)).prop_map(|f| f.join("_"))
}

/// A query of known, unknown and repeated parameters.
fn structured_query() -> impl Strategy<Value = String> {
    let name = prop_oneof![
        4 => prop::sample::select(KNOWN.to_vec()).prop_map(str::to_owned),
        1 => prop::sample::select(vec!["lang", "embed", "theme", "", "=", "scenario "])
            .prop_map(str::to_owned),
        1 => any::<String>(),
    ];
    (
        any::<bool>(),
        prop::collection::vec((name, any::<bool>(), value()), 0..8),
    )
        .prop_map(|(question, pairs)| {
            let body: Vec<String> = pairs
                .into_iter()
                .map(|(n, with_eq, v)| if with_eq { format!("{n}={v}") } else { n })
                .collect();
            format!("{}{}", if question { "?" } else { "" }, body.join("&"))
        })
}

fn hostile_query() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => structured_query(),
        1 => prop::collection::vec(any::<u8>(), 0..300)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        1 => any::<String>(),
        1 => (structured_query(), 0..(DeepLink::MAX_QUERY_LEN + 64))
            .prop_map(|(q, pad)| format!("{q}&x={}", "9".repeat(pad))),
    ]
}

fn runner() -> TestRunner {
    let defaults = ProptestConfig::default();
    let rng_seed = match defaults.rng_seed {
        RngSeed::Random => RngSeed::Fixed(12_005),
        fixed => fixed,
    };
    TestRunner::new(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        rng_seed,
        ..defaults
    })
}

#[test]
fn any_query_gives_a_link_or_errors_naming_the_bad_field() {
    let mut runner = runner();
    let valid = Cell::new(0u32);
    let invalid = Cell::new(0u32);
    let result = runner.run(&hostile_query(), |query| {
        check_query(&query)?;
        if DeepLink::parse(&query).is_ok() {
            valid.set(valid.get() + 1);
        } else {
            invalid.set(invalid.get() + 1);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let (valid, invalid) = (valid.get(), invalid.get());
    eprintln!("deep-link fuzz: {valid} valid, {invalid} refused");
    assert_eq!(valid + invalid, cases(), "every case ran");
    // Both sides of the parser were exercised.
    assert!(valid * 4 >= cases(), "only {valid} valid links");
    assert!(invalid * 4 >= cases(), "only {invalid} refused links");
}

#[test]
fn any_valid_link_builds_or_names_the_refused_fault() {
    // Links made only of well-formed parts: the parse succeeds, and rebuilding the run either
    // works or names the fault that could not be applied, never panics.
    let link = (
        prop::sample::select(idem_core::Scenario::IDS.to_vec()),
        prop::collection::vec(
            (
                0..25u32,
                prop_oneof![
                    Just("retry".to_owned()),
                    Just("lose-ack".to_owned()),
                    Just("evict".to_owned()),
                    Just("concurrent".to_owned()),
                    Just("other-user".to_owned()),
                    (0..30u32).prop_map(|m| format!("drop.{m}")),
                    (0..30u32).prop_map(|m| format!("dup.{m}")),
                    (0..30u32, 0..20_000u64).prop_map(|(m, ms)| format!("delay.{m}.{ms}")),
                    (0..100_000_000u64).prop_map(|ms| format!("clock.{ms}")),
                    prop::sample::select(idem_core::Phase::ALL.to_vec())
                        .prop_map(|p| format!("crash.{}", p.name())),
                ],
            ),
            0..6,
        ),
        prop::option::of(0..200u32),
    );
    let mut runner = runner();
    let built = Cell::new(0u32);
    let refused = Cell::new(0u32);
    let result = runner.run(&link, |(scenario, mut faults, step)| {
        faults.sort_by_key(|(at, _)| *at);
        let faults: Vec<String> = faults.iter().map(|(at, f)| format!("{at}.{f}")).collect();
        let mut query = format!("scenario={scenario}&faults={}", faults.join("_"));
        if let Some(step) = step {
            query.push_str(&format!("&step={step}"));
        }
        let link =
            DeepLink::parse(&query).map_err(|e| TestCaseError::fail(format!("{query}: {e:?}")))?;
        match link.build() {
            Ok(snapshots) => {
                built.set(built.get() + 1);
                let last = snapshots.last().expect("the start at least");
                if let Some(step) = step {
                    prop_assert!(last.step_count() <= step);
                }
            }
            Err(LinkError::FaultRefused { index, .. }) => {
                refused.set(refused.get() + 1);
                prop_assert!(index < link.faults.len());
            }
            Err(other) => prop_assert!(false, "{}: {:?}", query, other),
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let (built, refused) = (built.get(), refused.get());
    eprintln!("deep-link build: {built} built, {refused} with a refused fault");
    assert!(built > 0 && refused > 0, "{built} built, {refused} refused");
}

#[test]
fn any_compare_link_round_trips_and_builds_or_names_the_refused_fault() {
    let link = (
        prop::sample::select(idem_core::Scenario::COMPARE.to_vec()),
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(
            (
                0..25u32,
                prop_oneof![
                    Just("retry".to_owned()),
                    Just("lose-ack".to_owned()),
                    Just("evict".to_owned()),
                    (0..30u32).prop_map(|m| format!("drop.{m}")),
                    prop::sample::select(idem_core::Phase::ALL.to_vec())
                        .prop_map(|p| format!("crash.{}", p.name())),
                ],
            ),
            0..4,
        ),
        prop::option::of(0..120u32),
    );
    let mut runner = runner();
    let built = Cell::new(0u32);
    let result = runner.run(&link, |((a, b), swap, base, mut faults, step)| {
        let (left, right) = if swap { (b, a) } else { (a, b) };
        faults.sort_by_key(|(at, _)| *at);
        let faults: Vec<String> = faults.iter().map(|(at, f)| format!("{at}.{f}")).collect();
        let mut query = format!(
            "compare={right}&scenario={left}&faults={}",
            faults.join("_")
        );
        if base {
            query.push_str("&base=1");
        }
        if let Some(step) = step {
            query.push_str(&format!("&step={step}"));
        }
        let link =
            DeepLink::parse(&query).map_err(|e| TestCaseError::fail(format!("{query}: {e:?}")))?;
        prop_assert_eq!(link.compare.as_deref(), Some(right));
        let respelled = DeepLink::parse(&link.to_query());
        prop_assert_eq!(respelled.as_ref(), Ok(&link));
        match link.build_pair() {
            Ok(pairs) => {
                built.set(built.get() + 1);
                let last = pairs.last().expect("the start at least");
                if let Some(step) = step {
                    prop_assert!(last.step_count() <= step);
                }
                prop_assert_eq!(last.left().scenario().id.as_str(), left);
                prop_assert_eq!(last.right().scenario().id.as_str(), right);
            }
            Err(LinkError::FaultRefused { index, .. }) => {
                prop_assert!(index < link.faults.len())
            }
            Err(other) => prop_assert!(false, "{}: {:?}", query, other),
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(built.get() > 0, "no compare link built");
}

/// The link's limits and spellings as the page reads them: a query of exactly the longest
/// length is read (one byte more is refused), an action's spelling is the one a link holds,
/// and a challenge's link carries its design's protections.
#[test]
fn the_link_api_s_edges() {
    let long = format!(
        "scenario=key&x={}",
        "a".repeat(DeepLink::MAX_QUERY_LEN - 15)
    );
    assert_eq!(long.len(), DeepLink::MAX_QUERY_LEN);
    let (link, errors) = DeepLink::parse_lenient(&long);
    assert_eq!(link.scenario, "key", "{errors:?}");
    assert!(!errors.contains(&LinkError::TooLong(long.len())));
    let longer = format!("{long}a");
    assert_eq!(
        DeepLink::parse_lenient(&longer).1,
        vec![LinkError::TooLong(longer.len())]
    );
    for (action, token) in [
        (idem_core::Action::RetryNow, "retry"),
        (idem_core::Action::Drop(idem_core::MsgId(3)), "drop.3"),
        (
            idem_core::Action::Crash(idem_core::Phase::RecordKey),
            "crash.record-key",
        ),
    ] {
        assert_eq!(DeepLink::action_token(&action), token);
    }
    for challenge in idem_core::Challenge::ALL {
        let link = DeepLink::to_challenge(&challenge);
        assert_eq!(
            link.protections, None,
            "{}: its scenario's own design",
            challenge.id
        );
        assert_eq!(link.scenario, challenge.scenario);
        assert_eq!(link.challenge.as_deref(), Some(challenge.id));
        assert!(link.base);
    }
}

/// Each fault's spelling reads back, at its limits: the most faults a link holds, a 30-day
/// clock (one millisecond more is refused), a week's delay, and the scenario inputs (a reused
/// key, another user) a link may name.
#[test]
fn every_fault_spelling_reads_back_at_its_limits() {
    use idem_core::{Action, MsgId, Phase, SimTime};
    let read = |faults: &str| DeepLink::parse(&format!("scenario=key&faults={faults}"));
    let max = vec!["1.retry"; DeepLink::MAX_FAULTS].join("_");
    assert_eq!(read(&max).map(|l| l.faults.len()), Ok(DeepLink::MAX_FAULTS));
    let month = 30 * SimTime::DAY;
    for (token, action) in [
        (format!("3.clock.{month}"), Action::AdvanceClock(month)),
        (
            format!("3.delay.2.{}", 7 * SimTime::DAY),
            Action::Delay(MsgId(2), 7 * SimTime::DAY),
        ),
        ("3.reuse-key".to_owned(), Action::ReuseKeyOtherBody),
        ("3.other-user".to_owned(), Action::OtherUserSameKey),
        ("3.concurrent".to_owned(), Action::ConcurrentDuplicate),
        (
            "3.pause.call-processor".to_owned(),
            Action::Pause(Phase::CallProcessor),
        ),
    ] {
        assert_eq!(
            read(&token).map(|l| l.faults),
            Ok(vec![(3, action)]),
            "{token}"
        );
        assert_eq!(format!("3.{}", DeepLink::action_token(&action)), token);
    }
    assert!(read(&format!("3.clock.{}", month + 1)).is_err());
    assert!(read(&format!("3.delay.2.{}", 7 * SimTime::DAY + 1)).is_err());
}
