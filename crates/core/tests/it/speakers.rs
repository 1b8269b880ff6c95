//! Who is speaking (issue 42, item 1): every note of a step and every message attributed to
//! its request (attempt and how it was sent) and side, computed from the run on demand.

use crate::support::scenario;
use idem_core::{Note, Party, RequestAttempt, Role, Scenario, Sent, Speaker, Step, World};

/// Each step of scenario `id` run to its end, with the world right after it.
fn steps(id: &str) -> Vec<(Step, World)> {
    let mut world = World::new(&scenario(id));
    let mut out = Vec::new();
    while let Some(step) = world.step().cloned() {
        out.push((step, world.clone()));
    }
    out
}

/// The attempt numbers of `parties` (the recovery job as 0).
fn numbers(parties: &[Party]) -> Vec<u32> {
    parties
        .iter()
        .map(|p| match p {
            Party::Attempt(a) => a.number,
            Party::Recovery => 0,
        })
        .collect()
}

#[test]
fn every_note_has_one_speaker_slot_in_every_scenario() {
    for s in Scenario::all() {
        for (step, world) in steps(&s.id) {
            assert_eq!(
                step.speakers(&world).len(),
                step.notes.len(),
                "{} {}",
                s.id,
                step.index
            );
        }
    }
}

#[test]
fn story_one_s_attempts_never_overlap() {
    for id in ["naive", "key", "cas", "counter-naive", "counter"] {
        for (step, world) in steps(id) {
            let alive = step.alive(&world);
            assert!(alive.len() < 2, "{id} step {}: {alive:?}", step.index);
        }
    }
}

#[test]
fn the_lease_runs_have_two_attempts_alive() {
    for id in ["lease-expiry", "lease-fencing"] {
        let most = steps(id)
            .iter()
            .map(|(step, world)| numbers(&step.alive(world)))
            .max_by_key(Vec::len)
            .expect("steps");
        assert!(most.len() >= 2, "{id}: {most:?}");
        assert!(most.contains(&1), "{id}: {most:?}");
    }
}

#[test]
fn the_stalled_handler_speaks_as_stalled_and_the_retry_s_as_a_retry() {
    let all = steps("lease-expiry");
    let (step, world) = all.last().expect("steps");
    let _ = step;
    let said: Vec<Speaker> = all
        .iter()
        .flat_map(|(step, _)| step.speakers(world))
        .flatten()
        .collect();
    let stalled = said
        .iter()
        .find(|s| s.role == Role::Stalled)
        .expect("the paused handler speaks again");
    assert!(matches!(stalled.party, Party::Attempt(a) if a.number == 1 && a.sent == Sent::First));
    assert!(
        said.iter().any(|s| s.role == Role::Handler
            && matches!(s.party, Party::Attempt(a) if a.sent == Sent::Retry)),
        "{said:?}"
    );
}

#[test]
fn a_double_tap_is_a_second_request_not_a_retry() {
    let all = steps("concurrent");
    let (_, world) = all.last().expect("steps");
    let parties: Vec<Party> = all
        .iter()
        .flat_map(|(step, _)| step.speakers(world))
        .flatten()
        .map(|s| s.party)
        .collect();
    assert!(
        parties
            .iter()
            .any(|p| matches!(p, Party::Attempt(a) if a.sent == Sent::Second)),
        "{parties:?}"
    );
    assert!(
        parties
            .iter()
            .all(|p| !matches!(p, Party::Attempt(a) if a.sent == Sent::Retry)),
        "{parties:?}"
    );
    assert!(all.iter().any(|(step, world)| step.alive(world).len() >= 2));
}

#[test]
fn the_phone_s_notes_name_the_attempt_they_are_about() {
    for (step, world) in steps("naive") {
        for (note, speaker) in step.notes.iter().zip(step.speakers(&world)) {
            let number = match note {
                Note::ClientSends { attempt, .. } | Note::ClientTimedOut { attempt, .. } => {
                    *attempt
                }
                _ => continue,
            };
            let speaker = speaker.expect("the phone speaks");
            assert_eq!(speaker.role, Role::Phone, "{note:?}");
            assert!(
                matches!(speaker.party, Party::Attempt(a) if a.number == number),
                "{note:?} {speaker:?}"
            );
        }
    }
}

#[test]
fn a_message_belongs_to_the_request_it_carries_answers_or_serves() {
    let all = steps("lease-expiry");
    let (_, world) = all.last().expect("steps");
    for m in world.network().messages() {
        let speaker = world.speaker_of(m.id).expect("every message has a party");
        let Party::Attempt(a) = speaker.party else {
            panic!("no recovery in this run: {m:?}");
        };
        match &m.payload {
            idem_core::message::Payload::Request(r) => {
                assert_eq!((a.request, a.number), (m.id, r.attempt));
                assert_eq!(speaker.role, Role::Phone);
            }
            idem_core::message::Payload::Response(r) => assert_eq!(a.request, r.in_reply_to),
            _ => assert_ne!(speaker.role, Role::Phone, "{m:?}"),
        }
    }
}

#[test]
fn an_armed_fault_or_an_expiry_belongs_to_no_request() {
    for s in Scenario::all() {
        for (step, world) in steps(&s.id) {
            for (note, speaker) in step.notes.iter().zip(step.speakers(&world)) {
                if matches!(
                    note,
                    Note::CrashArmed { .. }
                        | Note::PauseArmed { .. }
                        | Note::NextAckWillBeLost
                        | Note::ClaimsExpired { .. }
                        | Note::KeysExpired { .. }
                ) {
                    assert_eq!(speaker, None, "{} {note:?}", s.id);
                }
            }
        }
    }
}

#[test]
fn the_network_s_copy_is_the_attempt_it_copies_with_its_number() {
    let mut world = World::new(&scenario("key"));
    while world.network().in_flight().next().is_none() {
        world.step().expect("a request goes out");
    }
    let first = world.network().in_flight().next().expect("in flight").id;
    world
        .apply(idem_core::Action::Duplicate(first))
        .expect("the network copies it");
    while world.step().is_some() {}
    let copy = world
        .network()
        .messages()
        .iter()
        .find(|m| m.duplicate_of == Some(first))
        .expect("the copy");
    let Some(Speaker {
        party: Party::Attempt(a),
        ..
    }) = world.speaker_of(copy.id)
    else {
        panic!("the copy belongs to an attempt");
    };
    assert_eq!((a.sent, a.number, a.request), (Sent::Copy, 1, copy.id));
    // Its handler's messages and its answer are the copy's too, numbered 1.
    let of_copy = world
        .network()
        .messages()
        .iter()
        .filter(|m| matches!(world.speaker_of(m.id), Some(s) if s.party == Party::Attempt(a)))
        .count();
    assert!(of_copy >= 3, "{of_copy}");
}

/// Scenario `id`'s steps, each with the world right after it, where the user presses Retry
/// as soon as the first request is on the wire (an early Retry, before any answer).
fn steps_with_early_retry(id: &str) -> Vec<(Step, World)> {
    let mut world = World::new(&scenario(id));
    let mut out = Vec::new();
    while world.network().in_flight().next().is_none() {
        let step = world.step().cloned().expect("a request goes out");
        out.push((step, world.clone()));
    }
    world
        .apply(idem_core::Action::RetryNow)
        .expect("an early Retry");
    out.push((
        world.steps().last().expect("the press").clone(),
        world.clone(),
    ));
    while let Some(step) = world.step().cloned() {
        out.push((step, world.clone()));
    }
    out
}

/// The runs issue 42's last review read (stop 53): the lease runs, story 2 with an early
/// Retry, and the double tap without a lock.
fn reviewed_runs() -> Vec<(&'static str, Vec<(Step, World)>)> {
    vec![
        ("lease-fencing", steps("lease-fencing")),
        ("lease-expiry", steps("lease-expiry")),
        ("key+early-retry", steps_with_early_retry("key")),
        ("concurrent-no-lock", steps("concurrent-no-lock")),
    ]
}

/// Each response line of a run, as `step kind attempt`: the API answering, the phone taking
/// an answer, and the phone's reaction to it (its back-off after a 409).
fn response_lines(all: &[(Step, World)]) -> Vec<String> {
    let mut out = Vec::new();
    for (step, world) in all {
        for (note, speaker) in step.notes.iter().zip(step.speakers(world)) {
            let kind = match note {
                Note::ApiResponds { .. } => "ApiResponds",
                Note::ClientGotAnswer { .. } => "ClientGotAnswer",
                Note::ClientIgnoredLateAnswer { .. } => "ClientIgnoredLateAnswer",
                Note::ClientToldToWait { .. } => "ClientToldToWait",
                Note::ClientGotForeignAnswer { .. } => "ClientGotForeignAnswer",
                Note::ClientBacksOff { .. } => "ClientBacksOff",
                _ => continue,
            };
            let number = numbers(&[speaker.expect("a response line has a speaker").party]);
            out.push(format!("{} {kind} {}", step.index, number[0]));
        }
    }
    out
}

/// Issue 42, item 1 (stop 53's review): the phone's reaction to an answer was labelled with
/// the phone's latest attempt ("attempt 3" for attempt 1's 409 in `lease-fencing`); an HTTP
/// response answers exactly one request, and every line about it names that request's
/// attempt. Pinned for every step of the four runs the review read.
#[test]
fn each_response_line_names_the_attempt_whose_request_it_answers() {
    let expected: [(&str, &[&str]); 4] = [
        (
            "lease-fencing",
            &[
                "5 ClientBacksOff 1",
                "9 ApiResponds 2",
                "10 ClientToldToWait 2",
                "10 ClientBacksOff 2",
                "22 ApiResponds 1",
                "23 ApiResponds 3",
                "24 ClientToldToWait 1",
                "24 ClientBacksOff 1",
                "25 ClientGotAnswer 3",
            ],
        ),
        (
            "lease-expiry",
            &[
                "5 ClientBacksOff 1",
                "11 ApiResponds 2",
                "12 ClientToldToWait 2",
                "12 ClientBacksOff 2",
                "25 ApiResponds 3",
                "28 ClientGotAnswer 3",
                "30 ApiResponds 1",
                "31 ClientIgnoredLateAnswer 1",
            ],
        ),
        (
            "key+early-retry",
            &[
                "11 ApiResponds 2",
                "17 ApiResponds 1",
                "18 ClientGotAnswer 1",
            ],
        ),
        (
            "concurrent-no-lock",
            &[
                "18 ApiResponds 1",
                "19 ApiResponds 2",
                "20 ClientGotAnswer 1",
                "21 ClientIgnoredLateAnswer 2",
            ],
        ),
    ];
    for ((id, all), (expected_id, lines)) in reviewed_runs().iter().zip(expected) {
        assert_eq!(*id, expected_id);
        assert_eq!(response_lines(all), lines, "{id}");
    }
}

/// The same rule in every scenario (and with an early Retry): a step that delivers an HTTP
/// response to the phone says each of its phone's lines for the request that response answers.
#[test]
fn in_every_run_the_phone_s_lines_on_an_answer_are_that_request_s() {
    let mut answers = 0;
    let early = ["key", "lease-expiry", "concurrent"].map(steps_with_early_retry);
    let all = Scenario::all();
    let runs = all.iter().map(|s| steps(&s.id)).chain(early);
    for run in runs {
        for (step, world) in run {
            let idem_core::Cause::Deliver(id) = step.cause else {
                continue;
            };
            let Some(m) = world.network().get(id) else {
                continue;
            };
            let idem_core::message::Payload::Response(r) = &m.payload else {
                continue;
            };
            for (note, speaker) in step.notes.iter().zip(step.speakers(&world)) {
                let Some(Speaker {
                    party: Party::Attempt(a),
                    role: Role::Phone,
                }) = speaker
                else {
                    continue;
                };
                answers += 1;
                assert_eq!(a.request, r.in_reply_to, "step {}: {note:?}", step.index);
            }
        }
    }
    assert!(answers > 40, "{answers} lines on an answer");
}

/// The phone gets an answer late when it answers an earlier attempt than the retry the phone
/// sent since; the narration says so ("attempt 1's answer, after it sent attempt 3"), and
/// names the handler that sends it ("The stalled handler (attempt 1) answers 201 Created").
#[test]
fn a_late_answer_names_both_attempts() {
    // Per run: (step, attempt answered, the phone's latest retry) for each late answer.
    type Late = Vec<(u32, u32, u32)>;
    let late: Vec<(&str, Late, Late)> = reviewed_runs()
        .into_iter()
        .map(|(id, all)| {
            let late_by = |late: fn(&Step, &World) -> Option<(RequestAttempt, RequestAttempt)>| {
                all.iter()
                    .filter_map(|(step, world)| {
                        let (answered, latest) = late(step, world)?;
                        Some((step.index, answered.number, latest.number))
                    })
                    .collect()
            };
            (
                id,
                late_by(Step::answered_late),
                late_by(Step::replies_late),
            )
        })
        .collect();
    assert_eq!(
        late,
        [
            // (the phone gets it, the handler sends it)
            ("lease-fencing", vec![(24, 1, 3)], vec![(22, 1, 3)]),
            ("lease-expiry", vec![(31, 1, 3)], vec![(30, 1, 3)]),
            ("key+early-retry", vec![(18, 1, 2)], vec![(17, 1, 2)]),
            // A double tap's second request is no retry: the first still waits.
            ("concurrent-no-lock", vec![], vec![]),
        ]
    );
}
