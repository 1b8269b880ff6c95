//! The glossary: one entry per term of the trade the narration uses, and the links from the
//! first use of each term in a step's narration to its entry.
//!
//! Each term has three catalog entries: `gloss.<id>.term` (its name in the list),
//! `gloss.<id>.def` (one or two sentences) and `gloss.<id>.match` (the words that count as a
//! use of it, `|`-separated, matched whole; a trailing `*` also matches any ending, for
//! Russian cases). The linking is pure and tested natively; the links are plain anchors
//! (`<a href="#term-…">`, keyboard and touch alike) described by the entry's definition.

use leptos::prelude::*;

use crate::platform::lab::{use_lab, use_prefs};
use idem_lesson::panels::glossary::{glossary_html, source_of, term_in_place};
use idem_lesson::stream::Act;

/// A term's definition opened beside the narration that uses it (review finding 12: a term
/// used to jump 3,500 px down to the list). Pressing a term of this verdict column's
/// narration opens it; Escape or Close shuts it and gives the focus back to the term's link;
/// "In the glossary" still leads to the list. Drawn once the panels' words are here; until
/// then a term is a plain link to the list.
#[component]
pub fn TermPopover() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let term = RwSignal::new(None::<&'static str>);
    // Each term opened is an `idem:action` of kind `glossary`.
    let noter = crate::platform::stream::Noter::here();
    let from = StoredValue::new_local(None::<leptos::web_sys::HtmlElement>);
    let anchor = NodeRef::<leptos::html::Div>::new();
    let node = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        lab.run.track();
        term.set(None);
    });
    // One listener for the page, answering the terms of this column only (a comparison draws
    // two columns, each with its box).
    let listener = window_event_listener(leptos::ev::click, move |ev| {
        use wasm_bindgen::JsCast;
        let Some(target) = ev
            .target()
            .and_then(|t| t.dyn_into::<leptos::web_sys::Element>().ok())
        else {
            return;
        };
        let Ok(Some(link)) =
            target.closest(":is([data-testid=narration], [data-testid=narration-spoken]) a.term")
        else {
            return;
        };
        let column = |e: &leptos::web_sys::Element| e.closest(".summary").ok().flatten();
        let here = anchor.get_untracked().and_then(|a| column(&a));
        if here.is_none() || here != column(&link) {
            return;
        }
        let id = link.get_attribute("data-term").unwrap_or_default();
        if let Some(id) = term_in_place(&id, prefs.lang.get_untracked().catalog()) {
            ev.prevent_default();
            from.set_value(link.dyn_into::<leptos::web_sys::HtmlElement>().ok());
            term.update(|shown| *shown = (*shown != Some(id)).then_some(id));
            if term.get_untracked() == Some(id) {
                noter.note(Act::Glossary {
                    term: id.to_owned(),
                });
            }
        }
    });
    on_cleanup(move || listener.remove());
    // Focus moves into the box when it opens, so a screen reader reads it and Escape works;
    // the page scrolls only as far as needed to show it, keeping the story in view.
    Effect::new(move |_| {
        if term.get().is_some() {
            if let Some(div) = node.get() {
                let options = leptos::web_sys::FocusOptions::new();
                options.set_prevent_scroll(true);
                let _ = div.focus_with_options(&options);
                let nearest = leptos::web_sys::ScrollIntoViewOptions::new();
                nearest.set_block(leptos::web_sys::ScrollLogicalPosition::Nearest);
                div.scroll_into_view_with_scroll_into_view_options(&nearest);
            }
        }
    });
    let close = move || {
        term.set(None);
        if let Some(link) = from.get_value() {
            let _ = link.focus();
        }
    };
    // (The page's shortcuts leave keys pressed in the box alone: hooks::handle_key.)
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape" {
            ev.prevent_default();
            close();
        }
    };
    let shown = move || {
        term.get().map(|id| {
            let c = prefs.catalog();
            view! {
                <div
                    class="term-pop"
                    role="dialog"
                    aria-label=c.text(&format!("gloss.{id}.term"))
                    data-testid="term-pop"
                    data-term=id
                    tabindex="-1"
                    node_ref=node
                    on:keydown=on_key
                >
                    <p>
                        <strong>{c.text(&format!("gloss.{id}.term"))}</strong>
                        ": "
                        {c.text(&format!("gloss.{id}.def"))}
                        <span inner_html=source_of(id, c)></span>
                    </p>
                    <p class="term-pop-bar">
                        <a href=format!("#term-{id}") data-testid="term-pop-list">{c.text("gloss.in_list")}</a>
                        <button type="button" data-testid="term-pop-close" on:click=move |_| close()>
                            {c.text("gloss.close")}
                        </button>
                    </p>
                </div>
            }
        })
    };
    view! { <div class="term-pop-anchor" node_ref=anchor>{shown}</div> }
}

/// The glossary section.
#[component]
pub fn Glossary(
    /// The id of the element the entries' "back" links lead to.
    back_to: &'static str,
) -> impl IntoView {
    let prefs = use_prefs();
    let catalog = prefs.lang.get_untracked().catalog();
    view! {
        <section class="glossary" id="glossary" data-testid="glossary" aria-labelledby="glossary-title">
            <h2 id="glossary-title">{catalog.text("gloss.title")}</h2>
            <div inner_html=glossary_html(catalog, back_to)></div>
        </section>
    }
}
