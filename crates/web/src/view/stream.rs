//! The data stream's part (issue 43, items 3 and 4): drawn by the page and by every widget
//! once the player is here, from the lesson's bundle (`LaterPart::Stream`), it starts the
//! widget's stream (`platform/stream.rs`) and its challenge events: what the student does from
//! then on becomes `idem:action` and is recorded (`record()`), and the runs that ended, also
//! before it came, send their `idem:verdict` and `idem:prediction`. On the page and in
//! `?embed`, a `replay=` link is replayed here; a recording it refuses is said in a notice.

use leptos::prelude::*;

use crate::platform::browser::location_query;
use crate::platform::events::use_events;
use crate::platform::lab::{use_lab, use_prefs};
use crate::platform::stream::{replay, set_commands, use_stream};
use crate::view::embed::manual_mount;
use crate::view::panels::challenge::use_challenge_events;
use crate::view::panels::recap::Guess;
use idem_lesson::recording::replay_param;
use leptos::wasm_bindgen::JsValue;
use leptos::web_sys::js_sys::{Array, Function, Reflect};

/// Starts the enclosing widget's (or page's) data stream; draws only a refused replay's
/// notice.
#[component]
pub fn Stream() -> impl IntoView {
    let refused = RwSignal::new(None::<String>);
    let events = use_events();
    let lab = use_lab();
    let Guess(guess) = crate::platform::place::required("provide_guess");
    // The handle's queued commands (getState(), …) are answered by this bundle's code.
    set_commands(crate::view::embed::commands::run_code);
    use_stream(lab, events, use_prefs(), guess);
    use_challenge_events(lab, events);
    // A widget mounted in a course page reads no address: the page's is the host's.
    let query = if manual_mount() {
        String::new()
    } else {
        opened_query()
    };
    if let Some(text) = replay_param(&query) {
        replay(
            lab,
            guess,
            text,
            1.0,
            Box::new(move |result| {
                if let Err(why) = result {
                    refused.try_set(Some(why));
                }
            }),
        );
    }
    // The full page says a link's unknown (or badly valued) page parameters as the `?embed`
    // page does (embed/host.rs); a bad `lang` it says in its own notice (issue 43, item 5).
    let unused = (!manual_mount() && !crate::view::embed::embed_param(&query)).then(|| {
        crate::view::embed::host::problems_notice(
            idem_lesson::link_params::page_params(&query).problems_but_lang(),
        )
    });
    let prefs = use_prefs();
    let refused_notice = move || {
        refused.get().map(|why| {
            view! {
                <div class="link-notice" role="alert" data-testid="replay-refused">
                    <p>{prefs.t("replay.refused")}</p>
                    <p><code>{why}</code></p>
                </div>
            }
        })
    };
    view! {
        {unused}
        {refused_notice}
    }
}

/// The query the page was opened with: the page writes its run's link into the address bar
/// as soon as it starts (`hooks::use_url_sync`, which keeps no `replay=`), before this code
/// arrives, so it is read from the navigation's entry (`performance.getEntriesByType
/// ("navigation")[0].name`, the address as it was opened), else from the address bar.
fn opened_query() -> String {
    let opened = (|| {
        let performance = Reflect::get(&window(), &JsValue::from_str("performance")).ok()?;
        let entries = Reflect::get(&performance, &JsValue::from_str("getEntriesByType")).ok()?;
        let entries = Function::from(entries)
            .call1(&performance, &JsValue::from_str("navigation"))
            .ok()?;
        let first = Array::from(&entries).get(0);
        let name = Reflect::get(&first, &JsValue::from_str("name"))
            .ok()?
            .as_string()?;
        let query = name.split_once('?')?.1;
        Some(query.split('#').next().unwrap_or_default().to_owned())
    })();
    opened.unwrap_or_else(location_query)
}
