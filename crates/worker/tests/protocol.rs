//! The search in workers played natively: the page's real [`Coordinator`] drives real
//! [`Worker`]s, every message through JSON both ways (what crosses to a worker must be plain
//! data), the page holding units' outcomes and counter-examples as it does in the browser (a
//! [`Held`] outcome, values it only carries). Requests are delivered in the order they are
//! posted, workers taking turns, as a pool of workers answers; a worker may start late, fail,
//! or be stopped. The report equals a single search's.

use std::collections::{BTreeMap, VecDeque};

use idem_core::{Bounds, Explorer, Report, Scenario, UnitOutcome};
use idem_worker::{
    on_check_reply, CheckStep, Coordinator, Explored, Held, Reply, Request, Sliced, Step, Worker,
};
use serde_json::Value;

/// The page's view of the messages: a unit's outcome held, a counter-example carried.
type PageRequest = Request<Held<Value>, Value>;
type PageReply = Reply<Held<Value>, Value>;
type PageStep = Step<Held<Value>, Value>;

/// `value` through JSON, read as `T` (one side writes, the other reads).
fn wire<T: serde::de::DeserializeOwned>(value: impl serde::Serialize) -> T {
    let text = serde_json::to_string(&value).expect("serialises");
    serde_json::from_str(&text).expect("deserialises")
}

/// Sends `request` to `worker` and returns its replies as the page reads them. The clock
/// advances 30 ms each time it is read, so a long unit reports progress.
fn ask(worker: &mut Worker, request: PageRequest) -> Vec<PageReply> {
    let clock = std::cell::Cell::new(0.0);
    let mut replies = Vec::new();
    worker.handle(
        wire(request),
        || {
            clock.set(clock.get() + 30.0);
            clock.get()
        },
        |r: Reply| replies.push(wire(r)),
    );
    replies
}

/// The page with its workers, and what it saw.
struct Page {
    coordinator: Coordinator<Held<Value>, Value>,
    workers: Vec<Worker>,
    /// Requests posted and not yet delivered, in order.
    posted: VecDeque<(usize, PageRequest)>,
    /// Which worker explored which unit, and which worker was asked to rebuild which units.
    explored: BTreeMap<u32, usize>,
    rebuilds: Vec<(usize, Vec<u32>)>,
    /// What the page was told, in order (progress, then the end).
    told: Vec<PageStep>,
    progress_replies: usize,
}

impl Page {
    /// A page with `n` workers, those in `ready` started ahead and ready.
    fn new(scenario: &Scenario, k: u32, n: usize, ready: &[usize]) -> Page {
        let flags: Vec<bool> = (0..n).map(|w| ready.contains(&w)).collect();
        let mut page = Page {
            coordinator: Coordinator::new(scenario.clone(), k, &flags),
            workers: (0..n).map(|_| Worker::new()).collect(),
            posted: VecDeque::new(),
            explored: BTreeMap::new(),
            rebuilds: Vec::new(),
            told: Vec::new(),
            progress_replies: 0,
        };
        let steps = page.coordinator.start();
        page.apply(steps);
        page
    }

    fn apply(&mut self, steps: Vec<PageStep>) {
        for step in steps {
            match step {
                Step::Send { worker, request } => self.posted.push_back((worker, request)),
                told => self.told.push(told),
            }
        }
    }

    /// Worker `worker` says it is ready (it has loaded).
    fn ready(&mut self, worker: usize) {
        let steps = self.coordinator.on_reply(worker, Reply::Ready);
        self.apply(steps);
    }

    /// Delivers the next request posted and hands the coordinator every reply; false when
    /// nothing is left to deliver.
    fn deliver(&mut self) -> bool {
        let Some((worker, request)) = self.posted.pop_front() else {
            return false;
        };
        if let Request::Rebuild { wanted } = &request {
            self.rebuilds
                .push((worker, wanted.iter().map(|w| w.unit).collect()));
        }
        for reply in ask(&mut self.workers[worker], request) {
            match &reply {
                Reply::Done { outcome } => {
                    self.explored.insert(outcome.unit, worker);
                }
                Reply::Progress { .. } => self.progress_replies += 1,
                _ => {}
            }
            let steps = self.coordinator.on_reply(worker, reply);
            self.apply(steps);
        }
        true
    }

    fn run(&mut self) {
        while self.deliver() {}
    }

    /// The last thing the page was told.
    fn end(&self) -> &PageStep {
        self.told.last().expect("the page was told something")
    }

    fn report(&self) -> Report {
        match self.end() {
            Step::Done(report) => report.clone(),
            other => panic!("the search did not finish: {other:?}"),
        }
    }
}

fn without_work(report: &Report) -> Report {
    Report {
        states: 0,
        steps: 0,
        ..report.clone()
    }
}

fn single(scenario: &Scenario, k: u32) -> Report {
    Explorer::new(scenario, Bounds::faults(k))
        .run_to_end()
        .clone()
}

/// Every design: two workers that load after the search starts (as fresh workers do) give the
/// single search's report, each counter-example rebuilt by the worker that explored its unit,
/// the totals shown growing as units come in.
#[test]
fn two_workers_give_the_single_search_s_report() {
    let mut progressed = 0;
    for id in [
        "naive",
        "key",
        "cas",
        "counter",
        "scope",
        "lease-expiry",
        "fully-protected",
    ] {
        let scenario = Scenario::by_id(id).expect("a scenario");
        let mut page = Page::new(&scenario, 2, 2, &[]);
        assert!(
            page.posted.is_empty(),
            "{id}: nobody is asked before it listens"
        );
        page.ready(0);
        page.ready(1);
        page.run();
        let report = page.report();
        assert!(report.done, "{id}");
        assert_eq!(
            without_work(&report),
            without_work(&single(&scenario, 2)),
            "{id}"
        );
        for (worker, units) in &page.rebuilds {
            for unit in units {
                assert_eq!(page.explored.get(unit), Some(worker), "{id}: unit {unit}");
            }
        }
        let shown: Vec<u64> = page
            .told
            .iter()
            .filter_map(|s| match s {
                Step::Progress(r) => Some(r.runs),
                _ => None,
            })
            .collect();
        assert!(shown.windows(2).all(|w| w[0] <= w[1]), "{id}: {shown:?}");
        assert!(!page.coordinator.totals().done);
        progressed += page.progress_replies;
    }
    assert!(progressed > 0, "a long unit reports its progress");
}

/// Workers started ahead that are ready plan at once; one that loads late joins the search
/// and takes the units left; the report is the same.
#[test]
fn a_late_worker_joins_and_the_report_is_the_same() {
    let scenario = Scenario::by_id("key").expect("key");
    let mut page = Page::new(&scenario, 2, 3, &[0]);
    assert!(matches!(
        page.posted.front(),
        Some((0, Request::Plan { .. }))
    ));
    // Worker 0 explores a few units alone; then worker 2 loads (worker 1 never does).
    for _ in 0..4 {
        page.deliver();
    }
    page.ready(2);
    page.run();
    assert_eq!(
        without_work(&page.report()),
        without_work(&single(&scenario, 2))
    );
    assert!(page.explored.values().any(|w| *w == 0));
    assert!(
        page.explored.values().any(|w| *w == 2),
        "{:?}",
        page.explored
    );
    assert!(page.explored.values().all(|w| *w != 1));
}

/// A worker that fails before any unit is in sends the search to the main thread; one whose
/// request is refused after units are in is said to fail (its units are not searched again).
/// Either way nothing more is asked or told.
#[test]
fn a_failed_worker_falls_back_or_fails() {
    let scenario = Scenario::by_id("key").expect("key");
    let mut page = Page::new(&scenario, 2, 2, &[0, 1]);
    let steps = page.coordinator.on_error(1);
    assert!(matches!(steps.as_slice(), [Step::FallBack(_)]), "{steps:?}");
    assert!(page.coordinator.is_over());
    assert!(page
        .coordinator
        .on_reply(0, Reply::Planned { units: 3 })
        .is_empty());
    assert!(page.coordinator.on_error(0).is_empty());

    let mut page = Page::new(&scenario, 2, 2, &[0, 1]);
    while page.explored.is_empty() {
        assert!(page.deliver());
    }
    let steps = page.coordinator.on_reply(
        1,
        Reply::Refused {
            reason: "no plan".into(),
        },
    );
    match steps.as_slice() {
        [Step::Failed(why)] => assert!(why.contains("no plan"), "{why}"),
        other => panic!("{other:?}"),
    }
    page.posted.clear();
    assert!(page.coordinator.on_reply(0, Reply::Ready).is_empty());

    // A message the page could not read counts as a refusal.
    let mut page = Page::new(&scenario, 2, 1, &[0]);
    let steps = page.coordinator.on_unreadable(0, "not a reply");
    assert!(matches!(steps.as_slice(), [Step::FallBack(_)]), "{steps:?}");
}

/// The start-up timer sends the search to the main thread only when no worker said it is
/// ready.
#[test]
fn the_start_timer_falls_back_only_without_a_ready_worker() {
    let scenario = Scenario::by_id("key").expect("key");
    let mut page = Page::new(&scenario, 1, 2, &[]);
    assert!(!page.coordinator.started());
    assert!(matches!(
        page.coordinator.on_timeout().as_slice(),
        [Step::FallBack(_)]
    ));
    let mut page = Page::new(&scenario, 1, 2, &[]);
    page.ready(1);
    assert!(page.coordinator.started());
    assert!(page.coordinator.on_timeout().is_empty());
    page.run();
    assert_eq!(
        without_work(&page.report()),
        without_work(&single(&scenario, 1))
    );
}

/// Stop keeps the totals so far (the units explored and those under way) and ends the search:
/// a reply that comes after is not heard.
#[test]
fn stop_keeps_the_totals_so_far_and_hears_nothing_after() {
    let scenario = Scenario::by_id("naive").expect("naive");
    let mut page = Page::new(&scenario, 2, 2, &[0, 1]);
    while page.explored.len() < 3 {
        assert!(page.deliver());
    }
    let last_shown = page
        .told
        .iter()
        .rev()
        .find_map(|s| match s {
            Step::Progress(r) => Some(r.clone()),
            _ => None,
        })
        .expect("progress was shown");
    let totals = page.coordinator.stop();
    assert_eq!(totals, last_shown);
    assert!(totals.runs > 0 && !totals.done);
    assert!(page.coordinator.is_over());
    let (worker, request) = page.posted.pop_front().expect("a unit was handed out");
    for reply in ask(&mut page.workers[worker], request) {
        assert!(page.coordinator.on_reply(worker, reply).is_empty());
    }
}

/// What the page holds of a unit's outcome reads back as the outcome it came as, and without
/// its counter-examples merges the same (the merge needs none of them).
#[test]
fn a_held_outcome_is_the_unit_outcome_it_came_as() {
    let scenario = Scenario::by_id("naive").expect("naive");
    let mut worker = Worker::new();
    let mut outcomes: Vec<UnitOutcome> = Vec::new();
    let mut raw = Vec::new();
    worker.handle(Request::Plan { scenario, k: 2 }, || 0.0, |r| raw.push(r));
    let Some(Reply::Planned { units }) = raw.pop() else {
        panic!("planned");
    };
    for unit in 0..units {
        worker.handle(
            Request::Unit { unit },
            || 0.0,
            |r| {
                if let Reply::Done { outcome } = r {
                    outcomes.push(outcome);
                }
            },
        );
    }
    assert!(outcomes.iter().any(|o| !o.report.shortest.is_empty()));
    let mut held: Vec<Held<Value>> = outcomes.iter().map(wire).collect();
    let back: Vec<UnitOutcome> = held.iter().map(wire).collect();
    assert_eq!(back, outcomes);
    for h in &mut held {
        h.lighten();
        assert!(h.report().shortest.is_empty());
    }
    let mut merges = Vec::new();
    for outcomes in [outcomes, held.iter().map(wire).collect()] {
        let mut raw = Vec::new();
        worker.handle(Request::Merge { outcomes }, || 0.0, |r| raw.push(r));
        merges.push(raw);
    }
    assert_eq!(merges[0], merges[1]);
    assert!(matches!(merges[0].as_slice(), [Reply::Merged { wanted }] if !wanted.is_empty()));
}

#[test]
fn a_request_out_of_turn_is_refused_not_panicked_on() {
    let mut w = Worker::new();
    for request in [
        Request::Unit { unit: 0 },
        Request::Merge {
            outcomes: Vec::new(),
        },
        Request::Rebuild { wanted: Vec::new() },
        Request::Finish {
            rebuilt: Vec::new(),
        },
    ] {
        assert!(matches!(
            ask(&mut w, request).as_slice(),
            [Reply::Refused { .. }]
        ));
    }
    let scenario = Scenario::by_id("key").expect("key");
    ask(&mut w, Request::Plan { scenario, k: 1 });
    assert!(matches!(
        ask(&mut w, Request::Unit { unit: 10_000 }).as_slice(),
        [Reply::Refused { .. }]
    ));
}

#[test]
fn the_main_thread_s_sliced_search_gives_the_same_report() {
    let scenario = Scenario::by_id("key").expect("key");
    let mut sliced = Sliced::new(&scenario, 2);
    let mut slices = 0;
    while !sliced.run_while({
        let mut n = 0;
        move || {
            n += 1;
            n < 50
        }
    }) {
        slices += 1;
    }
    assert!(slices > 1, "it took several slices");
    assert_eq!(sliced.report(), &single(&scenario, 2));
}

/// "Would have prevented it" is asked of a worker with no plan once it is ready, through JSON
/// both ways, and answers what the core computes (here: the crash before "record the key"
/// cannot happen with the key in the ledger transaction, which is not credited; forwarding
/// is). Any other answer is no answer.
#[test]
fn a_prevention_check_is_answered_without_a_plan() {
    let scenario = Scenario::by_id("crash-window").expect("known");
    assert_eq!(on_check_reply(PageReply::Ready), CheckStep::Ask);
    let mut worker = Worker::new();
    let replies = ask(
        &mut worker,
        Request::Prevent {
            scenario: scenario.clone(),
            injected: Vec::new(),
        },
    );
    let [reply] = <[PageReply; 1]>::try_from(replies).expect("one reply");
    let CheckStep::Answer(Some(prevention)) = on_check_reply(reply) else {
        panic!("no answer");
    };
    assert_eq!(prevention, idem_core::check_prevention(&scenario, &[]));
    let same_tx = prevention
        .single(idem_core::Protection::SameTx)
        .expect("off");
    assert!(!same_tx.prevents() && !same_tx.absent.is_empty());
    let proved: Vec<_> = prevention
        .preventing()
        .iter()
        .map(|c| c.protections.clone())
        .collect();
    assert_eq!(proved, [vec![idem_core::Protection::Forward]]);
    let refused = PageReply::Refused {
        reason: "busy".into(),
    };
    assert_eq!(on_check_reply(refused), CheckStep::Answer(None));
}
