//! Compare mode (`?scenario=naive&compare=key`): the run's world and the one beside it on one
//! timeline (the core's `Pair`), each drawn by the usual topology and summary, one playback bar
//! for both, and a line that says what differs. The "Compare with…" choice on the normal page
//! opens it.
//!
//! The right side is the same lab seen from the other world ([`Lab::side`]): the actions, the
//! clock and the language are shared, so a fault reaches both worlds at the same moment.

use idem_core::compare::Gist;
use idem_core::scenario::compare_with;
use idem_core::{DeepLink, Story, World};
use leptos::prelude::*;

use crate::i18n::Catalog;
use crate::lab::{use_lab, Lab};
use crate::later::{later_here, LaterPart};
use crate::panels::controls::Controls;
use crate::stage::topology::Topology;

/// One side's gist in words ("charged 2 times", "the retry got the stored answer").
pub fn gist_words(gist: &Gist, story: Story, catalog: &Catalog) -> String {
    if !gist.quiescent {
        return catalog.text("gist.running");
    }
    if gist.effects > 1 {
        let key = match story {
            Story::CompareAndSet => "gist.times.cas",
            Story::Counter => "gist.times.counter",
            Story::NaivePost | Story::IdempotencyKey => "gist.times.pay",
        };
        return catalog.fill(key, &[("n", gist.effects.to_string())]);
    }
    if let Some(invariant) = gist.broken {
        let name = catalog.text(&format!("invariant.{}", invariant.name()));
        return catalog.fill("gist.broken", &[("invariant", name)]);
    }
    let key = if gist.replayed {
        "gist.replayed"
    } else if gist.error && gist.effects == 1 {
        "gist.once_error"
    } else if gist.error {
        "gist.error"
    } else if gist.effects == 1 {
        "gist.once"
    } else {
        "gist.none"
    };
    catalog.text(key)
}

/// The line under the two stages: what each side amounts to, or that both agree.
pub fn difference_line(left: &World, right: &World, catalog: &Catalog) -> String {
    let story = left.scenario().story;
    let (l, r) = (Gist::of(left), Gist::of(right));
    let (lw, rw) = (
        gist_words(&l, story, catalog),
        gist_words(&r, story, catalog),
    );
    if lw == rw {
        catalog.fill("compare.same", &[("both", lw)])
    } else {
        catalog.fill("compare.diff", &[("left", lw), ("right", rw)])
    }
}

/// The layout the two sides of a comparison are drawn in (tall, half the width each). The
/// page makes it, so it outlives compare mode: a side's parts may still read it as they go.
#[derive(Clone, Copy)]
pub struct CompareLayout(pub ReadSignal<crate::stage::geometry::Layout>);

/// One side: its scenario's title, its topology, and its verdict and money.
#[component]
fn Side(lab: Lab, testid: &'static str, label: &'static str) -> impl IntoView {
    // Half the width each: both drawings are drawn tall, so their words stay readable.
    let mut lab = lab;
    if let Some(CompareLayout(tall)) = use_context::<CompareLayout>() {
        lab.layout = tall;
    }
    provide_context(lab);
    let title = move || {
        let id = lab.run.with(|r| r.shown(lab.side).scenario().id.clone());
        format!(
            "{} · {}",
            lab.t(label),
            lab.t(&format!("scenario.{id}.title"))
        )
    };
    view! {
        <div class="compare-side" data-testid=testid role="group" aria-label=title>
            <h3 class="compare-name">{title}</h3>
            <Topology/>
            {later_here(LaterPart::Summary)}
        </div>
    }
}

/// The two stages, the difference line and the shared playback bar. `right` is the lab seen
/// from the right side ([`Lab::side`]), made by the page so it outlives a change of mode.
#[component]
pub fn CompareStage(#[prop(optional)] id: Option<&'static str>, right: Lab) -> impl IntoView {
    let lab = use_lab();
    let difference = move || {
        lab.run.with(|r| {
            r.pair()
                .map(|p| difference_line(p.left(), p.right(), lab.catalog()))
                .unwrap_or_default()
        })
    };
    let leave = move |_| {
        let mut link = lab.run.with_untracked(|r| r.link());
        link.compare = None;
        link.faults.clear();
        link.step = None;
        lab.open(&link);
    };
    view! {
        <section class="stage compare" id=id aria-label=lab.t("compare.title")>
            <div class="compare-head">
                <h2>{lab.t("compare.title")}</h2>
                <p class="hint">{lab.t("compare.hint")}</p>
            </div>
            <div class="compare-sides">
                <Side lab=lab testid="compare-left" label="compare.left"/>
                <Side lab=right testid="compare-right" label="compare.right"/>
            </div>
            <p class="compare-diff" data-testid="compare-diff" role="status" aria-live="polite">
                {difference}
            </p>
            <Controls/>
            <button type="button" class="ghost" data-testid="compare-leave" on:click=leave>
                {lab.t("compare.leave")}
            </button>
        </section>
    }
}

/// "Compare with…": the designs of the same story the run on screen can be shown beside.
#[component]
pub fn CompareWith() -> impl IntoView {
    let lab = use_lab();
    let current = Memo::new(move |_| lab.run.with(|r| r.scenario().id.clone()));
    let partners = move || current.with(|id| compare_with(id));
    let on_change = move |e: leptos::ev::Event| {
        let other = event_target_value(&e);
        let id = current.get_untracked();
        if !compare_with(&id).contains(&other.as_str()) {
            return;
        }
        let mut link = DeepLink::to_scenario(&id);
        link.base = lab.run.with_untracked(|r| r.link().base);
        link.compare = Some(other);
        lab.open(&link);
        // The two stages replace the player, far above this picker: show them (review
        // finding 15: the student was left at the glossary).
        crate::browser::reveal_next_frame(crate::panels::path::PLAYER_ANCHOR);
    };
    view! {
        <Show when=move || !partners().is_empty()>
            <label class="field compare-with">
                <span>{lab.t("compare.with")}</span>
                <select data-testid="compare-with" on:change=on_change>
                    <option value="" selected>{lab.t("compare.pick")}</option>
                    {move || {
                        partners()
                            .into_iter()
                            .map(|p| {
                                view! {
                                    <option value=p>{lab.t(&format!("scenario.{p}.title"))}</option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
            </label>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use idem_core::{Pair, Scenario};

    fn ended(a: &str, b: &str) -> Pair {
        let mut pair = Pair::new(
            &Scenario::by_id(a).expect("left"),
            &Scenario::by_id(b).expect("right"),
        );
        while pair.step() {}
        pair
    }

    #[test]
    fn the_difference_line_reads_from_the_core_facts() {
        let pair = ended("naive", "key");
        let en = difference_line(pair.left(), pair.right(), Lang::En.catalog());
        assert_eq!(
            en,
            "Left: charged 2 times; right: the retry got the stored answer."
        );
        let ru = difference_line(pair.left(), pair.right(), Lang::Ru.catalog());
        assert_eq!(
            ru,
            "Слева: деньги списаны 2 раза; справа: повтор получил сохранённый ответ."
        );
        let pair = ended("counter-naive", "counter");
        let en = difference_line(pair.left(), pair.right(), Lang::En.catalog());
        assert!(
            en.starts_with("Left: counted the like 2 times; right: "),
            "{en}"
        );
        let start = Pair::new(
            &Scenario::by_id("cas-naive").expect("left"),
            &Scenario::by_id("cas").expect("right"),
        );
        assert_eq!(
            difference_line(start.left(), start.right(), Lang::En.catalog()),
            "Both sides: still running."
        );
    }

    /// Review finding 5: "right: the user was shown an error" left out that the account was
    /// debited once.
    #[test]
    fn an_error_after_one_debit_says_the_debit_happened() {
        let pair = ended("cas-naive", "cas");
        let en = difference_line(pair.left(), pair.right(), Lang::En.catalog());
        assert_eq!(
            en,
            "Left: debited 2 times; right: done once, but the user was shown an error."
        );
        let ru = difference_line(pair.left(), pair.right(), Lang::Ru.catalog());
        assert!(
            ru.ends_with("выполнено один раз, но пользователь увидел ошибку."),
            "{ru}"
        );
    }
}
