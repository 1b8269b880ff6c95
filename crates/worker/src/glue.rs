//! The browser's side: the worker's message loop, and the search class the page drives on its
//! main thread where a worker cannot start.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use idem_worker::{Reply, Request, Sliced, Worker};

/// The clock a slice is measured with (milliseconds; whole ones are enough for slices of
/// 12 ms and progress every 100 ms).
fn now() -> f64 {
    js_sys::Date::now()
}

/// Serves the page's requests when this module runs as a dedicated worker (nothing otherwise:
/// the page's main thread imports the module for [`Search`]). Says [`Reply::Ready`] once it
/// listens.
pub fn serve() {
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else {
        return;
    };
    let worker = Rc::new(RefCell::new(Worker::new()));
    let post = {
        let scope = scope.clone();
        move |reply: Reply| match serde_wasm_bindgen::to_value(&reply) {
            Ok(value) => {
                let _ = scope.post_message(&value);
            }
            Err(error) => {
                let refused: Reply = Reply::Refused {
                    reason: error.to_string(),
                };
                if let Ok(value) = serde_wasm_bindgen::to_value(&refused) {
                    let _ = scope.post_message(&value);
                }
            }
        }
    };
    let on_message = {
        let post = post.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            match serde_wasm_bindgen::from_value::<Request>(event.data()) {
                Ok(request) => worker.borrow_mut().handle(request, now, &post),
                Err(error) => post(Reply::Refused {
                    reason: error.to_string(),
                }),
            }
        })
    };
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as its scope: so does its handler.
    on_message.forget();
    post(Reply::Ready);
}

/// A whole search on the page's main thread, searched in slices between frames: the fallback
/// where workers cannot start.
#[wasm_bindgen]
pub struct Search {
    sliced: Sliced,
}

#[wasm_bindgen]
impl Search {
    /// A search of `scenario` (a `Scenario` as `serde-wasm-bindgen` writes it) with up to `k`
    /// faults.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario: JsValue, k: u32) -> Result<Search, JsError> {
        let scenario = serde_wasm_bindgen::from_value(scenario)
            .map_err(|e| JsError::new(&format!("search: {e}")))?;
        Ok(Search {
            sliced: Sliced::new(&scenario, k),
        })
    }

    /// Searches for about `ms` milliseconds; true when the search is complete.
    #[wasm_bindgen(js_name = runFor)]
    pub fn run_for(&mut self, ms: f64) -> bool {
        let start = now();
        self.sliced.run_while(|| now() - start < ms)
    }

    /// The report so far (a `Report` as `serde-wasm-bindgen` writes it).
    pub fn report(&self) -> Result<JsValue, JsError> {
        serde_wasm_bindgen::to_value(self.sliced.report())
            .map_err(|e| JsError::new(&format!("search: {e}")))
    }
}
