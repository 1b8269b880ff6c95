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
//!
//! ## The API
//!
//! Every public item has one path. The model's values are at the root (the world, scenarios,
//! actions, protections, the verdict, the explorer, links, challenges, comparisons); the
//! machines and what they exchange are in their own namespaces ([`api`], [`client`], [`store`],
//! [`ledger`], [`processor`], their [`message`]s, the [`net`]work that carries them, and the
//! [`http`], [`sql`] and [`record`] formats), as are the cost model ([`cost`]), "Surprise me"
//! ([`chaos`]) and the seeded random source ([`rng`]). The brute-force oracle the explorer is
//! tested against is behind the `oracle` feature.

#![warn(unreachable_pub)]

mod action;
mod base;
mod challenge;
pub mod chaos;
mod check;
mod compare;
pub mod cost;
pub mod http;
mod link;
pub mod net;
mod nodes;
mod note;
mod phase;
mod protections;
pub mod record;
mod scenario;
pub mod sql;
mod time;
mod topology;
mod world;

// Internal paths the modules use for one another (`crate::store`, `crate::explore`, …).
pub(crate) use check::{explore, meaning, outcome, placed, verdict};

pub use base::json::push_string as push_json_string;
pub use base::rng;
pub use base::text::Text;
pub use nodes::client::Told;
pub use nodes::{api, client, ledger, message, processor, store};

pub use action::{Action, ActionError, FaultKind, KindCounts, KindSet, OpKind, OpSpec};
pub use challenge::{Attempt, Challenge, Standing};
#[cfg(feature = "oracle")]
pub use check::explore_brute::explore_brute;
#[cfg(not(target_arch = "wasm32"))]
pub use check::parts::explore_parallel;
pub use check::parts::{Merged, Part, Plan, UnitOutcome, Wanted};
pub use check::prevention::{
    check_prevention, run_faults, Claim, ClaimAnswer, ClaimScope, Prevention, MAX_SEARCHED,
};
pub use compare::{class_diff, class_of, Class, ClassDiff, Gist, Pair, Sides};
pub use explore::{Bounds, CounterExample, Explorer, Report};
pub use link::{DeepLink, LinkError};
pub use note::Note;
pub use outcome::{closing_protections, Ending, Fault, Figures, OpOutcome, Outcome};
pub use phase::Phase;
pub use placed::{Hit, PlacedBy, PlacedFault};
pub use protections::{Protection, Protections};
pub use scenario::{Scenario, ScenarioError, Scripted, Story};
pub use time::SimTime;
pub use topology::{HandlerRef, Link, MsgId, Node, OpId, UserId};
pub use verdict::{Invariant, Money, Status, Verdict, Violation};
pub use world::{Cause, Party, RequestAttempt, Role, RunEnd, Sent, Speaker, Step, World};
