//! Story 2: the same lost ack, but the client sends an Idempotency-Key and the API replays.

use crate::support;

use idem_core::http::ResponseBody;
use idem_core::record::KeyStatus;
use support::*;

#[test]
fn the_retry_is_answered_from_the_store_and_the_card_is_charged_once() {
    let world = run("key");
    let verdict = world.verdict();
    assert_eq!(verdict.money.statement_cents, 10_000);
    assert_eq!(world.processor().statement.len(), 1);
    assert_eq!(verdict.money.ledger_rows, 1);
    assert!(verdict.ok(), "{verdict:?}");
}

#[test]
fn the_replay_carries_the_same_payment_and_the_replayed_header() {
    let world = run("key");
    let sent = statuses_sent(&world);
    assert_eq!(sent, vec![201, 201]);
    let seen = delivered_responses(&world);
    assert_eq!(seen.len(), 1, "the first ack was lost");
    let replay = seen[0];
    assert!(replay.replayed, "Idempotent-Replayed: true");
    match &replay.body {
        ResponseBody::Charged { payment_id, .. } => assert_eq!(payment_id, "pay_abc"),
        other => panic!("expected the stored charge, got {other:?}"),
    }
}

#[test]
fn one_uuid_v4_key_is_reused_on_every_attempt() {
    let world = run("key");
    let keys: Vec<&str> = requests(&world)
        .iter()
        .map(|r| {
            r.idempotency_key
                .as_deref()
                .expect("a key on every attempt")
        })
        .collect();
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[0], keys[1]);
    let parsed = uuid::Uuid::parse_str(keys[0]).expect("a UUID");
    assert_eq!(parsed.get_version_num(), 4);
}

#[test]
fn the_store_keeps_the_completed_response_for_24_hours() {
    let world = run("key");
    let entries: Vec<_> = world.store().entries().collect();
    assert_eq!(entries.len(), 1);
    let (name, stored) = entries[0];
    assert!(name.starts_with("idem:user_1:"), "scoped by user: {name}");
    match &stored.record.status {
        KeyStatus::Completed(response) => assert_eq!(response.status, 201),
        other => panic!("expected completed, got {other:?}"),
    }
    let recorded_at = world
        .steps()
        .iter()
        .find(|s| s.notes.iter().any(|n| n.key() == "api.records_key"))
        .map(|s| s.at)
        .expect("the key was recorded");
    // The SET travels 100 ms to the store, which starts the 24 h TTL on arrival.
    assert_eq!(stored.expires_at.since(recorded_at), 24 * 3_600_000 + 100);
}

#[test]
fn the_retry_claim_fails_then_the_lookup_hits() {
    let keys = note_keys(&run("key"));
    let claims = keys.iter().filter(|k| **k == "api.claims_key").count();
    assert_eq!(claims, 2);
    assert!(keys.contains(&"api.key_taken"));
    assert!(keys.contains(&"api.replays"));
    assert_eq!(
        keys.iter().filter(|k| **k == "processor.charged").count(),
        1
    );
}
