//! The browser's `localStorage`, reached through reflection (no extra web-sys feature), for the
//! student's marks (stories done, challenges solved). Every call may be refused (private mode,
//! blocked cookies): `None` then, and the caller says so.

use leptos::prelude::*;
use leptos::wasm_bindgen::{JsCast, JsValue};
use leptos::web_sys::js_sys::{Array, Function, Reflect};

/// `localStorage`; `None` when the browser refuses it or it is missing.
fn storage() -> Option<JsValue> {
    let storage = Reflect::get(&window(), &"localStorage".into()).ok()?;
    (!storage.is_null() && !storage.is_undefined()).then_some(storage)
}

/// Calls `storage.method(args…)`; `None` when it throws.
fn call(storage: &JsValue, method: &str, args: &[&str]) -> Option<JsValue> {
    let function = Reflect::get(storage, &method.into())
        .ok()?
        .dyn_into::<Function>()
        .ok()?;
    let args: Array = args.iter().map(|a| JsValue::from_str(a)).collect();
    Reflect::apply(&function, storage, &args).ok()
}

/// The text stored under `key` (empty when nothing is); `None` when storage cannot be used.
pub fn get(key: &str) -> Option<String> {
    let value = call(&storage()?, "getItem", &[key])?;
    Some(value.as_string().unwrap_or_default())
}

/// Stores `value` under `key`; false when storage refused.
pub fn set(key: &str, value: &str) -> bool {
    storage()
        .and_then(|s| call(&s, "setItem", &[key, value]))
        .is_some()
}
