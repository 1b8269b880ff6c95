//! The mobile client on its own, driven by hand: what it sends, when its timers fire, how it
//! backs off and gives up, what the user sees for each answer. Written against the survivors
//! of `bash scripts/mutants.sh client` (docs/notes-mutants.md); every test runs in microseconds.

use idem_core::client::{Client, ClientConfig, ClientOutput, UserView, Wait};
use idem_core::http::{ApiError, HttpRequest, HttpResponse, RequestBody, ResponseBody};
use idem_core::rng::SimRng;
use idem_core::{MsgId, Note, OpId, SimTime, UserId};

const ALICE: UserId = UserId(1);
const OTHER: UserId = UserId(2);
const SEED: u64 = 42;

fn config(deadline: Option<u64>) -> ClientConfig {
    ClientConfig {
        timeout_ms: 3_000,
        max_attempts: 3,
        backoff_base_ms: 1_000,
        jitter_ms: 250,
        retry_deadline_ms: deadline,
        status_check: false,
    }
}

fn charge(amount_cents: u64) -> RequestBody {
    RequestBody::Charge {
        amount_cents,
        currency: "usd".into(),
    }
}

fn charged(op: OpId, customer: UserId, amount_cents: u64) -> HttpResponse {
    HttpResponse {
        status: 201,
        replayed: false,
        body: ResponseBody::Charged {
            payment_id: "pay_1".into(),
            amount_cents,
            customer,
        },
        in_reply_to: MsgId(0),
        user: customer,
        op,
    }
}

fn status(op: OpId, status: u16, error: ApiError) -> HttpResponse {
    HttpResponse {
        status,
        replayed: false,
        body: ResponseBody::Error(error),
        in_reply_to: MsgId(0),
        user: ALICE,
        op,
    }
}

/// Everything the client wants done, drained.
fn drain(client: &mut Client) -> Vec<ClientOutput> {
    std::iter::from_fn(|| client.poll()).collect()
}

fn notes(outputs: &[ClientOutput]) -> Vec<Note> {
    outputs
        .iter()
        .filter_map(|o| match o {
            ClientOutput::Note(n) => Some(n.clone()),
            ClientOutput::Send(_) => None,
        })
        .collect()
}

fn sent(outputs: &[ClientOutput]) -> Vec<HttpRequest> {
    outputs
        .iter()
        .filter_map(|o| match o {
            ClientOutput::Send(r) => Some(r.clone()),
            ClientOutput::Note(_) => None,
        })
        .collect()
}

fn view(client: &Client, op: u32) -> UserView {
    client
        .op(OpId(op))
        .expect("the operation exists")
        .view
        .clone()
}

fn wait(client: &Client, op: u32) -> Wait {
    client.op(OpId(op)).expect("the operation exists").wait
}

/// A client with one charge of $100 started at `at`, its first outputs drained.
fn started(deadline: Option<u64>, at: u64) -> Client {
    let mut client = Client::new(config(deadline));
    client.start(
        SimTime(at),
        OpId(0),
        ALICE,
        charge(10_000),
        Some("k-1".into()),
    );
    drain(&mut client);
    client
}

/// Fires the client's timers until none is left; fails (rather than looping) if they never end.
fn fire_every_timer(client: &mut Client, rng: &mut SimRng) {
    for _ in 0..100 {
        let Some((t, op)) = client.next_wakeup() else {
            return;
        };
        client.on_timeout(t, op, rng);
    }
    panic!("the client still has a timer after 100 of them");
}

#[test]
fn the_client_keeps_its_policy() {
    let client = Client::new(config(Some(7)));
    assert_eq!(client.config(), &config(Some(7)));
    assert!(client.ops().is_empty());
    assert_eq!(client.next_wakeup(), None);
}

#[test]
fn settled_means_success_or_failure_shown() {
    let ok = charged(OpId(0), ALICE, 1);
    assert!(UserView::Succeeded(ok.clone()).is_settled());
    assert!(UserView::Failed(ok).is_settled());
    assert!(!UserView::Waiting.is_settled());
    assert!(!UserView::GaveUp.is_settled());
}

#[test]
fn starting_sends_the_first_attempt_with_its_key_and_arms_the_timeout() {
    let mut client = Client::new(config(None));
    client.start(
        SimTime(100),
        OpId(0),
        ALICE,
        charge(10_000),
        Some("k-1".into()),
    );
    let out = drain(&mut client);
    assert_eq!(
        notes(&out),
        vec![
            Note::OperationStarted { op: OpId(0) },
            Note::ClientSends {
                op: OpId(0),
                attempt: 1,
                with_key: true,
            },
        ]
    );
    assert_eq!(
        sent(&out),
        vec![HttpRequest {
            user: ALICE,
            idempotency_key: Some("k-1".into()),
            body: charge(10_000),
            attempt: 1,
            op: OpId(0),
            status_query: false,
        }]
    );
    assert!(matches!(out.last(), Some(ClientOutput::Send(_))));
    let op = client.op(OpId(0)).expect("started");
    assert_eq!((op.attempts, op.started_at), (1, SimTime(100)));
    assert_eq!(
        op.wait,
        Wait::Answer {
            timeout_at: SimTime(3_100)
        }
    );
    assert_eq!(op.view, UserView::Waiting);
    assert_eq!(client.next_wakeup(), Some((SimTime(3_100), OpId(0))));
    assert_eq!(client.poll(), None);
}

#[test]
fn operations_are_found_by_id_and_answers_go_to_their_own_operation() {
    let mut client = Client::new(config(None));
    client.start(SimTime(0), OpId(0), ALICE, charge(10_000), Some("a".into()));
    client.start(
        SimTime(500),
        OpId(1),
        ALICE,
        charge(2_000),
        Some("b".into()),
    );
    drain(&mut client);
    let ids: Vec<OpId> = client.ops().iter().map(|o| o.op).collect();
    assert_eq!(ids, vec![OpId(0), OpId(1)]);
    assert_eq!(
        client.op(OpId(1)).map(|o| o.body.clone()),
        Some(charge(2_000))
    );
    assert_eq!(
        client.op(OpId(0)).map(|o| o.body.clone()),
        Some(charge(10_000))
    );
    assert!(client.op(OpId(9)).is_none());
    // The earliest timer is the first operation's.
    assert_eq!(client.next_wakeup(), Some((SimTime(3_000), OpId(0))));

    let mut rng = SimRng::new(SEED);
    client.on_response(SimTime(900), &charged(OpId(1), ALICE, 2_000), &mut rng);
    assert!(view(&client, 1).is_settled());
    assert_eq!(view(&client, 0), UserView::Waiting);
    assert_eq!(client.next_wakeup(), Some((SimTime(3_000), OpId(0))));
    client.on_response(SimTime(950), &charged(OpId(0), ALICE, 10_000), &mut rng);
    assert!(view(&client, 0).is_settled());
    assert_eq!(client.next_wakeup(), None);

    // An answer for an operation the client never started changes nothing.
    let before = client.clone();
    client.on_response(SimTime(990), &charged(OpId(7), ALICE, 1), &mut rng);
    client.on_timeout(SimTime(990), OpId(7), &mut rng);
    assert_eq!(client, before);
}

#[test]
fn timeouts_back_off_exponentially_with_jitter_then_give_up() {
    let mut client = started(None, 0);
    let mut rng = SimRng::new(SEED);
    let mut expected_rng = SimRng::new(SEED);
    let mut now = 3_000;
    for attempt in 1..=2u32 {
        assert_eq!(
            wait(&client, 0),
            Wait::Answer {
                timeout_at: SimTime(now)
            }
        );
        client.on_timeout(SimTime(now), OpId(0), &mut rng);
        let jitter = expected_rng.below(250);
        assert_ne!(jitter, 0, "seed {SEED} gives some jitter");
        let wait_ms = 1_000 * (1 << (attempt - 1)) + jitter;
        assert_eq!(
            notes(&drain(&mut client)),
            vec![
                Note::ClientTimedOut {
                    op: OpId(0),
                    attempt
                },
                Note::ClientBacksOff {
                    op: OpId(0),
                    wait_ms
                },
            ],
            "attempt {attempt}"
        );
        now += wait_ms;
        assert_eq!(
            wait(&client, 0),
            Wait::Backoff {
                retry_at: SimTime(now)
            }
        );
        assert_eq!(client.next_wakeup(), Some((SimTime(now), OpId(0))));
        client.on_timeout(SimTime(now), OpId(0), &mut rng);
        let out = drain(&mut client);
        assert_eq!(
            sent(&out).iter().map(|r| r.attempt).collect::<Vec<_>>(),
            vec![attempt + 1]
        );
        assert_eq!(sent(&out)[0].idempotency_key.as_deref(), Some("k-1"));
        now += 3_000;
    }
    // The third attempt is the last one.
    client.on_timeout(SimTime(now), OpId(0), &mut rng);
    assert_eq!(
        notes(&drain(&mut client)),
        vec![
            Note::ClientTimedOut {
                op: OpId(0),
                attempt: 3
            },
            Note::ClientGaveUp { op: OpId(0) },
        ]
    );
    assert_eq!(view(&client, 0), UserView::GaveUp);
    assert_eq!(wait(&client, 0), Wait::Nothing);
    assert_eq!(client.next_wakeup(), None);
    // A stray timer on an abandoned operation does nothing.
    client.on_timeout(SimTime(now + 1), OpId(0), &mut rng);
    assert!(drain(&mut client).is_empty());
}

#[test]
fn past_the_retry_deadline_the_client_gives_up_with_attempts_left() {
    // Times out at 3 000 (within the 4 000 deadline), backs off past it: no retry leaves.
    let mut client = started(Some(4_000), 0);
    let mut rng = SimRng::new(SEED);
    client.on_timeout(SimTime(3_000), OpId(0), &mut rng);
    let Wait::Backoff { retry_at } = wait(&client, 0) else {
        panic!("backs off first: {:?}", wait(&client, 0));
    };
    assert!(retry_at > SimTime(4_000));
    drain(&mut client);
    client.on_timeout(retry_at, OpId(0), &mut rng);
    assert_eq!(
        drain(&mut client),
        vec![ClientOutput::Note(Note::ClientGaveUp { op: OpId(0) })]
    );
    assert_eq!(view(&client, 0), UserView::GaveUp);

    // A timeout that fires past the deadline gives up at once, without backing off.
    let mut client = started(Some(2_000), 0);
    client.on_timeout(SimTime(3_000), OpId(0), &mut rng);
    assert_eq!(
        notes(&drain(&mut client)),
        vec![
            Note::ClientTimedOut {
                op: OpId(0),
                attempt: 1
            },
            Note::ClientGaveUp { op: OpId(0) },
        ]
    );
    assert_eq!(client.next_wakeup(), None);
}

#[test]
fn the_deadline_includes_its_last_millisecond() {
    let deadline = 10_000;
    let mut client = started(Some(deadline), 500);
    assert!(client.retry_now(SimTime(500 + deadline), OpId(0)));
    assert_eq!(client.retryable_op(SimTime(500 + deadline)), Some(OpId(0)));
    assert_eq!(client.retryable_op(SimTime(501 + deadline)), None);
    drain(&mut client);
    assert!(!client.retry_now(SimTime(501 + deadline), OpId(0)));
    client.send_copy(SimTime(501 + deadline), OpId(0));
    assert!(
        drain(&mut client).is_empty(),
        "nothing leaves past the deadline"
    );
    assert_eq!(client.op(OpId(0)).map(|o| o.attempts), Some(2));
}

#[test]
fn an_answer_settles_the_operation_and_later_answers_are_ignored() {
    let mut client = started(None, 0);
    let mut rng = SimRng::new(SEED);
    let mut ok = charged(OpId(0), ALICE, 10_000);
    ok.replayed = true;
    client.on_response(SimTime(200), &ok, &mut rng);
    assert_eq!(
        drain(&mut client),
        vec![ClientOutput::Note(Note::ClientGotAnswer {
            op: OpId(0),
            status: 201,
            replayed: true,
        })]
    );
    assert_eq!(view(&client, 0), UserView::Succeeded(ok.clone()));
    assert_eq!(wait(&client, 0), Wait::Nothing);

    let late = status(OpId(0), 422, ApiError::KeyReused);
    client.on_response(SimTime(300), &late, &mut rng);
    assert_eq!(
        drain(&mut client),
        vec![ClientOutput::Note(Note::ClientIgnoredLateAnswer {
            op: OpId(0),
            status: 422,
        })]
    );
    assert_eq!(view(&client, 0), UserView::Succeeded(ok));
}

#[test]
fn an_error_answer_is_shown_as_a_failure() {
    let mut client = started(None, 0);
    let mut rng = SimRng::new(SEED);
    let refused = status(OpId(0), 422, ApiError::KeyReused);
    client.on_response(SimTime(200), &refused, &mut rng);
    assert_eq!(
        notes(&drain(&mut client)),
        vec![Note::ClientGotAnswer {
            op: OpId(0),
            status: 422,
            replayed: false,
        }]
    );
    assert_eq!(view(&client, 0), UserView::Failed(refused));
    assert_eq!(client.next_wakeup(), None);
}

#[test]
fn a_409_makes_the_client_back_off_and_retry() {
    let mut client = started(None, 0);
    let mut rng = SimRng::new(SEED);
    let jitter = SimRng::new(SEED).below(250);
    client.on_response(
        SimTime(200),
        &status(OpId(0), 409, ApiError::InProgress),
        &mut rng,
    );
    assert_eq!(
        notes(&drain(&mut client)),
        vec![
            Note::ClientToldToWait { op: OpId(0) },
            Note::ClientBacksOff {
                op: OpId(0),
                wait_ms: 1_000 + jitter,
            },
        ]
    );
    assert_eq!(view(&client, 0), UserView::Waiting);
    assert_eq!(
        client.next_wakeup(),
        Some((SimTime(1_200 + jitter), OpId(0)))
    );
}

#[test]
fn a_success_for_someone_else_or_another_amount_is_foreign() {
    let cases = [
        (ALICE, 10_000, false),
        (OTHER, 10_000, true),
        (ALICE, 15_000, true),
        (OTHER, 15_000, true),
    ];
    for (customer, amount, foreign) in cases {
        let mut client = started(None, 0);
        client.on_response(
            SimTime(200),
            &charged(OpId(0), customer, amount),
            &mut SimRng::new(SEED),
        );
        let expected = if foreign {
            Note::ClientGotForeignAnswer {
                op: OpId(0),
                status: 201,
            }
        } else {
            Note::ClientGotAnswer {
                op: OpId(0),
                status: 201,
                replayed: false,
            }
        };
        assert_eq!(
            notes(&drain(&mut client)),
            vec![expected],
            "{customer:?} {amount}"
        );
        // Foreign or not, the screen shows the success it got.
        assert!(matches!(view(&client, 0), UserView::Succeeded(_)));
    }
}

#[test]
fn retry_sends_an_open_operation_again_and_nothing_for_a_settled_one() {
    let mut client = started(None, 0);
    assert!(client.retry_now(SimTime(1_000), OpId(0)));
    let out = drain(&mut client);
    assert_eq!(
        notes(&out),
        vec![
            Note::ClientRetryPressed { op: OpId(0) },
            Note::ClientSends {
                op: OpId(0),
                attempt: 2,
                with_key: true,
            },
        ]
    );
    assert_eq!(sent(&out).len(), 1);
    assert_eq!(
        wait(&client, 0),
        Wait::Answer {
            timeout_at: SimTime(4_000)
        }
    );
    assert!(
        !client.retry_now(SimTime(1_000), OpId(5)),
        "no such operation"
    );

    client.on_response(
        SimTime(1_100),
        &charged(OpId(0), ALICE, 10_000),
        &mut SimRng::new(SEED),
    );
    drain(&mut client);
    assert!(!client.retry_now(SimTime(1_200), OpId(0)));
    assert!(drain(&mut client).is_empty());
    assert_eq!(client.op(OpId(0)).map(|o| o.attempts), Some(2));
}

#[test]
fn retrying_an_abandoned_operation_shows_the_spinner_again() {
    let mut client = started(Some(60_000), 0);
    let mut rng = SimRng::new(SEED);
    fire_every_timer(&mut client, &mut rng);
    assert_eq!(view(&client, 0), UserView::GaveUp);
    assert_eq!(client.retryable_op(SimTime(30_000)), Some(OpId(0)));
    assert!(client.retry_now(SimTime(30_000), OpId(0)));
    assert_eq!(view(&client, 0), UserView::Waiting);
    assert_eq!(
        wait(&client, 0),
        Wait::Answer {
            timeout_at: SimTime(33_000)
        }
    );
}

#[test]
fn a_second_tap_sends_a_copy_without_touching_the_timers() {
    // In flight: the copy leaves, the first attempt's timeout stays.
    let mut client = started(None, 0);
    client.send_copy(SimTime(1_000), OpId(0));
    let out = drain(&mut client);
    assert_eq!(
        sent(&out).iter().map(|r| r.attempt).collect::<Vec<_>>(),
        vec![2]
    );
    assert_eq!(
        wait(&client, 0),
        Wait::Answer {
            timeout_at: SimTime(3_000)
        }
    );
    assert_eq!(view(&client, 0), UserView::Waiting);

    // Settled: the copy leaves, the success stays on screen, no timer is set.
    let ok = charged(OpId(0), ALICE, 10_000);
    client.on_response(SimTime(1_100), &ok, &mut SimRng::new(SEED));
    client.send_copy(SimTime(2_000), OpId(0));
    assert_eq!(sent(&drain(&mut client)).len(), 1);
    assert_eq!(view(&client, 0), UserView::Succeeded(ok));
    assert_eq!(wait(&client, 0), Wait::Nothing);
    assert_eq!(client.next_wakeup(), None);

    // Abandoned: the copy is a fresh attempt, waited for like one.
    let mut client = started(None, 0);
    let mut rng = SimRng::new(SEED);
    fire_every_timer(&mut client, &mut rng);
    drain(&mut client);
    client.send_copy(SimTime(50_000), OpId(0));
    assert_eq!(sent(&drain(&mut client)).len(), 1);
    assert_eq!(view(&client, 0), UserView::Waiting);
    assert_eq!(
        wait(&client, 0),
        Wait::Answer {
            timeout_at: SimTime(53_000)
        }
    );
}

#[test]
fn the_retryable_operation_is_the_latest_open_one() {
    let mut client = Client::new(config(None));
    let mut rng = SimRng::new(SEED);
    assert_eq!(client.retryable_op(SimTime(0)), None);
    client.start(SimTime(0), OpId(0), ALICE, charge(1), None);
    client.start(SimTime(0), OpId(1), ALICE, charge(2), None);
    assert_eq!(client.retryable_op(SimTime(0)), Some(OpId(1)));
    // The latest one settled: the earlier one is still open.
    client.on_response(SimTime(10), &charged(OpId(1), ALICE, 2), &mut rng);
    assert_eq!(client.retryable_op(SimTime(10)), Some(OpId(0)));
    client.on_response(SimTime(20), &charged(OpId(0), ALICE, 1), &mut rng);
    assert_eq!(client.retryable_op(SimTime(20)), None);

    // Without a key the header is absent.
    let out = drain(&mut client);
    assert!(notes(&out).contains(&Note::ClientSends {
        op: OpId(1),
        attempt: 1,
        with_key: false,
    }));
    assert!(sent(&out).iter().all(|r| r.idempotency_key.is_none()));
}
