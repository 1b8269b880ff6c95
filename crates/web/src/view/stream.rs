//! The data stream's part (issue 43, item 3): drawn by the page and by every widget once the
//! player is here, from the lesson's bundle (`LaterPart::Stream`), it draws nothing and starts
//! the widget's stream (`platform/stream.rs`) and its challenge events: what the student does
//! from then on becomes `idem:action`, and the runs that ended, also before it came, their
//! `idem:verdict` and `idem:prediction`.

use leptos::prelude::*;

use crate::platform::events::use_events;
use crate::platform::lab::{use_lab, use_prefs};
use crate::platform::stream::use_stream;
use crate::view::panels::challenge::use_challenge_events;
use crate::view::panels::recap::Guess;

/// Starts the enclosing widget's (or page's) data stream; draws nothing.
#[component]
pub fn Stream() -> impl IntoView {
    if let Some(events) = use_events() {
        let lab = use_lab();
        let guess = use_context::<Guess>().map(|Guess(g)| g);
        use_stream(lab, events, use_prefs(), guess);
        use_challenge_events(lab, events);
    }
}
