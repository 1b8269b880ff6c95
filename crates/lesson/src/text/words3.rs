//! Issue 42, items 2–4, as a new user met them at stop 53: wrong statements (a (nil) that
//! said the opposite of its command, a reused key told as another user's, attempts
//! miscounted), filler lines ("Redis answers OK.", "Redis returns the stored record."), an
//! end panel that said its reason twice, and the search's plain words. Each test walks the
//! lines the page shows (the visible step's words, with their speakers where two requests
//! are alive) in both languages, and fails if the old words come back.

use idem_core::{Bounds, Explorer, Scenario};

use crate::i18n::{Catalog, Lang};
use crate::playback::Run;

/// The words the page shows at every visible step of scenario `id` (its `NOW` line): who
/// speaks where two requests are alive, else the plain narration.
fn page_lines(id: &str, catalog: &Catalog) -> Vec<String> {
    super::speak4::lines_of(Run::new(Scenario::by_id(id).expect("scenario")), catalog)
}

/// Item 1: a (nil) says what it means for the command it answers. `concurrent-no-lock`'s
/// handlers only GET the key, so Redis's (nil) there means "no such key", never "already
/// taken"; the key story's SET NX (nil) means the key is taken.
#[test]
fn a_nil_follows_the_command_it_answers() {
    for lang in Lang::ALL {
        let c = lang.catalog();
        let get = page_lines("concurrent-no-lock", c);
        let nils: Vec<&String> = get.iter().filter(|l| l.contains("(nil)")).collect();
        assert_eq!(nils.len(), 2, "{lang:?}: both handlers' GETs: {get:?}");
        for line in nils {
            assert!(line.ends_with(&c.text("store.nil_get")), "{lang:?}: {line}");
            assert!(!line.contains(&c.text("store.nil")), "{lang:?}: {line}");
        }
        let set_nx = page_lines("key", c);
        assert!(
            set_nx.iter().any(|l| l.contains(&c.text("store.nil"))),
            "{lang:?}: {set_nx:?}"
        );
        assert!(!set_nx.iter().any(|l| l.contains(&c.text("store.nil_get"))));
    }
}

/// Item 5: "Redis answers OK." and "Redis returns the stored record." are never a line of
/// their own: after the request they answer they fold into its step; between two handlers'
/// steps an OK says what it did (the claim is this handler's, the answer is stored).
#[test]
fn no_step_is_a_bare_acknowledgement() {
    for lang in Lang::ALL {
        let c = lang.catalog();
        let (ok, value) = (c.text("store.ok"), c.text("store.value"));
        for scenario in Scenario::all() {
            for line in page_lines(&scenario.id, c) {
                assert!(!line.contains(&ok), "{lang:?} {}: {line}", scenario.id);
                assert!(!line.contains(&value), "{lang:?} {}: {line}", scenario.id);
            }
        }
        let race = page_lines("concurrent", c);
        let claimed = c.panel_text("store.ok_claimed").expect("panels");
        assert!(race.iter().any(|l| l.ends_with(&claimed)), "{race:?}");
        // An OK that only says the answer is stored folds, between two handlers' steps too
        // (stop 54: "For the handler of attempt 1: Redis answers OK: the answer is now stored
        // under the key" was a step of its own).
        let stored = c.panel_text("store.ok_stored").expect("panels");
        for scenario in Scenario::all() {
            for line in page_lines(&scenario.id, c) {
                assert!(!line.contains(&stored), "{lang:?} {}: {line}", scenario.id);
            }
        }
    }
}

/// Item 5: the double tap's second request finds no record because the first has not written
/// one yet: the page says that, not what the API could not tell.
#[test]
fn a_double_tap_says_why_it_finds_no_record() {
    for lang in Lang::ALL {
        let c = lang.catalog();
        let lines = page_lines("concurrent-no-lock", c);
        let running = c
            .panel_fill("api.key_new_inflight", &[("key", "K1".into())])
            .expect("panels");
        assert_eq!(
            lines.iter().filter(|l| l.contains(&running)).count(),
            1,
            "{lang:?}: {lines:?}"
        );
        assert!(!lines.iter().any(|l| l.contains(&c.text("api.key_new"))));
        // A retry whose record expired keeps the careful words.
        let ttl = page_lines("ttl", c);
        assert!(ttl.iter().any(|l| l.contains(&c.text("api.key_new"))));
        assert!(!ttl.iter().any(|l| l.contains(&running)));
    }
}

/// Every scenario, every visible step, both languages: no placeholder left unfilled, and
/// the compare-and-set's version is the one the UPDATE carries (item 4: "$expected" was
/// shown as written).
#[test]
fn every_visible_step_is_filled_in_both_languages() {
    for lang in Lang::ALL {
        let c = lang.catalog();
        for scenario in Scenario::all() {
            let lines = page_lines(&scenario.id, c);
            assert!(!lines.is_empty(), "{}", scenario.id);
            for line in lines {
                assert!(!line.trim().is_empty(), "{lang:?} {}", scenario.id);
                assert!(
                    !line.contains("$expected"),
                    "{lang:?} {}: {line}",
                    scenario.id
                );
                assert!(!line.contains('{'), "{lang:?} {}: {line}", scenario.id);
            }
        }
        // The race's UPDATEs fold into the second handler's step (stop 54): the version they
        // expect is the If-Match each request names.
        let race = page_lines("cas-race", c).join(" ");
        assert_eq!(race.matches("If-Match: \"5\"").count(), 4, "{race}");
        // The SQL one tap away says the same version.
        let mut run = Run::new(Scenario::by_id("cas").expect("cas"));
        let mut detail = Vec::new();
        while run.step_visible() {
            detail.extend(crate::stage::summary::narration_parts(run.world(), c).1);
        }
        let detail = detail.join(" ");
        let named = format!("WHERE version = {}", c.text("sql.expected"));
        assert!(detail.contains(&named), "{detail}");
        assert!(!detail.contains("$expected"), "{detail}");
    }
}

/// The panels' words the review quoted (items 4, 7, 8), nowhere in either language's
/// catalogs.
#[test]
fn the_quoted_panel_words_are_gone() {
    let gone = [
        "Both copies",
        "Обе копии",
        "Two sessions",
        "Две сессии",
        "once each",
        "каждое по одному разу",
        "checked on it alone",
        "проверено только на нём",
        "background worker",
        "фоновом потоке",
        "плюс случайная добавка",
        "первый запрос от повтора",
    ];
    for lang in Lang::ALL {
        for (key, text) in crate::i18n::check::all_entries(lang) {
            for words in gone {
                assert!(!text.contains(words), "{lang:?} {key}: “{words}” in {text}");
            }
        }
    }
}

/// Item 4: story 2's ledger says why its INSERT's ON CONFLICT does not deduplicate (it
/// conflicts on payment_id only); story 4a, whose likes carry no op_id, shows no like_ops
/// table and speaks of no op_id or ON CONFLICT.
#[test]
fn the_ledger_panel_agrees_with_the_sql() {
    for lang in Lang::ALL {
        let c = lang.catalog();
        let key = crate::test_support::end("key");
        let (sql, _) = crate::stage::ledger_panel::last_sql(&key, c).expect("an INSERT");
        assert!(sql.contains("ON CONFLICT DO NOTHING"), "{sql}");
        let lines = crate::outcome_text::ledger_constraints(&key, c);
        assert!(lines[0].contains("ON CONFLICT DO NOTHING"), "{lines:?}");
        assert!(lines[0].contains("payment_id"), "{lines:?}");
        let naive = crate::test_support::end("counter-naive");
        let html = crate::stage::ledger_panel::ledger_html(&naive, c).to_string();
        for words in ["like_ops", "op_id", "ON CONFLICT"] {
            assert!(!html.contains(words), "{lang:?} {words}: {html}");
        }
        let counter = crate::test_support::end("counter");
        let html = crate::stage::ledger_panel::ledger_html(&counter, c).to_string();
        assert!(html.contains("like_ops"), "{html}");
    }
}

/// Item 6: after a guess the reason is said once: stories 1, 3 and 4b (and the mechanics whose
/// written summary opened with the same reason) follow it with the rest of their summary, not
/// with the same mechanism in other words.
#[test]
fn the_end_panel_says_its_reason_once() {
    for lang in Lang::ALL {
        let c = lang.catalog();
        for id in [
            "naive",
            "cas",
            "counter",
            "concurrent",
            "concurrent-no-lock",
            "ttl",
            "evict",
            "scope-off",
            "key-reuse-no-fingerprint",
            "lease-fencing",
            "crash-one-tx",
            "counter-no-index",
            "cas-race",
        ] {
            let mut run = Run::new(Scenario::by_id(id).expect("scenario"));
            let start = run.world().clone();
            run.run_to_end();
            let end = run.world();
            let guess = crate::panels::recap::options(&start, end, c)
                .into_iter()
                .next()
                .expect("a choice");
            let html = crate::panels::recap::end_html(end, Some(&guess), c).to_string();
            let rest = c
                .panel_text(&format!("scenario.{id}.after_why"))
                .expect("panels");
            let recap = |t: &str| {
                format!(
                    "data-testid=\"recap\">{}</p>",
                    crate::markup::SafeHtml::text(t).as_str()
                )
            };
            let why_html = crate::panels::recap::why_html(end, c).to_string();
            assert!(!why_html.is_empty() && html.contains(&why_html), "{html}");
            assert!(html.contains(&recap(&rest)), "{lang:?} {id}: {html}");
            // Without a guess there is no sentence of why: the whole summary stands.
            let written = c.text(&format!("scenario.{id}.summary"));
            let alone = crate::panels::recap::end_html(end, None, c).to_string();
            assert!(alone.contains(&recap(&written)), "{lang:?} {id}: {alone}");
            assert!(!alone.contains(&why_html), "{alone}");
        }
    }
}

/// Item 7: the search's lead says what goes wrong in its example, with the sentence of why of
/// the example's own run.
#[test]
fn the_search_lead_says_what_goes_wrong() {
    let key = Scenario::by_id("key").expect("key");
    let base = key.clone().without_scripted_faults();
    let report = Explorer::new(&key, Bounds::faults(1)).run_to_end().clone();
    assert!(report.violating_runs > 0);
    for lang in Lang::ALL {
        let c = lang.catalog();
        let lead = crate::panels::explorer::lead_text(1, &report, false, &base, c)
            .expect("a finished search");
        let cx = report.shortest.first().expect("a counter-example");
        let mut world = idem_core::World::replay(&base, &cx.injected, cx.steps).expect("replays");
        world.run(2_000);
        let why = crate::panels::why::why(&world, c).expect("panels");
        assert!(lead.ends_with(&why), "{lang:?}: {lead}");
        assert!(lead.len() > why.len() + 20, "{lead}");
    }
}

/// Items 2 and 3: the sentence of why is the run's own mechanism, its counts from the run.
/// A reused key is the same user's (no fingerprint), not another user's; `crash-one-tx` was
/// saved by the processor recognising the forwarded key and `lease-fencing` by the fencing
/// token, not by "the second got 409"; the double tap counts its requests.
#[test]
fn the_why_follows_the_run() {
    use crate::panels::why::{reason, why, Reason};
    use crate::test_support::end;
    assert_eq!(
        reason(&end("key-reuse-no-fingerprint")),
        Reason::Reused {
            first: 10_000,
            second: 15_000
        }
    );
    assert_eq!(reason(&end("scope-off")), Reason::Leak);
    assert_eq!(reason(&end("crash-one-tx")), Reason::ProcessorDeduplicated);
    assert_eq!(reason(&end("lease-fencing")), Reason::Fenced);
    for (lang, two, amounts) in [
        (Lang::En, "2 requests", ["$100.00", "$150.00"]),
        (Lang::Ru, "2 запроса", ["$100,00", "$150,00"]),
    ] {
        let c = lang.catalog();
        let reused = why(&end("key-reuse-no-fingerprint"), c).expect("panels");
        assert!(amounts.iter().all(|a| reused.contains(a)), "{reused}");
        assert_ne!(Some(reused), c.panel_text("why.leak"));
        let concurrent = why(&end("concurrent"), c).expect("panels");
        assert!(concurrent.starts_with(two), "{concurrent}");
        for id in ["crash-one-tx", "lease-fencing"] {
            let text = why(&end(id), c).expect("panels");
            assert!(!text.contains("409"), "{lang:?} {id}: {text}");
        }
    }
}
