//! Simulated time. The core never reads a clock: every call that needs "now" gets it.

use serde::{Deserialize, Serialize};

/// A point on the simulation clock, in milliseconds since the scenario started.
/// The explorer's view sees a time as one (relative to now) through `base::canonical`, not
/// through its `Hash`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct SimTime(pub u64);

impl SimTime {
    /// The start of every scenario.
    pub const ZERO: SimTime = SimTime(0);

    /// Milliseconds since the start.
    pub fn ms(self) -> u64 {
        self.0
    }

    /// This time plus `ms` milliseconds (saturating, so a huge delay cannot wrap around).
    pub fn plus(self, ms: u64) -> SimTime {
        SimTime(self.0.saturating_add(ms))
    }

    /// Milliseconds from `earlier` to `self`, or 0 when `earlier` is later.
    pub fn since(self, earlier: SimTime) -> u64 {
        self.0.saturating_sub(earlier.0)
    }
}

/// One second in simulated milliseconds.
pub(crate) const SECOND: u64 = 1_000;
/// One hour in simulated milliseconds.
pub(crate) const HOUR: u64 = 3_600 * SECOND;
/// One day in simulated milliseconds: the key TTL used by Stripe and by the seed's ADR.
pub(crate) const DAY: u64 = 24 * HOUR;

/// Durations in simulated milliseconds.
impl SimTime {
    /// One second.
    pub const SECOND: u64 = SECOND;
    /// One hour.
    pub const HOUR: u64 = HOUR;
    /// One day: the key TTL used by Stripe and by the seed's ADR.
    pub const DAY: u64 = DAY;
}
