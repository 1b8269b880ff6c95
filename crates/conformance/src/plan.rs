//! How simulated Redis expiry is replayed in real time.
//!
//! The model's clock runs for hours (the `ttl` story waits past a 24 h TTL), the real run may
//! sleep a few seconds for the whole suite. What decides every reply is only where each key's
//! expiry falls among the commands: a key set at `t` with `PX ttl` answers every command before
//! `t + ttl` inclusive and none after it (Redis and the model: gone once `now > expires_at`). So the
//! replay keeps that order, not the durations:
//!
//! * each applied `SET` (or fenced claim, whose script sets the key with its lease) whose key would still be there at its expiry (not overwritten, not
//!   evicted first) and that expires before some later observation (a command, or the final
//!   look at the store) puts a **boundary** just before that observation;
//! * boundary `k` is the real instant `start + k·Q`; a `SET` aimed at it is sent with
//!   `PX = (start + k·Q) − now`, every other `SET` with a `PX` past the last boundary;
//! * the replay runs the commands between two boundaries at full speed and sleeps past the
//!   boundary (plus the `SET`'s round trip and Redis's 1 ms granularity) before the first
//!   observation after it.
//!
//! A command that comes back after the next boundary (a stalled machine) makes the attempt
//! unsound, never silently wrong: the runner checks it and starts over with a longer `Q`.

use std::collections::BTreeSet;

use idem_core::store::{RedisCommand, RedisReply};

use crate::harvest::RedisEvent;

/// Where a `SET`'s real expiry is put.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// At boundary `k` (1-based).
    Boundary(usize),
    /// After the last boundary and the final look: the key outlives the replay.
    Beyond,
}

/// Whether the replay sets `command`'s expiry itself: the last argument of a plain `SET` and
/// of the fenced claim is the TTL it retimes. (A fenced `SET` of the key's record keeps its
/// day: it outlives any replay.)
pub fn retimed(command: &RedisCommand) -> bool {
    matches!(
        command,
        RedisCommand::Set { .. } | RedisCommand::ClaimWithToken { .. }
    )
}

/// The key and TTL of a command that set a key, by its reply: a `SET` answered OK, a fenced
/// claim answered with its token; with `record`, a fenced `SET` answered OK too.
fn applied(command: &RedisCommand, reply: &RedisReply, record: bool) -> Option<(String, u64)> {
    match (command, reply) {
        (RedisCommand::Set { key, ttl_ms, .. }, RedisReply::Ok)
        | (RedisCommand::ClaimWithToken { key, ttl_ms, .. }, RedisReply::Int(_)) => {
            Some((key.to_string(), *ttl_ms))
        }
        (RedisCommand::SetIfToken { key, ttl_ms, .. }, RedisReply::Ok) if record => {
            Some((key.to_string(), *ttl_ms))
        }
        _ => None,
    }
}

/// The replay schedule of one run's Redis events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// For each event, and at index `events.len()` for the final look at the store: the
    /// boundary that must have passed before it, if one falls right before it.
    pub wait_before: Vec<Option<usize>>,
    /// For each event: where a `SET`'s expiry goes (`None` for other events).
    pub target: Vec<Option<Target>>,
    /// How many boundaries there are.
    pub boundaries: usize,
}

impl Plan {
    /// Plans `events`, after which the store is looked at as of `end` (the world's final
    /// time).
    pub fn new(events: &[RedisEvent], end: idem_core::SimTime) -> Plan {
        let at = |o: usize| events.get(o).map_or(end, RedisEvent::at);
        let mut expiry_before: Vec<Option<usize>> = vec![None; events.len()];
        for (i, event) in events.iter().enumerate() {
            let RedisEvent::Command {
                at: set_at,
                command,
                reply,
                ..
            } = event
            else {
                continue;
            };
            let Some((key, ttl_ms)) = applied(command, reply, false) else {
                continue;
            };
            let expires = set_at.plus(ttl_ms);
            let Some(o) = (i + 1..=events.len()).find(|&o| at(o) > expires) else {
                continue;
            };
            let replaced = events[i + 1..o].iter().any(|e| match e {
                RedisEvent::Evict { .. } => true,
                RedisEvent::Command { command, reply, .. } => {
                    applied(command, reply, true).is_some_and(|(other, _)| other == key)
                }
            });
            if !replaced {
                expiry_before[i] = Some(o);
            }
        }
        let observations: BTreeSet<usize> = expiry_before.iter().flatten().copied().collect();
        let number = |o: usize| observations.iter().position(|b| *b == o).map(|p| p + 1);
        let mut wait_before = vec![None; events.len() + 1];
        for o in &observations {
            wait_before[*o] = number(*o);
        }
        let target = events
            .iter()
            .zip(&expiry_before)
            .map(|(e, before)| match e {
                RedisEvent::Command { command, .. } if retimed(command) => Some(
                    before
                        .and_then(number)
                        .map_or(Target::Beyond, Target::Boundary),
                ),
                _ => None,
            })
            .collect();
        Plan {
            wait_before,
            target,
            boundaries: observations.len(),
        }
    }

    /// The boundary that comes next after observation `o` has run (`boundaries + 1` stands
    /// for "beyond").
    pub fn next_boundary_after(&self, o: usize) -> usize {
        self.wait_before[o + 1..]
            .iter()
            .flatten()
            .next()
            .copied()
            .unwrap_or(self.boundaries + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use idem_core::record::{KeyRecord, KeyStatus};
    use idem_core::{SimTime, UserId};

    fn set(at: u64, key: &str, ttl_ms: u64, reply: RedisReply) -> RedisEvent {
        RedisEvent::Command {
            step: 0,
            at: SimTime(at),
            command: RedisCommand::Set {
                key: key.into(),
                value: KeyRecord {
                    user: UserId(1),
                    fingerprint: "f".into(),
                    status: KeyStatus::InProgress,
                },
                nx: true,
                ttl_ms,
            },
            reply,
        }
    }

    fn get(at: u64, key: &str) -> RedisEvent {
        RedisEvent::Command {
            step: 0,
            at: SimTime(at),
            command: RedisCommand::Get { key: key.into() },
            reply: RedisReply::Nil,
        }
    }

    #[test]
    fn an_expiry_between_commands_is_one_boundary() {
        let events = [
            set(0, "k", 100, RedisReply::Ok),
            get(50, "k"),
            get(100, "k"),
            get(200, "k"),
        ];
        let plan = Plan::new(&events, SimTime(200));
        assert_eq!(plan.boundaries, 1);
        // Still there at 100 exactly, gone after it: the boundary precedes the read at 200.
        assert_eq!(plan.wait_before, [None, None, None, Some(1), None]);
        assert_eq!(plan.target[0], Some(Target::Boundary(1)));
        assert_eq!(plan.next_boundary_after(0), 1);
        assert_eq!(plan.next_boundary_after(2), 1);
        assert_eq!(plan.next_boundary_after(3), 2);
    }

    #[test]
    fn overwritten_or_evicted_keys_and_long_ttls_need_no_sleep() {
        let overwritten = [
            set(0, "k", 100, RedisReply::Ok),
            set(10, "k", 1_000, RedisReply::Ok),
            get(500, "k"),
        ];
        let plan = Plan::new(&overwritten, SimTime(500));
        assert_eq!(plan.boundaries, 0);
        assert_eq!(plan.target[0], Some(Target::Beyond));
        let evicted = [
            set(0, "k", 100, RedisReply::Ok),
            RedisEvent::Evict {
                step: 0,
                at: SimTime(50),
            },
            get(500, "k"),
        ];
        assert_eq!(Plan::new(&evicted, SimTime(500)).boundaries, 0);
        let long = [set(0, "k", 86_400_000, RedisReply::Ok), get(500, "k")];
        assert_eq!(
            Plan::new(&long, SimTime(90_000_000)).wait_before,
            [None, None, Some(1)]
        );
        assert_eq!(Plan::new(&long, SimTime(500)).boundaries, 0);
    }

    /// The fenced claim sets its key with the lease as a `SET NX` does (answered with its
    /// token), and a fenced `SET` of the record, answered OK, replaces the claim.
    #[test]
    fn a_fenced_claim_is_retimed_and_a_fenced_record_replaces_it() {
        let record = KeyRecord {
            user: UserId(1),
            fingerprint: "f".into(),
            status: KeyStatus::InProgress,
        };
        let claim = |at: u64, reply: RedisReply| RedisEvent::Command {
            step: 0,
            at: SimTime(at),
            command: RedisCommand::ClaimWithToken {
                key: "k".into(),
                value: record.clone(),
                ttl_ms: 100,
                fence: "fence:k".into(),
            },
            reply,
        };
        let events = [claim(0, RedisReply::Int(1)), get(500, "k")];
        let plan = Plan::new(&events, SimTime(500));
        assert_eq!(plan.boundaries, 1);
        assert_eq!(plan.target[0], Some(Target::Boundary(1)));
        assert_eq!(plan.wait_before, [None, Some(1), None]);
        let taken = [claim(0, RedisReply::Value(record.clone())), get(500, "k")];
        assert_eq!(Plan::new(&taken, SimTime(500)).boundaries, 0);
        let recorded = [
            claim(0, RedisReply::Int(1)),
            RedisEvent::Command {
                step: 0,
                at: SimTime(50),
                command: RedisCommand::SetIfToken {
                    key: "k".into(),
                    value: record.clone(),
                    ttl_ms: 86_400_000,
                    fence: "fence:k".into(),
                    token: 1,
                },
                reply: RedisReply::Ok,
            },
            get(500, "k"),
        ];
        let plan = Plan::new(&recorded, SimTime(500));
        assert_eq!(plan.boundaries, 0);
        assert_eq!(plan.target[1], None, "the record keeps its day");
    }

    #[test]
    fn several_keys_expiring_in_one_gap_share_a_boundary() {
        let events = [
            set(0, "a", 100, RedisReply::Ok),
            set(10, "b", 120, RedisReply::Ok),
            get(500, "a"),
        ];
        let plan = Plan::new(&events, SimTime(500));
        assert_eq!(plan.boundaries, 1);
        assert_eq!(
            plan.target[..2],
            [Some(Target::Boundary(1)), Some(Target::Boundary(1))]
        );
    }
}
