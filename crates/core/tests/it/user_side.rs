//! The user's side of a run: what the phone shows against what happened to the money. A
//! phone that gives up after a real charge shows an error for money that moved (the verdict's
//! `error_but_done`); the status check asks the API first and shows what it finds.

use crate::support;

use idem_core::client::UserView;
use idem_core::SimTime;
use idem_core::{Action, Invariant, Note, RunEnd, World};
use support::{requests, scenario, STEP_BOUND};

/// Every protection on (status check as given), the first answer lost (or, with
/// `drop_first_request`, the first request), and the phone offline for 25 h right after its
/// first request: when it wakes, its deadline (1 h) has passed.
fn offline_after_the_lost_answer(status_check: bool, drop_first_request: bool) -> World {
    let mut s = scenario("fully-protected");
    s.protections.status_check = status_check;
    if drop_first_request {
        // Without the script's lost answer, which would be the status check's.
        s = s.without_scripted_faults();
    }
    let mut world = World::new(&s);
    while requests(&world).is_empty() {
        world.step().expect("the script starts the payment");
    }
    if drop_first_request {
        let first = world.network().messages()[0].id;
        world.apply(Action::Drop(first)).expect("in flight");
    }
    world
        .apply(Action::AdvanceClock(25 * SimTime::HOUR))
        .expect("applies");
    assert_eq!(world.run(STEP_BOUND), RunEnd::Quiescent);
    world
}

fn noted(world: &World, note: &Note) -> bool {
    world
        .steps()
        .iter()
        .flat_map(|s| &s.notes)
        .any(|n| n == note)
}

#[test]
fn without_the_status_check_the_phone_gives_up_on_a_payment_that_went_through() {
    let world = offline_after_the_lost_answer(false, false);
    let verdict = world.verdict();
    // The money is right; only what the user is told is wrong (issue 41's invariant).
    let broken: Vec<Invariant> = verdict.violations().map(|(i, _)| i).collect();
    assert_eq!(broken, vec![Invariant::UserToldTheTruth], "{verdict:?}");
    assert_eq!(verdict.money.statement_cents, 10_000);
    assert_eq!(world.client().ops()[0].view, UserView::GaveUp);
    assert_eq!(verdict.error_but_done.len(), 1, "the screen is wrong");
}

#[test]
fn the_status_check_finds_the_payment_and_the_phone_shows_it() {
    let world = offline_after_the_lost_answer(true, false);
    let verdict = world.verdict();
    assert!(verdict.ok(), "{verdict:?}");
    assert_eq!(verdict.money.statement_cents, 10_000, "the same money");
    assert!(verdict.error_but_done.is_empty(), "the caveat is gone");
    let UserView::Succeeded(answer) = &world.client().ops()[0].view else {
        panic!("{:?}", world.client().ops()[0].view);
    };
    assert_eq!(answer.status, 200);
    assert!(noted(&world, &Note::ApiStatusFound));
    // The key's own record expired after 24 h; the charges row is what the check finds.
    assert!(world.ledger().idempotency_keys.is_empty());
    // One GET, after the payment's one POST: no retry, no body, no Content-Type.
    let sent = requests(&world);
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert!(sent[1].status_query);
    assert_eq!(
        sent[1].request_line(),
        "GET /charges/status?amount=10000 HTTP/1.1"
    );
    let headers = sent[1].headers();
    assert!(headers.iter().any(|(n, v)| n == "Idempotency-Key"
        && Some(v.trim_matches('"')) == sent[0].idempotency_key.as_deref()));
    assert!(headers.iter().all(|(n, _)| n != "Content-Type"));
}

#[test]
fn the_status_check_says_not_charged_when_the_request_never_arrived() {
    let world = offline_after_the_lost_answer(true, true);
    let verdict = world.verdict();
    assert_eq!(verdict.money.statement_cents, 0);
    assert!(noted(&world, &Note::ApiStatusUnknown));
    let UserView::Failed(answer) = &world.client().ops()[0].view else {
        panic!("{:?}", world.client().ops()[0].view);
    };
    assert_eq!(answer.status, 404);
    assert!(verdict.error_but_done.is_empty(), "true: nothing moved");
}

#[test]
fn a_status_check_that_gets_no_answer_leaves_the_user_unsure() {
    let mut s = scenario("fully-protected");
    s.protections.status_check = true;
    let mut world = World::new(&s);
    while requests(&world).is_empty() {
        world.step().expect("starts");
    }
    world
        .apply(Action::AdvanceClock(25 * SimTime::HOUR))
        .expect("applies");
    // Drop the status check itself as it leaves.
    while !requests(&world).iter().any(|r| r.status_query) {
        world.step().expect("the phone wakes and asks");
    }
    let check = world
        .network()
        .messages()
        .iter()
        .rev()
        .find(|m| matches!(&m.payload, idem_core::message::Payload::Request(r) if r.status_query))
        .map(|m| m.id)
        .expect("sent");
    world.apply(Action::Drop(check)).expect("in flight");
    assert_eq!(world.run(STEP_BOUND), RunEnd::Quiescent);
    assert_eq!(world.client().ops()[0].view, UserView::GaveUp);
    assert_eq!(world.verdict().error_but_done.len(), 1);
}

/// The page's link for the run above: the fully protected design without its script's lost
/// answer, the phone offline 25 h right after it sends (the answer finds it offline).
#[test]
fn the_link_to_the_status_check_run_plays_it() {
    let others: Vec<&str> = idem_core::Protections::NAMES
        .into_iter()
        .filter(|n| *n != "status-check")
        .collect();
    let without = format!("&protect={}", others.join("."));
    for (protect, shown) in [("", "200"), (without.as_str(), "gave-up")] {
        let query = format!("scenario=fully-protected&base=1&faults=1.clock.90000000{protect}");
        let link = idem_core::DeepLink::parse(&query).expect("parses");
        let mut world = link.build().expect("builds").pop().expect("a world");
        assert_eq!(world.run(STEP_BOUND), RunEnd::Quiescent);
        let view = match &world.client().ops()[0].view {
            UserView::Succeeded(r) => r.status.to_string(),
            UserView::GaveUp => "gave-up".to_owned(),
            other => format!("{other:?}"),
        };
        assert_eq!(view, shown, "{query}");
        assert_eq!(world.verdict().money.statement_cents, 10_000, "{query}");
    }
}
