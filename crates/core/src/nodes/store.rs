//! A model of the Redis idempotency store: a key → record map with per-key expiry, `SET … NX`
//! for an atomic claim (with fencing, one Lua script that claims and hands out the token), and
//! eviction.

use crate::base::text::Text;
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
        key: Text,
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
        key: Text,
    },
    /// The fenced claim, as one Lua script: `SET key value NX PX ttl` and, when that set it,
    /// `INCR fence` (the key's counter, one more for every claim won), replying the new token;
    /// when the key is taken, its record. Claim and token are one step: as two round trips, a
    /// stale holder's write landing between them would pass the token check against a counter
    /// the new holder had not yet moved. The counter has no expiry, so a later holder always
    /// gets a larger token (an eviction of every key resets it).
    ClaimWithToken {
        /// The Redis key.
        key: Text,
        /// The in-progress record to store.
        value: KeyRecord,
        /// The claim's lease in milliseconds.
        ttl_ms: u64,
        /// The counter's key (`fence:` and the store key).
        fence: Text,
    },
    /// A fenced `SET key value PX ttl`, as a Lua script: only while the counter `fence` still
    /// holds `token`, so a holder whose key was taken over cannot write its record.
    SetIfToken {
        /// The Redis key.
        key: Text,
        /// The record to store.
        value: KeyRecord,
        /// Time to live in milliseconds.
        ttl_ms: u64,
        /// The counter's key.
        fence: Text,
        /// The writer's token.
        token: u64,
    },
}

/// The Lua body of [`RedisCommand::ClaimWithToken`]: `KEYS[1]` the key, `KEYS[2]` its counter,
/// `ARGV` the record and the lease (a script runs atomically in Redis; `SET … NX` gives Lua
/// `false` when the key exists).
pub const CLAIM_WITH_TOKEN_LUA: &str = "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', \
     ARGV[2]) then return redis.call('INCR', KEYS[2]) end return redis.call('GET', KEYS[1])";

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
            RedisCommand::ClaimWithToken {
                key,
                value,
                ttl_ms,
                fence,
            } => format!(
                "EVAL \"{CLAIM_WITH_TOKEN_LUA}\" 2 {key} {fence} '{}' {ttl_ms}",
                shown(value)
            ),
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
    /// A number (the fenced claim's token: `INCR`'s new value).
    Int(u64),
}

/// The store's state: what `KEYS *` would list, with expiry times.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Store {
    entries: VecMap<Text, StoredKey>,
    counters: VecMap<Text, u64>,
}

impl Store {
    /// `SET key value PX ttl` once its condition (if any) held.
    fn put(&mut self, now: SimTime, key: &Text, value: &KeyRecord, ttl_ms: u64) -> RedisReply {
        let stored = StoredKey {
            record: value.clone(),
            expires_at: now.plus(ttl_ms),
        };
        self.entries.insert(key.clone(), stored);
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
            RedisCommand::ClaimWithToken {
                key,
                value,
                ttl_ms,
                fence,
            } => {
                if let Some(taken) = self.entries.get(key) {
                    return RedisReply::Value(taken.record.clone());
                }
                self.put(now, key, value, *ttl_ms);
                let next = self.counters.get(fence).map_or(1, |n| n + 1);
                self.counters.insert(fence.clone(), next);
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
    pub fn expire(&mut self, now: SimTime) -> Vec<(Text, StoredKey)> {
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
        self.entries.remove(&Text::from(key)).is_some()
    }

    /// Drops every key (a Redis restart without persistence). Returns how many there were.
    pub fn evict_all(&mut self) -> usize {
        let n = self.entries.len() + self.counters.len();
        self.entries.clear();
        self.counters.clear();
        n
    }

    /// The fencing counters (keys without expiry), by key.
    pub fn counters(&self) -> impl Iterator<Item = (&Text, &u64)> {
        self.counters.iter()
    }

    /// The live entries, ordered by key.
    pub fn entries(&self) -> impl Iterator<Item = (&Text, &StoredKey)> {
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

    fn claim(ttl_ms: u64) -> RedisCommand {
        RedisCommand::ClaimWithToken {
            key: "k".into(),
            value: record(),
            ttl_ms,
            fence: "fence:k".into(),
        }
    }

    #[test]
    fn the_fenced_claim_hands_out_its_token_or_shows_the_holder() {
        let mut s = Store::default();
        assert_eq!(s.execute(SimTime(0), &claim(100)), RedisReply::Int(1));
        assert_eq!(
            s.execute(SimTime(50), &claim(100)),
            RedisReply::Value(record()),
            "taken: the holder's record, and the counter stays"
        );
        assert_eq!(
            s.counters().collect::<Vec<_>>(),
            [(&Text::from("fence:k"), &1)]
        );
        assert_eq!(s.execute(SimTime(101), &claim(100)), RedisReply::Int(2));
    }

    /// The model gap this script closed: once a takeover's claim has run, the previous
    /// holder's token is already stale, with no moment between claim and token when an old
    /// token still matches the counter.
    #[test]
    fn a_stale_token_is_refused_from_the_moment_of_the_takeover() {
        let mut s = Store::default();
        s.execute(SimTime(0), &claim(100));
        s.execute(SimTime(101), &claim(100));
        let set_with = |token| RedisCommand::SetIfToken {
            key: "k".into(),
            value: record(),
            ttl_ms: 1_000,
            fence: "fence:k".into(),
            token,
        };
        assert_eq!(s.execute(SimTime(102), &set_with(1)), RedisReply::Nil);
        assert_eq!(s.execute(SimTime(103), &set_with(2)), RedisReply::Ok);
    }
}
