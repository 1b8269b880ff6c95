//! The data stream's browser side (issue 43, item 3): sends the payloads
//! `idem_lesson::stream` builds as the widget's events, and watches a widget's run to say
//! what the student did (`idem:action`) and how each ended run came out (`idem:verdict`,
//! `idem:prediction`). Reached only from the lesson's bundle (`view/stream.rs` and the panels
//! that name their own actions), so none of it is downloaded before Play.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::*;
use leptos::wasm_bindgen::JsValue;
use leptos::web_sys::{js_sys, Element};

use crate::platform::browser::now_ms;
use crate::platform::events::Events;
use crate::platform::lab::{Lab, Prefs};
use idem_lesson::panels::recap::outcome;
use idem_lesson::recording::Recording;
use idem_lesson::stream::{prediction_payload, verdict_payload, Act, Json, Seen, ACTION_EVENT};

/// Dispatches `name` with `payload` from the widget's root (and posts it to a parent frame).
pub fn send(events: Events, name: &str, payload: &Json) {
    events.dispatch(name, to_js(payload));
}

/// Where a part that is not the run (the glossary, the quiz, the search) sends its own
/// actions: the enclosing widget's events and lab, taken when the part is drawn (an event
/// handler has no context). `Copy`; does nothing outside a widget.
#[derive(Clone, Copy)]
pub struct Noter(Option<(Events, Lab)>);

impl Noter {
    /// The enclosing widget's (or page's).
    pub fn here() -> Noter {
        Noter(use_context::<Events>().zip(use_context::<Lab>()))
    }

    /// Sends `act` as an `idem:action`, with where the run stands now.
    pub fn note(self, act: Act) {
        let Some((events, lab)) = self.0 else {
            return;
        };
        let Some(seen) = lab.run.try_with_untracked(|r| {
            Seen::of(
                r,
                lab.clock.playing.try_get_untracked().unwrap_or(false),
                lab.clock.paused_at_key.try_get_untracked().unwrap_or(false),
                None,
            )
        }) else {
            return;
        };
        send(events, ACTION_EVENT, &act.payload(now_ms(), &seen));
    }
}

/// Watches the widget's run: each interaction becomes an `idem:action`, each ended run (noted
/// by the first screen in [`Events::ended`], also before this code arrived) an
/// `idem:verdict` and, when a prediction was made for it, an `idem:prediction` with its
/// attempt number.
/// `guess` is the widget's prediction (scenario id, chosen value).
pub fn use_stream(lab: Lab, events: Events, prefs: Prefs, guess: GuessSignal) {
    let guessed = move |scenario: &str| {
        guess
            .get()
            .filter(|(id, _)| id == scenario)
            .map(|(_, value)| value)
    };
    // The student's work so far, from the state this code found (record()), and when its
    // last entry came.
    let recording = StoredValue::new_local((Recording::default(), now_ms()));
    Effect::new(move |before: Option<Seen>| {
        let playing = lab.clock.playing.get();
        let paused_at_key = lab.clock.paused_at_key.get();
        let scenario = lab.run.with(|r| r.scenario().id.clone());
        let now = lab
            .run
            .with(|r| Seen::of(r, playing, paused_at_key, guessed(&scenario)));
        let t = now_ms();
        match before {
            None => recording.set_value((Recording::starting(&now), t)),
            Some(before) => {
                let acts = idem_lesson::stream::diff(&before, &now);
                for act in &acts {
                    send(events, ACTION_EVENT, &act.payload(t, &now));
                }
                if !acts.is_empty() {
                    recording.update_value(|(r, last)| {
                        r.note((t - *last).max(0.0) as u64, &acts, &now);
                        *last = t;
                    });
                }
            }
        }
        now
    });
    // The handle's record() and replay() find the widget by its root, once it is mounted.
    let registered = StoredValue::new_local(None::<Element>);
    Effect::new(move |_| {
        let Some(root) = events.root().get() else {
            return;
        };
        if registered.with_value(Option::is_some) {
            return;
        }
        let root: Element = root.into();
        let record = Rc::new(move || {
            let end = lab.run.try_with_untracked(|r| r.cursor()).unwrap_or(0);
            recording
                .try_with_value(|(r, _)| r.text(end))
                .unwrap_or_default()
        });
        let replay = Rc::new(move |text: String, speed: f64, done: Done| {
            replay(lab, guess, &text, speed, done);
        });
        register(Recorder {
            root: root.clone(),
            lab,
            record,
            replay,
        });
        registered.set_value(Some(root));
    });
    on_cleanup(move || {
        if let Some(root) = registered.try_get_value().flatten() {
            unregister(&root);
        }
    });
    // (scenario, attempts) of the predictions judged so far.
    let attempts = StoredValue::new(Vec::<(String, u32)>::new());
    Effect::new(move |_| {
        let ended = events.ended.with(|e| !e.is_empty());
        if !ended {
            return;
        }
        let ended = events.ended.try_update_untracked(std::mem::take);
        for (world, link) in ended.into_iter().flatten() {
            send(events, "idem:verdict", &verdict_payload(&world, &link));
            let scenario = world.scenario().id.clone();
            let Some(choice) = guessed(&scenario) else {
                continue;
            };
            let attempt = attempts
                .try_update_value(|all| match all.iter_mut().find(|(s, _)| *s == scenario) {
                    Some((_, n)) => {
                        *n += 1;
                        *n
                    }
                    None => {
                        all.push((scenario.clone(), 1));
                        1
                    }
                })
                .unwrap_or(1);
            let actual = outcome(&world, prefs.lang.get_untracked().catalog());
            let correct = choice == actual.value;
            let payload = prediction_payload(&scenario, &choice, correct, attempt);
            send(events, "idem:prediction", &payload);
        }
    });
}

/// The student's prediction: (scenario id, chosen value).
pub type GuessSignal = RwSignal<Option<(String, String)>>;

/// The payload as a plain JS value.
fn to_js(json: &Json) -> JsValue {
    match json {
        Json::Null => JsValue::NULL,
        Json::Bool(b) => JsValue::from_bool(*b),
        Json::Num(n) => JsValue::from_f64(*n),
        Json::Str(s) => JsValue::from_str(s),
        Json::List(items) => items.iter().map(to_js).collect::<js_sys::Array>().into(),
        Json::Obj(fields) => {
            let object = js_sys::Object::new();
            for (key, value) in fields {
                let _ = js_sys::Reflect::set(&object, &JsValue::from_str(key), &to_js(value));
            }
            object.into()
        }
    }
}

/// Told when a replay has ended (`Ok`) or why it could not start.
pub type Done = Box<dyn FnOnce(Result<(), String>)>;

/// What a widget's stream offers its handle's `record()` and `replay()`: its root element,
/// its recording so far as text, and a replay of a recording at a speed.
#[derive(Clone)]
struct Recorder {
    root: Element,
    lab: Lab,
    record: Rc<dyn Fn() -> String>,
    replay: Rc<dyn Fn(String, f64, Done)>,
}

/// A handle's call (`record()`: 0, `replay()`: 1, a host's command: [`COMMAND`] and up, see
/// [`Commands`]) waiting for its widget's stream: the
/// widget's host element, the call, its two arguments and the promise's
/// `{ promise, resolve, reject }`. Plain JS values: the first screen's module (the handle's
/// methods) only queues calls; the lesson's bundle, once a stream has started, answers them
/// ([`serve`]), so the recorder's and the replay's code is not downloaded before Play.
type Request = (Element, u8, JsValue, JsValue, JsValue);

thread_local! {
    /// The handles' calls not answered yet.
    static REQUESTS: RefCell<Vec<Request>> = const { RefCell::new(Vec::new()) };
    /// What answers them, set by the first stream that starts.
    static SERVE: std::cell::Cell<Option<fn()>> = const { std::cell::Cell::new(None) };
    /// The streams started (the lesson's bundle).
    static RECORDERS: RefCell<Vec<Recorder>> = const { RefCell::new(Vec::new()) };
    /// What carries out the host's commands, set with the first stream (the lesson's bundle).
    static COMMANDS: std::cell::Cell<Option<Commands>> = const { std::cell::Cell::new(None) };
}

/// The first call number of the host's commands (`getState()`, `setState(state)`,
/// `freeze(on)`, `picture()`, an exercise's `ready()`: `COMMAND` + 0 … 4).
pub const COMMAND: u8 = 2;

/// An exercise's check, queued by `mount` as `COMMAND + READY` (its `ready()` promise).
pub const READY: u8 = 4;

/// Carries out a host's command (its number less [`COMMAND`]) on a widget: its lab (`None`
/// for an exercise's `ready()`, answered before its stream starts), its host element, the
/// argument. In `view/embed/commands.rs` (platform code imports nothing of the view).
pub type Commands = fn(Option<Lab>, Element, u8, JsValue) -> Result<JsValue, JsValue>;

/// Sets what carries out the host's commands (the lesson's bundle, before its first stream).
pub fn set_commands(commands: Commands) {
    COMMANDS.set(Some(commands));
}

/// A handle's `record()` (`call` 0) or `replay(recording, speed)` (1) for the widget in
/// `host` (`None`: unmounted): a promise, answered once the widget's stream has started.
pub fn request(host: Option<Element>, call: u8, a: JsValue, b: JsValue) -> JsValue {
    let promise_class =
        js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("Promise")).unwrap_or_default();
    let resolvers = js_sys::Reflect::get(&promise_class, &JsValue::from_str("withResolvers"))
        .ok()
        .and_then(|f| js_sys::Function::from(f).call0(&promise_class).ok())
        .unwrap_or_default();
    let promise =
        js_sys::Reflect::get(&resolvers, &JsValue::from_str("promise")).unwrap_or_default();
    match host {
        Some(host) => {
            REQUESTS.with_borrow_mut(|r| r.push((host, call, a, b, resolvers)));
            if let Some(serve) = SERVE.get() {
                serve();
            }
        }
        // (`answer`, not `settle`: no `format!` in the first screen's module for this.)
        None => answer(
            &resolvers,
            Err(
                leptos::wasm_bindgen::JsError::new("Idempotency Lab: the widget was unmounted")
                    .into(),
            ),
        ),
    }
    promise
}

/// Resolves (`Ok`) or rejects (`Err`: an `Error` with the reason) a request's promise.
fn settle(resolvers: &JsValue, result: Result<JsValue, String>) {
    answer(
        resolvers,
        result.map_err(|why| {
            leptos::wasm_bindgen::JsError::new(&format!("Idempotency Lab: {why}")).into()
        }),
    );
}

/// Resolves (`Ok`) or rejects (`Err`) a request's promise with the value given.
fn answer(resolvers: &JsValue, result: Result<JsValue, JsValue>) {
    let (name, value) = match result {
        Ok(value) => ("resolve", value),
        Err(error) => ("reject", error),
    };
    if let Ok(f) = js_sys::Reflect::get(resolvers, &JsValue::from_str(name)) {
        let _ = js_sys::Function::from(f).call1(&JsValue::NULL, &value);
    }
}

/// Answers the requests whose widget's stream has started (an exercise's `ready()`: at once).
fn serve() {
    let commands = COMMANDS.get();
    let ready: Vec<(Option<Recorder>, Request)> = REQUESTS.with_borrow_mut(|requests| {
        let all = std::mem::take(requests);
        let mut ready = Vec::new();
        for request in all {
            let found = RECORDERS.with_borrow(|r| {
                r.iter()
                    .find(|r| request.0.contains(Some(&r.root)))
                    .cloned()
            });
            match found {
                None if request.1 == COMMAND + READY && commands.is_some() => {
                    ready.push((None, request))
                }
                Some(recorder) => ready.push((Some(recorder), request)),
                None => requests.push(request),
            }
        }
        ready
    });
    for (recorder, (host, call, recording, speed, resolvers)) in ready {
        if call >= COMMAND {
            if let Some(commands) = commands {
                let lab = recorder.map(|r| r.lab);
                answer(&resolvers, commands(lab, host, call - COMMAND, recording));
            }
            continue;
        }
        let Some(recorder) = recorder else { continue };
        if call == 0 {
            settle(&resolvers, Ok(JsValue::from_str(&(recorder.record)())));
            continue;
        }
        let Some(text) = recording.as_string() else {
            settle(
                &resolvers,
                Err(
                    "replay(recording, speed): `recording` must be the text record() gave"
                        .to_owned(),
                ),
            );
            continue;
        };
        let speed = if speed.is_undefined() {
            1.0
        } else {
            speed.as_f64().unwrap_or(f64::NAN)
        };
        (recorder.replay)(
            text,
            speed,
            Box::new(move |result| {
                settle(
                    &resolvers,
                    result
                        .map(|()| JsValue::TRUE)
                        .map_err(|why| format!("replay: {why}")),
                );
            }),
        );
    }
}

fn register(recorder: Recorder) {
    RECORDERS.with_borrow_mut(|all| all.push(recorder));
    SERVE.set(Some(serve));
    serve();
}

fn unregister(root: &Element) {
    RECORDERS.with_borrow_mut(|all| all.retain(|r| r.root != *root));
}

/// Replays the recording `text` on `lab` at `speed` (× the recorded times; not a positive
/// finite number: at once): each entry's run is shown at its time, exactly (the core is
/// deterministic), Play plays between entries, and the replay ends paused where the
/// recording ended. A recording that cannot be read or replayed is refused whole: `done`
/// hears why and the run on screen stays.
pub fn replay(lab: Lab, guess: GuessSignal, text: &str, speed: f64, done: Done) {
    let frames = match Recording::parse(text).and_then(|r| r.replay()) {
        Ok(frames) => frames,
        Err(error) => return done(Err(error.to_string())),
    };
    let speed = if speed.is_finite() && speed > 0.0 {
        speed
    } else {
        f64::INFINITY
    };
    let show = move |frame: &idem_lesson::recording::Frame| {
        if lab.run.try_with_untracked(|_| ()).is_none() {
            return; // the widget is gone
        }
        if let Some(g) = &frame.guess {
            guess.set(Some(g.clone()));
        }
        if lab.run.with_untracked(|r| *r != frame.run) {
            lab.open(&frame.run.link());
        }
        if frame.playing != lab.clock.playing.get_untracked() {
            lab.toggle_play();
        }
    };
    if speed.is_infinite() {
        for frame in &frames {
            show(frame);
        }
        return done(Ok(()));
    }
    let frames = Rc::new(frames);
    let done = Rc::new(RefCell::new(Some(done)));
    for index in 0..frames.len() {
        let frames = Rc::clone(&frames);
        let done = Rc::clone(&done);
        let delay = Duration::from_millis((frames[index].at_ms as f64 / speed) as u64);
        set_timeout(
            move || {
                show(&frames[index]);
                if index + 1 == frames.len() {
                    if let Some(done) = done.borrow_mut().take() {
                        done(Ok(()));
                    }
                }
            },
            delay,
        );
    }
}
