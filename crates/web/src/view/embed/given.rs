//! The exercise options `mount` was given for each host element (issue 43, item 1), kept
//! unchecked for the lesson's bundle, which checks them (`embed::exercise`, and `ready()`
//! through `embed::commands`). Apart from `api.rs`, which imports those two through the widget,
//! so that they can read it without importing `api.rs` back.

use idem_lesson::options::Value;
use leptos::web_sys::Element;

/// Option entries as `mount` read them.
type Entries = Vec<(String, Value)>;

thread_local! {
    /// Each host element's exercise options (empty: none), the last `mount` on it.
    static GIVEN: std::cell::RefCell<Vec<(Element, Entries)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Keeps the exercise options `mount` got for `host` (replacing an earlier mount's; an empty
/// list forgets them).
pub fn set(host: &Element, exercise: Entries) {
    GIVEN.with_borrow_mut(|all| {
        all.retain(|(h, _)| h != host);
        if !exercise.is_empty() {
            all.push((host.clone(), exercise));
        }
    });
}

/// The exercise options `mount` got for `host` (a copy); `None` when it got none. Called only
/// from the lesson's bundle, so its code goes with that file.
pub fn get(host: &Element) -> Option<Entries> {
    GIVEN.with_borrow(|all| {
        all.iter()
            .find(|(h, _)| h == host)
            .map(|(_, exercise)| exercise.clone())
    })
}
