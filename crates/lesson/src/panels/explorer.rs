//! "Try every failure", what the page says of it: the core's [`Report`](idem_core::Report) of every schedule of up
//! to k faults for the scenario and protections on screen (searched by the page's workers, see
//! `idem-web`'s `platform::search`), put into words: what it means for the story, the counts,
//! the shortest counter-examples (each put into words a few at a time between frames, as
//! [`Words`]), and what changed since the previous search. Stop keeps the totals so far,
//! marked partial.
//!
//! Each view of the result ([`result_view`]) is built here from the report and drawn by the
//! component in `idem-web`, which keeps one element for it while a search runs. After a search
//! ends, the classes of counter-examples it found (invariant and fault kinds)
//! are compared with the previous search of the same scenario (`explore-diff`): what a
//! protection toggled in between fixed, and what it let in.
//!
//! One file per thing it does: the words of faults and schedules (`words`), the result
//! element (`result`), the diff between searches (`diff`) and the telling of a search's end
//! a few counter-examples per frame (`telling`); this module re-exports them.

use idem_core::{CounterExample, DeepLink, Protections};

mod diff;
mod result;
mod telling;
mod words;

pub use diff::{class_words, diff_html, search_diff};
pub use result::{lead_text, result_view, ResultView};
pub use telling::{tell, DiffWords, Shown, Telling, Told, Words};
pub use words::{
    counterexample_text, fault_packets, fault_words, kinds_text, listing, markers_html,
    schedule_text, schedule_words, CxText,
};

/// Fault bounds offered. k = 4 is left out: the exhaustive search keeps a summary per distinct
/// situation, and on the heaviest scenarios k = 4 has about 15 million of them (2.4 GB
/// natively), more than a browser tab can hold.
pub const KS: [u32; 3] = [1, 2, 3];

/// The default bound.
pub const DEFAULT_K: u32 = 2;

/// Real milliseconds of work per animation frame on the page's main thread: putting a result
/// into words, or the whole search where workers cannot start.
pub const SLICE_MS: f64 = 12.0;

/// Counter-examples listed (the rest are counted).
pub const LISTED: usize = 24;

/// The deep link that replays a counter-example from its first step.
pub fn counterexample_link(id: &str, protections: Protections, cx: &CounterExample) -> DeepLink {
    DeepLink {
        scenario: id.to_owned(),
        protections: Some(protections),
        faults: cx.injected.clone(),
        step: Some(0),
        base: true,
        ..DeepLink::default()
    }
}
