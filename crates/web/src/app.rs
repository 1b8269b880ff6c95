//! The lesson page: reads the deep link, sets up the shared state, and lays out the parts.

use idem_core::{DeepLink, LinkError};
use leptos::prelude::*;

use crate::browser::{location_query, media_matches};
use crate::calculator::Calculator;
use crate::controls::{Controls, ProtectionBar, ScenarioBar};
use crate::embed::EmbedButton;
use crate::explorer::TryEveryFailure;
use crate::faults::Faults;
use crate::geometry::Layout;
use crate::hooks::{use_keyboard, use_layout, use_playback, use_url_sync};
use crate::i18n::Lang;
use crate::lab::{default_scenario, Lab};
use crate::lang::{browser_languages, choose, set_document_lang, LangSwitch};
use crate::panels::StatePanels;
use crate::playback::Run;
use crate::recap::Recap;
use crate::reference::Reference;
use crate::sequence::Sequence;
use crate::summary::Summary;
use crate::text::link_error;
use crate::topology::Topology;
use crate::transcript::Transcript;

/// Media query under which the topology is stacked (phones).
pub const NARROW: &str = "(max-width: 640px)";

/// The run a query string asks for and what was wrong with it. Bad parameters are dropped
/// and the good ones kept; faults that cannot be replayed are dropped too (the scenario,
/// protections and step stay).
pub fn run_from_query(query: &str) -> (Run, Vec<LinkError>) {
    let (link, mut errors) = DeepLink::parse_lenient(query);
    match Run::from_link(&link) {
        Ok(run) => (run, errors),
        Err(error) => {
            errors.push(error);
            let without_faults = DeepLink {
                faults: Vec::new(),
                ..link
            };
            let run =
                Run::from_link(&without_faults).unwrap_or_else(|_| Run::new(default_scenario()));
            (run, errors)
        }
    }
}

/// The notice that lists what was wrong with the link (nothing when it was fine).
#[component]
pub fn LinkNotice(errors: Vec<LinkError>) -> impl IntoView {
    let lab = crate::lab::use_lab();
    (!errors.is_empty()).then(|| {
        let items = errors
            .iter()
            .map(|e| view! { <li>{link_error(e, lab.lang.get_untracked().catalog())}</li> })
            .collect_view();
        view! {
            <div class="link-notice" role="alert" data-testid="link-notice">
                <p>{lab.t("link.notice")}</p>
                <ul>{items}</ul>
            </div>
        }
    })
}

/// The topology layout the window's width asks for now.
pub fn current_layout() -> Layout {
    if media_matches(NARROW) {
        Layout::Tall
    } else {
        Layout::Wide
    }
}

/// A lab for `run` in `lang`, laid out for the window and honouring reduced motion, provided
/// as context to the components below.
pub fn provide_lab(run: Run, lang: Lang) -> Lab {
    let lab = Lab::new_in(
        run,
        current_layout(),
        media_matches("(prefers-reduced-motion: reduce)"),
        lang,
    );
    provide_context(lab);
    lab
}

/// The player: the topology and its controls beside the verdict and narration. The page and
/// the embedded widget both show it.
#[component]
pub fn Stage() -> impl IntoView {
    view! {
        <section class="stage">
            <div class="stage-main">
                <Topology/>
                <Controls/>
            </div>
            <Summary/>
        </section>
    }
}

/// The whole lesson page.
///
/// `query` is the deep link to open (`scenario=key&step=4`); without it the page reads the
/// browser's address and keeps it up to date. Tests and embeddings pass a query and leave the
/// address alone.
#[component]
pub fn App(#[prop(optional, into)] query: Option<String>) -> impl IntoView {
    let owns_url = query.is_none();
    let query = query.unwrap_or_else(location_query);
    let (run, errors) = run_from_query(&query);
    let (lang, bad_lang) = choose(&query, &browser_languages());
    if owns_url {
        set_document_lang(lang);
    }
    let lab = provide_lab(run, lang);
    if owns_url {
        use_url_sync(lab);
    }
    use_keyboard(lab);
    use_playback(lab);
    use_layout(lab);

    let (theme, set_theme) = signal("auto");
    let cycle_theme = move |_| {
        set_theme.update(|t| {
            *t = match *t {
                "auto" if media_matches("(prefers-color-scheme: dark)") => "light",
                "auto" => "dark",
                "dark" => "light",
                _ => "dark",
            }
        })
    };
    let theme_label = move || {
        let t = theme.get();
        let dark = t == "dark" || (t == "auto" && media_matches("(prefers-color-scheme: dark)"));
        let key = if dark {
            "ui.theme_light"
        } else {
            "ui.theme_dark"
        };
        lab.t(key)
    };
    let lang_notice = bad_lang.map(|value| {
        let text = lab.catalog().fill("lang.bad", &[("value", value)]);
        view! { <p class="link-notice" role="alert" data-testid="lang-notice">{text}</p> }
    });

    view! {
        <div class="idem-lab" data-theme=move || theme.get() lang=lab.catalog().tag>
            <header class="masthead">
                <div class="brand">
                    <h1 data-testid="title">{lab.t("ui.title")}</h1>
                    <p class="lede">{lab.t("ui.lede")}</p>
                </div>
                <div class="masthead-tools">
                    <LangSwitch current=lang owns_url=owns_url/>
                    <button class="ghost theme" data-testid="theme" on:click=cycle_theme>
                        {theme_label}
                    </button>
                    <EmbedButton/>
                </div>
            </header>
            <LinkNotice errors=errors/>
            {lang_notice}
            <ScenarioBar/>
            <Stage/>
            <ProtectionBar/>
            <Recap/>
            <Faults/>
            <TryEveryFailure/>
            <StatePanels/>
            <Sequence/>
            <div class="extras">
                <Transcript/>
                <Calculator/>
                <Reference/>
            </div>
            <footer class="keys">{lab.t("ui.keys")}</footer>
        </div>
    }
}
