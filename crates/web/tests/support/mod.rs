//! Helpers shared by the browser tests: a fresh wrapper to mount into, the lesson mounted
//! with a deep link, and look-ups by `data-testid` or selector. Each test file uses a part.

#![allow(dead_code)]

use std::cell::RefCell;
use std::rc::Rc;

use idem_core::{Bounds, Explorer, Report, Scenario};
use idem_web::platform::search::{Backend, Event, Mode, Running};
use idem_web::App;
use leptos::context::Provider;
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
    let handle = mount_to(parent.clone(), move || {
        view! { <Provider value=Backend(search_here)><App query=query/></Provider> }
    });
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

/// The browser tests' searches: the core's explorer on the main thread, one slice of about
/// 12 ms per animation frame (the test runner serves no worker files). The page's workers are
/// tested end to end (`tests/e2e/explorer.test.mjs`).
fn search_here(scenario: &Scenario, k: u32, on: Box<dyn Fn(Event)>) -> Box<dyn Running> {
    struct Here(Rc<RefCell<Option<Explorer>>>);
    impl Running for Here {
        fn stop(&mut self) -> Report {
            self.0
                .borrow_mut()
                .take()
                .map(|e| e.report().clone())
                .unwrap_or_default()
        }
    }
    fn slice(explorer: Rc<RefCell<Option<Explorer>>>, on: Rc<dyn Fn(Event)>) {
        request_animation_frame(move || {
            let now = || leptos::web_sys::js_sys::Date::now();
            let start = now();
            let step = explorer.borrow_mut().as_mut().map(|e| {
                let done = e.run_while(|| now() - start < 12.0);
                (done, e.report().clone())
            });
            match step {
                Some((true, report)) => {
                    explorer.borrow_mut().take();
                    on(Event::Done(report));
                }
                Some((false, report)) => {
                    on(Event::Progress(report));
                    slice(explorer, on);
                }
                None => {}
            }
        });
    }
    let explorer = Rc::new(RefCell::new(Some(Explorer::new(
        scenario,
        Bounds::faults(k),
    ))));
    let on: Rc<dyn Fn(Event)> = Rc::from(on);
    on(Event::Started(Mode::MainThread));
    slice(Rc::clone(&explorer), on);
    Box::new(Here(explorer))
}
