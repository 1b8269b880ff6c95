//! Events for course sites: what the student did, as `CustomEvent`s (`idem:step`,
//! `idem:verdict`, `idem:prediction`, `idem:challenge`, `idem:action`) bubbling from the
//! widget's element, and the same payloads posted to `window.parent` when the page runs in an
//! iframe (`{ source: "idem-lab", type, detail }`). Nothing here listens to messages.
//!
//! The first screen sends `idem:step` itself ([`LabEvent`], pure and unit-tested natively);
//! the results and the data stream are built from the core by [`crate::stream`], reached only
//! from the lesson's bundle.

/// The events' names, as `on(name, fn)` also accepts them (with or without `idem:`).
pub const NAMES: [&str; 5] = [
    "idem:step",
    "idem:verdict",
    "idem:prediction",
    "idem:challenge",
    "idem:action",
];

/// The `source` of every message posted to the parent window.
pub const MESSAGE_SOURCE: &str = "idem-lab";

/// The event the first screen sends itself (the others: [`crate::stream`]).
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

    /// The event's name (`idem:step`, …).
    pub fn name(&self) -> &'static str {
        match self {
            LabEvent::Step { .. } => NAMES[0],
        }
    }

    /// The payload (the event's `detail`), in the order documented in docs/embedding.md.
    pub fn fields(&self) -> Vec<(&'static str, Field)> {
        match self {
            LabEvent::Step {
                scenario,
                step,
                at_end,
            } => vec![
                ("scenario", Field::Text(scenario.clone())),
                ("step", Field::Number(f64::from(*step))),
                ("atEnd", Field::Bool(*at_end)),
            ],
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

    #[test]
    fn names_are_normalised_and_unknown_ones_refused() {
        assert_eq!(event_name("verdict"), Some("idem:verdict"));
        assert_eq!(event_name("idem:step"), Some("idem:step"));
        assert_eq!(event_name("challenge"), Some("idem:challenge"));
        assert_eq!(event_name("action"), Some("idem:action"));
        assert_eq!(event_name("idem:"), None);
        assert_eq!(event_name("click"), None);
        assert_eq!(event_name("idem:idem:step"), None);
    }

    #[test]
    fn every_payload_has_its_documented_keys() {
        let keys = |e: LabEvent| e.fields().into_iter().map(|(k, _)| k).collect::<Vec<_>>();
        assert_eq!(
            keys(LabEvent::step("naive", 3, false)),
            ["scenario", "step", "atEnd"]
        );
        assert_eq!(
            LabEvent::step("naive", 3, false).fields()[1],
            ("step", Field::Number(3.0))
        );
    }
}
