//! The browser's side of the search: the worker pool, its messages, and the main thread's
//! fallback (see the parent module).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::{Rc, Weak};

use idem_core::{Report, Scenario};

use super::{Event, Mode, Running};
use leptos::prelude::*;
use leptos::wasm_bindgen::prelude::Closure;
use leptos::wasm_bindgen::{JsCast, JsValue};
use leptos::web_sys::{js_sys, MessageEvent, Worker, WorkerOptions, WorkerType};
use wasm_bindgen::prelude::wasm_bindgen;

use crate::platform::browser::module_dir;

use idem_lesson::panels::explorer::SLICE_MS;

/// How long the workers may take to start before the page searches on its main thread
/// (they load and compile the worker's wasm first; a worker that cannot load says so sooner,
/// with an error).
const START_MS: i32 = 8_000;

#[wasm_bindgen]
extern "C" {
    /// `import(url)`: loads the search worker's module on the main thread (the fallback).
    #[wasm_bindgen(js_name = import)]
    fn import_module(url: &str) -> js_sys::Promise;
}

/// A search in the workers (or on the main thread where they cannot start).
pub struct Workers {
    inner: Rc<RefCell<Inner>>,
}

struct Inner {
    on: Rc<dyn Fn(Event)>,
    scenario: JsValue,
    k: u32,
    stopped: bool,
    run: Option<Run>,
}

enum Run {
    Pool(Pool),
    Main(Main),
}

/// The workers and where the search is.
struct Pool {
    workers: Vec<Slot>,
    /// Every worker's unit count, once planned.
    units: Option<u32>,
    /// The next unit to hand out.
    next: u32,
    /// The units explored: (worker, outcome as it came).
    done: Vec<(usize, u32, JsValue)>,
    /// The totals of the units explored, and of those under way (by unit).
    finished: Report,
    live: BTreeMap<u32, Report>,
    phase: Phase,
    /// Fires the fallback if the workers have not started in time.
    timer: Option<TimeoutHandle>,
}

/// One worker, its handlers (kept as long as it lives) and what it is doing.
struct Slot {
    worker: Worker,
    ready: bool,
    planned: bool,
    busy: Option<u32>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(JsValue)>,
}

/// Where the search is. The merge, and then the finish, go to a worker that has planned (the
/// one that answered last): a worker still loading would drop a message sent before it listens.
enum Phase {
    Exploring,
    /// Worker `merger` merges.
    Merging {
        merger: usize,
    },
    /// Counter-examples being rebuilt: one place per wanted, and who still owes which.
    Rebuilding {
        merger: usize,
        rebuilt: Vec<Option<JsValue>>,
        asked: Vec<(usize, Vec<usize>)>,
    },
    Finishing,
}

/// The main thread's search: the worker's module and its `Search`.
struct Main {
    search: Option<JsValue>,
}

impl Workers {
    /// Starts a search of `scenario` with up to `k` faults; `on` hears how it goes.
    pub fn start(scenario: &Scenario, k: u32, on: Box<dyn Fn(Event)>) -> Workers {
        let scenario = serde_wasm_bindgen::to_value(scenario).unwrap_or(JsValue::NULL);
        let inner = Rc::new(RefCell::new(Inner {
            on: Rc::from(on),
            scenario,
            k,
            stopped: false,
            run: None,
        }));
        SEARCHES.set(SEARCHES.get() + 1);
        if UNAVAILABLE.get() || !start_pool(&inner) {
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
            SEARCHES.set(SEARCHES.get().saturating_sub(1));
        }
        inner.stopped = true;
        match inner.run.take() {
            Some(Run::Pool(pool)) => {
                let mut total = pool.finished.clone();
                for report in pool.live.values() {
                    total.add(report);
                }
                terminate(pool);
                total
            }
            Some(Run::Main(main)) => main
                .search
                .as_ref()
                .and_then(report_of_search)
                .unwrap_or_default(),
            None => Report::default(),
        }
    }
}

/// Terminates the workers at once. Their handlers go a task later: this may run inside one of
/// them (the last reply), which must not be dropped while it runs.
fn terminate(pool: Pool) {
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

/// How many workers: one per spare core, at least one.
fn worker_count() -> usize {
    let cores = window().navigator().hardware_concurrency();
    (cores as usize).saturating_sub(1).max(1)
}

/// Starts the workers; false when none could be created (the caller searches on the main
/// thread).
fn start_pool(inner: &Rc<RefCell<Inner>>) -> bool {
    // Workers started ahead (`warm`) are taken over, with whether they said they are ready.
    let mut spare: Vec<(Worker, bool)> = SPARE
        .with_borrow_mut(Option::take)
        .map(|s| {
            s.workers
                .into_iter()
                .map(|w| (w.worker, w.ready.get()))
                .collect()
        })
        .unwrap_or_default();
    let mut workers = Vec::new();
    for index in 0..worker_count() {
        let (worker, ready) = match spare.pop() {
            Some(taken) => taken,
            None => match new_worker() {
                Some(worker) => (worker, false),
                None => break,
            },
        };
        let weak = Rc::downgrade(inner);
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            on_reply(&weak, index, event.data());
        });
        let weak = Rc::downgrade(inner);
        let on_error = Closure::<dyn FnMut(JsValue)>::new(move |_| fall_back(&weak));
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        workers.push(Slot {
            worker,
            ready,
            planned: false,
            busy: None,
            _on_message: on_message,
            _on_error: on_error,
        });
    }
    for (extra, _) in spare {
        extra.terminate();
    }
    if workers.is_empty() {
        return false;
    }
    let count = workers.len();
    let weak = Rc::downgrade(inner);
    let timer = set_timeout_with_handle(
        move || {
            let started = weak.upgrade().is_some_and(|inner| {
                matches!(&inner.borrow().run, Some(Run::Pool(p)) if p.workers.iter().any(|w| w.ready))
            });
            if !started {
                fall_back(&weak);
            }
        },
        std::time::Duration::from_millis(START_MS as u64),
    )
    .ok();
    let on = {
        let mut inner = inner.borrow_mut();
        inner.run = Some(Run::Pool(Pool {
            workers,
            units: None,
            next: 0,
            done: Vec::new(),
            finished: empty_report(),
            live: BTreeMap::new(),
            phase: Phase::Exploring,
            timer,
        }));
        Rc::clone(&inner.on)
    };
    on(Event::Started(Mode::Workers(count)));
    // Workers started ahead and ready plan at once; the others when they say they are ready.
    let mut guard = inner.borrow_mut();
    let Inner {
        scenario, k, run, ..
    } = &mut *guard;
    if let Some(Run::Pool(pool)) = run {
        for slot in pool.workers.iter().filter(|w| w.ready) {
            let _ = slot.worker.post_message(&plan_message(scenario, *k));
        }
    }
    true
}

/// A new search worker (module worker next to `idem-web.js`); `None` when the page may not
/// start one (its CSP, an old browser).
pub(super) fn new_worker() -> Option<Worker> {
    let url = format!("{}idem-worker_loader.js", module_dir());
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let worker = Worker::new_with_options(&url, &options).ok();
    if worker.is_none() {
        UNAVAILABLE.set(true);
    }
    worker
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

fn plan_message(scenario: &JsValue, k: u32) -> JsValue {
    message(
        "plan",
        &[("scenario", scenario.clone()), ("k", JsValue::from(k))],
    )
}

/// Workers started before a search, so their module is loaded and compiled by the time the
/// student presses Run.
struct Spare {
    workers: Vec<SpareWorker>,
}

struct SpareWorker {
    worker: Worker,
    ready: Rc<std::cell::Cell<bool>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(JsValue)>,
}

thread_local! {
    /// The workers `warm` started, until a search takes them over.
    static SPARE: RefCell<Option<Spare>> = const { RefCell::new(None) };
    /// How many searches run, in workers or on the main thread (no spare is started meanwhile).
    static SEARCHES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// Workers could not start on this page (its CSP, a missing file): searches go straight to
    /// the main thread, and nothing starts workers ahead any more.
    static UNAVAILABLE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Starts the search workers ahead of a search (once: a later call while they wait, or while
/// a search runs, does nothing). A worker that fails to start is dropped, and the search starts its own.
pub fn warm() {
    if SPARE.with_borrow(Option::is_some) || SEARCHES.get() > 0 || UNAVAILABLE.get() {
        return;
    }
    let mut workers = Vec::new();
    for _ in 0..worker_count() {
        let Some(worker) = new_worker() else {
            break;
        };
        let ready = Rc::new(std::cell::Cell::new(false));
        let on_message = {
            let ready = Rc::clone(&ready);
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                if field(&event.data(), "type").as_string().as_deref() == Some("ready") {
                    ready.set(true);
                }
            })
        };
        let on_error = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            // It cannot start: no search will count on workers here.
            UNAVAILABLE.set(true);
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

fn empty_report() -> Report {
    Report {
        by_invariant: idem_core::Invariant::ALL.iter().map(|i| (*i, 0)).collect(),
        ..Report::default()
    }
}

/// A plain object `{ type, ...fields }`.
pub(super) fn message(kind: &str, fields: &[(&str, JsValue)]) -> JsValue {
    let object = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&object, &"type".into(), &kind.into());
    for (key, value) in fields {
        let _ = js_sys::Reflect::set(&object, &(*key).into(), value);
    }
    object.into()
}

pub(super) fn field(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

fn report_of(value: &JsValue) -> Option<Report> {
    serde_wasm_bindgen::from_value(value.clone()).ok()
}

/// What the workers say, in order.
fn on_reply(weak: &Weak<RefCell<Inner>>, index: usize, data: JsValue) {
    let Some(inner) = weak.upgrade() else {
        return;
    };
    let kind = field(&data, "type").as_string().unwrap_or_default();
    let mut events = Vec::new();
    let mut failed: Option<String> = None;
    let mut lost = false;
    {
        let mut guard = inner.borrow_mut();
        let Inner {
            scenario, k, run, ..
        } = &mut *guard;
        let Some(Run::Pool(pool)) = run else {
            return;
        };
        match kind.as_str() {
            "ready" => {
                pool.workers[index].ready = true;
                let _ = pool.workers[index]
                    .worker
                    .post_message(&plan_message(scenario, *k));
            }
            "planned" => {
                let units = field(&data, "units").as_f64().unwrap_or(0.0) as u32;
                pool.units = Some(units);
                pool.workers[index].planned = true;
                dispatch(pool, index);
                if units == 0 && matches!(pool.phase, Phase::Exploring) {
                    merge(pool, index);
                }
            }
            "progress" => {
                let unit = field(&data, "unit").as_f64().unwrap_or(0.0) as u32;
                if let Some(report) = report_of(&field(&data, "report")) {
                    pool.live.insert(unit, report);
                    events.push(Event::Progress(totals(pool)));
                }
            }
            "done" => {
                let outcome = field(&data, "outcome");
                let unit = field(&outcome, "unit").as_f64().unwrap_or(0.0) as u32;
                pool.live.remove(&unit);
                if let Some(report) = report_of(&field(&outcome, "report")) {
                    pool.finished.add(&report);
                }
                // The merge adds up the units' work but needs none of their counter-examples
                // found so far (the bulk of what would be passed on).
                let _ = js_sys::Reflect::delete_property(
                    field(&outcome, "report").unchecked_ref::<js_sys::Object>(),
                    &"shortest".into(),
                );
                pool.done.push((index, unit, outcome));
                pool.workers[index].busy = None;
                events.push(Event::Progress(totals(pool)));
                dispatch(pool, index);
                if pool.units == Some(pool.done.len() as u32) {
                    merge(pool, index);
                }
            }
            "merged" => rebuild(pool, field(&data, "merged")),
            "rebuilt" => {
                let answers = js_sys::Array::from(&field(&data, "rebuilt"));
                if let Phase::Rebuilding {
                    merger,
                    rebuilt,
                    asked,
                } = &mut pool.phase
                {
                    let merger = *merger;
                    if let Some(at) = asked.iter().position(|(w, _)| *w == index) {
                        let (_, places) = asked.remove(at);
                        for (place, answer) in places.into_iter().zip(answers.iter()) {
                            rebuilt[place] = Some(answer);
                        }
                    }
                    if asked.is_empty() {
                        let all: js_sys::Array = rebuilt
                            .iter()
                            .map(|r| r.clone().unwrap_or(JsValue::NULL))
                            .collect();
                        finish(pool, merger, all.into());
                    }
                }
            }
            "finished" => match report_of(&field(&data, "report")) {
                Some(report) => events.push(Event::Done(report)),
                None => failed = Some("the search's report could not be read".to_owned()),
            },
            other => {
                let reason = field(&data, "reason").as_string().unwrap_or_default();
                leptos::logging::warn!("idem-lab search worker {index}: {other} {reason}");
                failed = Some(format!("the search worker answered {other}: {reason}"));
            }
        }
        // Once units are in, a failure is said, not searched again from nothing.
        if failed.is_some() && !pool.done.is_empty() {
            lost = true;
        }
    }
    let on = Rc::clone(&inner.borrow().on);
    let done = events.iter().any(|e| matches!(e, Event::Done(_)));
    for event in events {
        on(event);
    }
    if done {
        if let Some(Run::Pool(pool)) = inner.borrow_mut().run.take() {
            terminate(pool);
        }
    } else if let Some(why) = failed {
        if lost {
            if let Some(Run::Pool(pool)) = inner.borrow_mut().run.take() {
                terminate(pool);
            }
            on(Event::Failed(why));
        } else {
            // Nothing explored yet: search here instead.
            fall_back(weak);
        }
    }
}

/// Hands worker `index` the next unit, if it is free and one is left.
fn dispatch(pool: &mut Pool, index: usize) {
    let Some(units) = pool.units else {
        return;
    };
    let slot = &mut pool.workers[index];
    if slot.busy.is_some() || !slot.planned || pool.next >= units {
        return;
    }
    let unit = pool.next;
    pool.next += 1;
    slot.busy = Some(unit);
    let _ = slot
        .worker
        .post_message(&message("unit", &[("unit", JsValue::from(unit))]));
}

/// The totals so far: the units explored and those under way.
fn totals(pool: &Pool) -> Report {
    let mut total = pool.finished.clone();
    for report in pool.live.values() {
        total.add(report);
    }
    total
}

/// Worker `merger` (one that has planned) merges every unit's outcome.
fn merge(pool: &mut Pool, merger: usize) {
    pool.phase = Phase::Merging { merger };
    let outcomes: js_sys::Array = pool.done.iter().map(|(_, _, o)| o.clone()).collect();
    let _ = pool.workers[merger]
        .worker
        .post_message(&message("merge", &[("outcomes", outcomes.into())]));
}

/// Asks the workers that explored the merge's chosen units to rebuild their counter-examples.
fn rebuild(pool: &mut Pool, merged: JsValue) {
    let merger = match pool.phase {
        Phase::Merging { merger } => merger,
        _ => return,
    };
    let wanted = js_sys::Array::from(&field(&merged, "wanted"));
    let mut asked: Vec<(usize, Vec<usize>, js_sys::Array)> = Vec::new();
    for (place, w) in wanted.iter().enumerate() {
        let unit = field(&w, "unit").as_f64().unwrap_or(-1.0) as u32;
        let owner = pool
            .done
            .iter()
            .find(|(_, u, _)| *u == unit)
            .map_or(merger, |(w, _, _)| *w);
        match asked.iter_mut().find(|(o, _, _)| *o == owner) {
            Some((_, places, list)) => {
                places.push(place);
                list.push(&w);
            }
            None => asked.push((owner, vec![place], js_sys::Array::of1(&w))),
        }
    }
    if asked.is_empty() {
        return finish(pool, merger, js_sys::Array::new().into());
    }
    for (owner, _, list) in &asked {
        let _ = pool.workers[*owner]
            .worker
            .post_message(&message("rebuild", &[("wanted", list.clone().into())]));
    }
    pool.phase = Phase::Rebuilding {
        merger,
        rebuilt: vec![None; wanted.length() as usize],
        asked: asked.into_iter().map(|(o, p, _)| (o, p)).collect(),
    };
}

fn finish(pool: &mut Pool, merger: usize, rebuilt: JsValue) {
    pool.phase = Phase::Finishing;
    let _ = pool.workers[merger]
        .worker
        .post_message(&message("finish", &[("rebuilt", rebuilt)]));
}

/// Workers failed (or never started): terminates them and searches on the main thread.
fn fall_back(weak: &Weak<RefCell<Inner>>) {
    if let Some(inner) = weak.upgrade() {
        if let Some(Run::Pool(pool)) = &inner.borrow().run {
            if !pool.workers.iter().any(|w| w.ready) {
                // Not one worker started: this page cannot have them.
                UNAVAILABLE.set(true);
            }
        }
    }
    let Some(inner) = weak.upgrade() else {
        return;
    };
    {
        let mut guard = inner.borrow_mut();
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
    start_main(&inner);
}

/// The main thread's search: imports the worker's module, then searches in slices.
fn start_main(inner: &Rc<RefCell<Inner>>) {
    inner.borrow_mut().run = Some(Run::Main(Main { search: None }));
    let on = Rc::clone(&inner.borrow().on);
    on(Event::Started(Mode::MainThread));
    let weak = Rc::downgrade(inner);
    let url = format!("{}idem-worker.js", module_dir());
    leptos::task::spawn_local(async move {
        let loaded = async {
            let module = wasm_bindgen_futures::JsFuture::from(import_module(&url)).await?;
            let init: js_sys::Function = field(&module, "default").dyn_into()?;
            let started = init.call0(&JsValue::NULL)?.dyn_into::<js_sys::Promise>()?;
            wasm_bindgen_futures::JsFuture::from(started).await?;
            let class: js_sys::Function = field(&module, "Search").dyn_into()?;
            let Some(inner) = weak.upgrade() else {
                return Ok(JsValue::NULL);
            };
            let (scenario, k) = {
                let inner = inner.borrow();
                (inner.scenario.clone(), inner.k)
            };
            js_sys::Reflect::construct(&class, &js_sys::Array::of2(&scenario, &k.into()))
        }
        .await;
        let Some(inner) = weak.upgrade() else {
            return;
        };
        match loaded {
            Ok(search) if !search.is_null() => {
                if let Some(Run::Main(main)) = &mut inner.borrow_mut().run {
                    main.search = Some(search);
                }
                slice(weak);
            }
            Ok(_) => {}
            Err(error) => {
                let on = Rc::clone(&inner.borrow().on);
                let why = describe(&error);
                on(Event::Failed(why));
            }
        }
    });
}

/// The report of the main thread's `Search` so far.
fn report_of_search(search: &JsValue) -> Option<Report> {
    let report: js_sys::Function = field(search, "report").dyn_into().ok()?;
    report_of(&report.call0(search).ok()?)
}

/// One slice of the main thread's search per animation frame.
fn slice(weak: Weak<RefCell<Inner>>) {
    request_animation_frame(move || {
        let Some(inner) = weak.upgrade() else {
            return;
        };
        let search = match &inner.borrow().run {
            Some(Run::Main(Main {
                search: Some(search),
            })) => search.clone(),
            _ => return,
        };
        let ran = field(&search, "runFor")
            .dyn_into::<js_sys::Function>()
            .and_then(|f| f.call1(&search, &JsValue::from(SLICE_MS)))
            .map(|v| v.as_bool() == Some(true));
        let report = report_of_search(&search);
        let on = Rc::clone(&inner.borrow().on);
        match (ran, report) {
            (Ok(true), Some(report)) if report.done => {
                inner.borrow_mut().run = None;
                on(Event::Done(report));
            }
            (Ok(false), Some(report)) => {
                on(Event::Progress(report));
                slice(weak);
            }
            (Err(error), _) => {
                inner.borrow_mut().run = None;
                on(Event::Failed(describe(&error)));
            }
            _ => {
                inner.borrow_mut().run = None;
                on(Event::Failed(
                    "the search's report could not be read".into(),
                ));
            }
        }
    });
}

/// A JavaScript error in a few words (its message, else its JSON).
fn describe(error: &JsValue) -> String {
    field(error, "message")
        .as_string()
        .or_else(|| {
            js_sys::JSON::stringify(error)
                .ok()
                .and_then(|s| s.as_string())
        })
        .unwrap_or_else(|| "unknown error".to_owned())
}
