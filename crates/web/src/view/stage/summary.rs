//! What the step means: the verdict badge (from the core's invariants), the money as three
//! parties see it, the narration of the current step (an ARIA live region), and the list of
//! invariants the core checks.

use leptos::prelude::*;

use crate::platform::lab::{use_clock, use_lab, use_prefs};
use idem_lesson::markup::el;
use idem_lesson::stage::summary::{
    caveat_text, invariants_html, money_html, narration_parts, sql_detail_html,
};
use idem_lesson::text::{badge_for, badge_text};

/// Verdict, money and narration; `children` (the page's prediction and recap) go between the
/// money and the narration.
#[component]
pub fn Summary(#[prop(optional)] children: Option<Children>) -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let clock = use_clock();
    let badge = Memo::new(move |_| {
        lab.verdict
            .with(|v| lab.run.with(|r| badge_for(r.shown(lab.side), v)))
    });
    let class = move || {
        if badge.with(|b| b.ok) {
            "ok"
        } else {
            "violated"
        }
    };
    let money = move || {
        lab.verdict.with(|v| {
            lab.run
                .with(|r| money_html(r.shown(lab.side), v, prefs.catalog()))
        })
    };
    let invariants = move || {
        lab.verdict.with(|v| {
            lab.run
                .with(|r| invariants_html(r.shown(lab.side), v, prefs.catalog()))
        })
    };
    // The page has a glossary to link to; a widget has none.
    let links = crate::platform::lab::use_place() == crate::platform::place::Place::Page;
    // The step told once, for its plain lines and its detail; told again when the panels'
    // texts are here (the first screen's slice is drawn after them), which hold a mechanic's
    // intro: a link straight to `lease-expiry` showed only its title at step 0 (issue 42).
    let told = Memo::new(move |_| {
        let _texts = links && crate::view::slices::drawn(crate::view::slices::FIRST_SCREEN);
        lab.run
            .with(|r| narration_parts(r.shown(lab.side), prefs.catalog()))
    });
    let narration = move || {
        told.with(|(lines, _)| {
            if links {
                idem_lesson::panels::glossary::linked_lines(lines, prefs.catalog())
            } else {
                lines.iter().map(|line| el("p", "", line)).collect()
            }
        })
    };
    // Opened once, the SQL stays open from step to step (the markup is drawn anew each step).
    let sql_open = RwSignal::new(false);
    let on_sql = move |ev: leptos::ev::MouseEvent| {
        let summary = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<leptos::web_sys::Element>(t).ok())
            .is_some_and(|e| e.tag_name() == "SUMMARY");
        if summary {
            sql_open.update(|open| *open = !*open);
        }
    };
    // Untracked: the <details> opens and closes itself; redrawing it on the toggle would
    // replace the focused <summary> (focus would fall to the page). The next step's detail is
    // drawn open or closed as the student left it.
    let detail = move || {
        let open = sql_open.get_untracked();
        told.with(|(_, detail)| sql_detail_html(detail, open, prefs.catalog()))
    };
    let skipped = move || {
        clock
            .skipped
            .get()
            .map(|ms| {
                el(
                    "p",
                    "class=\"skipped\" data-testid=\"skipped\"",
                    &prefs.catalog().fill(
                        "ui.skipped",
                        &[(
                            "time",
                            idem_lesson::labels::duration_in(ms, prefs.catalog()),
                        )],
                    ),
                )
            })
            .unwrap_or_default()
    };
    let paused = move || {
        clock.paused_at_key.get().then(|| {
            view! {
                <p class="skipped paused" data-testid="paused-key">{prefs.t("ui.paused_key_moment")}</p>
            }
        })
    };
    let caveat = move || {
        let shown = lab.side;
        lab.verdict
            .with(|v| lab.run.with(|r| caveat_text(r.shown(shown), v, prefs.catalog())))
            .map(|text| {
            view! {
                <p class="verdict-caveat" data-testid="verdict-caveat" data-caveat="error-but-done">
                    {text}
                </p>
            }
        })
    };
    view! {
        <aside class="summary">
            <div class="verdict-box">
                <div class=move || format!("verdict {}", class()) data-testid="verdict" data-verdict=class>
                    <span class="verdict-icon" aria-hidden="true">
                        {move || if badge.with(|b| b.ok) { "✓" } else { "!" }}
                    </span>
                    <span class="verdict-text" aria-live="polite" data-testid="verdict-text">{move || badge.with(|b| badge_text(b, prefs.catalog()))}</span>
                </div>
                {caveat}
            </div>
            <div class="money-box" inner_html=money></div>
            {children.map(|c| c())}
            <section class="narration-box">
                <h2>{prefs.t("ui.what_happened")}</h2>
                <div class="narration" data-testid="narration" aria-live="polite" role="status" inner_html=narration></div>
                // Who is speaking (and, on the page, a glossary term's box), from the lesson's
                // bundle; a widget draws its parts at once.
                {move || {
                    crate::view::slices::drawn(crate::view::slices::FIRST_SCREEN)
                        .then(|| crate::view::later::later_here(crate::view::later::LaterPart::TermPop))
                }}
                <div inner_html=detail on:click=on_sql></div>
                <div inner_html=skipped></div>
                {paused}
            </section>
            <details class="invariants">
                <summary>{prefs.t("ui.invariants")}</summary>
                <ul inner_html=invariants></ul>
            </details>
        </aside>
    }
}
