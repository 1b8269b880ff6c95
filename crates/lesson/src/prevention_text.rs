//! "Would have prevented it" in words, from the core's checked claim ([`Prevention`]): what
//! is proved and how far (k faults of the run's kinds, or this schedule only), the run's faults
//! that cannot happen in another design, and the protections a replay of this schedule alone
//! would have credited but the search refutes, each with a link that opens the breaking
//! schedule in that design. The check runs in the search worker; the summary is shown first
//! and these lines follow when it answers ([`checking_text`] meanwhile).

use idem_core::{Action, Claim, ClaimAnswer, ClaimScope, DeepLink, Prevention, Scenario};

use crate::i18n::Catalog;
use crate::outcome_text::alternatives;
use crate::panels::explorer::{class_words, counterexample_link, kinds_text};

/// One sentence of the checked claim, and the link it ends with, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedLine {
    /// The sentence (plain text).
    pub text: String,
    /// The link's words and where it goes: the breaking schedule in that design.
    pub link: Option<(String, DeepLink)>,
}

/// What the summary says while the check runs.
pub fn checking_text(catalog: &Catalog) -> String {
    catalog.text("sum.checking")
}

/// The claims of `p` about the run of `scenario` (the run's own scenario, as played) in words:
/// what prevents it (or that nothing single nor paired is proved to), then each fault that
/// cannot happen in another design, then each protection this schedule alone would have
/// credited that does not stop the run's kinds of fault, with its breaking schedule.
pub fn checked_lines(p: &Prevention, scenario: &Scenario, catalog: &Catalog) -> Vec<CheckedLine> {
    let plain = |text: String| CheckedLine { text, link: None };
    let mut out = Vec::new();
    let k = p.faults.to_string();
    let kinds = kinds_text(&p.kinds, catalog);
    let proved: Vec<Vec<&str>> = p
        .preventing()
        .into_iter()
        .map(|c| c.protections.iter().map(|x| x.name()).collect())
        .collect();
    let protections = alternatives(&proved, &catalog.text("sum.or"), catalog);
    let key = match (p.scope, proved.is_empty(), p.faults) {
        (ClaimScope::Searched, false, 0) => "sum.proved_fault_free",
        (ClaimScope::Searched, false, _) => "sum.proved",
        (ClaimScope::Searched, true, _) => "sum.unproved",
        (ClaimScope::ThisScheduleOnly, false, _) => "sum.proved_schedule",
        (ClaimScope::ThisScheduleOnly, true, _) => "sum.unproved_schedule",
    };
    out.push(plain(catalog.fill(
        key,
        &[("protections", protections), ("k", k), ("kinds", kinds)],
    )));
    for claim in &p.singles {
        for action in &claim.absent {
            let (key, phase) = match action {
                Action::Crash(phase) => ("sum.absent_crash", phase),
                Action::Pause(phase) => ("sum.absent_pause", phase),
                _ => continue,
            };
            out.push(plain(catalog.fill(
                key,
                &[
                    ("protection", name(claim, catalog)),
                    (
                        "phase",
                        crate::labels::phase_in(*phase, scenario.story, catalog),
                    ),
                ],
            )));
        }
    }
    for claim in p.singles.iter().filter(|c| c.holds_this_schedule) {
        let ClaimAnswer::Breaks(cx) = &claim.answer else {
            continue;
        };
        let design = claim.design(scenario);
        let words = class_words(cx, &design.clone().without_scripted_faults(), catalog);
        out.push(CheckedLine {
            text: catalog.fill("sum.not_stopped", &[("protection", name(claim, catalog))]),
            link: Some((
                words,
                counterexample_link(&scenario.id, design.protections, cx),
            )),
        });
    }
    out
}

/// The claim's protections by name ("“Key in the ledger transaction”").
fn name(claim: &Claim, catalog: &Catalog) -> String {
    let names: Vec<&str> = claim.protections.iter().map(|p| p.name()).collect();
    alternatives(&[names], "", catalog)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use idem_core::check_prevention;

    fn lines(id: &str, lang: Lang) -> Vec<CheckedLine> {
        let s = Scenario::by_id(id).expect("known");
        checked_lines(&check_prevention(&s, &[]), &s, lang.catalog())
    }

    #[test]
    fn crash_window_names_the_phase_that_design_lacks_and_credits_forwarding_only() {
        let en = lines("crash-window", Lang::En);
        assert!(en[0].text.contains("Forward key to processor"), "{en:?}");
        assert!(!en[0].text.contains("ledger transaction"), "{en:?}");
        assert!(en[0].text.contains("1 fault"), "{en:?}");
        let absent = &en[1].text;
        assert!(
            absent.contains("has no") && absent.contains("cannot happen there"),
            "{en:?}"
        );
        // The replay alone credited the key in the transaction: the page corrects it, with the
        // schedule that still charges twice there.
        let refuted: Vec<&CheckedLine> = en.iter().filter(|l| l.link.is_some()).collect();
        assert_eq!(refuted.len(), 1, "{en:?}");
        assert!(refuted[0].text.contains("does not stop it"), "{en:?}");
        let (_, link) = refuted[0].link.as_ref().expect("a link");
        let p = link.protections.expect("the design's switches");
        assert!(p.key_in_ledger_tx && link.base && !link.faults.is_empty());
        let design = link.scenario().expect("it opens");
        assert!(
            !design.scripted_faults,
            "the design's operations, the schedule's faults"
        );
        let mut end = idem_core::World::replay(&design, &link.faults, 5_000).expect("replays");
        end.run(5_000);
        assert!(!end.verdict().ok(), "it breaks that design");
        let ru = lines("crash-window", Lang::Ru);
        assert_eq!(ru.len(), en.len());
        for line in &ru {
            assert!(!line.text.contains("sum."), "{ru:?}");
            assert!(
                line.text.chars().any(|c| ('а'..='я').contains(&c)),
                "{ru:?}"
            );
        }
    }

    #[test]
    fn lease_2_says_the_key_in_the_transaction_does_not_stop_a_stale_holder() {
        // The challenge's run: the explorer's pause and Retry on its design.
        let design = idem_core::Challenge::by_id("lease-2")
            .and_then(|c| c.design())
            .expect("lease-2");
        let report = idem_core::Explorer::new(&design, idem_core::Bounds::faults(2))
            .run_to_end()
            .clone();
        let cx = report
            .shortest
            .iter()
            .find(|c| c.uses("pause") && c.uses("retry"))
            .expect("a pause and a Retry break it");
        let p = check_prevention(&design, &cx.injected);
        for lang in [Lang::En, Lang::Ru] {
            let l = checked_lines(&p, &design, lang.catalog());
            let refuted: Vec<&CheckedLine> = l.iter().filter(|l| l.link.is_some()).collect();
            assert!(!refuted.is_empty(), "{l:?}");
            let catalog = lang.catalog();
            let same_tx = catalog.text("protect.same-tx");
            assert!(refuted.iter().any(|r| r.text.contains(&same_tx)), "{l:?}");
            assert!(!l[0].text.contains(&same_tx), "not credited: {l:?}");
            assert!(
                l[0].text.contains(&catalog.text("protect.forward")),
                "{l:?}"
            );
            assert!(l[0].text.contains(&catalog.text("kind.pause")), "{l:?}");
        }
    }

    #[test]
    fn a_run_of_more_than_three_faults_says_it_checked_this_schedule_only() {
        let s = Scenario::by_id("key")
            .expect("key")
            .without_scripted_faults();
        let mut world = idem_core::World::new(&s);
        world.step();
        for _ in 0..4 {
            world.apply(Action::LoseNextAck).expect("armed");
        }
        let p = check_prevention(&s, world.injected());
        for (lang, words) in [
            (Lang::En, "this schedule only"),
            (Lang::Ru, "только это расписание"),
        ] {
            let l = checked_lines(&p, &s, lang.catalog());
            assert!(l[0].text.contains(words), "{l:?}");
            assert!(l[0].text.contains('4'), "{l:?}");
        }
    }
}
