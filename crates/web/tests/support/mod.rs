//! Helpers shared by the browser tests: a fresh wrapper to mount into, the lesson mounted
//! with a deep link, and look-ups by `data-testid` or selector. Each test file uses a part.

#![allow(dead_code)]

use idem_web::App;
use leptos::mount::UnmountHandle;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use leptos::web_sys::{Element, HtmlElement};

/// Installs the catalog files, as the page does once it has fetched them (tests read them
/// at compile time: the test runner serves no `i18n/`).
pub fn catalogs() {
    use idem_lesson::i18n::{install, Lang, Part};
    for (lang, part, text) in [
        (
            Lang::En,
            Part::Main,
            include_str!("../../../../web/i18n/en.txt"),
        ),
        (
            Lang::En,
            Part::More,
            include_str!("../../../../web/i18n/en-more.txt"),
        ),
        (
            Lang::En,
            Part::Panels,
            include_str!("../../../../web/i18n/en-panels.txt"),
        ),
        (
            Lang::Ru,
            Part::Panels,
            include_str!("../../../../web/i18n/ru-panels.txt"),
        ),
        (
            Lang::Ru,
            Part::Main,
            include_str!("../../../../web/i18n/ru.txt"),
        ),
        (
            Lang::Ru,
            Part::More,
            include_str!("../../../../web/i18n/ru-more.txt"),
        ),
    ] {
        install(lang, part, text).expect("the catalog files parse");
    }
}

/// Creates a fresh `<div>` attached to `<body>` for one test to mount into (the catalogs
/// installed first).
pub fn wrapper() -> HtmlElement {
    catalogs();
    let doc = document();
    let div = doc
        .create_element("div")
        .expect("create wrapper div")
        .unchecked_into::<HtmlElement>();
    doc.body()
        .expect("document has a body")
        .append_child(&div)
        .expect("append wrapper to body");
    div
}

/// Mounts the lesson at the deep link `query` into a fresh wrapper and lets it render: the
/// page draws its parts below the first screen in later frames, and marks its root
/// `data-ready="true"` when all are drawn (the signal course pages wait for too).
/// Keep the handle alive for the whole test: dropping it unmounts the lesson.
pub async fn mount_app(query: &str) -> (HtmlElement, UnmountHandle<impl Mountable>) {
    let parent = wrapper();
    let query = query.to_owned();
    let handle = mount_to(parent.clone(), move || view! { <App query=query/> });
    leptos::task::tick().await;
    // A bound, so a page that never gets ready fails at its first look-up instead of hanging.
    for _ in 0..240 {
        if ready(&parent) {
            break;
        }
        next_frame().await;
    }
    (parent, handle)
}

/// Whether the lesson under `parent` has drawn all its parts.
pub fn ready(parent: &HtmlElement) -> bool {
    parent
        .query_selector("[data-ready=\"true\"]")
        .ok()
        .flatten()
        .is_some()
}

/// Waits for the next animation frame, then lets the page react.
pub async fn next_frame() {
    let promise = leptos::web_sys::js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().request_animation_frame(&resolve);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    leptos::task::tick().await;
}

/// The first element under `parent` that matches `selector`, if any.
pub fn query(parent: &HtmlElement, selector: &str) -> Option<Element> {
    parent.query_selector(selector).expect("valid selector")
}

/// Every element under `parent` that matches `selector`, in document order.
pub fn all(parent: &HtmlElement, selector: &str) -> Vec<Element> {
    let list = parent.query_selector_all(selector).expect("valid selector");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .collect()
}

/// The element with `data-testid` = `test_id`; panics if there is none.
pub fn find(parent: &HtmlElement, test_id: &str) -> Element {
    query(parent, &format!("[data-testid=\"{test_id}\"]"))
        .unwrap_or_else(|| panic!("no element with data-testid={test_id}"))
}

/// The text of the element with `data-testid` = `test_id`.
pub fn text(parent: &HtmlElement, test_id: &str) -> String {
    find(parent, test_id).text_content().unwrap_or_default()
}

/// The `aria-pressed` state of the button with `data-testid` = `test_id`.
pub fn pressed(parent: &HtmlElement, test_id: &str) -> Option<String> {
    find(parent, test_id).get_attribute("aria-pressed")
}

/// The verdict badge's `data-verdict` (`ok`, `violated`, …).
pub fn verdict(parent: &HtmlElement) -> String {
    find(parent, "verdict")
        .get_attribute("data-verdict")
        .unwrap_or_default()
}

/// Clicks `element` and lets the page react.
pub async fn press(element: &Element) {
    element.unchecked_ref::<HtmlElement>().click();
    leptos::task::tick().await;
}

/// Clicks the element with `data-testid` = `test_id` and lets the page react.
pub async fn click(parent: &HtmlElement, test_id: &str) {
    press(&find(parent, test_id)).await;
}
