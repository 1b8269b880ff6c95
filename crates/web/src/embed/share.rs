//! The "Embed" button of the full page: an iframe snippet for the run on screen, ready to copy.

use leptos::prelude::*;

use crate::markup::esc;

/// The iframe snippet that embeds `url` (already with `embed`).
pub fn iframe_snippet(url: &str, title: &str) -> String {
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"640\" loading=\"lazy\"></iframe>",
        esc(url),
        esc(title)
    )
}

/// The "Embed" button of the full page: an iframe snippet for the run on screen.
#[component]
pub fn EmbedButton() -> impl IntoView {
    let lab = crate::lab::use_lab();
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
            lab.t("ui.title"),
            lab.t(&format!("scenario.{id}.title"))
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
                {lab.t("ui.embed")}
            </button>
            <Show when=move || open.get()>
                <div class="embed-box">
                    <label class="hint" for="embed-snippet">{lab.t("ui.embed_hint")}</label>
                    <textarea
                        id="embed-snippet"
                        readonly
                        rows="4"
                        data-testid="embed-snippet"
                        prop:value=snippet
                    ></textarea>
                    <button type="button" class="secondary" on:click=copy>{lab.t("ui.embed_copy")}</button>
                </div>
            </Show>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snippet_escapes_its_attributes() {
        let s = iframe_snippet("https://x/lab/?scenario=key&embed", "A \"lab\"");
        assert!(s.contains("src=\"https://x/lab/?scenario=key&amp;embed\""));
        assert!(s.contains("title=\"A &quot;lab&quot;\"") && s.contains("loading=\"lazy\""));
    }
}
