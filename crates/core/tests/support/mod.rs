//! Shared test harness: run a scenario to quiescence with a step bound, and read its log.
#![allow(dead_code)]

use idem_core::http::{HttpRequest, HttpResponse};
use idem_core::message::Payload;
use idem_core::net::Fate;
use idem_core::{Invariant, Note, RunEnd, Scenario, Status, World};

/// Upper bound on steps for any scenario run in tests.
pub const STEP_BOUND: usize = 2_000;

/// The scenario with this id (panics with the id when unknown).
pub fn scenario(id: &str) -> Scenario {
    Scenario::by_id(id).unwrap_or_else(|e| panic!("scenario {id}: {e:?}"))
}

/// Runs `scenario` until nothing is left to happen; fails if the bound is hit.
pub fn run_scenario(scenario: &Scenario) -> World {
    let mut world = World::new(scenario);
    assert_eq!(
        world.run(STEP_BOUND),
        RunEnd::Quiescent,
        "{} did not settle",
        scenario.id
    );
    world
}

/// Runs the scenario with this id to quiescence.
pub fn run(id: &str) -> World {
    run_scenario(&scenario(id))
}

/// Every request the client put on the wire, in order.
pub fn requests(world: &World) -> Vec<&HttpRequest> {
    world
        .network()
        .messages()
        .iter()
        .filter_map(|m| match &m.payload {
            Payload::Request(r) => Some(r),
            _ => None,
        })
        .collect()
}

/// Every response that reached the client, in order of arrival.
pub fn delivered_responses(world: &World) -> Vec<&HttpResponse> {
    let mut delivered: Vec<_> = world
        .network()
        .messages()
        .iter()
        .filter_map(|m| match (&m.payload, m.fate) {
            (Payload::Response(r), Fate::Delivered(at)) => Some((at, m.id, r)),
            _ => None,
        })
        .collect();
    delivered.sort_by_key(|(at, id, _)| (*at, *id));
    delivered.into_iter().map(|(_, _, r)| r).collect()
}

/// Every status code the API sent (delivered or not), in sending order.
pub fn statuses_sent(world: &World) -> Vec<u16> {
    world
        .network()
        .messages()
        .iter()
        .filter_map(|m| match &m.payload {
            Payload::Response(r) => Some(r.status),
            _ => None,
        })
        .collect()
}

/// All notes of the run, flattened, as catalog keys.
pub fn note_keys(world: &World) -> Vec<&'static str> {
    world
        .steps()
        .iter()
        .flat_map(|s| s.notes.iter().map(Note::key))
        .collect()
}

/// How many answers to the phone the run lost to "lose the next ack".
pub fn lost_acks(world: &World) -> usize {
    world
        .steps()
        .iter()
        .flat_map(|s| &s.notes)
        .filter(|n| {
            matches!(
                n,
                Note::MessageLost {
                    reason: idem_core::message::DropReason::LostAck,
                    ..
                }
            )
        })
        .count()
}

/// Rows affected of every ledger batch, in execution order.
pub fn ledger_rows(world: &World) -> Vec<Vec<u64>> {
    world
        .steps()
        .iter()
        .flat_map(|s| s.notes.iter())
        .filter_map(|n| match n {
            Note::LedgerRan { rows, .. } => Some(rows.clone()),
            _ => None,
        })
        .collect()
}

/// The trace as text: one line per step (index, time, cause, messages sent), then one line per
/// note with its key and contents (statuses, rows affected, payment ids…), and at the end the
/// verdict with its figures. Golden files hold this text; regenerate them with
/// `scripts/golden.sh`.
pub fn trace_text(world: &World) -> String {
    let mut out = String::new();
    for step in world.steps() {
        let cause = match &step.cause {
            idem_core::Cause::Deliver(id) => format!("deliver #{}", id.0),
            idem_core::Cause::ClientTimer(op) => format!("timer op{}", op.0),
            idem_core::Cause::ApiRestart => "api restart".to_owned(),
            idem_core::Cause::RecoverySweep => "recovery sweep".to_owned(),
            idem_core::Cause::ApiResume => "paused handler resumes".to_owned(),
            idem_core::Cause::ClientWake => "phone back online".to_owned(),
            idem_core::Cause::Scripted(a) => format!("script {a:?}"),
            idem_core::Cause::Injected(a) => format!("inject {a:?}"),
        };
        let sent: Vec<String> = step.sent.iter().map(|m| format!("#{}", m.0)).collect();
        out.push_str(&format!(
            "{:>3} t={:<10} {} -> [{}]\n",
            step.index,
            step.at.ms(),
            cause,
            sent.join(" ")
        ));
        for note in &step.notes {
            out.push_str(&format!("      {:<28} {note:?}\n", note.key()));
        }
    }
    let verdict = world.verdict();
    out.push_str(&format!("verdict: {:?}\n", verdict.checks));
    out.push_str(&format!("effects: {:?}\n", verdict.effects));
    out.push_str(&format!("money: {:?}\n", verdict.money));
    out
}

/// What closes each shortest counter-example of every scenario at k = 2 (the core's
/// `closing_protections`, which replays the run's faults by their meaning under other
/// protections), one line each: scenario, invariant, faults, protections that close it.
pub fn closing_text() -> String {
    use idem_core::{closing_protections, Bounds, DeepLink, Explorer};
    let mut out = String::new();
    for id in idem_core::Scenario::IDS {
        let scenario = idem_core::Scenario::by_id(id).expect("a scenario");
        let base = scenario.clone().without_scripted_faults();
        let report = Explorer::new(&scenario, Bounds::faults(2))
            .run_to_end()
            .clone();
        for cx in &report.shortest {
            let faults: Vec<String> = cx
                .injected
                .iter()
                .map(|(at, a)| format!("{at}.{}", DeepLink::action_token(a)))
                .collect();
            let closing: Vec<String> = closing_protections(&base, &cx.injected)
                .iter()
                .map(|ps| ps.join("+"))
                .collect();
            out.push_str(&format!(
                "{id} {} {} -> {}\n",
                cx.invariant.name(),
                faults.join("_"),
                if closing.is_empty() {
                    "none".to_owned()
                } else {
                    closing.join(" | ")
                }
            ));
        }
    }
    out
}

/// The faults of `outcome`'s record that hit, per kind, beside the notes `world` wrote for
/// that kind: `(kind, recorded hits, notes)` for crashes, pauses, evictions and lost answers.
/// The record is read from the step log; the notes are what the nodes said: each pair must be
/// equal.
pub fn record_beside_notes(
    world: &World,
    outcome: &idem_core::Outcome,
) -> [(&'static str, usize, usize); 4] {
    use idem_core::message::DropReason;
    let hits = |kind: &str| {
        outcome
            .placed
            .iter()
            .filter(|p| p.action.kind_name() == kind && p.hit.is_some())
            .count()
    };
    let count = |f: fn(&Note) -> bool| noted(world, f);
    [
        (
            "crash",
            hits("crash"),
            count(|n| matches!(n, Note::ApiCrashed { .. })),
        ),
        (
            "pause",
            hits("pause"),
            count(|n| matches!(n, Note::ApiPaused { .. })),
        ),
        (
            "evict",
            hits("evict"),
            count(|n| matches!(n, Note::KeysEvicted { .. })),
        ),
        (
            "lose-ack",
            hits("lose-ack"),
            count(|n| {
                matches!(
                    n,
                    Note::MessageLost {
                        reason: DropReason::LostAck,
                        ..
                    }
                )
            }),
        ),
    ]
}

/// The designs the record's checks draw faults over: the seed stories, a slow holder past its
/// lease, and everything on.
pub const RECORD_DESIGNS: [&str; 6] = [
    "key",
    "naive",
    "cas",
    "counter",
    "lease-expiry",
    "fully-protected",
];

/// Whether some user was left believing an operation that took effect failed: an error screen
/// (a 412 shows the state it carries, not a failure) or "we couldn't confirm", for an
/// operation with an effect. Read from the phone's screens and the effects counted here (card
/// charges, debits, likes), apart from the core's `Told`, so a test can hold the user-truth
/// verdict against it.
pub fn user_misinformed(world: &World) -> bool {
    use idem_core::client::UserView;
    use idem_core::http::ResponseBody;
    let effects_of = |op: idem_core::OpId| {
        world
            .processor()
            .statement
            .iter()
            .filter(|l| l.op == op)
            .count()
            + world.ledger().debits.iter().filter(|d| d.op == op).count()
            + world.ledger().likes.iter().filter(|l| l.op == op).count()
    };
    world.client().ops().iter().any(|o| {
        let failed = match &o.view {
            UserView::Failed(r) => !matches!(r.body, ResponseBody::PreconditionFailed { .. }),
            UserView::GaveUp => true,
            _ => false,
        };
        failed && effects_of(o.op) > 0
    })
}

/// Whether `invariant` holds in `world` now (not broken, not pending).
pub fn holds(world: &World, invariant: Invariant) -> bool {
    world.verdict().status(invariant) == Some(&Status::Holds)
}

/// How many notes of the whole run `wanted` picks.
pub fn noted(world: &World, wanted: impl Fn(&Note) -> bool) -> usize {
    world
        .steps()
        .iter()
        .flat_map(|s| &s.notes)
        .filter(|n| wanted(n))
        .count()
}
