//! "Try every failure" off the page's main thread: a pool of Web Workers running the search
//! worker (`idem-worker`, built by Trunk beside the page), one per spare core
//! (`navigator.hardwareConcurrency − 1`, at least one). Every worker plans the same search; the
//! page hands out its units one at a time to whichever worker is free, shows the totals so far
//! as the workers report them (each at least every 100 ms), and once every unit is in has one
//! worker merge them, the workers that explored the chosen counter-examples rebuild them, and
//! the merging worker finish the report: the report one search gives.
//!
//! Where a worker cannot start (a host page's CSP forbids workers, a browser without module
//! workers, the worker's file missing), the page imports the same module on its main thread and
//! searches in slices of a few milliseconds between animation frames, and says it is slower.
//!
//! Who gets which request and what the page is told is `idem_worker::Coordinator`, tested
//! natively with real workers; here is only the browser's glue (`workers`: the pool and its
//! messages, `spare`: workers started ahead, `main_thread`: the fallback, `js`: the messages as
//! JavaScript values). The messages are `idem_worker`'s `Request` and `Reply`, converted with
//! `serde-wasm-bindgen` on both sides; the page decodes the reports and unit numbers it shows
//! and carries the rest (units' summaries, counter-examples to rebuild) as it came, so it never
//! links the explorer. Stopping (or dropping the [`Search`]) terminates the workers at once and
//! keeps the totals so far.

use idem_core::{Report, Scenario};

#[cfg(target_arch = "wasm32")]
mod js;
#[cfg(target_arch = "wasm32")]
mod main_thread;
#[cfg(target_arch = "wasm32")]
pub mod prevent;
#[cfg(target_arch = "wasm32")]
mod spare;
#[cfg(target_arch = "wasm32")]
mod workers;
#[cfg(target_arch = "wasm32")]
pub use spare::{cool, warm};

/// Where a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// In this many Web Workers.
    Workers(usize),
    /// On the page's main thread, in slices (workers could not start): slower.
    MainThread,
}

/// What a search tells the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// It runs there (again, when it moved to the main thread).
    Started(Mode),
    /// The totals so far.
    Progress(Report),
    /// The report.
    Done(Report),
    /// It could not run at all (not even on the main thread): why.
    Failed(String),
}

/// A search under way, wherever it runs.
pub trait Running {
    /// Stops it at once and returns the totals so far.
    fn stop(&mut self) -> Report;
}

/// Starts a search of a scenario with up to k faults, telling the page how it goes; the page's
/// own is the workers'. Browser tests give theirs (the test runner serves no worker files),
/// provided as context above the page.
#[derive(Clone, Copy)]
pub struct Backend(pub StartFn);

/// How a [`Backend`] starts a search: the scenario, k, and what hears how it goes.
pub type StartFn = fn(&Scenario, u32, Listener) -> Box<dyn Running>;

/// What hears how a search goes.
pub type Listener = Box<dyn Fn(Event)>;

/// A search under way. Dropping it stops it.
pub struct Search(Box<dyn Running>);

impl Search {
    /// Starts a search of `scenario` with up to `k` faults with `backend` (the page's workers
    /// without one); `on` hears how it goes.
    pub fn start(
        backend: Option<Backend>,
        scenario: &Scenario,
        k: u32,
        on: impl Fn(Event) + 'static,
    ) -> Search {
        let Backend(start) = backend.unwrap_or(Backend(in_workers));
        Search(start(scenario, k, Box::new(on)))
    }

    /// Stops the search at once and returns the totals so far.
    pub fn stop(mut self) -> Report {
        self.0.stop()
    }
}

impl Drop for Search {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// The page's searches: in its workers, or on the main thread where they cannot start.
#[cfg(target_arch = "wasm32")]
fn in_workers(scenario: &Scenario, k: u32, on: Listener) -> Box<dyn Running> {
    Box::new(workers::Workers::start(scenario, k, on))
}

/// Natively (unit tests) there is no worker and no module to import: a search says so.
#[cfg(not(target_arch = "wasm32"))]
fn in_workers(_scenario: &Scenario, _k: u32, on: Listener) -> Box<dyn Running> {
    struct Nothing;
    impl Running for Nothing {
        fn stop(&mut self) -> Report {
            Report::default()
        }
    }
    on(Event::Failed("no search outside a browser".to_owned()));
    Box::new(Nothing)
}

/// Natively there is no worker to check a claim in: the page says nothing rather than guess.
#[cfg(not(target_arch = "wasm32"))]
pub mod prevent {
    use idem_core::{Action, Prevention, Scenario};

    /// No check runs natively.
    pub struct Check;

    /// Answers `None` at once.
    pub fn start(
        _scenario: &Scenario,
        _injected: &[(u32, Action)],
        done: impl FnOnce(Option<Prevention>) + 'static,
    ) -> Option<Check> {
        done(None);
        None
    }
}

/// Natively there are no workers to start ahead.
#[cfg(not(target_arch = "wasm32"))]
pub fn warm() {}

/// Natively there are no workers started ahead to let go.
#[cfg(not(target_arch = "wasm32"))]
pub fn cool() {}
