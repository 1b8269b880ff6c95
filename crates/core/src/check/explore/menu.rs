//! The explorer's menu: which faults it may inject in a world now ([`faults`]), which kinds
//! a scenario's search offers ([`menu`]) and the phases a handler can reach ([`phases`]).

use crate::action::{Action, FaultKind, KindSet, OpKind, OpSpec};
use crate::phase::Phase;
use crate::scenario::Scenario;
use crate::time::{HOUR, SECOND};
use crate::world::World;

use super::search::Explorer;

/// Every fault the explorer may inject in `world` now: the player's whole menu but the
/// scenario-shaping inputs (a concurrent second request, a reused key, another user's key),
/// which are the scenario's own. Positions that cannot change the outcome are skipped: a
/// packet is dropped, duplicated or delayed (by a second, as the player does) only in the step
/// that sent it (later would be the same run); a crash, a pause, a lost next answer and an
/// eviction are armed only just before the API handles something (in between they change
/// nothing), crashes and pauses only for the phases this design has, an eviction only while the
/// store holds something, and the client's Retry and going offline only while an operation is
/// open.
pub(crate) fn faults(world: &World) -> Vec<Action> {
    faults_of(world, KindSet::ALL)
}

/// [`faults`] of the kinds in `kinds` only, in the same order.
pub(crate) fn faults_of(world: &World, kinds: KindSet) -> Vec<Action> {
    let mut out = faults_all(world);
    if kinds != KindSet::ALL {
        out.retain(|a| a.kind().is_some_and(|k| kinds.contains(k)));
    }
    out
}

fn faults_all(world: &World) -> Vec<Action> {
    let mut out = Vec::new();
    let just_sent = world
        .steps()
        .last()
        .map(|s| s.sent.as_slice())
        .unwrap_or_default();
    for message in world.network().in_flight().filter(|m| m.is_faultable()) {
        if !just_sent.contains(&message.id) {
            continue;
        }
        out.push(Action::Drop(message.id));
        if message.duplicate_of.is_none() {
            out.push(Action::Duplicate(message.id));
        }
        out.push(Action::Delay(message.id, SECOND));
    }
    if world.api_acts_next() {
        let phases = phases(world.scenario());
        if world.api().crash_armed().is_none() {
            out.extend(phases.iter().copied().map(Action::Crash));
        }
        if world.api().pause_armed().is_none() {
            out.extend(phases.iter().copied().map(Action::Pause));
        }
        if !world.next_ack_will_be_lost() {
            out.push(Action::LoseNextAck);
        }
        if world.store().entries().next().is_some() || world.store().counters().next().is_some() {
            out.push(Action::EvictKeys);
        }
    }
    let open = world.client().retryable_op(world.now()).is_some()
        && world.client_offline_until().is_none();
    if open {
        out.push(Action::RetryNow);
        out.push(Action::AdvanceClock(25 * HOUR));
    }
    out
}

/// The kinds of fault the explorer's menu holds for `scenario` (in menu order): what
/// a search of it tries wherever they apply. A kind whose precondition the design never meets
/// (an eviction without a Redis store) is left out.
pub(crate) fn menu(scenario: &Scenario) -> Vec<FaultKind> {
    let p = scenario.protections;
    let mut kinds = vec![FaultKind::Drop, FaultKind::Dup, FaultKind::Delay];
    if !phases(scenario).is_empty() {
        kinds.extend([FaultKind::Crash, FaultKind::Pause]);
    }
    kinds.push(FaultKind::LoseAck);
    let redis = p.idempotency_key && !p.key_in_ledger_tx && !scenario.client_omits_key;
    if redis
        && scenario
            .story
            .nodes()
            .contains(&crate::topology::Node::Store)
    {
        kinds.push(FaultKind::Evict);
    }
    kinds.extend([FaultKind::Retry, FaultKind::Clock]);
    kinds
}

/// The phases a handler of this scenario can reach.
pub(crate) fn phases(scenario: &Scenario) -> Vec<Phase> {
    let p = scenario.protections;
    let charges = scenario.script.iter().any(|s| {
        matches!(
            s.action,
            Action::Start(OpSpec {
                kind: OpKind::Charge { .. },
                ..
            })
        )
    });
    let keyed = p.idempotency_key && !scenario.client_omits_key;
    Phase::ALL
        .into_iter()
        .filter(|phase| match phase {
            Phase::ClaimKey => charges && keyed,
            Phase::CallProcessor => charges,
            Phase::RecordKey => charges && keyed && !p.key_in_ledger_tx,
            Phase::WriteLedger | Phase::Respond => true,
        })
        .collect()
}

/// The explorer's menu, as the page shows it.
impl Explorer {
    /// Every fault the explorer can add to `world` now, in menu order: what the player offers
    /// (drop, duplicate and delay a packet, lose the next answer, crash or pause before a phase,
    /// evict keys, the phone offline, Retry) where it would change something.
    pub fn faults(world: &World) -> Vec<Action> {
        faults(world)
    }

    /// The kinds of fault a search of `scenario` tries (URL names, in menu order).
    pub fn menu_kinds(scenario: &Scenario) -> Vec<&'static str> {
        menu(scenario).into_iter().map(FaultKind::name).collect()
    }

    /// The kinds of fault a search of `scenario` tries, in menu order.
    pub fn menu(scenario: &Scenario) -> Vec<FaultKind> {
        menu(scenario)
    }

    /// The phases a handler of `scenario` can reach (where a crash or a pause can be armed).
    pub fn phases(scenario: &Scenario) -> Vec<Phase> {
        phases(scenario)
    }
}
