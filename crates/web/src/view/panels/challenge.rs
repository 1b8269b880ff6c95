//! "Can you break it?": the challenges (from the core's table), the one being played with its
//! budget and standing, and the solved ones kept in `localStorage` (a clear message when the
//! browser refuses storage). The core judges: its verdict decides a break, and a finished
//! "Try every failure" search within the budget that found nothing proves the design holds.

use idem_core::{Challenge, Standing};
use leptos::prelude::*;
use std::collections::BTreeMap;

use crate::platform::lab::{use_lab, use_prefs};
use crate::platform::progress::use_progress;
use crate::platform::storage;
use crate::view::panels::explorer::LastSearch;
use idem_lesson::anchors::GOAL_ANCHOR;
use idem_lesson::panels::assumptions::assumptions_html;
use idem_lesson::panels::challenge::{
    broke, detail_html, format_marks, parse_marks, shown, standing, status_text, STORAGE_KEY,
};

fn load() -> Option<BTreeMap<String, Standing>> {
    storage::get(STORAGE_KEY).map(|stored| parse_marks(&stored))
}

fn save(marks: &BTreeMap<String, Standing>) -> bool {
    storage::set(STORAGE_KEY, &format_marks(marks))
}

/// Above the player while a challenge is played: its goal, the faults used of the budget, how
/// this run stands, and the last refusal (a fault that had no effect says why here too, where
/// the student looks). The path's stories are not "on screen" then.
#[component]
pub fn ChallengeGoal() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let search = crate::view::panels::explorer::use_last_search();
    let active = Memo::new(move |_| lab.run.with(|r| r.challenge().and_then(Challenge::by_id)));
    move || {
        let c = active.get()?;
        let found = search.and_then(|LastSearch(s)| s.get());
        let (used, attempt, st, broken) = lab.run.with(|r| {
            let w = r.world();
            (
                w.injected().len(),
                Challenge::judge(&c, w),
                standing(&c, w, found.as_ref()),
                broke(&c, w),
            )
        });
        let catalog = prefs.catalog();
        let used_text = catalog.fill(
            "challenge.used",
            &[("n", used.to_string()), ("budget", c.budget.to_string())],
        );
        // A proof says what it rests on, here as in the challenge's panel.
        let assumes = (st == Standing::Impossible).then(|| {
            let html = assumptions_html(catalog);
            view! { <div class="challenge-assumes" inner_html=html></div> }
        });
        let notice = lab.notice.get().map(|notice| {
            let text = notice.text(catalog);
            view! { <p class="notice" aria-hidden="true" data-testid="challenge-notice">{text}</p> }
        });
        Some(view! {
            <section
                class="challenge-goal"
                id=GOAL_ANCHOR
                data-testid="challenge-goal"
                data-status=st.name()
                data-used=used.to_string()
                data-budget=c.budget.to_string()
                aria-label=prefs.t("challenge.goal")
            >
                <h2>{prefs.t("challenge.goal")}</h2>
                <p class="challenge-task">
                    <strong>{prefs.t(&format!("challenge.{}", c.id))}</strong>
                </p>
                <p>
                    <span data-testid="challenge-used">{used_text}</span>
                    " "
                    <span class="challenge-state">{status_text(&c, st, attempt, used, broken, catalog)}</span>
                </p>
                {assumes}
                {notice}
            </section>
        })
    }
}

/// `idem:challenge` (`{ id, status }`) whenever the challenge being played, or its standing,
/// changes: on the page, in `?embed` and in a mounted widget (whichever provides `events`),
/// from the same [`standing`] the goal and the list show. Opening a challenge sends `open`;
/// leaving its design (another story or protections) sends `left`, so a grader can tell a
/// later verdict from the challenge's.
pub fn use_challenge_events(
    lab: crate::platform::lab::Lab,
    events: crate::platform::events::Events,
) {
    let search = crate::view::panels::explorer::use_last_search();
    Effect::new(move |before: Option<Option<(&'static str, Standing)>>| {
        let now = lab.run.with(|r| {
            let challenge = r.challenge().and_then(Challenge::by_id)?;
            let found = search.and_then(|LastSearch(s)| s.get());
            Some((
                challenge.id,
                standing(&challenge, r.world(), found.as_ref()),
            ))
        });
        let emit = |id: &str, status: &str| {
            events.emit(&idem_lesson::events::LabEvent::Challenge {
                id: id.to_owned(),
                status: status.to_owned(),
            });
        };
        if let Some(Some((old, _))) = before {
            if now.map(|(id, _)| id) != Some(old) {
                emit(old, "left");
            }
        }
        match now {
            Some((id, status)) if before.as_ref() != Some(&now) => emit(id, status.name()),
            _ => {}
        }
        now
    });
}

/// The challenges panel.
#[component]
pub fn Challenges() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    // Storage is used only where the page keeps the student's progress.
    let keep = use_progress().is_some_and(|p| p.kept.get_untracked() || p.refused.get_untracked());
    let loaded = if keep { load() } else { None };
    let refused = RwSignal::new(keep && loaded.is_none());
    let marks = RwSignal::new(loaded.unwrap_or_default());
    let search = crate::view::panels::explorer::use_last_search();
    let active = Memo::new(move |_| lab.run.with(|r| r.challenge().and_then(Challenge::by_id)));
    let now = Memo::new(move |_| {
        let c = active.get()?;
        let found = search.and_then(|LastSearch(s)| s.get());
        Some(lab.run.with(|r| standing(&c, r.world(), found.as_ref())))
    });
    Effect::new(move |_| {
        let (Some(c), Some(s)) = (active.get(), now.get()) else {
            return;
        };
        if s == Standing::Open || marks.with_untracked(|m| m.get(c.id) == Some(&s)) {
            return;
        }
        marks.update(|m| {
            m.insert(c.id.to_owned(), s);
        });
        if keep && !refused.get_untracked() {
            refused.set(!marks.with_untracked(save));
        }
    });
    let status = move |id: &str| {
        let stored = marks.with(|m| m.get(id).copied());
        let current = active
            .get()
            .filter(|c| c.id == id)
            .and_then(|_| now.get())
            .unwrap_or(Standing::Open);
        shown(stored, current)
    };
    let entry = move |c: Challenge| {
        let id = c.id;
        let done = move || status(id) != Standing::Open;
        view! {
            <li>
                <button
                    type="button"
                    class="chip challenge-entry"
                    data-testid=format!("challenge-{id}")
                    data-status=move || status(id).name()
                    aria-pressed=move || active.with(|a| a.is_some_and(|a| a.id == id)).to_string()
                    on:click=move |_| {
                        lab.open(&idem_core::DeepLink::to_challenge(&c));
                        // The challenge is played above: bring its goal and the player below
                        // it into view (review finding 15: revealing the player alone hid the
                        // goal above it).
                        crate::platform::browser::reveal_next_frame(GOAL_ANCHOR);
                    }
                >
                    <span class="done-mark" aria-hidden="true">{move || if done() { "✓ " } else { "" }}</span>
                    {prefs.t(&format!("challenge.{id}"))}
                    <span class="sr-only">{move || if done() { prefs.t("challenge.done_sr") } else { String::new() }}</span>
                </button>
            </li>
        }
    };
    let detail = move || {
        let c = active.get()?;
        let (used, attempt, broken) = lab.run.with(|r| {
            let w = r.world();
            (w.injected().len(), Challenge::judge(&c, w), broke(&c, w))
        });
        let st = status(c.id);
        let html = detail_html(&c, st, attempt, used, broken, prefs.catalog());
        Some(view! {
            <div class="challenge" data-testid="challenge" data-status=st.name() inner_html=html></div>
        })
    };
    view! {
        <section class="challenges" aria-label=prefs.t("challenge.title")>
            <h2>{prefs.t("challenge.title")}</h2>
            <p class="lede">{prefs.t("challenge.intro")}</p>
            <ul class="challenge-list">{Challenge::ALL.into_iter().map(entry).collect_view()}</ul>
            <div role="status" aria-live="polite">{detail}</div>
            <Show when=move || refused.get()>
                <p class="storage-notice" data-testid="challenge-storage-notice">
                    {prefs.t("challenge.no_storage")}
                </p>
            </Show>
        </section>
    }
}
