//! The lesson page: reads the deep link, sets up the shared state, and lays out the parts.
//!
//! The language switches in place: the parts are rendered again in the new language from the
//! same lab, so the step, the injected faults and the protections stay.

use leptos::prelude::*;

use crate::platform::browser::{location_query, media_matches};
use crate::platform::events::{provide_events, use_run_events};
use crate::platform::hooks::{use_keyboard, use_layout, use_playback, use_url_sync};
use crate::platform::lab::{provide_lab, use_prefs};
use crate::platform::lang::{browser_languages, set_document_lang};
use crate::platform::place::Place;
use crate::platform::progress::{provide_progress, Stored};
use crate::view::lang_switch::LangSwitch;
use crate::view::later::{later_here, Code, LaterPart};
use crate::view::panels::explorer::LastSearch;
use crate::view::panels::path::{StoriesBox, Welcome};
use crate::view::slices::{drawn, later_slices, part, Slice, FIRST_SCREEN};
use crate::view::stage::{LinkNotice, Stage};
use idem_lesson::anchors::PLAYER_ANCHOR;
use idem_lesson::lang::choose;
use idem_lesson::playback::run_from_query;

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
    let lab = provide_lab(run, lang, Place::Page);
    let prefs = use_prefs();
    if owns_url {
        use_url_sync(lab, prefs);
        Effect::new(move |_| set_document_lang(prefs.lang.get()));
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
    provide_context(crate::view::stage::compare::CompareRight(
        lab.side(idem_lesson::playback::Side::Right),
    ));
    provide_context(crate::view::stage::compare::CompareLayout(
        signal(idem_lesson::geometry::Layout::Tall).0,
    ));
    crate::view::panels::recap::provide_guess();
    let events = provide_events();
    use_run_events(lab, events);
    use_keyboard(lab);
    use_playback(lab);
    use_layout(prefs, events.root());

    let theme = prefs.theme;
    let system_dark = || media_matches("(prefers-color-scheme: dark)");
    let cycle_theme = move |_| theme.update(|t| *t = t.next(system_dark()));
    let theme_label = move || {
        let key = if theme.get().is_dark(system_dark()) {
            "ui.theme_light"
        } else {
            "ui.theme_dark"
        };
        prefs.t(key)
    };
    // The masthead and the definition are drawn in the mounting task (the stories once the
    // player's bundle is here, a box laid out as they are meanwhile); the player
    // and then the parts below the fold follow in later tasks, one slice per frame, so no task
    // blocks the page long; in page order, so a slice only adds below what is drawn.
    // Once drawn, a slice stays, also through a change of language. `data-ready` on the root
    // marks the whole page drawn: the one signal tests and course pages wait for.
    // The player's own later parts are requested at once; the rest of the code, and the
    // panels' texts (`Part::Panels`), once the player is drawn, and the slices after it wait
    // for them; a texts file that cannot be loaded is said where they would be.
    let code = Code::new(crate::view::bundles::BUNDLES);
    provide_context(code);
    code.start(LaterPart::LessonSummary); // (its bundle is the player's)
    let panels_failed = RwSignal::new(None::<String>);
    let later = later_slices(prefs, code, panels_failed);
    let ready = later.0[Slice::Glossary as usize];
    provide_context(later);
    // Everything below is drawn again when the language changes (the lab, and so the run,
    // stays); the notices about the opening link are shown in the first language only.
    let notices = Some((errors, bad_lang));
    let notices = StoredValue::new(notices);
    let body = move || {
        let lang = prefs.lang.get_untracked();
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
                let text = prefs.catalog().fill("panels.failed", &[("error", error)]);
                view! { <p class="link-notice" role="alert" data-testid="panels-failed">{text}</p> }
            })
        };
        let lesson = move || {
            if comparing.get() {
                // The compare stage's texts are the panels': it waits for the first slice
                // drawn with them, and its code comes with theirs (the lesson's bundle).
                if !later.drawn(FIRST_SCREEN) {
                    return view! { <div class="shell-box shell-stage"></div> }.into_any();
                }
                return view! {
                    {later_here(LaterPart::Compare)}
                    {later_here(LaterPart::Faults)}
                }
                .into_any();
            }
            view! {
                <Welcome/>
                // The stories come with the player's bundle (requested above): Play needs none
                // of them, and the first screen's module is smaller without their code.
                // Until then (and if that file cannot be loaded) their box, laid out as they
                // are from the catalog's words, holds their place, so their coming moves nothing.
                {move || {
                    (!matches!(code.get(LaterPart::Picker), Some(Ok(_))))
                        .then(|| view! { <StoriesBox/> })
                }}
                {later_here(LaterPart::Picker)}
                // A challenge's goal comes with the lesson's code: Play needs none of it.
                {move || drawn(FIRST_SCREEN).then(|| later_here(LaterPart::Goal))}
                // The data stream and the results of ended runs (view/stream.rs), likewise.
                {move || drawn(FIRST_SCREEN).then(|| later_here(LaterPart::Stream))}
                // The first screen's box stands in for the player until it is drawn.
                {move || if later.drawn(Slice::Player) {
                    view! { <Stage id=PLAYER_ANCHOR lesson=true/> }.into_any()
                } else {
                    view! { <div class="shell-box shell-stage"></div> }.into_any()
                }}
                {part(Slice::AfterRun, code, later)}
                {part(Slice::Challenges, code, later)}
                {part(Slice::Diagrams, code, later)}
                {part(Slice::Extras, code, later)}
            }
            .into_any()
        };
        view! {
            <LinkNotice errors=errors/>
            {lang_notice}
            {lesson}
            {panels_failed}
            {part(Slice::Glossary, code, later)}
        }
    };

    view! {
        <div
            class="idem-lab"
            node_ref=events.root()
            data-theme=move || theme.get().name()
            lang=move || prefs.lang.get().tag()
            data-ready=move || ready.get().to_string()
        >
            <header class="masthead">
                <div class="brand">
                    <h1 data-testid="title">{move || prefs.t("ui.title")}</h1>
                </div>
                <div class="masthead-tools">
                    <LangSwitch owns_url=owns_url/>
                    <button class="ghost theme" data-testid="theme" on:click=cycle_theme>
                        {theme_label}
                    </button>
                    // A course author's tool, drawn with the panels (its code is in the lesson's
                    // bundle), again in the new language when it changes. Until then its button's
                    // place is kept (hidden), so the masthead's rows do not grow when it comes
                    // (on a narrow phone the Russian tools take one row more with it).
                    {move || {
                        prefs.lang.track();
                        if drawn(FIRST_SCREEN) {
                            later_here(LaterPart::Share).into_any()
                        } else {
                            view! {
                                <div class="embed-share share-slot" aria-hidden="true">
                                    <button type="button" class="secondary" disabled tabindex="-1">
                                        {prefs.t("ui.embed")}
                                    </button>
                                </div>
                            }
                            .into_any()
                        }
                    }}
                </div>
            </header>
            <main class="lab-main">
                <For each=move || [prefs.lang.get()] key=|lang| *lang children=move |_| body()/>
            </main>
        </div>
    }
}

/// What the page at the browser's address opens with: the run its link asks for, what was
/// wrong with the link, and the stored progress. main.rs reads it in a task of its own before
/// the one that draws the first screen, so that neither blocks the page long.
pub struct Opening {
    run: idem_lesson::playback::Run,
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

/// What the page shows when its catalog file cannot be loaded (missing, unreadable, offline):
/// no catalog could be read, so the words are here, in both languages, with the reason.
#[component]
pub fn LoadFailed(error: idem_lesson::i18n::LoadError) -> impl IntoView {
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
