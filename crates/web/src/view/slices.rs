//! The page's slices: the first screen is drawn in the mounting task, the player and then the
//! parts below the fold in later tasks, one slice per frame, so no task blocks the page long.
//! A small module that names no component: the player asks it whether its slice is
//! drawn, the page draws each slice's part from the bundle table.

use leptos::prelude::*;

use crate::view::later::{later_part, Code, LaterPart};

/// The page's slices after the mounting task, in page order, each with the part its code draws
/// when that code comes later (`later.rs`): one list, from which the names, the count and the
/// table come, so a reordering cannot leave a part waiting on another part's slice.
macro_rules! slices {
    ($($(#[$doc:meta])* $name:ident => $part:expr,)*) => {
        /// A slice of the page, named by what it draws.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Slice {
            $($(#[$doc])* $name,)*
        }

        /// How many slices come after the mounting task.
        pub const SLICES: usize = [$(stringify!($name)),*].len();

        impl Slice {
            /// Every slice, in page order.
            pub const ALL: [Slice; SLICES] = [$(Slice::$name),*];

            /// The part its code draws, when that code comes later.
            pub fn part(self) -> Option<LaterPart> {
                match self {
                    $(Slice::$name => $part,)*
                }
            }
        }
    };
}

// The player's bundle (summary, prediction) is waited for at `Summary`, so the playback bar,
// drawn with the topology, never waits for the network; the fault buttons come with
// `AfterRun`, from the lesson's bundle.
slices! {
    /// The player's topology and its playback bar (the stage): one slice, so Play works a frame
    /// sooner (measured on a phone: docs/measurements.md).
    Player => None,
    /// The verdict, narration and prediction beside the player (the player's bundle), and the
    /// picker's folded mechanics.
    Summary => Some(LaterPart::LessonSummary),
    /// The first slice with the panels' texts: what the run taught, the protections and the
    /// comparison picker, and the fault buttons under the player (the lesson's bundle).
    AfterRun => Some(LaterPart::AfterRun),
    /// The challenges and "Try every failure".
    Challenges => Some(LaterPart::Challenges),
    /// The state panels and the sequence diagram.
    Diagrams => Some(LaterPart::Diagrams),
    /// The transcript, the calculator and the reference reading.
    Extras => Some(LaterPart::Extras),
    /// The glossary, the sources and the keys.
    Glossary => Some(LaterPart::Glossary),
}

/// The first slice after the first screen (the player): it and the ones after wait for the
/// panels' texts, so "drawn" means those texts are here.
pub const FIRST_SCREEN: Slice = Slice::AfterRun;

/// The page's slice flags, for a part drawn over several slices (the player); a part without
/// them (the embedded widget) draws at once.
#[derive(Clone, Copy)]
pub struct Later(pub [Memo<bool>; SLICES]);

impl Later {
    /// Whether `slice` is drawn (tracked).
    pub fn drawn(&self, slice: Slice) -> bool {
        self.0[slice as usize].get()
    }
}

/// Whether `slice` is drawn (always in a widget, which draws its parts at once).
pub fn drawn(slice: Slice) -> bool {
    match crate::platform::lab::use_place() {
        crate::platform::place::Place::Page => {
            crate::platform::place::required::<Later>("App").drawn(slice)
        }
        crate::platform::place::Place::Widget => true,
    }
}

/// `slice` of the page: the part its code draws.
pub fn part(slice: Slice, code: Code, later: Later) -> impl IntoView {
    slice
        .part()
        .map(|which| later_part(code, which, Some(later.0[slice as usize])))
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
) -> Later {
    let (drawn, set_drawn) = signal(0usize);
    leptos::task::spawn_local(async move {
        for (at, slice) in Slice::ALL.into_iter().enumerate() {
            let needs = slice.part();
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
            if set_drawn.try_set(at + 1).is_some() {
                return; // the page is gone
            }
        }
    });
    Later(std::array::from_fn(|i| Memo::new(move |_| drawn.get() > i)))
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
