//! Idempotency Lab's lesson layer: everything the page computes without a browser. It depends
//! on `idem-core` only (the `leptos` feature lets [`markup::SafeHtml`] be an `inner_html`
//! value); its tests run natively. The web crate draws what it says.
//!
//! - the run on screen and its playback ([`playback`]), the player's policy frame by frame
//!   ([`player`]), the deep link's language and the mount options ([`lang`], [`options`]), the student's progress ([`progress`]), the events for
//!   course pages ([`events`]), their data stream ([`stream`]) and a student's work recorded
//!   for replay ([`recording`]), the page's anchors ([`anchors`]);
//! - the text layer: catalogs and their parsing ([`i18n`]), narration ([`text`]), outcome
//!   sentences ([`outcome_text`]), labels and plurals ([`labels`]);
//! - the geometry of the topology ([`geometry`]), the colour [`theme`], the escaped markup
//!   ([`markup`]);
//! - the view models and display-only HTML of the player ([`stage`]) and of the lesson's parts
//!   around it ([`panels`]), each beside the component in `idem-web` of the same name.

pub mod anchors;
pub mod events;
pub mod exercise;
pub mod fault_record;
pub mod fold;
pub mod geometry;
pub mod i18n;
pub mod labels;
pub mod lang;
pub mod link_params;
pub mod markup;
pub mod options;
pub mod outcome_text;
pub mod panels;
pub mod playback;
pub mod player;
pub mod prevention_text;
pub mod progress;
pub mod recording;
pub mod stage;
pub mod stream;
#[cfg(any(test, feature = "test-support"))]
pub mod test_support;
pub mod text;
pub mod theme;
