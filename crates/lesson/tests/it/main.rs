//! The lesson crate's integration tests, one test binary (`cargo test -p idem-lesson --test
//! it`), as in the core (docs/testing.md, "Layout of the tests"): each file of this folder is
//! a module, found by its old binary's name (`cargo test -p idem-lesson --test it --
//! run_words::`). A new test file goes into this folder with a `mod` line below.

mod docs_lists;
mod events_schema;
mod link_params_fuzz;
mod recording;
mod run_words;
mod teaching_links;
