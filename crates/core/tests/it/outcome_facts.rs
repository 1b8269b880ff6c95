//! The facts `Outcome::of` gives the page's closing sentences, read directly: the figures of
//! each story kind, the faults that took effect (an eviction or expiry of nothing is none), a
//! Retry pressed, and a success that shows the payment asked for.

use idem_core::SimTime;
use idem_core::{Action, Ending, Fault, Figures, Outcome, Scenario, World};

fn end(id: &str) -> World {
    let mut world = World::new(&Scenario::by_id(id).expect("scenario"));
    world.run(5_000);
    world
}

#[test]
fn each_story_kind_has_its_figures() {
    assert_eq!(
        Outcome::of(&end("cas")).figures,
        Figures::Balance {
            from: 100,
            to: 80,
            version: 6
        }
    );
    assert_eq!(
        Outcome::of(&end("counter")).figures,
        Figures::Likes { from: 100, to: 101 }
    );
    assert_eq!(
        Outcome::of(&end("counter-naive")).figures,
        Figures::Likes { from: 100, to: 102 }
    );
    match Outcome::of(&end("naive")).figures {
        Figures::Charges {
            per_user,
            ledger_rows,
            ledger_cents,
        } => {
            assert_eq!(per_user.len(), 1);
            assert_eq!((per_user[0].1, per_user[0].2), (2, 20_000));
            assert_eq!((ledger_rows, ledger_cents), (2, 20_000));
        }
        other => panic!("naive: {other:?}"),
    }
}

#[test]
fn an_eviction_counts_only_when_it_evicted_something() {
    let key = Scenario::by_id("key")
        .expect("key")
        .without_scripted_faults();
    // Before anything is stored: nothing evicted, no fault.
    let mut world = World::new(&key);
    world.apply(Action::EvictKeys).expect("applies");
    world.run(5_000);
    assert!(!Outcome::of(&world).faults.contains(&Fault::Evicted));
    // Once the key is stored: evicted.
    let mut world = World::new(&key);
    while world.store().entries().next().is_none() {
        world.step().expect("the key gets stored");
    }
    world.apply(Action::EvictKeys).expect("applies");
    world.run(5_000);
    assert!(Outcome::of(&world).faults.contains(&Fault::Evicted));
}

#[test]
fn expiry_and_a_retry_pressed_are_faults_of_the_run() {
    // The ttl story: the phone is away past the key's TTL, so the key expires.
    let ttl = Outcome::of(&end("ttl"));
    assert!(ttl.faults.contains(&Fault::Expired), "{:?}", ttl.faults);
    assert!(ttl.faults.contains(&Fault::Offline), "{:?}", ttl.faults);
    // A story without keys expires none.
    assert!(!Outcome::of(&end("naive")).faults.contains(&Fault::Expired));
    // Retry pressed while the payment is open.
    let key = Scenario::by_id("key")
        .expect("key")
        .without_scripted_faults();
    let mut world = World::new(&key);
    world.step().expect("starts");
    world.apply(Action::RetryNow).expect("an open operation");
    world.run(5_000);
    let outcome = Outcome::of(&world);
    assert_eq!(outcome.faults, vec![Fault::RetryPressed]);
    // Offline a day, as the clock fault does.
    let mut world = World::new(&key);
    world.step().expect("starts");
    world
        .apply(Action::AdvanceClock(25 * SimTime::HOUR))
        .expect("applies");
    world.run(5_000);
    assert!(Outcome::of(&world).faults.contains(&Fault::Offline));
}

#[test]
fn a_success_shows_the_payment_asked_for_unless_it_is_someone_elses() {
    for op in Outcome::of(&end("key")).ops {
        assert!(
            matches!(op.ending, Ending::Success { foreign: false, .. }),
            "{op:?}"
        );
    }
    // Another user with the same key, without scoping: shown someone else's payment.
    let leak = Outcome::of(&end("scope-off"));
    assert!(
        leak.ops
            .iter()
            .any(|o| matches!(o.ending, Ending::Success { foreign: true, .. })),
        "{:?}",
        leak.ops
    );
}

/// The key design's run with `fault` applied once its first request is on the wire.
fn with_fault(fault: impl Fn(&World) -> Action) -> Outcome {
    let key = Scenario::by_id("key")
        .expect("key")
        .without_scripted_faults();
    let mut world = World::new(&key);
    while world.network().in_flight().next().is_none() {
        world.step().expect("the payment starts");
    }
    let action = fault(&world);
    world.apply(action).expect("applies");
    world.run(5_000);
    Outcome::of(&world)
}

/// How a case of the test below picks its action from the world.
type Pick = Box<dyn Fn(&World) -> Action>;

#[test]
fn every_fault_the_player_offers_is_a_fact_of_the_run() {
    let first = |w: &World| w.network().in_flight().next().expect("in flight").id;
    let cases: [(Pick, Fault); 6] = [
        (Box::new(move |w| Action::Drop(first(w))), Fault::Dropped),
        (
            Box::new(move |w| Action::Duplicate(first(w))),
            Fault::Duplicated,
        ),
        (
            Box::new(move |w| Action::Delay(first(w), 1_000)),
            Fault::Delayed,
        ),
        (
            Box::new(|_| Action::ConcurrentDuplicate),
            Fault::SecondRequest,
        ),
        (Box::new(|_| Action::ReuseKeyOtherBody), Fault::KeyReused),
        (Box::new(|_| Action::OtherUserSameKey), Fault::OtherUser),
    ];
    for (fault, expected) in cases {
        let outcome = with_fault(fault);
        assert_eq!(outcome.faults, vec![expected], "{expected:?}");
    }
    // A lost answer and a crash, armed before the API acts.
    let lost = with_fault(|_| Action::LoseNextAck);
    assert!(
        lost.faults.contains(&Fault::AnswerLost),
        "{:?}",
        lost.faults
    );
    let phase = idem_core::Explorer::phases(&Scenario::by_id("key").expect("key"))[0];
    let crashed = with_fault(|_| Action::Crash(phase));
    assert!(
        crashed.faults.contains(&Fault::Crashed(phase)),
        "{:?}",
        crashed.faults
    );
}
