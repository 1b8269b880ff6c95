//! The explorer's canonical view of a situation: a visitor that walks the world and names the
//! two kinds of value it must not take at face value, times and message ids.
//!
//! Two situations that differ only by a shift in time, or by how their messages are numbered,
//! have the same future: nothing in the simulation reads the clock's absolute value (only
//! differences and comparisons), and message ids are only compared and tested for presence.
//! So the view hashes every time as its distance from now and leaves message ids out. The
//! types that hold a time or an id say so by implementing [`Canonical`] and visiting those
//! fields with [`CanonicalView::time`] and [`CanonicalView::msg_id`]; everything else is
//! hashed as it is, by its plain `Hash`. `SimTime` and `MsgId` hash plainly too, so a type
//! hashed plainly that holds one counts every absolute value apart: the explorer then finds
//! more situations than it should (which its pinned counts catch), never fewer.

use std::hash::{Hash, Hasher};

use crate::base::fingerprint::Fingerprint;
use crate::base::vecmap::VecMap;
use crate::time::SimTime;
use crate::topology::MsgId;

/// A value as the explorer sees it: times relative to now, message ids left out.
pub(crate) trait Canonical {
    /// Feeds the value to `view`, each time through [`CanonicalView::time`], each message id
    /// through [`CanonicalView::msg_id`], the rest through [`CanonicalView::plain`].
    fn canonical(&self, view: &mut CanonicalView);
}

/// The canonical view being built: a fingerprint and the now that times are measured from.
pub(crate) struct CanonicalView {
    fingerprint: Fingerprint,
    now: SimTime,
}

/// What a message id contributes: the same word for every id, so that whether there is one
/// (an `Option<MsgId>`) still counts but which one does not.
const MSG_ID: u64 = u64::MAX;

impl CanonicalView {
    /// An empty view of a situation at `now`.
    pub(crate) fn new(now: SimTime) -> CanonicalView {
        CanonicalView {
            fingerprint: Fingerprint::default(),
            now,
        }
    }

    /// A time, as its distance from now (signed, wrapping: a time already past hashes as a
    /// large distance, apart from every time to come).
    pub(crate) fn time(&mut self, at: SimTime) {
        self.fingerprint.write_u64(at.0.wrapping_sub(self.now.0));
    }

    /// A message id: left out, only its place is marked.
    pub(crate) fn msg_id(&mut self, _id: MsgId) {
        self.fingerprint.write_u64(MSG_ID);
    }

    /// A value that holds neither a time nor a message id, by its plain `Hash`.
    pub(crate) fn plain<T: Hash + ?Sized>(&mut self, value: &T) {
        value.hash(&mut self.fingerprint);
    }

    /// A value that may hold times or message ids.
    pub(crate) fn visit<T: Canonical + ?Sized>(&mut self, value: &T) {
        value.canonical(self);
    }

    /// The end of a list whose items were visited one by one (so that the next field cannot
    /// be read as one more item).
    pub(crate) fn end_of_list(&mut self) {
        self.fingerprint.write_usize(usize::MAX);
    }

    /// The view's 128-bit fingerprint.
    pub(crate) fn finish128(&self) -> u128 {
        self.fingerprint.finish128()
    }
}

impl Canonical for SimTime {
    fn canonical(&self, view: &mut CanonicalView) {
        view.time(*self);
    }
}

impl Canonical for MsgId {
    fn canonical(&self, view: &mut CanonicalView) {
        view.msg_id(*self);
    }
}

impl<T: Canonical + ?Sized> Canonical for &T {
    fn canonical(&self, view: &mut CanonicalView) {
        (**self).canonical(view);
    }
}

impl<T: Canonical + ?Sized> Canonical for Box<T> {
    fn canonical(&self, view: &mut CanonicalView) {
        (**self).canonical(view);
    }
}

impl<T: Canonical> Canonical for Option<T> {
    fn canonical(&self, view: &mut CanonicalView) {
        match self {
            None => view.plain(&0u8),
            Some(value) => {
                view.plain(&1u8);
                value.canonical(view);
            }
        }
    }
}

/// A list: its length, then its items.
impl<T: Canonical> Canonical for [T] {
    fn canonical(&self, view: &mut CanonicalView) {
        view.plain(&self.len());
        for item in self {
            item.canonical(view);
        }
    }
}

impl<T: Canonical> Canonical for Vec<T> {
    fn canonical(&self, view: &mut CanonicalView) {
        self.as_slice().canonical(view);
    }
}

impl<T: Canonical> Canonical for std::collections::VecDeque<T> {
    fn canonical(&self, view: &mut CanonicalView) {
        view.plain(&self.len());
        for item in self {
            item.canonical(view);
        }
    }
}

impl<K: Ord + Hash, V: Canonical> Canonical for VecMap<K, V> {
    fn canonical(&self, view: &mut CanonicalView) {
        view.plain(&self.len());
        for (key, value) in self.iter() {
            view.plain(key);
            value.canonical(view);
        }
    }
}

/// A value and a time (the processor's remembered keys: the answer and when it expires).
impl<A: Hash, B: Canonical> Canonical for (A, B) {
    fn canonical(&self, view: &mut CanonicalView) {
        view.plain(&self.0);
        self.1.canonical(view);
    }
}

#[cfg(test)]
mod tests {
    use super::{Canonical, CanonicalView};
    use crate::base::vecmap::VecMap;
    use crate::time::SimTime;
    use crate::topology::MsgId;

    fn view_of(now: u64, value: &impl Canonical) -> u128 {
        let mut view = CanonicalView::new(SimTime(now));
        view.visit(value);
        view.finish128()
    }

    /// Times count by their distance from now: the same distance at another now is the same
    /// view, another distance is not, and a time past is apart from every time to come.
    #[test]
    fn times_count_by_their_distance_from_now() {
        assert_eq!(
            view_of(1_000, &SimTime(1_500)),
            view_of(7_000, &SimTime(7_500))
        );
        assert_ne!(
            view_of(1_000, &SimTime(1_500)),
            view_of(1_000, &SimTime(1_600))
        );
        assert_ne!(
            view_of(1_000, &SimTime(900)),
            view_of(1_000, &SimTime(1_100))
        );
        assert_ne!(view_of(1_000, &SimTime(1_000)), view_of(1_000, &SimTime(0)));
    }

    /// Which message an id names is left out; whether there is one is not.
    #[test]
    fn message_ids_are_left_out_but_their_presence_counts() {
        assert_eq!(view_of(0, &MsgId(1)), view_of(0, &MsgId(9)));
        assert_eq!(view_of(0, &Some(MsgId(1))), view_of(0, &Some(MsgId(2))));
        assert_ne!(view_of(0, &Some(MsgId(1))), view_of(0, &None::<MsgId>));
        // An id is not a time: one left out is apart from a time that happens to be now.
        assert_ne!(view_of(0, &MsgId(0)), view_of(0, &SimTime(0)));
    }

    /// Lists count their length and each item in order; maps their keys too; a pair its
    /// plain half and its canonical half.
    #[test]
    fn lists_maps_and_pairs_count_every_part() {
        let t = SimTime;
        assert_ne!(view_of(0, &vec![t(1)]), view_of(0, &vec![t(1), t(1)]));
        assert_ne!(view_of(0, &vec![t(1), t(2)]), view_of(0, &vec![t(2), t(1)]));
        assert_eq!(view_of(0, &vec![t(5)]), view_of(4, &vec![t(9)]));
        let deque = |items: &[u64]| {
            items
                .iter()
                .map(|&i| t(i))
                .collect::<std::collections::VecDeque<_>>()
        };
        assert_ne!(view_of(0, &deque(&[1])), view_of(0, &deque(&[1, 1])));
        assert_eq!(view_of(0, &deque(&[3])), view_of(1, &deque(&[4])));
        let map = |key: &str, at: u64| {
            let mut m = VecMap::default();
            m.insert(key.to_owned(), t(at));
            m
        };
        assert_ne!(view_of(0, &map("a", 1)), view_of(0, &map("b", 1)));
        assert_ne!(view_of(0, &map("a", 1)), view_of(0, &map("a", 2)));
        assert_ne!(
            view_of(0, &map("a", 1)),
            view_of(0, &VecMap::<String, SimTime>::default())
        );
        assert_eq!(view_of(0, &map("a", 1)), view_of(10, &map("a", 11)));
        assert_ne!(view_of(0, &("a", t(1))), view_of(0, &("b", t(1))));
        assert_ne!(view_of(0, &("a", t(1))), view_of(0, &("a", t(2))));
        assert_eq!(view_of(0, &Box::new(t(1))), view_of(0, &t(1)));
        assert_eq!(view_of(0, &&t(1)), view_of(0, &t(1)));
    }

    /// A list visited item by item is closed, so what follows is not read as one more item.
    #[test]
    fn the_end_of_a_list_counts() {
        let closed = |ended: bool| {
            let mut view = CanonicalView::new(SimTime(0));
            view.time(SimTime(1));
            if ended {
                view.end_of_list();
            }
            view.time(SimTime(2));
            view.finish128()
        };
        assert_ne!(closed(true), closed(false));
    }
}
