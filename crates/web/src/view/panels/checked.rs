//! "Would have prevented it", checked: when a broken run ends, a search worker proves which
//! protection would have prevented it (a search per protection, too long for the page's main
//! thread); the run's summary shows first, and these lines follow when the worker answers,
//! with links that open a breaking schedule in the design a protection does not save. A block
//! with a heading of its own, right under "What you just saw" beside the player (one place:
//! the summary, then the claim about it); its code is the lesson bundle's (its words are the
//! panels'), the player's bundle only holds its place. Words: the lesson's `prevention_text`;
//! the check: `idem_core::check_prevention`, in `idem-worker`.
//!
//! `data-state` says `checking` while the worker works and `done` once its answer is drawn:
//! what the page's tests wait for, and what `tests/e2e/measure-prevent.mjs` times.

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
    // The run is computed to its end as soon as it is opened or a fault is placed, so whether
    // it ends broken is known before the student gets there: the check starts once they move
    // into such a run (Play, a step, "Run to end", a fault placed), and a run watched to its
    // end mostly finds its answer waiting (it is shown at the end only). Not at the start, so
    // opening the page starts no worker. Another run drops the old check and its worker;
    // stepping back keeps it (the same run, its answer hidden until the end again).
    Effect::new(move |_| {
        let want = lab.run.with(|r| {
            let end = r.end();
            (r.cursor() > 0 && end.is_quiescent() && !end.verdict().ok())
                .then(|| (end.scenario().clone(), end.injected().to_vec()))
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
    let at_end = Memo::new(move |_| lab.run.with(|r| r.at_end()));
    move || {
        let catalog = prefs.catalog();
        if !at_end.get() {
            return None;
        }
        let (key, state) = checked.get()?;
        let shown = if state == CheckState::Pending {
            "checking"
        } else {
            "done"
        };
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
        // Styled as the recap above it (`.recap`: one box per part of what the run showed).
        Some(view! {
            <section
                class="recap checked-claim"
                data-testid="checked-claim"
                data-state=shown
                aria-live="polite"
            >
                <h2>{catalog.text("sum.checked_title")}</h2>
                {items}
            </section>
        })
    }
}
