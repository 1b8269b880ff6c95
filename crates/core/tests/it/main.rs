//! The core's integration tests, one test binary (`cargo test -p idem-core --test it`).
//!
//! Each file of this folder is a module here, named as the file was when it was a test binary
//! of its own: a test is found by its module, as `s1_naive_post::` or `properties::` (run one
//! file's tests with `cargo test -p idem-core --test it -- properties::`). One binary instead
//! of one per file: cargo compiled the shared helpers, proptest's generics and the core's
//! monomorphised code 25 times and linked 25 executables for a test run that takes seconds
//! (docs/testing.md, "Layout of the tests"). A new test file goes into this folder with a
//! `mod` line below; a file left at `tests/*.rs` still builds as a binary of its own.
//! The shared helpers stay in `tests/support/` (the golden example reads them too).

#[path = "../support/mod.rs"]
mod support;

mod actions_and_views;
mod api_combinations;
mod api_world_mutants;
mod backends;
mod client_machine;
mod compare_challenge;
mod cost;
mod deep_link_fuzz;
mod determinism;
mod explore_mutants;
mod explorer;
mod http_wire;
mod leases;
mod mechanics;
mod outcome_facts;
mod parts;
mod prevention;
mod properties;
mod s1_naive_post;
mod s2_idempotency_key;
mod s3_compare_and_set;
mod s4_counter;
mod slow_holder;
mod speakers;
mod user_side;
mod user_truth;
