//! Breaking things: lose the next ack, retry, and the fault menu (drop, duplicate or delay a
//! packet on the phone's link, crash the API at a phase, evict keys, advance the clock, a
//! concurrent request, a reused key, another user's key). Refusals show as a notice.
//!
//! The main buttons and the packet list are elements with their own handlers (the list is
//! keyed by packet, so a chosen packet stays chosen while the run moves), and so are the
//! menu's buttons (one handler given each button's action name).

use idem_core::SimTime;
use idem_core::{Action, MsgId, Phase, World};

use crate::labels::{msg_tag, packet_label, ShortNames};

/// The fault menu's buttons, row by row: (action name for [`menu_action`], test id, label key).
/// The phase choice (the phases this design's handler has) sits before the second row's
/// buttons, crash and pause.
pub const MENU: [&[(&str, &str, &str)]; 3] = [
    &[
        ("drop", "fault-drop", "ui.drop"),
        ("dup", "fault-duplicate", "ui.duplicate"),
        ("delay", "fault-delay", "ui.delay"),
    ],
    &[
        ("crash", "fault-crash", "ui.crash"),
        ("pause", "fault-pause", "ui.pause"),
    ],
    &[
        ("evict", "fault-evict", "ui.evict"),
        ("clock", "fault-clock", "ui.clock"),
        ("concurrent", "fault-concurrent", "ui.concurrent"),
        ("reuse-key", "fault-reuse-key", "ui.reuse_key"),
        ("other-user", "fault-other-user", "ui.other_user"),
    ],
];

/// The packets on the phone's link the menu offers: `(message id, "#3 POST /charges")`.
pub fn packet_choices(world: &World, catalog: &crate::i18n::Catalog) -> Vec<(u32, String)> {
    let names = ShortNames::of(world);
    world
        .network()
        .in_flight()
        .filter(|m| m.is_faultable())
        .map(|m| {
            (
                m.id.0,
                format!("{} {}", msg_tag(m.id), packet_label(m, &names, catalog)),
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
        "delay" => packet.map(|id| Action::Delay(id, SimTime::SECOND)),
        "crash" => Phase::from_name(phase).map(Action::Crash),
        "pause" => Phase::from_name(phase).map(Action::Pause),
        "evict" => Some(Action::EvictKeys),
        "clock" => Some(Action::AdvanceClock(25 * SimTime::HOUR)),
        "concurrent" => Some(Action::ConcurrentDuplicate),
        "reuse-key" => Some(Action::ReuseKeyOtherBody),
        "other-user" => Some(Action::OtherUserSameKey),
        _ => None,
    }
}

/// The phase the menu offers first: recording the key (the seed's window) where the design has
/// it, else the last phase before the answer.
pub fn default_phase(phases: &[Phase]) -> Option<Phase> {
    phases
        .iter()
        .copied()
        .find(|p| *p == Phase::RecordKey)
        .or_else(|| phases.iter().copied().rev().find(|p| *p != Phase::Respond))
        .or_else(|| phases.first().copied())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn every_menu_button_maps_to_an_action() {
        let buttons: Vec<_> = MENU.iter().flat_map(|row| row.iter()).collect();
        assert_eq!(buttons.len(), 10);
        for (act, id, key) in buttons {
            let action = menu_action(act, Some(MsgId(3)), "respond");
            assert!(action.is_some(), "{act}");
            assert!(id.starts_with("fault-"), "{id}");
            assert_ne!(Lang::En.catalog().text(key), *key, "{key} has a label");
        }
        assert_eq!(menu_action("drop", None, ""), None);
        assert_eq!(
            menu_action("crash", None, "respond"),
            Some(Action::Crash(Phase::Respond))
        );
        assert_eq!(
            menu_action("pause", None, "call-processor"),
            Some(Action::Pause(Phase::CallProcessor))
        );
    }

    #[test]
    fn the_phase_menu_offers_only_the_designs_phases() {
        let phases =
            |id: &str| idem_core::Explorer::phases(&idem_core::Scenario::by_id(id).expect("known"));
        // An accounts API has no processor and no key: it writes and answers.
        let cas = phases("cas");
        assert_eq!(cas, [Phase::WriteLedger, Phase::Respond]);
        assert!(!cas.contains(&Phase::CallProcessor));
        assert_eq!(default_phase(&cas), Some(Phase::WriteLedger));
        // The key in PostgreSQL commits with the charge: no separate record step.
        let full = phases("fully-protected");
        assert!(!full.contains(&Phase::RecordKey) && full.contains(&Phase::CallProcessor));
        assert_eq!(default_phase(&full), Some(Phase::WriteLedger));
        assert_eq!(default_phase(&phases("key")), Some(Phase::RecordKey));
    }

    /// Issue 42: "Surprise me" says in words what its seed is (the number that picked these
    /// faults) and what the link does with it, not "seed 4016595433" alone.
    #[test]
    fn the_surprise_says_what_its_seed_is() {
        for (lang, picked, link) in [
            (
                crate::i18n::Lang::En,
                "the number that picked these faults",
                "replays",
            ),
            (crate::i18n::Lang::Ru, "выбрало эти сбои", "по ссылке"),
        ] {
            let text = lang.catalog().fill(
                "ui.chaos_seed",
                &[("seed", "4016595433".into()), ("n", "3".into())],
            );
            assert!(text.contains("4016595433"), "{text}");
            assert!(
                text.contains(picked) && text.contains(link),
                "{lang:?}: {text}"
            );
        }
    }
}
