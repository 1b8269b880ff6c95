//! Browser tests for the page as components: the language switches in place (the run stays),
//! elements with a `data-testid` keep their identity through a run, packets in flight can be
//! reached and dropped from the keyboard, and the sequence diagram's arrows are buttons that
//! keep their elements.

use crate::support;

use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use leptos::web_sys::js_sys::{Array, Function, Object, Reflect};
use leptos::web_sys::{Element, Event, HtmlElement};
use support::*;
use wasm_bindgen_test::wasm_bindgen_test;

/// Presses a key on `element` as a keyboard would (a bubbling `keydown`).
async fn key(element: &Element, name: &str) {
    let init = Object::new();
    Reflect::set(&init, &"key".into(), &name.into()).expect("key");
    Reflect::set(&init, &"bubbles".into(), &true.into()).expect("bubbles");
    let ctor: Function = Reflect::get(&window(), &"KeyboardEvent".into())
        .expect("KeyboardEvent")
        .unchecked_into();
    let event: Event = Reflect::construct(&ctor, &Array::of2(&"keydown".into(), &init))
        .expect("construct")
        .unchecked_into();
    element.dispatch_event(&event).expect("dispatch");
    leptos::task::tick().await;
}

/// Focuses `element` (HTML or SVG).
fn focus(element: &Element) {
    let f: Function = Reflect::get(element, &"focus".into())
        .expect("focus")
        .unchecked_into();
    f.call0(element).expect("focus()");
}

/// The `data-testid` of the focused element ("" for none).
fn focused() -> String {
    document()
        .active_element()
        .and_then(|e| e.get_attribute("data-testid"))
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn the_language_switches_in_place_and_keeps_the_run() {
    let (parent, _dispose) = mount_app("scenario=cas").await;
    let root = query(&parent, ".idem-lab").expect("the page");
    let title = find(&parent, "title");
    // A protection flipped and two steps taken: the run the switch must keep.
    click(&parent, "protect-cas").await;
    click(&parent, "step-forward").await;
    click(&parent, "step-forward").await;
    assert_eq!(text(&parent, "step-index"), "2");
    let english_narration = text(&parent, "narration");

    click(&parent, "lang-ru").await;
    assert_eq!(text(&parent, "title"), "Лаборатория идемпотентности");
    assert!(title.is_same_node(Some(&find(&parent, "title"))));
    assert!(root.is_same_node(query(&parent, ".idem-lab").as_ref().map(|e| e.as_ref())));
    assert_eq!(root.get_attribute("lang").as_deref(), Some("ru"));
    assert_eq!(pressed(&parent, "lang-ru").as_deref(), Some("true"));
    assert_eq!(pressed(&parent, "lang-en").as_deref(), Some("false"));
    assert_eq!(text(&parent, "step-index"), "2");
    let cas = query(&parent, "[data-testid=protect-cas] input").expect("the cas toggle");
    assert_eq!(
        Reflect::get(&cas, &"checked".into())
            .ok()
            .and_then(|v| v.as_bool()),
        Some(false)
    );
    let russian_narration = text(&parent, "narration");
    assert_ne!(russian_narration, english_narration);
    assert!(
        text(&parent, "step-forward").is_empty()
            && find(&parent, "step-forward")
                .get_attribute("aria-label")
                .is_some_and(|l| l.chars().any(|c| ('а'..='я').contains(&c))),
        "the buttons speak Russian"
    );

    click(&parent, "lang-en").await;
    assert_eq!(text(&parent, "title"), "Idempotency Lab");
    assert_eq!(text(&parent, "step-index"), "2");
    assert_eq!(text(&parent, "narration"), english_narration);
    parent.remove();
}

#[wasm_bindgen_test]
async fn test_ids_keep_their_elements_through_a_run() {
    let (parent, _dispose) = mount_app("scenario=key").await;
    let ids = [
        "step-index",
        "step-total",
        "clock",
        "restart",
        "step-back",
        "play-pause",
        "step-forward",
        "run-to-end",
        "speed",
        "node-client",
        "node-api",
        "node-store",
        "node-ledger",
        "node-processor",
        "verdict",
        "narration",
        "drop-next-ack",
        "retry",
        "packet-select",
        "scenario-key",
        "protect-key",
        "lang-en",
        "theme",
    ];
    let held: Vec<Element> = ids.iter().map(|id| find(&parent, id)).collect();
    let same = |when: &str| {
        for (id, element) in ids.iter().zip(&held) {
            assert!(
                element.is_same_node(Some(&find(&parent, id))),
                "{id} was replaced {when}"
            );
        }
    };
    for _ in 0..4 {
        click(&parent, "step-forward").await;
    }
    same("while stepping");
    click(&parent, "step-back").await;
    click(&parent, "drop-next-ack").await;
    same("after a fault");
    click(&parent, "play-pause").await;
    for _ in 0..5 {
        next_frame().await;
    }
    click(&parent, "play-pause").await;
    same("while playing");
    click(&parent, "run-to-end").await;
    click(&parent, "restart").await;
    same("after a whole run");
    assert_eq!(text(&parent, "step-index"), "0");
    parent.remove();
}

#[wasm_bindgen_test]
async fn a_moving_packet_keeps_its_element() {
    let (parent, _dispose) = mount_app("scenario=naive&base=1&step=1").await;
    let packet = find(&parent, "packet");
    let start = packet.get_attribute("transform");
    click(&parent, "play-pause").await;
    let mut moved = false;
    for _ in 0..240 {
        next_frame().await;
        if packet.get_attribute("transform") != start {
            moved = true;
            break;
        }
    }
    click(&parent, "play-pause").await;
    assert!(moved, "the packet moved while playing");
    assert!(packet.is_connected(), "the packet kept its element");
    assert!(packet.is_same_node(Some(&find(&parent, "packet"))));
    parent.remove();
}

#[wasm_bindgen_test]
async fn packets_are_named_focusable_and_dropped_from_the_keyboard() {
    let (parent, _dispose) = mount_app("scenario=naive&base=1&step=1").await;
    let packet = find(&parent, "packet");
    assert_eq!(packet.get_attribute("tabindex").as_deref(), Some("0"));
    assert_eq!(packet.get_attribute("role").as_deref(), Some("button"));
    let name = packet.get_attribute("aria-label").unwrap_or_default();
    assert!(name.starts_with("#1 POST /charges"), "{name}");
    assert!(name.ends_with(", Mobile client → Payment API"), "{name}");
    focus(&packet);
    key(&packet, "Enter").await;
    assert!(query(&parent, "[data-testid=packet]").is_none(), "dropped");
    find(&parent, "lost-packet");
    assert_eq!(text(&parent, "step-index"), "2");
    let active = document().active_element().expect("something has focus");
    assert!(
        active.class_list().contains("topology-frame"),
        "focus moved to the drawing, not the page: {}",
        active.tag_name()
    );
    parent.remove();
}

#[wasm_bindgen_test]
async fn a_button_that_disables_itself_hands_focus_to_play() {
    let (parent, _dispose) = mount_app("scenario=naive&step=2").await;
    let back = find(&parent, "step-back");
    back.unchecked_ref::<HtmlElement>().focus().expect("focus");
    press(&back).await;
    assert_eq!(text(&parent, "step-index"), "1");
    assert_eq!(focused(), "step-back", "an enabled button keeps the focus");
    press(&back).await;
    assert_eq!(text(&parent, "step-index"), "0");
    assert!(back.has_attribute("disabled"));
    assert_eq!(focused(), "play-pause");
    parent.remove();
}

#[wasm_bindgen_test]
async fn sequence_arrows_are_buttons_that_keep_their_elements() {
    let (parent, _dispose) = mount_app("scenario=naive&step=3").await;
    let arrows = all(&parent, "[data-testid=seq-arrow]");
    assert!(arrows.len() >= 2, "{} arrows at step 3", arrows.len());
    let first = arrows[0].clone();
    assert_eq!(first.get_attribute("role").as_deref(), Some("button"));
    assert_eq!(first.get_attribute("tabindex").as_deref(), Some("0"));
    let name = first.get_attribute("aria-label").unwrap_or_default();
    assert!(name.contains(" #1 POST /charges, "), "{name}");
    assert!(name.ends_with(": go to step 2"), "{name}");
    // Stepping on adds arrows and keeps the ones already drawn.
    click(&parent, "step-forward").await;
    click(&parent, "step-forward").await;
    let now = all(&parent, "[data-testid=seq-arrow]");
    assert!(now.len() > arrows.len());
    for (held, current) in arrows.iter().zip(&now) {
        assert!(held.is_same_node(Some(current)), "an arrow was replaced");
    }
    // A click on the second arrow jumps to the step that sent it; Enter on the focused
    // first arrow to its step, and the focus stays on the arrow.
    let second = now[1].clone();
    let jump = second.get_attribute("data-jump").unwrap_or_default();
    let init = Object::new();
    Reflect::set(&init, &"bubbles".into(), &true.into()).expect("bubbles");
    let ctor: Function = Reflect::get(&window(), &"MouseEvent".into())
        .expect("MouseEvent")
        .unchecked_into();
    let event: Event = Reflect::construct(&ctor, &Array::of2(&"click".into(), &init))
        .expect("construct")
        .unchecked_into();
    second.dispatch_event(&event).expect("dispatch");
    leptos::task::tick().await;
    assert_eq!(text(&parent, "step-index"), jump);
    focus(&first);
    key(&first, "Enter").await;
    assert_eq!(text(&parent, "step-index"), "2");
    assert!(
        first.is_connected(),
        "the arrow of a message still in the run stays"
    );
    assert_eq!(focused(), "seq-arrow");
    // Past a message's step its arrow goes (stepping back before it was sent).
    click(&parent, "restart").await;
    assert!(query(&parent, "[data-testid=seq-arrow]").is_none());
    assert!(!first.is_connected());
    parent.remove();
}
