//! Where the lesson is drawn ([`Place`], carried by the lab's context: `Lab::place`, read with
//! `lab::use_place`) for the parts that differ by it (the glossary's links in the narration,
//! the page's slices drawn one per frame, the student's progress, the last search a challenge
//! reads), and [`required`], through which every context the parts cannot do without is read:
//! a part drawn without its provider is a bug, said at once with the provider's name, never a
//! value of its own made up in silence.

use leptos::prelude::*;

/// Where the lesson is drawn: given to [`crate::platform::lab::provide_lab`], which keeps it in
/// the lab's context (one lookup for both: the bytes before Play).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The lesson's own page (`App`): every part, drawn a slice per frame.
    Page,
    /// A widget (`?embed`, or `mount()` in a course page): the player and the parts its
    /// options ask for, drawn at once.
    Widget,
}

/// The context `T`; `provider` names what provides it, for the panic when it is missing.
pub fn required<T: Clone + 'static>(provider: &'static str) -> T {
    use_context::<T>().unwrap_or_else(|| missing(provider))
}

#[cold]
#[inline(never)]
fn missing(provider: &'static str) -> ! {
    panic!("a required context is missing ({provider})")
}
