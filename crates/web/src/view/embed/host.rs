//! What the `?embed` page does for the page that frames it (issue 43, item 5):
//! - says which parameters of its link were not used: a name no part of the lesson reads
//!   (`?them=dark`, `?compact=false`) or a bad `lang`, `theme` or `embed` value, in the same
//!   words as the link notice says a bad scenario (`mount` refuses an unknown option; a link
//!   is held to the same rule, in words, since an address cannot throw);
//! - tells the parent window its height whenever it changes, as
//!   `{ source: "idem-lab", type: "idem:height", detail: { height } }`, so the host can size
//!   the iframe (a fixed `height` cuts the prediction off on narrow columns).
//!
//! Drawn from the lesson's bundle once the player's bundle is here, with the goal of a
//! challenge (which is played in a widget as on the page): Play needs none of it.

use leptos::prelude::*;
use leptos::wasm_bindgen::closure::Closure;
use leptos::wasm_bindgen::{JsCast, JsValue};
use leptos::web_sys::js_sys;

use crate::platform::browser::location_query;
use crate::platform::events::{post_to_parent, use_events};
use crate::platform::lab::use_prefs;
use crate::view::embed::{embed_param, manual_mount};
use crate::view::panels::challenge::ChallengeGoal;
use idem_lesson::link_params::{page_params, problem_text, ParamProblem};

/// The name of the height message.
pub const HEIGHT_MESSAGE: &str = "idem:height";

/// Above a widget's player: the goal of the challenge being played (if any), and in the
/// `?embed` page the notice for the link's unused parameters and the height messages to the
/// parent. (A widget mounted in a course page reads no address: the page's is the host's.)
#[component]
pub fn HostFit() -> impl IntoView {
    let query = location_query();
    let page = !manual_mount() && embed_param(&query);
    view! {
        {page.then(|| param_notice(query))}
        <ChallengeGoal/>
    }
}

/// The notice for the `?embed` page's unused link parameters; starts the height messages.
fn param_notice(query: String) -> impl IntoView {
    report_height(use_events().root());
    let params = page_params(&query);
    if let Some(origin) = params.host.clone() {
        take_commands(origin, use_events().root());
    }
    let mut problems = params.problems;
    // A course author's exercise parameters (`lock`, `hide`, …: embed/exercise.rs), the same way.
    problems.extend(idem_lesson::exercise::from_query(&query).1);
    problems_notice(problems)
}

/// The notice listing a link's unused parameters (`param-notice`), in the link notice's
/// words; nothing when there are none. The `?embed` page's, and the full page's
/// (view/stream.rs: an unknown parameter is said there as a bad scenario is).
pub fn problems_notice(problems: Vec<ParamProblem>) -> Option<impl IntoView> {
    let prefs = use_prefs();
    (!problems.is_empty()).then(|| {
        let catalog = prefs.lang.get_untracked().catalog();
        let items = problems
            .iter()
            .map(|p| view! { <li>{problem_text(p, catalog)}</li> })
            .collect_view();
        view! {
            <div class="link-notice" role="alert" data-testid="param-notice">
                <p>{prefs.t("link.notice")}</p>
                <ul>{items}</ul>
            </div>
        }
    })
}

/// Posts the document's height to the parent now and whenever the widget's box changes size
/// (a `ResizeObserver`, built through `Reflect`: web-sys's bindings would rebuild every
/// dependency for one constructor), and stops when the widget goes. Nothing outside a frame.
fn report_height(root: NodeRef<leptos::html::Div>) {
    let window = window();
    let framed = matches!(window.parent(), Ok(Some(parent)) if JsValue::from(&parent) != JsValue::from(&window));
    if !framed {
        return;
    }
    let last = StoredValue::new(0_u32);
    let post = move || {
        let Some(root) = root.try_get_untracked().flatten() else {
            return;
        };
        let bottom = root.get_bounding_client_rect().bottom() + window.scroll_y().unwrap_or(0.0);
        // Whole pixels, rounded up: a host that sets this height shows no scroll bar.
        let height = bottom.max(0.0).ceil() as u32;
        if last.try_get_value() == Some(height) {
            return;
        }
        last.try_set_value(height);
        let detail = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&detail, &"height".into(), &height.into());
        post_to_parent(HEIGHT_MESSAGE, detail.into());
    };
    // The observer and its callback live until the widget goes.
    let held = StoredValue::new_local(None::<(JsValue, Closure<dyn FnMut()>)>);
    on_cleanup(move || {
        if let Some((observer, _callback)) = held.try_update_value(Option::take).flatten() {
            let _ = method(&observer, "disconnect").map(|f| f.call0(&observer));
        }
    });
    Effect::new(move |_| {
        let Some(element) = root.get() else {
            return;
        };
        if held.with_value(Option::is_some) {
            return;
        }
        post.clone()();
        let callback = Closure::<dyn FnMut()>::new(post.clone());
        let Some(observer) = method(&JsValue::from(leptos::prelude::window()), "ResizeObserver")
            .and_then(|c| {
                js_sys::Reflect::construct(
                    &c,
                    &js_sys::Array::of1(callback.as_ref().unchecked_ref()),
                )
                .ok()
            })
        else {
            return;
        };
        let _ = method(&observer, "observe").map(|f| f.call1(&observer, &element));
        held.set_value(Some((observer, callback)));
    });
}

/// The name of the reply to a host's command.
pub const REPLY_MESSAGE: &str = "idem:reply";

/// Takes the host's commands (embed/commands.rs) posted into this frame as
/// `{ source: "idem-lab-host", type: "getState" | "setState" | "freeze" | "picture", id, arg }`
/// from the parent window at `origin` alone (the link's `host=`), and answers each with
/// `{ source: "idem-lab", type: "idem:reply", detail: { id, ok, value | error } }` posted to
/// that origin only. A message from any other window or origin is ignored.
fn take_commands(origin: String, root: NodeRef<leptos::html::Div>) {
    use crate::view::embed::commands::{run, Command};
    // Read through `Reflect` (`commands::get`): no web-sys binding of its own in the first
    // screen's module.
    let read = crate::view::embed::commands::get;
    let window = window();
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if JsValue::from(&parent) == JsValue::from(&window) {
        return;
    }
    let lab = crate::platform::lab::use_lab();
    let get = |target: &JsValue, name: &str| {
        js_sys::Reflect::get(target, &name.into()).unwrap_or_default()
    };
    let listener = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
        let from_parent = read(&e, "source") == JsValue::from(&parent);
        if read(&e, "origin").as_string().as_deref() != Some(origin.as_str()) || !from_parent {
            return;
        }
        let data = read(&e, "data");
        if get(&data, "source").as_string().as_deref() != Some("idem-lab-host") {
            return;
        }
        let Some(host) = root.get_untracked().and_then(|r| r.parent_element()) else {
            return;
        };
        let id = get(&data, "id");
        let result = match get(&data, "type")
            .as_string()
            .as_deref()
            .and_then(Command::from_name)
        {
            Some(command) => run(Some(lab), host, command, get(&data, "arg")),
            None => Err(leptos::wasm_bindgen::JsError::new(
                "Idempotency Lab: unknown command; use one of getState, setState, freeze, picture",
            )
            .into()),
        };
        let detail = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&detail, &"id".into(), &id);
        let _ = js_sys::Reflect::set(&detail, &"ok".into(), &result.is_ok().into());
        let _ = match result {
            Ok(value) => js_sys::Reflect::set(&detail, &"value".into(), &value),
            Err(error) => js_sys::Reflect::set(&detail, &"error".into(), &get(&error, "message")),
        };
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &"source".into(), &"idem-lab".into());
        let _ = js_sys::Reflect::set(&message, &"type".into(), &REPLY_MESSAGE.into());
        let _ = js_sys::Reflect::set(&message, &"detail".into(), &detail);
        // (web-sys's binding, as `events::post_to_parent` posts: no `Reflect.apply` here.)
        let _ = parent.post_message(&message, &origin);
    });
    let _ = window.add_event_listener_with_callback("message", listener.as_ref().unchecked_ref());
    let held = StoredValue::new_local(Some(listener));
    on_cleanup(move || {
        if let Some(listener) = held.try_update_value(Option::take).flatten() {
            let _ = leptos::prelude::window()
                .remove_event_listener_with_callback("message", listener.as_ref().unchecked_ref());
        }
    });
}

/// `target[name]` when it is a function.
fn method(target: &JsValue, name: &str) -> Option<js_sys::Function> {
    js_sys::Reflect::get(target, &name.into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()
}
