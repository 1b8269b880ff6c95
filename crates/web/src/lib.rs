//! Idempotency Lab: the Leptos (client-side rendered) user interface.
//!
//! Pure parts (geometry, labels, playback, text, catalogs) have no browser types and are
//! unit-tested natively; components read the shared [`lab::Lab`] from context.

pub mod app;
pub mod browser;
pub mod calculator;
pub mod controls;
pub mod crash;
pub mod embed;
pub mod explorer;
pub mod faults;
pub mod geometry;
pub mod hooks;
pub mod i18n;
pub mod lab;
pub mod labels;
pub mod lang;
pub mod ledger_panel;
pub mod markup;
pub mod outcome_text;
pub mod panels;
pub mod path;
pub mod playback;
pub mod recap;
pub mod reference;
pub mod sequence;
pub mod share;
pub mod stage;
pub mod summary;
#[cfg(test)]
mod test_support;
pub mod text;
pub mod theme;
pub mod topology;
pub mod transcript;

pub use app::App;
pub use embed::{mount, MountHandle};
