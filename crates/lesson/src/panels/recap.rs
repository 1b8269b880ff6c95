//! Before and after a run: the student predicts the outcome at step 0, and when the run ends
//! the page tells them whether they were right and what the scenario showed. The options are
//! derived from the story, the answer from the core's own figures (the verdict's effects per
//! operation, the account balance, the post's likes): nothing here is scripted per scenario.

use idem_core::http::RequestBody;
use idem_core::{Action, Invariant, Status, Story, World};

use crate::i18n::Catalog;
use crate::markup::{el, SafeHtml};

/// One possible outcome: a stable value (`once`, `80`, `102`) and its words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// What `data-value` holds and what is compared.
    pub value: String,
    /// What the button says.
    pub label: String,
}

/// How often a payment was charged: not, once, twice, or (a run the student gave more faults)
/// as many times as it was.
fn charge_choice(times: usize, catalog: &Catalog) -> Choice {
    let (value, key) = match times {
        0 => ("none", "predict.charge_none"),
        1 => ("once", "predict.charge_once"),
        2 => ("twice", "predict.charge_twice"),
        n => {
            return Choice {
                value: format!("times-{n}"),
                label: catalog.fill("verdict.charged_times", &[("n", n.to_string())]),
            }
        }
    };
    Choice {
        value: value.to_owned(),
        label: catalog.text(key),
    }
}

/// The outcomes of a run where another user sends a request with the same key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shared {
    /// Each user was charged for their own payment.
    Own,
    /// Someone was shown another user's payment.
    Leak,
    /// An operation was charged twice.
    Twice,
}

fn shared_choice(outcome: Shared, catalog: &Catalog) -> Choice {
    let (value, key) = match outcome {
        Shared::Own => ("own", "predict.shared_own"),
        Shared::Leak => ("leak", "predict.shared_leak"),
        Shared::Twice => ("twice", "predict.shared_twice"),
    };
    Choice {
        value: value.to_owned(),
        label: catalog.text(key),
    }
}

/// Whether the scenario's script brings in another user with the same key.
fn has_other_user(world: &World) -> bool {
    world
        .scenario()
        .script
        .iter()
        .any(|s| matches!(s.action, Action::OtherUserSameKey))
}

/// The outcome of a shared-key run, from the core's verdict: a broken no-cross-user-replay
/// is a leak, a repeated effect a double charge, one effect per operation the good ending.
/// Anything else falls back to the charge count.
fn shared_outcome(world: &World, catalog: &Catalog) -> Choice {
    let verdict = world.verdict();
    if matches!(
        verdict.status(Invariant::NoCrossUserReplay),
        Some(Status::Violated(_))
    ) {
        shared_choice(Shared::Leak, catalog)
    } else if verdict.max_effects() > 1 {
        shared_choice(Shared::Twice, catalog)
    } else if !verdict.effects.is_empty() && verdict.effects.iter().all(|(_, n)| *n == 1) {
        shared_choice(Shared::Own, catalog)
    } else {
        charge_choice(verdict.max_effects(), catalog)
    }
}

fn figure_choice(n: i64, key: &str, catalog: &Catalog) -> Choice {
    Choice {
        value: n.to_string(),
        label: catalog.fill(key, &[("n", n.to_string())]),
    }
}

/// What the run shows now, in the terms of the story: for payments, how often the operation
/// that took effect most often was charged (0, 1, 2, or more); otherwise the balance or the
/// likes.
pub fn outcome(world: &World, catalog: &Catalog) -> Choice {
    let ledger = world.ledger();
    match world.scenario().story {
        Story::CompareAndSet => figure_choice(
            ledger.accounts.first().map_or(0, |a| a.balance),
            "predict.balance",
            catalog,
        ),
        Story::Counter => figure_choice(
            ledger.posts.first().map_or(0, |p| p.likes),
            "predict.likes",
            catalog,
        ),
        _ if has_other_user(world) => shared_outcome(world, catalog),
        _ => charge_choice(world.verdict().max_effects(), catalog),
    }
}

/// The options offered for the run that starts at `start` and, left alone, ends at `end`:
/// not / once / twice for payments (own payment / leak / double charge when another user
/// shares the key); unchanged, one debit, two debits for the balance; one or
/// two more likes for the counter. The undisturbed outcome is always among them.
pub fn options(start: &World, end: &World, catalog: &Catalog) -> Vec<Choice> {
    let scenario = start.scenario();
    let mut choices = match scenario.story {
        Story::CompareAndSet => {
            let debit = end
                .client()
                .ops()
                .iter()
                .find_map(|op| match op.body {
                    RequestBody::Debit { amount, .. } => Some(amount),
                    _ => None,
                })
                .unwrap_or(0);
            let b = scenario.balance;
            [b - debit, b - 2 * debit, b]
                .into_iter()
                .map(|n| figure_choice(n, "predict.balance", catalog))
                .collect()
        }
        Story::Counter => [scenario.likes + 1, scenario.likes + 2]
            .into_iter()
            .map(|n| figure_choice(n, "predict.likes", catalog))
            .collect(),
        _ if has_other_user(start) => [Shared::Own, Shared::Leak, Shared::Twice]
            .into_iter()
            .map(|o| shared_choice(o, catalog))
            .collect(),
        _ => (0..3)
            .map(|n| charge_choice(n, catalog))
            .collect::<Vec<_>>(),
    };
    let actual = outcome(end, catalog);
    if !choices.iter().any(|c| c.value == actual.value) {
        choices.push(actual);
    }
    choices
}

/// The sentence of why the run ended so (after any guess, right or wrong); empty when there is
/// nothing to say.
pub fn why_html(world: &World, catalog: &Catalog) -> SafeHtml {
    crate::panels::why::why(world, catalog).map_or_else(SafeHtml::default, |text| {
        el(
            "p",
            "class=\"predict-why\" data-testid=\"predict-why\"",
            &text,
        )
    })
}

/// The recap at the end of a run, in reading order: the verdict on the guess and why the run
/// ended so, then what the student just saw, and last, after a 412, what a real app does next
/// (issue 42: story 3 said what the app does next before what had happened).
pub fn end_html(world: &World, guess: Option<&Choice>, catalog: &Catalog) -> SafeHtml {
    let mut html = el("h2", "", &catalog.text("ui.recap"));
    let said = if let Some(guess) = guess {
        html.push_str(&result_html(guess, &outcome(world, catalog), catalog));
        let why = why_html(world, catalog);
        let after = if why.as_str().is_empty() {
            crate::outcome_text::summary(world, catalog)
        } else {
            // The reason was just said: the story's summary does not say it again.
            crate::outcome_text::summary_after_why(world, catalog)
        };
        html.push_str(&why);
        after
    } else {
        crate::outcome_text::summary(world, catalog)
    };
    html.push_str(&el(
        "p",
        "class=\"recap-text\" data-testid=\"recap\"",
        &said.join(" "),
    ));
    html.push_str(&after_412_html(world, catalog));
    html
}

/// What a real app does after the 412 this run ended with; empty when no answer was a 412.
pub fn after_412_html(world: &World, catalog: &Catalog) -> SafeHtml {
    crate::panels::why::after_412(world, catalog).map_or_else(SafeHtml::default, |next| {
        el(
            "p",
            "class=\"predict-why\" data-testid=\"after-412\"",
            &next,
        )
    })
}

/// The verdict on a guess against the outcome.
pub fn result_html(guess: &Choice, actual: &Choice, catalog: &Catalog) -> SafeHtml {
    let right = guess.value == actual.value;
    let text = if right {
        catalog.fill("predict.right", &[("answer", actual.label.clone())])
    } else {
        catalog.fill(
            "predict.wrong",
            &[
                ("guess", guess.label.clone()),
                ("answer", actual.label.clone()),
            ],
        )
    };
    let class = if right { "right" } else { "wrong" };
    el(
        "p",
        &format!("class=\"predict-result {class}\" data-testid=\"predict-result\" data-correct=\"{right}\""),
        &text,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use idem_core::{Action, Scenario};

    fn start_end(id: &str) -> (World, World) {
        let start = World::new(&Scenario::by_id(id).expect("scenario"));
        let mut end = start.clone();
        end.run(2_000);
        (start, end)
    }

    fn values(id: &str) -> (Vec<String>, String) {
        let catalog = Lang::En.catalog();
        let (start, end) = start_end(id);
        let opts = options(&start, &end, catalog);
        (
            opts.into_iter().map(|c| c.value).collect(),
            outcome(&end, catalog).value,
        )
    }

    #[test]
    fn payment_stories_ask_none_once_twice_and_the_core_answers() {
        assert_eq!(
            values("naive"),
            (
                vec!["none".into(), "once".into(), "twice".into()],
                "twice".into()
            )
        );
        assert_eq!(values("key").1, "once");
        assert_eq!(values("missing-key").1, "none");
        assert_eq!(values("concurrent-no-lock").1, "twice");
    }

    #[test]
    fn shared_key_stories_ask_about_the_leak() {
        let asked = vec!["own".to_owned(), "leak".into(), "twice".into()];
        assert_eq!(values("scope"), (asked.clone(), "own".into()));
        assert_eq!(values("scope-off"), (asked, "leak".into()));
        let catalog = Lang::En.catalog();
        let (_, end) = start_end("scope-off");
        let actual = outcome(&end, catalog);
        let once = charge_choice(1, catalog);
        assert!(result_html(&once, &actual, catalog).contains("data-correct=\"false\""));
        assert!(actual.label.contains("shown"), "{}", actual.label);
    }

    #[test]
    fn compare_and_set_asks_for_the_balance() {
        assert_eq!(
            values("cas"),
            (vec!["80".into(), "60".into(), "100".into()], "80".into())
        );
        assert_eq!(values("cas-naive").1, "60");
    }

    #[test]
    fn the_counter_asks_for_the_likes() {
        assert_eq!(
            values("counter"),
            (vec!["101".into(), "102".into()], "101".into())
        );
        assert_eq!(values("counter-naive").1, "102");
    }

    #[test]
    fn every_scenario_offers_its_own_outcome() {
        for id in idem_core::Scenario::IDS {
            let (opts, actual) = values(id);
            assert!(opts.contains(&actual), "{id}: {actual} not in {opts:?}");
            assert!(opts.len() >= 2, "{id}");
        }
    }

    /// A story run with one more lost answer than its script: three charges (three likes for
    /// the counter), and the result and the badge say three, not "twice".
    fn with_an_extra_lost_answer(id: &str) -> World {
        let mut world = World::new(&Scenario::by_id(id).expect("scenario"));
        for _ in 0..3 {
            world.step();
        }
        // (The story's own script loses one answer.)
        world.apply(Action::LoseNextAck).expect("armed");
        world.run(2_000);
        world
    }

    #[test]
    fn a_run_charged_three_times_says_three_times() {
        let world = with_an_extra_lost_answer("naive");
        assert_eq!(
            world.verdict().max_effects(),
            3,
            "the setup charges three times"
        );
        for (lang, three) in [(Lang::En, "Charged 3 times"), (Lang::Ru, "Списано 3 раза")]
        {
            let catalog = lang.catalog();
            let actual = outcome(&world, catalog);
            assert_eq!(actual.label, three);
            let twice = charge_choice(2, catalog);
            let html = result_html(&twice, &actual, catalog);
            assert!(html.contains("data-correct=\"false\""), "{html}");
            assert!(html.contains(three), "{html}");
            let badge = crate::text::badge_text(&crate::text::badge(&world), catalog);
            assert_eq!(badge, three);
        }
        let counter = with_an_extra_lost_answer("counter-naive");
        assert_eq!(counter.ledger().posts[0].likes, 103, "three likes counted");
        for (lang, three) in [
            (Lang::En, "Like counted 3 times"),
            (Lang::Ru, "Лайк засчитан 3 раза"),
        ] {
            let badge = crate::text::badge_text(&crate::text::badge(&counter), lang.catalog());
            assert_eq!(badge, three);
        }
    }

    /// Issue 42: the guess, right or wrong, is followed by why; after the 412 of story 3 the
    /// recap ends on what the app does next, after what happened, in both languages.
    #[test]
    fn the_guess_is_followed_by_why_and_what_comes_after_a_412() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            let (start, end) = start_end("cas");
            let why = crate::panels::why::why(&end, c).expect("native builds hold every part");
            let next = crate::panels::why::after_412(&end, c).expect("a 412");
            assert!(next.contains("If-Match: 6"), "{lang:?}: {next}");
            let summary = crate::outcome_text::summary_after_why(&end, c).join(" ");
            for guess in options(&start, &end, c) {
                let html = end_html(&end, Some(&guess), c);
                // Where each text starts (up to the first character markup escapes).
                let at = |text: &str| {
                    let head = text
                        .split(['"', '\'', '&', '<', '>'])
                        .next()
                        .unwrap_or(text);
                    html.find(head).unwrap_or_else(|| panic!("{head}: {html}"))
                };
                assert!(
                    at(&why) < at(&summary) && at(&summary) < at(&next),
                    "{lang:?}: {html}"
                );
            }
            let unguessed = end_html(&end, None, c);
            assert!(
                !unguessed.contains(&why) && unguessed.contains(&next),
                "{unguessed}"
            );
            assert!(!why_html(&end, c).contains("If-Match"), "{lang:?}");
            let (_, key) = start_end("key");
            assert!(!end_html(&key, None, c).contains("If-Match"), "{lang:?}");
            assert!(after_412_html(&key, c).is_empty());
        }
    }

    /// Issue 42: story 3's ending said "most likely its own": the next step says plainly whose
    /// change moved the version.
    #[test]
    fn the_next_step_after_a_412_is_plain() {
        let (_, end) = start_end("cas");
        let en = crate::panels::why::after_412(&end, Lang::En.catalog()).expect("a 412");
        assert!(!en.contains("most likely"), "{en}");
        assert!(en.contains("this same debit"), "{en}");
        let ru = crate::panels::why::after_412(&end, Lang::Ru.catalog()).expect("a 412");
        assert!(!ru.contains("скорее всего"), "{ru}");
    }

    #[test]
    fn the_result_says_right_or_wrong() {
        let catalog = Lang::En.catalog();
        let once = charge_choice(1, catalog);
        let twice = charge_choice(2, catalog);
        let html = result_html(&once, &twice, catalog);
        assert!(html.contains("data-correct=\"false\""), "{html}");
        assert!(
            html.contains("Charged once") && html.contains("Charged twice"),
            "{html}"
        );
        assert!(result_html(&twice, &twice, catalog).contains("data-correct=\"true\""));
    }
}
