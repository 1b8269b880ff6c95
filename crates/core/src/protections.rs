//! The switches a student can flip. Each one is a real technique from the seeds; the engine
//! reads them, no scenario is hand-animated.

use serde::{Deserialize, Serialize};

/// Which protections are on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Protections {
    /// The client sends an `Idempotency-Key` (one UUID per logical operation) and the API
    /// deduplicates charges on it.
    pub idempotency_key: bool,
    /// The API answers 400 to a charge without a key (IETF draft), instead of running it blind.
    pub require_key: bool,
    /// The API stores a SHA-256 of the request body with the key and answers 422 when a key
    /// comes back with another body.
    pub fingerprint: bool,
    /// The API claims the key atomically before working (`SET NX` / `INSERT … ON CONFLICT`), so
    /// a concurrent duplicate gets 409. Off: it only looks the key up, and records it at the end.
    pub lock: bool,
    /// Keys are scoped by user: `(user_id, key)`, so another user's key is never a hit.
    pub scope_by_user: bool,
    /// The key record lives in PostgreSQL and completes in the same transaction as the charge
    /// row. Off: it lives in Redis and is written after the ledger commit (a window).
    pub key_in_ledger_tx: bool,
    /// The API forwards the key to the card processor, which deduplicates by itself.
    pub forward_key: bool,
    /// Debits carry the version the client read and update only `WHERE version = $expected`.
    pub cas: bool,
    /// Likes carry an op_id that is inserted into `like_ops` before the increment.
    pub op_dedup: bool,
    /// `like_ops.op_id` has a unique index (without it, ON CONFLICT never fires).
    pub unique_index: bool,
    /// After a crash, a recovery job finishes in-progress keys whose lease ran out, re-driving
    /// them from the request stored with the key (needs the key in PostgreSQL).
    pub recovery: bool,
    /// The client stops retrying after one hour, well inside the 24 h key TTL, and asks the
    /// user to check instead of risking a retry the server no longer recognises.
    pub retry_deadline: bool,
}

impl Protections {
    /// Nothing on: the naive service.
    pub const NONE: Protections = Protections {
        idempotency_key: false,
        require_key: false,
        fingerprint: false,
        lock: false,
        scope_by_user: false,
        key_in_ledger_tx: false,
        forward_key: false,
        cas: false,
        op_dedup: false,
        unique_index: false,
        recovery: false,
        retry_deadline: false,
    };

    /// The seed's Idempotency-Key design: Redis store with an atomic claim, fingerprint and
    /// per-user scope; the key is not forwarded and the record is written after the commit.
    pub const SEED_KEY: Protections = Protections {
        idempotency_key: true,
        require_key: true,
        fingerprint: true,
        lock: true,
        scope_by_user: true,
        ..Protections::NONE
    };

    /// Everything on: how careful production systems close every window.
    pub const ALL: Protections = Protections {
        idempotency_key: true,
        require_key: true,
        fingerprint: true,
        lock: true,
        scope_by_user: true,
        key_in_ledger_tx: true,
        forward_key: true,
        cas: true,
        op_dedup: true,
        unique_index: true,
        recovery: true,
        retry_deadline: true,
    };

    /// Names of the switches, in display order (also the URL spelling).
    pub const NAMES: [&'static str; 12] = [
        "key",
        "require-key",
        "fingerprint",
        "lock",
        "scope",
        "same-tx",
        "forward",
        "cas",
        "op-id",
        "unique-index",
        "recovery",
        "deadline",
    ];

    /// Reads a switch by its URL name.
    pub fn get(&self, name: &str) -> Option<bool> {
        let mut copy = *self;
        copy.switch(name).map(|on| *on)
    }

    /// Sets a switch by its URL name; false when there is no such switch.
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        match self.switch(name) {
            Some(slot) => {
                *slot = on;
                true
            }
            None => false,
        }
    }

    /// The one place that maps a URL name to its field.
    fn switch(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "key" => &mut self.idempotency_key,
            "require-key" => &mut self.require_key,
            "fingerprint" => &mut self.fingerprint,
            "lock" => &mut self.lock,
            "scope" => &mut self.scope_by_user,
            "same-tx" => &mut self.key_in_ledger_tx,
            "forward" => &mut self.forward_key,
            "cas" => &mut self.cas,
            "op-id" => &mut self.op_dedup,
            "unique-index" => &mut self.unique_index,
            "recovery" => &mut self.recovery,
            "deadline" => &mut self.retry_deadline,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_and_writes_its_own_switch() {
        for name in Protections::NAMES {
            let mut p = Protections::NONE;
            assert!(p.set(name, true));
            assert_eq!(p.get(name), Some(true));
            let others = Protections::NAMES
                .iter()
                .filter(|n| **n != name && p.get(n) == Some(true))
                .count();
            assert_eq!(others, 0, "{name} flipped another switch");
        }
        assert_eq!(Protections::NONE.get("nope"), None);
    }
}
