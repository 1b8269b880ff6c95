//! # idem-core: the simulation behind Idempotency Lab
//!
//! A deterministic, sans-IO model of a payment service: a mobile [client](client) that loses
//! acks and retries, a payment [API](api) that owns idempotency, an idempotency
//! [store](store) (Redis), a payments [ledger](ledger) (PostgreSQL) and a card
//! [processor](processor). The whole [`World`] is a value: `Clone + PartialEq + Debug + serde`.
//! It never reads a clock or a global RNG; time is [`SimTime`] and randomness comes from the
//! scenario's seed. Stepping back is restoring an earlier clone; trying every failure is
//! cloning and branching.
//!
//! ## The run loop
//!
//! Each node is a machine fed with inputs (`handle`, `on_timeout`) whose outputs are drained
//! with `poll`; the world joins them with a network queue ordered by (delivery time, id).
//! A caller only needs the world:
//!
//! ```
//! use idem_core::{Scenario, World};
//!
//! let scenario = Scenario::by_id("naive").expect("a seed scenario");
//! let mut world = World::new(&scenario);
//! while let Some(step) = world.step() {
//!     // draw the step: step.notes narrate it, step.sent are the new packets
//!     let _ = step;
//! }
//! let verdict = world.verdict();
//! assert_eq!(verdict.money.statement_cents, 20_000); // the ack was lost: charged twice
//! assert!(!verdict.ok());
//! ```
//!
//! Faults and buttons are [`Action`]s applied with [`World::apply`]; they are recorded, so
//! [`World::replay`] rebuilds any state from the scenario and the injected actions.

pub mod action;
pub mod challenge;
pub mod chaos;
mod check;
pub mod compare;
pub mod cost;
pub mod http;
mod json;
pub mod link;
pub mod net;
mod nodes;
pub mod note;
pub mod phase;
pub mod protections;
pub mod record;
pub mod rng;
pub mod scenario;
pub mod sql;
pub mod time;
pub mod topology;
pub mod vecmap;
pub mod world;

pub use check::{explore, explore_brute, outcome, verdict};
pub(crate) use check::{fingerprint, meaning};
pub use nodes::{api, client, ledger, processor, store};

pub use action::{Action, ActionError, OpKind, OpSpec};
pub use challenge::{Attempt, Challenge, Standing};
pub use compare::{ClassDiff, Gist, Pair};
pub use explore::{Bounds, CounterExample, Explorer, Report};
pub use link::{DeepLink, LinkError};
pub use note::Note;
pub use outcome::{closing_protections, Ending, Fault, Figures, OpOutcome, Outcome};
pub use phase::Phase;
pub use protections::{Protection, Protections};
pub use scenario::{Scenario, ScenarioError, Story};
pub use time::SimTime;
pub use topology::{Link, MsgId, Node, OpId, UserId};
pub use verdict::{Invariant, Status, Verdict, Violation};
pub use world::{Cause, RunEnd, Step, World};
