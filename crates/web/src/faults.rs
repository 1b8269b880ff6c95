//! Breaking things: lose the next ack, retry, and the fault menu (drop, duplicate or delay a
//! packet on the phone's link, crash the API at a phase, evict keys, advance the clock, a
//! concurrent request, a reused key, another user's key). Refusals show as a notice.
//!
//! The main buttons and the packet list are elements with their own handlers (the list is
//! keyed by packet, so a chosen packet stays chosen while the run moves); the menu's buttons
//! are static markup read by one delegated click handler (`data-act`).

use idem_core::time::{HOUR, SECOND};
use idem_core::{Action, MsgId, Phase, World};
use leptos::html::Select;
use leptos::prelude::*;

use crate::i18n::Catalog;
use crate::lab::use_lab;
use crate::labels::{msg_no, packet_label, ShortNames};
use crate::markup::{el, wrap, SafeHtml};

/// The fault menu's markup (everything but the packet list, which changes every step).
pub fn menu_html(catalog: &Catalog) -> SafeHtml {
    let button = |act: &str, id: &str, key: &str| {
        el(
            "button",
            &format!("type=\"button\" data-act=\"{act}\" data-testid=\"{id}\""),
            &catalog.text(key),
        )
    };
    let phases: SafeHtml = Phase::ALL
        .into_iter()
        .map(|p| {
            let selected = if p == Phase::RecordKey {
                " selected"
            } else {
                ""
            };
            el(
                "option",
                &format!("value=\"{}\"{selected}", p.name()),
                &catalog.text(&format!("phase.{}", p.name())),
            )
        })
        .collect();
    let row = |inner: SafeHtml| wrap("div", "class=\"fault-row\"", &inner);
    let crash_at = wrap(
        "label",
        "class=\"field\"",
        &(el("span", "", &catalog.text("ui.crash_at"))
            + wrap(
                "select",
                "data-testid=\"crash-phase\" data-role=\"phase\"",
                &phases,
            )),
    );
    row(button("drop", "fault-drop", "ui.drop")
        + button("dup", "fault-duplicate", "ui.duplicate")
        + button("delay", "fault-delay", "ui.delay"))
        + row(crash_at + button("crash", "fault-crash", "ui.crash"))
        + row([
            button("evict", "fault-evict", "ui.evict"),
            button("clock", "fault-clock", "ui.clock"),
            button("concurrent", "fault-concurrent", "ui.concurrent"),
            button("reuse-key", "fault-reuse-key", "ui.reuse_key"),
            button("other-user", "fault-other-user", "ui.other_user"),
        ]
        .into_iter()
        .collect())
}

/// The packets on the phone's link the menu offers: `(message id, "#3 POST /charges")`.
pub fn packet_choices(world: &World) -> Vec<(u32, String)> {
    let names = ShortNames::of(world);
    world
        .network()
        .in_flight()
        .filter(|m| m.is_faultable())
        .map(|m| {
            (
                m.id.0,
                format!("{} {}", msg_no(m.id), packet_label(&m.payload, &names)),
            )
        })
        .collect()
}

/// The action a menu button asks for, given the chosen packet and phase.
pub fn menu_action(act: &str, packet: Option<MsgId>, phase: &str) -> Option<Action> {
    let packet_action = |f: fn(MsgId) -> Action| packet.map(f);
    match act {
        "drop" => packet_action(Action::Drop),
        "dup" => packet_action(Action::Duplicate),
        "delay" => packet.map(|id| Action::Delay(id, SECOND)),
        "crash" => Phase::from_name(phase).map(Action::Crash),
        "evict" => Some(Action::EvictKeys),
        "clock" => Some(Action::AdvanceClock(25 * HOUR)),
        "concurrent" => Some(Action::ConcurrentDuplicate),
        "reuse-key" => Some(Action::ReuseKeyOtherBody),
        "other-user" => Some(Action::OtherUserSameKey),
        _ => None,
    }
}

/// The fault buttons and the notice that explains refusals.
#[component]
pub fn Faults() -> impl IntoView {
    let lab = use_lab();
    let packet_select = NodeRef::<Select>::new();
    let menu = NodeRef::<leptos::html::Div>::new();
    let armed = Memo::new(move |_| lab.run.with(|r| r.world().next_ack_will_be_lost()));
    let options = move || lab.run.with(|r| packet_choices(r.world()));
    let on_menu = move |event: leptos::ev::MouseEvent| {
        let Some(act) = crate::browser::closest_attr(&event, "data-act") else {
            return;
        };
        let chosen: Option<u32> = packet_select
            .get_untracked()
            .and_then(|s| s.value().parse().ok());
        let next = lab.run.with_untracked(|r| {
            r.world()
                .network()
                .in_flight()
                .find(|m| m.is_faultable())
                .map(|m| m.id)
        });
        let packet = chosen.map(MsgId).or(next);
        let phase = menu
            .get_untracked()
            .and_then(|d| d.query_selector("[data-role=phase]").ok().flatten())
            .and_then(|e| crate::browser::select_value(&e))
            .unwrap_or_default();
        match menu_action(&act, packet, &phase) {
            Some(action) => lab.act(action),
            None => lab.say(lab.t("ui.no_packet")),
        }
    };
    view! {
        <section class="faults" aria-label=lab.t("ui.break_things")>
            <h2>{lab.t("ui.break_things")}</h2>
            <div class="fault-main">
                <button
                    type="button"
                    class=move || if armed.get() { "danger armed" } else { "danger" }
                    data-testid="drop-next-ack"
                    aria-pressed=move || armed.get().to_string()
                    on:click=move |_| lab.act(Action::LoseNextAck)
                >
                    {move || lab.t(if armed.get() { "ui.ack_armed" } else { "ui.lose_ack" })}
                </button>
                <button
                    type="button"
                    class="secondary"
                    data-testid="retry"
                    on:click=move |_| lab.act(Action::RetryNow)
                >
                    {lab.t("ui.retry")}
                </button>
            </div>
            {move || lab.notice.get().map(|text| view! {
                <p class="notice" role="alert" data-testid="action-error">{text}</p>
            })}
            <details class="fault-menu">
                <summary>{lab.t("ui.more_faults")}</summary>
                <label class="field">
                    <span>{lab.t("ui.packet")}</span>
                    <select data-testid="packet-select" node_ref=packet_select>
                        <option value="">{lab.t("ui.next_packet")}</option>
                        <For
                            each=options
                            key=|(id, label)| (*id, label.clone())
                            children=|(id, label)| view! { <option value=id>{label}</option> }
                        />
                    </select>
                </label>
                <div class="fault-grid" node_ref=menu on:click=on_menu inner_html=menu_html(lab.catalog())></div>
            </details>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn every_menu_button_maps_to_an_action() {
        let html = menu_html(Lang::En.catalog());
        for act in [
            "drop",
            "dup",
            "delay",
            "crash",
            "evict",
            "clock",
            "concurrent",
            "reuse-key",
            "other-user",
        ] {
            assert!(html.contains(&format!("data-act=\"{act}\"")), "{act}");
            let action = menu_action(act, Some(MsgId(3)), "respond");
            assert!(action.is_some(), "{act}");
        }
        assert_eq!(menu_action("drop", None, ""), None);
        assert_eq!(
            menu_action("crash", None, "respond"),
            Some(Action::Crash(Phase::Respond))
        );
    }
}
