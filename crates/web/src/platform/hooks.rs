//! Hooks that tie the lab to the browser: the animation loop, the keyboard, the address bar
//! and the layout. Each removes what it installed when the page is unmounted.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;

use leptos::ev;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use leptos::web_sys::{Element, KeyboardEvent};

use crate::platform::browser::{now_ms, replace_query};
use crate::platform::lab::{Lab, Prefs};
use idem_lesson::geometry::Layout;
use idem_lesson::i18n::Lang;

/// Writes the run's deep link into the address bar when it changes (`history.replaceState`:
/// no reload, no new entry), not on every notification of the run.
pub fn use_url_sync(lab: Lab, prefs: Prefs) {
    let first = prefs.lang.get_untracked();
    Effect::new(move |written: Option<String>| {
        let mut query = lab.run.with(|r| r.link().to_query());
        let lang = prefs.lang.get();
        // A language chosen in the address, or switched to, stays there, so the link opens
        // in it again.
        let in_address = idem_lesson::lang::lang_param(&crate::platform::browser::location_query())
            .and_then(Lang::from_tag)
            .is_some();
        if in_address || lang != first {
            query = idem_lesson::lang::with_lang(&query, lang.tag());
        }
        if written.as_ref() != Some(&query) {
            replace_query(&query);
        }
        query
    });
}

/// Drives playback with `requestAnimationFrame` while playing: simulated time advances with
/// real time × speed and the world steps when its next event is due.
pub fn use_playback(lab: Lab) {
    let generation = Arc::new(AtomicU32::new(0));
    let alive = Arc::new(AtomicBool::new(true));
    {
        let alive = Arc::clone(&alive);
        on_cleanup(move || alive.store(false, Ordering::Relaxed));
    }
    Effect::new(move |_| {
        if !lab.clock.playing.get() {
            return;
        }
        let id = generation.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        schedule(
            lab,
            now_ms(),
            id,
            Arc::clone(&generation),
            Arc::clone(&alive),
        );
    });
}

fn schedule(lab: Lab, last: f64, id: u32, generation: Arc<AtomicU32>, alive: Arc<AtomicBool>) {
    let _ = request_animation_frame_with_handle(move || {
        if !alive.load(Ordering::Relaxed) || generation.load(Ordering::Relaxed) != id {
            return;
        }
        let now = now_ms();
        // A hidden tab pauses frames; do not jump ahead when it comes back.
        let real = (now - last).clamp(0.0, 100.0);
        if lab.frame(real) {
            schedule(lab, now, id, generation, alive);
        }
    });
}

fn typing_target(event: &KeyboardEvent) -> bool {
    event
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .is_some_and(|e| {
            matches!(
                e.tag_name().to_ascii_lowercase().as_str(),
                "input" | "select" | "textarea" | "button" | "summary" | "a"
            ) || e.get_attribute("role").as_deref() == Some("button")
        })
}

/// Space plays/pauses, ←/→ step, R retries, 1–4 open the seed stories.
pub fn use_keyboard(lab: Lab) {
    let handle = window_event_listener(ev::keydown, move |event: KeyboardEvent| {
        handle_key(lab, &event, true)
    });
    on_cleanup(move || handle.remove());
}

/// One key press for `lab` (the page's window listener, or an embedded widget's own
/// `keydown`); `stories` lets 1–4 switch the seed stories.
pub fn handle_key(lab: Lab, event: &KeyboardEvent, stories: bool) {
    if event.alt_key() || event.ctrl_key() || event.meta_key() {
        return;
    }
    // Keys pressed in an open glossary box are the box's (Escape closes it; Space presses
    // its buttons): they neither play nor step the run under it.
    let in_term_box = event
        .target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<leptos::web_sys::Element>(t).ok())
        .is_some_and(|e| e.closest(".term-pop").ok().flatten().is_some());
    if in_term_box {
        return;
    }
    let key = event.key();
    // On a focused control, Space and Enter belong to it, arrows to selects.
    let on_control = typing_target(event);
    match key.as_str() {
        " " if !on_control => {
            event.prevent_default();
            lab.toggle_play();
        }
        "ArrowRight" if !on_control || !is_select(event) => {
            event.prevent_default();
            lab.step_forward();
        }
        "ArrowLeft" if !on_control || !is_select(event) => {
            event.prevent_default();
            lab.step_back();
        }
        // Typed into a field or a list (a <select> picks an option by the key typed), a letter
        // or a digit is the field's, not a shortcut.
        "r" | "R" if !is_select(event) => {
            lab.act(idem_core::Action::RetryNow);
        }
        // The stories' chips in order: 1, 2, 3, 4a and 4b.
        "1" | "2" | "3" | "4" | "5" if stories && !is_select(event) => {
            let stories = idem_core::Scenario::seed_ids();
            let at = key.parse::<usize>().unwrap_or(1).clamp(1, stories.len()) - 1;
            lab.switch(stories[at]);
        }
        _ => {}
    }
}

fn tag_of(event: &KeyboardEvent) -> String {
    event
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .map(|e| e.tag_name().to_ascii_lowercase())
        .unwrap_or_default()
}

fn is_select(event: &KeyboardEvent) -> bool {
    matches!(tag_of(event).as_str(), "select" | "input" | "textarea")
}

/// Switches between the wide and the tall topology by the lesson's own width, the width of
/// `root` (a widget in a narrow column of a wide page is drawn tall): at the first frame, once
/// it is drawn, and whenever the window is resized.
pub fn use_layout(prefs: Prefs, root: NodeRef<leptos::html::Div>) {
    let fit = move || {
        if let Some(root) = root.try_get_untracked().flatten() {
            let r = root.get_bounding_client_rect();
            let layout = Layout::for_width(r.right() - r.left());
            if prefs.layout.try_get_untracked() != Some(layout) {
                prefs.set_layout.set(layout);
            }
        }
    };
    request_animation_frame(fit);
    let handle = window_event_listener(ev::resize, move |_| fit());
    on_cleanup(move || handle.remove());
}
