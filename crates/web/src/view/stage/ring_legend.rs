//! The rings' legend (issue 42, item 1; the stop-52 and stop-53 reviews): under the drawing,
//! while two requests or more are alive, the badge of every attempt alive, speaking or in
//! flight at the step with whose it is in words ("③ attempt 3"), as
//! `idem_lesson::stage::ring_marks::ring_legend` lists them. Hidden otherwise. Only the
//! lesson's bundle draws it (`LaterPart::Legend`): the first screen keeps its place only.

use leptos::prelude::*;

use crate::platform::lab::{use_lab, use_prefs};
use crate::view::keyed::keyed_rows;
use crate::view::slices::{drawn, FIRST_SCREEN};
use idem_lesson::stage::ring_marks::{ring_legend, LegendEntry};

/// The legend of the rings on screen: a list named for screen readers, one badge and its
/// words a line.
#[component]
pub fn RingLegend() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let entries = Memo::new(move |_| {
        // Its words are the panels' (the page has them once its first screen is drawn).
        if !drawn(FIRST_SCREEN) {
            return Vec::new();
        }
        lab.run
            .with(|r| ring_legend(r.shown(lab.side), prefs.catalog()))
    });
    let label = move || drawn(FIRST_SCREEN).then(|| prefs.catalog().text("ring.legend"));
    view! {
        <ul
            class="ring-legend"
            data-testid="ring-legend"
            aria-label=label
            hidden=move || entries.with(Vec::is_empty)
        >
            {keyed_rows(
                move || entries.get(),
                |e: &LegendEntry| e.clone(),
                |e| {
                    view! {
                        <li class=e.tone>
                            <span class="ring-swatch" aria-hidden="true">{e.mark}</span>
                            {e.who}
                        </li>
                    }
                },
            )}
        </ul>
    }
}
