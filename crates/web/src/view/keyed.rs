//! Keyed lists whose rows leave nothing behind when they go, and the rule for what a row may
//! subscribe to.
//!
//! Two things in reactive_graph 0.2 (Leptos 0.8) make a view that is drawn and dropped again
//! and again (a row of a keyed list, the children of `<Show>`, a `move ||` view) leave memory
//! behind, about a hundred bytes each time; over the soak test's 10 000 steps the wasm memory
//! grew by 0.8 MB:
//!
//! 1. An `Owner` keeps a weak handle to every child it ever had until it is itself cleaned up,
//!    and a weak handle keeps the child's allocation. `<For>` makes each row's owner a child
//!    of the owner the list is built in, which lives as long as the page. [`keyed_rows`] is
//!    `<For>` with one difference: a row's owner is nobody's child. It is held only by the row,
//!    so when the row goes its owner, and everything created in it, is freed; when the whole
//!    list goes, its rows go with it. The price: a row sees no context from above, so its
//!    `children` closure captures what it needs (the lab, node refs) instead of calling
//!    `use_context`.
//! 2. A reactive closure that is dropped stays in the subscriber list of everything it read:
//!    a signal forgets it the next time the signal changes, a `Memo` never. So a view that
//!    is dropped again and again must read only what changes on every step (the run, the
//!    clock), never a memo that outlives it, and must read the layout and the language (which
//!    hardly ever change) untracked: a list is keyed by the layout instead, and the whole
//!    page is drawn again when the language changes.

use std::hash::Hash;

use leptos::prelude::*;
use leptos::tachys::reactive_graph::OwnedView;
use leptos::tachys::view::keyed::{keyed, SerializableKey};

/// The items `each` returns, one row per key, each row kept (with its element and its
/// reactive parts) while its key stays. Like `<For each key children/>`; see the module doc
/// for the difference and for what `children` may read.
pub fn keyed_rows<I, T, K, V>(
    each: impl Fn() -> I + Send + 'static,
    key: impl Fn(&T) -> K + Send + Clone + 'static,
    children: impl Fn(T) -> V + Send + Clone + 'static,
) -> impl IntoView
where
    I: IntoIterator<Item = T> + Send + 'static,
    T: Send + 'static,
    K: Eq + Hash + SerializableKey + 'static,
    V: IntoView + 'static,
{
    let row = move |_, item| {
        let owner = row_owner();
        let view = owner.with(|| children(item));
        (drop, OwnedView::new_with_owner(view, owner))
    };
    move || keyed(each(), key.clone(), row.clone())
}

/// A new owner with no parent (the current owner, if any, is current again afterwards).
fn row_owner() -> Owner {
    let current = Owner::current();
    if let Some(current) = current.clone() {
        current.unset();
    }
    let owner = Owner::new();
    if let Some(current) = current {
        current.set();
    }
    owner
}
