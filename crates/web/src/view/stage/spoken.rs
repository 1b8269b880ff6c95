//! Who is speaking (issue 42, item 1), drawn with the panels (the lesson's bundle, beside the
//! glossary's term box under a verdict column's narration): when two requests or more are
//! alive, the step's narration with each line's speaker, in a live region of its own that takes
//! the plain narration's place (web/later.css hides the plain one while this one has lines).
//! With one request alive it draws nothing. On the page its glossary terms are linked as the
//! plain narration's are, and open in the same box; a widget (`mount()`, `?embed`) shows it
//! too, unlinked.

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
    view! {
        <div
            class="spoken"
            data-testid="narration-spoken"
            aria-live="polite"
            role="status"
            inner_html=html
        ></div>
    }
}
