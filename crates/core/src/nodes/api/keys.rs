//! What a handler's key is called and what it carries: the key's name in the store (scoped by
//! user or not), its fencing counter and token, and whether fencing and recovery apply under
//! the protections on.

use crate::base::text::Text;
use crate::http::HttpRequest;
use crate::protections::Protections;

use super::Handler;

/// Fencing tokens come from the Redis claim's counter: with the lock in Redis
/// ([`Protections::fencing_acts`]).
pub(super) fn fencing_applies(p: &Protections) -> bool {
    p.fencing_acts()
}

/// The counter that issues a key's fencing tokens (`fence:idem:user_1:<uuid>`).
pub(super) fn fence_key(store_key: &str) -> Text {
    let mut name = String::with_capacity(store_key.len() + 6);
    name.push_str("fence:");
    name.push_str(store_key);
    Text::from(name)
}

/// What a handler's finishing writes carry with fencing: its counter and its token.
pub(super) fn fence_of(h: &Handler) -> Option<(Text, u64)> {
    let token = h.token?;
    Some((fence_key(h.store_key.as_deref()?), token))
}

/// Recovery needs the request stored with an in-progress claim, which only the PostgreSQL
/// key table with a lock provides.
pub(super) fn recovery_applies(p: &Protections) -> bool {
    p.recovery && p.idempotency_key && p.key_in_ledger_tx && p.lock
}

/// The key's name in the store: `idem:user_1:<key>` when scoped, `idem:<key>` when not.
pub(super) fn store_key(request: &HttpRequest, p: &Protections) -> Option<Text> {
    let key = request
        .idempotency_key
        .as_ref()
        .filter(|_| p.idempotency_key)?;
    // Built by hand rather than with `format!` (the explorer builds one per request).
    let mut name = String::with_capacity(key.len() + 20);
    name.push_str("idem:");
    if p.scope_by_user {
        name.push_str("user_");
        push_decimal(&mut name, request.user.0);
        name.push(':');
    }
    name.push_str(key);
    Some(Text::from(name))
}

pub(super) fn push_decimal(out: &mut String, n: u32) {
    if n >= 10 {
        push_decimal(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

pub(super) fn raw_key(h: &Handler) -> Text {
    h.request.idempotency_key.clone().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::RequestBody;

    #[test]
    fn store_key_names_the_user_in_decimal_when_scoped() {
        let mut p = Protections::NONE;
        p.idempotency_key = true;
        let request = |user: u32| HttpRequest {
            user: crate::topology::UserId(user),
            idempotency_key: Some(Text::from("k-1")),
            body: RequestBody::Like {
                post: 7,
                op_id: None,
            },
            attempt: 1,
            op: crate::topology::OpId(0),
            status_query: false,
        };
        assert_eq!(store_key(&request(2), &p).as_deref(), Some("idem:k-1"));
        p.scope_by_user = true;
        for (user, name) in [
            (0, "idem:user_0:k-1"),
            (7, "idem:user_7:k-1"),
            (10, "idem:user_10:k-1"),
            (4_294_967_295, "idem:user_4294967295:k-1"),
        ] {
            assert_eq!(store_key(&request(user), &p).as_deref(), Some(name));
        }
        p.idempotency_key = false;
        assert_eq!(store_key(&request(1), &p), None);
    }
}
