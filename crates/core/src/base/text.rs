//! [`Text`]: a string that never changes once made. In the search worker's build (the core's
//! feature `shared-text`, which `idem-worker`'s feature of that name turns on and Trunk builds
//! the worker with) it is shared by the clones of a world instead of copied, and hashed by a
//! digest taken once when it is made ([`shared`]); everywhere else (the first screen's module,
//! the lesson) it is a plain `String` ([`plain`]), so the bytes before Play do not grow. Both
//! have the same API and the same equality and order (the string's), so the model computes
//! the same things with either; only the speed and the hash values differ.
//!
//! Why the search wants it shared: the explorer clones a world for every branch it tries
//! (hundreds of thousands per search), and a world holds its keys, fingerprints, payment ids
//! and request bodies as strings, none of which is ever edited after it is made. As `String`s,
//! every clone copied each of them (an allocation and a free apiece: about half of all the
//! allocations of a search); shared, a clone counts one more reference. And the explorer
//! fingerprints every situation it meets (`World::view`), which hashed each of these strings
//! byte by byte every time (a request's 64-character SHA-256, its 36-character key): a shared
//! `Text` keeps a 64-bit digest of its bytes, taken once, and hashes as that one word. Equal
//! strings have equal digests, so equal worlds still hash alike. Figures:
//! docs/measurements.md, "#46 item 2, third try" and "fourth try".
//!
//! Both variants are compiled in the core's own tests, which check the API of each
//! (`tests` below); the rest of the core's tests run the shared one (the core's
//! dev-dependency on itself turns the feature on), the first screen's build the plain one.

#[cfg(any(test, not(feature = "shared-text")))]
mod plain;
#[cfg(any(test, feature = "shared-text"))]
mod shared;

#[cfg(not(feature = "shared-text"))]
pub use plain::Text;
#[cfg(feature = "shared-text")]
pub use shared::Text;

#[cfg(test)]
mod tests {
    use std::hash::{Hash, Hasher};

    fn hash_of(value: &impl Hash) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        value.hash(&mut h);
        h.finish()
    }

    /// A `Text` of either variant compares, orders, prints, converts and (de)serialises as the
    /// string it holds, and equal strings hash alike and different ones apart.
    macro_rules! a_text_is_its_string {
        ($Text:ty) => {{
            type T = $Text;
            let a = T::from("key-1");
            let b = T::from(String::from("key-1"));
            assert_eq!(a, b);
            assert_eq!(a, "key-1");
            assert_eq!("key-1", a);
            assert_eq!(a, String::from("key-1"));
            assert_eq!(String::from("key-1"), a);
            assert_eq!(T::from(&String::from("key-1")), a);
            assert_eq!(a.as_str(), "key-1");
            assert_eq!(a.len(), 5);
            assert_eq!(hash_of(&a), hash_of(&b));
            for other in ["key-2", "key-1 ", "", "2-yek", "key-10000000000000000"] {
                assert_ne!(a, other);
                assert_ne!(a, T::from(other));
                assert_ne!(hash_of(&a), hash_of(&T::from(other)), "{other}");
            }
            for (earlier, later) in [("a", "b"), ("key-10", "key-9"), ("", "a")] {
                let (earlier, later) = (T::from(earlier), T::from(later));
                assert!(earlier < later);
                assert!(later > earlier);
            }
            assert_eq!(format!("{a}|{a:?}"), "key-1|\"key-1\"");
            let c = a.clone();
            assert_eq!(c, a);
            assert_eq!(String::from(c), "key-1");
            assert_eq!(T::default(), "");
            let json = serde_json::to_string(&a).expect("serialises");
            assert_eq!(json, "\"key-1\"");
            assert_eq!(serde_json::from_str::<T>(&json).expect("deserialises"), a);
        }};
    }

    #[test]
    fn a_plain_text_is_its_string() {
        a_text_is_its_string!(super::plain::Text);
    }

    /// And a clone of a shared one is the same string without a copy.
    #[test]
    fn a_shared_text_is_its_string_shared() {
        a_text_is_its_string!(super::shared::Text);
        let a = super::shared::Text::from("key-1");
        let c = a.clone();
        assert!(std::ptr::eq(a.as_str(), c.as_str()));
    }

    /// The build in use is the one the feature names (the core's tests run the shared one).
    #[test]
    fn the_feature_picks_the_variant() {
        let a = super::Text::from("x");
        let shared = std::ptr::eq(a.as_str(), a.clone().as_str());
        assert_eq!(shared, cfg!(feature = "shared-text"));
    }
}
