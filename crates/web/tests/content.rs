//! Browser tests for the lesson's content: the Russian page, predict-then-play, the cost
//! calculator with bad input and the reading sections. Mount into a fresh wrapper, act like
//! a student, assert on text and `data-*` attributes.

use idem_web::App;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use leptos::web_sys::{Element, Event, HtmlElement};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

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

fn all(parent: &HtmlElement, selector: &str) -> Vec<Element> {
    let list = parent.query_selector_all(selector).expect("valid selector");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .collect()
}

fn find(parent: &HtmlElement, test_id: &str) -> Element {
    parent
        .query_selector(&format!("[data-testid=\"{test_id}\"]"))
        .expect("valid selector")
        .unwrap_or_else(|| panic!("no element with data-testid={test_id}"))
}

fn text(parent: &HtmlElement, test_id: &str) -> String {
    find(parent, test_id).text_content().unwrap_or_default()
}

async fn press(element: &Element) {
    element.unchecked_ref::<HtmlElement>().click();
    leptos::task::tick().await;
}

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
    let parent = wrapper();
    let _dispose = mount_to(parent.clone(), || {
        view! { <App query="scenario=naive&lang=ru"/> }
    });
    leptos::task::tick().await;
    assert_eq!(text(&parent, "title"), "Лаборатория идемпотентности");
    assert!(
        text(&parent, "scenario-naive").contains("Наивный POST"),
        "{}",
        text(&parent, "scenario-naive")
    );
    assert!(
        text(&parent, "narration").contains("без ключа"),
        "{}",
        text(&parent, "narration")
    );
    assert_eq!(
        find(&parent, "lang-ru")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    press(&find(&parent, "step-forward")).await;
    assert!(
        text(&parent, "narration").contains("потеряется"),
        "{}",
        text(&parent, "narration")
    );
    press(&find(&parent, "run-to-end")).await;
    assert_eq!(text(&parent, "verdict"), "!Списано дважды");
    assert!(text(&parent, "industry-table").contains("около 72 ч"));
    parent.remove();
}

#[wasm_bindgen_test]
async fn an_unknown_language_is_reported_and_english_is_shown() {
    let parent = wrapper();
    let _dispose = mount_to(
        parent.clone(),
        || view! { <App query="scenario=key&lang=xx"/> },
    );
    leptos::task::tick().await;
    let notice = text(&parent, "lang-notice");
    assert!(notice.contains("“xx”"), "{notice}");
    parent.remove();
}

#[wasm_bindgen_test]
async fn predict_then_play_judges_the_guess_with_the_core() {
    for (guess, correct) in [("twice", "true"), ("once", "false")] {
        let parent = wrapper();
        let _dispose = mount_to(parent.clone(), || view! { <App query="scenario=naive"/> });
        leptos::task::tick().await;
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
        press(&find(&parent, "run-to-end")).await;
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
    let parent = wrapper();
    let _dispose = mount_to(parent.clone(), || view! { <App query="scenario=key"/> });
    leptos::task::tick().await;
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
    let parent = wrapper();
    let _dispose = mount_to(parent.clone(), || view! { <App query="scenario=key"/> });
    leptos::task::tick().await;
    press(&find(&parent, "run-to-end")).await;
    let wire = text(&parent, "transcript");
    assert!(wire.contains("POST /charges HTTP/1.1"), "{wire}");
    assert!(wire.contains("Idempotent-Replayed: true"), "{wire}");
    assert!(wire.contains("LOST"), "{wire}");
    parent.remove();
}
