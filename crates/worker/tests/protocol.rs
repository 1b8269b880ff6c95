//! The worker protocol played natively, as the page plays it with Web Workers: every worker
//! plans, units are handed out one at a time to whichever worker is free, one worker merges,
//! the workers that explored the chosen counter-examples' units rebuild them, and the merging
//! worker finishes. Every message goes through JSON and back (what crosses to a worker must be
//! plain data). The report equals a single search's.

use idem_core::{Bounds, Explorer, Report, Scenario, UnitOutcome};
use idem_worker::{Reply, Request, Sliced, Worker};

/// `value` through JSON and back, as a message to or from a worker is.
fn wire<T: serde::Serialize + serde::de::DeserializeOwned>(value: T) -> T {
    let text = serde_json::to_string(&value).expect("serialises");
    serde_json::from_str(&text).expect("deserialises")
}

/// Sends `request` to `worker` (through JSON) and returns its replies (through JSON). The
/// clock advances 30 ms each time it is read, so a long unit reports progress.
fn ask(worker: &mut Worker, request: Request) -> Vec<Reply> {
    let clock = std::cell::Cell::new(0.0);
    let mut replies = Vec::new();
    worker.handle(
        wire(request),
        || {
            clock.set(clock.get() + 30.0);
            clock.get()
        },
        |r| replies.push(wire(r)),
    );
    replies
}

/// The page's side, with `n` workers, units handed out round-robin.
fn search(scenario: &Scenario, k: u32, n: usize) -> (Report, usize) {
    let mut workers: Vec<Worker> = (0..n).map(|_| Worker::new()).collect();
    let mut units = 0;
    for w in &mut workers {
        let replies = ask(
            w,
            Request::Plan {
                scenario: scenario.clone(),
                k,
            },
        );
        match replies.as_slice() {
            [Reply::Planned { units: u }] => units = *u,
            other => panic!("plan: {other:?}"),
        }
    }
    let mut outcomes: Vec<(usize, UnitOutcome)> = Vec::new();
    let mut progress = 0;
    for unit in 0..units {
        let owner = unit as usize % n;
        for reply in ask(&mut workers[owner], Request::Unit { unit }) {
            match reply {
                Reply::Progress { unit: u, report } => {
                    assert_eq!(u, unit);
                    assert!(!report.done);
                    progress += 1;
                }
                Reply::Done { outcome } => outcomes.push((owner, outcome)),
                other => panic!("unit {unit}: {other:?}"),
            }
        }
    }
    assert_eq!(outcomes.len(), units as usize, "every unit answered once");
    let all: Vec<UnitOutcome> = outcomes.iter().map(|(_, o)| o.clone()).collect();
    let merged = match ask(&mut workers[0], Request::Merge { outcomes: all }).pop() {
        Some(Reply::Merged { merged }) => merged,
        other => panic!("merge: {other:?}"),
    };
    let mut rebuilt = Vec::new();
    for wanted in &merged.wanted {
        let owner = outcomes
            .iter()
            .find(|(_, o)| o.unit == wanted.unit)
            .map(|(w, _)| *w)
            .expect("the unit was explored");
        match ask(
            &mut workers[owner],
            Request::Rebuild {
                wanted: vec![*wanted],
            },
        )
        .pop()
        {
            Some(Reply::Rebuilt { rebuilt: mut r }) => rebuilt.push(r.pop().flatten()),
            other => panic!("rebuild: {other:?}"),
        }
    }
    let report = match ask(&mut workers[0], Request::Finish { rebuilt }).pop() {
        Some(Reply::Finished { report }) => report,
        other => panic!("finish: {other:?}"),
    };
    (report, progress)
}

fn without_work(report: &Report) -> Report {
    Report {
        states: 0,
        steps: 0,
        ..report.clone()
    }
}

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
        let single = Explorer::new(&scenario, Bounds::faults(2))
            .run_to_end()
            .clone();
        let (report, progress) = search(&scenario, 2, 2);
        assert!(report.done, "{id}");
        assert_eq!(without_work(&report), without_work(&single), "{id}");
        progressed += progress;
    }
    assert!(progressed > 0, "a long unit reports its progress");
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
    let single = Explorer::new(&scenario, Bounds::faults(2))
        .run_to_end()
        .clone();
    assert_eq!(sliced.report(), &single);
}

/// "Would have prevented it" is asked of a worker with no plan, through JSON both ways, and
/// answers what the core computes (here: the crash before "record the key" cannot happen with
/// the key in the ledger transaction, which is not credited; forwarding is).
#[test]
fn a_prevention_check_is_answered_without_a_plan() {
    let scenario = Scenario::by_id("crash-window").expect("known");
    let mut worker = Worker::new();
    let replies = ask(
        &mut worker,
        Request::Prevent {
            scenario: scenario.clone(),
            injected: Vec::new(),
        },
    );
    let [Reply::Prevented { prevention }] = replies.as_slice() else {
        panic!("{replies:?}");
    };
    assert_eq!(*prevention, idem_core::check_prevention(&scenario, &[]));
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
}
