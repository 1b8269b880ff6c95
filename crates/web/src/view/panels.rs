//! The lesson's parts around the player: the scenario and protection controls, the faults,
//! "Try every failure", the student's path, the prediction and recap, the cost calculator and
//! the reading below the player.

pub mod calculator;
pub mod challenge;
pub mod checked;
pub mod controls;
pub mod explorer;
pub mod faults;
pub mod glossary;
pub mod path;
pub mod quiz;
pub mod recap;
pub mod reference;
pub mod sources;
