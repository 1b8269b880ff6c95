//! The ids of the page's places that links and buttons lead to ("start here", a challenge's
//! goal, the sources), shared by the parts that link and the parts that are linked to.

use crate::geometry::Layout;

/// The id of the prediction, where "start here" leads on a phone (the player is taller than
/// the screen there).
pub const PREDICT_ANCHOR: &str = "predict";

/// The id of the player, where "start here" leads on a wide screen (the prediction sits right
/// under it, so both are in view).
pub const PLAYER_ANCHOR: &str = "player";

/// The page anchor of the challenge's goal, above the player.
pub const GOAL_ANCHOR: &str = "challenge-goal";

/// The page anchor of the protections' switches, which the note by the player names.
pub const PROTECTIONS_ANCHOR: &str = "protections";

/// The page anchor of the sources section.
pub const SOURCES_ANCHOR: &str = "sources";

/// Where "start here" leads for a layout.
pub fn start_anchor(layout: Layout) -> &'static str {
    match layout {
        Layout::Wide => PLAYER_ANCHOR,
        Layout::Tall => PREDICT_ANCHOR,
    }
}
