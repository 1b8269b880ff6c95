//! Closing sentences from the run itself: "What you just saw", the intro of a replayed
//! counter-example and the ledger's constraints. Facts come from the core
//! ([`Outcome`](idem_core::Outcome)); words from the catalogs. What would have prevented a
//! broken run is not said here: the core proves it in the search worker and
//! [`crate::prevention_text`] words it, after this summary is shown. A scenario's hand-written
//! summary is shown only when this run is exactly the scripted run (same scenario and
//! protections, same facts), so it can never contradict what the student just watched.
//!
//! One file per part: the summary (`summary`), the intro at step 0 (`intro`), the protections
//! that close a schedule (`fixes`) and the facts under the stores (`store_facts`).

mod fixes;
mod intro;
mod store_facts;
mod summary;

pub(crate) use fixes::alternatives;
pub use fixes::{closed_by, fix_sentence};
pub use intro::intro;
pub use store_facts::{ledger_constraints, processor_totals_html};
pub use summary::{composed, faults_sentence, summary, summary_after_why, verdict_sentence};
