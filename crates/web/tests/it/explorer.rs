//! Browser tests of "Try every failure": the numbers the panel shows equal the core's own
//! search, and a counter-example replays in the player to a violated verdict.

use crate::support;

use idem_core::{Bounds, Explorer, Scenario};
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use leptos::web_sys::{js_sys, Element, HtmlElement, HtmlSelectElement};
use support::*;
use wasm_bindgen_test::wasm_bindgen_test;

/// Waits for a macrotask, so animation frames and timers can run.
async fn pause(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// The wall-clock time, in ms, until which a wait for the search goes on: 60 s from now. The
/// waits below are bounded in time, not in rounds: a round takes longer on a loaded machine, and
/// a bound in rounds would fail a search that was only slow (the search itself runs one slice
/// per frame, and a loaded machine paints fewer frames).
fn deadline() -> f64 {
    js_sys::Date::now() + 60_000.0
}

/// Whether `deadline` has not passed.
fn before(deadline: f64) -> bool {
    js_sys::Date::now() < deadline
}

/// Waits until `n` animation frames have been painted: the panel's search runs one slice per
/// frame, so a search still running would have run `n` slices by then.
async fn frames(n: u32) {
    for _ in 0..n {
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            let _ = window().request_animation_frame(&resolve);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }
}

/// Runs the panel's search with bound `k` and returns the finished result element.
async fn explore(parent: &HtmlElement, k: u32) -> Element {
    find(parent, "explore-k")
        .unchecked_into::<HtmlSelectElement>()
        .set_value(&k.to_string());
    click(parent, "explore-run").await;
    let end = deadline();
    while before(end) {
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

/// `n` as the English page writes a count: `12,345`.
fn thousands(n: u64) -> String {
    idem_lesson::markup::grouped(n, ",")
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
        assert_eq!(number(&result, "data-steps"), report.steps, "{id}");
        assert_eq!(
            number(&result, "data-violations"),
            report.violating_runs,
            "{id}"
        );
        let listed = parent
            .query_selector_all("[data-testid=counterexample]")
            .expect("selector")
            .length() as usize;
        // Each breaking schedule once, with every rule it breaks (issue 42).
        let schedules = idem_lesson::panels::explorer::listing(&report.shortest).len();
        assert_eq!(listed, schedules.min(24), "{id}");
        let text = result.text_content().unwrap_or_default();
        assert!(
            text.contains(&format!(
                "{} runs checked. The simulator played {} steps in all and remembered {} distinct situations",
                thousands(report.runs_represented()),
                thousands(report.steps),
                thousands(report.distinct_situations())
            )) && text.contains(&format!(
                "{} {} an invariant",
                thousands(report.violating_runs),
                if report.violating_runs == 1 {
                    "run breaks"
                } else {
                    "runs break"
                }
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

#[wasm_bindgen_test]
async fn stop_keeps_the_partial_totals_and_the_page_usable() {
    let (parent, _dispose) = mount_app("scenario=scope").await;
    let stop = find(&parent, "explore-stop");
    assert!(
        stop.has_attribute("hidden"),
        "Stop shows only while searching"
    );
    find(&parent, "explore-k")
        .unchecked_into::<HtmlSelectElement>()
        .set_value("3");
    click(&parent, "explore-run").await;
    assert!(query(&parent, "[data-testid=explore-result][data-state=running]").is_some());
    assert!(!stop.has_attribute("hidden"), "Stop shows while searching");
    // Wait until a slice of the search has run (its progress text changes), then stop it in
    // the same task, so the search is still running when Stop is pressed: no guess at how
    // long it takes. (k = 3 on this scenario takes seconds, far more than one slice.)
    let started = text(&parent, "explore-result");
    let mut progressed = false;
    let end = deadline();
    while before(end) {
        let result = find(&parent, "explore-result");
        assert_eq!(
            result.get_attribute("data-state").as_deref(),
            Some("running"),
            "the search ended before it could be stopped"
        );
        if result.text_content().unwrap_or_default() != started {
            progressed = true;
            break;
        }
        pause(16).await;
    }
    assert!(progressed, "the search showed no progress");
    click(&parent, "explore-stop").await;
    let result = query(&parent, "[data-testid=explore-result][data-state=partial]")
        .expect("a stopped search shows partial totals");
    assert_eq!(result.get_attribute("data-k").as_deref(), Some("3"));
    let (runs, states) = (number(&result, "data-runs"), number(&result, "data-states"));
    assert!(states > 0, "some states were searched");
    assert!(
        result
            .text_content()
            .unwrap_or_default()
            .contains("partial results"),
        "marked partial"
    );
    assert!(stop.has_attribute("hidden"), "Stop hides once stopped");
    assert_eq!(
        document()
            .active_element()
            .and_then(|e| e.get_attribute("data-testid")),
        Some("explore-run".to_owned()),
        "focus moves to Run"
    );
    // The search is cancelled: ten frames later (ten slices, had it gone on) the numbers stay.
    frames(10).await;
    let still = find(&parent, "explore-result");
    assert_eq!(
        still.get_attribute("data-state").as_deref(),
        Some("partial")
    );
    assert_eq!(number(&still, "data-runs"), runs);
    assert_eq!(number(&still, "data-states"), states);
    // The page stays usable: the player steps, and a new search runs to the end.
    click(&parent, "step-forward").await;
    assert_eq!(text(&parent, "step-index"), "1");
    let done = explore(&parent, 1).await;
    assert_eq!(done.get_attribute("data-k").as_deref(), Some("1"));
    assert!(find(&parent, "explore-stop").has_attribute("hidden"));
}

/// Issue 9: a test can hold `explore-result` (and the controls) through a whole search: the
/// element is created by Run and then only its attributes and text change, from `running`
/// through every slice to `done`; a second search reuses it. The fault menu's buttons are
/// elements with their own handlers and keep their identity while the run steps.
#[wasm_bindgen_test]
async fn the_result_keeps_its_element_through_a_search() {
    let (parent, _dispose) = mount_app("scenario=scope").await;
    let controls: Vec<Element> = ["explore-k", "explore-run", "explore-stop"]
        .iter()
        .map(|id| find(&parent, id))
        .collect();
    assert!(query(&parent, "[data-testid=explore-result]").is_none());
    find(&parent, "explore-k")
        .unchecked_into::<HtmlSelectElement>()
        .set_value("2");
    click(&parent, "explore-run").await;
    let held = find(&parent, "explore-result");
    assert_eq!(held.get_attribute("data-state").as_deref(), Some("running"));
    assert!(!held.has_attribute("data-runs"));
    let mut texts = vec![held.text_content().unwrap_or_default()];
    let end = deadline();
    while before(end) {
        assert!(
            held.is_same_node(Some(&find(&parent, "explore-result"))),
            "the result element was replaced while the search ran"
        );
        let now = held.text_content().unwrap_or_default();
        if texts.last() != Some(&now) {
            texts.push(now);
        }
        if held.get_attribute("data-state").as_deref() == Some("done") {
            break;
        }
        pause(10).await;
    }
    assert_eq!(held.get_attribute("data-state").as_deref(), Some("done"));
    assert_eq!(held.get_attribute("data-k").as_deref(), Some("2"));
    let report = Explorer::new(&Scenario::by_id("scope").expect("scope"), Bounds::faults(2))
        .run_to_end()
        .clone();
    assert_eq!(number(&held, "data-runs"), report.runs);
    assert!(texts.len() >= 2, "the text was updated in place: {texts:?}");
    // A second search runs in the same element.
    let done = explore(&parent, 1).await;
    assert!(held.is_same_node(Some(&done)));
    assert_eq!(held.get_attribute("data-k").as_deref(), Some("1"));
    for (element, id) in controls
        .iter()
        .zip(["explore-k", "explore-run", "explore-stop"])
    {
        assert!(element.is_same_node(Some(&find(&parent, id))), "{id}");
    }
    // The fault menu: a button keeps its element while the run steps, and a button's own
    // handler acts (Advance the clock is applied as the run's next step).
    let evict = find(&parent, "fault-evict");
    click(&parent, "step-forward").await;
    assert!(evict.is_same_node(Some(&find(&parent, "fault-evict"))));
    let before = text(&parent, "step-index");
    click(&parent, "fault-clock").await;
    assert_ne!(
        text(&parent, "step-index"),
        before,
        "Advance the clock is a step"
    );
    assert!(evict.is_same_node(Some(&find(&parent, "fault-evict"))));
}
