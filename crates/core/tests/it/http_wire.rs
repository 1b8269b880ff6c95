//! What the HTTP layer puts on the wire, pinned by value (the page's transcript and the
//! conformance suite read these): reason phrases of every status the lesson uses, the status
//! line, the error bodies' codes, and a status check's flag, sent only when set.

use idem_core::http::{
    reason_phrase, ApiError, HttpRequest, HttpResponse, RequestBody, ResponseBody,
};
use idem_core::{MsgId, OpId, UserId};

#[test]
fn every_status_has_its_reason_phrase() {
    for (status, phrase) in [
        (200, "OK"),
        (201, "Created"),
        (400, "Bad Request"),
        (404, "Not Found"),
        (409, "Conflict"),
        (412, "Precondition Failed"),
        (422, "Unprocessable Content"),
        (500, ""),
    ] {
        assert_eq!(reason_phrase(status), phrase, "{status}");
    }
}

fn response(status: u16, body: ResponseBody) -> HttpResponse {
    HttpResponse {
        status,
        replayed: false,
        body,
        in_reply_to: MsgId(1),
        user: UserId(1),
        op: OpId(0),
    }
}

#[test]
fn the_status_line_and_error_bodies_read_as_a_server_writes_them() {
    assert_eq!(
        response(
            412,
            ResponseBody::PreconditionFailed {
                balance: 80,
                version: 6
            }
        )
        .status_line(),
        "HTTP/1.1 412 Precondition Failed"
    );
    for (error, code) in [
        (ApiError::MissingKey, "idempotency_key_missing"),
        (ApiError::KeyReused, "idempotency_key_reused"),
        (ApiError::InProgress, "request_in_progress"),
        (ApiError::NoSuchPayment, "no_payment_with_this_key"),
    ] {
        let r = response(error.status(), ResponseBody::Error(error));
        assert_eq!(
            r.body_json(),
            format!("{{\"error\":\"{code}\"}}"),
            "{error:?}"
        );
    }
}

#[test]
fn a_status_check_s_flag_is_sent_only_when_set() {
    let request = |status_query| HttpRequest {
        user: UserId(1),
        idempotency_key: Some("K1".into()),
        body: RequestBody::Like {
            post: 7,
            op_id: None,
        },
        attempt: 1,
        op: OpId(0),
        status_query,
    };
    let plain = serde_json::to_string(&request(false)).expect("serialises");
    let check = serde_json::to_string(&request(true)).expect("serialises");
    assert!(!plain.contains("status_query"), "{plain}");
    assert!(check.contains("\"status_query\":true"), "{check}");
    let back: HttpRequest = serde_json::from_str(&plain).expect("reads back");
    assert!(!back.status_query);
}
