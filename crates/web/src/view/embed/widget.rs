//! The compact widget: the player and its controls for one scenario, in an iframe
//! (`?embed`) or mounted into a course page by [`super::mount`].

use leptos::prelude::*;

use crate::platform::events::{provide_events, use_run_events};
use crate::platform::hooks::{handle_key, use_layout, use_playback};
use crate::platform::lab::Lab;
use crate::platform::lab::{provide_lab, use_prefs};
use crate::view::later::{later_here, later_part, Code, LaterPart};
use crate::view::stage::{LinkNotice, Stage};
use idem_lesson::playback::run_from_query;
use idem_lesson::theme::Theme;

use idem_lesson::options::query_lang;

/// The compact lesson: player, topology, verdict, narration and controls for one scenario
/// (`full` adds the fault menu, protections, explorer, panels and sequence diagram; a
/// challenge adds its goal and the fault menu, and only the diagrams with `full`). Its own
/// lab, never the address bar; keys act only while focus is inside it.
#[component]
pub fn Widget(
    /// The deep link to open (may hold `lang`).
    #[prop(into)]
    query: String,
    /// The colour theme (follows the system when absent).
    #[prop(optional)]
    theme: Theme,
    /// Start playing at once.
    #[prop(optional)]
    autoplay: bool,
    /// Add the rest of the lesson's parts.
    #[prop(optional)]
    full: bool,
    /// The widget is the whole page (`?embed`): its title is the page's `<h1>` and it sits in
    /// the page's `<main>` landmark; mounted in a course page it is an `<h2>` of the host's.
    #[prop(optional)]
    page: bool,
    /// Receives the widget's lab (for the handle `mount` returns).
    #[prop(optional)]
    lab_out: Option<std::rc::Rc<std::cell::Cell<Option<Lab>>>>,
) -> impl IntoView {
    // A widget's own parts (its chrome, the notices, a full widget's panels) are styled by the
    // later stylesheet: asked for at once, as no first screen waits for it.
    #[cfg(target_arch = "wasm32")]
    crate::platform::browser::add_later_sheet();
    let (run, errors) = run_from_query(&query);
    let lang = query_lang(&query);
    let lab = provide_lab(run, lang, crate::platform::place::Place::Widget);
    crate::view::panels::recap::provide_guess();
    let prefs = use_prefs();
    prefs.theme.set(theme);
    crate::view::panels::recap::provide_guess();
    let events = provide_events();
    use_run_events(lab, events);
    if let Some(cell) = &lab_out {
        cell.set(Some(lab));
    }
    use_playback(lab);
    use_layout(prefs, events.root());
    if autoplay {
        lab.toggle_play();
    }
    let title = move || {
        lab.run
            .with(|r| prefs.t(&format!("scenario.{}.title", r.scenario().id)))
    };
    // Parts of the widget come in later files of the release bundle (later.rs): one store of
    // their code for the whole widget, so a missing file is said once and retried once.
    let code = Code::new(crate::view::bundles::BUNDLES);
    provide_context(code);
    // A challenge shows its goal, the faults used of its budget and the fault menu, in a frame
    // and a widget as on the page; other designs (the story picker, the protections, the story
    // keys) and the search, whose counter-examples are the answer, are not offered here.
    let challenge = lab.run.with_untracked(|r| r.challenge().is_some());
    // A course author's exercise (a `?embed` link's parameters, `mount`'s options) is read
    // there too (embed/exercise.rs): in a frame of its own the part comes for one.
    let rest = (full || challenge || page).then(|| {
        later_here(if full {
            LaterPart::WidgetRest
        } else {
            LaterPart::Exercise
        })
    });
    let stories = full && !challenge;
    // Above the player, from the lesson's bundle once the player's is here (Play needs none of
    // it): a challenge's goal, and in a frame of its own (`?embed`) what the host page needs
    // (embed/host.rs).
    let top = (page || challenge).then(|| {
        Effect::new(move |_| {
            if code.get(LaterPart::Summary).is_some() {
                code.start(LaterPart::Host);
            }
        });
        later_part(code, LaterPart::Host, None)
    });
    // The data stream (view/stream.rs) from the lesson's bundle, once the player's is here.
    Effect::new(move |_| {
        if code.get(LaterPart::Summary).is_some() {
            code.start(LaterPart::Stream);
        }
    });
    let stream = later_part(code, LaterPart::Stream, None);
    let heading = if page {
        view! { <h1 class="embed-title">{title}</h1> }.into_any()
    } else {
        view! { <h2 class="embed-title">{title}</h2> }.into_any()
    };
    let widget = view! {
        <div
            class="idem-lab embed"
            data-testid="embed"
            role="region"
            aria-label=title
            node_ref=events.root()
            data-theme=move || prefs.theme.get().name()
            lang=lang.catalog().tag
            tabindex="0"
            on:keydown=move |e| handle_key(lab, &e, stories)
        >
            {heading}
            <LinkNotice errors=errors/>
            {top}
            <Stage/>
            {later_here(LaterPart::Recap)}
            {rest}
            {stream}
        </div>
    };
    if page {
        view! { <main class="embed-page">{widget}</main> }.into_any()
    } else {
        widget.into_any()
    }
}
