//! What the step means: the verdict badge (from the core's invariants), the money as three
//! parties see it, the narration of the current step (an ARIA live region), and the list of
//! invariants the core checks.

use idem_core::{Invariant, Status};
use idem_core::{Story, Verdict, World};

use crate::i18n::Catalog;
use crate::labels::usd_in;
use crate::markup::{el, wrap, SafeHtml};
use crate::text::narrate_plain;

/// The narration of the visible step the world ends in (or the scenario's introduction at
/// step 0), plain first, and its detail one tap away: the statements it ran with their row
/// counts, and what the counts mean (empty when it ran none). A filler step folded into the
/// step before it ([`crate::fold`]) adds only its detail: its plain line ("Redis answers OK",
/// a statement count) is the filler.
pub fn narration_parts(world: &World, catalog: &Catalog) -> (Vec<String>, Vec<String>) {
    let Some((first, folded)) = crate::fold::visible_tail(world.steps()).split_first() else {
        return (
            vec![
                crate::outcome_text::intro(world, catalog),
                catalog.text("narr.start"),
            ],
            Vec::new(),
        );
    };
    let (mut lines, mut detail) = narrate_plain(first, world, catalog);
    // A folded step answers the one before it, which ran no SQL itself: one legend at most.
    for step in folded {
        detail.extend(narrate_plain(step, world, catalog).1);
    }
    if lines.is_empty() {
        lines.push(catalog.text("narr.injected"));
    }
    (lines, detail)
}

/// The plain narration of the world's latest visible step ([`narration_parts`] without the
/// detail).
pub fn narration_lines(world: &World, catalog: &Catalog) -> Vec<String> {
    narration_parts(world, catalog).0
}

/// How many characters the plain narration of the world's latest visible step has: how long playback
/// holds the step so it can be read.
pub fn narration_chars(world: &World, catalog: &Catalog) -> usize {
    narration_lines(world, catalog)
        .iter()
        .map(|l| l.chars().count())
        .sum()
}

/// The detail of a step as a disclosure ("SQL of this step"), nothing when there is none.
pub fn sql_detail_html(lines: &[String], open: bool, catalog: &Catalog) -> SafeHtml {
    if lines.is_empty() {
        return SafeHtml::default();
    }
    let body: SafeHtml = lines.iter().map(|l| el("p", "", l)).collect();
    wrap(
        "details",
        if open {
            "class=\"narr-detail\" data-testid=\"narration-detail\" open"
        } else {
            "class=\"narr-detail\" data-testid=\"narration-detail\""
        },
        &(el("summary", "", &catalog.text("ui.narr_detail")) + body),
    )
}

/// The figures that matter for the story: for payments, the money as the card statement, the
/// ledger and the processor see it; for compare-and-set the balance and version; for the
/// counter the likes.
pub fn money_html(world: &World, verdict: &Verdict, catalog: &Catalog) -> SafeHtml {
    let item = |class: &str, title: &str, value: SafeHtml| {
        wrap(
            "div",
            &format!("class=\"money-item {class}\""),
            &(el("dt", "", title) + wrap("dd", "", &value)),
        )
    };
    let l = world.ledger();
    let items = match world.scenario().story {
        Story::CompareAndSet => l
            .accounts
            .first()
            .map(|a| {
                item(
                    "statement",
                    &catalog.text("money.balance"),
                    el("span", "data-testid=\"balance\"", &a.balance.to_string()),
                ) + item(
                    "",
                    &catalog.text("money.version"),
                    SafeHtml::text(&a.version.to_string()),
                )
            })
            .unwrap_or_default(),
        Story::Counter => l
            .posts
            .first()
            .map(|p| {
                item(
                    "statement",
                    &catalog.text("money.likes"),
                    el("span", "data-testid=\"likes\"", &p.likes.to_string()),
                )
            })
            .unwrap_or_default(),
        _ => {
            let m = &verdict.money;
            let first_user = world.client().ops().first().map_or(1, |o| o.user.0);
            // Every other customer charged gets a statement of their own, so the statements
            // add up to the processor's total (review finding 10: `scope` showed one).
            let others: SafeHtml = match idem_core::Outcome::of(world).figures {
                idem_core::Figures::Charges { per_user, .. } => per_user
                    .iter()
                    .filter(|(user, _, _)| user.0 != first_user)
                    .map(|(user, _, cents)| {
                        item(
                            "statement",
                            &catalog.fill("money.statement", &[("user", user.0.to_string())]),
                            el(
                                "span",
                                "data-testid=\"statement-other\"",
                                &usd_in(*cents, catalog),
                            ),
                        )
                    })
                    .collect(),
                _ => SafeHtml::default(),
            };
            [
                item(
                    "statement",
                    &catalog.fill("money.statement", &[("user", first_user.to_string())]),
                    el(
                        "span",
                        "data-testid=\"statement-total\"",
                        &usd_in(m.statement_cents, catalog),
                    ),
                ),
                others,
                item(
                    "ledger",
                    &catalog.text("money.ledger"),
                    SafeHtml::text(&usd_in(m.ledger_cents, catalog))
                        + el(
                            "small",
                            "",
                            &catalog.fill("money.rows", &[("n", m.ledger_rows.to_string())]),
                        ),
                ),
                item(
                    "processor",
                    &catalog.text("money.processor"),
                    SafeHtml::text(
                        &catalog.fill(
                            "money.charges",
                            &[
                                ("n", m.processor_charges.to_string()),
                                (
                                    "amount",
                                    usd_in(
                                        world
                                            .processor()
                                            .statement
                                            .iter()
                                            .map(|l| l.amount_cents)
                                            .sum(),
                                        catalog,
                                    ),
                                ),
                            ],
                        ),
                    ),
                ),
            ]
            .into_iter()
            .collect()
        }
    };
    wrap("dl", "class=\"money\"", &items)
}

/// The invariants that speak about `story`: the charge stories have no balance or likes, the
/// balance and the counter no processor, ledger of charges or other user.
pub fn relevant(story: Story, invariant: Invariant) -> bool {
    use Invariant::*;
    match story {
        Story::CompareAndSet => matches!(
            invariant,
            AtMostOnce | BalanceMatchesDebits | SuccessMeansDone | UserToldTheTruth
        ),
        Story::Counter => matches!(
            invariant,
            AtMostOnce | LikesMatchOperations | SuccessMeansDone | UserToldTheTruth
        ),
        Story::NaivePost | Story::IdempotencyKey => matches!(
            invariant,
            AtMostOnce
                | LedgerMatchesProcessor
                | NoCrossUserReplay
                | SuccessMeansDone
                | UserToldTheTruth
        ),
    }
}

/// Each invariant relevant to the story with ✓, ✗ or … .
pub fn invariants_html(world: &World, verdict: &Verdict, catalog: &Catalog) -> SafeHtml {
    let story = world.scenario().story;
    verdict
        .checks
        .iter()
        .filter(|(inv, _)| relevant(story, *inv))
        .map(|(inv, status)| {
            let (class, mark) = match status {
                Status::Holds => ("holds", "✓"),
                Status::Violated(_) => ("violated", "✗"),
                Status::Pending => ("pending", "…"),
            };
            wrap(
                "li",
                &format!("class=\"{class}\""),
                &(el("span", "class=\"mark\" aria-hidden=\"true\"", mark)
                    + SafeHtml::text(&catalog.text(&format!("invariant.{}", inv.name())))),
            )
        })
        .collect()
}

/// What the verdict leaves out, from the core's facts of the run: the user is shown an error
/// (or "we couldn't confirm") for an operation that took effect. The money may be right; the
/// screen is not, and a user who believes it may do it again: pay again with a new key, debit
/// again, like again (said for the kind of the first such operation).
pub fn caveat_text(world: &World, verdict: &Verdict, catalog: &Catalog) -> Option<String> {
    let op = *verdict.error_but_done.first()?;
    let key = match crate::text::kind_of(world, op) {
        crate::text::OpKind::Charge => "verdict.error_but_done",
        crate::text::OpKind::Debit => "verdict.error_but_done.debit",
        crate::text::OpKind::Like => "verdict.error_but_done.like",
    };
    Some(catalog.text(key))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::markup::esc;
    use crate::test_support::end;
    use idem_core::Scenario;

    /// Issue 42, "Filler and order": where the Step button stops in the key story, the claim
    /// is said without "Redis answers OK" after it, and the ledger write without a statement
    /// count, while the SQL with its rows stays one tap away; a cursor inside the fold (a link
    /// may name one) says the request alone.
    #[test]
    fn a_folded_acknowledgement_adds_no_sentence() {
        let mut run = crate::playback::Run::new(Scenario::by_id("key").expect("key"));
        let lines_at = |run: &mut crate::playback::Run, cursor: usize, lang: Lang| {
            run.jump(cursor);
            narration_parts(run.world(), lang.catalog())
        };
        // Cursor 3: the claim; 4: Redis's OK folded into it; 8: the ledger's INSERT folded
        // into its write.
        for (lang, claim, write) in [
            (
                Lang::En,
                "The API claims the key atomically in Redis (SET NX): only one request may own it.",
                "The API records the charge in the ledger.",
            ),
            (
                Lang::Ru,
                "API атомарно занимает ключ в Redis (SET NX): владеть им может только один запрос.",
                "API записывает платёж в реестр.",
            ),
        ] {
            assert_eq!(
                lines_at(&mut run, 3, lang),
                (vec![claim.to_owned()], vec![])
            );
            assert_eq!(
                lines_at(&mut run, 4, lang),
                (vec![claim.to_owned()], vec![])
            );
            let (plain, detail) = lines_at(&mut run, 8, lang);
            assert_eq!(plain, vec![write.to_owned()], "{lang:?}");
            assert!(
                detail.iter().any(|l| l.contains("INSERT INTO charges")),
                "{detail:?}"
            );
            let legend = lang.catalog().text("ledger.legend");
            assert_eq!(detail.iter().filter(|l| **l == legend).count(), 1);
            // The Step button stops after the OK and after the INSERT, never before them.
            let stops = run.stops();
            assert!(!stops.is_stop(3) && stops.is_stop(4));
            assert!(!stops.is_stop(7) && stops.is_stop(8));
        }
        // No stop of any scenario says a filler sentence, in either language, but for an
        // acknowledgement that stands alone (interleaved handlers, `crate::fold::folds`).
        for scenario in Scenario::all() {
            let mut run = crate::playback::Run::new(scenario.clone());
            run.run_to_end();
            let stops = run.stops();
            for lang in Lang::ALL {
                let c = lang.catalog();
                let ok = c.text("store.ok");
                let count = c.fill("ledger.ran_plain", &[("n", "1".to_owned())]);
                let count = count.split(':').next().unwrap_or_default().to_owned();
                for cursor in (1..=run.known_steps()).filter(|i| stops.is_stop(*i)) {
                    let world = run.snapshot(cursor).expect("known");
                    let last = &world.steps()[cursor - 1];
                    if crate::fold::only_acknowledges(last)
                        && !crate::fold::folds(world.steps(), cursor - 1)
                    {
                        continue;
                    }
                    let lines = narration_lines(&world, c);
                    assert!(
                        lines.iter().all(|l| *l != ok && !l.starts_with(&count)),
                        "{} {lang:?} at {cursor}: {lines:?}",
                        scenario.id
                    );
                }
            }
        }
    }

    #[test]
    fn the_caveat_comes_from_the_run_not_the_scenario() {
        // `ttl` with the client's deadline alone: the phone gives up on a payment that went
        // through, and says it could not confirm it.
        let mut s = Scenario::by_id("ttl").expect("ttl");
        s.protections.set("deadline", true);
        let mut world = World::new(&s);
        world.run(5_000);
        for lang in [Lang::En, Lang::Ru] {
            let text = caveat_text(&world, &world.verdict(), lang.catalog())
                .expect("a caveat when the phone gave up");
            assert_eq!(text, lang.catalog().text("verdict.error_but_done"));
        }
        // The same story as scripted (no deadline): the retry charged again, the phone shows
        // success, no caveat.
        let ttl = end("ttl");
        assert_eq!(caveat_text(&ttl, &ttl.verdict(), Lang::En.catalog()), None);
        // The compare-and-set story: the 412 carries the new balance and the app shows it,
        // which is true (issue 41), so no caveat; nor in the key story (the replayed 201).
        for id in ["cas", "key"] {
            let w = end(id);
            assert_eq!(
                caveat_text(&w, &w.verdict(), Lang::En.catalog()),
                None,
                "{id}"
            );
        }
    }

    fn money(world: &World, catalog: &Catalog) -> SafeHtml {
        money_html(world, &world.verdict(), catalog)
    }

    #[test]
    fn money_shows_the_three_views_and_the_story_figure() {
        let catalog = Lang::En.catalog();
        let html = money(&end("naive"), catalog);
        assert!(
            html.contains("data-testid=\"statement-total\">$200.00<"),
            "{html}"
        );
        assert!(html.contains("2 charges · $200.00"), "{html}");
        // Defect 7: whose statement it is, and the processor's total beside its count.
        let html = money(&end("scope"), catalog);
        assert!(html.contains("Card statement, user 1"), "{html}");
        assert!(html.contains("2 charges · $200.00"), "{html}");
        let html = money(&end("cas"), catalog);
        assert!(html.contains("data-testid=\"balance\">80<"), "{html}");
        assert!(!html.contains("statement-total"), "{html}");
        let html = money(&end("counter-naive"), catalog);
        assert!(html.contains("data-testid=\"likes\">102<"), "{html}");
    }

    /// Review finding 10: `scope` showed user 1's statement beside "2 charges · $200".
    #[test]
    fn every_charged_customer_has_a_statement() {
        let c = Lang::En.catalog();
        let html = money(&end("scope"), c);
        assert!(html.contains("Card statement, user 1"), "{html}");
        assert!(html.contains("Card statement, user 2"), "{html}");
        assert!(html.contains("2 charges · $200.00"), "{html}");
        let naive = money(&end("naive"), c);
        assert!(!naive.contains("statement-other"), "{naive}");
    }

    #[test]
    fn step_zero_introduces_the_scenario() {
        let world = World::new(&Scenario::by_id("key").expect("key"));
        let lines = narration_lines(&world, Lang::En.catalog());
        assert!(lines[0].contains("K1"), "{lines:?}");
        assert_eq!(
            invariants_html(&world, &world.verdict(), Lang::En.catalog())
                .matches("<li")
                .count(),
            5
        );
    }

    #[test]
    fn only_the_story_s_invariants_are_listed() {
        let catalog = Lang::En.catalog();
        let name = |inv: Invariant| catalog.text(&format!("invariant.{}", inv.name()));
        for (id, shown) in [
            (
                "naive",
                &[
                    Invariant::AtMostOnce,
                    Invariant::LedgerMatchesProcessor,
                    Invariant::NoCrossUserReplay,
                    Invariant::SuccessMeansDone,
                    Invariant::UserToldTheTruth,
                ][..],
            ),
            (
                "cas",
                &[
                    Invariant::AtMostOnce,
                    Invariant::BalanceMatchesDebits,
                    Invariant::SuccessMeansDone,
                    Invariant::UserToldTheTruth,
                ][..],
            ),
            (
                "counter",
                &[
                    Invariant::AtMostOnce,
                    Invariant::LikesMatchOperations,
                    Invariant::SuccessMeansDone,
                    Invariant::UserToldTheTruth,
                ][..],
            ),
        ] {
            let world = end(id);
            let html = invariants_html(&world, &world.verdict(), catalog);
            assert_eq!(html.matches("<li").count(), shown.len(), "{id}: {html}");
            for inv in Invariant::ALL {
                assert_eq!(
                    html.contains(&esc(&name(inv))),
                    shown.contains(&inv),
                    "{id}: {inv:?} in {html}"
                );
            }
        }
    }
}
