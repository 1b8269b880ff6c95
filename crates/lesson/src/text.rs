//! Sentences from data: the narration of a step (from its notes), the verdict badge (from the
//! core's invariants), and readable refusals (from `ActionError` and `LinkError`). Pure; the
//! words come from the message catalog.
//!
//! One file per kind of sentence: the badge (`badge`), the narration of a step (`narration`)
//! and the refusals (`refusals`).

mod badge;
mod narration;
mod refusals;
#[cfg(test)]
mod speak4;
pub mod speaker;
#[cfg(test)]
mod speaker_words;
#[cfg(test)]
mod words3;

pub use badge::{badge, badge_for, badge_text, Badge};
pub(crate) use badge::{kind_of, OpKind};
pub use narration::{fault_mark, narrate_plain};
pub use refusals::{action_error, link_error};
