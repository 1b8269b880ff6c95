//! "Would have prevented it", asked of a search worker of its own: the check is a search per
//! protection, too long for the page's main thread. One worker per check (started when a
//! broken run ends, terminated once it answers or the run changes); it says `Reply::Ready` when
//! it listens, then gets `idem_worker::Request::Prevent` and answers `Reply::Prevented`
//! (`idem_worker::on_check_reply` reads each reply).

use std::cell::RefCell;
use std::rc::Rc;

use idem_core::{Action, Prevention, Scenario};
use idem_worker::{on_check_reply, CheckStep};
use leptos::wasm_bindgen::prelude::Closure;
use leptos::wasm_bindgen::{JsCast, JsValue};
use leptos::web_sys::{MessageEvent, Worker};

use super::js::{read, PageRequest};
use super::spare::new_worker;

/// What hears the answer, taken once (by the answer or by an error, whichever comes first).
type Done = Rc<RefCell<Option<Box<dyn FnOnce(Option<Prevention>)>>>>;

/// A check under way; dropping it terminates its worker.
pub struct Check {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(JsValue)>,
}

impl Drop for Check {
    fn drop(&mut self) {
        self.worker.terminate();
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
    }
}

/// Starts the check of the run of `scenario` with `injected`; `done` hears the answer once
/// (`None`: no worker could answer, and the page says nothing rather than guess).
pub fn start(
    scenario: &Scenario,
    injected: &[(u32, Action)],
    done: impl FnOnce(Option<Prevention>) + 'static,
) -> Option<Check> {
    // Whatever fails before a worker listens is told to `done` too: the panel would otherwise
    // say "checking" for ever.
    let asked = serde_wasm_bindgen::to_value(&PageRequest::Prevent {
        scenario: scenario.clone(),
        injected: injected.to_vec(),
    })
    .ok();
    // A worker is started only for a request that could be written.
    let Some((request, worker)) = asked.and_then(|a| Some((a, new_worker()?))) else {
        done(None);
        return None;
    };
    let done: Done = Rc::new(RefCell::new(Some(Box::new(done))));
    let answer = {
        let done = Rc::clone(&done);
        move |prevention: Option<Prevention>| {
            if let Some(done) = done.borrow_mut().take() {
                done(prevention);
            }
        }
    };
    let on_message = {
        let worker = worker.clone();
        let answer = answer.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            match read(event.data()).map(on_check_reply) {
                Ok(CheckStep::Ask) => {
                    let _ = worker.post_message(&request);
                }
                Ok(CheckStep::Answer(prevention)) => answer(prevention),
                Err(_) => answer(None),
            }
        })
    };
    let on_error = Closure::<dyn FnMut(JsValue)>::new(move |_| answer(None));
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Some(Check {
        worker,
        _on_message: on_message,
        _on_error: on_error,
    })
}
