//! `record()` and `replay(recording, speed)` on a mounted widget's handle (issue 43, item 4).
//! Both return promises answered by the widget's data stream, which comes with the lesson's
//! bundle (`platform/stream.rs`): these bodies only queue the call, so the recorder's and the
//! replay's code is not on the first screen.

use leptos::wasm_bindgen::prelude::wasm_bindgen;
use leptos::wasm_bindgen::JsValue;

use super::api::MountHandle;

#[wasm_bindgen]
impl MountHandle {
    /// A promise of the recording of the student's work so far (text for a link's `replay=`
    /// or a database field; docs/embedding.md, "Record and replay").
    pub fn record(&self) -> JsValue {
        self.queue(0, JsValue::UNDEFINED, JsValue::UNDEFINED)
    }

    /// Replays `recording` in this widget at `speed` (× the recorded times, default 1;
    /// `Infinity`: at once): a promise resolved with `true` once it has ended, rejected with an
    /// `Error` saying why a recording is refused (another version, edited, not a recording).
    pub fn replay(&self, recording: JsValue, speed: JsValue) -> JsValue {
        self.queue(1, recording, speed)
    }
}
