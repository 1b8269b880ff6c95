//! Events for course sites: what the student did, as `CustomEvent`s (`idem:step`,
//! `idem:verdict`, `idem:prediction`, `idem:challenge`, `idem:action`) bubbling from the
//! widget's element, and the same payloads posted to `window.parent` when the page runs in an
//! iframe (`{ source: "idem-lab", type, detail }`). Nothing here listens to messages.
//!
//! The first screen sends `idem:step` and notes each run that ends ([`Events::ended`]); the
//! results and the data stream are built and sent by the lesson's bundle (`view/stream.rs`,
//! `platform/stream.rs`), so none of their code is downloaded before Play. The payloads are
//! built from the core (the verdict from its invariant checks, money in integer cents).

use leptos::prelude::*;
use leptos::wasm_bindgen::JsValue;
use leptos::web_sys::js_sys;

use crate::platform::lab::Lab;
use idem_core::{DeepLink, World};
use idem_lesson::events::{Field, LabEvent, MESSAGE_SOURCE};

/// Where a widget's events start: its root element (set by the view through
/// [`Events::root`]). A `Copy` handle, provided in context by [`provide_events`].
#[derive(Clone, Copy)]
pub struct Events {
    root: NodeRef<leptos::html::Div>,
    /// The runs that reached their end (the world there and the run's link), in order, until
    /// the lesson's bundle takes them to send their results: a run may end before its code is
    /// here.
    pub ended: RwSignal<Vec<(World, DeepLink)>>,
}

/// Creates the events of one widget or page and provides them in context.
pub fn provide_events() -> Events {
    let events = Events {
        root: NodeRef::new(),
        ended: RwSignal::new(Vec::new()),
    };
    provide_context(events);
    events
}

/// The events of the enclosing widget or page.
pub fn use_events() -> Events {
    crate::platform::place::required("provide_events")
}

impl Events {
    /// The node reference the widget's root element takes (`node_ref=events.root()`).
    pub fn root(&self) -> NodeRef<leptos::html::Div> {
        self.root
    }

    /// Dispatches `event` from the root element (bubbling, crossing shadow roots) and, in an
    /// iframe, posts it to the parent window. Nothing before the root is mounted.
    pub fn emit(&self, event: &LabEvent) {
        self.dispatch(event.name(), detail(event));
    }

    /// Dispatches the event `name` with `detail` as [`Events::emit`] does.
    pub fn dispatch(&self, name: &str, detail: JsValue) {
        let Some(root) = self.root.try_get_untracked().flatten() else {
            return;
        };
        if let Some(custom) = custom_event(name, &detail) {
            let _ = root.dispatch_event(&custom);
        }
        post_to_parent(name, detail);
    }
}

/// In an iframe, posts `{ source: "idem-lab", type: name, detail }` to the parent window
/// (the events, and the `?embed` page's height); nothing outside a frame.
pub fn post_to_parent(name: &str, detail: JsValue) {
    let window = window();
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if JsValue::from(&parent) == JsValue::from(&window) {
        return;
    }
    let message = js_sys::Object::new();
    for (key, value) in [
        ("source", JsValue::from_str(MESSAGE_SOURCE)),
        ("type", JsValue::from_str(name)),
        ("detail", detail),
    ] {
        let _ = js_sys::Reflect::set(&message, &JsValue::from_str(key), &value);
    }
    // The payloads hold nothing private: any embedding page may read them.
    let _ = parent.post_message(&message, "*");
}

/// `new CustomEvent(name, { bubbles: true, composed: true, detail })`, built through
/// `Reflect` (web-sys's `CustomEvent` bindings would cost a rebuild of every dependency for
/// one constructor).
fn custom_event(name: &str, detail: &JsValue) -> Option<leptos::web_sys::Event> {
    use leptos::wasm_bindgen::JsCast;
    let constructor = js_sys::Reflect::get(&window(), &JsValue::from_str("CustomEvent"))
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    let init = js_sys::Object::new();
    for (key, value) in [
        ("bubbles", JsValue::TRUE),
        ("composed", JsValue::TRUE),
        ("detail", detail.clone()),
    ] {
        js_sys::Reflect::set(&init, &JsValue::from_str(key), &value).ok()?;
    }
    let args = js_sys::Array::of2(&JsValue::from_str(name), &init);
    js_sys::Reflect::construct(&constructor, &args)
        .ok()?
        .dyn_into()
        .ok()
}

/// `idem:step` when the step shown changes; when a run reaches its end (again after stepping
/// back, not again while it stays there) its world and link go to [`Events::ended`], whose
/// `idem:verdict` (and `idem:prediction`) the lesson's bundle sends.
pub fn use_run_events(lab: Lab, events: Events) {
    Effect::new(move |before: Option<Shown>| {
        let now = lab.run.with(|r| Shown {
            scenario: r.scenario().id.clone(),
            protections: r.scenario().protections,
            faults: r.world().injected().len(),
            // The counter's number: the visible step (filler folded, idem_lesson::fold).
            step: r.visible_step(),
            at_end: r.at_end(),
        });
        if let Some(before) = before {
            if before != now {
                // The end is noted before the step is sent: a host's listener may unmount the
                // widget (disposing `lab`) while it handles the step.
                if now.at_end {
                    let end = lab.run.with_untracked(|r| (r.world().clone(), r.link()));
                    // Bounded, in case the bundle never comes (its file missing).
                    events.ended.update(|ended| {
                        if ended.len() < MAX_ENDED {
                            ended.push(end);
                        }
                    });
                }
                events.emit(&LabEvent::step(&now.scenario, now.step, now.at_end));
            }
        }
        now
    });
}

/// How many ended runs wait for the lesson's bundle at most.
const MAX_ENDED: usize = 16;

/// What decides whether an event is due: the run and the step shown.
#[derive(Clone, PartialEq)]
struct Shown {
    scenario: String,
    protections: idem_core::Protections,
    faults: usize,
    step: usize,
    at_end: bool,
}

/// The payload as a plain JS object.
fn detail(event: &LabEvent) -> JsValue {
    let object = js_sys::Object::new();
    for (key, value) in event.fields() {
        let value = match value {
            Field::Text(s) => JsValue::from_str(&s),
            Field::Number(n) => JsValue::from_f64(n),
            Field::Bool(b) => JsValue::from_bool(b),
        };
        let _ = js_sys::Reflect::set(&object, &JsValue::from_str(key), &value);
    }
    object.into()
}
