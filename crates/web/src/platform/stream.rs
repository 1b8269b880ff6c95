//! The data stream's browser side (issue 43, item 3): sends the payloads
//! `idem_lesson::stream` builds as the widget's events, and watches a widget's run to say
//! what the student did (`idem:action`) and how each ended run came out (`idem:verdict`,
//! `idem:prediction`). Reached only from the lesson's bundle (`view/stream.rs` and the panels
//! that name their own actions), so none of it is downloaded before Play.

use leptos::prelude::*;
use leptos::wasm_bindgen::JsValue;
use leptos::web_sys::js_sys;

use crate::platform::browser::now_ms;
use crate::platform::events::{use_events, Events};
use crate::platform::lab::{Lab, Prefs};
use idem_lesson::panels::recap::outcome;
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
        Noter(use_events().zip(use_context::<Lab>()))
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
pub fn use_stream(lab: Lab, events: Events, prefs: Prefs, guess: Option<GuessSignal>) {
    let guessed = move |scenario: &str| {
        guess
            .and_then(|g| g.get())
            .filter(|(id, _)| id == scenario)
            .map(|(_, value)| value)
    };
    Effect::new(move |before: Option<Seen>| {
        let playing = lab.clock.playing.get();
        let paused_at_key = lab.clock.paused_at_key.get();
        let scenario = lab.run.with(|r| r.scenario().id.clone());
        let now = lab
            .run
            .with(|r| Seen::of(r, playing, paused_at_key, guessed(&scenario)));
        if let Some(before) = before {
            let t = now_ms();
            for act in idem_lesson::stream::diff(&before, &now) {
                send(events, ACTION_EVENT, &act.payload(t, &now));
            }
        }
        now
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
