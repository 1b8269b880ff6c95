//! A course author's exercise in a widget (issue 43, item 1): the parts under the player of a
//! full widget, of a challenge and of an exercise, read from `mount`'s options (kept by
//! `api::mounted_exercise`) or from a `?embed` link (`idem_lesson::exercise::from_query`).
//!
//! Drawn from the lesson's bundle, so the checks and every part here cost the first screen
//! nothing: a bad option rejects the handle's `ready()` with the words of today's options and
//! is said in the widget. The exercise is held, not only drawn: a guard on the run puts back
//! any change the exercise does not allow (a locked switch, a story not offered, a fault of a
//! kind not offered or past the budget, from a button, a key or a packet on the stage) and
//! says why.

use idem_core::{DeepLink, Protections};
use idem_lesson::exercise::{self, Exercise, Tool, WidgetPart};
use leptos::prelude::*;

use crate::platform::browser::location_query;
use crate::platform::events::use_events;
use crate::platform::exercise::ExerciseRules;
use crate::platform::lab::{use_lab, use_prefs, Lab};
use crate::view::embed::commands::{download_picture, download_picture_png};
use crate::view::embed::{given, manual_mount};
use crate::view::later::{later_here, LaterPart};
use crate::view::panels::controls::ProtectionBar;
use crate::view::panels::explorer::TryEveryFailure;
use crate::view::panels::faults::Faults;
use crate::view::stage::sequence::Sequence;
use crate::view::stage::state_panels::StatePanels;

/// The exercise of the widget whose root is `root`: `mount`'s options for a mounted widget
/// (its `ready()` checks them the same way, embed/commands.rs), else, in the `?embed` page,
/// the link's.
fn read(root: &leptos::web_sys::Element, page: bool) -> Result<Exercise, String> {
    if let Some(entries) = root.parent_element().and_then(|h| given::get(&h)) {
        return exercise::from_entries(entries).map_err(|e| e.message());
    }
    // A link's bad parameters are said in the link notice (host.rs), the rest kept.
    Ok(if page {
        exercise::from_query(&location_query()).0
    } else {
        Exercise::default()
    })
}

/// What a run may be, by the exercise: the design and faults the guard last let through.
#[derive(Clone)]
struct Held {
    /// The run as it last was (its link's query), to go back to.
    query: String,
    /// The scenario and its locked switches' reference (a story changes them).
    scenario: String,
    protections: Protections,
    /// The faults the start state placed (not the student's).
    placed: usize,
}

/// Why the run (`link`, with the design's switches `now`) breaks the exercise against `held`,
/// as a catalog key; `None` when it does not.
fn refusal(
    rules: &Exercise,
    held: &Held,
    link: &DeepLink,
    now: Protections,
) -> Option<&'static str> {
    if rules
        .stories
        .as_ref()
        .is_some_and(|s| !s.contains(&link.scenario.as_str()))
    {
        return Some("exercise.story_off");
    }
    let same = link.scenario == held.scenario;
    if same
        && idem_core::Protection::ALL
            .into_iter()
            .any(|p| !rules.may_flip(p) && now.is_on(p) != held.protections.is_on(p))
    {
        return Some("exercise.locked");
    }
    // The student's faults: those after the ones the run started with.
    let placed = if same { held.placed } else { 0 };
    let own = link.faults.get(placed..).unwrap_or_default();
    if own
        .iter()
        .any(|(_, a)| a.kind().is_some_and(|k| !rules.offers(k)))
    {
        return Some("exercise.kind_off");
    }
    rules
        .budget
        .is_some_and(|b| own.len() > b as usize)
        .then_some("exercise.over_budget")
}

/// Keeps the run within the exercise: a change it does not allow is put back and explained.
fn guard(lab: Lab, rules: RwSignal<Exercise>) {
    let held = StoredValue::new(None::<Held>);
    Effect::new(move |_| {
        let rules = rules.get();
        let (link, now) = lab.run.with(|r| (r.link(), r.scenario().protections));
        if !rules.is_set() {
            return;
        }
        let query = link.to_query();
        let last = held.get_value();
        if let Some(last) = last.as_ref().filter(|h| h.query != query) {
            if let Some(key) = refusal(&rules, last, &link, now) {
                if let Ok(back) = DeepLink::parse(&last.query) {
                    lab.open(&back);
                }
                lab.say(key);
                return;
            }
        }
        // The reference moves with an allowed change; a new story brings its own switches,
        // and the faults a run started with are not the student's.
        let next = match last {
            Some(h) if h.scenario == link.scenario => Held { query, ..h },
            Some(_) => Held {
                scenario: link.scenario,
                protections: now,
                placed: 0,
                query,
            },
            None => Held {
                placed: link.faults.len(),
                scenario: link.scenario,
                protections: now,
                query,
            },
        };
        held.set_value(Some(next));
    });
}

/// The parts under a widget's player. `full`: a widget mounted with `compact: false` (or with
/// an exercise), which shows every part the exercise does not hide; else a compact widget, which
/// shows them only for an exercise of its link, and a challenge's fault menu.
#[component]
pub fn ExerciseParts(full: bool) -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let rules = RwSignal::new(Exercise::default());
    provide_context(ExerciseRules(rules));
    let read_out = RwSignal::new(None::<Result<(), String>>);
    let root = use_events().root();
    // Read once the widget's root is in the page (its host tells a mounted widget's options).
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) {
            return true;
        }
        let Some(root) = root.get() else {
            return false;
        };
        // A widget on a page that mounts none itself is the `?embed` page (host.rs says so too).
        match read(&root, !manual_mount()) {
            Ok(checked) => {
                let start = checked.start(lab.run.with_untracked(|r| r.link()));
                if let Some(link) = start {
                    lab.open(&link);
                }
                rules.set(checked);
                read_out.set(Some(Ok(())));
            }
            Err(message) => read_out.set(Some(Err(message))),
        }
        true
    });
    guard(lab, rules);
    let challenge = lab.run.with_untracked(|r| r.challenge().is_some());
    move || {
        let outcome = read_out.get()?;
        if let Err(message) = outcome {
            return Some(
                view! { <p class="embed-error" role="alert" data-testid="embed-error">{message}</p> }
                    .into_any(),
            );
        }
        let rules_now = rules.get_untracked();
        if !(full || challenge || rules_now.is_set()) {
            return None;
        }
        let shows = |part| rules_now.shows(part);
        let designs = !challenge || rules_now.allows(Tool::Designs);
        let search = !challenge || rules_now.allows(Tool::Search);
        let diagrams = full || !challenge;
        let stories = (designs && shows(WidgetPart::Stories)).then(|| match &rules_now.stories {
            Some(ids) => story_list(lab, prefs, ids.clone()).into_any(),
            None => later_here(LaterPart::Picker).into_any(),
        });
        let budget = rules_now.budget.map(|budget| {
            // The student's faults: those after the ones the exercise started with.
            let placed = lab.run.with_untracked(|r| r.link().faults.len());
            let used = move || {
                lab.run
                    .with(|r| format!("{}", r.link().faults.len().saturating_sub(placed)))
            };
            view! {
                <p class="exercise-budget" data-testid="exercise-used" data-budget=format!("{budget}")>
                    {move || prefs.catalog().fill("challenge.used", &[("n", used()), ("budget", format!("{budget}"))])}
                </p>
            }
        });
        Some(
            view! {
                <div class="exercise" data-testid="exercise" data-exercise=if rules_now.is_set() { "true" } else { "false" }>
                    {stories}
                    {(designs && shows(WidgetPart::Protections)).then(|| view! { <ProtectionBar/> })}
                    {budget}
                    {shows(WidgetPart::FaultMenu).then(|| view! { <Faults/> })}
                    {(search && shows(WidgetPart::Explorer)).then(|| view! { <TryEveryFailure/> })}
                    {(diagrams && shows(WidgetPart::Panels)).then(|| view! { <StatePanels/> })}
                    {(diagrams && shows(WidgetPart::SequenceDiagram)).then(|| view! { <Sequence/> })}
                    // The picture a host gets from `picture()` (embed/commands.rs), for a student.
                    <p class="picture">
                        <button
                            type="button"
                            class="secondary"
                            data-testid="download-picture"
                            on:click=move |_| {
                                if let Some(root) = root.get_untracked() {
                                    download_picture(&root);
                                }
                            }
                        >
                            {prefs.t("ui.download_picture")}
                        </button>
                        " "
                        <button
                            type="button"
                            class="secondary"
                            data-testid="download-picture-png"
                            on:click=move |_| {
                                if let Some(root) = root.get_untracked() {
                                    download_picture_png(&root);
                                }
                            }
                        >
                            {prefs.t("ui.download_picture_png")}
                        </button>
                    </p>
                </div>
            }
            .into_any(),
        )
    }
}

/// The stories an exercise offers, as chips that open each.
fn story_list(
    lab: Lab,
    prefs: crate::platform::lab::Prefs,
    ids: Vec<&'static str>,
) -> impl IntoView {
    let chips = ids
        .into_iter()
        .map(|id| {
            view! {
                <button
                    type="button"
                    class="chip"
                    data-testid=format!("scenario-{id}")
                    aria-pressed=move || if lab.run.with(|r| r.scenario().id == id) { "true" } else { "false" }
                    on:click=move |_| lab.switch(id)
                >
                    {prefs.t(&format!("scenario.{id}.title"))}
                </button>
            }
        })
        .collect_view();
    view! {
        <nav class="scenarios path" aria-label=prefs.t("group.stories")>
            <div class="chips stories">{chips}</div>
        </nav>
    }
}
