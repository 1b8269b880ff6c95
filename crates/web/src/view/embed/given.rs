//! The options `mount` was given for each host element when they name an exercise (issue 43,
//! item 1), kept as the JavaScript value they are for the lesson's bundle, which reads and
//! checks the exercise's entries (`embed::exercise`, and `ready()` through `embed::commands`).
//! The reading here is a copy of `api.rs`'s (`option_entries`): calling that one from the
//! lesson's bundle would take it out of line in the first screen's module. Apart from
//! `api.rs`, which imports those two through the widget, so that they can read it without
//! importing `api.rs` back.

use idem_lesson::options::Value;
use leptos::wasm_bindgen::{JsCast, JsValue};
use leptos::web_sys::js_sys::{Array, Object, Reflect};
use leptos::web_sys::Element;

/// The host element's property that holds them (an expando on the page's element, set and
/// read through `Reflect`: no store of its own in the first screen's module).
const KEY: &str = "__idemLabExercise";

/// Keeps the options `mount` got for `host` when they name an exercise (replacing an earlier
/// mount's; `undefined` forgets them).
pub fn set(host: &Element, options: &JsValue) {
    let _ = Reflect::set(host, &JsValue::from_str(KEY), options);
}

/// The exercise's entries of the options `mount` got for `host`, in their order; `None` when
/// they named no exercise. Called only from the lesson's bundle, so its code goes with that
/// file.
pub fn get(host: &Element) -> Option<Vec<(String, Value)>> {
    let options = Reflect::get(host, &JsValue::from_str(KEY)).ok()?;
    if !options.is_object() {
        return None;
    }
    // An object's own entries; a `Map`'s (which has none of its own) through `Array.from`.
    let mut pairs = Object::entries(options.unchecked_ref());
    if pairs.length() == 0 {
        pairs = Array::from(&options);
    }
    let mut entries = Vec::new();
    for pair in pairs.iter() {
        let pair = pair.unchecked_into::<Array>();
        let name = pair.get(0).as_string().unwrap_or_default();
        if idem_lesson::exercise::FIELDS.contains(&name.as_str()) {
            entries.push((name, value_of(&pair.get(1))));
        }
    }
    Some(entries)
}

/// One option's value, as `api.rs` reads it (an array's items one level deep).
fn value_of(v: &JsValue) -> Value {
    fn scalar(v: &JsValue) -> Value {
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
                .map(|i| scalar(&i))
                .collect(),
        )
    } else {
        scalar(v)
    }
}
