//! The page's side of a search in workers, without the browser: which worker gets which
//! request, and what the page is told. The page feeds it what happens (a worker's reply or
//! error, the start-up timer, Stop) and does what it answers ([`Step`]s: post a request, show
//! progress, the report, a failure, or search on the main thread instead); natively, tests feed
//! it the replies of real [`crate::Worker`]s.
//!
//! Every worker plans the same search when it says it is ready; units go one at a time to
//! whichever worker has planned and is free. When every unit is in, the worker whose reply
//! completed them merges (a worker that has planned: one still loading would drop a message
//! sent before it listens), the workers that explored the units behind the chosen
//! counter-examples rebuild them, and the merging worker finishes the report.

use std::collections::BTreeMap;

use idem_core::{CounterExample, Wanted};
use idem_core::{Invariant, Prevention, Report, Scenario, UnitOutcome};

use crate::protocol::{Explored, Reply, Request};

/// What the page does next.
#[derive(Clone, Debug, PartialEq)]
pub enum Step<O = UnitOutcome, E = CounterExample> {
    /// Post `request` to worker `worker`.
    Send {
        /// The worker's index.
        worker: usize,
        /// What to post.
        request: Request<O, E>,
    },
    /// Show the totals so far.
    Progress(Report),
    /// The search's report: the search is over (terminate the workers).
    Done(Report),
    /// The workers failed before any unit was explored: search on the main thread instead.
    FallBack(String),
    /// The workers failed after units were explored: say so (a search from nothing would throw
    /// their work away).
    Failed(String),
}

/// One worker, as the coordinator sees it.
#[derive(Clone, Debug, Default)]
struct Slot {
    ready: bool,
    planned: bool,
    busy: Option<u32>,
}

/// Where the search is.
#[derive(Debug)]
enum Phase<E> {
    Exploring,
    /// Worker `merger` merges.
    Merging {
        merger: usize,
    },
    /// Counter-examples being rebuilt: one place per wanted, and which worker still owes which
    /// places.
    Rebuilding {
        merger: usize,
        rebuilt: Vec<Option<E>>,
        asked: Vec<(usize, Vec<usize>)>,
    },
    Finishing,
    /// Done, failed, fallen back or stopped: nothing more is asked or told.
    Over,
}

/// A search in workers, as the page drives it (`O` and `E`: a unit's outcome and a rebuilt
/// counter-example, as the page holds them).
#[derive(Debug)]
pub struct Coordinator<O = UnitOutcome, E = CounterExample> {
    scenario: Scenario,
    k: u32,
    workers: Vec<Slot>,
    /// Every worker's unit count, once one has planned.
    units: Option<u32>,
    /// The next unit to hand out.
    next: u32,
    /// The units explored: (worker, outcome without its counter-examples).
    done: Vec<(usize, O)>,
    /// The totals of the units explored, and of those under way (by unit).
    finished: Report,
    live: BTreeMap<u32, Report>,
    phase: Phase<E>,
}

impl<O: Explored, E: Clone> Coordinator<O, E> {
    /// A search of `scenario` with up to `k` faults in workers, one per entry of `ready`
    /// (whether it has said it is ready: workers started ahead may have).
    pub fn new(scenario: Scenario, k: u32, ready: &[bool]) -> Self {
        Coordinator {
            scenario,
            k,
            workers: ready
                .iter()
                .map(|&ready| Slot {
                    ready,
                    ..Slot::default()
                })
                .collect(),
            units: None,
            next: 0,
            done: Vec::new(),
            finished: Report {
                by_invariant: Invariant::ALL.iter().map(|i| (*i, 0)).collect(),
                ..Report::default()
            },
            live: BTreeMap::new(),
            phase: Phase::Exploring,
        }
    }

    /// The first requests: the workers already ready plan at once (the others when they say
    /// they are ready).
    pub fn start(&mut self) -> Vec<Step<O, E>> {
        (0..self.workers.len())
            .filter(|&w| self.workers[w].ready)
            .map(|w| self.plan(w))
            .collect()
    }

    /// Whether any worker has said it is ready (a page where none did cannot start workers).
    pub fn started(&self) -> bool {
        self.workers.iter().any(|w| w.ready)
    }

    /// Whether the search is over (done, failed, fallen back or stopped).
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over)
    }

    /// The totals so far: the units explored and those under way.
    pub fn totals(&self) -> Report {
        let mut total = self.finished.clone();
        for report in self.live.values() {
            total.add(report);
        }
        total
    }

    /// Stop: the search is over, and these are its totals so far.
    pub fn stop(&mut self) -> Report {
        self.phase = Phase::Over;
        self.totals()
    }

    /// The start-up timer ran out: if no worker has said it is ready, search on the main
    /// thread.
    pub fn on_timeout(&mut self) -> Vec<Step<O, E>> {
        if self.is_over() || self.started() {
            return Vec::new();
        }
        self.over(Step::FallBack(
            "no search worker started in time".to_owned(),
        ))
    }

    /// Worker `worker` failed (it could not load, or it crashed): search on the main thread,
    /// from nothing (what a failed worker explored is lost with it).
    pub fn on_error(&mut self, worker: usize) -> Vec<Step<O, E>> {
        if self.is_over() {
            return Vec::new();
        }
        self.over(Step::FallBack(format!("search worker {worker} failed")))
    }

    /// What worker `worker` answered.
    pub fn on_reply(&mut self, worker: usize, reply: Reply<O, E>) -> Vec<Step<O, E>> {
        if self.is_over() || worker >= self.workers.len() {
            return Vec::new();
        }
        let mut steps = Vec::new();
        match reply {
            Reply::Ready => {
                self.workers[worker].ready = true;
                steps.push(self.plan(worker));
            }
            Reply::Planned { units } => {
                self.units = Some(units);
                self.workers[worker].planned = true;
                steps.extend(self.dispatch(worker));
                if units == 0 && matches!(self.phase, Phase::Exploring) {
                    steps.push(self.merge(worker));
                }
            }
            Reply::Progress { unit, report } => {
                self.live.insert(unit, report);
                steps.push(Step::Progress(self.totals()));
            }
            Reply::Done { mut outcome } => {
                self.live.remove(&outcome.unit());
                self.finished.add(outcome.report());
                outcome.lighten();
                self.done.push((worker, outcome));
                self.workers[worker].busy = None;
                steps.push(Step::Progress(self.totals()));
                steps.extend(self.dispatch(worker));
                if self.units == Some(self.done.len() as u32) {
                    steps.push(self.merge(worker));
                }
            }
            Reply::Merged { wanted } => steps.extend(self.rebuild(wanted)),
            Reply::Rebuilt { rebuilt: answers } => steps.extend(self.rebuilt(worker, answers)),
            Reply::Finished { report } => return self.over(Step::Done(report)),
            Reply::Refused { reason } => {
                return self.fail(format!("the search worker answered refused: {reason}"))
            }
            Reply::Prevented { .. } => {
                return self.fail("the search worker answered a prevention check".to_owned())
            }
        }
        steps
    }

    /// A message from worker `worker` that could not be read (`why`).
    pub fn on_unreadable(&mut self, worker: usize, why: &str) -> Vec<Step<O, E>> {
        if self.is_over() {
            return Vec::new();
        }
        self.fail(format!(
            "search worker {worker}'s message could not be read: {why}"
        ))
    }

    /// A failure: before any unit is in, the main thread searches instead; after, it is said.
    fn fail(&mut self, why: String) -> Vec<Step<O, E>> {
        if self.done.is_empty() {
            self.over(Step::FallBack(why))
        } else {
            self.over(Step::Failed(why))
        }
    }

    fn over(&mut self, last: Step<O, E>) -> Vec<Step<O, E>> {
        self.phase = Phase::Over;
        vec![last]
    }

    fn plan(&self, worker: usize) -> Step<O, E> {
        Step::Send {
            worker,
            request: Request::Plan {
                scenario: self.scenario.clone(),
                k: self.k,
            },
        }
    }

    /// Hands worker `worker` the next unit, if it is free and one is left.
    fn dispatch(&mut self, worker: usize) -> Option<Step<O, E>> {
        let units = self.units?;
        let slot = &mut self.workers[worker];
        if slot.busy.is_some() || !slot.planned || self.next >= units {
            return None;
        }
        let unit = self.next;
        self.next += 1;
        slot.busy = Some(unit);
        Some(Step::Send {
            worker,
            request: Request::Unit { unit },
        })
    }

    /// Worker `merger` (one that has planned) merges every unit's outcome.
    fn merge(&mut self, merger: usize) -> Step<O, E> {
        self.phase = Phase::Merging { merger };
        Step::Send {
            worker: merger,
            request: Request::Merge {
                outcomes: self.done.iter().map(|(_, o)| o.clone()).collect(),
            },
        }
    }

    /// Asks the workers that explored the merge's chosen units to rebuild their
    /// counter-examples (the merger those of units nobody explored).
    fn rebuild(&mut self, wanted: Vec<Wanted>) -> Vec<Step<O, E>> {
        let Phase::Merging { merger } = self.phase else {
            return Vec::new();
        };
        let mut asked: Vec<(usize, Vec<usize>, Vec<Wanted>)> = Vec::new();
        for (place, w) in wanted.iter().enumerate() {
            let owner = self
                .done
                .iter()
                .find(|(_, o)| o.unit() == w.unit)
                .map_or(merger, |(worker, _)| *worker);
            match asked.iter_mut().find(|(o, _, _)| *o == owner) {
                Some((_, places, list)) => {
                    places.push(place);
                    list.push(*w);
                }
                None => asked.push((owner, vec![place], vec![*w])),
            }
        }
        if asked.is_empty() {
            return vec![self.finish(merger, Vec::new())];
        }
        let steps = asked
            .iter()
            .map(|(owner, _, list)| Step::Send {
                worker: *owner,
                request: Request::Rebuild {
                    wanted: list.clone(),
                },
            })
            .collect();
        self.phase = Phase::Rebuilding {
            merger,
            rebuilt: vec![None; wanted.len()],
            asked: asked.into_iter().map(|(o, p, _)| (o, p)).collect(),
        };
        steps
    }

    /// Worker `worker`'s rebuilt counter-examples; once every worker asked has answered, the
    /// merger finishes.
    fn rebuilt(&mut self, worker: usize, answers: Vec<Option<E>>) -> Option<Step<O, E>> {
        let Phase::Rebuilding {
            merger,
            rebuilt,
            asked,
        } = &mut self.phase
        else {
            return None;
        };
        let merger = *merger;
        if let Some(at) = asked.iter().position(|(w, _)| *w == worker) {
            let (_, places) = asked.remove(at);
            for (place, answer) in places.into_iter().zip(answers) {
                rebuilt[place] = answer;
            }
        }
        if !asked.is_empty() {
            return None;
        }
        let all = std::mem::take(rebuilt);
        Some(self.finish(merger, all))
    }

    fn finish(&mut self, merger: usize, rebuilt: Vec<Option<E>>) -> Step<O, E> {
        self.phase = Phase::Finishing;
        Step::Send {
            worker: merger,
            request: Request::Finish { rebuilt },
        }
    }
}

/// What the page does with a reply of the worker it asked "would X have prevented it".
#[derive(Clone, Debug, PartialEq)]
pub enum CheckStep {
    /// The worker listens: post the check's [`Request::Prevent`].
    Ask,
    /// The answer (`None`: the worker answered something else, and the page says nothing
    /// rather than guess).
    Answer(Option<Prevention>),
}

/// The prevention check's side of the protocol: one request once the worker is ready, one
/// answer.
pub fn on_check_reply<O, E>(reply: Reply<O, E>) -> CheckStep {
    match reply {
        Reply::Ready => CheckStep::Ask,
        Reply::Prevented { prevention } => CheckStep::Answer(Some(prevention)),
        _ => CheckStep::Answer(None),
    }
}
