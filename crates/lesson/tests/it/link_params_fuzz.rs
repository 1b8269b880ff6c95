//! Fuzzing the page's link parameters (`idem_lesson::link_params`, issue 43 item 5): whatever
//! address a reader opens, `page_params` never panics, reports every name no part of the lab
//! reads and every bad `lang`, `theme` or `embed` value exactly once, keeps what was good, and
//! quotes nothing longer than a notice line should hold; the notice's words have no
//! placeholder left in either language.
//!
//! `LINK_PARAMS_FUZZ_CASES` sets the number of inputs (default 1 000).

use idem_core::DeepLink;
use idem_lesson::exercise;
use idem_lesson::i18n::Lang;
use idem_lesson::link_params::{page_params, problem_text, ParamProblem, PAGE_PARAMS};
use idem_lesson::options::Value;
use idem_lesson::theme::Theme;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

fn cases() -> u32 {
    std::env::var("LINK_PARAMS_FUZZ_CASES")
        .ok()
        .map(|v| v.parse().expect("LINK_PARAMS_FUZZ_CASES is a number"))
        .unwrap_or(1_000)
}

/// One `name=value` pair (or a bare name): known names with good and bad values, near misses
/// and anything at all.
fn pair() -> impl Strategy<Value = String> {
    let names: Vec<&'static str> = DeepLink::PARAMS
        .into_iter()
        .chain(PAGE_PARAMS)
        .chain(exercise::LINK_FIELDS)
        .collect();
    let values: Vec<&'static str> = Lang::ALL
        .map(Lang::tag)
        .into_iter()
        .chain(Theme::ALL.map(Theme::name))
        .chain(["", "1", "true", "de", "pink", "0", "key", "%3Cb%3E"])
        .chain([
            "key.lock",
            "explorer%2Csequence",
            "crash,drop",
            "all",
            "search",
            "65",
            "naive,key",
        ])
        .collect();
    let name = prop_oneof![
        4 => proptest::sample::select(names).prop_map(str::to_owned),
        1 => "[a-z]{1,8}",
        1 => "[^&=]{0,60}",
    ];
    let value = prop_oneof![
        4 => proptest::sample::select(values).prop_map(str::to_owned),
        1 => "[^&]{0,60}",
    ];
    (name, proptest::option::of(value)).prop_map(|(n, v)| match v {
        Some(v) => format!("{n}={v}"),
        None => n,
    })
}

#[test]
fn any_query_is_read_without_panic_and_every_problem_is_said_once() {
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: cases(),
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let query = proptest::collection::vec(pair(), 0..8).prop_map(|pairs| pairs.join("&"));
    runner
        .run(&query, |query| {
            let params = page_params(&query);
            // What a hand count of the pairs expects.
            let mut seen: Vec<&str> = Vec::new();
            let mut expected = 0;
            for pair in query.split('&').filter(|p| !p.is_empty()) {
                let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                if DeepLink::PARAMS.contains(&name) || exercise::LINK_FIELDS.contains(&name) {
                    continue;
                }
                if !PAGE_PARAMS.contains(&name) {
                    expected += 1;
                    continue;
                }
                if seen.contains(&name) {
                    expected += 1;
                    continue;
                }
                seen.push(name);
                let good = match name {
                    "lang" => Lang::from_tag(value).is_some(),
                    "theme" => Theme::from_name(value).is_some(),
                    "host" => idem_lesson::link_params::is_origin(
                        &idem_lesson::lang::percent_decode(value),
                    ),
                    "replay" => true,
                    _ => matches!(value, "" | "1" | "true"),
                };
                if !good {
                    expected += 1;
                }
                // A good value is kept.
                if good && name == "theme" {
                    prop_assert_eq!(params.theme, Theme::from_name(value));
                }
                if good && name == "lang" {
                    prop_assert_eq!(params.lang, Lang::from_tag(value));
                }
                if good && name == "embed" {
                    prop_assert!(params.embed);
                }
            }
            prop_assert_eq!(params.problems.len(), expected, "{:?}", params.problems);
            // The exercise's parameters (issue 43, item 1): each bad or repeated one is one
            // problem, a good one is kept, and nothing else is reported.
            let (_, problems) = exercise::from_query(&query);
            let mut seen: Vec<&str> = Vec::new();
            let mut expected = 0;
            for pair in query.split('&').filter(|p| !p.is_empty()) {
                let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                if !exercise::LINK_FIELDS.contains(&name) {
                    continue;
                }
                if seen.contains(&name) {
                    expected += 1;
                    continue;
                }
                seen.push(name);
                let value = idem_lesson::lang::percent_decode(value);
                if exercise::from_entries([(name.to_owned(), Value::Text(value))]).is_err() {
                    expected += 1;
                }
            }
            prop_assert_eq!(problems.len(), expected, "{:?}", problems);
            for problem in &problems {
                if let ParamProblem::BadValue { value, .. } = problem {
                    prop_assert!(value.chars().count() <= 41, "{value:?}");
                }
                for lang in Lang::ALL {
                    let line = problem_text(problem, lang.catalog());
                    prop_assert!(
                        !line.contains("{value}") && !line.contains("{allowed}"),
                        "{}",
                        line
                    );
                }
            }
            for problem in &params.problems {
                let quoted = match problem {
                    ParamProblem::Unknown(v) | ParamProblem::BadValue { value: v, .. } => v,
                    ParamProblem::Repeated(_) => continue,
                };
                prop_assert!(quoted.chars().count() <= 41, "{quoted:?}");
                for lang in Lang::ALL {
                    let line = problem_text(problem, lang.catalog());
                    let left = ["{value}", "{allowed}", "{name}"]
                        .into_iter()
                        .any(|p| line.contains(p));
                    prop_assert!(!left, "{}", line);
                }
            }
            Ok(())
        })
        .expect("page_params holds on every query");
}
