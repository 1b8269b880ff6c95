//! Fuzzing the `mount()` options decoder: whatever object a course page passes (random and
//! unicode names, repeated and unknown keys, values of every type, huge and non-finite
//! numbers, nested arrays), `RawOptions::from_entries` followed by `validate` never panics and
//! gives either options that match what was asked or an error naming the bad field.
//!
//! In the browser `mount` turns the JavaScript object into these entries with a small
//! js_sys decoder (tests/it/embed.rs); everything after that is the pure code fuzzed here.
//!
//! `OPTIONS_FUZZ_CASES` sets the number of inputs; the default is 1 000 in a debug build (quick
//! CI) and 10 000 in a release build
//! (`cargo test --release -p idem-web --test it -- options_fuzz::`).
#![cfg(not(target_arch = "wasm32"))]

use idem_core::Protections;
use idem_core::Scenario;
use idem_lesson::i18n::Lang;
use idem_lesson::theme::Theme;
use idem_web::view::embed::{validate, OptionError, RawOptions, Value, FIELDS};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

fn cases() -> u32 {
    let default = if cfg!(debug_assertions) {
        1_000
    } else {
        10_000
    };
    let cases = std::env::var("OPTIONS_FUZZ_CASES")
        .ok()
        .map(|v| v.parse().expect("OPTIONS_FUZZ_CASES is a number"))
        .unwrap_or(default);
    assert!(cases > 0, "OPTIONS_FUZZ_CASES=0 would run no cases");
    cases
}

/// Strings a page might pass: the allowed values, near misses, and anything at all.
fn text() -> impl Strategy<Value = String> {
    let known: Vec<String> = Scenario::IDS
        .iter()
        .copied()
        .chain(Lang::ALL.map(Lang::tag))
        .chain(Theme::ALL.map(Theme::name))
        .chain(Protections::NAMES)
        .chain(idem_core::Challenge::ALL.map(|c| c.id))
        .map(str::to_owned)
        .collect();
    prop_oneof![
        3 => proptest::sample::select(known.clone()),
        1 => proptest::sample::select(known).prop_map(|s| format!(" {}", s.to_uppercase())),
        2 => any::<String>(),
        1 => "\\PC{0,40}",
        1 => Just("<script>alert(1)</script>".to_owned()),
        1 => Just("x".repeat(100_000)),
    ]
}

fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(1e308),
        Just(-0.0),
        (0u64..5).prop_map(|n| n as f64),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number().prop_map(Value::Number),
        text().prop_map(Value::Text),
        Just(Value::Other),
    ];
    leaf.prop_recursive(3, 64, 8, |inner| {
        proptest::collection::vec(inner, 0..8).prop_map(Value::List)
    })
}

/// Option names: the real ones (often), their near misses, and any string.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => proptest::sample::select(FIELDS.to_vec()).prop_map(str::to_owned),
        1 => proptest::sample::select(FIELDS.to_vec()).prop_map(|f| f.to_uppercase()),
        1 => proptest::sample::select(FIELDS.to_vec()).prop_map(|f| format!("{f}s")),
        1 => any::<String>(),
        1 => Just("__proto__".to_owned()),
    ]
}

/// The field an error is about.
fn field_of(error: &OptionError) -> Option<&str> {
    match error {
        OptionError::Decode(_) => None,
        OptionError::UnknownField(name) => Some(name),
        OptionError::WrongType { field, .. } | OptionError::BadValue { field, .. } => Some(field),
    }
}

/// What must hold for any entries.
fn check(entries: Vec<(String, Value)>) -> Result<(), TestCaseError> {
    // The value a field ends up with (a repeated key: the last one wins).
    let last = |field: &str| {
        entries
            .iter()
            .rev()
            .find(|(n, _)| n == field)
            .map(|(_, v)| v.clone())
    };
    match RawOptions::from_entries(entries.clone()).and_then(validate) {
        Ok(options) => {
            for (n, _) in &entries {
                prop_assert!(FIELDS.contains(&n.as_str()), "unknown `{n}` accepted");
            }
            prop_assert!(Scenario::IDS.contains(&options.scenario.as_str()));
            match (last("scenario"), options.challenge) {
                (Some(Value::Text(id)), _) => prop_assert_eq!(&options.scenario, &id),
                // A challenge plays its own design.
                (_, Some(c)) => prop_assert_eq!(options.scenario.as_str(), c.scenario),
                _ => prop_assert_eq!(options.scenario.as_str(), Scenario::IDS[0]),
            }
            if let Some(Value::Text(id)) = last("challenge") {
                prop_assert_eq!(options.challenge.map(|c| c.id), Some(id.as_str()));
            }
            if let Some(Value::Text(tag)) = last("lang") {
                prop_assert_eq!(options.lang.tag(), tag.as_str());
            }
            if let Some(Value::Text(name)) = last("theme") {
                prop_assert_eq!(options.theme.name(), name.as_str());
            }
            if let Some(Value::Bool(b)) = last("autoplay") {
                prop_assert_eq!(options.autoplay, b);
            }
            if let Some(Value::Bool(b)) = last("compact") {
                prop_assert_eq!(options.compact, b);
            }
            let query = options.query();
            prop_assert!(
                query.contains(&format!("scenario={}", options.scenario)),
                "{query}"
            );
            // The exercise's options pass to the lesson's bundle (which reads them from the
            // options again, `embed::given`) and it checks them the same way: a value, or an
            // error naming a field that was given (issue 43, item 1).
            let exercise: Vec<(String, Value)> = entries
                .iter()
                .filter(|(n, _)| idem_lesson::exercise::FIELDS.contains(&n.as_str()))
                .cloned()
                .collect();
            prop_assert_eq!(options.exercise, !exercise.is_empty());
            if let Err(error) = idem_lesson::exercise::from_entries(exercise.clone()) {
                let message = error.message();
                let field = error.field();
                prop_assert!(
                    message.starts_with("Idempotency Lab: bad options: "),
                    "{message}"
                );
                prop_assert!(idem_lesson::exercise::FIELDS.contains(&field), "{message}");
                prop_assert!(message.contains(&format!("`{field}`")), "{message}");
                prop_assert!(
                    exercise
                        .iter()
                        .any(|(n, v)| n == field && *v != Value::Null),
                    "`{field}` blamed but not given"
                );
            }
        }
        Err(error) => {
            let field = field_of(&error);
            prop_assert!(field.is_some(), "{error:?} names no field");
            let field = field.unwrap_or_default();
            let message = error.to_string();
            prop_assert!(
                message.starts_with("Idempotency Lab: bad options: "),
                "{message}"
            );
            prop_assert!(message.contains(&format!("`{field}`")), "{message}");
            match &error {
                OptionError::UnknownField(name) => {
                    prop_assert!(!FIELDS.contains(&name.as_str()), "{name} is known");
                    prop_assert!(entries.iter().any(|(n, _)| n == name));
                }
                _ => {
                    prop_assert!(FIELDS.contains(&field), "{field}");
                    let given = last(field);
                    prop_assert!(
                        !matches!(given, None | Some(Value::Null)),
                        "`{field}` blamed but not given: {given:?}"
                    );
                }
            }
        }
    }
    Ok(())
}

#[test]
fn any_options_give_a_value_or_an_error_naming_the_field() {
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: cases(),
            failure_persistence: None,
            ..Config::default()
        },
        // A fixed seed: the same inputs on every run, so a failure can be reproduced.
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    );
    let entries = proptest::collection::vec((name(), value()), 0..10);
    runner
        .run(&entries, check)
        .expect("the options decoder holds for every input");
}

#[test]
fn valid_options_in_any_order_are_accepted() {
    let mut runner = TestRunner::new(Config {
        // A tenth of the cases, never zero (a small OPTIONS_FUZZ_CASES would run none).
        cases: (cases() / 10).max(1),
        failure_persistence: None,
        ..Config::default()
    });
    let good = (
        proptest::sample::select(Scenario::IDS.to_vec()),
        proptest::sample::select(Lang::ALL.to_vec()),
        proptest::sample::select(Theme::ALL.to_vec()),
        proptest::sample::subsequence(Protections::NAMES.to_vec(), 0..4),
        any::<(bool, bool)>(),
        0usize..6,
    );
    runner
        .run(
            &good,
            |(id, lang, theme, protections, (autoplay, compact), order)| {
                let mut entries = vec![
                    ("scenario".to_owned(), Value::Text(id.to_owned())),
                    ("lang".to_owned(), Value::Text(lang.tag().to_owned())),
                    ("theme".to_owned(), Value::Text(theme.name().to_owned())),
                    (
                        "protections".to_owned(),
                        Value::List(
                            protections
                                .iter()
                                .map(|p| Value::Text((*p).to_owned()))
                                .collect(),
                        ),
                    ),
                    ("autoplay".to_owned(), Value::Bool(autoplay)),
                    ("compact".to_owned(), Value::Bool(compact)),
                ];
                entries.rotate_left(order);
                let options = RawOptions::from_entries(entries)
                    .and_then(validate)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(options.scenario.as_str(), id);
                prop_assert_eq!(options.lang, lang);
                prop_assert_eq!(options.theme, theme);
                prop_assert_eq!((options.autoplay, options.compact), (autoplay, compact));
                let on = options.protections.expect("protections given");
                for name in Protections::NAMES {
                    prop_assert_eq!(on.get(name), Some(protections.contains(&name)), "{}", name);
                }
                Ok(())
            },
        )
        .expect("valid options are accepted as given");
}
