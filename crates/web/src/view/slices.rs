//! The page's slices: the first screen is drawn in the mounting task, the player and then the
//! parts below the fold in later tasks, one slice per frame, so no task blocks the page long
//! (#10). A small module that names no component: the player asks it whether its slice is
//! drawn, the page draws each slice's part from the bundle table.

use leptos::prelude::*;

use crate::view::later::{later_part, Code, LaterPart};

/// How many slices of the page come after the mounting task: the player's topology, its
/// controls and faults, its summary (`Stage` draws those two by `Later`, and the picker its
/// folded mechanics with the summary), then four groups of panels and the glossary.
pub const SLICES: usize = 8;

/// The part of the lesson each slice draws, when its code comes later (`later.rs`).
/// The player's bundle (summary, prediction) is waited for at slice 2, so the playback bar,
/// drawn with slice 1, never waits for the network; the fault buttons come with slice 3, from
/// the lesson's bundle.
const SLICE_PARTS: [Option<LaterPart>; SLICES] = [
    None,
    None,
    Some(LaterPart::LessonSummary),
    Some(LaterPart::AfterRun),
    Some(LaterPart::Challenges),
    Some(LaterPart::Diagrams),
    Some(LaterPart::Extras),
    Some(LaterPart::Glossary),
];

/// The slices of the first screen (the player); the ones after wait for the panels' texts
/// (and the fault buttons under the player with them).
pub const FIRST_SCREEN: usize = 3;

/// The page's slice flags, for a part drawn over several slices (the player); a part without
/// them (the embedded widget) draws at once.
#[derive(Clone, Copy)]
pub struct Later(pub [Memo<bool>; SLICES]);

/// Whether slice `slice` is drawn (always, outside the page).
pub fn drawn(slice: usize) -> bool {
    use_context::<Later>().is_none_or(|Later(flags)| flags[slice].get())
}

/// A part of the player drawn with slice `slice` of the page (at once outside it).
pub fn with_slice(slice: usize, draw: fn() -> AnyView) -> impl IntoView {
    move || drawn(slice).then(draw)
}

/// Slice `slice` of the page: the part its code draws (`SLICE_PARTS`).
pub fn part(slice: usize, code: Code, flags: [Memo<bool>; SLICES]) -> impl IntoView {
    SLICE_PARTS[slice].map(|which| later_part(code, which, Some(flags[slice])))
}

/// One flag per slice, each set in its own task after a frame has been painted (an animation
/// frame, then a timeout), in order, and for a part whose code comes later once that code is
/// here (or has failed to come); a flag never goes back to `false`. The player's bundle is
/// requested as the page starts (`App`); a frame after the first screen's slices are drawn,
/// the lesson's bundle and the panels' texts of the page's language are asked for, and the next
/// slices follow when the texts are loaded (`failed` says why they could not be).
pub fn later_slices(
    prefs: crate::platform::lab::Prefs,
    code: Code,
    failed: RwSignal<Option<String>>,
) -> [Memo<bool>; SLICES] {
    let (drawn, set_drawn) = signal(0usize);
    leptos::task::spawn_local(async move {
        for (slice, needs) in SLICE_PARTS.into_iter().enumerate() {
            next_frame().await;
            if slice == FIRST_SCREEN {
                // One part asks for its whole bundle: this slice's, the lesson's, holds every
                // part after it.
                if let Some(first) = needs {
                    code.start(first);
                }
                let Some(lang) = prefs.lang.try_get_untracked() else {
                    return; // the page is gone
                };
                if let Err(error) =
                    crate::platform::catalogs::load(lang, idem_lesson::i18n::Part::Panels).await
                {
                    failed.try_set(Some(error.to_string()));
                    return;
                }
            }
            if let Some(which) = needs {
                code.load(which).await;
            }
            if set_drawn.try_set(slice + 1).is_some() {
                return; // the page is gone
            }
        }
    });
    std::array::from_fn(|i| Memo::new(move |_| drawn.get() > i))
}

/// Resolves in a task after the next frame has been painted.
async fn next_frame() {
    let (done, wait) = futures::channel::oneshot::channel::<()>();
    request_animation_frame(move || {
        set_timeout(
            move || {
                let _ = done.send(());
            },
            std::time::Duration::ZERO,
        );
    });
    let _ = wait.await;
}
