//! The lesson page: reads the deep link, sets up the shared state, and lays out the parts.
//!
//! The language switches in place: the parts are rendered again in the new language from the
//! same lab, so the step, the injected faults and the protections stay.

use leptos::prelude::*;

use crate::browser::{location_query, media_matches};
use crate::embed::share::EmbedButton;
use crate::events::{provide_events, use_run_events};
use crate::hooks::{use_keyboard, use_layout, use_playback, use_url_sync};
use crate::lang::{browser_languages, choose, set_document_lang, LangSwitch};
use crate::later::{later_here, later_part, Code, LaterPart};
use crate::panels::explorer::LastSearch;
use crate::panels::glossary::TermLinks;
use crate::panels::path::{provide_progress, Stored, StoryPicker, Welcome, PLAYER_ANCHOR};
use crate::stage::compare::CompareStage;
use crate::stage::{provide_lab, run_from_query, LinkNotice, Stage};
use crate::theme::Theme;

/// The whole lesson page.
///
/// `query` is the deep link to open (`scenario=key&step=4`); without it the page reads the
/// browser's address and keeps it up to date. Tests and embeddings pass a query and leave the
/// address alone.
/// `opening` is what the page opens with when it was read ahead, in an earlier task (main.rs).
#[component]
pub fn App(
    #[prop(optional, into)] query: Option<String>,
    #[prop(optional)] opening: Option<Opening>,
) -> impl IntoView {
    let owns_url = query.is_none();
    let query = query.unwrap_or_else(location_query);
    let (run, errors, stored) = match opening {
        Some(Opening {
            run,
            errors,
            stored,
        }) => (run, errors, Some(stored)),
        None => {
            let (run, errors) = run_from_query(&query);
            (run, errors, None)
        }
    };
    let (lang, bad_lang) = choose(&query, &browser_languages());
    let lab = provide_lab(run, lang);
    if owns_url {
        use_url_sync(lab);
        Effect::new(move |_| set_document_lang(lab.lang.get()));
    }
    provide_progress(lab, owns_url, stored);
    provide_context(LastSearch(RwSignal::new(None)));
    // Compare mode shows two stages and the faults; the rest of the lesson is about one run.
    // The mode follows the run one tick later, so the parts it replaces have finished
    // reacting to the new run before they go.
    let comparing = RwSignal::new(lab.run.with_untracked(|r| r.compare().is_some()));
    Effect::new(move |_| {
        let now = lab.run.with(|r| r.compare().is_some());
        if comparing.get_untracked() != now {
            comparing.set(now);
        }
    });
    // The right side's view of the lab lives as long as the page, and so does the layout both
    // sides are drawn in.
    let right = lab.side(1);
    provide_context(crate::stage::compare::CompareLayout(
        signal(crate::stage::geometry::Layout::Tall).0,
    ));
    provide_context(TermLinks);
    crate::panels::recap::provide_guess();
    let events = provide_events();
    use_run_events(lab, events);
    crate::panels::challenge::use_challenge_events(lab, events);
    use_keyboard(lab);
    use_playback(lab);
    use_layout(lab);

    let (theme, set_theme) = signal(Theme::Auto);
    let system_dark = || media_matches("(prefers-color-scheme: dark)");
    let cycle_theme = move |_| set_theme.update(|t| *t = t.next(system_dark()));
    let theme_label = move || {
        let key = if theme.get().is_dark(system_dark()) {
            "ui.theme_light"
        } else {
            "ui.theme_dark"
        };
        lab.t(key)
    };
    // The masthead, the definition and the stories are drawn in the mounting task; the player
    // and then the parts below the fold follow in later tasks, one slice per frame, so no task
    // blocks the page long (#10); in page order, so a slice only adds below what is drawn.
    // Once drawn, a slice stays, also through a change of language. `data-ready` on the root
    // marks the whole page drawn: the one signal tests and course pages wait for.
    // The player's own later parts are requested at once; the rest of the code, and the
    // panels' texts (`Part::Panels`), once the player is drawn, and the slices after it wait
    // for them; a texts file that cannot be loaded is said where they would be.
    let code = Code::new();
    provide_context(code);
    code.start(LaterPart::LessonSummary); // (its bundle is the player's)
    let panels_failed = RwSignal::new(None::<String>);
    let later = later_slices(lab, code, panels_failed);
    let ready = later[SLICES - 1];
    provide_context(Later(later));
    // Everything below is drawn again when the language changes (the lab, and so the run,
    // stays); the notices about the opening link are shown in the first language only.
    let notices = Some((errors, bad_lang));
    let notices = StoredValue::new(notices);
    let body = move || {
        let lang = lab.lang.get_untracked();
        let (errors, bad_lang) = notices
            .try_update_value(Option::take)
            .flatten()
            .unwrap_or_default();
        let lang_notice = bad_lang.map(|value| {
            let text = lang.catalog().fill("lang.bad", &[("value", value)]);
            view! { <p class="link-notice" role="alert" data-testid="lang-notice">{text}</p> }
        });
        let panels_failed = move || {
            panels_failed.get().map(|error| {
                let text = lab.catalog().fill("panels.failed", &[("error", error)]);
                view! { <p class="link-notice" role="alert" data-testid="panels-failed">{text}</p> }
            })
        };
        let lesson = move || {
            if comparing.get() {
                // The compare stage's texts are the panels': it waits for the first slice
                // drawn with them.
                if !later[FIRST_SCREEN].get() {
                    return view! { <div class="shell-box shell-stage"></div> }.into_any();
                }
                return view! {
                    <CompareStage id=PLAYER_ANCHOR right=right/>
                    {later_here(LaterPart::Faults)}
                }
                .into_any();
            }
            view! {
                <Welcome/>
                <StoryPicker/>
                // A challenge's goal comes with the lesson's code: Play needs none of it.
                {move || drawn(FIRST_SCREEN).then(|| later_here(LaterPart::Goal))}
                // The first screen's box stands in for the player until it is drawn.
                {move || if later[0].get() {
                    view! { <Stage id=PLAYER_ANCHOR lesson=true/> }.into_any()
                } else {
                    view! { <div class="shell-box shell-stage"></div> }.into_any()
                }}
                {part(3, code, later)}
                {part(4, code, later)}
                {part(5, code, later)}
                {part(6, code, later)}
            }
            .into_any()
        };
        view! {
            <LinkNotice errors=errors/>
            {lang_notice}
            {lesson}
            {panels_failed}
            {part(7, code, later)}
        }
    };

    view! {
        <div
            class="idem-lab"
            node_ref=events.root()
            data-theme=move || theme.get().name()
            lang=move || lab.lang.get().tag()
            data-ready=move || ready.get().to_string()
        >
            <header class="masthead">
                <div class="brand">
                    <h1 data-testid="title">{move || lab.t("ui.title")}</h1>
                </div>
                <div class="masthead-tools">
                    <LangSwitch owns_url=owns_url/>
                    <button class="ghost theme" data-testid="theme" on:click=cycle_theme>
                        {theme_label}
                    </button>
                    {move || {
                        lab.lang.track();
                        view! { <EmbedButton/> }
                    }}
                </div>
            </header>
            <main class="lab-main">
                <For each=move || [lab.lang.get()] key=|lang| *lang children=move |_| body()/>
            </main>
        </div>
    }
}

/// What the page at the browser's address opens with: the run its link asks for, what was
/// wrong with the link, and the stored progress. main.rs reads it in a task of its own before
/// the one that draws the first screen, so that neither is long (#10).
pub struct Opening {
    run: crate::stage::playback::Run,
    errors: Vec<idem_core::LinkError>,
    stored: Stored,
}

impl Opening {
    /// Reads the opening of the page at the browser's address.
    pub fn read() -> Opening {
        let (run, errors) = run_from_query(&location_query());
        Opening {
            run,
            errors,
            stored: Stored::read(),
        }
    }
}

/// How many slices of the page come after the mounting task: the player's topology, its
/// controls and faults, its summary (`Stage` draws those two by `Later`, and the picker its
/// folded mechanics with the summary), then four groups of panels and the glossary.
const SLICES: usize = 8;

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
pub struct Later([Memo<bool>; SLICES]);

/// Whether slice `slice` is drawn (always, outside the page).
pub fn drawn(slice: usize) -> bool {
    use_context::<Later>().is_none_or(|Later(flags)| flags[slice].get())
}

/// A part of the player drawn with slice `slice` of the page (at once outside it).
pub fn with_slice(slice: usize, draw: fn() -> AnyView) -> impl IntoView {
    move || drawn(slice).then(draw)
}

/// Slice `slice` of the page: the part its code draws (`SLICE_PARTS`).
fn part(slice: usize, code: Code, flags: [Memo<bool>; SLICES]) -> impl IntoView {
    SLICE_PARTS[slice].map(|which| later_part(code, which, Some(flags[slice])))
}

/// One flag per slice, each set in its own task after a frame has been painted (an animation
/// frame, then a timeout), in order, and for a part whose code comes later once that code is
/// here (or has failed to come); a flag never goes back to `false`. The player's bundle is
/// requested as the page starts (`App`); a frame after the first screen's slices are drawn,
/// the lesson's bundle and the panels' texts of the page's language are asked for, and the next
/// slices follow when the texts are loaded (`failed` says why they could not be).
fn later_slices(
    lab: crate::lab::Lab,
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
                let Some(lang) = lab.lang.try_get_untracked() else {
                    return; // the page is gone
                };
                if let Err(error) = crate::i18n::load(lang, crate::i18n::Part::Panels).await {
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

/// What the page shows when its catalog file cannot be loaded (missing, unreadable, offline):
/// no catalog could be read, so the words are here, in both languages, with the reason.
#[component]
pub fn LoadFailed(error: crate::i18n::LoadError) -> impl IntoView {
    let reason = error.to_string();
    view! {
        <div class="idem-lab">
        <div class="link-notice" role="alert" data-testid="load-error">
            <p lang="en">
                "Idempotency Lab could not load its texts (" {reason.clone()}
                "). Reload the page; if this keeps happening, the site is missing a file."
            </p>
            <p lang="ru">
                "Не удалось загрузить тексты урока (" {reason}
                "). Обновите страницу; если не поможет, на сайте не хватает файла."
            </p>
        </div>
        </div>
    }
}
