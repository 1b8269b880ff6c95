//! "Try every failure": a bounded, exhaustive search over fault schedules.
//!
//! From the scenario's start, every state branches into "nothing goes wrong, take the next
//! step" and, while fewer than `max_faults` faults were used, "inject fault F now" for every
//! fault that applies: drop or duplicate each packet on the mobile link, crash the API before
//! each phase, the client retrying early, a concurrent second request, the phone going
//! offline past the key TTL. Every run that reaches quiescence is judged with
//! [`World::verdict`](crate::world::World::verdict); the shortest violating schedule per
//! invariant and set of fault kinds (fewest faults, then fewest steps) is kept as the injected
//! actions, which [`World::replay`](crate::world::World::replay) turns back into a world.
//!
//! The tree is walked as a graph: a situation met again (same view, same number of faults
//! left) reuses what its first visit found, so the work grows with the distinct situations
//! while the report still counts every schedule ("runs represented"). The view is canonical
//! (`World::view`: times relative to now, message ids and the page-only past left out, keys
//! past their expiry gone), so schedules that reach the same situation at other times or
//! through other message numbers merge. With no fault left, a run is a straight line: it is
//! looked up where straight runs meet (a crash still armed, the phone just woken), and a
//! crash armed one step later than one already played out is the same run one step shorter
//! (arming commutes with every step until the crash fires), so it is carried down the line of
//! steps instead of simulated. [`crate::explore_brute`] walks every schedule one by one; the
//! tests check that both agree on the runs, the violations and the shortest counter-example
//! of every class.
//!
//! The search is resumable: [`Explorer::run_for`] does a bounded slice of work, so a page can
//! interleave it with animation frames.
//!
//! One thing per module: what a search is asked and answers (`report`), the faults it offers
//! (`menu`), what it remembers of a situation (`summary`) and the walk itself (`search`).

mod menu;
mod report;
mod search;
mod summary;

pub(crate) use menu::{faults, faults_of, phases};
pub(crate) use report::note_tried;
pub use report::{Bounds, CounterExample, Report};
pub use search::Explorer;
pub(crate) use search::{rebuild, root, Maps};
pub(crate) use summary::{Best, Edge, Summary, END, STEP};

#[cfg(test)]
mod lookups;
#[cfg(test)]
mod tests;
