//! If the WebAssembly ever panics, the page says so instead of freezing in silence: a short
//! notice in the page's language, a "Reload" link (a plain link to the same address, so it
//! works although the wasm instance is dead) and the panic text for a bug report.
//!
//! The notice is built with bare DOM calls, never through Leptos: after a panic the reactive
//! system may be half-way through an update, and nothing may call back into the wasm.

use leptos::wasm_bindgen::JsCast;
use leptos::web_sys::{Document, Element};

use idem_lesson::i18n::Lang;

/// The notice's element id: one notice per page, however many widgets panic.
const NOTICE_ID: &str = "idem-crash-notice";

/// Installs the panic hook: the panic goes to the console (as before) and the notice shows.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_notice(&info.to_string());
    }));
}

/// The language of the page: the lesson's or first widget's `lang`, else `<html lang>` (which
/// web/lang.js sets before index.html's first screen shows, if the panic comes before a mount).
fn page_lang(document: &Document) -> Lang {
    let tag = document
        .get_elements_by_class_name("idem-lab")
        .item(0)
        .and_then(|e| e.get_attribute("lang"))
        .or_else(|| document.document_element()?.get_attribute("lang"))
        .unwrap_or_default();
    Lang::from_tag(&tag).unwrap_or_default()
}

fn child(document: &Document, parent: &Element, tag: &str, text: &str) -> Option<Element> {
    let element = document.create_element(tag).ok()?;
    element.set_text_content(Some(text));
    parent.append_child(&element).ok()?;
    Some(element)
}

/// Shows the crash notice (once) at the top of the page, with `panic` as the details. Fails
/// soft: outside a browser, or if the DOM refuses, nothing happens.
pub fn show_notice(panic: &str) {
    let Some(document) = leptos::web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if document.get_element_by_id(NOTICE_ID).is_some() {
        return;
    }
    let Some(body) = document.body() else {
        return;
    };
    // A panic before the lesson mounts: its "Loading the lesson…" screen goes.
    crate::platform::browser::remove_first_screen(&document);
    let catalog = page_lang(&document).catalog();
    let Ok(notice) = document.create_element("div") else {
        return;
    };
    let _ = notice.set_attribute("id", NOTICE_ID);
    let _ = notice.set_attribute("class", "crash-notice");
    let _ = notice.set_attribute("role", "alert");
    let _ = notice.set_attribute("data-testid", "crash-notice");
    let _ = notice.set_attribute("lang", catalog.tag);
    child(&document, &notice, "strong", &catalog.text("crash.title"));
    child(&document, &notice, "p", &catalog.text("crash.body"));
    let reload = child(&document, &notice, "a", &catalog.text("crash.reload"));
    if let Some(reload) = &reload {
        // The same address without its fragment: following it loads the page again.
        let href = leptos::web_sys::window()
            .and_then(|w| w.location().href().ok())
            .map(|h| h.split('#').next().unwrap_or_default().to_owned())
            .unwrap_or_default();
        let _ = reload.set_attribute("href", &href);
        let _ = reload.set_attribute("class", "crash-reload");
        let _ = reload.set_attribute("data-testid", "crash-reload");
    }
    if let Some(details) = child(&document, &notice, "details", "") {
        child(
            &document,
            &details,
            "summary",
            &catalog.text("crash.details"),
        );
        if let Some(pre) = child(&document, &details, "pre", panic) {
            let _ = pre.set_attribute("data-testid", "crash-text");
        }
    }
    let _ = body.insert_before(&notice, body.first_child().as_ref());
    if let Some(reload) = reload.and_then(|e| e.dyn_into::<leptos::web_sys::HtmlElement>().ok()) {
        let _ = reload.focus();
    }
}
