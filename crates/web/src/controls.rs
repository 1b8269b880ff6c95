//! The control surface: scenario switcher, the protections that matter for the scenario, and
//! the playback bar (play/pause, step back and forward, restart, run to end, speed).
//!
//! Chips and toggles are markup built once per scenario kind; a delegated click handler reads
//! `data-scenario` / `data-protect`, and a small effect keeps their pressed/checked state.

use idem_core::scenario::{Story, IDS};
use idem_core::Protections;
use leptos::html::Div;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use leptos::web_sys::HtmlInputElement;

use crate::i18n::Catalog;
use crate::lab::use_lab;
use crate::labels::clock_in;
use crate::markup::{el, esc};
use crate::playback::{relevant_protections, SPEEDS};

/// How many scenarios at the head of [`IDS`] are the seed's four stories.
pub const SEED_COUNT: usize = 5;

/// Buttons for the scenarios `ids`.
pub fn chips_html(ids: &[&str], catalog: &Catalog) -> String {
    ids.iter()
        .map(|id| {
            el(
                "button",
                &format!(
                    "type=\"button\" class=\"chip\" data-scenario=\"{id}\" data-testid=\"scenario-{id}\" aria-pressed=\"false\""
                ),
                &catalog.text(&format!("scenario.{id}.title")),
            )
        })
        .collect()
}

/// Checkboxes for the protections that matter for `story`.
pub fn toggles_html(story: Story, catalog: &Catalog) -> String {
    relevant_protections(story)
        .iter()
        .map(|name| {
            format!(
                "<label class=\"toggle\" data-testid=\"protect-{name}\"><input type=\"checkbox\" data-protect=\"{name}\"/><span>{}</span></label>",
                esc(&catalog.text(&format!("protect.{name}")))
            )
        })
        .collect()
}

fn sync_state(root: &leptos::web_sys::Element, current: &str, protections: Protections) {
    let Ok(chips) = root.query_selector_all("[data-scenario]") else {
        return;
    };
    for i in 0..chips.length() {
        if let Some(chip) = chips
            .item(i)
            .and_then(|n| n.dyn_into::<leptos::web_sys::Element>().ok())
        {
            let on = chip.get_attribute("data-scenario").as_deref() == Some(current);
            let _ = chip.set_attribute("aria-pressed", if on { "true" } else { "false" });
        }
    }
    let Ok(boxes) = root.query_selector_all("[data-protect]") else {
        return;
    };
    for i in 0..boxes.length() {
        if let Some(input) = boxes
            .item(i)
            .and_then(|n| n.dyn_into::<HtmlInputElement>().ok())
        {
            let name = input.get_attribute("data-protect").unwrap_or_default();
            input.set_checked(protections.get(&name).unwrap_or(false));
        }
    }
}

/// Scenario choices: the seed stories and, folded, the other mechanics.
#[component]
pub fn ScenarioBar() -> impl IntoView {
    let lab = use_lab();
    let root = NodeRef::<Div>::new();
    let is_mechanic = move || {
        lab.run
            .with(|r| IDS[SEED_COUNT..].contains(&r.scenario().id.as_str()))
    };
    Effect::new(move |_| {
        let (id, protections) = lab
            .run
            .with(|r| (r.scenario().id.clone(), r.scenario().protections));
        if let Some(root) = root.get() {
            sync_state(&root, &id, protections);
        }
    });
    let on_click = move |event: leptos::ev::MouseEvent| {
        if let Some(id) = crate::browser::closest_attr(&event, "data-scenario") {
            lab.switch(&id);
        }
    };
    view! {
        <div class="scenarios" node_ref=root on:click=on_click>
            <div class="group">
                <h2 class="group-title">{lab.t("group.stories")}</h2>
                <div class="chips" inner_html=chips_html(&IDS[..SEED_COUNT], lab.catalog())></div>
            </div>
            <details class="group more" prop:open=is_mechanic>
                <summary class="group-title">{lab.t("group.mechanics")}</summary>
                <div class="chips" inner_html=chips_html(&IDS[SEED_COUNT..], lab.catalog())></div>
            </details>
        </div>
    }
}

/// The protection toggles for the scenario on screen. The page shows them below the player so
/// the topology and its controls stay above the fold.
#[component]
pub fn ProtectionBar() -> impl IntoView {
    let lab = use_lab();
    let root = NodeRef::<Div>::new();
    let story = Memo::new(move |_| lab.run.with(|r| r.scenario().story));
    let toggles = move || toggles_html(story.get(), lab.catalog());
    Effect::new(move |_| {
        let (id, protections) = lab
            .run
            .with(|r| (r.scenario().id.clone(), r.scenario().protections));
        story.track();
        if let Some(root) = root.get() {
            sync_state(&root, &id, protections);
        }
    });
    let on_click = move |event: leptos::ev::MouseEvent| {
        if let Some(name) = crate::browser::closest_attr(&event, "data-protect") {
            lab.toggle_protection(&name);
        }
    };
    view! {
        <div class="protect-bar" node_ref=root on:click=on_click>
            <fieldset class="protections">
                <legend>{lab.t("ui.protections")}</legend>
                <div class="toggles" inner_html=toggles></div>
            </fieldset>
        </div>
    }
}

/// The speed choices as `<option>`s, valued by index into [`SPEEDS`].
pub fn speed_options() -> String {
    const LABELS: [&str; 5] = ["0.25×", "0.5×", "1×", "2×", "4×"];
    (0..SPEEDS.len())
        .map(|i| {
            let selected = if SPEEDS[i] == 1.0 { " selected" } else { "" };
            el("option", &format!("value=\"{i}\"{selected}"), LABELS[i])
        })
        .collect()
}

const ICON_RESTART: &str =
    "<svg viewBox=\"0 0 16 16\" aria-hidden=\"true\"><path d=\"M3 3h2v10H3zM13 3v10L6 8z\"/></svg>";
const ICON_END: &str = "<svg viewBox=\"0 0 16 16\" aria-hidden=\"true\"><path d=\"M11 3h2v10h-2zM3 3v10l7-5z\"/></svg>";
const ICON_BACK: &str =
    "<svg viewBox=\"0 0 16 16\" aria-hidden=\"true\"><path d=\"M12 3v10L4 8z\"/></svg>";
const ICON_FORWARD: &str =
    "<svg viewBox=\"0 0 16 16\" aria-hidden=\"true\"><path d=\"M4 3v10l8-5z\"/></svg>";
/// The play icon.
pub const ICON_PLAY: &str =
    "<svg viewBox=\"0 0 16 16\" aria-hidden=\"true\"><path d=\"M4 2v12l10-6z\"/></svg>";
/// The pause icon.
pub const ICON_PAUSE: &str =
    "<svg viewBox=\"0 0 16 16\" aria-hidden=\"true\"><path d=\"M3 2h4v12H3zM9 2h4v12H9z\"/></svg>";

/// The playback bar's buttons and speed choice (static; their state is set by an effect).
pub fn playback_html(catalog: &Catalog) -> String {
    let button = |cmd: &str, class: &str, key: &str, glyph: &str| {
        let label = esc(&catalog.text(key));
        format!(
            "<button type=\"button\" class=\"{class}\" data-cmd=\"{cmd}\" data-testid=\"{cmd}\" title=\"{label}\" aria-label=\"{label}\">{glyph}</button>"
        )
    };
    let play = format!(
        "<button type=\"button\" class=\"primary play\" data-cmd=\"play-pause\" data-testid=\"play-pause\" aria-pressed=\"false\">{ICON_PLAY}<span>{}</span></button>",
        esc(&catalog.text("ui.play"))
    );
    format!(
        "<div class=\"buttons\">{}{}{}{}{}</div><label class=\"speed\"><span>{}</span><select data-testid=\"speed\" data-role=\"speed\">{}</select></label>",
        button("restart", "icon-btn", "ui.restart", ICON_RESTART),
        button("step-back", "icon-btn", "ui.step_back", ICON_BACK),
        play,
        button("step-forward", "icon-btn", "ui.step_forward", ICON_FORWARD),
        button("run-to-end", "icon-btn", "ui.run_to_end", ICON_END),
        esc(&catalog.text("ui.speed")),
        speed_options(),
    )
}

/// The live readout: step index, step count and the simulated clock.
pub fn readout_html(cursor: usize, total: usize, now_ms: u64, catalog: &Catalog) -> String {
    format!(
        "<span class=\"step\">{} <strong data-testid=\"step-index\">{cursor}</strong> / <span data-testid=\"step-total\">{total}</span></span>\
         <span class=\"clock\" data-testid=\"clock\">t = {}</span>",
        esc(&catalog.text("ui.step")),
        esc(&clock_in(now_ms, catalog))
    )
}

/// The playback bar.
#[component]
pub fn Controls() -> impl IntoView {
    let lab = use_lab();
    let root = NodeRef::<Div>::new();
    let readout = move || {
        let now = lab.display.get().max(0.0) as u64;
        lab.run
            .with(|r| readout_html(r.cursor(), r.known_steps(), now, lab.catalog()))
    };
    Effect::new(move |_| {
        let (start, end) = lab.run.with(|r| (r.cursor() == 0, r.at_end()));
        let playing = lab.playing.get();
        let Some(root) = root.get() else { return };
        let set = |cmd: &str, attr: &str, value: Option<&str>| {
            if let Ok(Some(b)) = root.query_selector(&format!("[data-cmd={cmd}]")) {
                let _ = match value {
                    Some(v) => b.set_attribute(attr, v),
                    None => b.remove_attribute(attr),
                };
            }
        };
        set("step-back", "disabled", start.then_some(""));
        set("step-forward", "disabled", end.then_some(""));
        set("run-to-end", "disabled", end.then_some(""));
        set(
            "play-pause",
            "aria-pressed",
            Some(if playing { "true" } else { "false" }),
        );
        if let Ok(Some(b)) = root.query_selector("[data-cmd=play-pause]") {
            let html = if playing {
                format!("{ICON_PAUSE}<span>{}</span>", esc(&lab.t("ui.pause")))
            } else {
                format!("{ICON_PLAY}<span>{}</span>", esc(&lab.t("ui.play")))
            };
            b.set_inner_html(&html);
        }
    });
    let on_click =
        move |event: leptos::ev::MouseEvent| match crate::browser::closest_attr(&event, "data-cmd")
            .as_deref()
        {
            Some("restart") => lab.restart(),
            Some("step-back") => lab.step_back(),
            Some("play-pause") => lab.toggle_play(),
            Some("step-forward") => lab.step_forward(),
            Some("run-to-end") => lab.run_to_end(),
            _ => {}
        };
    let on_change = move |e: leptos::ev::Event| {
        if let Some(s) = event_target_value(&e)
            .parse::<usize>()
            .ok()
            .and_then(|i| SPEEDS.get(i))
        {
            lab.set_speed.set(*s);
        }
    };
    view! {
        <div class="playback" role="toolbar" aria-label=lab.t("ui.playback")>
            <div class="controls" node_ref=root on:click=on_click on:change=on_change inner_html=playback_html(lab.catalog())></div>
            <div class="readout" inner_html=readout></div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn every_scenario_has_a_chip_with_its_test_id() {
        let catalog = Lang::En.catalog();
        let html = format!(
            "{}{}",
            chips_html(&IDS[..SEED_COUNT], catalog),
            chips_html(&IDS[SEED_COUNT..], catalog)
        );
        for id in IDS {
            assert!(
                html.contains(&format!("data-testid=\"scenario-{id}\"")),
                "{id}"
            );
        }
        assert!(toggles_html(Story::Counter, catalog).contains("data-protect=\"unique-index\""));
        assert_eq!(speed_options().matches("<option").count(), SPEEDS.len());
    }
}
