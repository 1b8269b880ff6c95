//! The helpers the model is built on, none of which knows a payment: the seeded random source
//! ([`rng`]), a small ordered map ([`vecmap`]), the JSON writer of the HTTP bodies ([`json`]),
//! and the fingerprint the explorer keys situations by ([`fingerprint`]).

pub(crate) mod fingerprint;
pub(crate) mod json;
pub mod rng;
pub(crate) mod vecmap;
