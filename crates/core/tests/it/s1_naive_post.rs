//! Story 1: POST /charges without a key; the ack is lost; the retry charges again.

use crate::support;

use idem_core::http::ResponseBody;
use idem_core::{Invariant, Status, Violation};
use support::*;

#[test]
fn lost_ack_and_retry_charge_the_card_twice() {
    let world = run("naive");
    let verdict = world.verdict();

    // The customer's statement: $200 for one purchase.
    assert_eq!(verdict.money.statement_cents, 20_000);
    assert_eq!(world.processor().statement.len(), 2);
    // The ledger agrees with the processor: both charges were recorded, so nothing is missing,
    // the damage is the duplicate itself.
    assert_eq!(verdict.money.ledger_rows, 2);
    assert_eq!(
        verdict.status(Invariant::LedgerMatchesProcessor),
        Some(&Status::Holds)
    );
    assert_eq!(
        verdict.status(Invariant::AtMostOnce),
        Some(&Status::Violated(Violation::Repeated {
            op: idem_core::OpId(0),
            times: 2
        }))
    );
    assert!(!verdict.ok());
}

#[test]
fn the_client_sends_no_key_and_cannot_tell_it_was_charged() {
    let world = run("naive");
    let sent = requests(&world);
    assert_eq!(sent.len(), 2, "one request and one retry");
    assert!(sent.iter().all(|r| r.idempotency_key.is_none()));
    assert_eq!(
        sent[0].body, sent[1].body,
        "the retry repeats the same body"
    );

    // The first 201 was lost; the client only ever sees the second payment.
    assert_eq!(statuses_sent(&world), vec![201, 201]);
    let seen = delivered_responses(&world);
    assert_eq!(seen.len(), 1);
    match &seen[0].body {
        ResponseBody::Charged { payment_id, .. } => assert_eq!(payment_id, "pay_abd"),
        other => panic!("expected a charge, got {other:?}"),
    }
}

#[test]
fn the_story_unfolds_in_the_seed_order() {
    let keys = note_keys(&run("naive"));
    let order = [
        "client.sends",
        "api.calls_processor",
        "processor.charged",
        "api.writes_ledger",
        "ledger.ran",
        "api.responds",
        "net.ack_lost",
        "client.timed_out",
        "client.resends",
        "processor.charged",
        "client.got_success",
    ];
    let mut rest = keys.iter();
    for expected in order {
        assert!(
            rest.any(|k| *k == expected),
            "{expected} missing or out of order in {keys:?}"
        );
    }
}
