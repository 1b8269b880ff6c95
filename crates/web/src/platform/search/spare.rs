//! Search workers started ahead (`warm`), so their module is loaded and compiled by the time
//! the student presses Run; and what the page has learnt about starting workers at all.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use idem_worker::Reply;
use leptos::prelude::*;
use leptos::wasm_bindgen::prelude::Closure;
use leptos::wasm_bindgen::{JsCast, JsValue};
use leptos::web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

use super::js::read;
use crate::platform::browser::module_dir;

/// Workers started before a search.
struct Spare {
    workers: Vec<SpareWorker>,
}

struct SpareWorker {
    worker: Worker,
    ready: Rc<Cell<bool>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(JsValue)>,
}

thread_local! {
    /// The workers `warm` started, until a search takes them over.
    static SPARE: RefCell<Option<Spare>> = const { RefCell::new(None) };
    /// How many searches run, in workers or on the main thread (no spare is started meanwhile).
    static SEARCHES: Cell<u32> = const { Cell::new(0) };
    /// Workers could not start on this page (its CSP, a missing file): searches go straight to
    /// the main thread, and nothing starts workers ahead any more.
    static UNAVAILABLE: Cell<bool> = const { Cell::new(false) };
}

/// A search starts (no spare is started while one runs).
pub(super) fn search_started() {
    SEARCHES.set(SEARCHES.get() + 1);
}

/// A search ends.
pub(super) fn search_ended() {
    SEARCHES.set(SEARCHES.get().saturating_sub(1));
}

/// Whether workers could not start on this page.
pub(super) fn unavailable() -> bool {
    UNAVAILABLE.get()
}

/// Workers cannot start on this page: no search will count on them here.
pub(super) fn set_unavailable() {
    UNAVAILABLE.set(true);
}

/// How many workers: one per spare core, at least one.
pub(super) fn worker_count() -> usize {
    let cores = window().navigator().hardware_concurrency();
    (cores as usize).saturating_sub(1).max(1)
}

/// A new search worker (module worker next to `idem-web.js`); `None` when the page may not
/// start one (its CSP, an old browser).
pub(super) fn new_worker() -> Option<Worker> {
    let url = format!("{}idem-worker_loader.js", module_dir());
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let worker = Worker::new_with_options(&url, &options).ok();
    if worker.is_none() {
        set_unavailable();
    }
    worker
}

/// Takes over the workers started ahead, each with whether it said it is ready.
pub(super) fn take() -> Vec<(Worker, bool)> {
    SPARE
        .with_borrow_mut(Option::take)
        .map(|s| {
            s.workers
                .into_iter()
                .map(|w| (w.worker, w.ready.get()))
                .collect()
        })
        .unwrap_or_default()
}

/// Starts the search workers ahead of a search (once: a later call while they wait, or while
/// a search runs, does nothing). A worker that fails to start is dropped, and the search starts its own.
pub fn warm() {
    if SPARE.with_borrow(Option::is_some) || SEARCHES.get() > 0 || unavailable() {
        return;
    }
    let mut workers = Vec::new();
    for _ in 0..worker_count() {
        let Some(worker) = new_worker() else {
            break;
        };
        let ready = Rc::new(Cell::new(false));
        let on_message = {
            let ready = Rc::clone(&ready);
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                if matches!(read(event.data()), Ok(Reply::Ready)) {
                    ready.set(true);
                }
            })
        };
        let on_error = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            // It cannot start: no search will count on workers here.
            set_unavailable();
            if let Some(spare) = SPARE.with_borrow_mut(Option::take) {
                for w in &spare.workers {
                    w.worker.terminate();
                }
                set_timeout(move || drop(spare), std::time::Duration::ZERO);
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        workers.push(SpareWorker {
            worker,
            ready,
            _on_message: on_message,
            _on_error: on_error,
        });
    }
    if !workers.is_empty() {
        SPARE.with_borrow_mut(|s| *s = Some(Spare { workers }));
    }
}

/// Terminates the workers started ahead, if no search took them (the panel that started them
/// is gone).
pub fn cool() {
    if let Some(spare) = SPARE.with_borrow_mut(Option::take) {
        for w in &spare.workers {
            w.worker.terminate();
            w.worker.set_onmessage(None);
            w.worker.set_onerror(None);
        }
        set_timeout(move || drop(spare), std::time::Duration::ZERO);
    }
}
