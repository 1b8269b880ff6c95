//! Who is speaking (issue 42, item 1), drawn with the panels (the lesson's bundle, beside the
//! glossary's term box under a verdict column's narration): when two requests or more are
//! alive, the step's narration with each line's speaker, in a live region of its own that takes
//! the plain narration's place (web/later.css hides the plain one while this one has lines).
//! With one request alive it draws nothing. On the page its glossary terms are linked as the
//! plain narration's are, and open in the same box; a widget (`mount()`, `?embed`) shows it
//! too, unlinked. Beside the drawing it keeps the step's words in view (`keep_in_view`).

use idem_lesson::geometry::Layout;
use leptos::prelude::*;

use crate::platform::lab::{use_lab, use_prefs};
use idem_lesson::panels::glossary::linked_lines;
use idem_lesson::text::speaker::{plain_line, spoken_html};

/// The narration with its speakers.
#[component]
pub fn Spoken() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    // The page links its glossary terms; a widget has no glossary.
    let links = crate::platform::lab::use_place() == crate::platform::place::Place::Page;
    let html = move || {
        lab.run.with(|r| {
            spoken_html(r.shown(lab.side), prefs.catalog(), |line| {
                if links {
                    linked_lines(&[line.to_owned()], prefs.catalog())
                } else {
                    plain_line(line)
                }
            })
        })
    };
    let spoken = NodeRef::<leptos::html::Div>::new();
    // Beside the drawing (the wide layout) the step's words stay in view: after each step
    // whose narration box runs under the window's bottom, the page scrolls it up, never
    // further than the drawing's top (#42, the review of stop 54: the lease runs' long steps
    // ran under the fold at 1280 × 800 after a story chip; tests/e2e/in-view.test.mjs).
    // Not as the page opens or a story starts (step 0): the reader has not stepped yet.
    Effect::new(move |before: Option<usize>| {
        let step = lab.run.with(|r| r.visible_step());
        let stepped = before.is_some_and(|b| b != step) && step > 0;
        if stepped && links && prefs.layout.get_untracked() != Layout::Tall {
            if let Some(div) = spoken.get_untracked() {
                keep_in_view(&div);
            }
        }
        step
    });
    view! {
        <div
            class="spoken"
            data-testid="narration-spoken"
            aria-live="polite"
            role="status"
            inner_html=html
            node_ref=spoken
        ></div>
    }
}

/// Scrolls the page up by as much as the narration box round `words` runs under the window's
/// bottom, at most by as much as the stage's top (the drawing's) is under the window's top.
fn keep_in_view(words: &leptos::web_sys::HtmlDivElement) {
    let (Ok(Some(narration)), Ok(Some(stage))) =
        (words.closest(".narration-box"), words.closest(".stage"))
    else {
        return;
    };
    let height = window()
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let below = narration.get_bounding_client_rect().bottom() + 8.0 - height;
    // The stage's top is the drawing's (its first part).
    let room = stage.get_bounding_client_rect().top() - 8.0;
    let by = below.min(room);
    if by > 0.5 {
        window().scroll_by_with_x_and_y(0.0, by);
    }
}
