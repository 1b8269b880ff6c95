//! Story 3: a conditional update. The retry of a debit matches 0 rows and changes nothing.

use crate::support;

use idem_core::http::ResponseBody;
use idem_core::Invariant;
use support::*;

#[test]
fn debit_at_version_5_applies_once_and_the_retry_matches_zero_rows() {
    let world = run("cas");
    let account = &world.ledger().accounts[0];
    assert_eq!((account.balance, account.version), (80, 6));
    // Each batch is [UPDATE … WHERE version = 5, SELECT]: 1 row the first time, 0 on the retry.
    assert_eq!(ledger_rows(&world), vec![vec![1, 1], vec![0, 1]]);
    assert!(world.verdict().ok());
}

#[test]
fn the_retry_gets_412_with_the_current_version() {
    let world = run("cas");
    assert_eq!(statuses_sent(&world), vec![200, 412]);
    let seen = delivered_responses(&world);
    assert_eq!(seen.len(), 1);
    assert_eq!(
        seen[0].body,
        ResponseBody::PreconditionFailed {
            balance: 80,
            version: 6
        }
    );
}

#[test]
fn the_request_carries_the_expected_version() {
    let world = run("cas");
    let request = &requests(&world)[0];
    assert_eq!(
        request.body.canonical_json(),
        r#"{"account":1,"amount":20}"#
    );
    assert!(request
        .headers()
        .contains(&("If-Match".to_owned(), "\"5\"".to_owned())));
}

#[test]
fn without_the_version_check_the_retry_debits_again() {
    let world = run("cas-naive");
    assert_eq!(world.ledger().accounts[0].balance, 60);
    let verdict = world.verdict();
    assert!(matches!(
        verdict.status(Invariant::BalanceMatchesDebits),
        Some(idem_core::Status::Violated(_))
    ));
}

#[test]
fn a_concurrent_writer_at_the_same_version_gets_412() {
    let world = run("cas-race");
    let mut statuses = statuses_sent(&world);
    statuses.sort_unstable();
    assert_eq!(statuses, vec![200, 412]);
    let account = &world.ledger().accounts[0];
    assert_eq!(
        (account.balance, account.version),
        (80, 6),
        "the 20 won, the 30 was refused"
    );
    assert!(world.verdict().ok());
}

#[test]
fn the_user_is_shown_the_balance_from_the_412_for_the_debit_that_went_through() {
    // The money is right (the verdict holds); the phone's last answer was 412 for a debit that
    // was applied, and its body carries the new balance, which the app shows: the user is
    // shown the state, not told the debit failed (`Told::State`), so no caveat.
    let world = run("cas");
    let verdict = world.verdict();
    assert!(verdict.ok());
    assert_eq!(world.client().ops()[0].view.told(), idem_core::Told::State);
    assert!(verdict.error_but_done.is_empty());
}

#[test]
fn reconciling_answers_200_to_the_retry_of_the_applied_debit() {
    let mut with = scenario("cas");
    with.protections.reconcile = true;
    let world = run_scenario(&with);
    let account = &world.ledger().accounts[0];
    assert_eq!(
        (account.balance, account.version),
        (80, 6),
        "the same money"
    );
    // [UPDATE … recording op_id, SELECT account, SELECT account_ops]: applied the first time;
    // the retry matches 0 rows, and finds its own op_id.
    assert_eq!(ledger_rows(&world), vec![vec![1, 1, 1], vec![0, 1, 1]]);
    assert_eq!(statuses_sent(&world), vec![200, 200]);
    assert!(note_keys(&world).contains(&"api.reconciled"));
    let seen = delivered_responses(&world);
    assert_eq!(
        seen.last().map(|r| &r.body),
        Some(&ResponseBody::Debited {
            balance: 80,
            version: 6
        })
    );
    let verdict = world.verdict();
    assert!(verdict.ok());
    assert!(verdict.error_but_done.is_empty(), "the caveat is gone");
    // Both attempts carry the same op_id in the body.
    let sent = requests(&world);
    let op_id = sent[0].body.canonical_json();
    assert!(op_id.contains(r#""op_id":""#), "{op_id}");
    assert!(sent.iter().all(|r| r.body.canonical_json() == op_id));
}

#[test]
fn reconciling_still_refuses_another_debit_at_the_same_version() {
    let mut with = scenario("cas-race");
    with.protections.reconcile = true;
    let world = run_scenario(&with);
    let mut statuses = statuses_sent(&world);
    statuses.sort_unstable();
    assert_eq!(
        statuses,
        vec![200, 412],
        "the other debit's op_id is not applied"
    );
    let account = &world.ledger().accounts[0];
    assert_eq!((account.balance, account.version), (80, 6));
    assert!(world.verdict().ok());
}
