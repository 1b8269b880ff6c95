//! "Would have prevented it", checked: when a broken run ends, a search worker proves which
//! protection would have prevented it (a search per protection, too long for the page's main
//! thread); the run's summary shows first, and these lines follow when the worker answers,
//! with links that open a breaking schedule in the design a protection does not save. Drawn
//! with the lesson's later parts (its words are the panels'). Words: the lesson's
//! `prevention_text`; the check: `idem_core::check_prevention`, in `idem-worker`.

use leptos::prelude::*;

use crate::platform::lab::{use_lab, use_prefs};
use idem_core::{Action, Prevention, Scenario};
use idem_lesson::prevention_text::{checked_lines, checking_text, CheckedLine};

/// Which run the check is for (its scenario and injected actions) and what is known.
type Checked = Option<((Scenario, Vec<(u32, Action)>), CheckState)>;

/// The check of a broken run's claim, asked of a search worker.
#[derive(Clone, Debug, PartialEq)]
enum CheckState {
    /// Asked; the panel says it is being checked.
    Pending,
    /// No worker could answer: nothing is said rather than a guess.
    Failed,
    /// The answer.
    Done(Prevention),
}

/// The checked claim about the run that just ended (nothing while it runs or when it held).
#[component]
pub fn CheckedClaim() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let checked = RwSignal::new(None as Checked);
    let check = StoredValue::new_local(None::<crate::platform::search::prevent::Check>);
    // A new run (or a step back from the end) drops the old check and its worker.
    Effect::new(move |_| {
        let want = lab.run.with(|r| {
            let w = r.world();
            (r.at_end() && w.is_quiescent() && !lab.verdict.with(|v| v.ok()))
                .then(|| (w.scenario().clone(), w.injected().to_vec()))
        });
        if checked.with_untracked(|c| c.as_ref().map(|(k, _)| k) == want.as_ref()) {
            return;
        }
        check.set_value(None);
        let Some(key) = want else {
            checked.set(None);
            return;
        };
        checked.set(Some((key.clone(), CheckState::Pending)));
        let asked = key.clone();
        let started = crate::platform::search::prevent::start(&key.0, &key.1, move |answer| {
            checked.update(|c| {
                if let Some((_, state)) = c.as_mut().filter(|(k, _)| *k == asked) {
                    *state = answer.map_or(CheckState::Failed, CheckState::Done);
                }
            });
        });
        check.set_value(started);
    });
    move || {
        let catalog = prefs.catalog();
        let (key, state) = checked.get()?;
        let lines = match state {
            CheckState::Pending => vec![CheckedLine {
                text: checking_text(catalog),
                link: None,
            }],
            CheckState::Failed => return None,
            CheckState::Done(p) => checked_lines(&p, &key.0, catalog),
        };
        let items = lines
            .into_iter()
            .map(|line| {
                let link = line.link.map(|(words, link)| {
                    let href = format!("?{}", link.to_query());
                    view! {
                        " "
                        <a
                            href=href
                            data-testid="checked-claim-link"
                            on:click=move |ev| {
                                ev.prevent_default();
                                if lab.open(&link) {
                                    crate::platform::browser::reveal(
                                        idem_lesson::anchors::PLAYER_ANCHOR,
                                    );
                                }
                            }
                        >
                            {words}
                        </a>
                    }
                });
                view! { <p data-testid="checked-claim-line">{line.text}{link}</p> }
            })
            .collect_view();
        Some(view! {
            <div class="checked-claim" data-testid="checked-claim" aria-live="polite">
                {items}
            </div>
        })
    }
}
