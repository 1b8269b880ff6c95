//! The player shared by the page and the embedded widget: the run a link asks for, the lab
//! provided to the components below, the notice for a bad link, and the stage (topology,
//! playback bar, verdict and narration), with the parts it is drawn from.

pub mod compare;
pub mod ghosts;
pub mod ring_legend;
pub mod sequence;
pub mod speakers;
pub mod spoken;
pub mod state_panels;
pub mod summary;
pub mod topology;
pub mod transcript;

use idem_core::LinkError;
use leptos::prelude::*;

use crate::platform::lab::use_prefs;
use crate::view::panels::controls::Controls;
use crate::view::stage::topology::Topology;
use idem_lesson::text::link_error;

/// The notice that lists what was wrong with the link (nothing when it was fine).
#[component]
pub fn LinkNotice(errors: Vec<LinkError>) -> impl IntoView {
    let prefs = use_prefs();
    (!errors.is_empty()).then(|| {
        let items = errors
            .iter()
            .map(|e| view! { <li>{link_error(e, prefs.lang.get_untracked().catalog())}</li> })
            .collect_view();
        view! {
            <div class="link-notice" role="alert" data-testid="link-notice">
                <p>{prefs.t("link.notice")}</p>
                <ul>{items}</ul>
            </div>
        }
    })
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
    use crate::view::later::{later_here, LaterPart};
    // On the page, the summary comes in a slice after the drawing and its playback bar, once
    // the player's bundle of code is here, and the faults with the panels, from the lesson's
    // (bundles.rs); the summary's column keeps its place meanwhile.
    let summary = move || {
        let part = if lesson {
            LaterPart::LessonSummary
        } else {
            LaterPart::Summary
        };
        if crate::view::slices::drawn(crate::view::slices::Slice::Summary) {
            later_here(part).into_any()
        } else {
            part.placeholder().into_any()
        }
    };
    view! {
        <section class="stage" id=id tabindex="-1">
            <div class="stage-main">
                <Topology/>
                <Controls/>
                // The fault buttons come with the panels (their code is in the lesson's
                // bundle): Play needs none of them.
                {move || {
                    (lesson && crate::view::slices::drawn(crate::view::slices::FIRST_SCREEN))
                        .then(|| later_here(LaterPart::Faults))
                }}
            </div>
            {summary}
        </section>
    }
}
