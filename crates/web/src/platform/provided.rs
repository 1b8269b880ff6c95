//! Contexts a part cannot do without. A part drawn outside the page or a widget is a bug in
//! the page, not a state to paper over: building a fresh, detached value in its place would
//! draw a part that answers nothing, so the part stops, naming who should have provided it.

use leptos::prelude::*;

/// The context `T` the enclosing page or widget provided.
///
/// # Panics
/// When none is there, saying what was missing and which function provides it.
#[track_caller]
pub fn expect_provided<T: Clone + 'static>(what: &'static str, provider: &'static str) -> T {
    use_context::<T>().unwrap_or_else(|| panic!("no {what} in context: {provider} provides it"))
}
