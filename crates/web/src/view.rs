//! The components. The page ([`app`]) draws its parts slice by slice ([`slices`]); the parts
//! drawn later come in bundles of code ([`later`] loads them, [`bundles`] is their table, the
//! one file besides `app` that names them). The player ([`stage`]: topology, sequence diagram,
//! verdict and state panels), the lesson's parts around it ([`panels`]), the masthead's
//! [`lang_switch`], the widget for course pages ([`embed`]) and its data stream ([`stream`]) and keyed lists that leave nothing
//! behind ([`keyed`]).
//!
//! Imports go one way here too: `app` and `bundles` name components; `slices` and `later` name
//! none, so the player can ask them whether its slice is drawn without importing the page.
//! One inversion is deliberate, and no import: a part that draws a later part (`later_here`)
//! reaches the bundle table only through the function pointers the page put in its `Code`.

pub mod app;
pub mod bundles;
pub mod embed;
pub mod keyed;
pub mod lang_switch;
pub mod later;
pub mod panels;
pub mod slices;
pub mod stage;
pub mod stream;
