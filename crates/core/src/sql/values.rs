//! Values as a real server stores them: SQL literals (strings quoted by doubling `'`), the
//! columns of an `idempotency_keys` row, and the JSON documents of a stored response, a
//! request and a key's status, byte for byte what `serde_json` writes.

use crate::base::json::Object;
use crate::http::{HttpRequest, HttpResponse};
use crate::ledger::KeyRow;
use crate::record::{KeyRecord, KeyStatus, StoredResponse};
use crate::time::SimTime;
use crate::topology::{MsgId, OpId, UserId};

/// A string literal: single quotes, with each `'` doubled (standard_conforming_strings is on
/// by default, so backslashes need nothing).
pub fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

pub(super) fn quote_opt(s: Option<&str>) -> String {
    s.map_or_else(|| "NULL".to_owned(), quote)
}

pub(super) fn key_values(
    key: &str,
    record: &KeyRecord,
    locked_until: SimTime,
    expires_at: SimTime,
    request: Option<&HttpRequest>,
) -> String {
    let response = match &record.status {
        KeyStatus::InProgress => "NULL".to_owned(),
        KeyStatus::Completed(r) => quote(&response_json(r)),
    };
    let request = request.map_or_else(|| "NULL".to_owned(), |r| quote(&request_json(r)));
    format!(
        "{}, {}, {}, '{}', {response}, {}, {}, {request}",
        record.user.0,
        quote(key),
        quote(&record.fingerprint),
        status_name(&record.status),
        locked_until.ms(),
        expires_at.ms(),
    )
}

/// The values of a key row, in [`KEY_COLUMNS`] order, as SQL literals.
pub fn key_row_values(row: &KeyRow) -> String {
    key_values(
        &row.key,
        &row.stored.record,
        row.locked_until,
        row.stored.expires_at,
        row.request.as_ref(),
    )
}

/// `in_progress` or `completed`, as the `status` column holds it.
pub fn status_name(status: &KeyStatus) -> &'static str {
    match status {
        KeyStatus::InProgress => "in_progress",
        KeyStatus::Completed(_) => "completed",
    }
}

/// The stored response as the `response` column's JSON: status code and body.
pub fn response_json(response: &StoredResponse) -> String {
    Object::new()
        .raw("body", &stored_body_json(response))
        .num("status", response.status)
        .end()
}

/// The stored response's body as JSON, as the server wrote it when it first answered.
pub(crate) fn stored_body_json(response: &StoredResponse) -> String {
    HttpResponse {
        status: response.status,
        replayed: false,
        body: response.body.clone(),
        in_reply_to: MsgId(0),
        user: UserId(0),
        op: OpId(0),
    }
    .body_json()
}

/// The request as the `request_params` column's JSON: what a recovery job needs to run it
/// again (the caller, the key, the path and the body; not the attempt count).
pub fn request_json(request: &HttpRequest) -> String {
    Object::new()
        .raw("body", &request.body.to_json())
        .opt_str("idempotency_key", request.idempotency_key.as_deref())
        .str("path", &request.body.path())
        .num("user", request.user.0)
        .end()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::{RequestBody, ResponseBody};

    use crate::record::StoredKey;
    use crate::sql::tests::{charged, record};
    use crate::sql::*;

    /// The stored documents are byte for byte what serde_json writes for the same objects
    /// (what the server code this mirrors would store; the conformance suite compares them
    /// with a real Redis and PostgreSQL).
    #[test]
    fn stored_json_is_what_serde_json_writes() {
        use serde_json::json;
        let response = StoredResponse {
            status: 201,
            body: ResponseBody::Charged {
                payment_id: "ch_1".into(),
                amount_cents: 10_000,
                customer: UserId(1),
            },
        };
        let body = json!({ "id": "ch_1", "amount": 10_000, "customer": "user_1" });
        assert_eq!(
            response_json(&response),
            json!({ "status": 201, "body": body }).to_string()
        );
        assert_eq!(
            redis_value(&record(KeyStatus::InProgress)),
            json!({ "status": "in_progress", "user": 1, "request_sha256": "2e11" }).to_string()
        );
        assert_eq!(
            redis_value(&record(KeyStatus::Completed(response))),
            json!({
                "status": "completed",
                "user": 1,
                "request_sha256": "2e11",
                "response_status": 201,
                "response_body": body,
            })
            .to_string()
        );
        assert_eq!(
            record(KeyStatus::InProgress).to_json(2),
            json!({ "status": "in_progress", "user": 1, "request_sha256": "2e" }).to_string()
        );
        for key in [None, Some("k\"1")] {
            let request = HttpRequest {
                user: UserId(2),
                idempotency_key: key.map(Into::into),
                body: RequestBody::Like {
                    post: 7,
                    op_id: None,
                },
                attempt: 1,
                op: OpId(0),
                status_query: false,
            };
            assert_eq!(
                request_json(&request),
                json!({
                    "user": 2,
                    "idempotency_key": key,
                    "path": "/posts/7/likes",
                    "body": { "op_id": null },
                })
                .to_string()
            );
        }
    }

    #[test]
    fn completed_claim_and_stored_request_are_json() {
        let request = HttpRequest {
            user: UserId(1),
            idempotency_key: Some("k'1".into()),
            body: RequestBody::Charge {
                amount_cents: 10_000,
                currency: "usd".into(),
            },
            attempt: 2,
            op: OpId(0),
            status_query: false,
        };
        let row = KeyRow {
            key: "k'1".into(),
            stored: StoredKey {
                record: record(KeyStatus::Completed(charged())),
                expires_at: SimTime(20),
            },
            locked_until: SimTime(10),
            request: Some(request),
        };
        assert_eq!(
            key_row_values(&row),
            "1, 'k''1', '2e11', 'completed', \
             '{\"body\":{\"amount\":10000,\"customer\":\"user_1\",\"id\":\"pay_abc\"},\"status\":201}', 10, 20, \
             '{\"body\":{\"amount\":10000,\"currency\":\"usd\"},\"idempotency_key\":\"k''1\",\"path\":\"/charges\",\"user\":1}'"
        );
        assert_eq!(
            cleanup(SimTime(42)),
            "DELETE FROM idempotency_keys WHERE expires_at <= 42"
        );
    }
}
