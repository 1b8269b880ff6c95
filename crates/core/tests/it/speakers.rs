//! Who is speaking (issue 42, item 1): every note of a step and every message attributed to
//! its request (attempt and how it was sent) and side, computed from the run on demand.

use crate::support::scenario;
use idem_core::{Note, Party, Role, Scenario, Sent, Speaker, Step, World};

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
