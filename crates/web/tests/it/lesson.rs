//! Browser tests: mount the lesson into a fresh wrapper, press its controls like a student,
//! and check what the page shows (text and `data-*` attributes only).
//!
//! Runs in headless Chromium via `wasm-bindgen-test-runner`
//! (`cargo test -p idem-web --target wasm32-unknown-unknown`).

use crate::support;

use leptos::prelude::*;
use support::*;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
async fn app_renders_title() {
    let (parent, _dispose) = mount_app("scenario=naive").await;
    assert_eq!(text(&parent, "title"), "Idempotency Lab");
    for node in ["client", "api", "store", "ledger", "processor"] {
        find(&parent, &format!("node-{node}"));
    }
    assert_eq!(text(&parent, "step-index"), "0");
}

#[wasm_bindgen_test]
async fn naive_run_to_end_charges_twice() {
    let (parent, _dispose) = mount_app("scenario=naive").await;
    assert_eq!(text(&parent, "statement-total"), "$0.00");
    click(&parent, "run-to-end").await;
    assert_eq!(text(&parent, "statement-total"), "$200.00");
    assert_eq!(verdict(&parent), "violated");
    assert!(text(&parent, "verdict").contains("Charged twice"));
}

#[wasm_bindgen_test]
async fn the_four_stories_end_as_the_seed_says() {
    let cases = [
        ("key", "statement-total", "$100.00", "ok"),
        ("cas", "balance", "80", "ok"),
        ("counter-naive", "likes", "102", "violated"),
        ("counter", "likes", "101", "ok"),
    ];
    for (id, test_id, expected, v) in cases {
        let (parent, _dispose) = mount_app(&format!("scenario={id}")).await;
        click(&parent, "run-to-end").await;
        assert_eq!(text(&parent, test_id), expected, "{id}");
        assert_eq!(verdict(&parent), v, "{id}");
    }
}

#[wasm_bindgen_test]
async fn step_back_restores_the_previous_step() {
    let (parent, _dispose) = mount_app("scenario=naive").await;
    click(&parent, "run-to-end").await;
    let end = text(&parent, "step-index");
    click(&parent, "step-back").await;
    let back: usize = text(&parent, "step-index").parse().expect("a number");
    assert_eq!(back + 1, end.parse::<usize>().expect("a number"));
    assert_eq!(text(&parent, "statement-total"), "$200.00");
    // Far enough back, the second charge has not happened yet.
    for _ in 0..12 {
        click(&parent, "step-back").await;
    }
    let early = text(&parent, "statement-total");
    let index = text(&parent, "step-index");
    click(&parent, "step-forward").await;
    click(&parent, "step-back").await;
    assert_eq!(text(&parent, "statement-total"), early);
    assert_eq!(text(&parent, "step-index"), index);
}

#[wasm_bindgen_test]
async fn lose_the_ack_then_retry_with_a_key_is_safe() {
    // The key story without its scripted fault: the student breaks it by hand.
    let (parent, _dispose) = mount_app("scenario=key&base=1").await;
    click(&parent, "step-forward").await;
    click(&parent, "drop-next-ack").await;
    assert_eq!(
        find(&parent, "drop-next-ack")
            .get_attribute("data-armed")
            .as_deref(),
        Some("1")
    );
    click(&parent, "retry").await;
    click(&parent, "run-to-end").await;
    assert_eq!(text(&parent, "statement-total"), "$100.00");
    assert_eq!(verdict(&parent), "ok");
}

#[wasm_bindgen_test]
async fn retry_without_a_key_charges_twice() {
    let (parent, _dispose) = mount_app("scenario=naive&base=1").await;
    click(&parent, "step-forward").await;
    click(&parent, "retry").await;
    click(&parent, "run-to-end").await;
    assert_eq!(text(&parent, "statement-total"), "$200.00");
    assert_eq!(verdict(&parent), "violated");
}

#[wasm_bindgen_test]
async fn refused_actions_are_explained() {
    let (parent, _dispose) = mount_app("scenario=key").await;
    // Nothing to retry before the operation starts.
    click(&parent, "retry").await;
    assert!(text(&parent, "action-error").contains("Nothing to retry"));
    parent.remove();
    // An internal packet cannot be dropped. Opened by a link at the core's step 3, where the
    // SET NX is in flight: the Step button counts visible steps, and Redis's answer folds into
    // the step that sent the SET NX (idem_lesson::fold), so no click count stops there.
    let (parent, _dispose) = mount_app("scenario=key&step=3").await;
    let internal = query(&parent, "[data-testid=packet][data-msg-id=\"1\"]")
        .expect("the SET NX packet is in flight");
    let event = document().create_event("Event").expect("event");
    event.init_event_with_bubbles_and_cancelable("click", true, true);
    internal.dispatch_event(&event).expect("dispatch");
    leptos::task::tick().await;
    assert!(text(&parent, "action-error").contains("inside the data centre"));
}

#[wasm_bindgen_test]
async fn a_bad_deep_link_shows_a_notice_and_the_default_scenario() {
    let (parent, _dispose) = mount_app("scenario=nope&step=abc").await;
    let notice = text(&parent, "link-notice");
    assert!(notice.contains("nope"), "{notice}");
    assert!(notice.contains("abc"), "{notice}");
    assert_eq!(pressed(&parent, "scenario-naive").as_deref(), Some("true"));
}

#[wasm_bindgen_test]
async fn a_bad_parameter_drops_only_itself() {
    for step in ["-1", "1e3", "99999999999"] {
        let (parent, _dispose) = mount_app(&format!("scenario=key&step={step}")).await;
        let notice = text(&parent, "link-notice");
        assert!(notice.contains(step), "{notice}");
        assert_eq!(pressed(&parent, "scenario-key").as_deref(), Some("true"));
        assert_eq!(text(&parent, "step-index"), "0");
        parent.remove();
    }
}

#[wasm_bindgen_test]
async fn a_deep_link_opens_at_its_step() {
    let (parent, _dispose) = mount_app("scenario=cas&step=4").await;
    // `step=` counts the core's steps, the counter the visible ones: one acknowledgement
    // before step 4 folds into the request it answers (idem_lesson::fold).
    assert_eq!(text(&parent, "step-index"), "3");
    assert_eq!(pressed(&parent, "scenario-cas").as_deref(), Some("true"));
}

#[wasm_bindgen_test]
async fn switching_scenarios_and_protections_rebuilds_the_run() {
    let (parent, _dispose) = mount_app("scenario=naive").await;
    click(&parent, "scenario-key").await;
    click(&parent, "run-to-end").await;
    assert_eq!(text(&parent, "statement-total"), "$100.00");
    // Turning the key off brings the double charge back.
    let toggle = query(&parent, "[data-protect=key]").expect("the key toggle");
    press(&toggle).await;
    assert_eq!(text(&parent, "step-index"), "0");
    click(&parent, "run-to-end").await;
    assert_eq!(text(&parent, "statement-total"), "$200.00");
}

#[wasm_bindgen_test]
async fn the_fault_menu_duplicates_and_arms_a_crash() {
    let (parent, _dispose) = mount_app("scenario=key&base=1").await;
    click(&parent, "step-forward").await;
    click(&parent, "fault-duplicate").await;
    assert!(text(&parent, "narration").contains("second copy"));
    find(&parent, "split-packet");
    let packets = all(&parent, "[data-testid=packet]").len();
    assert_eq!(packets, 2, "the request and its copy");
    click(&parent, "fault-crash").await;
    assert!(text(&parent, "narration").contains("record the key"));
    click(&parent, "run-to-end").await;
    // The crash lands after the ledger commit and before the key is recorded: the key is left
    // in progress, its claim's lease runs out, and a later attempt claims it anew and charges
    // again (the seed's "window").
    assert_eq!(text(&parent, "statement-total"), "$200.00");
    assert_eq!(verdict(&parent), "violated");
    let mut narrations = Vec::new();
    while text(&parent, "step-index") != "0" {
        // The plain words and, one tap away, the SQL the step ran.
        let detail = query(&parent, "[data-testid=narration-detail]")
            .and_then(|d| d.text_content())
            .unwrap_or_default();
        narrations.push(format!("{} {detail}", text(&parent, "narration")));
        click(&parent, "step-back").await;
    }
    narrations.reverse();
    let at = |words: &[&str]| {
        narrations
            .iter()
            .position(|n| words.iter().all(|w| n.contains(w)))
            .unwrap_or_else(|| panic!("no step says {words:?}: {narrations:#?}"))
    };
    let committed = at(&["INSERT INTO charges"]);
    let crashed = at(&["crashes", "record the key"]);
    // The claim's lease running out (the key store's note: no 409 speaks of a lease).
    let lease = at(&["claim", "lease"]);
    let charged_again = at(&["pay_abd"]);
    assert!(
        committed < crashed && crashed < lease && lease < charged_again,
        "{narrations:#?}"
    );
}
