//! The helpers the model is built on, none of which knows a payment: the seeded random source
//! ([`rng`]), a small ordered map ([`vecmap`]), the JSON writer of the HTTP bodies ([`json`]),
//! the fingerprint the explorer keys situations by ([`fingerprint`]) and the canonical view
//! that feeds it, told which values are times and message ids ([`canonical`]), and the
//! immutable string the clones of a world share ([`text`]).

pub(crate) mod canonical;
pub(crate) mod fingerprint;
pub(crate) mod json;
pub mod rng;
pub(crate) mod text;
pub(crate) mod vecmap;
