//! The packets lost or copied at the step on screen, broken where they broke
//! (`idem_lesson::stage::topology::ghosts_svg`: a lost one kept clear of the packets in flight
//! and their badges, #42 item 3). Drawn by the lesson's bundle (`LaterPart::Ghosts`): a run
//! shows them only once it is stepped or played, so the first screen carries none of their code.

use leptos::prelude::*;

use crate::platform::lab::{use_lab, use_prefs};
use idem_lesson::stage::topology::ghosts_svg;

/// The broken packets of the step on screen, under the packets in flight.
#[component]
pub fn LostPackets() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let ghosts = move || {
        let layout = prefs.layout.get();
        let reduced = prefs.reduced_motion.get();
        lab.run.with(|r| {
            ghosts_svg(
                layout,
                r.shown(lab.side),
                reduced,
                r.visible_step(),
                prefs.catalog(),
            )
        })
    };
    view! { <g class="ghosts" inner_html=ghosts></g> }
}
