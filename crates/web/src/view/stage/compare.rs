//! Compare mode (`?scenario=naive&compare=key`): the run's world and the one beside it on one
//! timeline (the core's `Pair`), each drawn by the usual topology and summary, one playback bar
//! for both, and a line that says what differs. The "Compare with…" choice on the normal page
//! opens it.
//!
//! The right side is the same lab seen from the other world ([`Lab::side`]): the actions, the
//! clock and the language are shared, so a fault reaches both worlds at the same moment.

use idem_core::DeepLink;
use idem_core::Scenario;
use leptos::prelude::*;

use crate::platform::lab::{use_lab, use_prefs, Lab};
use crate::view::later::{later_here, LaterPart};
use crate::view::panels::controls::Controls;
use crate::view::stage::topology::Topology;
use idem_lesson::stage::compare::{difference_line, scripted_line};

/// The layout the two sides of a comparison are drawn in (tall, half the width each). The
/// page makes it, so it outlives compare mode: a side's parts may still read it as they go.
#[derive(Clone, Copy)]
pub struct CompareLayout(pub ReadSignal<idem_lesson::geometry::Layout>);

/// The lab seen from the right side of a comparison ([`Lab::side`]), made by the page so it
/// outlives a change of mode; the page's compare stage (a part drawn later, bundles.rs) takes it
/// from here.
#[derive(Clone, Copy)]
pub struct CompareRight(pub Lab);

/// One side: its scenario's title, its topology, and its verdict and money.
#[component]
fn Side(lab: Lab, testid: &'static str, label: &'static str) -> impl IntoView {
    // Half the width each: both drawings are drawn tall, so their words stay readable.
    let mut prefs = use_prefs();
    let CompareLayout(tall) = crate::platform::place::required("App");
    prefs.layout = tall;
    provide_context(prefs);
    provide_context(lab);
    let title = move || {
        let id = lab.run.with(|r| r.shown(lab.side).scenario().id.clone());
        format!(
            "{} · {}",
            prefs.t(label),
            prefs.t(&format!("scenario.{id}.title"))
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
    let prefs = use_prefs();
    let difference = move || {
        lab.run.with(|r| {
            r.pair()
                .map(|p| difference_line(p.left(), p.right(), prefs.catalog()))
                .unwrap_or_default()
        })
    };
    let scripted = move || {
        lab.run.with(|r| {
            r.pair()
                .map(|p| scripted_line(p.left().scenario(), p.right().scenario(), prefs.catalog()))
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
        <section class="stage compare" id=id aria-label=prefs.t("compare.title")>
            <div class="compare-head">
                <h2>{prefs.t("compare.title")}</h2>
                <p class="hint">{prefs.t("compare.hint")}</p>
                <p class="hint" data-testid="compare-scripted">{scripted}</p>
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
                {prefs.t("compare.leave")}
            </button>
        </section>
    }
}

/// "Compare with…": the designs of the same story the run on screen can be shown beside.
#[component]
pub fn CompareWith() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let current = Memo::new(move |_| lab.run.with(|r| r.scenario().id.clone()));
    let partners = move || current.with(|id| Scenario::compare_with(id));
    let on_change = move |e: leptos::ev::Event| {
        let other = event_target_value(&e);
        let id = current.get_untracked();
        if !Scenario::compare_with(&id).contains(&other.as_str()) {
            return;
        }
        let mut link = DeepLink::to_scenario(&id);
        link.base = lab.run.with_untracked(|r| r.link().base);
        link.compare = Some(other);
        lab.open(&link);
        // The two stages replace the player, far above this picker: show them (review
        // finding 15: the student was left at the glossary).
        crate::platform::browser::reveal_next_frame(idem_lesson::anchors::PLAYER_ANCHOR);
    };
    view! {
        <Show when=move || !partners().is_empty()>
            <label class="field compare-with">
                <span>{prefs.t("compare.with")}</span>
                <select data-testid="compare-with" on:change=on_change>
                    <option value="" selected>{prefs.t("compare.pick")}</option>
                    {move || {
                        partners()
                            .into_iter()
                            .map(|p| {
                                view! {
                                    <option value=p>{prefs.t(&format!("scenario.{p}.title"))}</option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
            </label>
        </Show>
    }
}
