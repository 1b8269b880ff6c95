//! The JavaScript API: `mount(element, options)` and the handle it returns. Each mounted
//! widget has its own lab (no shared state), and its keyboard shortcuts act only while focus
//! is inside it.

use leptos::prelude::*;

use super::widget::Widget;
use crate::platform::catalogs::load_parts;
use crate::platform::lab::Lab;
use crate::platform::stream::{request, COMMAND, READY};
use crate::view::app::LoadFailed;
use idem_lesson::events::{event_name, NAMES};
use idem_lesson::i18n::parts_loaded;
use idem_lesson::markup::el;
use idem_lesson::options::{validate, OptionError, Options, RawOptions, Value};
use leptos::wasm_bindgen::prelude::wasm_bindgen;
use leptos::wasm_bindgen::JsError;
use leptos::web_sys::js_sys::Function;

/// A widget mounted by [`mount`]: `unmount()`, `restart()`, `runToEnd()`, `on(name, fn)` and
/// `off(name, fn)`. The widget itself lives in [`MOUNTED`], not in the handle, so a handle
/// dropped by the page (and freed by the next garbage collection of its JS object) leaves the
/// widget mounted; a handle whose widget is gone does nothing.
#[wasm_bindgen]
pub struct MountHandle {
    id: u32,
    /// Resolves to `true` once the widget is shown, `false` if its texts could not be loaded.
    ready: leptos::web_sys::js_sys::Promise,
}

/// One mounted widget: its id (kept by its handle), its host element, its lab, the listeners
/// added with `on` and what unmounts it.
pub(super) struct Mounted {
    id: u32,
    pub(super) host: leptos::web_sys::HtmlElement,
    /// The widget's lab, once it is shown (it may wait for its language file).
    lab: std::rc::Rc<std::cell::Cell<Option<Lab>>>,
    listeners: Vec<(&'static str, Function)>,
    /// Held for its `Drop`, which unmounts the widget.
    _view: Box<dyn std::any::Any>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        for (name, listener) in &self.listeners {
            let _ = self
                .host
                .remove_event_listener_with_callback(name, listener);
        }
    }
}

thread_local! {
    /// The widgets mounted by [`mount`] and not yet unmounted, and the last id given out.
    static MOUNTED: std::cell::RefCell<(u32, Vec<Mounted>)> =
        const { std::cell::RefCell::new((0, Vec::new())) };
}

/// Takes out the widgets `matches` selects and drops them (unmounting them) after the
/// registry is released, since unmounting runs the widgets' cleanups.
fn unmount_where(matches: impl Fn(&Mounted) -> bool) {
    let gone: Vec<Mounted> = MOUNTED.with_borrow_mut(|(_, all)| {
        let (gone, kept) = std::mem::take(all).into_iter().partition(|m| matches(m));
        *all = kept;
        gone
    });
    drop(gone);
}

/// Runs `f` on the widget `id` (nothing when it is gone).
pub(super) fn with_mounted<T>(id: u32, f: impl FnOnce(&mut Mounted) -> T) -> Option<T> {
    MOUNTED.with_borrow_mut(|(_, all)| all.iter_mut().find(|m| m.id == id).map(f))
}

/// The event name `on`/`off` were given, or an `Error` naming the allowed ones. The name is
/// quoted by hand, not with `{:?}`: that would bring `str`'s `Debug` (its escaping, 2 KB of
/// wasm) into the first screen's module for this message alone (docs/measurements.md).
fn listened(name: &str) -> Result<&'static str, JsError> {
    event_name(name).ok_or_else(|| {
        JsError::new(&format!(
            "Idempotency Lab: on(name, fn): unknown event \"{name}\"; use one of {}",
            NAMES.join(", ")
        ))
    })
}

#[leptos::wasm_bindgen::prelude::wasm_bindgen]
impl MountHandle {
    /// Removes the widget and stops its playback (nothing if it was already removed, or
    /// replaced by another `mount` on the same element).
    pub fn unmount(&mut self) {
        let id = self.id;
        unmount_where(|m| m.id == id);
    }

    /// A promise: `true` once the widget is on the page (at once when its language's texts
    /// are loaded, else after they are fetched), `false` when they could not be loaded (the
    /// element then says why). With an exercise, it rejects with the exercise's problem.
    pub fn ready(&self) -> leptos::web_sys::js_sys::Promise {
        self.ready.clone()
    }

    /// Back to the start of the run (paused).
    pub fn restart(&self) {
        if let Some(lab) = with_mounted(self.id, |m| m.lab.get()).flatten() {
            lab.restart();
        }
    }

    /// To the end of the run (paused): the run ends, so `idem:verdict` follows.
    #[wasm_bindgen(js_name = runToEnd)]
    pub fn run_to_end(&self) {
        if let Some(lab) = with_mounted(self.id, |m| m.lab.get()).flatten() {
            lab.run_to_end();
        }
    }

    /// Calls `listener` with each `idem:<name>` event of this widget (`name` is `step`,
    /// `verdict`, `prediction` or `challenge`, with or without `idem:`); the payload is the
    /// event's `detail`. Returns the handle, so calls chain; `unmount()` removes the listeners.
    pub fn on(&self, name: &str, listener: Function) -> Result<MountHandle, JsError> {
        let name = listened(name)?;
        with_mounted(self.id, |m| {
            if m.host
                .add_event_listener_with_callback(name, &listener)
                .is_ok()
            {
                m.listeners.push((name, listener));
            }
        });
        Ok(MountHandle {
            id: self.id,
            ready: self.ready.clone(),
        })
    }

    /// A promise of the run as a link: `{ query, link }` (`link`: its parameters as an object).
    #[wasm_bindgen(js_name = getState)]
    pub fn get_state(&self) -> leptos::wasm_bindgen::JsValue {
        self.queue(
            COMMAND,
            leptos::wasm_bindgen::JsValue::UNDEFINED,
            leptos::wasm_bindgen::JsValue::UNDEFINED,
        )
    }

    /// Opens the run `state` describes (a link's query, or `getState()`'s object); a promise
    /// that rejects with the link's problems for a bad one (the run on screen stays).
    #[wasm_bindgen(js_name = setState)]
    pub fn set_state(&self, state: leptos::wasm_bindgen::JsValue) -> leptos::wasm_bindgen::JsValue {
        self.queue(COMMAND + 1, state, leptos::wasm_bindgen::JsValue::UNDEFINED)
    }

    /// Freezes the widget (`true`: it shows its run and takes no input) or thaws it.
    pub fn freeze(&self, on: leptos::wasm_bindgen::JsValue) -> leptos::wasm_bindgen::JsValue {
        self.queue(COMMAND + 2, on, leptos::wasm_bindgen::JsValue::UNDEFINED)
    }

    /// A promise of one self-contained SVG of the stage and the sequence diagram as they are.
    pub fn picture(&self) -> leptos::wasm_bindgen::JsValue {
        self.queue(
            COMMAND + 3,
            leptos::wasm_bindgen::JsValue::UNDEFINED,
            leptos::wasm_bindgen::JsValue::UNDEFINED,
        )
    }

    /// Removes a listener added with `on(name, listener)`. Returns the handle.
    pub fn off(&self, name: &str, listener: Function) -> Result<MountHandle, JsError> {
        let name = listened(name)?;
        with_mounted(self.id, |m| {
            let _ = m.host.remove_event_listener_with_callback(name, &listener);
            m.listeners.retain(|(n, l)| !(*n == name && *l == listener));
        });
        Ok(MountHandle {
            id: self.id,
            ready: self.ready.clone(),
        })
    }
}

impl MountHandle {
    /// Queues a call for the widget's stream, whose lesson-bundle code answers it
    /// (`platform/stream.rs`): `record()` (0), `replay()` (1) and the host's commands
    /// (`COMMAND` + their number: `getState`, `setState`, `freeze`, `picture`;
    /// embed/commands.rs). A promise. One body for all six, so each method is only a call.
    pub(super) fn queue(
        &self,
        call: u8,
        a: leptos::wasm_bindgen::JsValue,
        b: leptos::wasm_bindgen::JsValue,
    ) -> leptos::wasm_bindgen::JsValue {
        let host = with_mounted(self.id, |m| m.host.clone().into());
        request(host, call, a, b)
    }
}

/// The entries of `mount`'s options: an object's own enumerable properties in their order
/// (`Object.entries`), or a `Map`'s entries. Read by hand with `js_sys`, not with serde (whose
/// error path brings float formatting into the wasm).
fn option_entries(
    options: &leptos::wasm_bindgen::JsValue,
) -> Result<Vec<(String, Value)>, OptionError> {
    use leptos::wasm_bindgen::JsCast;
    use leptos::web_sys::js_sys::{Array, Map, Object};
    if let Some(map) = options.dyn_ref::<Map>() {
        let mut entries = Vec::new();
        let mut keys_ok = true;
        map.for_each(&mut |value, key| match key.as_string() {
            Some(key) => entries.push((key, option_value(&value))),
            None => keys_ok = false,
        });
        return if keys_ok {
            Ok(entries)
        } else {
            Err(OptionError::Decode("a Map key is not a string".into()))
        };
    }
    if !options.is_object() {
        let kind = options.js_typeof().as_string().unwrap_or_default();
        return Err(OptionError::Decode(format!("got a {kind}")));
    }
    Ok(Object::entries(options.unchecked_ref())
        .iter()
        .map(|pair| {
            let pair = pair.unchecked_into::<Array>();
            (
                pair.get(0).as_string().unwrap_or_default(),
                option_value(&pair.get(1)),
            )
        })
        .collect())
}

/// One option's value; an array's items are read one level deep (an array inside it, like
/// any object, is `Other`: the options never nest, and a self-containing array must not
/// recurse).
fn option_value(v: &leptos::wasm_bindgen::JsValue) -> Value {
    use leptos::wasm_bindgen::JsCast;
    use leptos::web_sys::js_sys::Array;
    fn scalar(v: &leptos::wasm_bindgen::JsValue) -> Value {
        if v.is_null() || v.is_undefined() {
            Value::Null
        } else if let Some(b) = v.as_bool() {
            Value::Bool(b)
        } else if let Some(n) = v.as_f64() {
            Value::Number(n)
        } else if let Some(s) = v.as_string() {
            Value::Text(s)
        } else {
            Value::Other
        }
    }
    if Array::is_array(v) {
        Value::List(
            v.unchecked_ref::<Array>()
                .iter()
                .map(|item| scalar(&item))
                .collect(),
        )
    } else {
        scalar(v)
    }
}

/// `mount(element, options)`: mounts the compact lesson into `element`. Bad options throw an
/// `Error` naming the field and the allowed values, and show the same text in the element.
#[leptos::wasm_bindgen::prelude::wasm_bindgen]
pub fn mount(
    element: leptos::wasm_bindgen::JsValue,
    options: leptos::wasm_bindgen::JsValue,
) -> Result<MountHandle, leptos::wasm_bindgen::JsError> {
    use leptos::wasm_bindgen::JsCast;
    // No enclosing reactive owner while mounting: `mount()` may be called from a host's
    // listener of another widget's event, and those are sent from inside that widget's
    // effects; a widget mounted under such an effect would be disposed when it runs again.
    let _detached = Detached::new();
    let Ok(element) = element.dyn_into::<leptos::web_sys::HtmlElement>() else {
        return Err(leptos::wasm_bindgen::JsError::new(
            "Idempotency Lab: mount(element, options) needs an HTML element",
        ));
    };
    let raw = if options.is_undefined() || options.is_null() {
        Ok(RawOptions::default())
    } else {
        option_entries(&options).and_then(RawOptions::from_entries)
    };
    // Kept for the lesson's bundle when they name an exercise (`embed::given`).
    let given = options;
    // A widget already in this element goes first: one element, one widget.
    unmount_where(|m| m.host == element);
    let options = match raw.and_then(validate) {
        Ok(options) => options,
        Err(error) => {
            let message = error.to_string();
            // One of the two places that write HTML into the DOM by hand (the host element
            // belongs to the page, not to a view): escaped markup, see `SafeHtml`.
            element.set_inner_html(
                el(
                    "p",
                    "class=\"embed-error\" role=\"alert\" data-testid=\"embed-error\"",
                    &message,
                )
                .as_str(),
            );
            return Err(leptos::wasm_bindgen::JsError::new(&message));
        }
    };
    // The other one: the host element is emptied before the widget is mounted into it.
    element.set_inner_html("");
    let query = options.query();
    let Options {
        theme,
        autoplay,
        compact,
        exercise,
        ..
    } = options;
    // An exercise is read and checked by the lesson's bundle from the options themselves
    // (neither its code nor a copy of the entries is in this module): `ready()` waits for
    // that check and rejects with the same words as a bad option's error. An exercise shows
    // the parts the student works with (`compact` notwithstanding).
    let full = !compact || exercise;
    super::given::set(
        &element,
        &if exercise {
            given
        } else {
            leptos::wasm_bindgen::JsValue::UNDEFINED
        },
    );
    let host = element.clone();
    let lang = idem_lesson::options::query_lang(&query);
    // The widget hands its lab out once it is built, for restart() and runToEnd().
    let lab = std::rc::Rc::new(std::cell::Cell::new(None));
    let lab_out = std::rc::Rc::clone(&lab);
    let widget = move || {
        view! { <Widget query=query theme=theme autoplay=autoplay full=full lab_out=lab_out/> }
    };
    // The widget's language files are usually there (the page's or another widget's); if not,
    // the widget appears once they are fetched, or a notice says why it could not be.
    let (id, ready) = if parts_loaded(lang, true) {
        let view = mount_to(element.clone(), widget);
        (
            register(element, Box::new(view), lab),
            leptos::web_sys::js_sys::Promise::resolve(&leptos::wasm_bindgen::JsValue::TRUE),
        )
    } else {
        let id = register(element.clone(), Box::new(()), lab);
        let ready = wasm_bindgen_futures::future_to_promise(async move {
            let result = load_parts(lang, true).await;
            // Unmounted (or replaced) while the file was on its way: nothing to show.
            if !MOUNTED.with_borrow(|(_, all)| all.iter().any(|m| m.id == id)) {
                return Ok(false.into());
            }
            let shown = result.is_ok();
            let view: Box<dyn std::any::Any> = match result {
                Ok(_) => Box::new(mount_to(element, widget)),
                Err(error) => Box::new(mount_to(element, move || view! { <LoadFailed error/> })),
            };
            let old = MOUNTED.with_borrow_mut(|(_, all)| {
                all.iter_mut()
                    .find(|m| m.id == id)
                    .map(|m| std::mem::replace(&mut m._view, view))
            });
            drop(old);
            Ok(shown.into())
        });
        (id, ready)
    };
    let ready = if exercise {
        request(
            Some(host.into()),
            COMMAND + READY,
            ready.into(),
            leptos::wasm_bindgen::JsValue::UNDEFINED,
        )
        .unchecked_into()
    } else {
        ready
    };
    Ok(MountHandle { id, ready })
}

/// Unsets the current reactive owner until dropped, then sets it back.
struct Detached(Option<Owner>);

impl Detached {
    fn new() -> Detached {
        let current = Owner::current();
        if let Some(current) = current.clone() {
            current.unset();
        }
        Detached(current)
    }
}

impl Drop for Detached {
    fn drop(&mut self) {
        if let Some(owner) = self.0.take() {
            owner.set();
        }
    }
}

/// Keeps a mounted widget (or a placeholder for one on its way) and gives its id.
fn register(
    host: leptos::web_sys::HtmlElement,
    view: Box<dyn std::any::Any>,
    lab: std::rc::Rc<std::cell::Cell<Option<Lab>>>,
) -> u32 {
    MOUNTED.with_borrow_mut(|(last, all)| {
        *last += 1;
        all.push(Mounted {
            id: *last,
            host,
            lab,
            listeners: Vec::new(),
            _view: view,
        });
        *last
    })
}

/// Whether the page asked to be left alone (`<meta name="idem-lab" content="manual">`): it
/// mounts widgets itself with [`mount`].
pub fn manual_mount() -> bool {
    let metas = document().get_elements_by_name("idem-lab");
    (0..metas.length())
        .filter_map(|i| metas.item(i))
        .filter_map(|m| leptos::wasm_bindgen::JsCast::dyn_into::<leptos::web_sys::Element>(m).ok())
        .any(|m| m.get_attribute("content").as_deref() == Some("manual"))
}
