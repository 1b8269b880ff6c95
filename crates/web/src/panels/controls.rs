//! The control surface: the protections that matter for the scenario (each with a line on
//! what it prevents) and the playback bar (play/pause, step back and forward, restart, run to end, speed).
//!
//! Every control is an element that lives as long as the page (or, for toggles, as long as
//! the story) with its handler as a closure; only its pressed, checked or disabled state and
//! its text are reactive.

use idem_core::Protection;
use leptos::html::Button;
use leptos::prelude::*;

use crate::lab::{use_lab, Lab};
use crate::stage::geometry::Layout;
use crate::stage::labels::clock_in;
use crate::stage::playback::{Run, SPEEDS};
use crate::stage::summary::narration_lines;

/// The protection toggles for the scenario on screen. The page shows them below the player so
/// the topology and its controls stay above the fold. The toggles are rebuilt only when the
/// story changes; their checked state follows the run.
#[component]
pub fn ProtectionBar() -> impl IntoView {
    let lab = use_lab();
    let story = Memo::new(move |_| lab.run.with(|r| r.scenario().story));
    let toggle = move |switch: Protection| {
        let name = switch.name();
        view! {
            <div class="toggle-item">
                <label class="toggle" data-testid=format!("protect-{name}")>
                    <input
                        type="checkbox"
                        data-protect=name
                        aria-describedby=format!("hint-{name}")
                        prop:checked=move || lab.run.with(|r| r.scenario().protections.is_on(switch))
                        on:change=move |_| lab.toggle_protection(switch)
                    />
                    <span>{lab.t(&format!("protect.{name}"))}</span>
                </label>
                <p class="toggle-hint" id=format!("hint-{name}") data-testid=format!("hint-{name}")>
                    {lab.t(&format!("protect.{name}.hint"))}
                </p>
            </div>
        }
    };
    view! {
        <div class="protect-bar">
            <fieldset class="protections">
                <legend>{lab.t("ui.protections")}</legend>
                <div class="toggles">
                    {move || story.get().protections().iter().map(|p| toggle(*p)).collect_view()}
                </div>
            </fieldset>
        </div>
    }
}

/// The labels of [`SPEEDS`], in the same order.
pub const SPEED_LABELS: [&str; 5] = ["0.25×", "0.5×", "1×", "2×", "4×"];

/// SVG path of the restart icon (16 × 16).
const ICON_RESTART: &str = "M3 3h2v10H3zM13 3v10L6 8z";
/// SVG path of the run-to-end icon.
const ICON_END: &str = "M11 3h2v10h-2zM3 3v10l7-5z";
/// SVG path of the step-back icon.
const ICON_BACK: &str = "M12 3v10L4 8z";
/// SVG path of the step-forward icon.
const ICON_FORWARD: &str = "M4 3v10l8-5z";
/// SVG path of the play icon.
pub const ICON_PLAY: &str = "M4 2v12l10-6z";
/// SVG path of the pause icon.
pub const ICON_PAUSE: &str = "M3 2h4v12H3zM9 2h4v12H9z";

/// A 16 × 16 icon drawn by one path.
fn icon(path: impl Fn() -> &'static str + Send + Sync + 'static) -> impl IntoView {
    view! {
        <svg viewBox="0 0 16 16" aria-hidden="true"><path d=path/></svg>
    }
}

/// Which playback buttons are disabled: back at the start, forward and to-end at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaybackState {
    /// At step 0.
    pub at_start: bool,
    /// Nothing is left to happen.
    pub at_end: bool,
}

impl PlaybackState {
    /// The state of `run`.
    pub fn of(run: &Run) -> PlaybackState {
        PlaybackState {
            at_start: run.cursor() == 0,
            at_end: run.at_end(),
        }
    }
}

/// On a phone, when playing starts: scrolls the page so that the drawing and the playback bar
/// under it are both on screen (the bar sticks to the bottom of the window, and would hide the
/// bottom of the drawing otherwise). Only the page's own player (not an embedded one).
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
        let label = lab.t(key);
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
                }
            >
                {icon(move || path)}
            </button>
        }
    };
    let playing = lab.playing;
    let on_speed = move |e: leptos::ev::Event| {
        if let Some(s) = event_target_value(&e)
            .parse::<usize>()
            .ok()
            .and_then(|i| SPEEDS.get(i))
        {
            lab.set_speed.set(*s);
        }
    };
    let speeds = SPEED_LABELS
        .iter()
        .enumerate()
        .map(|(i, label)| {
            // The speed chosen stays chosen when the page is drawn again in another language.
            let chosen = lab.speed.get_untracked() == SPEEDS[i];
            // Russian writes a decimal comma (0,25×).
            let label = if lab.catalog().tag == "ru" {
                label.replace('.', ",")
            } else {
                (*label).to_owned()
            };
            view! { <option value=i.to_string() selected=chosen>{label}</option> }
        })
        .collect_view();
    let now_line = move || {
        lab.run
            .with(|r| narration_lines(r.shown(lab.side), lab.catalog()).join(" "))
    };
    let cursor = move || lab.run.with(Run::cursor);
    let total = move || lab.run.with(Run::known_steps);
    let now = move || {
        format!(
            "t = {}",
            clock_in(lab.display.get().max(0.0) as u64, lab.catalog())
        )
    };
    view! {
        <div
            class="playback"
            role="toolbar"
            aria-label=lab.t("ui.playback")
            data-paused-key=move || lab.paused_at_key.get().to_string()
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
                        aria-pressed=move || playing.get().to_string()
                        on:click=move |_| {
                            lab.toggle_play();
                            if lab.playing.get_untracked() && lab.layout.get_untracked() == Layout::Tall {
                                if let Some(play) = play_ref.get_untracked() {
                                    fit_player(&play);
                                }
                            }
                        }
                    >
                        {icon(move || if playing.get() { ICON_PAUSE } else { ICON_PLAY })}
                        <span>{move || lab.t(if playing.get() { "ui.pause" } else { "ui.play" })}</span>
                    </button>
                    {button("step-forward", "ui.step_forward", ICON_FORWARD, |s| s.at_end, Lab::step_forward)}
                    {button("run-to-end", "ui.run_to_end", ICON_END, |s| s.at_end, Lab::run_to_end)}
                </div>
                <label class="speed">
                    <span>{lab.t("ui.speed")}</span>
                    <select data-testid="speed" on:change=on_speed>{speeds}</select>
                </label>
            </div>
            <div class="readout">
                <span class="step">
                    {lab.t("ui.step")} " "
                    <strong data-testid="step-index">{cursor}</strong>
                    " / "
                    <span data-testid="step-total">{total}</span>
                </span>
                <span class="clock" data-testid="clock">{now}</span>
            </div>
            // The current narration line again, shown on phones only, where the bar sticks to
            // the bottom of the window: drawing, words and buttons seen together while playing.
            // Screen readers hear the narration's live region instead.
            <p class="now-line" aria-hidden="true" data-testid="now-line">{now_line}</p>
            // Why playback stopped by itself, where a phone user looks (the bar stays stuck).
            <p class="now-pause" aria-hidden="true" hidden=move || !lab.paused_at_key.get()>
                {lab.t("ui.paused_short")}
            </p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use idem_core::Scenario;

    #[test]
    fn buttons_disable_at_the_ends() {
        let mut run = Run::new(Scenario::by_id("naive").expect("naive"));
        assert_eq!(
            PlaybackState::of(&run),
            PlaybackState {
                at_start: true,
                at_end: false
            }
        );
        run.run_to_end();
        assert_eq!(
            PlaybackState::of(&run),
            PlaybackState {
                at_start: false,
                at_end: true
            }
        );
        assert_eq!(SPEED_LABELS.len(), SPEEDS.len());
        assert_eq!(SPEED_LABELS[2], "1×");
        assert_eq!(SPEEDS[2], 1.0);
    }
}
