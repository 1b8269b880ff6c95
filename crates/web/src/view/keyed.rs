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

use std::any::Any;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use leptos::prelude::*;
use leptos::tachys::reactive_graph::OwnedView;
use leptos::tachys::view::keyed::keyed;

/// The items `each` returns, one row per key, each row kept (with its element and its
/// reactive parts) while its key stays. Like `<For each key children/>`; see the module doc
/// for the difference and for what `children` may read.
///
/// Every list goes through one copy of the keyed diff ([`erased_rows`]): its items become a key
/// and a boxed row, so the diff, about 4 KB of wasm, is not repeated for each item type (the
/// topology's links, nodes and packets are three lists of the first screen's module; see
/// docs/measurements.md, "Sizes").
pub fn keyed_rows<I, T, K, V>(
    each: impl Fn() -> I + Send + 'static,
    key: impl Fn(&T) -> K + Send + Clone + 'static,
    children: impl Fn(T) -> V + Send + Clone + 'static,
) -> impl IntoView
where
    I: IntoIterator<Item = T> + Send + 'static,
    T: Send + 'static,
    K: Eq + Hash + Send + Sync + 'static,
    V: IntoView + Send + 'static,
{
    erased_rows(Box::new(move || {
        each()
            .into_iter()
            .map(|item| {
                let row_key = RowKey(Arc::new(key(&item)));
                let children = children.clone();
                let draw: DrawRow = Box::new(move || children(item).into_view().into_any());
                (row_key, draw)
            })
            .collect()
    }))
}

/// Draws one row of a keyed list, once, when its key first appears.
type DrawRow = Box<dyn FnOnce() -> AnyView + Send>;

/// The keyed list of every [`keyed_rows`], with one item type: a key and the row's drawing.
fn erased_rows(each: Box<dyn Fn() -> Vec<(RowKey, DrawRow)> + Send>) -> impl IntoView {
    let row = move |_, (_, draw): (RowKey, DrawRow)| {
        let owner = row_owner();
        let view = owner.with(draw);
        (drop, OwnedView::new_with_owner(view, owner))
    };
    move || keyed(each(), |(key, _): &(RowKey, DrawRow)| key.clone(), row)
}

/// A row's key, of any type, compared and hashed as itself (two keys of different types are
/// never equal; a list has keys of one type).
#[derive(Clone)]
struct RowKey(Arc<dyn DynKey>);

/// What [`RowKey`] needs of a key, through a pointer.
trait DynKey: Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn equals(&self, other: &dyn DynKey) -> bool;
    fn hash_into(&self, state: &mut dyn Hasher);
}

impl<K: Eq + Hash + Send + Sync + 'static> DynKey for K {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn equals(&self, other: &dyn DynKey) -> bool {
        other.as_any().downcast_ref::<K>() == Some(self)
    }
    fn hash_into(&self, mut state: &mut dyn Hasher) {
        self.hash(&mut state);
    }
}

impl PartialEq for RowKey {
    fn eq(&self, other: &Self) -> bool {
        self.0.equals(&*other.0)
    }
}

impl Eq for RowKey {}

impl Hash for RowKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash_into(state);
    }
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
