//! The store's commands as a real Redis client sends them (argv), and a key's record as the
//! value Redis holds.

use crate::record::{KeyRecord, KeyStatus};
use crate::store::RedisCommand;

use super::values::stored_body_json;

/// The value a real server stores in Redis for a key: the record of [`KeyRecord::to_json`]
/// with the full fingerprint and, once completed, the response body to replay.
pub fn redis_value(record: &KeyRecord) -> String {
    let body = match &record.status {
        KeyStatus::Completed(response) => Some(stored_body_json(response)),
        KeyStatus::InProgress => None,
    };
    record.json_object(usize::MAX, body.as_deref())
}

/// The command as a client library sends it: `SET key value [NX] PX ttl`, `GET key`, the fenced
/// claim as `EVAL script 2 key counter value ttl`, or the fenced SET as `EVAL script 2 key
/// counter token value ttl` (the TTL last, as in `SET`, so a replay can retime it).
pub fn redis_argv(command: &RedisCommand) -> Vec<String> {
    match command {
        RedisCommand::Set {
            key,
            value,
            nx,
            ttl_ms,
        } => {
            let mut argv = vec![
                "SET".to_owned(),
                key.as_str().to_owned(),
                redis_value(value),
            ];
            if *nx {
                argv.push("NX".to_owned());
            }
            argv.push("PX".to_owned());
            argv.push(ttl_ms.to_string());
            argv
        }
        RedisCommand::Get { key } => vec!["GET".to_owned(), key.as_str().to_owned()],
        RedisCommand::ClaimWithToken {
            key,
            value,
            ttl_ms,
            fence,
        } => vec![
            "EVAL".to_owned(),
            crate::store::CLAIM_WITH_TOKEN_LUA.to_owned(),
            "2".to_owned(),
            key.as_str().to_owned(),
            fence.as_str().to_owned(),
            redis_value(value),
            ttl_ms.to_string(),
        ],
        RedisCommand::SetIfToken {
            key,
            value,
            ttl_ms,
            fence,
            token,
        } => vec![
            "EVAL".to_owned(),
            crate::store::SET_IF_TOKEN_LUA.to_owned(),
            "2".to_owned(),
            key.as_str().to_owned(),
            fence.as_str().to_owned(),
            token.to_string(),
            redis_value(value),
            ttl_ms.to_string(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::sql::tests::{charged, record};

    #[test]
    fn redis_commands_as_argv() {
        let set = RedisCommand::Set {
            key: "idem:user_1:k1".into(),
            value: record(KeyStatus::InProgress),
            nx: true,
            ttl_ms: 5_000,
        };
        assert_eq!(
            redis_argv(&set),
            [
                "SET",
                "idem:user_1:k1",
                r#"{"request_sha256":"2e11","status":"in_progress","user":1}"#,
                "NX",
                "PX",
                "5000",
            ]
        );
        let record_done = RedisCommand::Set {
            key: "idem:k1".into(),
            value: record(KeyStatus::Completed(charged())),
            nx: false,
            ttl_ms: 86_400_000,
        };
        assert_eq!(
            redis_argv(&record_done),
            [
                "SET",
                "idem:k1",
                r#"{"request_sha256":"2e11","response_body":{"amount":10000,"customer":"user_1","id":"pay_abc"},"response_status":201,"status":"completed","user":1}"#,
                "PX",
                "86400000",
            ]
        );
        assert_eq!(
            redis_argv(&RedisCommand::Get {
                key: "idem:k1".into()
            }),
            ["GET", "idem:k1"]
        );
        let claim = RedisCommand::ClaimWithToken {
            key: "idem:k1".into(),
            value: record(KeyStatus::InProgress),
            ttl_ms: 5_000,
            fence: "fence:idem:k1".into(),
        };
        let argv = redis_argv(&claim);
        assert_eq!(argv[0], "EVAL");
        assert_eq!(argv[1], crate::store::CLAIM_WITH_TOKEN_LUA);
        assert_eq!(
            argv[2..],
            [
                "2",
                "idem:k1",
                "fence:idem:k1",
                r#"{"request_sha256":"2e11","status":"in_progress","user":1}"#,
                "5000",
            ]
        );
    }
}
