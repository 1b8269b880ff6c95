//! The "Embed" button of the full page: an iframe snippet for the run on screen, ready to copy.

use leptos::prelude::*;

use crate::platform::lab::use_prefs;
use idem_lesson::options::iframe_snippet;

/// The "Embed" button of the full page: an iframe snippet for the run on screen.
#[component]
pub fn EmbedButton() -> impl IntoView {
    let lab = crate::platform::lab::use_lab();
    let prefs = use_prefs();
    let snippet = move || {
        let location = window().location();
        let base = format!(
            "{}{}",
            location.origin().unwrap_or_default(),
            location.pathname().unwrap_or_default()
        );
        let (query, id) = lab
            .run
            .with(|r| (r.link().to_query(), r.scenario().id.clone()));
        let title = format!(
            "{} — {}",
            prefs.t("ui.title"),
            prefs.t(&format!("scenario.{id}.title"))
        );
        iframe_snippet(&format!("{base}?{query}&embed"), &title)
    };
    let copy = move |_| {
        let navigator = window().navigator();
        let has_clipboard = leptos::web_sys::js_sys::Reflect::get(&navigator, &"clipboard".into())
            .is_ok_and(|c| !c.is_undefined());
        if has_clipboard {
            let _ = navigator.clipboard().write_text(&snippet());
        }
    };
    let (open, set_open) = signal(false);
    view! {
        <div class="embed-share">
            <button
                type="button"
                class="secondary"
                data-testid="embed-open"
                aria-expanded=move || open.get().to_string()
                on:click=move |_| set_open.update(|o| *o = !*o)
            >
                {prefs.t("ui.embed")}
            </button>
            <Show when=move || open.get()>
                <div class="embed-box">
                    <label class="hint" for="embed-snippet">{prefs.t("ui.embed_hint")}</label>
                    <textarea
                        id="embed-snippet"
                        readonly
                        rows="4"
                        data-testid="embed-snippet"
                        prop:value=snippet
                    ></textarea>
                    <button type="button" class="secondary" on:click=copy>{prefs.t("ui.embed_copy")}</button>
                </div>
            </Show>
        </div>
    }
}
