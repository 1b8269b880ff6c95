//! Breaking things: lose the next ack, retry, and the fault menu (drop, duplicate or delay a
//! packet on the phone's link, crash the API at a phase, evict keys, advance the clock, a
//! concurrent request, a reused key, another user's key). Refusals show as a notice.
//!
//! The main buttons and the packet list are elements with their own handlers (the list is
//! keyed by packet, so a chosen packet stays chosen while the run moves), and so are the
//! menu's buttons (one handler given each button's action name).

use idem_core::SimTime;
use idem_core::{Action, FaultKind, MsgId, Phase, World};

use crate::labels::{msg_tag, packet_label, ShortNames};

/// The fault menu's buttons, row by row: (the kind for [`menu_action`], test id, label key).
/// The phase choice (the phases this design's handler has) sits before the second row's
/// buttons, crash and pause.
pub const MENU: [&[(FaultKind, &str, &str)]; 3] = [
    &[
        (FaultKind::Drop, "fault-drop", "ui.drop"),
        (FaultKind::Dup, "fault-duplicate", "ui.duplicate"),
        (FaultKind::Delay, "fault-delay", "ui.delay"),
    ],
    &[
        (FaultKind::Crash, "fault-crash", "ui.crash"),
        (FaultKind::Pause, "fault-pause", "ui.pause"),
    ],
    &[
        (FaultKind::Evict, "fault-evict", "ui.evict"),
        (FaultKind::Clock, "fault-clock", "ui.clock"),
        (FaultKind::Concurrent, "fault-concurrent", "ui.concurrent"),
        (FaultKind::ReuseKey, "fault-reuse-key", "ui.reuse_key"),
        (FaultKind::OtherUser, "fault-other-user", "ui.other_user"),
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

/// The action a menu button of `kind` asks for, given the chosen packet and phase (none when
/// it needs a packet or a phase that is not there).
pub fn menu_action(kind: FaultKind, packet: Option<MsgId>, phase: &str) -> Option<Action> {
    let packet_action = |f: fn(MsgId) -> Action| packet.map(f);
    match kind {
        FaultKind::Drop => packet_action(Action::Drop),
        FaultKind::Dup => packet_action(Action::Duplicate),
        FaultKind::Delay => packet.map(|id| Action::Delay(id, SimTime::SECOND)),
        FaultKind::Crash => Phase::from_name(phase).map(Action::Crash),
        FaultKind::Pause => Phase::from_name(phase).map(Action::Pause),
        FaultKind::LoseAck => Some(Action::LoseNextAck),
        FaultKind::Evict => Some(Action::EvictKeys),
        FaultKind::Retry => Some(Action::RetryNow),
        FaultKind::Clock => Some(Action::AdvanceClock(25 * SimTime::HOUR)),
        FaultKind::Concurrent => Some(Action::ConcurrentDuplicate),
        FaultKind::ReuseKey => Some(Action::ReuseKeyOtherBody),
        FaultKind::OtherUser => Some(Action::OtherUserSameKey),
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
            let action = menu_action(*act, Some(MsgId(3)), "respond");
            assert!(action.is_some(), "{act:?}");
            assert_eq!(action.and_then(|a| a.kind()), Some(*act), "{act:?}");
            assert!(id.starts_with("fault-"), "{id}");
            assert_ne!(Lang::En.catalog().text(key), *key, "{key} has a label");
        }
        assert_eq!(menu_action(FaultKind::Drop, None, ""), None);
        assert_eq!(
            menu_action(FaultKind::Crash, None, "respond"),
            Some(Action::Crash(Phase::Respond))
        );
        assert_eq!(
            menu_action(FaultKind::Pause, None, "call-processor"),
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
