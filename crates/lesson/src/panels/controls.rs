//! The control surface: the protections that matter for the scenario (each with a line on
//! what it prevents and one on what it does not) and the playback bar (play/pause, step back and forward, restart, run to end, speed).
//!
//! Every control is an element that lives as long as the page (or, for toggles, as long as
//! the story) with its handler as a closure; only its pressed, checked or disabled state and
//! its text are reactive.

use crate::i18n::Catalog;
use crate::playback::Run;
use idem_core::{Protection, Protections};

/// The catalog key of what `switch` does not do (`limit.<name>`): one entry per protection,
/// so no hint can praise a protection without saying where it stops.
pub fn limit_key(switch: Protection) -> String {
    format!("limit.{}", switch.name())
}

/// The limit shown under `switch`'s hint, in `catalog`'s language: its `limit.<name>`, and,
/// where the design on screen has the switch on although it cannot act there (fencing with
/// the key in PostgreSQL, as in "Everything on"), what it does there: nothing, and what
/// stops a stalled holder instead. Whether it acts is the core's fact
/// ([`Protections::fencing_acts`]), not a rule of the text.
pub fn limit_text(switch: Protection, design: &Protections, catalog: &Catalog) -> String {
    let mut text = catalog.text(&limit_key(switch));
    if switch == Protection::Fencing && design.fencing && !design.fencing_acts() {
        text.push(' ');
        text.push_str(&catalog.text("limit.fencing.idle"));
    }
    text
}

/// The labels of [`SPEEDS`], in the same order.
pub const SPEED_LABELS: [&str; 5] = ["0.25×", "0.5×", "1×", "2×", "4×"];

/// The label of the `i`-th speed as `catalog`'s language writes it: Russian writes a decimal
/// comma (0,25×).
pub fn speed_label(i: usize, catalog: &crate::i18n::Catalog) -> String {
    let label = SPEED_LABELS[i.min(SPEED_LABELS.len() - 1)];
    if catalog.tag == "ru" {
        label.replace('.', ",")
    } else {
        label.to_owned()
    }
}

/// SVG path of the restart icon (16 × 16).
pub const ICON_RESTART: &str = "M3 3h2v10H3zM13 3v10L6 8z";

/// SVG path of the run-to-end icon.
pub const ICON_END: &str = "M11 3h2v10h-2zM3 3v10l7-5z";

/// SVG path of the step-back icon.
pub const ICON_BACK: &str = "M12 3v10L4 8z";

/// SVG path of the step-forward icon.
pub const ICON_FORWARD: &str = "M4 3v10l8-5z";

/// SVG path of the play icon.
pub const ICON_PLAY: &str = "M4 2v12l10-6z";

/// SVG path of the pause icon.
pub const ICON_PAUSE: &str = "M3 2h4v12H3zM9 2h4v12H9z";

/// Which playback buttons are disabled: back at the start, forward and to-end at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaybackState {
    /// At step 0.
    pub at_start: bool,
    /// Nothing is left to happen.
    pub at_end: bool,
}

impl PlaybackState {
    /// The state of `run`.
    pub fn of(run: &Run) -> PlaybackState {
        PlaybackState {
            at_start: run.cursor() == 0,
            at_end: run.at_end(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::playback::SPEEDS;
    use idem_core::Scenario;

    #[test]
    fn every_protection_states_its_limit_in_both_languages() {
        for lang in [Lang::En, Lang::Ru] {
            let c = lang.catalog();
            for switch in Protection::ALL {
                let limit = c.get(&limit_key(switch));
                assert!(limit.is_some_and(|t| t.len() > 40), "{lang:?} {switch:?}");
            }
            assert!(c.get("ui.limit").is_some(), "{lang:?}");
        }
        // The limits the review asked for (issue 41, item 4), in English.
        let en = Lang::En.catalog();
        let limit = |s: Protection| limit_text(s, &Protections::NONE, en);
        assert!(limit(Protection::Lock).contains("lease of 5 s"));
        assert!(limit(Protection::SameTx).contains("outside it"));
        assert!(limit(Protection::Deadline).contains("cannot tell whether"));
        assert!(limit(Protection::Fencing).contains("a real card processor cannot check ours"));
        assert!(limit(Protection::Fencing).contains("Kleppmann"));
        assert!(limit(Protection::Forward).contains("at least 24 h"));
        assert!(limit(Protection::StatusCheck).contains("It asks once"));
        assert!(!en
            .text("protect.fencing.hint")
            .contains("it applies to the lock in Redis"));
        let ru = Lang::Ru.catalog();
        assert!(limit_text(Protection::Lock, &Protections::NONE, ru).contains("аренда на 5 с"));
    }

    #[test]
    fn everything_on_says_fencing_does_nothing_there() {
        for lang in [Lang::En, Lang::Ru] {
            let c = lang.catalog();
            let idle = c.text("limit.fencing.idle");
            let everything = Scenario::by_id("fully-protected").expect("scenario");
            assert!(everything.protections.fencing);
            assert!(limit_text(Protection::Fencing, &everything.protections, c).ends_with(&idle));
            // Where fencing acts (the key claimed in Redis), the idle note is not shown.
            let redis = Protections {
                fencing: true,
                ..Protections::SEED_KEY
            };
            assert!(!limit_text(Protection::Fencing, &redis, c).contains(&idle));
            assert!(!limit_text(Protection::Lock, &everything.protections, c).contains(&idle));
        }
    }

    #[test]
    fn buttons_disable_at_the_ends() {
        let mut run = Run::new(Scenario::by_id("naive").expect("naive"));
        assert_eq!(
            PlaybackState::of(&run),
            PlaybackState {
                at_start: true,
                at_end: false
            }
        );
        run.run_to_end();
        assert_eq!(
            PlaybackState::of(&run),
            PlaybackState {
                at_start: false,
                at_end: true
            }
        );
        assert_eq!(SPEED_LABELS.len(), SPEEDS.len());
        assert_eq!(speed_label(0, Lang::Ru.catalog()), "0,25×");
        assert_eq!(speed_label(0, Lang::En.catalog()), "0.25×");
        assert_eq!(speed_label(2, Lang::Ru.catalog()), "1×");
        assert_eq!(SPEED_LABELS[2], "1×");
        assert_eq!(SPEEDS[2], 1.0);
    }
}
