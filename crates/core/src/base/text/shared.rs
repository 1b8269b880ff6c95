//! The shared [`Text`] (feature `shared-text`, the search worker's build): an `Arc<str>`
//! with a 64-bit digest of its bytes taken once, hashed as that digest.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An immutable, cheaply cloned string (reads as a `&str`; serialised as a string). Ordered
/// and compared as its string; hashed as a digest of its bytes (so not interchangeable with a
/// `&str` as a hash-map key, which is why it does not implement `Borrow<str>`).
pub struct Text {
    digest: u64,
    text: Arc<str>,
}

impl Text {
    /// The string.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    fn new(text: Arc<str>) -> Text {
        Text {
            digest: digest(text.as_bytes()),
            text,
        }
    }
}

/// A 64-bit digest of `bytes` (the same on every platform: little-endian words, a fixed mix):
/// what a [`Text`] hashes as. Two different strings share one with a chance of about 2^-64,
/// far below what the explorer's 128-bit situation fingerprint already accepts.
fn digest(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15 ^ bytes.len() as u64;
    let (words, rest) = bytes.as_chunks::<8>();
    for word in words {
        h = (h ^ u64::from_le_bytes(*word)).wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 32;
    }
    let mut last = [0u8; 8];
    last[..rest.len()].copy_from_slice(rest);
    h = (h ^ u64::from_le_bytes(last)).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 29)
}

impl Clone for Text {
    fn clone(&self) -> Text {
        Text {
            digest: self.digest,
            text: Arc::clone(&self.text),
        }
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.digest == other.digest && self.text == other.text
    }
}

impl Eq for Text {}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Text) -> std::cmp::Ordering {
        self.text.cmp(&other.text)
    }
}

impl Hash for Text {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.digest);
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
        &self.text
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Self {
        Text::new(Arc::from(s))
    }
}

impl From<String> for Text {
    fn from(s: String) -> Self {
        Text::new(Arc::from(s))
    }
}

impl From<&String> for Text {
    fn from(s: &String) -> Self {
        Text::from(s.as_str())
    }
}

impl From<Text> for String {
    fn from(t: Text) -> Self {
        t.text.as_ref().to_owned()
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        &*self.text == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        &*self.text == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        &*self.text == other.as_str()
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == &*other.text
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == &*other.text
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == &*other.text
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.text, f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.text, f)
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Text::from)
    }
}
