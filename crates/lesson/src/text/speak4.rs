//! Issue 42 at stop 54 (a new user's review of the lease and early-Retry runs): the last wrong
//! and filler lines where two handlers run. Each test walks the lines the page shows at every
//! visible step (who speaks where two requests are alive, else the plain narration), in both
//! languages, and fails if the old words come back.

use idem_core::{Action, Scenario};

use crate::i18n::{Catalog, Lang};
use crate::playback::Run;

/// The words the page shows at every visible step of `run` from where it stands to its end.
pub(super) fn lines_of(mut run: Run, catalog: &Catalog) -> Vec<String> {
    let mut lines = Vec::new();
    while run.step_visible() {
        let world = run.world();
        lines.push(
            super::speaker::spoken_text(world, catalog).unwrap_or_else(|| {
                crate::stage::summary::narration_lines(world, catalog).join(" ")
            }),
        );
    }
    lines
}

fn page_lines(id: &str, catalog: &Catalog) -> Vec<String> {
    lines_of(Run::new(Scenario::by_id(id).expect("scenario")), catalog)
}

/// Story 2 (the key story) with Retry pressed as soon as the first request is on the wire:
/// the review's "early Retry" run.
fn early_retry_lines(catalog: &Catalog) -> Vec<String> {
    let mut run = Run::new(Scenario::by_id("key").expect("key"));
    let mut lines = Vec::new();
    while run.world().network().in_flight().next().is_none() {
        assert!(run.step_visible(), "no request goes out");
        lines.push(crate::stage::summary::narration_lines(run.world(), catalog).join(" "));
    }
    run.apply(Action::RetryNow).expect("an early Retry");
    lines.extend(lines_of(run, catalog));
    lines
}

/// The part of a catalog text before its first placeholder (a line's start that does not
/// depend on the run's numbers).
fn stem(catalog: &Catalog, key: &str) -> String {
    let text = catalog.text(key);
    text.split('{').next().unwrap_or_default().to_owned()
}

/// Item 1: `lease-fencing` step 20 said attempt 1 "did not run" and that the phone would retry.
/// Attempt 1 ran and was fenced; attempt 3's answer is already on its way, so no retry follows.
#[test]
fn a_fenced_attempt_s_409_says_it_ran_and_no_retry_follows() {
    for lang in Lang::ALL {
        let c = lang.catalog();
        let lines = page_lines("lease-fencing", c);
        let late = c
            .panel_fill(
                "speaker.late_answer",
                &[("n", "1".into()), ("latest", "3".into())],
            )
            .expect("panels");
        let step = lines
            .iter()
            .find(|l| l.contains(&late))
            .expect("attempt 1's late answer");
        let fenced = c
            .panel_fill("speaker.fenced_refusal", &[("n", "1".into())])
            .expect("panels");
        let no_retry = c
            .panel_fill("speaker.fenced_no_retry", &[("latest", "3".into())])
            .expect("panels");
        assert!(step.contains(&fenced), "{lang:?}: {step}");
        assert!(step.contains(&no_retry), "{lang:?}: {step}");
        assert!(!step.contains(&c.text("client.told_to_wait")), "{step}");
        assert!(!step.contains(&stem(c, "client.backs_off")), "{step}");
        // Attempt 2's 409, before any handler was fenced, keeps the plain words and its wait.
        let told = lines
            .iter()
            .filter(|l| l.contains(&c.text("client.told_to_wait")))
            .count();
        assert_eq!(told, 1, "{lang:?}: {lines:#?}");
    }
}

/// Item 1, the other branch: if attempt 3's answer is lost on the way, the fenced 409 still
/// says attempt 1 ran and was refused, and the phone's wait before its retry stands.
#[test]
fn a_fenced_409_with_no_answer_coming_keeps_the_wait() {
    use idem_core::message::Payload;
    let c = Lang::En.catalog();
    let mut run = Run::new(Scenario::by_id("lease-fencing").expect("lease-fencing"));
    // Until attempt 3's 201 is on the wire, then drop it.
    let answer = loop {
        let world = run.world();
        let found = world
            .network()
            .in_flight()
            .find(|m| matches!(&m.payload, Payload::Response(r) if r.status == 201));
        if let Some(m) = found {
            break m.id;
        }
        assert!(run.step_forward(), "attempt 3 answers");
    };
    run.apply(Action::Drop(answer)).expect("dropped");
    let lines = lines_of(run, c).join(" ");
    let fenced = c
        .panel_fill("speaker.fenced_refusal", &[("n", "1".into())])
        .expect("panels");
    assert!(lines.contains(&fenced), "{lines}");
    assert!(
        !lines.contains(&stem(c, "speaker.fenced_no_retry")),
        "{lines}"
    );
    assert!(lines.contains(&stem(c, "client.backs_off")), "{lines}");
}

/// Item 2: where two handlers run, "Redis returns the stored record", "Redis answers OK: the
/// answer is now stored under the key", "PostgreSQL runs INSERT INTO charges (1 row added)"
/// and `cas-race`'s "UPDATE … ; SELECT …" fold into the step before them: no visible step says
/// them, and each run has that many fewer visible steps (time travel stays exact: `fold`'s
/// tests check that the visible steps cover every core step).
#[test]
fn filler_between_two_handlers_folds() {
    for lang in Lang::ALL {
        let c = lang.catalog();
        let stored = c.panel_text("store.ok_stored").expect("panels");
        let added = stem(c, "speaker.sql");
        let count = stem(c, "ledger.ran_plain");
        let runs = [
            ("lease-expiry", page_lines("lease-expiry", c), 25),
            ("lease-fencing", page_lines("lease-fencing", c), 21),
            (
                "concurrent-no-lock",
                page_lines("concurrent-no-lock", c),
                18,
            ),
            ("cas-race", page_lines("cas-race", c), 8),
            ("early Retry", early_retry_lines(c), 15),
        ];
        for (id, lines, visible) in runs {
            for line in &lines {
                for filler in [&c.text("store.value"), &c.text("store.ok"), &stored] {
                    assert!(!line.contains(filler.as_str()), "{lang:?} {id}: {line}");
                }
                assert!(!line.contains(&added), "{lang:?} {id}: {line}");
                assert!(!line.contains(&count), "{lang:?} {id}: {line}");
                assert!(!line.contains("INSERT INTO charges"), "{id}: {line}");
                assert!(!line.contains("UPDATE accounts"), "{id}: {line}");
            }
            assert_eq!(lines.len(), visible, "{lang:?} {id}: {lines:#?}");
        }
    }
}

/// Item 3: the 409 a waiting request gets speaks of the key another handler holds, not of a
/// lease running out (`concurrent` has none); one sentence, one idea each (Russian had three
/// colons in it).
#[test]
fn the_409_follows_the_run() {
    for (lang, lease) in [(Lang::En, "lease"), (Lang::Ru, "аренд")] {
        let c = lang.catalog();
        let text = c.text("client.told_to_wait");
        assert!(!text.contains(lease), "{text}");
        assert_eq!(text.matches(':').count(), 1, "{text}");
        assert!(text.split(". ").all(|s| s.chars().count() < 100), "{text}");
        let concurrent = page_lines("concurrent", c);
        assert!(
            concurrent.iter().any(|l| l.contains(&text)),
            "{concurrent:#?}"
        );
        assert!(
            !concurrent.iter().any(|l| l.contains(lease)),
            "{lang:?}: {concurrent:#?}"
        );
    }
}

/// Item 4: `lease-fencing`'s API passes no key on, so the stale call's refusal says a real
/// processor would charge again there; with the key forwarded, that the key stops it.
#[test]
fn the_processor_s_refusal_says_what_a_real_one_would_do_here() {
    for (lang, stops) in [
        (Lang::En, "the forwarded Idempotency-Key stops"),
        (Lang::Ru, "переданный Idempotency-Key"),
    ] {
        let c = lang.catalog();
        let fenced = c.text("processor.fenced");
        assert!(!fenced.contains(stops), "{fenced}");
        let not_forwarded = c
            .panel_text("processor.fenced_not_forwarded")
            .expect("panels");
        let forwarded = c.panel_text("processor.fenced_forwarded").expect("panels");
        let lines = page_lines("lease-fencing", c);
        let refusal = lines
            .iter()
            .find(|l| l.contains(&fenced))
            .expect("the stale call is refused");
        assert!(refusal.contains(&not_forwarded), "{lang:?}: {refusal}");
        assert!(!refusal.contains(&forwarded), "{lang:?}: {refusal}");
        assert!(!refusal.contains(stops), "{lang:?}: {refusal}");
        let scenario = Scenario::by_id("lease-fencing").expect("lease-fencing");
        let mut on = scenario.protections;
        on.forward_key = true;
        let lines = lines_of(Run::new(scenario.with_protections(on)), c);
        for line in lines.iter().filter(|l| l.contains(&fenced)) {
            assert!(line.contains(&forwarded), "{lang:?}: {line}");
            assert!(!line.contains(&not_forwarded), "{lang:?}: {line}");
        }
    }
}

/// Item 5: the double tap's why (the quiz's first answer too) said "and 1 was refused", read
/// as "the first"; one refusal is said in words.
#[test]
fn one_refusal_is_said_in_words() {
    for (lang, words, digit) in [
        (Lang::En, "one other request was refused", "and 1 "),
        (Lang::Ru, "ещё один запрос получил 409", "а 1 "),
    ] {
        let c = lang.catalog();
        let end = crate::test_support::end("concurrent");
        let why = crate::panels::why::why(&end, c).expect("panels");
        assert!(why.contains(words), "{why}");
        assert!(!why.contains(digit), "{why}");
    }
}

/// Item 6: `lease-fencing` step 4 packed four ideas into one sentence run; the first sentence
/// is the one the student needs (the handler holds a numbered lease), then one idea each.
#[test]
fn the_fencing_token_comes_one_idea_a_sentence() {
    for (lang, lease) in [(Lang::En, "lease"), (Lang::Ru, "аренд")] {
        let c = lang.catalog();
        let text = c.fill("api.gets_token", &[("token", "1".into())]);
        let sentences: Vec<&str> = text.split(". ").collect();
        assert!(sentences.len() >= 3, "{text}");
        assert!(
            sentences[0].contains(lease) && sentences[0].contains(" 1"),
            "{text}"
        );
        assert!(sentences.iter().all(|s| !s.contains(':')), "{text}");
        assert!(sentences.iter().any(|s| s.contains("INCR")), "{text}");
        let step = page_lines("lease-fencing", c)
            .into_iter()
            .find(|l| l.contains(&text))
            .expect("step 4 says it");
        assert!(step.contains(&text), "{step}");
    }
}
