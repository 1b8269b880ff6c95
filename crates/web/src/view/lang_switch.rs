//! The language switch in the masthead: English / Русский, in place (the run stays).

use leptos::prelude::*;

use crate::platform::catalogs::load_parts;
use crate::platform::lab::use_prefs;
use idem_lesson::i18n::{parts_loaded, Lang};

/// The EN | RU switch. Choosing a language changes every text in place (no page load); the
/// run, its faults and protections stay. A page that owns the address also writes the new
/// `lang` into it (see `hooks::use_url_sync`).
#[component]
pub fn LangSwitch(
    /// Whether the page owns the address bar (tests and embeddings do not).
    owns_url: bool,
) -> impl IntoView {
    let prefs = use_prefs();
    let _ = owns_url;
    // A language's files (the first screen's and the panels') are fetched the first time it is
    // chosen; the switch happens when they are there, and a file that cannot be loaded is
    // reported next to the switch.
    // The language chosen last: files that arrive for an earlier choice do not switch to it.
    let failed = RwSignal::new(None::<String>);
    let wanted = std::rc::Rc::new(std::cell::Cell::new(None::<Lang>));
    let choose = move |lang: Lang| {
        wanted.set(Some(lang));
        let wanted = std::rc::Rc::clone(&wanted);
        if parts_loaded(lang, true) {
            failed.set(None);
            prefs.set_lang.set(lang);
            return;
        }
        leptos::task::spawn_local(async move {
            let result = load_parts(lang, true).await;
            if wanted.get() != Some(lang) {
                return; // another language was chosen since
            }
            match result {
                Ok(_) => {
                    failed.set(None);
                    prefs.set_lang.set(lang);
                }
                Err(error) => failed.set(Some(
                    prefs
                        .catalog()
                        .fill("lang.load_failed", &[("error", error.to_string())]),
                )),
            }
        });
    };
    let buttons = Lang::ALL
        .into_iter()
        .map(|lang| {
            let tag = lang.tag();
            let choose = choose.clone();
            view! {
                <button
                    type="button"
                    class="lang"
                    lang=tag
                    data-testid=format!("lang-{tag}")
                    aria-pressed=move || (prefs.lang.get() == lang).to_string()
                    on:click=move |_| choose(lang)
                >
                    {tag.to_ascii_uppercase()}
                </button>
            }
        })
        .collect_view();
    view! {
        <div class="lang-switch" role="group" aria-label=move || prefs.t("lang.label")>
            {buttons}
        </div>
        {move || {
            failed
                .get()
                .map(|text| view! { <p class="link-notice" role="alert" data-testid="lang-failed">{text}</p> })
        }}
    }
}
