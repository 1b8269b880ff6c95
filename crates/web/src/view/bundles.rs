//! The bundle table: which later part comes in which file of the release bundle, and what
//! draws it. The one file that names the components drawn later; the page and the widget hand
//! [`BUNDLES`] to their [`Code`](crate::view::later::Code), so the machinery in `later.rs`
//! names none of them.

use futures::future::FutureExt;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;

use crate::platform::lab::use_prefs;
use crate::view::embed::exercise::ExerciseParts;
use crate::view::embed::host::HostFit;
use crate::view::embed::share::EmbedButton;
use crate::view::later::{later_here, BundleCode, Bundles, Draw, LaterPart};
use crate::view::panels::calculator::Calculator;
use crate::view::panels::challenge::{ChallengeGoal, Challenges};
use crate::view::panels::checked::CheckedClaim;
use crate::view::panels::controls::{ProtectionBar, ProtectionsOn};
use crate::view::panels::explorer::TryEveryFailure;
use crate::view::panels::faults::Faults;
use crate::view::panels::glossary::{Glossary, TermPopover};
use crate::view::panels::path::{AfterRunPanel, StoryPicker};
use crate::view::panels::recap::Recap;
use crate::view::panels::reference::Reference;
use crate::view::panels::sources::Sources;
use crate::view::stage::compare::{CompareRight, CompareStage, CompareWith};
use crate::view::stage::ghosts::LostPackets;
use crate::view::stage::ring_legend::RingLegend;
use crate::view::stage::sequence::Sequence;
use crate::view::stage::speakers::{NowLine, PacketRings};
use crate::view::stage::spoken::Spoken;
use crate::view::stage::state_panels::StatePanels;
use crate::view::stage::summary::Summary;
use crate::view::stage::transcript::Transcript;
use crate::view::stream::Stream;
use idem_lesson::anchors::{PLAYER_ANCHOR, PREDICT_ANCHOR, PROTECTIONS_ANCHOR};

/// Where the parts' code comes from, for [`Code::new`](crate::view::later::Code::new).
pub const BUNDLES: Bundles = Bundles {
    bundle,
    code: |part| {
        // The panels' rules (later.css) are asked for with the panels' code, so they arrive
        // together and none of them is downloaded before Play.
        #[cfg(target_arch = "wasm32")]
        if bundle(part) == "lesson" {
            crate::platform::browser::add_later_sheet();
        }
        bundle_code(part).boxed_local()
    },
};

/// One function per bundle of parts, a split point of the wasm with the `split` feature (a
/// plain function without it) that returns the drawing function of each of its parts, and
/// `bundle` and `bundle_code`, which find a part's bundle. Code that only one bundle uses goes
/// into its file; code that both use, into one file they share.
macro_rules! split_bundles {
    ($($bundle:ident [$($variant:ident => $view:expr;)*])*) => {
        $(
            #[cfg_attr(
                feature = "split",
                ::leptos::wasm_split::wasm_split(
                    $bundle,
                    wasm_split_path = ::leptos::wasm_split,
                    fallible
                )
            )]
            fn $bundle() -> Result<Vec<(LaterPart, Draw)>, SplitLoaderError> {
                Ok(vec![$((LaterPart::$variant, (|| $view.into_any()) as Draw)),*])
            }
        )*

        /// The bundle whose file holds the part's code.
        pub fn bundle(part: LaterPart) -> &'static str {
            match part {
                $($(LaterPart::$variant)|* => stringify!($bundle),)*
            }
        }

        /// The drawing code of every part in this part's bundle, from the bundle's file.
        async fn bundle_code(part: LaterPart) -> BundleCode {
            let bundle = match part {
                $(
                    $(LaterPart::$variant)|* => {
                        #[cfg(feature = "split")]
                        let code = $bundle().await;
                        #[cfg(not(feature = "split"))]
                        let code = $bundle();
                        code
                    }
                )*
            };
            bundle.map_err(drop)
        }
    };
}

// The two bundles: the player's later parts and the page's story picker, requested as the page
// starts, and the rest of the lesson, requested once the player is drawn.
split_bundles! {
    player [
        Summary => view! { <Summary/> };
        LessonSummary => view! {
            // What the run showed first, then what would have prevented it (its code comes
            // with the panels, the lesson's bundle: the player's bundle holds only this place).
            <Summary>
                <Recap anchor=PREDICT_ANCHOR/>
                {move || {
                    crate::view::slices::drawn(crate::view::slices::FIRST_SCREEN)
                        .then(|| later_here(LaterPart::Checked))
                }}
            </Summary>
        };
        Recap => view! { <Recap/> };
        Picker => view! { <StoryPicker/> };
    ]
    lesson [
        Faults => view! { <Faults/> };
        // Beside the narration: who is speaking when two requests are alive (the page's and
        // every widget's), and a glossary term's box (the page's).
        TermPop => view! {
            <Spoken/>
            // A widget has no glossary to open a term of.
            {(crate::platform::lab::use_place() == crate::platform::place::Place::Page)
                .then(|| view! { <TermPopover/> })}
        };
        // Who is speaking, on the stage: the packets' rings and the phone bar's words.
        Rings => view! { <PacketRings/> };
        NowLine => view! { <NowLine/> };
        Legend => view! { <RingLegend/> };
        Ghosts => view! { <LostPackets/> };
        Goal => view! { <ChallengeGoal/> };
        Share => view! { <EmbedButton/> };
        Host => view! { <HostFit/> };
        Stream => view! { <Stream/> };
        // After the prediction: the switches on in this design (its words are the panels'),
        // then the checked claim.
        Checked => view! {
            <ProtectionsOn/>
            <CheckedClaim/>
        };
        AfterRun => view! {
            <AfterRunPanel/>
            <ProtectionBar anchor=PROTECTIONS_ANCHOR/>
            <CompareWith/>
        };
        Challenges => view! {
            <Challenges/>
            <TryEveryFailure/>
        };
        Diagrams => view! {
            <StatePanels/>
            <Sequence/>
        };
        Extras => view! {
            <div class="extras">
                <Transcript/>
                <Calculator/>
                <Reference/>
            </div>
        };
        Glossary => view! {
            <Glossary back_to=PLAYER_ANCHOR/>
            <Sources/>
            <footer class="keys">
                {use_prefs().t("ui.keys")}
                // The guide for instructors is copied into the build beside the page
                // (index.html), so the link works wherever dist/ is hosted.
                " " <a href="teaching.md" data-testid="teaching">{use_prefs().t("ui.teaching")}</a>
            </footer>
        };
        Compare => {
            let CompareRight(right) = crate::platform::place::required("App");
            view! { <CompareStage id=PLAYER_ANCHOR right=right/> }
        };
        // A full widget's parts, or a compact one's under an exercise or a challenge: the
        // exercise decides which (embed/exercise.rs).
        WidgetRest => view! { <ExerciseParts full=true/> };
        Exercise => view! { <ExerciseParts full=false/> };
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::later::Code;

    #[test]
    fn the_player_bundle_holds_the_players_parts_and_the_lesson_bundle_the_rest() {
        for part in LaterPart::ALL {
            // The verdict, the prediction and the story picker; the fault buttons come with
            // the panels.
            let player = matches!(
                part,
                LaterPart::Summary
                    | LaterPart::LessonSummary
                    | LaterPart::Recap
                    | LaterPart::Picker
            );
            assert_eq!(
                bundle(part),
                if player { "player" } else { "lesson" },
                "{part:?}"
            );
        }
    }

    #[test]
    fn in_one_module_every_part_is_ready_at_the_first_poll() {
        let owner = Owner::new();
        owner.set();
        let code = Code::new(BUNDLES);
        for part in LaterPart::ALL {
            let draws = bundle_code(part).now_or_never();
            assert!(
                matches!(&draws, Some(Ok(d)) if d.iter().any(|(p, _)| *p == part)),
                "{part:?}"
            );
            assert!(code.load(part).now_or_never().is_some(), "{part:?}");
            assert!(matches!(code.get(part), Some(Ok(_))), "{part:?}");
        }
    }
}
