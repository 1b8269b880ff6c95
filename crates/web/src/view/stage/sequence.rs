//! The sequence diagram of the run so far: one lifeline per node and one arrow per message
//! (lost ones crossed out, those in flight dashed), in step with the cursor. Each arrow is an
//! element of its own, kept while its message stays in the run (keyed by message), with its
//! own handlers: a click, Enter or Space jumps to the step that sent it. The lifelines and
//! each arrow's drawing are markup from pure functions.

use leptos::prelude::*;

use crate::platform::lab::{use_lab, use_prefs, Lab, Prefs};
use crate::view::keyed::keyed_rows;
use idem_lesson::geometry::{row_y, seq_height, SEQ_WIDTH};
use idem_lesson::labels::ShortNames;
use idem_lesson::stage::sequence::{arrow_view, arrow_views, lifelines_svg, ArrowView};

/// The diagram.
#[component]
pub fn Sequence() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let height = move || {
        lab.run
            .with(|r| seq_height(r.world().network().messages().len()))
    };
    let lifelines = move || lab.run.with(|r| lifelines_svg(r.world(), prefs.catalog()));
    let arrows = move || lab.run.with(|r| arrow_views(r.world(), prefs.catalog()));
    // Keep the newest arrow in view: after each change, once the SVG has its new height,
    // scroll the box so the last row sits a little above its bottom edge.
    let scroller = NodeRef::<leptos::html::Div>::new();
    Effect::new(move || {
        let rows = lab.run.with(|r| r.world().network().messages().len());
        request_animation_frame(move || {
            // The page may have been drawn again (language switch) or unmounted meanwhile.
            let Some(div) = scroller.try_get_untracked().flatten() else {
                return;
            };
            let scale = f64::from(div.scroll_height()) / seq_height(rows).max(1.0);
            let target =
                row_y(rows.saturating_sub(1)) * scale - f64::from(div.client_height()) * 0.7;
            div.set_scroll_top(target.max(0.0) as i32);
        });
    });
    view! {
        <section class="sequence">
            <h2>{prefs.t("ui.sequence")}</h2>
            <p class="hint">{prefs.t("ui.sequence_hint")}</p>
            <p class="hint narrow-only" data-testid="sequence-scroll">{prefs.t("ui.sequence_scroll")}</p>
            <div
                class="sequence-scroll"
                node_ref=scroller
                tabindex="0"
                role="region"
                aria-label=prefs.t("ui.sequence")
            >
                <svg
                    class="sequence-svg"
                    viewBox=move || format!("0 0 {} {}", SEQ_WIDTH as u32, height() as u32)
                    data-testid="sequence"
                    role="group"
                    aria-label=prefs.t("ui.sequence")
                >
                    <g inner_html=lifelines></g>
                    {keyed_rows(
                        arrows,
                        |a: &ArrowView| (a.id, a.jump, a.aria.clone()),
                        move |a| arrow(lab, prefs, a),
                    )}
                </svg>
            </div>
        </section>
    }
}

/// One arrow: an element for as long as its message is in the run shown. Its look follows the
/// message (in flight, delivered, lost, sent by the current step); a click, Enter or Space
/// jumps to the step that sent it (the arrow stays, and so does the focus). It reads only the
/// run, which changes on every step (see crate::view::keyed on why a row must not subscribe to
/// what hardly ever changes); the page is drawn again when the language changes.
fn arrow(lab: Lab, prefs: Prefs, a: ArrowView) -> impl IntoView {
    let ArrowView {
        id,
        jump,
        step,
        aria,
        ..
    } = a;
    let catalog = prefs.lang.get_untracked().catalog();
    let now = move || {
        lab.run.with(|r| {
            let world = r.world();
            let row = world.network().messages().iter().position(|m| m.id.0 == id);
            row.and_then(|row| arrow_view(world, &ShortNames::of(world), row, catalog))
                .map(|a| (a.class, a.body))
                .unwrap_or_default()
        })
    };
    let look = Memo::new(move |_| now());
    let on_key = move |e: leptos::ev::KeyboardEvent| {
        if matches!(e.key().as_str(), "Enter" | " ") {
            e.prevent_default();
            lab.jump(jump);
        }
    };
    view! {
        <g
            class=move || look.with(|l| l.0.clone())
            data-testid="seq-arrow"
            data-msg-id=id
            // What the counter will say once pressed (visible steps; `jump` counts the core's).
            data-jump=step
            role="button"
            tabindex="0"
            aria-label=aria
            on:click=move |_| lab.jump(jump)
            on:keydown=on_key
            inner_html=move || look.with(|l| l.1.clone())
        ></g>
    }
}
