//! The student's path through the lesson: the definition and "start here" on the first
//! screen, the seed stories in order with a done mark each (kept in `localStorage`), the
//! count of stories done, "Next story →" at the end of a run, a closing summary after the
//! last story, and the other mechanics grouped by theme as "advanced".
//!
//! The rules (what counts as done, which story comes next, how the marks are stored) are pure
//! functions tested natively; the components only read and write signals.

use std::collections::BTreeSet;

use idem_core::scenario::{is_seed, seed_ids, IDS};
use idem_core::World;
use leptos::prelude::*;

use crate::lab::{use_lab, Lab};
use crate::stage::geometry::Layout;

/// The `localStorage` key that holds the finished scenarios.
pub const STORAGE_KEY: &str = "idem-lab.done";

/// The id of the prediction, where "start here" leads on a phone (the player is taller than
/// the screen there).
pub const PREDICT_ANCHOR: &str = "predict";
/// The id of the player, where "start here" leads on a wide screen (the prediction sits right
/// under it, so both are in view).
pub const PLAYER_ANCHOR: &str = "player";

/// Where "start here" leads for a layout.
pub fn start_anchor(layout: Layout) -> &'static str {
    match layout {
        Layout::Wide => PLAYER_ANCHOR,
        Layout::Tall => PREDICT_ANCHOR,
    }
}

/// What the closing summary says was learned, one point per story.
pub const LEARNED: [&str; 4] = [
    "path.learned_1",
    "path.learned_2",
    "path.learned_3",
    "path.learned_4",
];

/// The other mechanics, grouped by theme: (catalog key of the theme, scenario ids).
pub const THEMES: [(&str, &[&str]); 4] = [
    (
        "theme.keys",
        &[
            "missing-key",
            "key-reuse",
            "key-reuse-no-fingerprint",
            "scope",
            "scope-off",
        ],
    ),
    (
        "theme.races",
        &["concurrent", "concurrent-no-lock", "cas-race"],
    ),
    (
        "theme.failures",
        &[
            "ttl",
            "evict",
            "crash-window",
            "crash-no-forward",
            "crash-one-tx",
            "lease-expiry",
            "lease-fencing",
        ],
    ),
    (
        "theme.guards",
        &["cas-naive", "counter-no-index", "fully-protected"],
    ),
];

/// The finished scenarios read from their stored form (ids separated by commas); unknown
/// ids and stray spaces are dropped, so an old or tampered value cannot break the page.
pub fn parse_done(stored: &str) -> BTreeSet<String> {
    // Inserted one by one (`extend`), not `collect`ed: `collect` sorts its input first, and
    // that sort is ~4 KB of wasm for one set of a dozen names.
    let mut done = BTreeSet::new();
    done.extend(
        stored
            .split(',')
            .map(str::trim)
            .filter(|id| IDS.contains(id))
            .map(str::to_owned),
    );
    done
}

/// The stored form of the finished scenarios.
pub fn format_done(done: &BTreeSet<String>) -> String {
    done.iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(",")
}

/// The seed stories as the path counts them, each with its runs in order: stories 1 to 3 have
/// one run, story 4 two (4a without and 4b with the op_id).
pub fn stories() -> Vec<Vec<&'static str>> {
    let mut groups: Vec<(Option<idem_core::Story>, Vec<&'static str>)> = Vec::new();
    for id in seed_ids() {
        let story = idem_core::Scenario::by_id(id).ok().map(|s| s.story);
        match groups.last_mut() {
            Some((last, runs)) if *last == story => runs.push(id),
            _ => groups.push((story, vec![id])),
        }
    }
    groups.into_iter().map(|(_, runs)| runs).collect()
}

/// How many of the seed stories are done (a story is done when all its runs are).
pub fn stories_done(done: &BTreeSet<String>) -> usize {
    stories()
        .iter()
        .filter(|runs| runs.iter().all(|id| done.contains(*id)))
        .count()
}

/// The first seed run not done yet, where "start here" leads (`None` once all are done).
pub fn first_unfinished(done: &BTreeSet<String>) -> Option<&'static str> {
    seed_ids().iter().copied().find(|id| !done.contains(*id))
}

/// The story after `id` on the path, if `id` is a seed story and not the last one.
pub fn next_story(id: &str) -> Option<&'static str> {
    let ids = seed_ids();
    let at = ids.iter().position(|s| *s == id)?;
    ids.get(at + 1).copied()
}

/// What the page offers when a run of `id` has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterRun {
    /// Go on to this story.
    Next(&'static str),
    /// The last story: the closing summary and the advanced mechanics.
    Finished,
    /// A mechanic outside the path: nothing to add.
    Nothing,
}

/// What comes after a finished run of `id`.
pub fn after_run(id: &str) -> AfterRun {
    match next_story(id) {
        Some(next) => AfterRun::Next(next),
        None if is_seed(id) => AfterRun::Finished,
        None => AfterRun::Nothing,
    }
}

/// The short number of a seed story as its title shows it ("1", "4a"), for "Next story".
pub fn story_number(title: &str) -> &str {
    title.split(" · ").next().unwrap_or(title)
}

/// `localStorage`, reached through reflection (no extra web-sys feature); `None` when the
/// browser refuses it (private mode, blocked cookies) or it is missing.
pub(crate) fn storage() -> Option<wasm_bindgen::JsValue> {
    use leptos::web_sys::js_sys::Reflect;
    let storage = Reflect::get(&window(), &"localStorage".into()).ok()?;
    (!storage.is_null() && !storage.is_undefined()).then_some(storage)
}

pub(crate) fn call(
    storage: &wasm_bindgen::JsValue,
    method: &str,
    args: &[&str],
) -> Option<wasm_bindgen::JsValue> {
    use leptos::wasm_bindgen::JsCast;
    use leptos::web_sys::js_sys::{Array, Function, Reflect};
    let function = Reflect::get(storage, &method.into())
        .ok()?
        .dyn_into::<Function>()
        .ok()?;
    let args: Array = args
        .iter()
        .map(|a| wasm_bindgen::JsValue::from_str(a))
        .collect();
    Reflect::apply(&function, storage, &args).ok()
}

/// The marks as stored when the page opened (`None` when storage cannot be used), read ahead
/// of [`provide_progress`] when the page reads them in an earlier task (main.rs, #10: the
/// first use of the browser's storage waits for it). Kept as stored, read by `provide_progress`.
pub struct Stored(Option<String>);

impl Stored {
    /// Reads the stored marks.
    pub fn read() -> Stored {
        Stored(storage().and_then(|storage| {
            let value = call(&storage, "getItem", &[STORAGE_KEY])?;
            Some(value.as_string().unwrap_or_default())
        }))
    }
}

/// Stores the marks; false when storage refused.
fn save(done: &BTreeSet<String>) -> bool {
    storage()
        .and_then(|s| call(&s, "setItem", &[STORAGE_KEY, &format_done(done)]))
        .is_some()
}

/// The student's progress, shared by the picker, the first screen and the end of a run.
#[derive(Clone, Copy)]
pub struct Progress {
    /// The finished scenarios.
    pub done: RwSignal<BTreeSet<String>>,
    /// The marks are kept across visits (storage works and is used).
    pub kept: RwSignal<bool>,
    /// The page asked for storage and the browser refused it: say so.
    pub refused: RwSignal<bool>,
}

impl Progress {
    /// Whether `id` is done (tracked).
    pub fn is_done(&self, id: &str) -> bool {
        self.done.with(|d| d.contains(id))
    }
}

/// Loads the marks, provides them as context and marks a scenario done whenever its run
/// reaches the end. `keep` is false for tests and embeddings that must not touch storage.
pub fn provide_progress(lab: Lab, keep: bool, stored: Option<Stored>) -> Progress {
    let loaded = if keep {
        stored
            .unwrap_or_else(Stored::read)
            .0
            .map(|s| parse_done(&s))
    } else {
        None
    };
    let progress = Progress {
        kept: RwSignal::new(keep && loaded.is_some()),
        refused: RwSignal::new(keep && loaded.is_none()),
        done: RwSignal::new(loaded.unwrap_or_default()),
    };
    provide_context(progress);
    Effect::new(move |_| {
        // A challenge replays a story without its faults, and a run changed by the student's
        // own faults or switches tells another story: finishing either is not the story.
        let Some(id) = lab.run.with(|r| {
            (r.at_end() && r.challenge().is_none() && tells_the_story(r.world()))
                .then(|| r.scenario().id.clone())
        }) else {
            return;
        };
        if progress.done.with_untracked(|d| d.contains(&id)) {
            return;
        }
        progress.done.update(|d| {
            d.insert(id);
        });
        if progress.kept.get_untracked() {
            let saved = progress.done.with_untracked(save);
            progress.kept.set(saved);
            progress.refused.set(!saved);
        }
    });
    progress
}

/// Whether `world` is its story as written: the scenario's own design and scripted faults,
/// nothing the student added (a dropped packet, a switched protection, the base run).
pub fn tells_the_story(world: &World) -> bool {
    world.injected().is_empty()
        && idem_core::Scenario::by_id(&world.scenario().id).is_ok_and(|s| s == *world.scenario())
}

/// The progress of the page, if it keeps one.
pub fn use_progress() -> Option<Progress> {
    use_context::<Progress>()
}

/// The run's label as its chip shows it: the part of the title before " · " ("4a").
fn run_label(id: &str, catalog: &crate::i18n::Catalog) -> String {
    let title = catalog.text(&format!("scenario.{id}.title"));
    title.split(" · ").next().unwrap_or(&title).to_owned()
}

/// "Stories done: 0 of 4", and for a story whose runs are partly done which ones are
/// ("story 4: 4a done, 4b to go"), so a ticked 4a beside "0 of 4" reads true.
pub fn progress_text(done: &BTreeSet<String>, catalog: &crate::i18n::Catalog) -> String {
    let all = stories();
    let mut text = catalog.fill(
        "path.progress",
        &[
            ("n", stories_done(done).to_string()),
            ("total", all.len().to_string()),
        ],
    );
    for (i, runs) in all.iter().enumerate() {
        let (finished, left): (Vec<&str>, Vec<&str>) =
            runs.iter().partition(|id| done.contains(**id));
        if !finished.is_empty() && !left.is_empty() {
            let names = |ids: &[&str]| {
                ids.iter()
                    .map(|id| run_label(id, catalog))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            text.push_str(&catalog.fill(
                "path.progress_part",
                &[
                    ("story", (i + 1).to_string()),
                    ("done", names(&finished)),
                    ("left", names(&left)),
                ],
            ));
        }
    }
    text
}

/// "Stories done: n of 4", with the count in `data-done` and the number of stories in
/// `data-total` (story 4 counts once, when both its runs are done).
#[component]
fn ProgressLine() -> impl IntoView {
    let lab = use_lab();
    let progress = use_progress();
    let count = move || progress.map_or(0, |p| p.done.with(stories_done));
    let total = stories().len();
    let text = move || {
        progress.map_or_else(
            || progress_text(&BTreeSet::new(), lab.catalog()),
            |p| p.done.with(|d| progress_text(d, lab.catalog())),
        )
    };
    let unkept = move || progress.is_some_and(|p| p.refused.get());
    view! {
        <p class="lesson-progress" data-testid="lesson-progress" data-done=move || count().to_string() data-total=total>
            {text}
        </p>
        <Show when=unkept>
            <p class="storage-notice" data-testid="storage-notice">{lab.t("path.no_storage")}</p>
        </Show>
    }
}

/// The first screen: what "idempotent" means and where to start: story 1, then the first
/// story not done yet ("Go on"), nothing once all are done.
#[component]
pub fn Welcome() -> impl IntoView {
    let lab = use_lab();
    let progress = use_progress();
    let target = Memo::new(move |_| match progress {
        Some(p) => p.done.with(first_unfinished),
        None => seed_ids().first().copied(),
    });
    let link = move || {
        let id = target.get()?;
        let label = if id == seed_ids()[0] {
            lab.t("path.start")
        } else {
            let title = lab.t(&format!("scenario.{id}.title"));
            lab.catalog()
                .fill("path.go_on", &[("n", story_number(&title).to_owned())])
        };
        Some(view! {
            <a
                class="start-here"
                data-testid="start-here"
                data-target=id
                href=move || format!("#{}", start_anchor(lab.layout.get()))
                on:click=move |_| lab.switch(id)
            >
                {label}
            </a>
        })
    };
    view! {
        <section class="welcome" aria-label=lab.t("path.welcome")>
            <p class="definition" data-testid="definition">
                <dfn>{lab.t("path.term")}</dfn>
                {lab.t("path.definition")}
            </p>
            <div class="welcome-actions">{link}</div>
        </section>
    }
}

/// One scenario button of the picker: pressed while on screen, marked when done.
fn pick(lab: Lab, current: Memo<String>, id: &'static str) -> impl IntoView {
    let progress = use_progress();
    let done = move || progress.is_some_and(|p| p.is_done(id));
    let button = NodeRef::<leptos::html::Button>::new();
    // The phone's story row scrolls sideways: keep the story on screen in view inside it
    // (the row only; the page does not move). Measured at the next frame, when the page is
    // laid out anyway: measuring at once would lay out the page inside the task that draws
    // it, which makes that task long (#10). Also when it is marked done: the mark widens it.
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
            {lab.t(&format!("scenario.{id}.title"))}
            <span class="sr-only">{move || if done() { lab.t("path.done_sr") } else { String::new() }}</span>
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

/// The scenario picker: the stories in order, then the other mechanics by theme, folded
/// as "advanced" (open while one of them is on screen).
#[component]
pub fn StoryPicker() -> impl IntoView {
    let lab = use_lab();
    // In a challenge no story of the path is "on screen": the challenge has its own goal.
    let current = Memo::new(move |_| {
        lab.run.with(|r| {
            if r.challenge().is_some() {
                String::new()
            } else {
                r.scenario().id.clone()
            }
        })
    });
    let is_mechanic = move || current.with(|id| !id.is_empty() && !is_seed(id));
    let stories = seed_ids()
        .iter()
        .map(|id| pick(lab, current, id))
        .collect_view();
    // The folded mechanics come with the page's third slice (app.rs), unless they are open
    // at once: drawn in the mounting task, their chips would lengthen it while hidden (#10).
    let open_at_start = untrack(is_mechanic);
    let themes = move || {
        (open_at_start || crate::app::drawn(2)).then(|| {
            untrack(|| THEMES
                .iter()
                .map(|(key, ids)| {
                    view! {
                        <div class="theme">
                            <h3 class="theme-title">{lab.t(key)}</h3>
                            <div class="chips">{ids.iter().map(|id| pick(lab, current, id)).collect_view()}</div>
                        </div>
                    }
                })
                .collect_view()
                .into_any())
        })
    };
    view! {
        <nav class="scenarios path" aria-label=lab.t("group.stories")>
            <div class="group">
                <div class="path-head">
                    <h2 class="group-title">{lab.t("group.stories")}</h2>
                    <ProgressLine/>
                </div>
                <div class="chips stories">{stories}</div>
            </div>
            <details class="group more" prop:open=is_mechanic>
                <summary class="group-title">{lab.t("group.mechanics")}</summary>
                <p class="advanced-hint">{lab.t("path.advanced_hint")}</p>
                {themes}
            </details>
        </nav>
    }
}

/// At the end of a run: "Next story →", or after the last story the closing summary.
#[component]
pub fn AfterRunPanel() -> impl IntoView {
    let lab = use_lab();
    let after = Memo::new(move |_| {
        lab.run
            .with(|r| (r.at_end() && r.challenge().is_none()).then(|| after_run(&r.scenario().id)))
    });
    move || match after.get() {
        Some(AfterRun::Next(next)) => {
            let title = lab.t(&format!("scenario.{next}.title"));
            let label = lab.t("path.next");
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
                                crate::browser::reveal_and_focus(PLAYER_ANCHOR);
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
                .map(|key| view! { <li>{lab.t(key)}</li> })
                .collect_view();
            Some(
                view! {
                    <section class="after-run closing" data-testid="closing">
                        <h2>{lab.t("path.closing_title")}</h2>
                        <ol>{points}</ol>
                        <p>{lab.t("path.closing_next")}</p>
                        <crate::panels::quiz::Quiz/>
                    </section>
                }
                .into_any(),
            )
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use idem_core::scenario::mechanic_ids;

    #[test]
    fn marks_survive_their_stored_form_and_junk_is_dropped() {
        let done = parse_done("key, naive,bogus,,counter");
        assert_eq!(format_done(&done), "counter,key,naive");
        assert_eq!(parse_done(&format_done(&done)), done);
        assert!(parse_done("").is_empty());
        // counter without counter-naive: story 4 is not done yet.
        assert_eq!(stories_done(&done), 2);
        assert_eq!(stories_done(&parse_done("counter-naive,counter")), 1);
        assert_eq!(stories_done(&parse_done("ttl,scope")), 0);
        assert_eq!(stories().len(), 4);
        assert_eq!(stories()[3], ["counter-naive", "counter"]);
        assert_eq!(first_unfinished(&done), Some("cas"));
        assert_eq!(first_unfinished(&parse_done("")), Some("naive"));
        let all: BTreeSet<String> = seed_ids().iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(first_unfinished(&all), None);
        assert_eq!(stories_done(&all), 4);
    }

    #[test]
    fn the_path_goes_through_the_seed_stories_in_order() {
        let ids = seed_ids();
        assert_eq!(ids[0], "naive");
        for pair in ids.windows(2) {
            assert_eq!(after_run(pair[0]), AfterRun::Next(pair[1]));
        }
        assert_eq!(after_run(ids[ids.len() - 1]), AfterRun::Finished);
        assert_eq!(after_run("ttl"), AfterRun::Nothing);
        assert_eq!(next_story("nonsense"), None);
    }

    #[test]
    fn every_mechanic_sits_in_exactly_one_theme() {
        let mut grouped: Vec<&str> = THEMES
            .iter()
            .flat_map(|(_, ids)| ids.iter().copied())
            .collect();
        grouped.sort_unstable();
        let mut all = mechanic_ids().to_vec();
        all.sort_unstable();
        assert_eq!(grouped, all);
    }

    #[test]
    fn titles_do_not_clash_with_the_story_numbers() {
        for lang in Lang::ALL {
            let catalog = lang.catalog();
            let numbers: Vec<String> = seed_ids()
                .iter()
                .map(|id| story_number(&catalog.text(&format!("scenario.{id}.title"))).to_owned())
                .collect();
            assert_eq!(numbers, ["1", "2", "3", "4a", "4b"], "{lang:?}");
            for id in mechanic_ids() {
                let title = catalog.text(&format!("scenario.{id}.title"));
                assert!(!title.contains(" · "), "{lang:?} {id}: {title}");
            }
            for (key, _) in THEMES {
                assert!(catalog.get(key).is_some(), "{lang:?} {key}");
            }
        }
    }

    #[test]
    fn the_progress_line_counts_in_both_languages() {
        let en = Lang::En.catalog();
        let ru = Lang::Ru.catalog();
        let line = |c: &crate::i18n::Catalog, n: usize| {
            c.fill(
                "path.progress",
                &[("n", n.to_string()), ("total", "5".into())],
            )
        };
        assert_eq!(line(en, 1), "Stories done: 1 of 5");
        assert_eq!(line(ru, 3), "Пройдено историй: 3 из 5");
        assert_eq!(en.text("path.next"), "Next story →");
    }

    /// Review finding 16: story 1 was marked done after a dropped packet changed the run.
    #[test]
    fn only_the_story_as_written_finishes_it() {
        use idem_core::{Action, Scenario};
        let naive = Scenario::by_id("naive").expect("naive");
        let mut world = World::new(&naive);
        world.run(1_000);
        assert!(tells_the_story(&world));
        let mut changed = World::new(&naive);
        while changed.network().in_flight().all(|m| !m.is_faultable()) {
            assert!(changed.step().is_some());
        }
        let first = changed
            .network()
            .in_flight()
            .find(|m| m.is_faultable())
            .map(|m| m.id);
        changed
            .apply(Action::Drop(first.expect("in flight")))
            .expect("dropped");
        assert!(!tells_the_story(&changed));
        let mut keyed = naive.clone();
        keyed.protections.idempotency_key = true;
        assert!(!tells_the_story(&World::new(&keyed)));
        assert!(!tells_the_story(&World::new(
            &naive.clone().without_scripted_faults()
        )));
    }

    /// Review finding 16: "Stories done: 0 of 4" beside a ticked 4a.
    #[test]
    fn a_half_done_story_says_which_run_is_done() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            let none = progress_text(&BTreeSet::new(), c);
            assert_eq!(
                none,
                c.fill("path.progress", &[("n", "0".into()), ("total", "4".into())])
            );
            let half: BTreeSet<String> = ["counter-naive".to_owned()].into();
            let text = progress_text(&half, c);
            assert!(text.starts_with(&none), "{text}");
            assert!(text.contains("4a") && text.contains("4b"), "{text}");
            let both: BTreeSet<String> = ["counter-naive".to_owned(), "counter".to_owned()].into();
            assert_eq!(
                progress_text(&both, c),
                c.fill("path.progress", &[("n", "1".into()), ("total", "4".into())])
            );
        }
    }
}
