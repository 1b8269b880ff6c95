//! Judging runs: the invariants behind the [`verdict`], the facts of a run's [`outcome`], and
//! the [`explore`]r that tries every fault schedule up to a bound (with the brute-force
//! oracle it is tested against, `explore_brute`, behind the `oracle` feature), and the same
//! search cut into [`parts`] that run apart and merge into the same report.

pub(crate) mod explore;
#[cfg(any(test, feature = "oracle"))]
pub(crate) mod explore_brute;
pub(crate) mod meaning;
pub(crate) mod outcome;
pub(crate) mod parts;
pub(crate) mod placed;
pub(crate) mod prevention;
pub(crate) mod verdict;
