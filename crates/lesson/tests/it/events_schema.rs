//! Every payload the lab sends validates against `docs/events.schema.json` (issue 43, item 3):
//! each kind of `idem:action`, the verdict of every scenario (with and without faults), the
//! prediction and every challenge status. The checker is a small one for the keywords the
//! schema uses (`tests/e2e/schema.mjs` is the same in JavaScript, for a browser's events); a
//! keyword it does not know fails the test, so the schema cannot outgrow it silently.

use idem_core::{Action, Phase, Scenario};
use idem_lesson::playback::Run;
use idem_lesson::stream::{
    challenge_payload, prediction_payload, verdict_payload, Act, Json, Seen, SolvedBy, KINDS,
    SCHEMA_VERSION,
};
use serde_json::Value;

const SCHEMA: &str = include_str!("../../../../docs/events.schema.json");

fn schema() -> Value {
    serde_json::from_str(SCHEMA).expect("the schema is JSON")
}

/// The problems of `value` against `schema` (empty: valid), `root` resolving `$ref`s.
fn check(value: &Value, schema: &Value, root: &Value, at: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(rules) = schema.as_object() else {
        return vec![format!("{at}: the schema is not an object")];
    };
    for (keyword, rule) in rules {
        match keyword.as_str() {
            "$schema" | "$id" | "title" | "description" | "$defs" => {}
            "$ref" => {
                let name = rule
                    .as_str()
                    .and_then(|r| r.strip_prefix("#/$defs/"))
                    .unwrap_or("?");
                problems.extend(check(value, &root["$defs"][name], root, at));
            }
            "type" => {
                let types: Vec<&str> = match rule {
                    Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
                    other => other.as_str().into_iter().collect(),
                };
                let is = |t: &str| match t {
                    "object" => value.is_object(),
                    "array" => value.is_array(),
                    "string" => value.is_string(),
                    "number" => value.is_number(),
                    "integer" => value.as_f64().is_some_and(|n| n.fract() == 0.0),
                    "boolean" => value.is_boolean(),
                    "null" => value.is_null(),
                    _ => false,
                };
                if !types.iter().any(|t| is(t)) {
                    problems.push(format!("{at}: {value} is not of type {rule}"));
                }
            }
            "const" if value != rule => problems.push(format!("{at}: {value} is not {rule}")),
            "enum" if !rule.as_array().is_some_and(|a| a.contains(value)) => {
                problems.push(format!("{at}: {value} is not one of {rule}"));
            }
            "minimum" | "maximum" => {
                let (n, bound) = (value.as_f64(), rule.as_f64().unwrap_or_default());
                let bad = n.is_some_and(|n| {
                    if keyword == "minimum" {
                        n < bound
                    } else {
                        n > bound
                    }
                });
                if bad {
                    problems.push(format!("{at}: {value} is beyond {keyword} {rule}"));
                }
            }
            "required" => {
                for name in rule
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    if value.is_object() && value.get(name).is_none() {
                        problems.push(format!("{at}: `{name}` is missing"));
                    }
                }
            }
            "properties" => {
                for (name, sub) in rule.as_object().into_iter().flatten() {
                    if let Some(v) = value.get(name) {
                        problems.extend(check(v, sub, root, &format!("{at}.{name}")));
                    }
                }
            }
            "additionalProperties" => {
                let known = schema["properties"].as_object();
                for name in value.as_object().into_iter().flatten().map(|(k, _)| k) {
                    if rule == &Value::Bool(false) && !known.is_some_and(|k| k.contains_key(name)) {
                        problems.push(format!("{at}: `{name}` is not in the schema"));
                    }
                }
            }
            "items" => {
                for (i, item) in value.as_array().into_iter().flatten().enumerate() {
                    problems.extend(check(item, rule, root, &format!("{at}[{i}]")));
                }
            }
            "allOf" => {
                for sub in rule.as_array().into_iter().flatten() {
                    problems.extend(check(value, sub, root, at));
                }
            }
            "oneOf" => {
                let valid = rule
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|sub| check(value, sub, root, at).is_empty())
                    .count();
                if valid != 1 {
                    problems.push(format!("{at}: valid against {valid} of oneOf, not 1"));
                }
            }
            "if" => {
                if check(value, rule, root, at).is_empty() {
                    if let Some(then) = schema.get("then") {
                        problems.extend(check(value, then, root, at));
                    }
                }
            }
            "then" | "const" | "enum" => {}
            other => problems.push(format!("{at}: the checker does not know `{other}`")),
        }
    }
    problems
}

/// `detail` posted as `type`, checked against the whole schema (the message's shape too).
fn assert_valid(kind: &str, detail: &Json) {
    let message = format!(
        r#"{{"source":"idem-lab","type":"{kind}","detail":{}}}"#,
        detail.to_text()
    );
    let value: Value = serde_json::from_str(&message).expect("the payload is JSON");
    let root = schema();
    let problems = check(&value, &root, &root, "message");
    assert!(problems.is_empty(), "{message}\n{problems:#?}");
}

fn run(id: &str) -> Run {
    Run::new(Scenario::by_id(id).expect("scenario"))
}

/// One action of every kind, each after a run that makes sense for it.
fn every_act() -> Vec<(Act, Seen)> {
    let mut r = run("key");
    let start = Seen::of(&r, false, false, None);
    r.step_visible();
    r.step_visible();
    let stepped = Seen::of(&r, false, false, None);
    r.apply(Action::RetryNow).expect("a retry");
    let retried = Seen::of(&r, false, false, None);
    r.apply(Action::Crash(Phase::RecordKey)).expect("a crash");
    let crashed = Seen::of(&r, false, false, None);
    let mut acts: Vec<(Act, Seen)> = Vec::new();
    for (before, after) in [
        (&start, &stepped),
        (&stepped, &retried),
        (&retried, &crashed),
    ] {
        acts.extend(
            idem_lesson::stream::diff(before, after)
                .into_iter()
                .map(|a| (a, after.clone())),
        );
    }
    let chaos = Run::from_link(&r.chaos_link(42)).expect("a chaos run");
    let seen = Seen::of(&chaos, false, false, None);
    acts.extend(
        idem_lesson::stream::diff(&crashed, &seen)
            .into_iter()
            .map(|a| (a, seen.clone())),
    );
    let others = [
        Act::Play,
        Act::Pause,
        Act::Drop { packet: 3, at: 2 },
        Act::Protection {
            name: "lock",
            on: true,
        },
        Act::Scenario,
        Act::Open,
        Act::SearchStarted,
        Act::SearchStopped { finished: false },
        Act::Glossary {
            term: "idempotency-key".into(),
        },
        Act::Prediction {
            choice: "twice".into(),
        },
        Act::Quiz {
            question: "q1".into(),
            answer: "once".into(),
            correct: true,
        },
    ];
    acts.extend(others.into_iter().map(|a| (a, seen.clone())));
    acts
}

#[test]
fn every_action_kind_validates_and_the_schema_lists_exactly_the_kinds() {
    let acts = every_act();
    for kind in KINDS {
        assert!(
            acts.iter().any(|(a, _)| a.kind() == kind),
            "no {kind} tried"
        );
    }
    for (act, seen) in &acts {
        assert_valid("idem:action", &act.payload(1_234.5, seen));
    }
    let listed: Vec<String> = schema()["$defs"]["action"]["properties"]["kind"]["enum"]
        .as_array()
        .expect("the kinds")
        .iter()
        .filter_map(|k| k.as_str().map(str::to_owned))
        .collect();
    assert_eq!(listed, KINDS);
    assert_eq!(
        schema()["$defs"]["action"]["properties"]["v"]["const"],
        SCHEMA_VERSION
    );
}

#[test]
fn every_scenarios_verdict_validates() {
    for id in Scenario::IDS {
        let mut r = run(id);
        r.run_to_end();
        assert_valid("idem:verdict", &verdict_payload(r.world(), &r.link()));
        let mut faulted = run(id);
        faulted.step_visible();
        if faulted.apply(Action::EvictKeys).is_ok() {
            faulted.run_to_end();
            let payload = verdict_payload(faulted.world(), &faulted.link());
            assert!(payload.to_text().contains(r#""faultList":[{"#), "{id}");
            assert_valid("idem:verdict", &payload);
        }
    }
}

#[test]
fn results_validate_and_a_wrong_payload_does_not() {
    assert_valid(
        "idem:prediction",
        &prediction_payload("naive", "twice", true, 2),
    );
    for status in ["open", "impossible", "left"] {
        assert_valid(
            "idem:challenge",
            &challenge_payload("redis-2", status, None),
        );
    }
    for by in [SolvedBy::Student, SolvedBy::Link] {
        assert_valid(
            "idem:challenge",
            &challenge_payload("redis-2", "solved", Some((by, false))),
        );
    }
    // The checker can fail: a solved challenge without who solved it, an unknown field.
    let root = schema();
    let bad = |text: &str| {
        let value: Value = serde_json::from_str(text).expect("JSON");
        !check(&value, &root, &root, "message").is_empty()
    };
    assert!(bad(
        r#"{"source":"idem-lab","type":"idem:challenge","detail":{"v":1,"id":"redis-2","status":"solved"}}"#
    ));
    assert!(bad(
        r#"{"source":"idem-lab","type":"idem:step","detail":{"scenario":"naive","step":1,"atEnd":false,"colour":1}}"#
    ));
    assert!(bad(
        r#"{"source":"idem-lab","type":"idem:action","detail":{"v":1,"kind":"fault","t":1,"scenario":"key","step":1,"link":"scenario=key"}}"#
    ));
}
