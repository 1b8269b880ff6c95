//! The player shared by the page and the embedded widget: the run a link asks for, the lab
//! provided to the components below, the notice for a bad link, and the stage (topology,
//! playback bar, verdict and narration), with the parts it is drawn from.

pub mod compare;
pub mod geometry;
pub mod labels;
pub mod ledger_panel;
pub mod playback;
pub mod sequence;
pub mod state_panels;
pub mod summary;
pub mod topology;
pub mod transcript;

use idem_core::{DeepLink, LinkError};
use leptos::prelude::*;

use crate::browser::media_matches;
use crate::i18n::Lang;
use crate::lab::{default_scenario, Lab};
use crate::panels::controls::Controls;
use crate::stage::geometry::Layout;
use crate::stage::playback::Run;
use crate::stage::topology::Topology;
use crate::text::link_error;

/// Media query under which the topology is stacked (phones).
pub const NARROW: &str = "(max-width: 640px)";

/// The run a query string asks for and what was wrong with it. Bad parameters are dropped
/// and the good ones kept; faults that cannot be replayed are dropped too (the scenario,
/// protections and step stay).
pub fn run_from_query(query: &str) -> (Run, Vec<LinkError>) {
    let (link, mut errors) = DeepLink::parse_lenient(query);
    match Run::from_link(&link) {
        Ok(run) => (run, errors),
        Err(error) => {
            errors.push(error);
            let without_faults = DeepLink {
                faults: Vec::new(),
                ..link
            };
            let run =
                Run::from_link(&without_faults).unwrap_or_else(|_| Run::new(default_scenario()));
            (run, errors)
        }
    }
}

/// The notice that lists what was wrong with the link (nothing when it was fine).
#[component]
pub fn LinkNotice(errors: Vec<LinkError>) -> impl IntoView {
    let lab = crate::lab::use_lab();
    (!errors.is_empty()).then(|| {
        let items = errors
            .iter()
            .map(|e| view! { <li>{link_error(e, lab.lang.get_untracked().catalog())}</li> })
            .collect_view();
        view! {
            <div class="link-notice" role="alert" data-testid="link-notice">
                <p>{lab.t("link.notice")}</p>
                <ul>{items}</ul>
            </div>
        }
    })
}

/// The topology layout the window's width asks for now.
pub fn current_layout() -> Layout {
    if media_matches(NARROW) {
        Layout::Tall
    } else {
        Layout::Wide
    }
}

/// A lab for `run` in `lang`, laid out for the window and honouring reduced motion, provided
/// as context to the components below.
pub fn provide_lab(run: Run, lang: Lang) -> Lab {
    let lab = Lab::new_in(
        run,
        current_layout(),
        media_matches("(prefers-reduced-motion: reduce)"),
        lang,
    );
    provide_context(lab);
    lab
}

/// The player: the topology and its controls beside the verdict and narration. The page and
/// the embedded widget both show it.
/// `id` names the section so a link can lead to it (the page's "start here"). The page's
/// `lesson` player also holds the fault buttons under its controls (their effect is seen as
/// they are pressed) and the prediction beside the verdict (in view on the first screen).
#[component]
pub fn Stage(
    #[prop(optional)] id: Option<&'static str>,
    #[prop(optional)] lesson: bool,
) -> impl IntoView {
    use crate::later::{later_here, LaterPart};
    // On the page, the playback bar comes a frame after the drawing (drawn in one task, they
    // made it long, #10); the summary comes in a later slice too, once the player's bundle of
    // code is here, and the faults with the panels, from the lesson's (later.rs); the
    // summary's column keeps its place meanwhile.
    let summary = move || {
        let part = if lesson {
            LaterPart::LessonSummary
        } else {
            LaterPart::Summary
        };
        if crate::app::drawn(2) {
            later_here(part).into_any()
        } else {
            part.placeholder().into_any()
        }
    };
    view! {
        <section class="stage" id=id tabindex="-1">
            <div class="stage-main">
                <Topology/>
                {crate::app::with_slice(1, || view! { <Controls/> }.into_any())}
                // The fault buttons come with the panels (their code is in the lesson's
                // bundle): Play needs none of them.
                {move || {
                    (lesson && crate::app::drawn(crate::app::FIRST_SCREEN))
                        .then(|| later_here(LaterPart::Faults))
                }}
            </div>
            {summary}
        </section>
    }
}
