//! End-to-end browser tests for Idempotency Lab land here.
//!
//! They will drive headless Chromium against the page that `trunk build`
//! produces in `dist/`. For now this crate is an empty placeholder.
