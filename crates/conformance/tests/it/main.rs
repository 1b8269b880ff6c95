//! The conformance tests, one test binary (`cargo test -p idem-conformance --test it`, run by
//! `bash scripts/conformance.sh` against throwaway PostgreSQL and Redis servers).
//!
//! Each file of this folder is a module named as the file was when it was a test binary of its
//! own (`scenarios::`, `pitfalls::`, `fencing::`); `common` (the connections and the replays)
//! is shared, and its `serial()` lock keeps the tests one at a time across all of them, as
//! they share one Redis. A new test file goes into this folder with a `mod` line below
//! (docs/testing.md, "Layout of the tests").

#[path = "../common/mod.rs"]
mod common;

mod fencing;
mod pitfalls;
mod scenarios;
