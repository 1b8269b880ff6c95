//! Record and replay (`idem_lesson::recording`, issue 43 item 4), fuzzed: a random session on
//! a random story (steps, faults, drops, Retry, protections, "Surprise me", a prediction, play
//! and pause), recorded as the page records it (each pair of observations through
//! `stream::diff`), written as text, read back and replayed, ends on the same step, faults and
//! verdict; any text at all is refused whole or replays, never panics.
//!
//! `RECORDING_FUZZ_CASES` sets the number of sessions (default 48: each replays whole runs).

use idem_core::{Action, Phase, Protection, Scenario};
use idem_lesson::playback::Run;
use idem_lesson::recording::{Entry, Recording, RecordingError};
use idem_lesson::stream::{diff, Seen};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

fn cases() -> u32 {
    std::env::var("RECORDING_FUZZ_CASES")
        .ok()
        .map(|v| v.parse().expect("RECORDING_FUZZ_CASES is a number"))
        .unwrap_or(48)
}

fn runner() -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases: cases(),
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    )
}

/// One thing a student does.
#[derive(Clone, Debug)]
enum Op {
    Forward,
    Back,
    End,
    Restart,
    Fault(u8),
    Protection(usize),
    Surprise(u32),
    Guess,
    Play,
    Pause,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => Just(Op::Forward),
        1 => Just(Op::Back),
        1 => Just(Op::End),
        1 => Just(Op::Restart),
        3 => (0u8..6).prop_map(Op::Fault),
        1 => (0..Protection::ALL.len()).prop_map(Op::Protection),
        1 => any::<u32>().prop_map(Op::Surprise),
        1 => Just(Op::Guess),
        1 => Just(Op::Play),
        1 => Just(Op::Pause),
    ]
}

fn fault(n: u8, run: &Run) -> Action {
    let packet = run
        .world()
        .network()
        .in_flight()
        .find(|m| m.is_faultable())
        .map(|m| m.id);
    match (n, packet) {
        (0, Some(id)) => Action::Drop(id),
        (1, Some(id)) => Action::Duplicate(id),
        (2, _) => Action::RetryNow,
        (3, _) => Action::EvictKeys,
        (4, _) => Action::Crash(Phase::WriteLedger),
        _ => Action::LoseNextAck,
    }
}

/// Plays `ops` on `id`, recording as the page does; returns the run and the recording's text.
fn session(id: &str, ops: &[(u16, Op)]) -> (Run, String) {
    let mut run = Run::new(Scenario::by_id(id).expect("scenario"));
    let mut playing = false;
    let mut guess = None;
    let observe = |run: &Run, playing: bool, guess: &Option<String>| {
        Seen::of(run, playing, false, guess.clone())
    };
    let mut before = observe(&run, playing, &guess);
    let mut recording = Recording::starting(&before);
    for (ms, op) in ops {
        match op {
            Op::Forward => {
                playing = false;
                run.step_visible();
            }
            Op::Back => {
                playing = false;
                run.back_visible();
            }
            Op::End => {
                playing = false;
                run.run_to_end();
            }
            Op::Restart => {
                playing = false;
                run.restart();
            }
            Op::Fault(n) => {
                let action = fault(*n, &run);
                let _ = run.apply(action);
            }
            Op::Protection(i) => {
                playing = false;
                let mut p = run.scenario().protections;
                p.toggle(Protection::ALL[*i]);
                run = run.with_protections(p);
            }
            Op::Surprise(seed) => {
                playing = false;
                run = Run::from_link(&run.chaos_link(*seed)).expect("a chaos run");
            }
            Op::Guess => guess = Some("twice".to_owned()),
            Op::Play => playing = true,
            Op::Pause => playing = false,
        }
        let after = observe(&run, playing, &guess);
        recording.note(u64::from(*ms), &diff(&before, &after), &after);
        before = after;
    }
    let text = recording.text(run.cursor());
    (run, text)
}

#[test]
fn random_sessions_replay_to_the_same_step_faults_and_verdict() {
    let ids = Scenario::IDS.to_vec();
    let strategy = (
        proptest::sample::select(ids),
        proptest::collection::vec((0u16..5_000, op()), 0..14),
    );
    runner()
        .run(&strategy, |(id, ops)| {
            let (run, text) = session(id, &ops);
            let frames = Recording::parse(&text)
                .and_then(|r| r.replay())
                .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            let last = frames.last().expect("at least the start");
            prop_assert_eq!(last.run.link(), run.link(), "{}", text);
            prop_assert_eq!(last.run.cursor(), run.cursor());
            prop_assert_eq!(last.run.world().verdict(), run.world().verdict());
            prop_assert!(!last.playing, "a replay ends paused");
            let total: u64 = ops.iter().map(|(ms, _)| u64::from(*ms)).sum();
            prop_assert!(last.at_ms <= total);
            Ok(())
        })
        .expect("every session replays exactly");
}

#[test]
fn any_text_is_refused_whole_or_replays_without_panicking() {
    let (_, valid) = session(
        "key",
        &[(10, Op::Forward), (20, Op::Fault(3)), (5, Op::End)],
    );
    let mutated = (0..valid.len(), "[ -~]{0,3}").prop_map(move |(at, insert)| {
        let at = (0..=at)
            .rev()
            .find(|i| valid.is_char_boundary(*i))
            .unwrap_or(0);
        format!("{}{insert}{}", &valid[..at], &valid[at..])
    });
    let strategy = prop_oneof![
        1 => "\\PC{0,80}",
        1 => "R1\\*[0-9a-z.~,*%-]{0,80}",
        3 => mutated,
    ];
    runner()
        .run(&strategy, |text| {
            if let Ok(recording) = Recording::parse(&text) {
                match recording.replay() {
                    Ok(frames) => prop_assert!(!frames.is_empty()),
                    Err(e) => {
                        let expected = matches!(
                            e,
                            RecordingError::DoesNotReplay { .. } | RecordingError::NoStart
                        );
                        prop_assert!(expected, "{}", e);
                    }
                }
            }
            Ok(())
        })
        .expect("no text panics");
}

#[test]
fn the_text_reads_back_as_written() {
    let (run, text) = session(
        "cas",
        &[
            (0, Op::Guess),
            (300, Op::Play),
            (900, Op::Pause),
            (50, Op::Fault(2)),
            (70, Op::Protection(0)),
            (10, Op::End),
        ],
    );
    let recording = Recording::parse(&text).expect("reads");
    assert_eq!(
        recording.text(run.cursor()),
        format!("{text}*0e{}", run.cursor()),
        "written again, with a second end"
    );
    assert!(matches!(
        recording.entries.last(),
        Some((0, Entry::End(n))) if *n == run.cursor()
    ));
    assert!(recording
        .entries
        .iter()
        .any(|(_, e)| matches!(e, Entry::Guess(g) if g == "twice")));
}
