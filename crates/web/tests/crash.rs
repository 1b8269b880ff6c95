//! Browser tests of the crash notice: a real panic inside the wasm (in a callback the test
//! calls through JavaScript, so the test itself survives the trap) shows the notice in the
//! page's language with a reload link and the panic text, as text, once.
//!
//! A test binary of its own, not a module of `tests/it`: a panic traps the wasm instance, and
//! the tests after it would run in one that std still thinks is panicking. Browser only.
#![cfg(target_arch = "wasm32")]

mod support;

use idem_web::platform::crash;
use leptos::prelude::*;
use leptos::wasm_bindgen::closure::Closure;
use leptos::wasm_bindgen::{JsCast, JsValue};
use leptos::web_sys::js_sys::{Array, Function, Reflect};
use leptos::web_sys::Element;
use support::*;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn notice() -> Option<Element> {
    document()
        .query_selector("[data-testid=crash-notice]")
        .expect("selector")
}

fn remove_notice() {
    while let Some(n) = notice() {
        n.remove();
    }
}

/// Panics with `message` inside a wasm callback called from JavaScript; returns the error
/// JavaScript saw.
fn panic_through_js(message: &'static str) -> JsValue {
    let callback = Closure::<dyn Fn()>::new(move || panic!("{message}"));
    let function: &Function = callback.as_ref().unchecked_ref();
    let outcome = Reflect::apply(function, &JsValue::NULL, &Array::new());
    callback.forget();
    outcome.expect_err("the callback panicked")
}

#[wasm_bindgen_test]
fn a_panic_shows_the_notice_in_the_page_language() {
    remove_notice();
    // The hook stays installed: after the trap std still counts a panic in progress and would
    // refuse to change it (the page is in the same state after a real crash).
    crash::install();
    // A Russian widget on the page: the notice speaks Russian.
    let host = wrapper();
    host.set_inner_html("<div class=\"idem-lab\" lang=\"ru\"></div>");
    let error = panic_through_js("boom <b>bold</b> & co");
    assert!(
        format!("{error:?}").contains("unreachable") || error.is_object(),
        "{error:?}"
    );

    let n = notice().expect("the notice is shown");
    assert_eq!(n.get_attribute("role").as_deref(), Some("alert"));
    assert_eq!(n.get_attribute("lang").as_deref(), Some("ru"));
    let text = n.text_content().unwrap_or_default();
    assert!(
        text.contains("Внутри лаборатории что-то сломалось"),
        "{text}"
    );
    let reload = n
        .query_selector("[data-testid=crash-reload]")
        .expect("selector")
        .expect("a reload link");
    assert_eq!(reload.text_content().as_deref(), Some("Перезагрузить"));
    let href = reload.get_attribute("href").unwrap_or_default();
    let here = window().location().href().expect("href");
    assert_eq!(href, here.split('#').next().unwrap_or_default());
    // The panic text, for a bug report, shown as text (no markup from it).
    let details = n
        .query_selector("[data-testid=crash-text]")
        .expect("selector")
        .expect("the panic text");
    let panic_text = details.text_content().unwrap_or_default();
    assert!(panic_text.contains("boom <b>bold</b> & co"), "{panic_text}");
    assert!(
        panic_text.contains("crash.rs"),
        "where it panicked: {panic_text}"
    );
    assert!(n.query_selector("b").expect("selector").is_none());
    // The focus goes to the reload link, so a keyboard user can act at once.
    let active = document().active_element().expect("focus");
    assert_eq!(
        active.get_attribute("data-testid").as_deref(),
        Some("crash-reload")
    );
    host.remove();
    remove_notice();
}

#[wasm_bindgen_test]
fn the_notice_is_shown_once_and_in_english_by_default() {
    catalogs();
    remove_notice();
    let root = document().document_element().expect("html");
    let lang = root.get_attribute("lang");
    root.set_attribute("lang", "en").expect("lang");
    crash::show_notice("first");
    crash::show_notice("second");
    let all = document()
        .query_selector_all("[data-testid=crash-notice]")
        .expect("selector");
    assert_eq!(all.length(), 1);
    let n = notice().expect("the notice");
    let text = n.text_content().unwrap_or_default();
    assert!(text.contains("Something broke inside the lab."), "{text}");
    assert!(text.contains("Reload"), "{text}");
    assert!(text.contains("first") && !text.contains("second"), "{text}");
    match lang {
        Some(l) => root.set_attribute("lang", &l).expect("lang"),
        None => root.remove_attribute("lang").expect("lang"),
    }
    remove_notice();
}
