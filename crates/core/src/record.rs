//! What an idempotency store keeps per key. Shared by the Redis model ([`crate::store`]) and
//! the `idempotency_keys` table of the PostgreSQL model ([`crate::ledger`]).

use crate::base::text::Text;
use serde::{Deserialize, Serialize};

use crate::base::json::Object;
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
    pub fingerprint: Text,
    /// In progress or completed.
    pub status: KeyStatus,
}

impl KeyRecord {
    /// The record as the JSON document a server would store in Redis (compact, keys sorted).
    pub fn to_json(&self, fingerprint_len: usize) -> String {
        self.json_object(fingerprint_len, None)
    }

    /// [`KeyRecord::to_json`], with `response_body` (JSON text) among its fields when given.
    pub(crate) fn json_object(
        &self,
        fingerprint_len: usize,
        response_body: Option<&str>,
    ) -> String {
        let fp: String = self.fingerprint.chars().take(fingerprint_len).collect();
        let object = Object::new().str("request_sha256", &fp);
        let object = match response_body {
            Some(body) => object.raw("response_body", body),
            None => object,
        };
        match &self.status {
            KeyStatus::InProgress => object.str("status", "in_progress"),
            KeyStatus::Completed(r) => object
                .num("response_status", r.status)
                .str("status", "completed"),
        }
        .num("user", self.user.0)
        .end()
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
