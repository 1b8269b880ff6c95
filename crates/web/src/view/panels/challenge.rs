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

/// `idem:challenge` (`{ v, id, status }`, and for `solved` who did it and whether a search
/// came first) whenever the challenge being played, or its standing, changes: on the page,
/// in `?embed` and in a mounted widget (whichever provides `events`), from the same
/// [`standing`] the goal and the list show. Opening a challenge sends `open`; leaving its
/// design (another story or protections) sends `left`, so a grader can tell a later verdict
/// from the challenge's. Started by the data stream (`view/stream.rs`) from the lesson's
/// bundle.
pub fn use_challenge_events(
    lab: crate::platform::lab::Lab,
    events: crate::platform::events::Events,
) {
    use idem_lesson::stream::{challenge_payload, SolvedBy};
    let search = crate::view::panels::explorer::use_last_search();
    Effect::new(move |before: Option<Option<Played>>| {
        let before = before.flatten();
        let now = lab.run.with(|r| {
            let challenge = r.challenge().and_then(Challenge::by_id)?;
            let found = search.and_then(|LastSearch(s)| s.get());
            let searched = found.as_ref().is_some_and(|(s, ..)| s == r.scenario());
            let faults = r.link().faults;
            let standing = standing(&challenge, r.world(), found.as_ref());
            Some(match before.as_ref().filter(|b| b.id == challenge.id) {
                Some(b) => Played {
                    id: b.id,
                    standing,
                    searched: b.searched || searched,
                    moved: b.moved || b.faults != faults,
                    faults,
                },
                None => Played {
                    id: challenge.id,
                    standing,
                    searched,
                    moved: false,
                    faults,
                },
            })
        });
        let emit = |id: &str, status: &str, solved| {
            crate::platform::stream::send(
                events,
                "idem:challenge",
                &challenge_payload(id, status, solved),
            );
        };
        let before_id = before.as_ref().map(|b| b.id);
        if let Some(old) = before_id {
            if now.as_ref().map(|n| n.id) != Some(old) {
                emit(old, "left", None);
            }
        }
        if let Some(n) = &now {
            let was = before.as_ref().map(|b| (b.id, b.standing));
            if was != Some((n.id, n.standing)) {
                // Solved by the student when they changed the faults the challenge opened
                // with; else the run came solved (a shared link): only Play or a step.
                let by = if n.moved {
                    SolvedBy::Student
                } else {
                    SolvedBy::Link
                };
                let solved = (n.standing == Standing::Solved).then_some((by, n.searched));
                emit(n.id, n.standing.name(), solved);
            }
        }
        now
    });
}

/// A challenge as [`use_challenge_events`] follows it.
#[derive(Clone, PartialEq)]
struct Played {
    id: &'static str,
    standing: Standing,
    /// A search of its design had shown its results.
    searched: bool,
    /// The student changed the faults it opened with.
    moved: bool,
    faults: Vec<(u32, idem_core::Action)>,
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
