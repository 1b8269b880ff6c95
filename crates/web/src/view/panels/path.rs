//! The student's path through the lesson: the definition and "start here" on the first
//! screen, the seed stories in order with a done mark each (kept in `localStorage`), the
//! count of stories done, "Next story →" at the end of a run, a closing summary after the
//! last story, and the other mechanics grouped by theme as "advanced".
//!
//! The rules (what counts as done, which story comes next, how the marks are stored) are pure
//! functions tested natively; the components only read and write signals.

use std::collections::BTreeSet;

use idem_core::Scenario;
use leptos::prelude::*;

use crate::platform::lab::{use_lab, use_prefs, Lab, Prefs};
use crate::platform::progress::{use_progress, Progress};
use idem_lesson::anchors::{start_anchor, PLAYER_ANCHOR};
use idem_lesson::i18n::Catalog;
use idem_lesson::playback::Run;
use idem_lesson::progress::{
    after_run, next_unfinished, progress_text, runs_done, story_number, AfterRun, LEARNED, THEMES,
};

/// "Done: n of 5", with the count in `data-done` and the number of runs in `data-total`: one
/// per story button (1, 2, 3, 4a, 4b), so the count and the ✓ marks agree.
#[component]
fn ProgressLine() -> impl IntoView {
    let prefs = use_prefs();
    let progress = use_progress();
    let count = move || progress.map_or(0, |p| p.done.with(runs_done));
    let total = Scenario::seed_ids().len();
    let text = move || progress_line(progress, prefs.catalog());
    let unkept = move || progress.is_some_and(|p| p.refused.get());
    view! {
        <p class="lesson-progress" data-testid="lesson-progress" data-done=move || count().to_string() data-total=total>
            {text}
        </p>
        <Show when=unkept>
            <p class="storage-notice" data-testid="storage-notice">{prefs.t("path.no_storage")}</p>
        </Show>
    }
}

/// "Done: n of 5" for the stored progress (none kept: none done).
fn progress_line(progress: Option<Progress>, catalog: &Catalog) -> String {
    progress.map_or_else(
        || progress_text(&BTreeSet::new(), catalog),
        |p| p.done.with(|d| progress_text(d, catalog)),
    )
}

/// The story the picker marks as on screen: none in a challenge, which has its own goal.
fn story_on_screen(run: &Run) -> String {
    if run.challenge().is_some() {
        String::new()
    } else {
        run.scenario().id.clone()
    }
}

/// The first screen: what "idempotent" means and where to start: story 1 ("Start here") until
/// a run is done, then the next run not done ("Go on", `next_unfinished`), nothing once all are
/// done.
#[component]
pub fn Welcome() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let progress = use_progress();
    let target = Memo::new(move |_| match progress {
        Some(p) => p.done.with(next_unfinished),
        None => Scenario::seed_ids().first().copied(),
    });
    let link = move || {
        let id = target.get()?;
        let started = progress.is_some_and(|p| p.done.with(|d| !d.is_empty()));
        let label = if !started {
            prefs.t("path.start")
        } else {
            let title = prefs.t(&format!("scenario.{id}.title"));
            prefs
                .catalog()
                .fill("path.go_on", &[("n", story_number(&title).to_owned())])
        };
        Some(view! {
            <a
                class="start-here"
                data-testid="start-here"
                data-target=id
                href=move || format!("#{}", start_anchor(prefs.layout.get()))
                on:click=move |_| lab.switch(id)
            >
                {label}
            </a>
        })
    };
    view! {
        <section class="welcome" aria-label=prefs.t("path.welcome")>
            <p class="definition" data-testid="definition">
                <dfn>{prefs.t("path.term")}</dfn>
                {prefs.t("path.definition")}
            </p>
            <div class="welcome-actions">{link}</div>
        </section>
    }
}

/// One scenario button of the picker: pressed while on screen, marked when done.
fn pick(lab: Lab, prefs: Prefs, current: Memo<String>, id: &'static str) -> impl IntoView {
    let progress = use_progress();
    let done = move || progress.is_some_and(|p| p.is_done(id));
    let button = NodeRef::<leptos::html::Button>::new();
    // The phone's story row scrolls sideways: keep the story on screen in view inside it
    // (the row only; the page does not move). Measured at the next frame, when the page is
    // laid out anyway: measuring at once would lay out the page inside the task that draws
    // it, which makes that task long. Also when it is marked done: the mark widens it.
    Effect::new(move |_| {
        let _marked = done();
        if current.with(|c| c == id) {
            if let Some(b) = button.get() {
                request_animation_frame(move || show_in_row(&b));
            }
        }
    });
    view! {
        <button
            node_ref=button
            type="button"
            class="chip"
            data-testid=format!("scenario-{id}")
            data-done=move || done().to_string()
            aria-pressed=move || (current.with(|c| c == id)).to_string()
            on:click=move |_| lab.switch(id)
        >
            <span class="done-mark" aria-hidden="true">{move || if done() { "✓ " } else { "" }}</span>
            {prefs.t(&format!("scenario.{id}.title"))}
            <span class="sr-only">{move || if done() { prefs.t("path.done_sr") } else { String::new() }}</span>
        </button>
    }
}

/// Scrolls the row holding `chip` sideways so that `chip` is inside it.
fn show_in_row(chip: &leptos::web_sys::HtmlButtonElement) {
    let Some(row) = chip.parent_element() else {
        return;
    };
    let (c, r) = (
        chip.get_bounding_client_rect(),
        row.get_bounding_client_rect(),
    );
    if c.left() < r.left() || c.right() > r.right() {
        let by = c.left() - r.left() - 8.0;
        row.set_scroll_left(row.scroll_left() + by as i32);
    }
}

/// The stories' place on the page until the picker's code is here (the player's bundle): the
/// picker's frame, heading, progress line, story titles and folded mechanics, with the picker's
/// own classes, so it has the picker's size at every width and in both languages, and nothing
/// moves when the picker takes its place. Nothing in it can be pressed (`inert`, disabled) or
/// is read out (`aria-hidden`): the picker itself comes a moment later.
#[component]
pub fn StoriesBox() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let progress = use_progress();
    let current = lab.run.with_untracked(story_on_screen);
    let done = |id: &str| progress.is_some_and(|p| p.is_done(id));
    let line = progress_line(progress, prefs.catalog());
    let stories = Scenario::seed_ids()
        .iter()
        .map(|id| {
            view! {
                <button type="button" class="chip" disabled aria-pressed=(current == *id).to_string()>
                    <span class="done-mark">{if done(id) { "✓ " } else { "" }}</span>
                    {prefs.t(&format!("scenario.{id}.title"))}
                </button>
            }
        })
        .collect_view();
    view! {
        <nav class="scenarios path shell-stories" aria-hidden="true" inert data-testid="stories-box">
            <div class="group">
                <div class="path-head">
                    <h2 class="group-title">{prefs.t("group.stories")}</h2>
                    <p class="lesson-progress">{line}</p>
                </div>
                <div class="chips stories">{stories}</div>
                <p class="hint narrow-only stories-scroll">{prefs.t("path.swipe")}</p>
            </div>
            <details class="group more">
                <summary class="group-title">{prefs.t("group.mechanics")}</summary>
            </details>
        </nav>
    }
}

/// The scenario picker: the stories in order, then the other mechanics by theme, folded
/// as "advanced" (open while one of them is on screen).
#[component]
pub fn StoryPicker() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let current = Memo::new(move |_| lab.run.with(story_on_screen));
    let is_mechanic = move || current.with(|id| !id.is_empty() && !Scenario::is_seed(id));
    let stories = Scenario::seed_ids()
        .iter()
        .map(|id| pick(lab, prefs, current, id))
        .collect_view();
    // The folded mechanics come with the page's `Summary` slice (slices.rs), unless they are open
    // at once: drawn with the rest of the picker, their chips would lengthen its task while
    // hidden, and no task should block the page long.
    let open_at_start = untrack(is_mechanic);
    let themes = move || {
        (open_at_start || crate::view::slices::drawn(crate::view::slices::Slice::Summary)).then(|| {
            untrack(|| THEMES
                .iter()
                .map(|(key, ids)| {
                    view! {
                        <div class="theme">
                            <h3 class="theme-title">{prefs.t(key)}</h3>
                            <div class="chips">{ids.iter().map(|id| pick(lab, prefs, current, id)).collect_view()}</div>
                        </div>
                    }
                })
                .collect_view()
                .into_any())
        })
    };
    view! {
        <nav class="scenarios path" aria-label=prefs.t("group.stories")>
            <div class="group">
                <div class="path-head">
                    <h2 class="group-title">{prefs.t("group.stories")}</h2>
                    <ProgressLine/>
                </div>
                <div class="chips stories">{stories}</div>
                // On a phone the row scrolls sideways (its far end fades): said in words too,
                // as the sequence diagram says it (issue 42, item 7).
                <p class="hint narrow-only stories-scroll" data-testid="stories-scroll">{prefs.t("path.swipe")}</p>
            </div>
            <details class="group more" prop:open=is_mechanic>
                <summary class="group-title">{prefs.t("group.mechanics")}</summary>
                <p class="advanced-hint">{prefs.t("path.advanced_hint")}</p>
                {themes}
            </details>
        </nav>
    }
}

/// At the end of a run: "Next story →", or after the last story the closing summary.
#[component]
pub fn AfterRunPanel() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let after = Memo::new(move |_| {
        lab.run
            .with(|r| (r.at_end() && r.challenge().is_none()).then(|| after_run(&r.scenario().id)))
    });
    move || match after.get() {
        Some(AfterRun::Next(next)) => {
            let title = prefs.t(&format!("scenario.{next}.title"));
            let label = prefs.t("path.next");
            Some(
                view! {
                    <div class="after-run">
                        <button
                            type="button"
                            class="primary next-story"
                            data-testid="next-story"
                            on:click=move |_| {
                                lab.switch(next);
                                // The button goes with the run it ended: the focus goes to the
                                // player, which shows the next story from its start.
                                crate::platform::browser::reveal_and_focus(PLAYER_ANCHOR);
                            }
                        >
                            {label}
                        </button>
                        <span class="next-title" data-testid="next-title">{title}</span>
                    </div>
                }
                .into_any(),
            )
        }
        Some(AfterRun::Finished) => {
            let points = LEARNED
                .iter()
                .map(|key| view! { <li>{prefs.t(key)}</li> })
                .collect_view();
            Some(
                view! {
                    <section class="after-run closing" data-testid="closing">
                        <h2>{prefs.t("path.closing_title")}</h2>
                        <ol>{points}</ol>
                        <p>{prefs.t("path.closing_next")}</p>
                        <crate::view::panels::quiz::Quiz/>
                    </section>
                }
                .into_any(),
            )
        }
        _ => None,
    }
}
