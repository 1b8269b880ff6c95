//! The search's messages as JavaScript values: what the page reads of a worker's reply, what
//! it posts, and the few JavaScript helpers the search needs (a module's export, an error in
//! words).

use idem_worker::{Held, Reply, Request};
use leptos::wasm_bindgen::JsValue;
use leptos::web_sys::{js_sys, Worker};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use wasm_bindgen::prelude::wasm_bindgen;

/// A value the page only passes on (a unit's summary, a rebuilt counter-example): kept as the
/// worker wrote it and written back as is, never decoded into the explorer's types.
#[derive(Clone, Debug)]
pub(super) struct Carried(JsValue);

impl Serialize for Carried {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serde_wasm_bindgen::preserve::serialize(&self.0, serializer)
    }
}

impl<'de> Deserialize<'de> for Carried {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_wasm_bindgen::preserve::deserialize(deserializer).map(Carried)
    }
}

/// A unit's outcome as the page holds it.
pub(super) type Outcome = Held<Carried>;
/// A request as the page writes it.
pub(super) type PageRequest = Request<Outcome, Carried>;
/// A reply as the page reads it.
pub(super) type PageReply = Reply<Outcome, Carried>;

/// Reads a worker's message; `Err` says why it could not be.
pub(super) fn read(data: JsValue) -> Result<PageReply, String> {
    serde_wasm_bindgen::from_value(data).map_err(|e| e.to_string())
}

/// Posts `request` to `worker`; `Err` says why it could not be written.
pub(super) fn post(worker: &Worker, request: &PageRequest) -> Result<(), String> {
    let value = serde_wasm_bindgen::to_value(request).map_err(|e| e.to_string())?;
    worker.post_message(&value).map_err(|e| describe(&e))
}

#[wasm_bindgen]
extern "C" {
    /// `import(url)`: loads the search worker's module on the main thread (the fallback).
    #[wasm_bindgen(js_name = import)]
    pub(super) fn import_module(url: &str) -> js_sys::Promise;
}

/// A property of a JavaScript object (a module's export, a method of the worker's `Search`).
pub(super) fn field(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

/// A JavaScript error in a few words (its message, else its JSON).
pub(super) fn describe(error: &JsValue) -> String {
    field(error, "message")
        .as_string()
        .or_else(|| {
            js_sys::JSON::stringify(error)
                .ok()
                .and_then(|s| s.as_string())
        })
        .unwrap_or_else(|| "unknown error".to_owned())
}
