//! Issue 41's smaller items, each pinned by a test that fails if the old words come back: the
//! texts are the catalogs', the sentences the builders' (narration, panels, request lines).

use idem_core::message::Payload;
use idem_core::{Scenario, World};

use super::check::all_entries;
use super::{Catalog, Lang};
use crate::text::narrate_plain;

/// Every narration line of a scenario's run, in `catalog`'s language.
fn narration(id: &str, catalog: &Catalog) -> Vec<String> {
    let mut world = World::new(&Scenario::by_id(id).expect("scenario"));
    let mut lines = Vec::new();
    while let Some(step) = world.step().cloned() {
        lines.extend(narrate_plain(&step, &world, catalog).0);
    }
    lines
}

fn ended(id: &str) -> World {
    let mut world = World::new(&Scenario::by_id(id).expect("scenario"));
    while world.step().is_some() {}
    world
}

/// The Russian wordings the review found unnatural (and the card processor's second name),
/// nowhere in the Russian catalogs.
#[test]
fn the_russian_review_wordings_are_gone() {
    let gone = [
        "Захват наш",
        "этот дизайн",
        "Удивите меня",
        "процессор",
        "Процессор",
        "проиграла одно расписание",
        "параллельный писатель",
        "лиент с ошибкой",
        "Телефон сдаётся",
        "захватом ключа паузой",
        "телефонов не повторяли",
        "Мы видим почему",
        "исследовател",
        "Словарь",
        "продлить ключ",
        "показал баланс",
        "до {k}",
    ];
    for (key, text) in all_entries(Lang::Ru) {
        for words in gone {
            assert!(!text.contains(words), "{key}: «{words}» in {text}");
        }
    }
    let ru = Lang::Ru.catalog();
    assert!(ru.text("node.processor.name").contains("Платёжный шлюз"));
    assert_eq!(ru.text("gloss.title"), "Глоссарий");
}

/// TCP does not duplicate an HTTP request: the copy is a re-send on the way.
#[test]
fn a_duplicate_is_a_re_send_not_the_network() {
    for lang in Lang::ALL {
        let c = lang.catalog();
        for key in ["net.duplicated", "mark.duplicate"] {
            let text = c.text(key);
            assert!(text.contains("TCP"), "{key}: {text}");
        }
    }
    assert!(!Lang::En
        .catalog()
        .text("mark.duplicate")
        .contains("delivers it twice"));
}

/// After a lost race the usual loop is re-read, confirm, resend with the new version: the
/// glossary and the narration of the 412 say so.
#[test]
fn a_lost_race_says_how_to_resend() {
    for lang in Lang::ALL {
        let c = lang.catalog();
        let gloss = c.text("gloss.412.def");
        assert!(gloss.contains("If-Match: \"6\""), "{gloss}");
        let race = narration("cas-race", c).join(" ");
        assert!(race.contains(&c.text("client.got_lost_race")), "{race}");
        assert!(c.text("client.got_lost_race").contains("If-Match"));
    }
    assert!(!Lang::En
        .catalog()
        .text("gloss.412.def")
        .contains("Do not resend it:"));
}

/// `crash-no-forward` committed the key's in-progress claim (that is why the retry got 409):
/// its summary no longer says nothing was committed.
#[test]
fn the_crash_without_forwarding_says_what_was_committed() {
    let world = ended("crash-no-forward");
    let statuses: Vec<u16> = world
        .network()
        .messages()
        .iter()
        .filter_map(|m| match &m.payload {
            Payload::Response(r) => Some(r.status),
            _ => None,
        })
        .collect();
    assert!(statuses.contains(&409), "{statuses:?}");
    for lang in Lang::ALL {
        let summary = lang.catalog().text("scenario.crash-no-forward.summary");
        assert!(summary.contains("409"), "{summary}");
    }
    let en = Lang::En.catalog().text("scenario.crash-no-forward.summary");
    assert!(!en.starts_with("Nothing was committed"), "{en}");
    // "Same crash" beside crash-window, which crashes before another phase.
    assert!(!Lang::En
        .catalog()
        .text("scenario.crash-one-tx.intro")
        .starts_with("Same crash"));
}

/// The store panel shows INCR's reply with its number, as `redis-cli` does.
#[test]
fn incr_shows_its_number() {
    let mut world = World::new(&Scenario::by_id("lease-fencing").expect("scenario"));
    let mut seen = Vec::new();
    while world.step().is_some() {
        if let Some(last) = crate::stage::state_panels::last_redis(&world) {
            if last.contains("INCR") && !seen.contains(&last) {
                seen.push(last);
            }
        }
    }
    assert!(seen.iter().any(|s| s.ends_with("(integer) 1")), "{seen:?}");
    assert!(seen.iter().all(|s| !s.ends_with("(integer)")), "{seen:?}");
}

/// If-Match's precondition applies to the request's target: the debit patches the account.
#[test]
fn a_debit_patches_the_account_it_names_in_if_match() {
    let world = ended("cas");
    let first = world
        .network()
        .messages()
        .iter()
        .find_map(|m| match &m.payload {
            Payload::Request(r) => Some(r.request_line()),
            _ => None,
        })
        .expect("a request");
    assert_eq!(first, "PATCH /accounts/1 HTTP/1.1");
    let all = narration("cas", Lang::En.catalog()).join(" ");
    assert!(!all.contains("POST /debit"), "{all}");
}

/// Story 4b: the retry's like is skipped, so the narration does not first say it is counted.
#[test]
fn a_deduplicated_like_is_not_said_to_be_counted() {
    for lang in Lang::ALL {
        let c = lang.catalog();
        let lines = narration("counter", c);
        assert!(!lines.contains(&c.text("api.likes")), "{lines:?}");
        assert!(lines.contains(&c.text("api.like_skipped")), "{lines:?}");
        assert!(lines.contains(&c.text("api.likes_dedup")), "{lines:?}");
        let naive = narration("counter-naive", c);
        assert!(naive.contains(&c.text("api.likes")), "{naive:?}");
    }
}

/// Alternatives that would have prevented a break are joined with "or", not "/".
#[test]
fn alternative_fixes_are_joined_with_or() {
    let fixes = vec![vec!["forward"], vec!["fencing"]];
    let en = crate::outcome_text::closed_by(&fixes, "", Lang::En.catalog());
    assert!(!en.contains(" / ") && en.contains(" or "), "{en}");
    let ru = crate::outcome_text::closed_by(&fixes, "", Lang::Ru.catalog());
    assert!(!ru.contains(" / ") && ru.contains(" или "), "{ru}");
}
