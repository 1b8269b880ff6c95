//! The control surface: the protections that matter for the scenario (each with a line on
//! what it prevents) and the playback bar (play/pause, step back and forward, restart, run to end, speed).
//!
//! Every control is an element that lives as long as the page (or, for toggles, as long as
//! the story) with its handler as a closure; only its pressed, checked or disabled state and
//! its text are reactive.

use idem_core::Protection;
use leptos::html::Button;
use leptos::prelude::*;

use crate::platform::lab::{use_clock, use_lab, use_prefs, Lab};
use idem_lesson::geometry::Layout;
use idem_lesson::labels::clock_in;
use idem_lesson::panels::controls::{
    limit_text, speed_label, PlaybackState, ICON_BACK, ICON_END, ICON_FORWARD, ICON_PAUSE,
    ICON_PLAY, ICON_RESTART, SPEED_LABELS,
};
use idem_lesson::panels::protections::{on_note, Panel};
use idem_lesson::playback::{Run, SPEEDS};

/// The protection toggles for the scenario on screen, each with its hint and its limit (what it
/// does not stop, and where it is on but cannot act). The page shows them below the player so
/// the topology and its controls stay above the fold. The switches the story is about come
/// first; the others are folded, grouped by what they protect
/// (`idem_lesson::panels::protections::Panel`). The toggles are rebuilt only when the
/// scenario changes, so a flip never moves a switch; their checked state follows the run.
/// Each switch is one `<input>` of its own (`data-protect`), so a course author's lock can
/// disable it where it is.
#[component]
pub fn ProtectionBar(
    /// The page's anchor id for the switches (a widget, which may be one of several, has none).
    #[prop(optional)]
    anchor: Option<&'static str>,
) -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let id = Memo::new(move |_| lab.run.with(|r| r.scenario().id.clone()));
    // A course author's exercise may lock switches (embed/exercise.rs): shown, not flipped.
    let rules = crate::platform::exercise::use_exercise();
    // The toggles are drawn again for every story, so (see crate::view::keyed) a toggle reads
    // only the run and a memo of its own, never `design` or the language: its limit follows
    // the run through `limit`, dropped with the toggle (the language is read once: the panel
    // below tracks it and draws the toggles again when it changes).
    let toggle = move |switch: Protection| {
        let name = switch.name();
        let locked = rules.is_some_and(|r| r.with_untracked(|e| !e.may_flip(switch)));
        let catalog = prefs.lang.get_untracked().catalog();
        let limit = Memo::new(move |_| {
            lab.run
                .with(|r| limit_text(switch, &r.scenario().protections, catalog))
        });
        view! {
            <div class="toggle-item">
                <label class="toggle" data-testid=format!("protect-{name}")>
                    <input
                        type="checkbox"
                        data-protect=name
                        disabled=locked
                        aria-describedby=format!("hint-{name}")
                        prop:checked=move || lab.run.with(|r| r.scenario().protections.is_on(switch))
                        on:change=move |_| lab.toggle_protection(switch)
                    />
                    <span>{prefs.t(&format!("protect.{name}"))}</span>
                </label>
                <p class="toggle-hint" id=format!("hint-{name}") data-testid=format!("hint-{name}")>
                    {prefs.t(&format!("protect.{name}.hint"))}
                    " "
                    <span class="toggle-limit" data-testid=format!("limit-{name}")>
                        <strong>{prefs.t("ui.limit")}</strong>
                        " "
                        {move || limit.get()}
                    </span>
                </p>
            </div>
        }
    };
    let panel = move || {
        // Read, not only tracked: a memo never read never computes, so never hears the run.
        id.with(|_| ());
        let (panel, open) = lab.run.with_untracked(|r| {
            let panel = Panel::of(r.scenario());
            let open = panel.folded_on(&r.scenario().protections);
            (panel, open)
        });
        let first = panel.first.iter().map(|p| toggle(*p)).collect_view();
        let folded = panel.folded();
        let rest = (folded > 0).then(|| {
            let groups = panel
                .rest
                .iter()
                .map(|(group, members)| {
                    view! {
                        <div class="toggle-group" data-group=group.name()>
                            <h3 class="toggle-group-title">{prefs.t(group.title_key())}</h3>
                            <div class="toggles">{members.iter().map(|p| toggle(*p)).collect_view()}</div>
                        </div>
                    }
                })
                .collect_view();
            let more = prefs
                .catalog()
                .fill("protect.more", &[("n", folded.to_string())]);
            view! {
                <details class="protections-more" data-testid="protections-more" open=open>
                    <summary>{more}</summary>
                    {groups}
                </details>
            }
        });
        view! {
            <div class="toggles" data-testid="protections-first">{first}</div>
            {rest}
        }
    };
    view! {
        <div class="protect-bar">
            <fieldset class="protections" id=anchor>
                <legend>{prefs.t("ui.protections")}</legend>
                {panel}
            </fieldset>
        </div>
    }
}

/// The note by the player that names the switches on in the design on screen ("On in this
/// design: Idempotency-Key, …"), so a story that turns protections on says so where the student
/// looks first, beside the prediction, not only in ticked boxes below the player. Nothing when
/// none is on. Shown from the start of a run or not at all: drawn mid-run (its code and words
/// come with the lesson's bundle, after the student may have pressed Play), it would appear
/// between two steps as if the run had changed (issue 42); it then waits for the next run, or
/// for this one to be back at its start.
#[component]
pub fn ProtectionsOn() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let design = Memo::new(move |_| {
        lab.run
            .with(|r| (r.scenario().id.clone(), r.scenario().protections))
    });
    let at_start = Memo::new(move |_| lab.run.with(|r| r.cursor() == 0));
    // The design whose run was seen at its start by this note.
    let seen = RwSignal::new(at_start.get_untracked().then(|| design.get_untracked()));
    Effect::new(move |_| {
        let now = design.get();
        if at_start.get() {
            seen.set(Some(now));
        }
    });
    let note = Memo::new(move |_| {
        let here = design.with(|d| seen.with(|s| s.as_ref() == Some(d)));
        here.then(|| {
            lab.run
                .with(|r| on_note(r.scenario(), &r.scenario().protections, prefs.catalog()))
        })
        .flatten()
    });
    move || {
        note.get()
            .map(|text| view! { <p class="protections-on" data-testid="protections-on">{text}</p> })
    }
}

/// A 16 × 16 icon drawn by one path.
fn icon(path: impl Fn() -> &'static str + Send + Sync + 'static) -> impl IntoView {
    view! {
        <svg viewBox="0 0 16 16" aria-hidden="true"><path d=path/></svg>
    }
}

/// On a phone when playing starts, and in the wide layout at each press of a bar button:
/// scrolls the page so that the drawing and the playback bar under it are both on screen (on a
/// phone the bar sticks to the bottom of the window, and would hide the bottom of the drawing
/// otherwise). Only the page's own player (not an embedded one).
fn fit_player(play: &leptos::web_sys::HtmlButtonElement) {
    let Ok(Some(main)) = play.closest(".idem-lab:not(.embed) .stage-main") else {
        return;
    };
    let (Some(figure), Ok(Some(bar))) = (main.first_element_child(), play.closest(".playback"))
    else {
        return;
    };
    let height = window()
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let drawing = figure.get_bounding_client_rect();
    let bar = bar.get_bounding_client_rect().height();
    if drawing.top() < 0.0 || drawing.bottom() + bar > height {
        figure.scroll_into_view_with_bool(true);
    }
}

/// The playback bar. A button that disables itself (step forward at the end, step back at the
/// start) hands the focus to the play button instead of dropping it to the page.
#[component]
pub fn Controls() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let clock = use_clock();
    let state = Memo::new(move |_| lab.run.with(PlaybackState::of));
    let play_ref = NodeRef::<Button>::new();
    let keep_focus = move |lost: fn(PlaybackState) -> bool| {
        if lab.run.with_untracked(|r| lost(PlaybackState::of(r))) {
            if let Some(play) = play_ref.get_untracked() {
                let _ = play.focus();
            }
        }
    };
    let button = move |cmd: &'static str,
                       key: &'static str,
                       path: &'static str,
                       disabled: fn(PlaybackState) -> bool,
                       act: fn(&Lab)| {
        let label = prefs.t(key);
        view! {
            <button
                type="button"
                class="icon-btn"
                data-testid=cmd
                title=label.clone()
                aria-label=label
                disabled=move || disabled(state.get())
                on:click=move |_| {
                    act(&lab);
                    keep_focus(disabled);
                    // Beside the drawing (wide layout) the narration is in view with it: a
                    // step brings the drawing back whole when it was cut (issue 42: the store
                    // card went under the top edge while stepping).
                    if prefs.layout.get_untracked() != Layout::Tall {
                        if let Some(play) = play_ref.get_untracked() {
                            fit_player(&play);
                        }
                    }
                }
            >
                {icon(move || path)}
            </button>
        }
    };
    let playing = clock.playing;
    let on_speed = move |e: leptos::ev::Event| {
        if let Some(s) = event_target_value(&e)
            .parse::<usize>()
            .ok()
            .and_then(|i| SPEEDS.get(i))
        {
            clock.set_speed.set(*s);
        }
    };
    let speeds = (0..SPEED_LABELS.len())
        .map(|i| {
            // The speed chosen stays chosen when the page is drawn again in another language.
            let chosen = clock.speed.get_untracked() == SPEEDS[i];
            let label = speed_label(i, prefs.catalog());
            view! { <option value=i.to_string() selected=chosen>{label}</option> }
        })
        .collect_view();
    // Visible steps: the filler the Step buttons step over is not counted either.
    let cursor = move || lab.run.with(Run::visible_step);
    let total = move || lab.run.with(Run::visible_total);
    let now = move || {
        format!(
            "t = {}",
            clock_in(clock.display.get().max(0.0) as u64, prefs.catalog())
        )
    };
    view! {
        <div
            class="playback"
            role="toolbar"
            aria-label=prefs.t("ui.playback")
        >
            <div class="controls">
                <div class="buttons">
                    {button("restart", "ui.restart", ICON_RESTART, |_| false, Lab::restart)}
                    {button("step-back", "ui.step_back", ICON_BACK, |s| s.at_start, Lab::step_back)}
                    <button
                        type="button"
                        class="primary play"
                        data-testid="play-pause"
                        node_ref=play_ref
                        // Its name says what a press does (Play or Pause), so no aria-pressed
                        // (a screen reader would say "Pause, pressed"); the state is data.
                        data-playing=move || playing.get().to_string()
                        on:click=move |_| {
                            lab.toggle_play();
                            if clock.playing.get_untracked() && prefs.layout.get_untracked() == Layout::Tall {
                                if let Some(play) = play_ref.get_untracked() {
                                    fit_player(&play);
                                }
                            }
                        }
                    >
                        {icon(move || if playing.get() { ICON_PAUSE } else { ICON_PLAY })}
                        <span>{move || prefs.t(if playing.get() { "ui.pause" } else { "ui.play" })}</span>
                    </button>
                    {button("step-forward", "ui.step_forward", ICON_FORWARD, |s| s.at_end, Lab::step_forward)}
                    {button("run-to-end", "ui.run_to_end", ICON_END, |s| s.at_end, Lab::run_to_end)}
                </div>
                <label class="speed">
                    <span>{prefs.t("ui.speed")}</span>
                    <select data-testid="speed" on:change=on_speed>{speeds}</select>
                </label>
            </div>
            <div class="readout">
                <span class="step">
                    {prefs.t("ui.step")} " "
                    <strong data-testid="step-index">{cursor}</strong>
                    " / "
                    <span data-testid="step-total">{total}</span>
                </span>
                <span class="clock" data-testid="clock">{now}</span>
            </div>
            // The current narration line again, shown on phones only, where the bar sticks to
            // the bottom of the window: drawing, words and buttons seen together while playing
            // (the lesson's bundle: it names who is speaking, view/stage/speakers.rs).
            {crate::view::later::later_unasked(crate::view::later::LaterPart::NowLine)}
            // Why playback stopped by itself, where a phone user looks (the bar stays stuck).
            <p class="now-pause" aria-hidden="true" hidden=move || !clock.paused_at_key.get()>
                {prefs.t("ui.paused_short")}
            </p>
        </div>
    }
}
