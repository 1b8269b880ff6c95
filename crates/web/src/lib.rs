//! Idempotency Lab: the Leptos (client-side rendered) user interface.
//!
//! Pure parts (geometry, labels, playback, text, catalogs) have no browser types and are
//! unit-tested natively; components read the shared [`lab::Lab`] from context.
//!
//! Layout: [`stage`] is the player (topology, sequence diagram, verdict and state panels,
//! playback), [`panels`] the lesson's parts around it (controls, faults, explorer, path,
//! prediction and recap, calculator, reading), [`embed`] the widget for course pages (options,
//! widget, JS API, Embed snippet); at the top sit the page ([`app`]), the shared state
//! ([`lab`]), keyed lists that leave nothing behind ([`keyed`]), the browser glue ([`hooks`],
//! [`browser`]) and the texts ([`i18n`], [`text`], [`outcome_text`], [`markup`]).

pub mod app;
pub mod browser;
pub mod crash;
pub mod embed;
pub mod events;
pub mod hooks;
pub mod i18n;
pub mod keyed;
pub mod lab;
pub mod lang;
pub mod later;
pub mod markup;
pub mod outcome_text;
pub mod panels;
pub mod stage;
#[cfg(test)]
mod test_support;
pub mod text;
pub mod theme;

pub use app::App;
pub use embed::{mount, MountHandle};
