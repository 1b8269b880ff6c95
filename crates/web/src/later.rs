//! The parts of the lesson drawn after its first screen, and how their code arrives.
//!
//! Each [`LaterPart`] is a split point of the wasm. Built with the `split` feature (the release
//! bundle: `scripts/split.sh` cuts it), the code that only a part uses leaves
//! `idem-web_bg.wasm` for a file of its own next to it, which the page requests once its
//! first screen is drawn, so the student's first download holds the player and no more (#10).
//! Without the feature (native and browser tests) a part's code is in the one module and
//! [`LaterPart::code`] is ready at once; the page runs the same path either way.
//!
//! A part whose file cannot be loaded (offline, a file missing on the site) shows a notice in
//! its place with a button that tries again; the rest of the page keeps working.

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;

use crate::lab::use_lab;
use crate::panels::calculator::Calculator;
use crate::panels::challenge::Challenges;
use crate::panels::controls::ProtectionBar;
use crate::panels::explorer::TryEveryFailure;
use crate::panels::faults::Faults;
use crate::panels::glossary::Glossary;
use crate::panels::path::{AfterRunPanel, StoryPicker, PLAYER_ANCHOR};
use crate::panels::reference::Reference;
use crate::stage::compare::CompareWith;
use crate::stage::sequence::Sequence;
use crate::stage::state_panels::StatePanels;
use crate::stage::transcript::Transcript;

/// What draws a part once its code is here.
pub type Draw = fn() -> AnyView;

/// One function per part, a split point of the wasm with the `split` feature (a plain function
/// without it), and the `match` that calls the one `$part` names.
macro_rules! split_points {
    ($part:expr; $($variant:ident => $name:ident: $view:expr;)*) => {{
        $(
            #[cfg_attr(
                feature = "split",
                ::leptos::wasm_split::wasm_split(
                    $name,
                    wasm_split_path = ::leptos::wasm_split,
                    fallible
                )
            )]
            fn $name() -> Result<Draw, SplitLoaderError> {
                fn draw() -> AnyView {
                    $view.into_any()
                }
                Ok(draw)
            }
        )*
        match $part {
            $(
                LaterPart::$variant => {
                    #[cfg(feature = "split")]
                    let code = $name().await;
                    #[cfg(not(feature = "split"))]
                    let code = $name();
                    code
                }
            )*
        }
    }};
}

/// The parts drawn after the first screen, each with its own code file in the release bundle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaterPart {
    /// What the run taught, the protections and the comparison picker.
    AfterRun,
    /// The challenges and the explorer.
    Challenges,
    /// The state panels and the sequence diagram.
    Diagrams,
    /// The transcript, the cost calculator and the reference reading.
    Extras,
    /// The glossary and the keyboard help.
    Glossary,
    /// The rest of a widget mounted with `full`.
    WidgetRest,
}

impl LaterPart {
    /// Every part, in page order.
    pub const ALL: [LaterPart; 6] = [
        LaterPart::AfterRun,
        LaterPart::Challenges,
        LaterPart::Diagrams,
        LaterPart::Extras,
        LaterPart::Glossary,
        LaterPart::WidgetRest,
    ];

    /// The part's place in [`LaterPart::ALL`].
    fn index(self) -> usize {
        self as usize
    }

    /// The part's drawing code: its file is requested once, the first time any caller asks
    /// (callers at the same time share the request); after a failure the next call asks again.
    pub async fn code(self) -> Result<Draw, SplitLoaderError> {
        split_points! {
            self;
            AfterRun => after_run: view! {
                <AfterRunPanel/>
                <ProtectionBar/>
                <CompareWith/>
            };
            Challenges => challenges: view! {
                <Challenges/>
                <TryEveryFailure/>
            };
            Diagrams => diagrams: view! {
                <StatePanels/>
                <Sequence/>
            };
            Extras => extras: view! {
                <div class="extras">
                    <Transcript/>
                    <Calculator/>
                    <Reference/>
                </div>
            };
            Glossary => glossary: view! {
                <Glossary back_to=PLAYER_ANCHOR/>
                <footer class="keys">{use_lab().t("ui.keys")}</footer>
            };
            WidgetRest => widget_rest: view! {
                <StoryPicker/>
                <ProtectionBar/>
                <Faults/>
                <TryEveryFailure/>
                <StatePanels/>
                <Sequence/>
            };
        }
    }
}

/// The state of each part's code, shared by the page (or widget) that draws them.
#[derive(Clone, Copy)]
pub struct Code([RwSignal<Option<Result<Draw, ()>>>; LaterPart::ALL.len()]);

impl Code {
    /// Nothing loaded yet.
    pub fn new() -> Self {
        Code(std::array::from_fn(|_| RwSignal::new(None)))
    }

    /// `part`'s code: `None` while it has not arrived, `Err` when its last request failed.
    pub fn get(self, part: LaterPart) -> Option<Result<Draw, ()>> {
        self.0[part.index()].get()
    }

    /// Requests `part`'s code and returns at once: the code is set in this call when it is
    /// already here (always without the `split` feature), later when its file arrives.
    pub fn start(self, part: LaterPart) {
        use futures::FutureExt;
        let mut loading = Box::pin(self.load(part));
        if loading.as_mut().now_or_never().is_none() {
            leptos::task::spawn_local(loading);
        }
    }

    /// Requests `part`'s code (once: a part already here is not asked again) and waits for it.
    pub async fn load(self, part: LaterPart) {
        let slot = self.0[part.index()];
        if matches!(slot.get_untracked(), Some(Ok(_))) {
            return;
        }
        let code = part.code().await.map_err(drop);
        slot.try_set(Some(code));
    }
}

impl Default for Code {
    fn default() -> Self {
        Self::new()
    }
}

/// `part`, drawn when `shown` and its code is here; the notice and a retry button in its place
/// when its code could not be loaded.
pub fn later_part(code: Code, part: LaterPart, shown: Memo<bool>) -> impl IntoView {
    move || {
        if !shown.get() {
            return None;
        }
        Some(match code.get(part)? {
            Ok(draw) => draw(),
            Err(()) => view! { <PartFailed code=code part=part/> }.into_any(),
        })
    }
}

/// The notice in place of a part whose code could not be loaded.
#[component]
fn PartFailed(code: Code, part: LaterPart) -> impl IntoView {
    let lab = use_lab();
    let retry = move |_| {
        leptos::task::spawn_local(async move {
            code.load(part).await;
        })
    };
    view! {
        <div class="link-notice" role="alert" data-testid="part-failed">
            <p>{move || lab.t("part.failed")}</p>
            <button class="ghost" data-testid="part-retry" on:click=retry>
                {move || lab.t("part.retry")}
            </button>
        </div>
    }
}
