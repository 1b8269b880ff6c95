//! Reading below the player: how real systems identify a repeat (the comparison table), when
//! idempotency is not worth its cost, and why "exactly-once" means at-least-once delivery
//! plus an idempotent consumer. Static text from the long-form catalog (fetched when a section
//! is first opened), built as markup.

use leptos::prelude::*;

use crate::platform::catalogs::load;
use crate::platform::lab::use_prefs;
use idem_lesson::i18n::{loaded, Catalog, Part};
use idem_lesson::markup::{el, SafeHtml};
use idem_lesson::panels::reference::{exactly_html, industry_html, when_html};

/// Where the long-form file of the page's language stands.
#[derive(Clone, Debug, PartialEq)]
enum More {
    /// Not asked for yet (no section was opened).
    Idle,
    /// Being fetched.
    Loading,
    /// Here: the sections show it.
    Loaded,
    /// Could not be loaded: why (opening a section again retries).
    Failed(String),
}

/// The three reading sections. Their texts are a separate file per language
/// (`i18n/{tag}-more.txt`), fetched the first time one of them is opened, so the first screen
/// does not wait for them.
#[component]
pub fn Reference() -> impl IntoView {
    let prefs = use_prefs();
    let lang = prefs.lang.get_untracked();
    let catalog = lang.catalog();
    let state = RwSignal::new(if loaded(lang, Part::More).is_some() {
        More::Loaded
    } else {
        More::Idle
    });
    let on_toggle = move |ev: leptos::ev::Event| {
        let opened = event_target::<leptos::web_sys::Element>(&ev).has_attribute("open");
        if !opened || matches!(state.get_untracked(), More::Loaded | More::Loading) {
            return;
        }
        state.set(More::Loading);
        leptos::task::spawn_local(async move {
            state.set(match load(lang, Part::More).await {
                Ok(_) => More::Loaded,
                Err(error) => More::Failed(error.to_string()),
            });
        });
    };
    let body = move |section: fn(&Catalog, &Catalog) -> SafeHtml| {
        move || match state.get() {
            More::Loaded => section(lang.more(), catalog),
            More::Idle | More::Loading => el(
                "p",
                "class=\"hint more-wait\"",
                &catalog.text("more.loading"),
            ),
            More::Failed(error) => el(
                "p",
                "class=\"link-notice\" role=\"alert\" data-testid=\"more-failed\"",
                &catalog.fill("more.failed", &[("error", error)]),
            ),
        }
    };
    let busy = move || (state.get() == More::Loading).to_string();
    view! {
        <details class="extra" data-testid="industry" on:toggle=on_toggle>
            <summary>{catalog.text("industry.title")}</summary>
            <div class="extra-body" aria-busy=busy inner_html=body(industry_html)></div>
        </details>
        <details class="extra" data-testid="when-not" on:toggle=on_toggle>
            <summary>{catalog.text("when.title")}</summary>
            <div class="extra-body" aria-busy=busy inner_html=body(when_html)></div>
        </details>
        <details class="extra" data-testid="exactly-once" on:toggle=on_toggle>
            <summary>{catalog.text("exactly.title")}</summary>
            <div class="extra-body" aria-busy=busy inner_html=body(exactly_html)></div>
        </details>
    }
}
