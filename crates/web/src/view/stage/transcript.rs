//! The HTTP transcript: every request and response on the phone's link so far, written as
//! they would travel on the wire (request line, headers, JSON body; status line,
//! `Idempotent-Replayed`, JSON body), from the core's own message payloads. Lost messages are
//! marked. A collapsible block with a Copy button.

use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;

use crate::platform::lab::{use_lab, use_prefs};
use idem_lesson::stage::transcript::transcript_html;

/// Copies the text of `element` to the clipboard, and says whether it did once the browser
/// has answered; where the Clipboard API is missing (insecure pages, old browsers) or refuses
/// (no permission), the text is selected so the student can copy it by hand.
async fn copy_text(element: leptos::web_sys::HtmlElement) -> bool {
    let text = element.inner_text();
    let navigator = window().navigator();
    let has_clipboard = leptos::web_sys::js_sys::Reflect::get(&navigator, &"clipboard".into())
        .is_ok_and(|c| !c.is_undefined() && !c.is_null());
    if has_clipboard {
        let written =
            wasm_bindgen_futures::JsFuture::from(navigator.clipboard().write_text(&text)).await;
        if written.is_ok() {
            return true;
        }
    }
    if let Ok(Some(selection)) = window().get_selection() {
        let _ = selection.remove_all_ranges();
        let _ = selection.select_all_children(&element);
    }
    false
}

/// The collapsible transcript with its Copy button.
#[component]
pub fn Transcript() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let log = NodeRef::<leptos::html::Div>::new();
    let (copied, set_copied) = signal(None::<bool>);
    Effect::new(move |_| {
        lab.run.track();
        set_copied.set(None);
    });
    let html = move || {
        lab.run
            .with(|r| transcript_html(r.world(), prefs.catalog()))
    };
    let copy = move |_| {
        if let Some(div) = log.get_untracked() {
            let div: leptos::web_sys::HtmlElement = div.unchecked_into();
            leptos::task::spawn_local(async move {
                let copied = copy_text(div).await;
                set_copied.try_set(Some(copied));
            });
        }
    };
    let copy_label = move || {
        prefs.t(match copied.get() {
            None => "transcript.copy",
            Some(true) => "transcript.copied",
            Some(false) => "transcript.selected",
        })
    };
    view! {
        <details class="extra transcript" data-testid="transcript">
            <summary>{prefs.t("transcript.title")}</summary>
            <div class="extra-body">
                <div class="transcript-bar">
                    <p class="hint">{prefs.t("transcript.hint")}</p>
                    <button data-testid="transcript-copy" on:click=copy>
                        {copy_label}
                    </button>
                </div>
                <div node_ref=log inner_html=html></div>
            </div>
        </details>
    }
}
