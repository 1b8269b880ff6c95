//! The web crate's integration tests, one test binary (`cargo test -p idem-web --test it`).
//!
//! In the browser (`cargo test -p idem-web --target wasm32-unknown-unknown`, wasm-bindgen-test
//! in headless Chromium): the page as components, its content, the JS API, the explorer's
//! panel and the lesson, one module each, as `lesson::` or `embed::`. Natively (the native
//! test step): the `mount()` options fuzz and the checks of the page's sources. Each file of
//! this folder is a module named as the file was when it was a test binary of its own. One
//! binary instead of one per file: the browser step built, bound (wasm-bindgen) and loaded
//! into Chromium eight test modules (the two native files among them, empty there), now two
//! (docs/testing.md, "Layout of the tests").
//! `tests/crash.rs` stays a binary of its own: its panics trap the wasm instance, which no
//! other test may share. A new test file goes into this folder with a `mod` line below.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg(target_arch = "wasm32")]
#[path = "../support/mod.rs"]
mod support;

#[cfg(target_arch = "wasm32")]
mod components;
#[cfg(target_arch = "wasm32")]
mod content;
#[cfg(target_arch = "wasm32")]
mod embed;
#[cfg(target_arch = "wasm32")]
mod explorer;
#[cfg(target_arch = "wasm32")]
mod lesson;
#[cfg(not(target_arch = "wasm32"))]
mod options_fuzz;
#[cfg(not(target_arch = "wasm32"))]
mod page_sources;
