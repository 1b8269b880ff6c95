//! A model of the Redis idempotency store: a key → record map with per-key expiry, `SET … NX`
//! for an atomic claim, and eviction.

use serde::{Deserialize, Serialize};

use crate::base::vecmap::VecMap;
use crate::record::{KeyRecord, StoredKey};
use crate::time::SimTime;

/// A command the API sends to Redis.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RedisCommand {
    /// `SET key value [NX] PX ttl`: store `value` for `ttl_ms`; with `nx`, only when the key
    /// does not exist (the atomic claim).
    Set {
        /// The Redis key (already scoped by user when the protection is on).
        key: String,
        /// The record to store.
        value: KeyRecord,
        /// Only set when absent.
        nx: bool,
        /// Time to live in milliseconds.
        ttl_ms: u64,
    },
    /// `GET key`.
    Get {
        /// The Redis key.
        key: String,
    },
    /// `INCR key`: the key's fencing counter, one more for every claim won (it has no expiry,
    /// so a later holder always gets a larger token; an eviction resets it).
    Incr {
        /// The counter's key (`fence:` and the store key).
        key: String,
    },
    /// A fenced `SET key value PX ttl`, as a Lua script: only while the counter `fence` still
    /// holds `token`, so a holder whose key was taken over cannot write its record.
    SetIfToken {
        /// The Redis key.
        key: String,
        /// The record to store.
        value: KeyRecord,
        /// Time to live in milliseconds.
        ttl_ms: u64,
        /// The counter's key.
        fence: String,
        /// The writer's token.
        token: u64,
    },
}

/// The Lua body of [`RedisCommand::SetIfToken`]: `KEYS[1]` the key, `KEYS[2]` its counter,
/// `ARGV` the token, the value and the TTL (a script runs atomically in Redis).
pub const SET_IF_TOKEN_LUA: &str = "if redis.call('GET', KEYS[2]) == ARGV[1] then \
     return redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end return false";

impl RedisCommand {
    /// The command as `redis-cli` would show it.
    pub fn render(&self) -> String {
        match self {
            RedisCommand::Set {
                key,
                value,
                nx,
                ttl_ms,
            } => format!(
                "SET {key} '{}'{} PX {ttl_ms}",
                shown(value),
                if *nx { " NX" } else { "" }
            ),
            RedisCommand::Get { key } => format!("GET {key}"),
            RedisCommand::Incr { key } => format!("INCR {key}"),
            RedisCommand::SetIfToken {
                key,
                value,
                ttl_ms,
                fence,
                token,
            } => format!(
                "EVAL \"{SET_IF_TOKEN_LUA}\" 2 {key} {fence} {token} '{}' {ttl_ms}",
                shown(value)
            ),
        }
    }
}

/// A record as the command carries it, with the fingerprint shortened for display: a completed
/// record holds the response it replays (its body, with the payment id).
fn shown(record: &KeyRecord) -> String {
    let body = match &record.status {
        crate::record::KeyStatus::Completed(response) => {
            Some(crate::sql::stored_body_json(response))
        }
        crate::record::KeyStatus::InProgress => None,
    };
    record.json_object(12, body.as_deref())
}

/// Redis's reply.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RedisReply {
    /// `OK`.
    Ok,
    /// `(nil)`: no such key, or `SET NX` found one.
    Nil,
    /// A stored value.
    Value(KeyRecord),
    /// A number (`INCR`'s new value).
    Int(u64),
}

/// The store's state: what `KEYS *` would list, with expiry times.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Store {
    entries: VecMap<String, StoredKey>,
    counters: VecMap<String, u64>,
}

impl Store {
    /// `SET key value PX ttl` once its condition (if any) held.
    fn put(&mut self, now: SimTime, key: &str, value: &KeyRecord, ttl_ms: u64) -> RedisReply {
        let stored = StoredKey {
            record: value.clone(),
            expires_at: now.plus(ttl_ms),
        };
        self.entries.insert(key.to_owned(), stored);
        RedisReply::Ok
    }

    /// Runs one command at `now`. Expired keys are invisible, as in Redis.
    pub fn execute(&mut self, now: SimTime, command: &RedisCommand) -> RedisReply {
        self.expire(now);
        match command {
            RedisCommand::Set {
                key,
                value,
                nx,
                ttl_ms,
            } => {
                if *nx && self.entries.contains_key(key) {
                    return RedisReply::Nil;
                }
                self.put(now, key, value, *ttl_ms)
            }
            RedisCommand::Get { key } => match self.entries.get(key) {
                Some(entry) => RedisReply::Value(entry.record.clone()),
                None => RedisReply::Nil,
            },
            RedisCommand::Incr { key } => {
                let next = self.counters.get(key).map_or(1, |n| n + 1);
                self.counters.insert(key.clone(), next);
                RedisReply::Int(next)
            }
            RedisCommand::SetIfToken {
                key,
                value,
                ttl_ms,
                fence,
                token,
            } => {
                if self.counters.get(fence) != Some(token) {
                    return RedisReply::Nil;
                }
                self.put(now, key, value, *ttl_ms)
            }
        }
    }

    /// Removes every key whose TTL has run out by `now`; returns them. As in Redis, a key set
    /// with `PX ttl` at `t` is still there at `t + ttl` and gone a millisecond later.
    pub fn expire(&mut self, now: SimTime) -> Vec<(String, StoredKey)> {
        let mut gone = Vec::new();
        self.entries.retain(|k, e| {
            let keep = e.expires_at >= now;
            if !keep {
                gone.push((k.clone(), e.clone()));
            }
            keep
        });
        gone
    }

    /// Drops a key as `maxmemory` eviction would. Returns whether it existed.
    pub fn evict(&mut self, key: &str) -> bool {
        self.entries.remove(key).is_some()
    }

    /// Drops every key (a Redis restart without persistence). Returns how many there were.
    pub fn evict_all(&mut self) -> usize {
        let n = self.entries.len() + self.counters.len();
        self.entries.clear();
        self.counters.clear();
        n
    }

    /// The fencing counters (keys without expiry), by key.
    pub fn counters(&self) -> impl Iterator<Item = (&String, &u64)> {
        self.counters.iter()
    }

    /// The live entries, ordered by key.
    pub fn entries(&self) -> impl Iterator<Item = (&String, &StoredKey)> {
        self.entries.iter()
    }

    /// The earliest expiry among live keys, so the world can show keys vanish on time.
    pub fn next_expiry(&self) -> Option<SimTime> {
        self.entries.values().map(|e| e.expires_at).min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::KeyStatus;
    use crate::topology::UserId;

    fn record() -> KeyRecord {
        KeyRecord {
            user: UserId(1),
            fingerprint: "ab".into(),
            status: KeyStatus::InProgress,
        }
    }

    fn set_nx(ttl_ms: u64) -> RedisCommand {
        RedisCommand::Set {
            key: "k".into(),
            value: record(),
            nx: true,
            ttl_ms,
        }
    }

    #[test]
    fn set_nx_claims_once() {
        let mut s = Store::default();
        assert_eq!(s.execute(SimTime(0), &set_nx(100)), RedisReply::Ok);
        assert_eq!(s.execute(SimTime(1), &set_nx(100)), RedisReply::Nil);
    }

    #[test]
    fn keys_expire_after_ttl() {
        let mut s = Store::default();
        s.execute(SimTime(0), &set_nx(100));
        let get = RedisCommand::Get { key: "k".into() };
        assert_eq!(s.execute(SimTime(100), &get), RedisReply::Value(record()));
        assert_eq!(s.execute(SimTime(101), &get), RedisReply::Nil);
        assert_eq!(s.execute(SimTime(101), &set_nx(100)), RedisReply::Ok);
    }

    #[test]
    fn eviction_forgets_the_key() {
        let mut s = Store::default();
        s.execute(SimTime(0), &set_nx(100));
        assert!(s.evict("k"));
        assert!(!s.evict("k"));
        assert_eq!(s.execute(SimTime(1), &set_nx(100)), RedisReply::Ok);
    }
}
