//! The HTTP layer between the mobile client and the API: requests with their Idempotency-Key,
//! responses with the IETF draft's status codes, and the SHA-256 request fingerprint.

use crate::base::text::Text;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::base::json::Object;
use crate::topology::{MsgId, OpId, UserId};

/// The header that carries the key (Stripe's spelling, adopted by the IETF draft).
pub const IDEMPOTENCY_KEY: &str = "Idempotency-Key";
/// The header a server adds when it answers from its stored response instead of running again.
pub const IDEMPOTENT_REPLAYED: &str = "Idempotent-Replayed";
/// The precondition header of a compare-and-set debit: the version read, as an entity tag.
pub const IF_MATCH: &str = "If-Match";

/// What a request asks the API to do. Every variant is a mutating request: a POST, or a
/// PATCH of the account for a debit ([`RequestBody::method`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RequestBody {
    /// `POST /charges`: take money from the user's card.
    Charge {
        /// Amount in cents ($100 = 10 000).
        amount_cents: u64,
        /// ISO currency code, lowercase as Stripe writes it.
        currency: Text,
    },
    /// `PATCH /accounts/{account}`: take money from an account balance, optionally only at a
    /// known version.
    Debit {
        /// The account's id.
        account: u32,
        /// Amount to take, in dollars.
        amount: i64,
        /// The version the client read; `None` makes an unconditional debit.
        expected_version: Option<u64>,
        /// The operation's id, the same on every attempt of it (with `reconcile`): the API
        /// records it with the debit and looks it up when the compare-and-set fails.
        op_id: Option<Text>,
    },
    /// `POST /posts/{post}/likes`: add one like, optionally tagged with an op_id.
    Like {
        /// The post's id.
        post: u32,
        /// Client-generated id of this like; `None` for the naive endpoint.
        op_id: Option<Text>,
    },
}

impl RequestBody {
    /// The request method. A debit changes the account itself, so it is a `PATCH` of the
    /// account: its `If-Match` precondition is evaluated against the request's target
    /// (RFC 9110 §13.1.1), and the version it names is the account's. A `POST /debit` would
    /// make the precondition speak of a `/debit` resource that has no version.
    pub fn method(&self) -> &'static str {
        match self {
            RequestBody::Debit { .. } => "PATCH",
            RequestBody::Charge { .. } | RequestBody::Like { .. } => "POST",
        }
    }

    /// The request path.
    pub fn path(&self) -> String {
        match self {
            RequestBody::Charge { .. } => "/charges".to_owned(),
            RequestBody::Debit { account, .. } => format!("/accounts/{account}"),
            RequestBody::Like { post, .. } => format!("/posts/{post}/likes"),
        }
    }

    /// The body as compact JSON with sorted keys: equal bodies give equal bytes, whatever
    /// order the client wrote its fields in, so this is also the canonical form the
    /// fingerprint hashes (byte for byte what `serde_json` writes; a test checks it).
    pub fn to_json(&self) -> String {
        match self {
            RequestBody::Charge {
                amount_cents,
                currency,
            } => Object::new()
                .num("amount", amount_cents)
                .str("currency", currency),
            // The expected version travels in the If-Match header, not in the body; the op_id
            // is in the body only when there is one (reconciling).
            RequestBody::Debit {
                account,
                amount,
                op_id,
                ..
            } => {
                let debit = Object::new().num("account", account).num("amount", amount);
                match op_id {
                    Some(op_id) => debit.str("op_id", op_id),
                    None => debit,
                }
            }
            RequestBody::Like { op_id, .. } => Object::new().opt_str("op_id", op_id.as_deref()),
        }
        .end()
    }

    /// The canonical JSON the fingerprint hashes: [`RequestBody::to_json`].
    pub fn canonical_json(&self) -> String {
        self.to_json()
    }

    /// Lowercase hex SHA-256 of the canonical JSON: the fingerprint stored beside a key, so a
    /// key reused for a different request is caught (422).
    ///
    /// A pure function of the body, remembered for the last few bodies of this thread: the
    /// explorer handles the same few request bodies hundreds of thousands of times, and a
    /// SHA-256 each time was a tenth of its work.
    pub fn fingerprint(&self) -> Text {
        thread_local! {
            static RECENT: std::cell::RefCell<(usize, Vec<(RequestBody, Text)>)> =
                const { std::cell::RefCell::new((0, Vec::new())) };
        }
        RECENT.with(|recent| {
            let mut recent = recent.borrow_mut();
            if let Some((_, hex)) = recent.1.iter().find(|(body, _)| body == self) {
                return hex.clone();
            }
            let hex = Text::from(self.digest_hex());
            let (next, entries) = &mut *recent;
            if entries.len() < 8 {
                entries.push((self.clone(), hex.clone()));
            } else {
                entries[*next % 8] = (self.clone(), hex.clone());
                *next += 1;
            }
            hex
        })
    }

    fn digest_hex(&self) -> String {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let digest = Sha256::digest(self.canonical_json().as_bytes());
        let mut hex = String::with_capacity(64);
        for byte in digest {
            hex.push(char::from(HEX[usize::from(byte >> 4)]));
            hex.push(char::from(HEX[usize::from(byte & 0xf)]));
        }
        hex
    }
}

/// A request on the client↔API link.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HttpRequest {
    /// The authenticated caller (from the bearer token).
    pub user: UserId,
    /// The `Idempotency-Key` header, if the client sent one.
    pub idempotency_key: Option<Text>,
    /// What to do.
    pub body: RequestBody,
    /// 1 for the first try, 2 for the first retry, …
    pub attempt: u32,
    /// Ground truth for the invariant checks; the API never looks at it.
    pub op: OpId,
    /// `GET /charges/status` with the key (status check): asks what became of the payment
    /// with this key instead of asking for it again.
    #[serde(default, skip_serializing_if = "is_false")]
    pub status_query: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The path of a status check.
pub const STATUS_PATH: &str = "/charges/status";

impl HttpRequest {
    /// The request line, e.g. `POST /charges HTTP/1.1` (`GET /charges/status?amount=10000
    /// HTTP/1.1` for a status check).
    pub fn request_line(&self) -> String {
        if self.status_query {
            return format!("GET {} HTTP/1.1", self.status_target());
        }
        format!("{} {} HTTP/1.1", self.body.method(), self.body.path())
    }

    /// What a status check asks about: the path and the amount of the payment
    /// (`/charges/status?amount=10000`); the key travels in its header.
    pub fn status_target(&self) -> String {
        match self.body {
            RequestBody::Charge { amount_cents, .. } => {
                format!("{STATUS_PATH}?amount={amount_cents}")
            }
            _ => STATUS_PATH.to_owned(),
        }
    }

    /// The headers as a client would send them, in a stable order.
    pub fn headers(&self) -> Vec<(String, String)> {
        let mut headers = vec![(
            "Authorization".to_owned(),
            format!("Bearer tok_user_{}", self.user.0),
        )];
        // A status check is a GET: no body, so no Content-Type.
        if !self.status_query {
            headers.push(("Content-Type".to_owned(), "application/json".to_owned()));
        }
        if let Some(key) = &self.idempotency_key {
            // The IETF draft defines the header as a Structured Field string: the key travels
            // in double quotes (`Idempotency-Key: "8e03…"`).
            headers.push((IDEMPOTENCY_KEY.to_owned(), format!("\"{key}\"")));
        }
        if let RequestBody::Debit {
            expected_version: Some(v),
            ..
        } = self.body
        {
            // The version the client read travels as an entity tag (ETag = version): a
            // mismatch is then a failed precondition, 412, as RFC 9110 defines it.
            headers.push((IF_MATCH.to_owned(), format!("\"{v}\"")));
        }
        headers
    }
}

/// Why the API refused a request. Each maps to one status code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ApiError {
    /// 400: the endpoint requires an Idempotency-Key and the request has none.
    MissingKey,
    /// 422: the key was used before with a different request body.
    KeyReused,
    /// 409: a request with this key is still being processed.
    InProgress,
    /// 404: a status check found no payment with this key.
    NoSuchPayment,
}

impl ApiError {
    /// The HTTP status code the IETF draft assigns.
    pub fn status(self) -> u16 {
        match self {
            ApiError::MissingKey => 400,
            ApiError::KeyReused => 422,
            ApiError::InProgress => 409,
            ApiError::NoSuchPayment => 404,
        }
    }
}

/// What a response says, beyond its status.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResponseBody {
    /// 201: a payment exists.
    Charged {
        /// The processor's payment id, e.g. `pay_abc`.
        payment_id: Text,
        /// Amount in cents.
        amount_cents: u64,
        /// The customer the payment belongs to.
        customer: UserId,
    },
    /// 200: the debit was applied; the new balance and version.
    Debited {
        /// Balance after the debit.
        balance: i64,
        /// Version after the debit.
        version: u64,
    },
    /// 412: the expected version did not match; the current state so the client can re-read.
    PreconditionFailed {
        /// Current balance.
        balance: i64,
        /// Current version.
        version: u64,
    },
    /// 200: the like counter after this request.
    Liked {
        /// Current number of likes.
        likes: i64,
    },
    /// 4xx with a problem description.
    Error(ApiError),
}

/// A response on the client↔API link.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HttpResponse {
    /// HTTP status code.
    pub status: u16,
    /// `Idempotent-Replayed: true`: answered from the stored response.
    pub replayed: bool,
    /// The payload.
    pub body: ResponseBody,
    /// The request this answers.
    pub in_reply_to: MsgId,
    /// The user the request came from.
    pub user: UserId,
    /// Ground truth: the logical operation of the request this answers.
    pub op: OpId,
}

impl HttpResponse {
    /// 2xx.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The status line, e.g. `HTTP/1.1 201 Created`.
    pub fn status_line(&self) -> String {
        format!("HTTP/1.1 {} {}", self.status, reason_phrase(self.status))
    }

    /// The response body as JSON, as a server would write it (compact, keys sorted).
    pub fn body_json(&self) -> String {
        match &self.body {
            ResponseBody::Charged {
                payment_id,
                amount_cents,
                customer,
            } => Object::new()
                .num("amount", amount_cents)
                .str("customer", &format!("user_{}", customer.0))
                .str("id", payment_id),
            ResponseBody::Debited { balance, version } => Object::new()
                .num("balance", balance)
                .num("version", version),
            ResponseBody::PreconditionFailed { balance, version } => Object::new()
                .num("balance", balance)
                .str("error", "version_mismatch")
                .num("version", version),
            ResponseBody::Liked { likes } => Object::new().num("likes", likes),
            ResponseBody::Error(e) => Object::new().str("error", error_code(*e)),
        }
        .end()
    }
}

/// The standard reason phrase of the status codes the lesson uses.
pub fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        404 => "Not Found",
        409 => "Conflict",
        412 => "Precondition Failed",
        422 => "Unprocessable Content",
        _ => "",
    }
}

fn error_code(e: ApiError) -> &'static str {
    match e {
        ApiError::MissingKey => "idempotency_key_missing",
        ApiError::KeyReused => "idempotency_key_reused",
        ApiError::InProgress => "request_in_progress",
        ApiError::NoSuchPayment => "no_payment_with_this_key",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn charge(amount: u64) -> RequestBody {
        RequestBody::Charge {
            amount_cents: amount,
            currency: "usd".into(),
        }
    }

    #[test]
    fn canonical_json_sorts_keys() {
        let body = RequestBody::Debit {
            account: 1,
            amount: 20,
            expected_version: Some(5),
            op_id: None,
        };
        assert_eq!(body.canonical_json(), r#"{"account":1,"amount":20}"#);
    }

    /// Defect 4: a 412 needs a precondition header. The version read goes in If-Match as an
    /// entity tag, not in the body.
    #[test]
    fn a_conditional_debit_sends_if_match() {
        let request = HttpRequest {
            user: UserId(1),
            idempotency_key: None,
            body: RequestBody::Debit {
                account: 1,
                amount: 20,
                expected_version: Some(5),
                op_id: None,
            },
            attempt: 1,
            op: OpId(0),
            status_query: false,
        };
        assert!(request
            .headers()
            .contains(&(IF_MATCH.to_owned(), "\"5\"".to_owned())));
        assert!(!request.body.to_json().contains("version"));
        let blind = HttpRequest {
            body: RequestBody::Debit {
                account: 1,
                amount: 20,
                expected_version: None,
                op_id: None,
            },
            ..request
        };
        assert!(blind.headers().iter().all(|(name, _)| name != IF_MATCH));
    }

    #[test]
    fn a_remembered_fingerprint_is_the_digest_of_its_own_body() {
        // More bodies than are remembered, asked in turn and again: every answer is the hash
        // of the body asked about, not of one met before.
        let bodies: Vec<RequestBody> = (0..20).map(|i| charge(1_000 + i)).collect();
        for _ in 0..3 {
            for body in bodies.iter().chain(bodies.iter().rev()) {
                assert_eq!(body.fingerprint(), body.digest_hex());
            }
        }
        assert_ne!(bodies[0].fingerprint(), bodies[1].fingerprint());
    }

    #[test]
    fn fingerprint_is_sha256_of_canonical_body() {
        // SHA-256 of the bytes {"amount":10000,"currency":"usd"}, computed independently.
        assert_eq!(
            charge(10_000).canonical_json(),
            r#"{"amount":10000,"currency":"usd"}"#
        );
        let fp = charge(10_000).fingerprint();
        assert_eq!(
            fp,
            "2e116f471289a487f4da2ebd3240154dc088ef9c0357b6f4558afb8d511b5842"
        );
        assert_ne!(fp, charge(15_000).fingerprint());
    }

    #[test]
    fn canonical_json_is_what_serde_json_writes() {
        let odd = "quote\" slash\\ nl\n tab\t bell\u{7} é ключ";
        let bodies = [
            charge(10_000),
            RequestBody::Charge {
                amount_cents: 0,
                currency: odd.into(),
            },
            RequestBody::Debit {
                account: 1,
                amount: -20,
                expected_version: None,
                op_id: None,
            },
            RequestBody::Debit {
                account: 7,
                amount: 20,
                expected_version: Some(u64::MAX),
                op_id: None,
            },
            RequestBody::Debit {
                account: 7,
                amount: 20,
                expected_version: Some(5),
                op_id: Some(odd.into()),
            },
            RequestBody::Like {
                post: 7,
                op_id: Some(odd.into()),
            },
            RequestBody::Like {
                post: 7,
                op_id: None,
            },
        ];
        for body in bodies {
            let expected = match &body {
                RequestBody::Charge {
                    amount_cents,
                    currency,
                } => serde_json::json!({ "amount": amount_cents, "currency": currency }),
                RequestBody::Debit {
                    account,
                    amount,
                    op_id: None,
                    ..
                } => serde_json::json!({ "account": account, "amount": amount }),
                RequestBody::Debit {
                    account,
                    amount,
                    op_id: Some(op_id),
                    ..
                } => serde_json::json!({ "account": account, "amount": amount, "op_id": op_id }),
                RequestBody::Like { op_id, .. } => serde_json::json!({ "op_id": op_id }),
            };
            assert_eq!(body.canonical_json(), expected.to_string());
        }
    }

    #[test]
    fn response_bodies_are_what_serde_json_writes() {
        use serde_json::json;
        let response = |body| HttpResponse {
            status: 200,
            replayed: false,
            body,
            in_reply_to: MsgId(0),
            user: UserId(1),
            op: OpId(0),
        };
        let cases = [
            (
                ResponseBody::Charged {
                    payment_id: "ch_\"1".into(),
                    amount_cents: 10_000,
                    customer: UserId(2),
                },
                json!({ "id": "ch_\"1", "amount": 10_000, "customer": "user_2" }),
            ),
            (
                ResponseBody::Debited {
                    balance: -5,
                    version: 3,
                },
                json!({ "balance": -5, "version": 3 }),
            ),
            (
                ResponseBody::PreconditionFailed {
                    balance: 80,
                    version: u64::MAX,
                },
                json!({ "error": "version_mismatch", "balance": 80, "version": u64::MAX }),
            ),
            (ResponseBody::Liked { likes: 101 }, json!({ "likes": 101 })),
            (
                ResponseBody::Error(ApiError::KeyReused),
                json!({ "error": error_code(ApiError::KeyReused) }),
            ),
        ];
        for (body, expected) in cases {
            assert_eq!(response(body).body_json(), expected.to_string());
        }
    }

    #[test]
    fn status_codes_follow_the_ietf_draft() {
        assert_eq!(ApiError::MissingKey.status(), 400);
        assert_eq!(ApiError::KeyReused.status(), 422);
        assert_eq!(ApiError::InProgress.status(), 409);
    }
}
