//! Judging runs: the invariants behind the [`verdict`], the facts of a run's [`outcome`], and
//! the [`explore`]r that tries every fault schedule up to a bound (with the brute-force
//! oracle it is tested against, [`explore_brute`]).

pub mod explore;
pub mod explore_brute;
pub(crate) mod fingerprint;
pub(crate) mod meaning;
pub mod outcome;
pub mod verdict;
