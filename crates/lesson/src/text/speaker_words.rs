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

/// Item 3: the phone takes an answer for the request it waits on. In `lease-fencing` the
/// stalled handler's 409 to attempt 1 reaches a phone that gave attempt 1 up long before and
/// waits on attempt 3: "The phone (attempt 3)", never "(attempt 1)". Every answer the phone
/// takes in both lease runs, pinned (core step number, speaker).
#[test]
fn every_answer_in_the_lease_runs_is_the_waiting_attempt_s() {
    let c = Lang::En.catalog();
    for (id, want) in [
        (
            "lease-fencing",
            &[
                (11, "The phone (attempt 2)"),
                (25, "The phone (attempt 3)"),
                (26, "The phone (attempt 3)"),
            ][..],
        ),
        (
            "lease-expiry",
            &[
                (13, "The phone (attempt 2)"),
                (29, "The phone (attempt 3)"),
                (32, "The phone (attempt 3)"),
            ][..],
        ),
    ] {
        let mut run = Run::new(Scenario::by_id(id).expect("scenario"));
        run.run_to_end();
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
                    let name = speaker_name_in(speaker.expect("the phone's"), world, c);
                    got.push((i + 1, name));
                }
            }
        }
        let want: Vec<(usize, String)> = want.iter().map(|(i, n)| (*i, n.to_string())).collect();
        assert_eq!(got, want, "{id}");
    }
}

/// Item 4: "PostgreSQL runs this step's SQL: 1 statement" was a line with no new idea where
/// an answer stands alone between two handlers' steps; there it says what the statements did.
#[test]
fn a_standalone_sql_answer_says_what_it_did() {
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
        assert!(all.iter().any(|t| t.contains(&inserted)), "{lang:?}");
        let race = said("cas-race", c);
        // The version the UPDATE expects is the If-Match it carries, never a placeholder
        // (#42: "$expected" read as a bug).
        let lost = rows(
            "speaker.sql_changed",
            "UPDATE accounts … WHERE version = 5",
            0,
        );
        assert!(race.iter().all(|s| !s.text(c).contains("$expected")));
        assert!(race.iter().any(|s| s.text(c).contains(&lost)), "{lang:?}");
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
