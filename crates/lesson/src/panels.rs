//! The pure half of the lesson's parts around the player (`idem-web`'s `view/panels/`): what
//! each part shows, as view models, sentences and escaped markup, tested natively.

pub mod assumptions;
pub mod calculator;
pub mod challenge;
pub mod controls;
pub mod explorer;
pub mod faults;
pub mod glossary;
pub mod protections;
pub mod quiz;
pub mod recap;
pub mod reference;
pub mod sources;
pub mod why;
