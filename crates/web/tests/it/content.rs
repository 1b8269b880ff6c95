//! Browser tests for the lesson's content: the Russian page, predict-then-play, the cost
//! calculator with bad input and the reading sections. Mount into a fresh wrapper, act like
//! a student, assert on text and `data-*` attributes.

use crate::support;

use leptos::web_sys::{Event, HtmlElement};
use support::*;
use wasm_bindgen_test::wasm_bindgen_test;

async fn type_into(parent: &HtmlElement, test_id: &str, value: &str) {
    let input = find(parent, test_id);
    leptos::web_sys::js_sys::Reflect::set(&input, &"value".into(), &value.into())
        .expect("set value");
    let event = Event::new("input").expect("input event");
    input.dispatch_event(&event).expect("dispatch input");
    leptos::task::tick().await;
}

#[wasm_bindgen_test]
async fn lang_ru_shows_the_russian_page() {
    let (parent, _dispose) = mount_app("scenario=naive&lang=ru").await;
    assert_eq!(text(&parent, "title"), "Лаборатория идемпотентности");
    assert!(
        text(&parent, "scenario-naive").contains("Обычный POST"),
        "{}",
        text(&parent, "scenario-naive")
    );
    assert!(
        text(&parent, "narration").contains("без ключа"),
        "{}",
        text(&parent, "narration")
    );
    assert_eq!(pressed(&parent, "lang-ru").as_deref(), Some("true"));
    click(&parent, "step-forward").await;
    assert!(
        text(&parent, "narration").contains("потеряется"),
        "{}",
        text(&parent, "narration")
    );
    click(&parent, "run-to-end").await;
    assert_eq!(text(&parent, "verdict"), "!Списано дважды");
    assert!(text(&parent, "industry-table").contains("до 72 ч"));
    parent.remove();
}

#[wasm_bindgen_test]
async fn an_unknown_language_is_reported_and_english_is_shown() {
    let (parent, _dispose) = mount_app("scenario=key&lang=xx").await;
    let notice = text(&parent, "lang-notice");
    assert!(notice.contains("“xx”"), "{notice}");
    parent.remove();
    let (parent, _dispose) = mount_app("lang=%3Cb%3E").await;
    let notice = find(&parent, "lang-notice");
    let shown = notice.text_content().unwrap_or_default();
    assert!(shown.contains("“<b>”"), "{shown}");
    assert!(query(&parent, "[data-testid=lang-notice] b").is_none());
    parent.remove();
}

#[wasm_bindgen_test]
async fn predict_then_play_judges_the_guess_with_the_core() {
    for (guess, correct) in [("twice", "true"), ("once", "false")] {
        let (parent, _dispose) = mount_app("scenario=naive").await;
        let options = all(&parent, "[data-testid=predict-option]");
        let values: Vec<String> = options
            .iter()
            .filter_map(|o| o.get_attribute("data-value"))
            .collect();
        assert_eq!(values, ["none", "once", "twice"]);
        let choice = options
            .iter()
            .find(|o| o.get_attribute("data-value").as_deref() == Some(guess))
            .expect("option");
        press(choice).await;
        click(&parent, "run-to-end").await;
        let result = find(&parent, "predict-result");
        assert_eq!(
            result.get_attribute("data-correct").as_deref(),
            Some(correct)
        );
        assert!(
            text(&parent, "recap").contains("$200"),
            "{}",
            text(&parent, "recap")
        );
        parent.remove();
    }
}

#[wasm_bindgen_test]
async fn the_calculator_explains_bad_input_and_never_shows_nan() {
    let (parent, _dispose) = mount_app("scenario=key").await;
    assert!(
        text(&parent, "calc-records").contains("864"),
        "{}",
        text(&parent, "calc-records")
    );
    assert!(text(&parent, "calc-memory").contains("GB"));
    find(&parent, "calc-plot");
    type_into(&parent, "calc-rps", "lots").await;
    type_into(&parent, "calc-size", "1").await;
    let errors: Vec<String> = all(&parent, "[data-testid=calc-error]")
        .iter()
        .filter_map(|e| e.text_content())
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].contains("Requests per second"), "{errors:?}");
    assert!(
        errors[1].contains("Record size") && errors[1].contains("16"),
        "{errors:?}"
    );
    let page = parent.text_content().unwrap_or_default();
    assert!(!page.contains("NaN") && !page.contains("inf"), "{page}");
    assert!(parent
        .query_selector("[data-testid=calc-records]")
        .ok()
        .flatten()
        .is_none());
    type_into(&parent, "calc-rps", "1 000").await;
    type_into(&parent, "calc-size", "100").await;
    type_into(&parent, "calc-ttl", "0.5").await;
    assert!(all(&parent, "[data-testid=calc-error]").is_empty());
    assert!(text(&parent, "calc-records").starts_with("1,800,000"));
    assert!(parent
        .query_selector(".calc-plot .late")
        .ok()
        .flatten()
        .is_some());
    parent.remove();
}

#[wasm_bindgen_test]
async fn the_transcript_shows_the_wire() {
    let (parent, _dispose) = mount_app("scenario=key").await;
    click(&parent, "run-to-end").await;
    let wire = text(&parent, "transcript");
    assert!(wire.contains("POST /charges HTTP/1.1"), "{wire}");
    assert!(wire.contains("Idempotent-Replayed: true"), "{wire}");
    assert!(wire.contains("LOST"), "{wire}");
    parent.remove();
}
