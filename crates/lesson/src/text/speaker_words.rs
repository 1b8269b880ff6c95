//! Issue 42, the words a first-time student still tripped on under a speaker's name (stop 52's
//! review): a subject said twice, a backend's line under a handler's name, an answer given to
//! an attempt that never got it, a statement count with no new idea, two operations' first
//! attempts with one name. Each test walks every stop of the runs, in both languages.

use idem_core::{Note, Scenario, World};

use super::speaker::{arrow_badge, speaker_name_in, spoken, Said};
use crate::i18n::{Catalog, Lang};
use crate::playback::Run;

/// Every stop's spoken lines (with their speakers) of scenario `id`, run to its end.
fn said(id: &str, catalog: &Catalog) -> Vec<Said> {
    let mut run = Run::new(Scenario::by_id(id).expect("scenario"));
    run.run_to_end();
    let stops = run.stops();
    (1..=run.known_steps())
        .filter(|c| stops.is_stop(*c))
        .filter_map(|c| spoken(&run.snapshot(c).expect("known"), catalog))
        .flatten()
        .collect()
}

fn every_said(lang: Lang) -> Vec<(String, Said)> {
    Scenario::all()
        .iter()
        .flat_map(|s| {
            said(&s.id, lang.catalog())
                .into_iter()
                .map(|x| (s.id.to_string(), x))
        })
        .collect()
}

/// Item 1: "The stalled handler (attempt 1): The stalled handler …", "The phone (attempt 2):
/// The phone sends": the speaker's name takes the subject's place, in every scenario, at
/// every step, in both languages; and Russian calls the stalled handler by one word.
#[test]
fn no_line_repeats_its_speaker_s_subject() {
    for lang in Lang::ALL {
        let c = lang.catalog();
        let subjects = c.text("speaker.subjects");
        let mut merged = 0;
        for (id, s) in every_said(lang) {
            let text = s.text(c);
            let Some(who) = &s.who else { continue };
            for subject in subjects.split('|') {
                assert!(
                    !text.starts_with(&format!("{who}: {subject} ")),
                    "{id} {lang:?}: {text}"
                );
            }
            merged += usize::from(s.own && !text.starts_with(&format!("{who}:")));
        }
        assert!(
            merged > 20,
            "{lang:?}: {merged} lines say their speaker once"
        );
    }
    let ru = crate::i18n::check::all_entries(Lang::Ru);
    assert!(ru.iter().all(|(_, text)| !text.contains("Замерш")));
    let said = said("lease-expiry", Lang::En.catalog());
    let texts: Vec<String> = said.iter().map(|s| s.text(Lang::En.catalog())).collect();
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("The stalled handler (attempt 1) carries on with")),
        "{texts:#?}"
    );
}

/// Item 2: a line Redis, PostgreSQL or the card processor says is said for a handler
/// ("For the retry's handler (attempt 2): Redis returns …"), never under the handler's name.
#[test]
fn a_backend_s_line_never_carries_a_handler_s_name() {
    for (lang, nodes, for_) in [
        (
            Lang::En,
            &["Redis ", "PostgreSQL ", "The card processor "][..],
            "For ",
        ),
        (
            Lang::Ru,
            &["Redis ", "PostgreSQL ", "Платёжный шлюз "][..],
            "Для ",
        ),
    ] {
        let c = lang.catalog();
        let mut backend = 0;
        for (id, s) in every_said(lang) {
            let Some(who) = &s.who else { continue };
            let by_node = s
                .lines
                .iter()
                .any(|l| nodes.iter().any(|n| l.starts_with(n)));
            assert_eq!(
                by_node,
                who.starts_with(for_),
                "{id} {lang:?}: {}",
                s.text(c)
            );
            backend += usize::from(by_node);
        }
        assert!(backend > 10, "{lang:?}: {backend}");
    }
}

/// Item 3, as stop 53's review corrected it: an HTTP response answers exactly one request, so
/// the phone's reaction to it names that request's attempt, even when the phone has sent a
/// later one since. In `lease-fencing` the stalled handler's 409 to attempt 1 reached a phone
/// that had sent attempt 3, and was told as "The phone (attempt 3)"; it is attempt 1's, and the
/// words say it came after attempt 3 ("Attempt 1's answer arrives after the phone already sent
/// attempt 3."), in both languages. Every answer the phone takes in the four runs the review
/// read, pinned (core step number, speaker, and whether it came late).
#[test]
fn every_answer_names_the_attempt_whose_request_it_answers() {
    // Each answer the phone takes: (core step, the phone's name, the retry it had sent since).
    type Answers<'a> = &'a [(usize, &'a str, Option<u32>)];
    let runs: [(&str, Run, Answers); 4] = [
        (
            "lease-fencing",
            run_to_end("lease-fencing"),
            &[
                (11, "The phone (attempt 2)", None),
                (25, "The phone (attempt 1)", Some(3)),
                (26, "The phone (attempt 3)", None),
            ],
        ),
        (
            "lease-expiry",
            run_to_end("lease-expiry"),
            &[
                (13, "The phone (attempt 2)", None),
                (29, "The phone (attempt 3)", None),
                (32, "The phone (attempt 1)", Some(3)),
            ],
        ),
        (
            "key+early-retry",
            early_retry("key"),
            &[(19, "The phone (attempt 1)", Some(2))],
        ),
        (
            "concurrent-no-lock",
            run_to_end("concurrent-no-lock"),
            &[
                (21, "The phone (attempt 1)", None),
                (22, "The phone (second request, attempt 2)", None),
            ],
        ),
    ];
    for (id, run, want) in runs {
        let world: &World = run.end();
        let mut got = Vec::new();
        for (i, step) in world.steps().iter().enumerate() {
            for (note, speaker) in step.notes.iter().zip(step.speakers(world)) {
                if matches!(
                    note,
                    Note::ClientGotAnswer { .. }
                        | Note::ClientToldToWait { .. }
                        | Note::ClientIgnoredLateAnswer { .. }
                        | Note::ClientGotForeignAnswer { .. }
                ) {
                    let c = Lang::En.catalog();
                    let name = speaker_name_in(speaker.expect("the phone's"), world, c);
                    let late = step.answered_late(world).map(|(_, latest)| latest.number);
                    got.push((i + 1, name, late));
                }
            }
        }
        let want: Vec<(usize, String, Option<u32>)> = want
            .iter()
            .map(|(i, n, late)| (*i, n.to_string(), *late))
            .collect();
        assert_eq!(got, want, "{id}");
        // The words at each of those steps: the answered attempt's name leads the phone's
        // lines, and a late answer says which attempt the phone had sent since.
        for lang in Lang::ALL {
            let c = lang.catalog();
            for (i, _, late) in &got {
                let shown = run.snapshot(*i).expect("known");
                let step = shown.steps().last().expect("a step");
                let speaker = step
                    .speakers(&shown)
                    .into_iter()
                    .flatten()
                    .find(|s| s.role == idem_core::Role::Phone)
                    .expect("the phone speaks");
                let name = speaker_name_in(speaker, &shown, c);
                let text = spoken(&shown, c)
                    .expect("an answer in a run of two requests is named")
                    .iter()
                    .map(|s| s.text(c))
                    .collect::<Vec<_>>()
                    .join(" ");
                assert!(text.contains(&name), "{id} {i} {lang:?}: {text}");
                let idem_core::Party::Attempt(answered) = speaker.party else {
                    panic!("{id} {i}: the phone answers an attempt");
                };
                let lead = late.map(|latest| {
                    c.fill(
                        "speaker.late_answer",
                        &[
                            ("n", answered.number.to_string()),
                            ("latest", latest.to_string()),
                        ],
                    )
                });
                match lead {
                    Some(lead) => assert!(text.contains(&lead), "{id} {i} {lang:?}: {text}"),
                    None => {
                        let stem = c.text("speaker.late_answer");
                        let stem = stem.split('{').next().unwrap_or_default();
                        assert!(!text.contains(stem), "{id} {i} {lang:?}: {text}");
                    }
                }
            }
        }
    }
}

/// A handler's answer to an earlier attempt than the phone's latest retry names that attempt
/// even when the phone is done and one request is alive (stop 53's review: `lease-expiry`'s
/// stalled handler's late 201 was "The API answers 201 Created"), in both languages.
#[test]
fn a_late_reply_names_the_handler_that_sends_it() {
    for (run, step, en, ru) in [
        (
            run_to_end("lease-expiry"),
            31,
            "The stalled handler (attempt 1) answers 201 Created.",
            "Зависший обработчик (попытка 1)",
        ),
        (
            early_retry("key"),
            18,
            "The handler of attempt 1 answers 201 Created.",
            "Обработчик попытки 1",
        ),
    ] {
        let world = run.snapshot(step).expect("known");
        for (lang, want) in [(Lang::En, en), (Lang::Ru, ru)] {
            let c = lang.catalog();
            let text = super::speaker::spoken_text(&world, c).expect("named");
            assert!(text.starts_with(want), "{step} {lang:?}: {text}");
        }
    }
}

/// Scenario `id` run to its end.
fn run_to_end(id: &str) -> Run {
    let mut run = Run::new(Scenario::by_id(id).expect("scenario"));
    run.run_to_end();
    run
}

/// Scenario `id` with the user pressing Retry as soon as the first request is on the wire
/// (before any answer came back), run to its end.
fn early_retry(id: &str) -> Run {
    let mut run = Run::new(Scenario::by_id(id).expect("scenario"));
    while run.world().network().in_flight().next().is_none() {
        assert!(run.step_forward(), "{id}: no request goes out");
    }
    run.apply(idem_core::Action::RetryNow)
        .expect("an early Retry");
    run.run_to_end();
    run
}

/// Item 4, and stop 54 (#42 item 2): "PostgreSQL runs this step's SQL: 1 statement" and "PostgreSQL
/// runs INSERT INTO charges (1 row added)" were lines with no new idea, standing between two
/// handlers' steps (the early Retry, the lease runs, `cas-race`'s UPDATE and SELECT): a ledger's
/// answer now folds into the step before it wherever it answers no claim, so no speaker says
/// it; its SQL, with the version the UPDATE expects, stays one tap away.
#[test]
fn a_sql_answer_between_two_handlers_folds() {
    for lang in Lang::ALL {
        let c = lang.catalog();
        let count = c.fill("ledger.ran_plain", &[("n", "1".to_owned())]);
        let count = count.split(':').next().unwrap_or_default().to_owned();
        let all: Vec<String> = every_said(lang).iter().map(|(_, s)| s.text(c)).collect();
        assert!(all.iter().all(|t| !t.contains(&count)), "{lang:?}");
        let rows = |key: &str, statement: &str, n: u64| {
            c.fill(
                key,
                &[("statement", statement.to_owned()), ("n", n.to_string())],
            )
        };
        let inserted = rows("speaker.sql_added", "INSERT INTO charges", 1);
        assert!(all.iter().all(|t| !t.contains(&inserted)), "{lang:?}");
        let race = said("cas-race", c);
        let lost = rows(
            "speaker.sql_changed",
            "UPDATE accounts … WHERE version = 5",
            0,
        );
        assert!(race.iter().all(|s| !s.text(c).contains(&lost)), "{lang:?}");
        // The UPDATE that lost is still one tap away, in the step it folded into.
        let mut run = Run::new(Scenario::by_id("cas-race").expect("cas-race"));
        let mut detail = Vec::new();
        while run.step_visible() {
            detail.extend(crate::stage::summary::narration_parts(run.world(), c).1);
        }
        let detail = detail.join(" ");
        assert_eq!(detail.matches("UPDATE accounts").count(), 2, "{detail}");
        assert!(!detail.contains("$expected"), "{detail}");
    }
}

/// Item 13: `cas-race`'s two debits are each on their attempt 1; while both are alive their
/// lines and their arrows' names say which operation.
#[test]
fn two_operations_first_attempts_are_told_apart() {
    for (lang, one, two) in [
        (Lang::En, "operation #1", "operation #2"),
        (Lang::Ru, "операция №1", "операция №2"),
    ] {
        let c = lang.catalog();
        let whos: Vec<String> = said("cas-race", c)
            .into_iter()
            .filter_map(|s| s.who)
            .collect();
        let stem = |w: &str| w.replace("операции", "операция");
        assert!(whos.iter().any(|w| stem(w).contains(one)), "{whos:?}");
        assert!(whos.iter().any(|w| stem(w).contains(two)), "{whos:?}");
        assert!(
            whos.iter()
                .all(|w| stem(w).contains(one) || stem(w).contains(two)),
            "{whos:?}"
        );
        let mut run = Run::new(Scenario::by_id("cas-race").expect("cas-race"));
        run.run_to_end();
        let world = run.end();
        let names: Vec<String> = (0..world.network().messages().len())
            .filter_map(|row| arrow_badge(world, row, c))
            .map(|(_, name)| name)
            .collect();
        assert!(names.iter().any(|n| n.starts_with(one)), "{names:?}");
        assert!(names.iter().any(|n| n.starts_with(two)), "{names:?}");
    }
}
