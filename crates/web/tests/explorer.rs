//! Browser tests of "Try every failure": the numbers the panel shows equal the core's own
//! search, and a counter-example replays in the player to a violated verdict.

mod support;

use idem_core::{Bounds, Explorer, Scenario};
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use leptos::web_sys::{js_sys, Element, HtmlElement, HtmlSelectElement};
use support::*;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Waits for a macrotask, so animation frames and timers can run.
async fn pause(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Runs the panel's search with bound `k` and returns the finished result element.
async fn explore(parent: &HtmlElement, k: u32) -> Element {
    find(parent, "explore-k")
        .unchecked_into::<HtmlSelectElement>()
        .set_value(&k.to_string());
    click(parent, "explore-run").await;
    for _ in 0..600 {
        if let Some(done) = query(parent, "[data-testid=explore-result][data-state=done]") {
            return done;
        }
        pause(20).await;
    }
    panic!("the search did not finish");
}

fn number(e: &Element, attr: &str) -> u64 {
    e.get_attribute(attr)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {attr}"))
}

#[wasm_bindgen_test]
async fn the_panel_shows_the_cores_numbers() {
    for (id, k) in [("naive", 1), ("fully-protected", 2)] {
        let (parent, _dispose) = mount_app(&format!("scenario={id}")).await;
        let result = explore(&parent, k).await;
        let scenario = Scenario::by_id(id).expect("scenario");
        let report = Explorer::new(&scenario, Bounds::faults(k))
            .run_to_end()
            .clone();
        assert_eq!(number(&result, "data-runs"), report.runs, "{id}");
        assert_eq!(number(&result, "data-states"), report.states, "{id}");
        assert_eq!(
            number(&result, "data-violations"),
            report.violating_runs,
            "{id}"
        );
        let listed = parent
            .query_selector_all("[data-testid=counterexample]")
            .expect("selector")
            .length() as usize;
        assert_eq!(listed, report.shortest.len().min(24), "{id}");
        let text = result.text_content().unwrap_or_default();
        assert!(
            text.contains(&format!(
                "{} runs checked, {} break an invariant",
                report.runs, report.violating_runs
            )),
            "{id}: {text}"
        );
    }
}

#[wasm_bindgen_test]
async fn a_counterexample_replays_to_a_violation() {
    let (parent, _dispose) = mount_app("scenario=key").await;
    let result = explore(&parent, 2).await;
    assert!(number(&result, "data-violations") > 0);
    let buttons = parent
        .query_selector_all("[data-testid=counterexample]")
        .expect("selector");
    assert!(buttons.length() > 0);
    for i in 0..buttons.length().min(3) {
        let button = parent
            .query_selector_all("[data-testid=counterexample]")
            .expect("selector")
            .item(i)
            .expect("button")
            .unchecked_into::<HtmlElement>();
        button.click();
        leptos::task::tick().await;
        assert_eq!(
            find(&parent, "step-index").text_content().as_deref(),
            Some("0")
        );
        assert!(query(&parent, "[data-testid=fault-marker]").is_some());
        click(&parent, "run-to-end").await;
        assert_eq!(
            find(&parent, "verdict")
                .get_attribute("data-verdict")
                .as_deref(),
            Some("violated"),
            "counter-example {i}"
        );
    }
}
