//! Browser test: mounts the app into a detached wrapper and checks the page title.
//!
//! Runs in headless Chromium via `wasm-bindgen-test-runner`
//! (`cargo test -p idem-web --target wasm32-unknown-unknown`).

use idem_web::App;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use leptos::web_sys::HtmlElement;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Creates a fresh `<div>` attached to `<body>` for one test to mount into.
fn wrapper() -> HtmlElement {
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

#[wasm_bindgen_test]
async fn app_renders_title() {
    let parent = wrapper();
    let _dispose = mount_to(parent.clone(), App);
    leptos::task::tick().await;

    let h1 = parent
        .query_selector("h1[data-testid=title]")
        .expect("valid selector")
        .expect("the app renders an <h1 data-testid=title>");
    assert_eq!(h1.text_content().as_deref(), Some("Idempotency Lab"));
}
