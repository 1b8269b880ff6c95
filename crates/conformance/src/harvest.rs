//! What the backends of a finished run were asked, with the models' answers, in the order they
//! ran.
//!
//! Pairing: a backend answers in the step that delivers the request (`World::deliver` runs the
//! model and puts the reply on the wire before the step ends), so the reply is the one message
//! of the right kind among that step's `sent`. That is checked, not assumed: the reply must
//! come from the same backend, name the same handler, carry one result per statement and leave
//! at the delivery time. Handler + order would also pair them (a handler has one request out
//! at a time and the epoch changes on a crash), but the step needs no such argument.

use idem_core::ledger::{SqlBatch, StatementResult};
use idem_core::message::Payload;
use idem_core::net::{Fate, Message};
use idem_core::store::{RedisCommand, RedisReply};
use idem_core::Cause;
use idem_core::Node;
use idem_core::{Action, SimTime, World};

/// A batch the ledger ran, with the model's results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SqlEvent {
    /// The step that delivered it.
    pub step: u32,
    /// When the ledger ran it.
    pub at: SimTime,
    /// The batch.
    pub batch: SqlBatch,
    /// One result per statement.
    pub results: Vec<StatementResult>,
}

/// Something that happened to the Redis store.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)] // a few dozen per run: boxing the command buys nothing
pub enum RedisEvent {
    /// A command ran, with the model's reply.
    Command {
        /// The step that delivered it.
        step: u32,
        /// When the store ran it.
        at: SimTime,
        /// The command.
        command: RedisCommand,
        /// The model's reply.
        reply: RedisReply,
    },
    /// Every key was evicted (a Redis restart without persistence).
    Evict {
        /// The step.
        step: u32,
        /// When.
        at: SimTime,
    },
}

impl RedisEvent {
    /// When it happened.
    pub fn at(&self) -> SimTime {
        match self {
            RedisEvent::Command { at, .. } | RedisEvent::Evict { at, .. } => *at,
        }
    }
}

/// Everything the backends saw in one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Harvest {
    /// Batches in the order the ledger ran them.
    pub sql: Vec<SqlEvent>,
    /// Commands and evictions in the order the store saw them.
    pub redis: Vec<RedisEvent>,
    /// The world's clock at the end (the final state is the state at this time).
    pub end: SimTime,
}

/// Collects the run's backend traffic from `world`'s steps and network.
///
/// # Errors
/// A description of the first request whose reply cannot be paired soundly.
pub fn harvest(world: &World) -> Result<Harvest, String> {
    let net = world.network();
    let mut out = Harvest {
        sql: Vec::new(),
        redis: Vec::new(),
        end: world.now(),
    };
    for step in world.steps() {
        let id = match &step.cause {
            Cause::Deliver(id) => *id,
            Cause::Scripted(Action::EvictKeys) | Cause::Injected(Action::EvictKeys) => {
                out.redis.push(RedisEvent::Evict {
                    step: step.index,
                    at: step.at,
                });
                continue;
            }
            _ => continue,
        };
        let message = net
            .get(id)
            .ok_or_else(|| format!("step {}: no message {id:?}", step.index))?;
        let backend = message.to;
        if !matches!(backend, Node::Ledger | Node::Store) {
            continue;
        }
        if message.fate != Fate::Delivered(step.at) {
            return Err(format!(
                "step {}: {id:?} to {backend:?} has fate {:?}",
                step.index, message.fate
            ));
        }
        let replies: Vec<&Message> = step
            .sent
            .iter()
            .filter_map(|sent| net.get(*sent))
            .filter(|m| m.from == backend && m.to == Node::Api)
            .collect();
        let [reply] = replies.as_slice() else {
            return Err(format!(
                "step {}: {} replies from {backend:?}",
                step.index,
                replies.len()
            ));
        };
        if reply.sent_at != step.at {
            return Err(format!(
                "step {}: reply {:?} sent at {:?}",
                step.index, reply.id, reply.sent_at
            ));
        }
        match (&message.payload, &reply.payload) {
            (Payload::Sql(h, batch), Payload::SqlResults(h2, results))
                if h == h2 && results.len() == batch.statements.len() =>
            {
                out.sql.push(SqlEvent {
                    step: step.index,
                    at: step.at,
                    batch: batch.clone(),
                    results: results.clone(),
                });
            }
            (Payload::Redis(h, command), Payload::RedisReply(h2, reply)) if h == h2 => {
                out.redis.push(RedisEvent::Command {
                    step: step.index,
                    at: step.at,
                    command: command.clone(),
                    reply: reply.clone(),
                });
            }
            (request, reply) => {
                return Err(format!(
                    "step {}: cannot pair {request:?} with {reply:?}",
                    step.index
                ))
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use idem_core::Scenario;

    #[test]
    fn every_scenario_pairs_every_request() {
        for id in Scenario::IDS {
            let world = crate::run(&Scenario::by_id(id).expect("scenario"));
            let h = harvest(&world).unwrap_or_else(|e| panic!("{id}: {e}"));
            let sql_requests = world
                .network()
                .messages()
                .iter()
                .filter(|m| matches!(m.payload, Payload::Sql(..)))
                .count();
            let redis_requests = world
                .network()
                .messages()
                .iter()
                .filter(|m| matches!(m.payload, Payload::Redis(..)))
                .count();
            assert_eq!(h.sql.len(), sql_requests, "{id}");
            let commands = h
                .redis
                .iter()
                .filter(|e| matches!(e, RedisEvent::Command { .. }))
                .count();
            assert_eq!(commands, redis_requests, "{id}");
        }
    }

    /// The other way to pair: a request's reply is the next message from its backend that
    /// names the same handler. Both ways agree on every scenario.
    #[test]
    fn pairing_by_handler_and_order_agrees_with_pairing_by_step() {
        for id in Scenario::IDS {
            let world = crate::run(&Scenario::by_id(id).expect("scenario"));
            let by_step = harvest(&world).expect("pairs");
            let messages = world.network().messages();
            let mut sql = Vec::new();
            let mut redis = Vec::new();
            for (i, m) in messages.iter().enumerate() {
                let later = || messages[i + 1..].iter().filter(|r| r.from == m.to);
                match &m.payload {
                    Payload::Sql(h, _) => sql.extend(later().find_map(|r| match &r.payload {
                        Payload::SqlResults(h2, results) if h2 == h => Some(results.clone()),
                        _ => None,
                    })),
                    Payload::Redis(h, _) => redis.extend(later().find_map(|r| match &r.payload {
                        Payload::RedisReply(h2, reply) if h2 == h => Some(reply.clone()),
                        _ => None,
                    })),
                    _ => {}
                }
            }
            let step_sql: Vec<_> = by_step.sql.iter().map(|e| e.results.clone()).collect();
            let step_redis: Vec<_> = by_step
                .redis
                .iter()
                .filter_map(|e| match e {
                    RedisEvent::Command { reply, .. } => Some(reply.clone()),
                    RedisEvent::Evict { .. } => None,
                })
                .collect();
            assert_eq!(sql, step_sql, "{id}");
            assert_eq!(redis, step_redis, "{id}");
        }
    }

    #[test]
    fn the_seed_key_story_reaches_both_backends() {
        let world = crate::run(&Scenario::by_id("key").expect("key"));
        let h = harvest(&world).expect("pairs");
        assert_eq!(h.sql.len(), 1, "one charge row");
        // claim, record, the retry's claim (nil) and lookup (value)
        let replies: Vec<&RedisReply> = h
            .redis
            .iter()
            .filter_map(|e| match e {
                RedisEvent::Command { reply, .. } => Some(reply),
                RedisEvent::Evict { .. } => None,
            })
            .collect();
        assert_eq!(replies.len(), 4);
        assert_eq!(replies[0], &RedisReply::Ok);
        assert_eq!(replies[2], &RedisReply::Nil);
        assert!(matches!(replies[3], RedisReply::Value(_)));
    }
}
