//! [`Text`]: a string that never changes once made, shared by the clones of a world instead
//! of copied.
//!
//! The explorer clones a world for every branch it tries (hundreds of thousands per search),
//! and a world holds its keys, fingerprints, payment ids and request bodies as strings, none
//! of which is ever edited after it is made. As `String`s, every clone copied each of them (an
//! allocation and a free apiece: about half of all the allocations of a search); as `Text`,
//! a clone counts one more reference. Equality, order and hashing are the string's own (a
//! `Text` hashes exactly as its `String` did), so nothing the model computes changes.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An immutable, cheaply cloned string (reads as a `&str`; serialised as a string).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Text(Arc<str>);

impl Text {
    /// The string.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for Text {
    fn default() -> Self {
        Text::from("")
    }
}

impl Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Self {
        Text(Arc::from(s))
    }
}

impl From<String> for Text {
    fn from(s: String) -> Self {
        Text(Arc::from(s))
    }
}

impl From<&String> for Text {
    fn from(s: &String) -> Self {
        Text::from(s.as_str())
    }
}

impl From<Text> for String {
    fn from(t: Text) -> Self {
        t.0.as_ref().to_owned()
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        &*self.0 == other.as_str()
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == &*other.0
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == &*other.0
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Text::from)
    }
}

#[cfg(test)]
mod tests {
    use super::Text;
    use std::hash::{Hash, Hasher};

    fn hash_of(value: &impl Hash) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        value.hash(&mut h);
        h.finish()
    }

    /// A `Text` compares, orders, hashes and prints as the string it holds, and a clone is
    /// the same string without a copy.
    #[test]
    fn a_text_is_its_string() {
        let a = Text::from("key-1");
        let b = Text::from(String::from("key-1"));
        assert_eq!(a, b);
        assert_eq!(a, "key-1");
        assert_eq!(hash_of(&a), hash_of(&String::from("key-1")));
        let (earlier, later) = (Text::from("a"), Text::from("b"));
        assert!(earlier < later);
        assert_eq!(format!("{a}|{a:?}"), "key-1|\"key-1\"");
        let c = a.clone();
        assert!(std::ptr::eq(a.as_str(), c.as_str()));
        assert_eq!(String::from(c), "key-1");
        assert_eq!(Text::default(), "");
    }
}
