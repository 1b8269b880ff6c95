//! Browser tests of the JS API: `mount` decodes a real JavaScript object (its entries, read
//! with js_sys), refuses bad options with a message naming the field (thrown and shown
//! in the element), and `unmount()` removes the widget.

use crate::support;

use idem_web::mount;
use leptos::wasm_bindgen::{JsCast, JsValue};
use leptos::web_sys::js_sys;
use support::*;
use wasm_bindgen_test::wasm_bindgen_test;

fn object(entries: &[(&str, JsValue)]) -> JsValue {
    let o = js_sys::Object::new();
    for (k, v) in entries {
        js_sys::Reflect::set(&o, &JsValue::from_str(k), v).expect("set");
    }
    o.into()
}

fn error_text(options: JsValue) -> (String, String) {
    let el = wrapper();
    let Err(error) = mount(el.clone().into(), options) else {
        panic!("bad options were accepted");
    };
    let thrown = JsValue::from(error)
        .unchecked_into::<js_sys::Error>()
        .message()
        .as_string()
        .unwrap_or_default();
    (thrown, el.text_content().unwrap_or_default())
}

#[wasm_bindgen_test]
async fn good_options_mount_and_unmount() {
    let el = wrapper();
    let options = object(&[
        ("scenario", "key".into()),
        ("lang", "ru".into()),
        ("theme", "dark".into()),
        ("autoplay", false.into()),
        (
            "protections",
            js_sys::Array::of2(&"key".into(), &"lock".into()).into(),
        ),
    ]);
    let mut handle = mount(el.clone().into(), options).expect("mounts");
    leptos::task::tick().await;
    let root = el
        .query_selector("[data-testid=embed]")
        .expect("selector")
        .expect("the widget");
    assert_eq!(root.get_attribute("data-theme").as_deref(), Some("dark"));
    assert!(el
        .query_selector("[data-testid=step-index]")
        .expect("ok")
        .is_some());
    handle.unmount();
    assert_eq!(el.child_element_count(), 0);
    // No options at all: the default scenario.
    let el = wrapper();
    let _handle = mount(el.clone().into(), JsValue::UNDEFINED).expect("mounts");
    assert!(el
        .query_selector("[data-testid=verdict]")
        .expect("ok")
        .is_some());
}

#[wasm_bindgen_test]
fn bad_options_name_the_field() {
    let (thrown, shown) = error_text(object(&[("colour", "red".into())]));
    assert!(thrown.contains("unknown field `colour`"), "{thrown}");
    assert_eq!(thrown, shown);
    let (thrown, _) = error_text(object(&[("scenario", "nope".into())]));
    assert!(
        thrown.contains("`scenario` cannot be `nope`; allowed: `naive`"),
        "{thrown}"
    );
    let (thrown, _) = error_text(object(&[("autoplay", 1.into())]));
    assert!(
        thrown.contains("`autoplay` must be true or false"),
        "{thrown}"
    );
    let (thrown, _) = error_text(object(&[("protections", "key".into())]));
    assert!(
        thrown.contains("`protections` must be an array"),
        "{thrown}"
    );
    // An array inside the list is not a name (read one level deep, never recursed into).
    let nested = js_sys::Array::of1(&js_sys::Array::of1(&"key".into()));
    let (thrown, _) = error_text(object(&[("protections", nested.into())]));
    assert!(
        thrown.contains("`protections` must be an array"),
        "{thrown}"
    );
    // A `Map` is read by its entries like an object.
    let map = js_sys::Map::new();
    map.set(&"colour".into(), &"red".into());
    let (thrown, _) = error_text(map.into());
    assert!(thrown.contains("unknown field `colour`"), "{thrown}");
    let (thrown, _) = error_text(JsValue::from_str("naive"));
    assert!(thrown.contains("options must be an object"), "{thrown}");
    let not_an_element = mount(JsValue::NULL, JsValue::UNDEFINED);
    assert!(not_an_element.is_err());
}

#[wasm_bindgen_test]
async fn an_embedded_bad_link_shows_the_link_notice() {
    use idem_web::view::embed::Widget;
    use leptos::prelude::*;
    let el = wrapper();
    let handle = leptos::mount::mount_to(el.clone(), || {
        view! { <Widget query="embed&scenario=nope&step=2"/> }
    });
    leptos::task::tick().await;
    let notice = text(&el, "link-notice");
    assert!(notice.contains("nope"), "{notice}");
    assert_eq!(text(&el, "step-index"), "2");
    drop(handle);
    el.remove();
}

/// Issue 13: a handle the page does not keep (freed when its JS object is collected) must not
/// take the widget with it; a second `mount` on the same element replaces the first widget,
/// and the first handle's `unmount()` then leaves the new one alone.
#[wasm_bindgen_test]
async fn a_dropped_handle_leaves_the_widget_mounted() {
    let el = wrapper();
    let steps = |el: &leptos::web_sys::HtmlElement| {
        el.query_selector_all("[data-testid=step-index]")
            .expect("selector")
            .length()
    };
    // The handle is dropped at the end of this statement, as a page's unkept handle is freed.
    mount(el.clone().into(), JsValue::UNDEFINED).expect("mounts");
    leptos::task::tick().await;
    assert_eq!(steps(&el), 1, "the widget outlives its dropped handle");
    let mut first = mount(el.clone().into(), JsValue::UNDEFINED).expect("mounts again");
    let options = object(&[("lang", "ru".into())]);
    let mut second = mount(el.clone().into(), options).expect("mounts a third time");
    leptos::task::tick().await;
    assert_eq!(steps(&el), 1, "one element, one widget");
    first.unmount();
    assert_eq!(
        steps(&el),
        1,
        "a replaced widget's handle does not remove the new one"
    );
    let root = el
        .query_selector("[data-testid=embed]")
        .expect("selector")
        .expect("the widget");
    assert_eq!(root.get_attribute("lang").as_deref(), Some("ru"));
    second.unmount();
    assert_eq!(el.child_element_count(), 0);
}

/// Issue 27: a widget playing a challenge sends `idem:challenge` from its root as the core's
/// standing changes: `open` when it opens, `solved` once its verdict breaks within the budget
/// (step, crash before writing the ledger, run to the end: the seed Redis design charges twice).
#[wasm_bindgen_test]
async fn a_widget_playing_a_challenge_sends_its_standing() {
    use idem_core::{Action, Phase};
    use idem_web::view::embed::Widget;
    use leptos::prelude::*;
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;
    let el = wrapper();
    let heard = Rc::new(RefCell::new(Vec::<(String, String, String)>::new()));
    let listener = {
        let heard = Rc::clone(&heard);
        leptos::wasm_bindgen::closure::Closure::<dyn Fn(leptos::web_sys::Event)>::new(
            move |e: leptos::web_sys::Event| {
                let detail = js_sys::Reflect::get(&e, &"detail".into()).unwrap_or_default();
                let field = |k: &str| {
                    js_sys::Reflect::get(&detail, &k.into())
                        .ok()
                        .and_then(|v| v.as_string())
                        .unwrap_or_default()
                };
                heard
                    .borrow_mut()
                    .push((e.type_(), field("id"), field("status")));
            },
        )
    };
    el.add_event_listener_with_callback("idem:challenge", listener.as_ref().unchecked_ref())
        .expect("listen");
    let lab = Rc::new(Cell::new(None));
    let lab_out = Rc::clone(&lab);
    let _handle = mount_to(el.clone(), move || {
        view! { <Widget query="challenge=redis-2" lab_out=lab_out/> }
    });
    leptos::task::tick().await;
    let event = |status: &str| {
        (
            "idem:challenge".to_owned(),
            "redis-2".to_owned(),
            status.to_owned(),
        )
    };
    assert_eq!(*heard.borrow(), [event("open")]);
    let lab = lab.get().expect("the widget handed its lab out");
    lab.step_forward();
    assert!(
        lab.act(Action::Crash(Phase::WriteLedger)),
        "the crash is armed"
    );
    lab.run_to_end();
    leptos::task::tick().await;
    assert_eq!(*heard.borrow(), [event("open"), event("solved")]);
    // The same standing again sends nothing.
    lab.run_to_end();
    leptos::task::tick().await;
    assert_eq!(heard.borrow().len(), 2);
    el.remove_event_listener_with_callback("idem:challenge", listener.as_ref().unchecked_ref())
        .expect("stop listening");
    el.remove();
}
