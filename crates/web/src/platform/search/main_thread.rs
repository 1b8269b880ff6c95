//! The search on the page's main thread, where workers cannot start: the page imports the
//! search worker's module and drives its `Search` class in slices of a few milliseconds, one per
//! animation frame.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use idem_core::{Report, Scenario};
use idem_lesson::panels::explorer::SLICE_MS;
use leptos::prelude::*;
use leptos::wasm_bindgen::{JsCast, JsValue};
use leptos::web_sys::js_sys;

use super::js::{describe, field, import_module};
use super::{Event, Mode};
use crate::platform::browser::module_dir;

/// The main thread's search. Dropping it ends the slices.
pub(super) struct Main {
    state: Rc<RefCell<State>>,
}

struct State {
    on: Rc<dyn Fn(Event)>,
    /// The module's `Search`, once loaded (none again once it is over).
    search: Option<JsValue>,
}

impl Main {
    /// Starts the search of `scenario` with up to `k` faults here; `on` hears how it goes
    /// (first that it runs here).
    pub(super) fn start(scenario: &Scenario, k: u32, on: Rc<dyn Fn(Event)>) -> Main {
        on(Event::Started(Mode::MainThread));
        let state = Rc::new(RefCell::new(State { on, search: None }));
        let weak = Rc::downgrade(&state);
        let scenario = serde_wasm_bindgen::to_value(scenario).unwrap_or(JsValue::NULL);
        let url = format!("{}idem-worker.js", module_dir());
        leptos::task::spawn_local(async move {
            let loaded = async {
                let module = wasm_bindgen_futures::JsFuture::from(import_module(&url)).await?;
                let init: js_sys::Function = field(&module, "default").dyn_into()?;
                let started = init.call0(&JsValue::NULL)?.dyn_into::<js_sys::Promise>()?;
                wasm_bindgen_futures::JsFuture::from(started).await?;
                let class: js_sys::Function = field(&module, "Search").dyn_into()?;
                if weak.strong_count() == 0 {
                    return Ok(JsValue::NULL);
                }
                js_sys::Reflect::construct(&class, &js_sys::Array::of2(&scenario, &k.into()))
            }
            .await;
            let Some(state) = weak.upgrade() else {
                return;
            };
            match loaded {
                Ok(search) if !search.is_null() => {
                    state.borrow_mut().search = Some(search);
                    slice(weak);
                }
                Ok(_) => {}
                Err(error) => {
                    let on = Rc::clone(&state.borrow().on);
                    on(Event::Failed(describe(&error)));
                }
            }
        });
        Main { state }
    }

    /// The totals so far (none once the search is over).
    pub(super) fn report(&self) -> Report {
        self.state
            .borrow()
            .search
            .as_ref()
            .and_then(report_of_search)
            .unwrap_or_default()
    }
}

/// The report of the module's `Search` so far.
fn report_of_search(search: &JsValue) -> Option<Report> {
    let report: js_sys::Function = field(search, "report").dyn_into().ok()?;
    serde_wasm_bindgen::from_value(report.call0(search).ok()?).ok()
}

/// One slice of the search per animation frame, until it is over or dropped.
fn slice(weak: Weak<RefCell<State>>) {
    request_animation_frame(move || {
        let Some(state) = weak.upgrade() else {
            return;
        };
        let Some(search) = state.borrow().search.clone() else {
            return;
        };
        let ran = field(&search, "runFor")
            .dyn_into::<js_sys::Function>()
            .and_then(|f| f.call1(&search, &JsValue::from(SLICE_MS)))
            .map(|v| v.as_bool() == Some(true));
        let report = report_of_search(&search);
        let on = Rc::clone(&state.borrow().on);
        match (ran, report) {
            (Ok(true), Some(report)) if report.done => {
                state.borrow_mut().search = None;
                on(Event::Done(report));
            }
            (Ok(false), Some(report)) => {
                on(Event::Progress(report));
                slice(weak);
            }
            (Err(error), _) => {
                state.borrow_mut().search = None;
                on(Event::Failed(describe(&error)));
            }
            _ => {
                state.borrow_mut().search = None;
                on(Event::Failed(
                    "the search's report could not be read".into(),
                ));
            }
        }
    });
}
