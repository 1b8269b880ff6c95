//! The data stream for course sites (issue 43, item 3): every interaction as an `idem:action`
//! event, and the results a grader needs (`idem:verdict`, `idem:prediction`,
//! `idem:challenge` with the faults as a list, the protections, a link that replays the run,
//! the balance or count where money is not the measure, the attempt number, who solved a
//! challenge). The payloads follow `docs/events.schema.json` (version [`SCHEMA_VERSION`]).
//!
//! Pure: the page observes its run ([`Seen`]) and hands two observations to [`diff`], which
//! says what the student did between them; components that are not the run (the glossary,
//! the quiz, the search) name their action themselves. Every payload is a [`Json`] value,
//! turned into a JS object by the web crate. Nothing of this module is on the first screen:
//! the page reaches it only from the lesson's bundle.

use idem_core::{push_json_string, Action, DeepLink, Protection, Protections, Story, World};

use crate::playback::Run;

/// The version of the events' payloads (`v` in every `idem:action`, and the schema's
/// `$id`): raised when a field changes meaning or goes away, not when one is added.
pub const SCHEMA_VERSION: u32 = 1;

/// The name of the data stream's event.
pub const ACTION_EVENT: &str = "idem:action";

/// A payload value (the JSON a host receives as `event.detail`).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number (integers only here, all far below 2^53).
    Num(f64),
    /// A string.
    Str(String),
    /// An array.
    List(Vec<Json>),
    /// An object, its keys in the documented order.
    Obj(Vec<(&'static str, Json)>),
}

impl Json {
    fn str(s: &str) -> Json {
        Json::Str(s.to_owned())
    }

    fn num(n: impl Into<f64>) -> Json {
        Json::Num(n.into())
    }

    fn count(n: usize) -> Json {
        Json::Num(n as f64)
    }

    /// The value as JSON text (tests, and hosts that log it).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Num(n) => out.push_str(&n.to_string()),
            Json::Str(s) => push_json_string(out, s),
            Json::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Obj(fields) => {
                out.push('{');
                for (i, (key, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    push_json_string(out, key);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// What the stream sees of a widget's run at one moment: enough to tell which interaction
/// led from one observation to the next.
#[derive(Clone, Debug, PartialEq)]
pub struct Seen {
    /// The run's link (design, faults, step): the state a replay must reach.
    pub link: DeepLink,
    /// The design's protections.
    pub protections: Protections,
    /// The step shown, as the counter says it (filler folded).
    pub step: usize,
    /// The run's own step count (its cursor: what a replay jumps to).
    pub cursor: usize,
    /// Nothing is left to happen.
    pub at_end: bool,
    /// Playing.
    pub playing: bool,
    /// Playback stopped by itself (at a key moment of the story, or at the end).
    pub stopped_itself: bool,
    /// The prediction made for this scenario, if any (the choice's value).
    pub guess: Option<String>,
}

impl Seen {
    /// The observation of `run`, with the clock's and the prediction's state.
    pub fn of(run: &Run, playing: bool, paused_at_key: bool, guess: Option<String>) -> Seen {
        let at_end = run.at_end();
        Seen {
            link: run.link(),
            protections: run.scenario().protections,
            step: run.visible_step(),
            cursor: run.cursor(),
            at_end,
            playing,
            stopped_itself: paused_at_key || at_end,
            guess,
        }
    }

    fn same_design(&self, other: &Seen) -> bool {
        self.link.scenario == other.link.scenario
            && self.link.compare == other.link.compare
            && self.link.challenge == other.link.challenge
            && self.link.base == other.link.base
    }
}

/// One interaction of the student (the `kind` of an `idem:action`).
#[derive(Clone, Debug, PartialEq)]
pub enum Act {
    /// A step forward or back, a restart, a jump or "run to the end" (while paused).
    Step {
        /// The step shown before.
        from: usize,
    },
    /// Play pressed.
    Play,
    /// Pause pressed (playback stopping by itself is not an action).
    Pause,
    /// A fault placed from the menu (or a scenario input: a concurrent request, …).
    Fault {
        /// The step count at which it applies.
        at: u32,
        /// The action's link spelling (`crash.record-key`).
        fault: String,
    },
    /// A packet dropped by clicking it.
    Drop {
        /// The packet's id.
        packet: u32,
        /// The step count at which it was dropped.
        at: u32,
    },
    /// Retry pressed on the client.
    Retry {
        /// The step count at which it was pressed.
        at: u32,
    },
    /// A protection switched.
    Protection {
        /// Its URL name.
        name: &'static str,
        /// Switched on.
        on: bool,
    },
    /// Another story, comparison or challenge opened.
    Scenario,
    /// A run opened whole (a counter-example replayed, a link): its faults are the link's.
    Open,
    /// "Surprise me": a random schedule of faults drawn from this seed.
    Surprise {
        /// The seed the link keeps.
        seed: u32,
    },
    /// "Try every failure" started.
    SearchStarted,
    /// "Try every failure" ended (finished, or stopped by the student).
    SearchStopped {
        /// It ran to its end (false: Stop pressed).
        finished: bool,
    },
    /// A glossary term opened beside the narration.
    Glossary {
        /// The term's id.
        term: String,
    },
    /// A prediction chosen before the run.
    Prediction {
        /// The chosen option's value (`once`, `twice`, `80`, …).
        choice: String,
    },
    /// A quiz question answered.
    Quiz {
        /// The question's id.
        question: String,
        /// The chosen answer.
        answer: String,
        /// It was the right one.
        correct: bool,
    },
}

/// Every `kind` an `idem:action` may have, in the schema's order.
pub const KINDS: [&str; 15] = [
    "step",
    "play",
    "pause",
    "fault",
    "drop",
    "retry",
    "protection",
    "scenario",
    "open",
    "surprise",
    "search-started",
    "search-stopped",
    "glossary",
    "prediction",
    "quiz",
];

impl Act {
    /// The action's `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            Act::Step { .. } => KINDS[0],
            Act::Play => KINDS[1],
            Act::Pause => KINDS[2],
            Act::Fault { .. } => KINDS[3],
            Act::Drop { .. } => KINDS[4],
            Act::Retry { .. } => KINDS[5],
            Act::Protection { .. } => KINDS[6],
            Act::Scenario => KINDS[7],
            Act::Open => KINDS[8],
            Act::Surprise { .. } => KINDS[9],
            Act::SearchStarted => KINDS[10],
            Act::SearchStopped { .. } => KINDS[11],
            Act::Glossary { .. } => KINDS[12],
            Act::Prediction { .. } => KINDS[13],
            Act::Quiz { .. } => KINDS[14],
        }
    }

    /// The action that injected `action` at step count `at`.
    fn injected(at: u32, action: &Action) -> Act {
        match action {
            Action::Drop(id) => Act::Drop { packet: id.0, at },
            Action::RetryNow => Act::Retry { at },
            other => Act::Fault {
                at,
                fault: DeepLink::action_token(other),
            },
        }
    }

    /// The `idem:action` payload: the schema version, the kind, the time (`t`, ms since the
    /// widget's stream began), where the run stands after it (`scenario`, `step`, `link`),
    /// then the kind's own fields.
    pub fn payload(&self, t: f64, seen: &Seen) -> Json {
        let mut fields = vec![
            ("v", Json::num(SCHEMA_VERSION)),
            ("kind", Json::str(self.kind())),
            ("t", Json::Num(t.max(0.0).round())),
            ("scenario", Json::str(&seen.link.scenario)),
            ("step", Json::count(seen.step)),
            ("link", Json::Str(seen.link.to_query())),
        ];
        match self {
            Act::Step { from } => fields.push(("from", Json::count(*from))),
            Act::Fault { at, fault } => {
                fields.push(("at", Json::num(*at)));
                fields.push(("fault", Json::str(fault)));
            }
            Act::Drop { packet, at } => {
                fields.push(("at", Json::num(*at)));
                fields.push(("packet", Json::num(*packet)));
            }
            Act::Retry { at } => fields.push(("at", Json::num(*at))),
            Act::Protection { name, on } => {
                fields.push(("protection", Json::str(name)));
                fields.push(("on", Json::Bool(*on)));
            }
            Act::Scenario => {
                let text = |v: &Option<String>| v.as_deref().map_or(Json::Null, Json::str);
                fields.push(("challenge", text(&seen.link.challenge)));
                fields.push(("compare", text(&seen.link.compare)));
            }
            Act::Surprise { seed } => fields.push(("seed", Json::num(*seed))),
            Act::SearchStopped { finished } => fields.push(("finished", Json::Bool(*finished))),
            Act::Glossary { term } => fields.push(("term", Json::str(term))),
            Act::Prediction { choice } => fields.push(("choice", Json::str(choice))),
            Act::Quiz {
                question,
                answer,
                correct,
            } => {
                fields.push(("question", Json::str(question)));
                fields.push(("answer", Json::str(answer)));
                fields.push(("correct", Json::Bool(*correct)));
            }
            Act::Play | Act::Pause | Act::Open | Act::SearchStarted => {}
        }
        Json::Obj(fields)
    }
}

/// What the student did between two observations of the run, in order: at most one change
/// of the run (another design, protections, a surprise, a fault, a run opened whole), then
/// play or pause, or else a step. Playback's own steps are not actions (`idem:step` says
/// them), nor is playback stopping by itself.
pub fn diff(before: &Seen, after: &Seen) -> Vec<Act> {
    let mut acts = Vec::new();
    let mut run_changed = true;
    // A chaos run is the design without its scripted faults (`base`): a surprise first.
    if let Some(seed) = after
        .link
        .chaos
        .filter(|_| after.link.chaos != before.link.chaos)
    {
        acts.push(Act::Surprise { seed });
    } else if !before.same_design(after) {
        acts.push(Act::Scenario);
    } else if before.protections != after.protections {
        acts.extend(Protection::ALL.into_iter().filter_map(|p| {
            let on = after.protections.is_on(p);
            (before.protections.is_on(p) != on).then_some(Act::Protection { name: p.name(), on })
        }));
    } else if after.link.faults != before.link.faults {
        let appended = after
            .link
            .faults
            .split_last()
            .filter(|(_, kept)| before.link.faults.starts_with(kept));
        acts.push(match appended {
            Some(((at, action), _)) => Act::injected(*at, action),
            None => Act::Open,
        });
    } else {
        run_changed = false;
    }
    if before.guess != after.guess {
        if let Some(choice) = &after.guess {
            acts.push(Act::Prediction {
                choice: choice.clone(),
            });
        }
    }
    if before.playing != after.playing {
        if after.playing {
            acts.push(Act::Play);
        } else if !after.stopped_itself {
            acts.push(Act::Pause);
        }
    } else if !run_changed && !after.playing && before.step != after.step {
        acts.push(Act::Step { from: before.step });
    }
    acts
}

/// The extra fields of `idem:verdict` for the run that ended in `world`, whose link is
/// `link`: the faults the student injected as a list, the protections on, the link that
/// replays the run, and the figure the story is about where money is not the measure
/// (`balance` of the account for compare-and-set, `likes` of the post for the counter).
pub fn verdict_extra(world: &World, link: &DeepLink) -> Vec<(&'static str, Json)> {
    let faults = world
        .injected()
        .iter()
        .map(|(at, action)| {
            Json::Obj(vec![
                ("at", Json::num(*at)),
                ("kind", Json::str(action.kind_name())),
                ("fault", Json::Str(DeepLink::action_token(action))),
            ])
        })
        .collect();
    let protections = world
        .scenario()
        .protections
        .on()
        .map(|p| Json::str(p.name()))
        .collect();
    let mut extra = vec![
        ("v", Json::num(SCHEMA_VERSION)),
        ("faultList", Json::List(faults)),
        ("protections", Json::List(protections)),
        ("link", Json::Str(link.to_query())),
    ];
    let ledger = world.ledger();
    match world.scenario().story {
        Story::CompareAndSet => extra.push((
            "balance",
            Json::Num(ledger.accounts.first().map_or(0, |a| a.balance) as f64),
        )),
        Story::Counter => extra.push((
            "likes",
            Json::Num(ledger.posts.first().map_or(0, |p| p.likes) as f64),
        )),
        _ => {}
    }
    extra
}

/// The full `idem:verdict` payload: the documented four fields, then [`verdict_extra`].
pub fn verdict_payload(world: &World, link: &DeepLink) -> Json {
    let verdict = world.verdict();
    let mut fields = vec![
        ("scenario", Json::str(&world.scenario().id)),
        (
            "verdict",
            Json::str(if verdict.ok() { "ok" } else { "violated" }),
        ),
        (
            "statementCents",
            Json::Num(verdict.money.statement_cents as f64),
        ),
        ("faults", Json::count(world.injected().len())),
    ];
    fields.extend(verdict_extra(world, link));
    Json::Obj(fields)
}

/// The `idem:prediction` payload: the documented three fields, the schema version and the
/// attempt (1 for the first run of this scenario that ended with a prediction in this
/// widget, then 2, …).
pub fn prediction_payload(scenario: &str, choice: &str, correct: bool, attempt: u32) -> Json {
    Json::Obj(vec![
        ("scenario", Json::str(scenario)),
        ("choice", Json::str(choice)),
        ("correct", Json::Bool(correct)),
        ("v", Json::num(SCHEMA_VERSION)),
        ("attempt", Json::num(attempt)),
    ])
}

/// Who brought a challenge to "solved": the student's own actions, or an opened link (a
/// shared solution).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolvedBy {
    /// The student's actions in this widget.
    Student,
    /// The run was opened solved.
    Link,
}

/// The `idem:challenge` payload: `id` and `status`, and for `solved` who did it (`by`) and
/// whether "Try every failure" had shown this design's breaks first (`searchedFirst`).
pub fn challenge_payload(id: &str, status: &str, solved: Option<(SolvedBy, bool)>) -> Json {
    let mut fields = vec![
        ("v", Json::num(SCHEMA_VERSION)),
        ("id", Json::str(id)),
        ("status", Json::str(status)),
    ];
    if let Some((by, searched)) = solved {
        let by = match by {
            SolvedBy::Student => "student",
            SolvedBy::Link => "link",
        };
        fields.push(("by", Json::str(by)));
        fields.push(("searchedFirst", Json::Bool(searched)));
    }
    Json::Obj(fields)
}

#[cfg(test)]
mod tests {
    use super::*;
    use idem_core::Scenario;

    fn seen(run: &Run) -> Seen {
        Seen::of(run, false, false, None)
    }

    fn run(id: &str) -> Run {
        Run::new(Scenario::by_id(id).expect("scenario"))
    }

    #[test]
    fn steps_faults_and_protections_are_told_apart() {
        let mut r = run("key");
        let start = seen(&r);
        r.step_visible();
        r.step_visible();
        let stepped = seen(&r);
        assert_eq!(diff(&start, &stepped), [Act::Step { from: 0 }]);
        r.apply(Action::RetryNow).expect("a retry is allowed here");
        let retried = seen(&r);
        let at = retried.link.faults[0].0;
        assert_eq!(diff(&stepped, &retried), [Act::Retry { at }]);
        r.apply(Action::EvictKeys).expect("an eviction is allowed");
        let evicted = seen(&r);
        assert!(matches!(
            &diff(&retried, &evicted)[..],
            [Act::Fault { fault, .. }] if fault == "evict"
        ));
        let mut p = r.scenario().protections;
        p.toggle(Protection::Lock);
        let switched = seen(&r.with_protections(p));
        assert_eq!(
            diff(&evicted, &switched),
            [Act::Protection {
                name: "lock",
                on: !evicted.protections.is_on(Protection::Lock)
            }]
        );
        assert_eq!(diff(&switched, &seen(&run("naive"))), [Act::Scenario]);
        assert!(diff(&switched, &switched).is_empty(), "nothing happened");
    }

    #[test]
    fn playback_is_an_action_only_when_pressed() {
        let mut r = run("naive");
        let paused = seen(&r);
        let playing = Seen::of(&r, true, false, None);
        assert_eq!(diff(&paused, &playing), [Act::Play]);
        r.step_visible();
        let moved = Seen::of(&r, true, false, None);
        assert!(diff(&playing, &moved).is_empty(), "playback's own step");
        let stopped = Seen::of(&r, false, true, None);
        assert!(diff(&moved, &stopped).is_empty(), "a stop at a key moment");
        assert_eq!(diff(&moved, &seen(&r)), [Act::Pause]);
    }

    #[test]
    fn a_prediction_and_a_surprise_are_seen() {
        let r = run("naive");
        let before = seen(&r);
        let guessed = Seen::of(&r, false, false, Some("twice".into()));
        assert_eq!(
            diff(&before, &guessed),
            [Act::Prediction {
                choice: "twice".into()
            }]
        );
        let chaos = Run::from_link(&r.chaos_link(7)).expect("a chaos run");
        assert_eq!(
            diff(&before, &seen(&chaos)),
            [Act::Surprise { seed: 7 }],
            "the seed the link keeps"
        );
    }

    #[test]
    fn results_carry_what_a_grader_needs() {
        let mut r = run("cas");
        r.run_to_end();
        let Json::Obj(fields) = verdict_payload(r.world(), &r.link()) else {
            panic!("an object");
        };
        let keys: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
        assert_eq!(
            keys,
            [
                "scenario",
                "verdict",
                "statementCents",
                "faults",
                "v",
                "faultList",
                "protections",
                "link",
                "balance"
            ]
        );
        assert_eq!(fields[8].1, Json::Num(80.0), "the account after one debit");
        let payload = Act::Step { from: 0 }.payload(12.4, &seen(&r));
        assert!(payload
            .to_text()
            .starts_with(r#"{"v":1,"kind":"step","t":12,"#));
    }
}
