//! Idempotency Lab: the Leptos (client-side rendered) user interface.
//!
//! Imports go one way: [`view`] (the components) → [`platform`] (the browser and the shared
//! reactive state) → `idem_lesson` (everything computed without a browser: playback, texts,
//! catalogs, geometry, options) → `idem_core` (the model). `scripts/imports.mjs` checks that
//! no file imports one that imports it back.

pub mod platform;
pub mod view;

pub use view::app::App;
pub use view::embed::{mount, MountHandle};
