//! A small ordered map kept as a sorted `Vec`. The world's maps hold a handful of entries; a
//! `Vec` with binary search serves them as well as a `BTreeMap` and costs the WebAssembly
//! bundle far fewer bytes (a `BTreeMap` brings its node machinery for every key/value type).

use std::borrow::Borrow;

use serde::{Deserialize, Serialize};

/// A map ordered by key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct VecMap<K, V> {
    items: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap { items: Vec::new() }
    }
}

impl<K: Ord, V> VecMap<K, V> {
    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.items.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// The value of `key`.
    pub(crate) fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.items[i].1)
    }

    /// The value of `key`, mutably.
    pub(crate) fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.items[i].1)
    }

    /// Whether `key` is present.
    pub(crate) fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Sets `key` to `value`; returns the old value.
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.items[i].1, value)),
            Err(i) => {
                self.items.insert(i, (key, value));
                None
            }
        }
    }

    /// Removes `key`; returns its value.
    pub(crate) fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.items.remove(i).1)
    }

    /// Keeps the entries for which `keep` is true.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&K, &V) -> bool) {
        self.items.retain(|(k, v)| keep(k, v));
    }

    /// Entries in key order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.items.iter().map(|(k, v)| (k, v))
    }

    /// Values in key order.
    pub(crate) fn values(&self) -> impl Iterator<Item = &V> {
        self.items.iter().map(|(_, v)| v)
    }

    /// Number of entries.
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    /// Removes everything.
    pub(crate) fn clear(&mut self) {
        self.items.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_like_an_ordered_map() {
        let mut m = VecMap::default();
        assert_eq!(m.insert("b".to_owned(), 2), None);
        assert_eq!(m.insert("a".to_owned(), 1), None);
        assert_eq!(m.insert("c".to_owned(), 3), None);
        assert_eq!(m.insert("b".to_owned(), 20), Some(2));
        assert_eq!(
            m.iter().map(|(k, v)| (k.as_str(), *v)).collect::<Vec<_>>(),
            [("a", 1), ("b", 20), ("c", 3)]
        );
        assert_eq!(m.get("b"), Some(&20));
        assert!(m.contains_key("c"));
        assert_eq!(m.remove("a"), Some(1));
        assert_eq!(m.remove("a"), None);
        m.retain(|_, v| *v > 5);
        assert_eq!(m.len(), 1);
        if let Some(v) = m.get_mut("b") {
            *v = 7;
        }
        assert_eq!(m.values().copied().collect::<Vec<_>>(), [7]);
        m.clear();
        assert_eq!(m.len(), 0);
    }
}
