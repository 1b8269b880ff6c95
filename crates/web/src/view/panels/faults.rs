//! Breaking things: lose the next ack, retry, and the fault menu (drop, duplicate or delay a
//! packet on the phone's link, crash the API at a phase, evict keys, advance the clock, a
//! concurrent request, a reused key, another user's key). Refusals show as a notice.
//!
//! The main buttons and the packet list are elements with their own handlers (the list is
//! keyed by packet, so a chosen packet stays chosen while the run moves), and so are the
//! menu's buttons (one handler given each button's fault kind).

use idem_core::{Action, DeepLink, MsgId};
use leptos::html::Select;
use leptos::prelude::*;

use crate::platform::lab::{use_lab, use_prefs};
use idem_lesson::panels::faults::{default_phase, menu_action, packet_choices, MENU};

/// "Surprise me": a new seed from the browser's random source, and the chaos run it draws on
/// this design, played from the start.
fn surprise(lab: crate::platform::lab::Lab) {
    let Ok(seed) = getrandom::u32() else {
        lab.say("ui.chaos_no_random");
        return;
    };
    let link = lab.run.with_untracked(|r| r.chaos_link(seed));
    if lab.open(&link) {
        lab.toggle_play();
        crate::platform::browser::reveal(idem_lesson::anchors::PLAYER_ANCHOR);
    }
}

/// Applies a fault and, when it is taken, brings the player into view so its effect is seen
/// (a refusal stays here, beside the button, as the notice).
fn act_in_view(lab: crate::platform::lab::Lab, action: Action) {
    if lab.act(action) {
        crate::platform::browser::reveal(idem_lesson::anchors::PLAYER_ANCHOR);
    }
}

/// Scrolls the page by the least amount that brings `element` fully into the window.
fn keep_in_view(element: &leptos::web_sys::Element) {
    let window = window();
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let r = element.get_bounding_client_rect();
    if r.bottom() > height {
        window.scroll_by_with_x_and_y(0.0, r.bottom() - height + 12.0);
    } else if r.top() < 0.0 {
        window.scroll_by_with_x_and_y(0.0, r.top() - 12.0);
    }
}

/// The fault buttons and the notice that explains refusals.
#[component]
pub fn Faults() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let packet_select = NodeRef::<Select>::new();
    let phase_select = NodeRef::<Select>::new();
    // How many of the API's next answers will be lost: each press loses one more (the story's
    // script may have armed one), so the button is no toggle; its label says how many.
    let armed = Memo::new(move |_| lab.run.with(|r| r.world().acks_to_lose()));
    let options = move || lab.run.with(|r| packet_choices(r.world(), prefs.catalog()));
    // A chaos run's link without its step (so stepping changes nothing here), and whether its
    // faults are the ones its seed draws on this design (two simulations: once per run).
    let chaos = Memo::new(move |_| {
        lab.run.with(|r| {
            let link = r.link();
            link.chaos.map(|_| DeepLink { step: None, ..link })
        })
    });
    let drawn = Memo::new(move |_| {
        chaos.with(|link| {
            link.as_ref()
                .filter(|link| idem_core::chaos::drew(link))
                .and_then(|link| Some((link.chaos?, link.faults.len())))
        })
    });
    // A refusal is said beside the button that was pressed: under the main buttons, or
    // under the menu's when one of those was.
    let from_menu = RwSignal::new(false);
    let notice_ref = NodeRef::<leptos::html::P>::new();
    let notice = move || {
        lab.notice.get().map(|notice| {
            let text = notice.text(prefs.catalog());
            view! { <p class="notice" role="alert" data-testid="action-error" node_ref=notice_ref>{text}</p> }
        })
    };
    // The reason is seen where it is said: a notice drawn past the window's edge is scrolled in.
    Effect::new(move |_| {
        lab.notice.track();
        if let Some(p) = notice_ref.get() {
            keep_in_view(&p);
        }
    });
    // One handler for every menu button (one closure type, not nine), given its fault kind.
    let fire = move |kind: idem_core::FaultKind| {
        from_menu.set(true);
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
        let phase = phase_select
            .get_untracked()
            .map(|s| s.value())
            .unwrap_or_default();
        match menu_action(kind, packet, &phase) {
            Some(action) => act_in_view(lab, action),
            None => lab.say("ui.no_packet"),
        }
    };
    // A course author's exercise may offer some kinds only (embed/exercise.rs), and then no
    // "Surprise me" (its faults are any kinds, up to six).
    let rules = crate::platform::exercise::use_exercise().map(|r| r.get_untracked());
    let offered = idem_core::FaultKind::ALL.map(|k| rules.as_ref().is_none_or(|e| e.offers(k)));
    let offers = move |kind: idem_core::FaultKind| offered[kind.index()];
    let surprise_shown = rules.is_none_or(|e| !e.is_set());
    let row = move |buttons: &'static [(idem_core::FaultKind, &'static str, &'static str)]| {
        buttons
            .iter()
            .filter(|(kind, _, _)| offers(*kind))
            .map(|&(kind, id, key)| {
                view! {
                    <button type="button" data-testid=id on:click=move |_| fire(kind)>
                        {prefs.t(key)}
                    </button>
                }
            })
            .collect_view()
    };
    // Only the phases this design's handler has (an accounts API calls no processor), named
    // in its story's words (the accounts and the likes stories share a list, not its words).
    let design_phases = Memo::new(move |_| {
        lab.run.with(|r| {
            let scenario = r.world().scenario();
            (idem_core::Explorer::phases(scenario), scenario.story)
        })
    });
    let phases = move || {
        let (list, story) = design_phases.get();
        let default = default_phase(&list);
        list.into_iter()
            .map(|p| {
                view! {
                    <option value=p.name() selected=Some(p) == default>
                        {idem_lesson::labels::phase_in(p, story, prefs.catalog())}
                    </option>
                }
            })
            .collect_view()
    };
    view! {
        <section class="faults" aria-label=prefs.t("ui.break_things")>
            <h2>{prefs.t("ui.break_things")}</h2>
            <div class="fault-main">
                {offers(idem_core::FaultKind::LoseAck).then(|| view! {
                <button
                    type="button"
                    class=move || { if armed.get() > 0 { "danger armed" } else { "danger" } }
                    data-testid="drop-next-ack"
                    data-armed=move || armed.get().to_string()
                    on:click=move |_| {
                        from_menu.set(false);
                        act_in_view(lab, Action::LoseNextAck)
                    }
                >
                    {move || match armed.get() {
                        0 => prefs.t("ui.lose_ack"),
                        1 => prefs.t("ui.ack_armed"),
                        n => prefs.catalog().fill("ui.acks_armed", &[("n", n.to_string())]),
                    }}
                </button>
                })}
                {offers(idem_core::FaultKind::Retry).then(|| view! {
                <button
                    type="button"
                    class="secondary"
                    data-testid="retry"
                    on:click=move |_| {
                        from_menu.set(false);
                        act_in_view(lab, Action::RetryNow)
                    }
                >
                    {prefs.t("ui.retry")}
                </button>
                })}
                {surprise_shown.then(|| view! {
                <button
                    type="button"
                    class="secondary"
                    data-testid="chaos-run"
                    on:click=move |_| {
                        from_menu.set(false);
                        surprise(lab)
                    }
                >
                    {prefs.t("ui.chaos_run")}
                </button>
                })}
            </div>
            {move || {
                drawn.get().map(|(seed, n)| {
                    let words = prefs
                        .catalog()
                        .fill("ui.chaos_seed", &[("seed", seed.to_string()), ("n", n.to_string())]);
                    // Once the run is over: how many of the drawn faults hit, from the core's
                    // record (an armed crash may find no handler to hit).
                    let count = move || {
                        lab.run.with(|r| idem_lesson::fault_record::chaos_count(r.world(), prefs.catalog()))
                            .map(|c| view! { " " <span data-testid="chaos-count">{c}</span> })
                    };
                    view! { <p class="hint chaos-seed" data-testid="chaos-seed" data-seed=seed.to_string()>{words}{count}</p> }
                })
            }}
            {move || (!from_menu.get()).then(notice)}
            <details class="fault-menu">
                <summary>{prefs.t("ui.more_faults")}</summary>
                <label class="field">
                    <span>{prefs.t("ui.packet")}</span>
                    <select data-testid="packet-select" node_ref=packet_select>
                        <option value="">{prefs.t("ui.next_packet")}</option>
                        {crate::view::keyed::keyed_rows(
                            options,
                            |(id, label)| (*id, label.clone()),
                            |(id, label)| view! { <option value=id>{label}</option> },
                        )}
                    </select>
                </label>
                <div class="fault-grid">
                    <div class="fault-row">{row(MENU[0])}</div>
                    <div class="fault-row">
                        <label class="field">
                            <span>{prefs.t("ui.crash_at")}</span>
                            <select data-testid="crash-phase" node_ref=phase_select>{phases}</select>
                        </label>
                        {row(MENU[1])}
                    </div>
                    <div class="fault-row">{row(MENU[2])}</div>
                </div>
                {move || from_menu.get().then(notice)}
            </details>
        </section>
    }
}
