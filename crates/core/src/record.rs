//! What an idempotency store keeps per key. Shared by the Redis model ([`crate::store`]) and
//! the `idempotency_keys` table of the PostgreSQL model ([`crate::ledger`]).

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::http::ResponseBody;
use crate::time::SimTime;
use crate::topology::UserId;

/// A response kept so that a retry can be answered without running the operation again.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StoredResponse {
    /// HTTP status code of the first answer.
    pub status: u16,
    /// Its body.
    pub body: ResponseBody,
}

/// Where the work for a key stands.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum KeyStatus {
    /// Claimed by a handler that has not finished (the "lock"). Another request with this key
    /// gets 409 until the claim's lease runs out.
    InProgress,
    /// Finished: retries get this response replayed.
    Completed(StoredResponse),
}

/// The value stored for one idempotency key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KeyRecord {
    /// The user who made the key's first request.
    pub user: UserId,
    /// SHA-256 of the first request's canonical body.
    pub fingerprint: String,
    /// In progress or completed.
    pub status: KeyStatus,
}

impl KeyRecord {
    /// The record as the JSON document a server would store in Redis.
    pub fn to_json(&self, fingerprint_len: usize) -> Value {
        let fp: String = self.fingerprint.chars().take(fingerprint_len).collect();
        match &self.status {
            KeyStatus::InProgress => {
                json!({ "status": "in_progress", "user": self.user.0, "request_sha256": fp })
            }
            KeyStatus::Completed(r) => json!({
                "status": "completed",
                "user": self.user.0,
                "request_sha256": fp,
                "response_status": r.status,
            }),
        }
    }
}

/// A key record with its expiry, as both stores keep it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StoredKey {
    /// The record.
    pub record: KeyRecord,
    /// When it disappears (Redis `PX`, or the cleanup job for the SQL table).
    pub expires_at: SimTime,
}
