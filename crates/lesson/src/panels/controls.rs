//! The control surface: the protections that matter for the scenario (each with a line on
//! what it prevents) and the playback bar (play/pause, step back and forward, restart, run to end, speed).
//!
//! Every control is an element that lives as long as the page (or, for toggles, as long as
//! the story) with its handler as a closure; only its pressed, checked or disabled state and
//! its text are reactive.

use crate::playback::Run;

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
    use crate::playback::SPEEDS;
    use idem_core::Scenario;

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
        use crate::i18n::Lang;
        assert_eq!(speed_label(0, Lang::Ru.catalog()), "0,25×");
        assert_eq!(speed_label(0, Lang::En.catalog()), "0.25×");
        assert_eq!(speed_label(2, Lang::Ru.catalog()), "1×");
        assert_eq!(SPEED_LABELS[2], "1×");
        assert_eq!(SPEEDS[2], 1.0);
    }
}
