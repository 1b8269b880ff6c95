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
    /// Debits also carry the operation's id (`op_id`), recorded in `account_ops` with the
    /// update. When the compare-and-set fails, the API looks the id up: if this very debit is
    /// already applied (the client's retry of it), it answers 200 with the account as it is
    /// now (RFC 9110 §13.1.1 lets a server answer 2xx when it can tell the change already
    /// succeeded), else 412. The user is then not told "failed" for money that moved.
    pub reconcile: bool,
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
    /// When the phone would give up (retries used up, or past its deadline), it first asks the
    /// API for the outcome of its key (`GET /charges/status`, a read that is always safe to
    /// send): the API looks in `charges` for a payment with this key and answers 200 with it or
    /// 404. The phone shows that outcome instead of "we couldn't confirm your payment". It asks
    /// once: no answer, or a payment still in progress, leaves the user uncertain as before.
    pub status_check: bool,
    /// Each claim of a key carries a fencing token that grows with every takeover (Redis
    /// `INCR` on the key's counter), and the writes that finish the operation (the processor
    /// call, the ledger row, the key's record) are refused for a token older than the newest
    /// one they have seen: a holder that stalled past its lease cannot finish. Needs the lock
    /// in Redis (the key in PostgreSQL takes a key over by its row instead).
    pub fencing: bool,
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
        reconcile: false,
        op_dedup: false,
        unique_index: false,
        recovery: false,
        retry_deadline: false,
        status_check: false,
        fencing: false,
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
        reconcile: true,
        op_dedup: true,
        unique_index: true,
        recovery: true,
        retry_deadline: true,
        status_check: true,
        fencing: true,
    };

    /// Names of the switches, in display order (also the URL spelling).
    pub const NAMES: [&'static str; 15] = {
        let mut names = [""; 15];
        let mut i = 0;
        while i < Protection::ALL.len() {
            names[i] = Protection::ALL[i].name();
            i += 1;
        }
        names
    };

    /// Whether the fencing switch does anything in this design: its tokens come from the
    /// counter beside the key's claim in Redis, so it needs the key and the atomic claim on
    /// and the key kept in Redis. With the key in PostgreSQL ("Everything on") a takeover
    /// happens on the key's row and no token is issued: the page says so rather than let the
    /// switch look as if it guarded anything there.
    pub const fn fencing_acts(&self) -> bool {
        self.fencing && self.idempotency_key && self.lock && !self.key_in_ledger_tx
    }

    /// Whether `switch` is on.
    pub fn is_on(&self, switch: Protection) -> bool {
        let mut copy = *self;
        *copy.slot(switch)
    }

    /// Turns `switch` on or off.
    pub fn set_on(&mut self, switch: Protection, on: bool) {
        *self.slot(switch) = on;
    }

    /// Flips `switch`.
    pub fn toggle(&mut self, switch: Protection) {
        let slot = self.slot(switch);
        *slot = !*slot;
    }

    /// The switches that are on, in display order.
    pub fn on(&self) -> impl Iterator<Item = Protection> + '_ {
        Protection::ALL.into_iter().filter(|p| self.is_on(*p))
    }

    /// Reads a switch by its URL name.
    pub fn get(&self, name: &str) -> Option<bool> {
        Protection::from_name(name).map(|p| self.is_on(p))
    }

    /// Sets a switch by its URL name; false when there is no such switch.
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        Protection::from_name(name)
            .map(|p| self.set_on(p, on))
            .is_some()
    }

    /// The one place that maps a switch to its field.
    fn slot(&mut self, switch: Protection) -> &mut bool {
        match switch {
            Protection::Key => &mut self.idempotency_key,
            Protection::RequireKey => &mut self.require_key,
            Protection::Fingerprint => &mut self.fingerprint,
            Protection::Lock => &mut self.lock,
            Protection::Scope => &mut self.scope_by_user,
            Protection::SameTx => &mut self.key_in_ledger_tx,
            Protection::Forward => &mut self.forward_key,
            Protection::Cas => &mut self.cas,
            Protection::Reconcile => &mut self.reconcile,
            Protection::OpId => &mut self.op_dedup,
            Protection::UniqueIndex => &mut self.unique_index,
            Protection::Recovery => &mut self.recovery,
            Protection::Deadline => &mut self.retry_deadline,
            Protection::StatusCheck => &mut self.status_check,
            Protection::Fencing => &mut self.fencing,
        }
    }
}

/// One switch of [`Protections`], as the page and links name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Protection {
    /// `key`: [`Protections::idempotency_key`].
    Key,
    /// `require-key`: [`Protections::require_key`].
    RequireKey,
    /// `fingerprint`: [`Protections::fingerprint`].
    Fingerprint,
    /// `lock`: [`Protections::lock`].
    Lock,
    /// `scope`: [`Protections::scope_by_user`].
    Scope,
    /// `same-tx`: [`Protections::key_in_ledger_tx`].
    SameTx,
    /// `forward`: [`Protections::forward_key`].
    Forward,
    /// `cas`: [`Protections::cas`].
    Cas,
    /// `reconcile`: [`Protections::reconcile`].
    Reconcile,
    /// `op-id`: [`Protections::op_dedup`].
    OpId,
    /// `unique-index`: [`Protections::unique_index`].
    UniqueIndex,
    /// `recovery`: [`Protections::recovery`].
    Recovery,
    /// `deadline`: [`Protections::retry_deadline`].
    Deadline,
    /// `status-check`: [`Protections::status_check`].
    StatusCheck,
    /// `fencing`: [`Protections::fencing`].
    Fencing,
}

impl Protection {
    /// Every switch, in display order.
    pub const ALL: [Protection; 15] = [
        Protection::Key,
        Protection::RequireKey,
        Protection::Fingerprint,
        Protection::Lock,
        Protection::Scope,
        Protection::SameTx,
        Protection::Forward,
        Protection::Cas,
        Protection::Reconcile,
        Protection::OpId,
        Protection::UniqueIndex,
        Protection::Recovery,
        Protection::Deadline,
        Protection::StatusCheck,
        Protection::Fencing,
    ];

    /// The URL (and catalog key) spelling, e.g. `same-tx`.
    pub const fn name(self) -> &'static str {
        match self {
            Protection::Key => "key",
            Protection::RequireKey => "require-key",
            Protection::Fingerprint => "fingerprint",
            Protection::Lock => "lock",
            Protection::Scope => "scope",
            Protection::SameTx => "same-tx",
            Protection::Forward => "forward",
            Protection::Cas => "cas",
            Protection::Reconcile => "reconcile",
            Protection::OpId => "op-id",
            Protection::UniqueIndex => "unique-index",
            Protection::Recovery => "recovery",
            Protection::Deadline => "deadline",
            Protection::StatusCheck => "status-check",
            Protection::Fencing => "fencing",
        }
    }

    /// The switch with this URL name.
    pub fn from_name(name: &str) -> Option<Protection> {
        Protection::ALL.into_iter().find(|p| p.name() == name)
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

    #[test]
    fn toggling_flips_exactly_one_switch_and_names_round_trip() {
        for switch in Protection::ALL {
            assert_eq!(Protection::from_name(switch.name()), Some(switch));
            let mut p = Protections::SEED_KEY;
            let before = p.is_on(switch);
            p.toggle(switch);
            assert_eq!(p.is_on(switch), !before);
            let changed = Protection::ALL
                .into_iter()
                .filter(|s| p.is_on(*s) != Protections::SEED_KEY.is_on(*s))
                .count();
            assert_eq!(changed, 1, "{switch:?}");
        }
        assert_eq!(Protections::ALL.on().count(), 15);
        assert_eq!(Protections::NONE.on().count(), 0);
        assert_eq!(Protections::NAMES[5], "same-tx");
        assert_eq!(Protection::from_name("Key"), None);
    }

    #[test]
    fn fencing_acts_only_beside_the_claim_in_redis() {
        let redis = Protections {
            lock: true,
            fencing: true,
            ..Protections::SEED_KEY
        };
        assert!(redis.fencing_acts());
        assert!(!Protections::ALL.fencing_acts(), "the key in PostgreSQL");
        assert!(!Protections {
            lock: false,
            ..redis
        }
        .fencing_acts());
        assert!(!Protections::SEED_KEY.fencing_acts(), "switched off");
    }
}
