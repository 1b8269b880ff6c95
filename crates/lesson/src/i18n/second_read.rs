//! Issue 42, item 5: the sentences a first-time student had to read twice, each pinned by a
//! test that fails if the old words come back, in the catalogs or in the narration of the run
//! where the student met them.

use idem_core::{Scenario, World};

use super::check::all_entries;
use super::Lang;
use crate::text::narrate_plain;

/// Every narration line of a scenario's run, in `lang`.
pub(super) fn narration(id: &str, lang: Lang) -> Vec<String> {
    let mut world = World::new(&Scenario::by_id(id).expect("scenario"));
    let mut lines = Vec::new();
    while let Some(step) = world.step().cloned() {
        lines.extend(narrate_plain(&step, &world, lang.catalog()).0);
    }
    lines
}

/// The words quoted by the review, nowhere in either language's catalogs.
#[test]
fn the_quoted_wordings_are_gone() {
    let gone = [
        // "A bad network is armed" (and its Russian "Сеть ненадёжна", "обречён").
        "is armed",
        "armed once more",
        "Сеть ненадёжна",
        "обречён",
        "a chargeback waiting to happen",
        "most likely its own",
        "скорее всего, его собственное",
        "cannot spot a repeat either",
        "и сам шлюз повтор не распознает",
        // Stop 52's review: the processor's missing key, the fencing note, the 409's
        // "took it over", the explorer's "its kinds".
        "gets no key",
        "Ключа шлюз не получает",
        "knows nothing of ours",
        "наших токенов не знает",
        "took it over from this one",
        "перехватил его у этой",
        "of its kinds",
        "из тех же сбоев",
    ];
    assert_no_entry_says(&gone);
}

/// Fails if any catalog entry, in either language, holds one of `gone`.
pub(super) fn assert_no_entry_says(gone: &[&str]) {
    for lang in Lang::ALL {
        for (key, text) in all_entries(lang) {
            for words in gone {
                assert!(!text.contains(words), "{lang:?} {key}: “{words}” in {text}");
            }
        }
    }
}

/// A lost answer is named by what it says, not by a message number the drawing never shows
/// ("Message #10, the answer 201 pay_abc, is lost").
#[test]
fn a_lost_answer_has_no_number_the_drawing_does_not_show() {
    for lang in Lang::ALL {
        for id in ["naive", "key", "cas", "counter-naive", "counter"] {
            let lost: Vec<String> = narration(id, lang)
                .into_iter()
                .filter(|l| l.contains("201") || l.contains("200"))
                .filter(|l| l.contains("lost") || l.contains("теряется"))
                .collect();
            assert!(!lost.is_empty(), "{id} {lang:?}: the answer is lost");
            for line in lost {
                assert!(!line.contains('#'), "{id} {lang:?}: {line}");
            }
        }
    }
}

/// Story 1: what the processor cannot do, without an "either" that
/// points back to a sentence the student did not read.
#[test]
fn the_processor_line_stands_on_its_own() {
    // Words4: story 2's call says what guards it (the API's own key check); the processor's
    // missing key is said where it matters, as in story 1.
    let en = narration("naive", Lang::En);
    let line = en
        .iter()
        .find(|l| l.starts_with("The API asks the card processor to charge."))
        .expect("story 1 calls the processor");
    assert!(!line.contains("either"), "{line}");
    // Stop 52: "the processor gets no key" needed a second read; it says what the API does
    // not pass on and what follows, in both languages.
    assert!(
        line.contains("passes no Idempotency-Key on") && line.contains("a retry from a new charge"),
        "{line}"
    );
    let ru = narration("naive", Lang::Ru);
    assert!(
        ru.iter()
            .any(|l| l.contains("Idempotency-Key шлюзу не передаётся")),
        "{ru:?}"
    );
}

/// Story 1's ending says what happens to the customer in plain words.
#[test]
fn story_one_ends_in_plain_words() {
    let en = Lang::En.catalog().text("scenario.naive.summary");
    assert!(en.contains("ask the bank"), "{en}");
    let ru = Lang::Ru.catalog().text("scenario.naive.summary");
    assert!(ru.contains("попросит банк"), "{ru}");
}

/// The lease story says what its design is before what will happen (the other stories do), in
/// both languages.
#[test]
fn the_lease_story_says_its_design_first() {
    for (lang, design, happen) in [
        (Lang::En, "The design:", "What will happen:"),
        (Lang::Ru, "Устройство:", "Что произойдёт:"),
    ] {
        let world = World::new(&Scenario::by_id("lease-expiry").expect("scenario"));
        let intro = crate::outcome_text::intro(&world, lang.catalog());
        let (d, h) = (intro.find(design), intro.find(happen));
        assert!(
            matches!((d, h), (Some(d), Some(h)) if d < h),
            "{lang:?}: {intro}"
        );
        assert!(intro.contains("5"), "{lang:?}: the lease's length: {intro}");
    }
}
