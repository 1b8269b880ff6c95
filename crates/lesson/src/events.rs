//! Events for course sites: what the student did, as `CustomEvent`s (`idem:step`,
//! `idem:verdict`, `idem:prediction`, `idem:challenge`) bubbling from the widget's element,
//! and the same payloads posted to `window.parent` when the page runs in an iframe
//! (`{ source: "idem-lab", type, detail }`). Nothing here listens to messages.
//!
//! The payloads are built from the core (the verdict from its invariant checks, money in
//! integer cents); [`LabEvent::fields`] is pure and unit-tested natively.

use idem_core::World;

/// The events' names, as `on(name, fn)` also accepts them (with or without `idem:`).
pub const NAMES: [&str; 4] = [
    "idem:step",
    "idem:verdict",
    "idem:prediction",
    "idem:challenge",
];

/// The `source` of every message posted to the parent window.
pub const MESSAGE_SOURCE: &str = "idem-lab";

/// One thing a course site may want to know.
#[derive(Clone, Debug, PartialEq)]
pub enum LabEvent {
    /// The step shown changed.
    Step {
        /// The scenario's id.
        scenario: String,
        /// The step shown (0 = the start).
        step: u32,
        /// Nothing is left to happen.
        at_end: bool,
    },
    /// A run ended: the core's verdict on it.
    Verdict {
        /// The scenario's id.
        scenario: String,
        /// Every invariant held.
        ok: bool,
        /// The first user's card statement total, in cents.
        statement_cents: u64,
        /// How many faults the student injected.
        faults: u32,
    },
    /// A run ended with a prediction made: whether it came true.
    Prediction {
        /// The scenario's id.
        scenario: String,
        /// The chosen option's value (`once`, `twice`, `80`, …).
        choice: String,
        /// The run ended as predicted.
        correct: bool,
    },
    /// A challenge changed status.
    Challenge {
        /// The challenge's id.
        id: String,
        /// `open`, `solved` or `impossible`.
        status: String,
    },
}

/// One payload value.
#[derive(Clone, Debug, PartialEq)]
pub enum Field {
    /// A string.
    Text(String),
    /// A number (integers only here, all far below 2^53).
    Number(f64),
    /// A boolean.
    Bool(bool),
}

impl LabEvent {
    /// The `idem:step` event: `step` steps into a run of `scenario`.
    pub fn step(scenario: &str, step: usize, at_end: bool) -> LabEvent {
        LabEvent::Step {
            scenario: scenario.to_owned(),
            step: u32::try_from(step).unwrap_or(u32::MAX),
            at_end,
        }
    }

    /// The `idem:verdict` event for the run that ended in `world`: the core's verdict.
    pub fn verdict(world: &World) -> LabEvent {
        let verdict = world.verdict();
        LabEvent::Verdict {
            scenario: world.scenario().id.clone(),
            ok: verdict.ok(),
            statement_cents: verdict.money.statement_cents,
            faults: u32::try_from(world.injected().len()).unwrap_or(u32::MAX),
        }
    }

    /// The event's name (`idem:step`, …).
    pub fn name(&self) -> &'static str {
        match self {
            LabEvent::Step { .. } => NAMES[0],
            LabEvent::Verdict { .. } => NAMES[1],
            LabEvent::Prediction { .. } => NAMES[2],
            LabEvent::Challenge { .. } => NAMES[3],
        }
    }

    /// The payload (the event's `detail`), in the order documented in docs/embedding.md.
    pub fn fields(&self) -> Vec<(&'static str, Field)> {
        let text = |s: &str| Field::Text(s.to_owned());
        match self {
            LabEvent::Step {
                scenario,
                step,
                at_end,
            } => vec![
                ("scenario", text(scenario)),
                ("step", Field::Number(f64::from(*step))),
                ("atEnd", Field::Bool(*at_end)),
            ],
            LabEvent::Verdict {
                scenario,
                ok,
                statement_cents,
                faults,
            } => vec![
                ("scenario", text(scenario)),
                ("verdict", text(if *ok { "ok" } else { "violated" })),
                ("statementCents", Field::Number(*statement_cents as f64)),
                ("faults", Field::Number(f64::from(*faults))),
            ],
            LabEvent::Prediction {
                scenario,
                choice,
                correct,
            } => vec![
                ("scenario", text(scenario)),
                ("choice", text(choice)),
                ("correct", Field::Bool(*correct)),
            ],
            LabEvent::Challenge { id, status } => {
                vec![("id", text(id)), ("status", text(status))]
            }
        }
    }
}

/// The normalised event name for `on(name, fn)`: `verdict` or `idem:verdict` → `idem:verdict`;
/// `None` for anything else.
pub fn event_name(name: &str) -> Option<&'static str> {
    let bare = name.strip_prefix("idem:").unwrap_or(name);
    NAMES.into_iter().find(|n| n[5..] == *bare)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::end;

    #[test]
    fn names_are_normalised_and_unknown_ones_refused() {
        assert_eq!(event_name("verdict"), Some("idem:verdict"));
        assert_eq!(event_name("idem:step"), Some("idem:step"));
        assert_eq!(event_name("challenge"), Some("idem:challenge"));
        assert_eq!(event_name("idem:"), None);
        assert_eq!(event_name("click"), None);
        assert_eq!(event_name("idem:idem:step"), None);
    }

    #[test]
    fn the_verdict_payload_comes_from_the_core() {
        let naive = LabEvent::verdict(&end("naive"));
        assert_eq!(naive.name(), "idem:verdict");
        assert_eq!(
            naive.fields(),
            vec![
                ("scenario", Field::Text("naive".into())),
                ("verdict", Field::Text("violated".into())),
                ("statementCents", Field::Number(20_000.0)),
                ("faults", Field::Number(0.0)),
            ]
        );
        let key = end("key");
        assert!(key.verdict().ok());
        assert_eq!(
            LabEvent::verdict(&key).fields()[1..3],
            [
                ("verdict", Field::Text("ok".into())),
                (
                    "statementCents",
                    Field::Number(key.verdict().money.statement_cents as f64)
                ),
            ]
        );
    }

    #[test]
    fn injected_faults_are_counted() {
        let mut world = crate::test_support::played("key", 2);
        world
            .apply(idem_core::Action::RetryNow)
            .expect("a retry is allowed here");
        world.run(1_000);
        let fields = LabEvent::verdict(&world).fields();
        assert_eq!(fields[3], ("faults", Field::Number(1.0)));
    }

    #[test]
    fn every_payload_has_its_documented_keys() {
        let keys = |e: LabEvent| e.fields().into_iter().map(|(k, _)| k).collect::<Vec<_>>();
        assert_eq!(
            keys(LabEvent::step("naive", 3, false)),
            ["scenario", "step", "atEnd"]
        );
        assert_eq!(
            keys(LabEvent::Prediction {
                scenario: "naive".into(),
                choice: "twice".into(),
                correct: true
            }),
            ["scenario", "choice", "correct"]
        );
        assert_eq!(
            keys(LabEvent::Challenge {
                id: "c".into(),
                status: "solved".into()
            }),
            ["id", "status"]
        );
        assert_eq!(
            LabEvent::step("naive", 3, false).fields()[1],
            ("step", Field::Number(3.0))
        );
    }
}
