//! The sources of every outside claim the lesson makes (status codes, headers, the industry
//! table's rows, retention windows), each with a link that opens in a new tab. Other parts of
//! the page point at an entry with [`source_ref`] (`<a href="#src-stripe">`), so a claim
//! leads to where it was checked. The list itself is data: titles are the documents' own
//! names, what each supports is in the catalogs (`src.<id>`).

use leptos::prelude::*;

use crate::platform::lab::use_prefs;
use idem_lesson::anchors::SOURCES_ANCHOR;
use idem_lesson::panels::sources::sources_html;

/// The sources section at the end of the page.
#[component]
pub fn Sources() -> impl IntoView {
    let prefs = use_prefs();
    let html = sources_html(prefs.lang.get_untracked().catalog());
    view! {
        <section class="sources-section" id=SOURCES_ANCHOR data-testid="sources" aria-labelledby="sources-title">
            <h2 id="sources-title">{move || prefs.t("src.title")}</h2>
            <p class="hint">{move || prefs.t("src.lede")}</p>
            <div inner_html=html></div>
        </section>
    }
}
