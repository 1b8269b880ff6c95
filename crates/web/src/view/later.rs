//! The parts of the lesson drawn after its first screen, and how their code arrives.
//!
//! The parts come in two bundles, each a split point of the wasm (the table is `bundles.rs`,
//! the one file that names the components in them). Built with the `split` feature (the release
//! bundle: `scripts/split.sh` cuts it), the code that only a bundle uses leaves
//! `idem-web_bg.wasm` for a file of its own next to it: the player's (verdict, prediction and
//! story picker), requested as the page starts, and the lesson's (the fault buttons and every
//! panel below the player), requested once the player is drawn, so the student's first
//! download holds the player and no more. Without the feature (native and browser tests) the code is in the
//! one module and [`Code`] has it at the first poll.
//!
//! A part whose file cannot be loaded (offline, a file missing on the site) shows a notice in
//! its place with a button that tries again; the rest of the page keeps working.
//!
//! Nothing here names a component: the page and the widget give [`Code`] the bundle table.

use futures::future::{FutureExt, LocalBoxFuture, Shared};
use leptos::context::Provider;
use leptos::prelude::*;

use crate::platform::lab::use_prefs;

/// What draws a part once its code is here.
pub type Draw = fn() -> AnyView;

/// A bundle's parts and their drawing code, or why they could not be had.
pub type BundleCode = Result<Vec<(LaterPart, Draw)>, ()>;

/// Where the parts' code comes from (`bundles::BUNDLES`): the bundle that holds a part, and
/// the code of every part in it (requested when first asked for; [`Code`] shares one request
/// among its callers).
#[derive(Clone, Copy)]
pub struct Bundles {
    /// The name of the bundle whose file holds the part's code.
    pub bundle: fn(LaterPart) -> &'static str,
    /// The drawing code of every part in this part's bundle.
    pub code: fn(LaterPart) -> LocalBoxFuture<'static, BundleCode>,
}

/// The parts drawn after the first screen. Their code comes in two files of the release bundle:
/// the player's (its verdict and prediction, and the story picker, requested as the page
/// starts) and the rest of the lesson's (the fault buttons and the panels, requested once the
/// player is drawn).
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
    /// The rest of a widget mounted with `full` (or an exercise).
    WidgetRest,
    /// Under a compact widget's player: a challenge's fault menu, or the parts of a `?embed`
    /// link's exercise (nothing without one).
    Exercise,
    /// The fault buttons under the page's player (drawn with the panels: Play needs none of
    /// them, and on a phone they are below the verdict).
    Faults,
    /// The verdict and narration beside a player.
    Summary,
    /// The page's verdict and narration, with the prediction.
    LessonSummary,
    /// A widget's prediction.
    Recap,
    /// A glossary term opened beside the narration (its words come with the panels).
    TermPop,
    /// The goal of the challenge being played, above the player.
    Goal,
    /// The masthead's "Embed" button (a course author's tool: Play needs none of it).
    Share,
    /// The story picker (the page's, and a full widget's), in the player's bundle: Play needs
    /// none of it, and the first screen's module is smaller by its code.
    Picker,
    /// The page's compare mode: the two stages and their playback bar (drawn with the panels,
    /// whose texts it uses: the lesson's bundle).
    Compare,
    /// Above a widget's player once its player is here: a challenge's goal, and what an
    /// `?embed` page does for its host, the notice for unused link parameters and the height
    /// messages (`embed/host.rs`).
    Host,
    /// The checked "would have prevented it" under the page's recap, beside the player (its
    /// code, the worker's request and its words come with the panels: the lesson's bundle).
    Checked,
    /// The data stream for course sites (`idem:action`, and the results of the runs that
    /// ended): drawn by the page and every widget, it draws nothing (`view/stream.rs`).
    Stream,
    /// Over the packets in flight: each one's attempt, in a ring and a badge, while two
    /// requests are alive (`view/stage/speakers.rs`). Never asked for: drawn when the lesson's
    /// bundle comes for the parts that ask for it.
    Rings,
    /// The playback bar's words on a phone, with who is speaking (`view/stage/speakers.rs`).
    /// Never asked for, as `Rings`.
    NowLine,
    /// Under the drawing: the rings' legend, each badge on screen and whose it is, while two
    /// requests are alive (`view/stage/ring_legend.rs`). Never asked for, as `Rings`.
    Legend,
    /// Under the packets in flight: the packets lost or copied at the step, broken where they
    /// broke (`view/stage/ghosts.rs`). Never asked for, as `Rings`.
    Ghosts,
}

impl LaterPart {
    /// Every part, in page order.
    pub const ALL: [LaterPart; 23] = [
        LaterPart::AfterRun,
        LaterPart::Challenges,
        LaterPart::Diagrams,
        LaterPart::Extras,
        LaterPart::Glossary,
        LaterPart::WidgetRest,
        LaterPart::Exercise,
        LaterPart::Faults,
        LaterPart::Summary,
        LaterPart::LessonSummary,
        LaterPart::Recap,
        LaterPart::TermPop,
        LaterPart::Goal,
        LaterPart::Share,
        LaterPart::Picker,
        LaterPart::Compare,
        LaterPart::Host,
        LaterPart::Checked,
        LaterPart::Stream,
        LaterPart::Rings,
        LaterPart::NowLine,
        LaterPart::Legend,
        LaterPart::Ghosts,
    ];

    /// Whether the part says its file could not be loaded also when another part asked for
    /// that file first: the compare mode's stages are the whole page in that mode, where the
    /// part that asks for the lesson's bundle first (the panels after the run) is not drawn.
    pub fn says_its_failure(self) -> bool {
        self == LaterPart::Compare
    }

    /// The part's place in [`LaterPart::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// What holds the part's place until it is drawn: the verdict's column and the compare
    /// mode's stage keep their sizes (the stage's box is the first screen's, index.html). (The
    /// page draws the stories' box itself, app.rs: it is laid out from the catalog's words.)
    pub fn placeholder(self) -> Option<AnyView> {
        match self {
            LaterPart::Summary | LaterPart::LessonSummary => Some(
                view! { <div class="shell-box shell-summary" aria-hidden="true"></div> }.into_any(),
            ),
            LaterPart::Compare => Some(
                view! { <div class="shell-box shell-stage" aria-hidden="true"></div> }.into_any(),
            ),
            _ => None,
        }
    }
}

/// A bundle's request under way, shared by everyone waiting for it.
type BundleLoad = Shared<LocalBoxFuture<'static, BundleCode>>;

/// The state of each part's code, shared by the page (or widget) that draws them, and the
/// bundles' requests under way.
#[derive(Clone, Copy)]
pub struct Code {
    bundles: Bundles,
    slots: [RwSignal<Option<Result<Draw, ()>>>; LaterPart::ALL.len()],
    loading: StoredValue<Vec<(&'static str, BundleLoad)>, LocalStorage>,
    /// The first part that asked for each bundle: the one that says so when it fails (a part
    /// that asks is one that is drawn).
    asked: StoredValue<Vec<(&'static str, LaterPart)>, LocalStorage>,
}

impl Code {
    /// Nothing loaded yet; the code comes from `bundles`.
    pub fn new(bundles: Bundles) -> Self {
        Code {
            bundles,
            slots: std::array::from_fn(|_| RwSignal::new(None)),
            loading: StoredValue::new_local(Vec::new()),
            asked: StoredValue::new_local(Vec::new()),
        }
    }

    /// `part`'s code: `None` while it has not arrived, `Err` when its last request failed.
    pub fn get(self, part: LaterPart) -> Option<Result<Draw, ()>> {
        self.slots[part.index()].get()
    }

    /// Requests `part`'s code and returns at once: the code is set in this call when it is
    /// already here (always without the `split` feature), later when its file arrives.
    pub fn start(self, part: LaterPart) {
        let mut loading = Box::pin(self.load(part));
        if loading.as_mut().now_or_never().is_none() {
            leptos::task::spawn_local(loading);
        }
    }

    /// Whether `part`'s code failed to come and it is the part that first asked for its
    /// bundle (the one that says so: a missing file is reported once, not by every part in
    /// it, and by a part that is on screen).
    fn first_failed(self, part: LaterPart) -> bool {
        matches!(self.get(part), Some(Err(())))
            && self.asked.with_value(|asked| {
                asked
                    .iter()
                    .find(|(bundle, _)| *bundle == (self.bundles.bundle)(part))
                    .is_some_and(|(_, first)| *first == part)
            })
    }

    /// Requests `part`'s bundle, unless its code is here, and waits for it: one request at a
    /// time per bundle, shared by every caller; its result is set for every part of the bundle,
    /// and a failed one is forgotten, so the next call (e.g. "Try again") asks again.
    pub async fn load(self, part: LaterPart) {
        let bundle = (self.bundles.bundle)(part);
        let here = self.slots[part.index()].try_with_untracked(|s| matches!(s, Some(Ok(_))));
        if here != Some(false) {
            return; // here already, or the page is gone
        }
        self.asked.try_update_value(|asked| {
            if !asked.iter().any(|(b, _)| *b == bundle) {
                asked.push((bundle, part));
            }
        });
        let Some(request) = self.loading.try_update_value(|all| {
            if let Some((_, request)) = all.iter().find(|(b, _)| *b == bundle) {
                return request.clone();
            }
            let request = (self.bundles.code)(part).shared();
            all.push((bundle, request.clone()));
            request
        }) else {
            return;
        };
        let result = request.await;
        if result.is_err() {
            self.loading
                .try_update_value(|all| all.retain(|(b, _)| *b != bundle));
        }
        for other in LaterPart::ALL
            .into_iter()
            .filter(|p| (self.bundles.bundle)(*p) == bundle)
        {
            let code = result.as_ref().map_err(|_| ()).and_then(|draws| {
                draws
                    .iter()
                    .find(|(p, _)| *p == other)
                    .map(|(_, draw)| *draw)
                    .ok_or(())
            });
            // Set only what changes (nothing → failed → here), so a part drawn, or a notice
            // with its focus, is not drawn again.
            let slot = self.slots[other.index()];
            let was = slot.try_with_untracked(|s| s.as_ref().map(Result::is_ok));
            if was.is_some_and(|was| was != Some(code.is_ok())) {
                slot.try_set(Some(code));
            }
        }
    }
}

/// `part` in a player or widget: drawn once its code is here (requested now, from the page's or
/// widget's [`Code`] in context; nothing outside them).
pub fn later_here(part: LaterPart) -> impl IntoView {
    let code = crate::platform::place::required::<Code>("App, Widget");
    code.start(part);
    later_part(code, part, None)
}

/// `part` in a player or widget, drawn when its bundle comes for other parts (it asks for
/// nothing: the first screen's parts wait for no file).
pub fn later_unasked(part: LaterPart) -> impl IntoView {
    later_part(
        crate::platform::place::required::<Code>("App, Widget"),
        part,
        None,
    )
}

/// `part`, drawn when `shown` (if given) and its code is here; the notice and a retry button in
/// its place when its code could not be loaded.
///
/// The part is drawn with the lab in context here and now, also when its code comes later: a
/// compare side provides its own lab to what it draws beside its sibling, and by the time the
/// code arrives the context would be the sibling's. (Its preferences differ from the page's in
/// the layout only, which no part drawn later on a side reads.)
pub fn later_part(code: Code, part: LaterPart, shown: Option<Memo<bool>>) -> impl IntoView {
    let lab = crate::platform::lab::use_lab();
    // Whether this place shows (or showed) the notice, so that the part drawn in its place
    // after "Try again" takes the focus its button had.
    let noticed = StoredValue::new(false);
    move || {
        if shown.is_some_and(|shown| !shown.get()) {
            return None;
        }
        let Some(code_here) = code.get(part) else {
            return part.placeholder();
        };
        Some(match code_here {
            Ok(draw) => {
                let drawn = view! { <Provider value=lab>{draw()}</Provider> }.into_any();
                if noticed.get_value() {
                    noticed.set_value(false);
                    arrived(drawn)
                } else {
                    drawn
                }
            }
            Err(()) if code.first_failed(part) || part.says_its_failure() => {
                noticed.set_value(true);
                view! { <PartFailed code=code part=part/> }.into_any()
            }
            // Said by another part: this one keeps its place (nothing jumps meanwhile, and
            // "Try again" there draws it where it belongs).
            Err(()) => part.placeholder().into_any(),
        })
    }
}

/// A part drawn in place of its notice after "Try again": the button that had the focus is
/// gone, so the focus goes to the part rather than to the page's body (a keyboard or
/// screen-reader user goes on from what arrived). Nothing moves when the focus is elsewhere.
fn arrived(drawn: AnyView) -> AnyView {
    view! {
        <div class="part-arrived" tabindex="-1" data-testid="part-arrived" use:take_lost_focus>
            {drawn}
        </div>
    }
    .into_any()
}

/// Focuses `el` once it is on the page, if the focus is on the page's body (lost).
fn take_lost_focus(el: leptos::web_sys::Element) {
    request_animation_frame(move || {
        let lost = document()
            .active_element()
            .is_none_or(|active| active.tag_name().eq_ignore_ascii_case("body"));
        if let (true, Some(el)) = (
            lost,
            wasm_bindgen::JsCast::dyn_ref::<leptos::web_sys::HtmlElement>(&el),
        ) {
            let _ = el.focus();
        }
    });
}

/// The notice in place of a part whose code could not be loaded. "Try again" is disabled and
/// marked busy while it asks; a failed attempt leaves the notice (and focus) where it is.
#[component]
fn PartFailed(code: Code, part: LaterPart) -> impl IntoView {
    let prefs = use_prefs();
    let busy = RwSignal::new(false);
    let retry = move |_| {
        if busy.get_untracked() {
            return;
        }
        busy.set(true);
        leptos::task::spawn_local(async move {
            code.load(part).await;
            busy.try_set(false);
        })
    };
    view! {
        <div class="link-notice" role="alert" data-testid="part-failed">
            <p>{move || prefs.t("part.failed")}</p>
            <button
                class="ghost"
                data-testid="part-retry"
                on:click=retry
                disabled=move || busy.get()
                aria-busy=move || busy.get().to_string()
            >
                {move || prefs.t("part.retry")}
            </button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of two bundles, "player" (the summaries, the prediction and the picker) and
    /// "lesson" (the rest), whose code is here at once, drawing nothing.
    const TWO_BUNDLES: Bundles = Bundles {
        bundle: |part| match part {
            LaterPart::Summary
            | LaterPart::LessonSummary
            | LaterPart::Recap
            | LaterPart::Picker => "player",
            _ => "lesson",
        },
        code: |part| {
            let bundle = (TWO_BUNDLES.bundle)(part);
            let draws: Vec<(LaterPart, Draw)> = LaterPart::ALL
                .into_iter()
                .filter(|p| (TWO_BUNDLES.bundle)(*p) == bundle)
                .map(|p| (p, (|| ().into_any()) as Draw))
                .collect();
            futures::future::ready(Ok(draws)).boxed_local()
        },
    };

    #[test]
    fn all_is_in_declaration_order() {
        for (i, part) in LaterPart::ALL.into_iter().enumerate() {
            assert_eq!(part.index(), i, "{part:?}");
        }
    }

    #[test]
    fn a_bundle_that_failed_is_reported_by_the_part_that_asked_for_it_only() {
        let owner = Owner::new();
        owner.set();
        let code = Code::new(TWO_BUNDLES);
        // Asked for by the page's summary first (App), and its faults later.
        code.asked.update_value(|asked| {
            asked.push(("lesson", LaterPart::Extras));
            asked.push(("player", LaterPart::LessonSummary));
        });
        for part in [
            LaterPart::Challenges,
            LaterPart::Extras,
            LaterPart::Summary,
            LaterPart::LessonSummary,
        ] {
            code.slots[part.index()].set(Some(Err(())));
        }
        assert!(code.first_failed(LaterPart::Extras), "the part that asked");
        assert!(
            !code.first_failed(LaterPart::Challenges),
            "the same file, said once"
        );
        assert!(code.first_failed(LaterPart::LessonSummary), "another file");
        assert!(
            !code.first_failed(LaterPart::Summary),
            "not drawn on the page: it never asked"
        );
        assert!(!code.first_failed(LaterPart::AfterRun), "not failed");
        // Asking again fetches the whole bundle (here at once: one module).
        code.load(LaterPart::Extras).now_or_never().expect("ready");
        assert!(matches!(code.get(LaterPart::Challenges), Some(Ok(_))));
        assert!(matches!(code.get(LaterPart::Extras), Some(Ok(_))));
        assert!(
            matches!(code.get(LaterPart::Summary), Some(Err(()))),
            "the other bundle waits"
        );
    }
}
