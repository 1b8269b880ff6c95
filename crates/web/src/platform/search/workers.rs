//! The browser's side of a search in workers: the `postMessage` glue around
//! `idem_worker::Coordinator`, which decides every request and what the page is told. Here the
//! workers are started (or taken over from `spare`), their messages read and the coordinator's
//! requests posted; where they fail, the search moves to the main thread (`main_thread`).

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use idem_core::{Report, Scenario};
use idem_worker::{Coordinator, Step};
use leptos::prelude::*;
use leptos::wasm_bindgen::prelude::Closure;
use leptos::wasm_bindgen::{JsCast, JsValue};
use leptos::web_sys::{MessageEvent, Worker};

use super::js::{post, read, Carried, Outcome};
use super::main_thread::Main;
use super::{spare, Event, Mode, Running};

/// How long the workers may take to start before the page searches on its main thread
/// (they load and compile the worker's wasm first; a worker that cannot load says so sooner,
/// with an error).
const START_MS: u64 = 8_000;

/// The coordinator's steps as the page holds the messages.
type PageStep = Step<Outcome, Carried>;

/// A search in the workers (or on the main thread where they cannot start).
pub struct Workers {
    inner: Rc<RefCell<Inner>>,
}

struct Inner {
    on: Rc<dyn Fn(Event)>,
    scenario: Scenario,
    k: u32,
    stopped: bool,
    run: Option<Run>,
}

enum Run {
    /// Boxed: the coordinator's state is large beside the main thread's handle.
    Pool(Box<Pool>),
    Main(Main),
}

/// The workers and the coordinator that drives them.
struct Pool {
    workers: Vec<Slot>,
    coordinator: Coordinator<Outcome, Carried>,
    /// Fires the fallback if the workers have not started in time.
    timer: Option<TimeoutHandle>,
}

/// One worker and its handlers (kept as long as it lives).
struct Slot {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(JsValue)>,
}

impl Workers {
    /// Starts a search of `scenario` with up to `k` faults; `on` hears how it goes.
    pub fn start(scenario: &Scenario, k: u32, on: Box<dyn Fn(Event)>) -> Workers {
        let inner = Rc::new(RefCell::new(Inner {
            on: Rc::from(on),
            scenario: scenario.clone(),
            k,
            stopped: false,
            run: None,
        }));
        spare::search_started();
        if spare::unavailable() || !start_pool(&inner) {
            start_main(&inner);
        }
        Workers { inner }
    }
}

impl Running for Workers {
    /// Stops the search at once (the workers are terminated) and returns the totals so far.
    fn stop(&mut self) -> Report {
        let mut inner = self.inner.borrow_mut();
        if !inner.stopped {
            spare::search_ended();
        }
        inner.stopped = true;
        match inner.run.take() {
            Some(Run::Pool(mut pool)) => {
                let total = pool.coordinator.stop();
                terminate(pool);
                total
            }
            Some(Run::Main(main)) => main.report(),
            None => Report::default(),
        }
    }
}

/// Terminates the workers at once. Their handlers go a task later: this may run inside one of
/// them (the last reply), which must not be dropped while it runs.
fn terminate(pool: Box<Pool>) {
    if let Some(timer) = &pool.timer {
        timer.clear();
    }
    for slot in &pool.workers {
        slot.worker.terminate();
        // Nothing it said before is heard after.
        slot.worker.set_onmessage(None);
        slot.worker.set_onerror(None);
    }
    set_timeout(move || drop(pool), std::time::Duration::ZERO);
}

/// Starts the workers (taking over those started ahead); false when none could be created
/// (the caller searches on the main thread).
fn start_pool(inner: &Rc<RefCell<Inner>>) -> bool {
    let mut spares = spare::take();
    let mut workers = Vec::new();
    let mut ready = Vec::new();
    for index in 0..spare::worker_count() {
        let (worker, is_ready) = match spares.pop() {
            Some(taken) => taken,
            None => match spare::new_worker() {
                Some(worker) => (worker, false),
                None => break,
            },
        };
        let weak = Rc::downgrade(inner);
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let steps = with_pool(&weak, |pool| match read(event.data()) {
                Ok(reply) => pool.coordinator.on_reply(index, reply),
                Err(why) => pool.coordinator.on_unreadable(index, &why),
            });
            told(&weak, steps);
        });
        let weak = Rc::downgrade(inner);
        let on_error = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            let steps = with_pool(&weak, |pool| pool.coordinator.on_error(index));
            told(&weak, steps);
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        workers.push(Slot {
            worker,
            _on_message: on_message,
            _on_error: on_error,
        });
        ready.push(is_ready);
    }
    for (extra, _) in spares {
        extra.terminate();
    }
    if workers.is_empty() {
        return false;
    }
    let count = workers.len();
    let weak = Rc::downgrade(inner);
    let timer = set_timeout_with_handle(
        move || {
            let steps = with_pool(&weak, |pool| pool.coordinator.on_timeout());
            told(&weak, steps);
        },
        std::time::Duration::from_millis(START_MS),
    )
    .ok();
    let on = {
        let mut inner = inner.borrow_mut();
        let coordinator = Coordinator::new(inner.scenario.clone(), inner.k, &ready);
        inner.run = Some(Run::Pool(Box::new(Pool {
            workers,
            coordinator,
            timer,
        })));
        Rc::clone(&inner.on)
    };
    on(Event::Started(Mode::Workers(count)));
    // Workers started ahead and ready plan at once; the others when they say they are ready.
    let weak = Rc::downgrade(inner);
    let steps = with_pool(&weak, |pool| pool.coordinator.start());
    told(&weak, steps);
    true
}

/// Runs `f` on the search's pool, posts the requests it answers, and returns the rest of its
/// steps (nothing when the search is no longer in workers).
fn with_pool(
    weak: &Weak<RefCell<Inner>>,
    f: impl FnOnce(&mut Pool) -> Vec<PageStep>,
) -> Vec<PageStep> {
    let Some(inner) = weak.upgrade() else {
        return Vec::new();
    };
    let mut guard = inner.borrow_mut();
    let Some(Run::Pool(pool)) = &mut guard.run else {
        return Vec::new();
    };
    let mut pending = f(pool);
    let mut rest = Vec::new();
    while !pending.is_empty() {
        for step in std::mem::take(&mut pending) {
            match step {
                Step::Send { worker, request } => {
                    if let Err(why) = post(&pool.workers[worker].worker, &request) {
                        pending.extend(pool.coordinator.on_unreadable(worker, &why));
                    }
                }
                other => rest.push(other),
            }
        }
    }
    rest
}

/// Tells the page what the coordinator said, once the pool is no longer borrowed; at the end
/// of the search the workers are terminated.
fn told(weak: &Weak<RefCell<Inner>>, steps: Vec<PageStep>) {
    let Some(inner) = weak.upgrade() else {
        return;
    };
    let on = Rc::clone(&inner.borrow().on);
    for step in steps {
        match step {
            Step::Send { .. } => {}
            Step::Progress(report) => on(Event::Progress(report)),
            Step::Done(report) => {
                on(Event::Done(report));
                end_pool(&inner);
            }
            Step::Failed(why) => {
                leptos::logging::warn!("idem-lab search: {why}");
                end_pool(&inner);
                on(Event::Failed(why));
            }
            Step::FallBack(why) => {
                leptos::logging::warn!("idem-lab search: {why}");
                fall_back(&inner);
            }
        }
    }
}

fn end_pool(inner: &Rc<RefCell<Inner>>) {
    let taken = inner.borrow_mut().run.take();
    match taken {
        Some(Run::Pool(pool)) => terminate(pool),
        other => inner.borrow_mut().run = other,
    }
}

/// Workers failed (or never started): terminates them and searches on the main thread.
fn fall_back(inner: &Rc<RefCell<Inner>>) {
    {
        let mut guard = inner.borrow_mut();
        if let Some(Run::Pool(pool)) = &guard.run {
            if !pool.coordinator.started() {
                // Not one worker started: this page cannot have them.
                spare::set_unavailable();
            }
        }
        if guard.stopped {
            return;
        }
        match guard.run.take() {
            Some(Run::Pool(pool)) => terminate(pool),
            Some(Run::Main(main)) => {
                // Already here.
                guard.run = Some(Run::Main(main));
                return;
            }
            None => {}
        }
    }
    start_main(inner);
}

/// The main thread's search, in place of the workers.
fn start_main(inner: &Rc<RefCell<Inner>>) {
    let (scenario, k, on) = {
        let inner = inner.borrow();
        (inner.scenario.clone(), inner.k, Rc::clone(&inner.on))
    };
    let main = Main::start(&scenario, k, on);
    inner.borrow_mut().run = Some(Run::Main(main));
}
