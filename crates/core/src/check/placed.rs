//! One record of every fault placed on a run and what became of it, read from the world's step
//! log: whether it took effect, and where (the step, the message, the operation and attempt,
//! the phase). Everything the page says about a run's faults — "What hit this run", the node
//! labels at the end, "Surprise me"'s count — reads this record, so a stall is never left out
//! and an armed crash that found nothing to hit is never told as if it fired. No text here.
//!
//! A fault takes effect when the world says so in its notes: a packet dropped, copied or held
//! up in the step that placed it; a lost answer when an answer is lost; a crash or a pause
//! when a handler reaches its phase (arming another one before then replaces it, as the API
//! does); an eviction when a key went; an early Retry when the client sent again; a clock
//! jump only when something was still to happen (a jump at the quiet end of a run changes
//! nothing anyone waits for).

use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::nodes::message::{DropReason, Payload};
use crate::note::Note;
use crate::phase::Phase;
use crate::topology::{HandlerRef, MsgId, OpId};
use crate::world::{Cause, World};

use super::outcome::Fault;

/// Who placed a fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlacedBy {
    /// The scenario's own script (the story's lost answer, its crash): not the student's.
    Script,
    /// Injected from outside: the student's buttons, a link, a challenge or "Surprise me"
    /// (the page knows which of these it was).
    Injected,
}

/// Where a fault took effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Hit {
    /// What the run suffered.
    pub fault: Fault,
    /// The step in which it took effect.
    pub step: u32,
    /// The message it hit, or the one the crashed or stalled handler was handling.
    pub msg: Option<MsgId>,
    /// The operation it hit, when the step can tell.
    pub op: Option<OpId>,
    /// The attempt of that operation (1 = the first request), when the step can tell.
    pub attempt: Option<u32>,
}

/// One fault placed on the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlacedFault {
    /// The action as placed.
    pub action: Action,
    /// Who placed it.
    pub by: PlacedBy,
    /// The step that placed it.
    pub step: u32,
    /// Where it took effect; `None`: it found nothing to hit (yet, while the run goes on).
    pub hit: Option<Hit>,
}

impl PlacedFault {
    /// The phase a crash or a pause waits for.
    pub fn phase(&self) -> Option<Phase> {
        match self.action {
            Action::Crash(p) | Action::Pause(p) => Some(p),
            _ => None,
        }
    }
}

/// The record of `world`'s faults, in the order they were placed, with the faults the run
/// suffered in the order it suffered them (key expiries included: no one places those, the
/// clock does). Needs the step log (kept unless the world forgot its history).
pub(crate) fn record(world: &World) -> (Vec<PlacedFault>, Vec<Fault>) {
    let mut placed: Vec<PlacedFault> = Vec::new();
    let mut suffered: Vec<Fault> = Vec::new();
    let mut crash: Option<usize> = None;
    let mut pause: Option<usize> = None;
    let mut acks: Vec<usize> = Vec::new();
    // Clock jumps not yet known to have taken effect: (placed index, where in `suffered` the
    // jump goes when it has, so the list keeps the order the faults were placed in).
    let mut clocks: Vec<(usize, usize)> = Vec::new();
    // Which operation and attempt each handler serves, learnt from the request that started it.
    let mut handlers: Vec<(HandlerRef, OpId, u32)> = Vec::new();
    let net = world.network();
    for step in world.steps() {
        let delivered = match step.cause {
            Cause::Deliver(id) => Some(id),
            _ => None,
        };
        let served = delivered.and_then(|id| match &net.get(id)?.payload {
            Payload::Request(r) => Some((r.op, r.attempt)),
            Payload::Response(r) => match &net.get(r.in_reply_to)?.payload {
                Payload::Request(q) => Some((q.op, q.attempt)),
                _ => None,
            },
            Payload::RedisReply(h, _)
            | Payload::SqlResults(h, _)
            | Payload::ChargeReply(h, _)
            | Payload::Redis(h, _)
            | Payload::Sql(h, _)
            | Payload::Charge(h, _) => handlers
                .iter()
                .find(|(k, _, _)| k == h)
                .map(|(_, op, a)| (*op, *a)),
        });
        if let Some((op, attempt)) = served {
            for id in &step.sent {
                if let Some(h) = net.get(*id).and_then(|m| m.payload.handler()) {
                    if !handlers.iter().any(|(k, _, _)| *k == h) {
                        handlers.push((h, op, attempt));
                    }
                }
            }
        }
        let hit = |fault: Fault, msg: Option<MsgId>| Hit {
            fault,
            step: step.index,
            msg: msg.or(delivered),
            op: served.map(|(op, _)| op),
            attempt: served.map(|(_, a)| a),
        };
        // A clock jump took effect when the world acts after it (a delivery, a timer, the
        // script going on) other than the phone waking up, or a later fault takes effect.
        let world_acted = match step.cause {
            Cause::ClientWake => false,
            Cause::Injected(a) | Cause::Scripted(a) => matches!(a, Action::Start(_)),
            _ => true,
        };
        if world_acted {
            resolve_clocks(&mut clocks, &mut placed, &mut suffered, step.index);
        }
        let (action, by) = match step.cause {
            Cause::Injected(a) => (Some(a), PlacedBy::Injected),
            Cause::Scripted(a) => (Some(a), PlacedBy::Script),
            _ => (None, PlacedBy::Injected),
        };
        if let Some(action) = action.filter(|a| !matches!(a, Action::Start(_))) {
            let at = placed.len();
            placed.push(PlacedFault {
                action,
                by,
                step: step.index,
                hit: None,
            });
            let noted = |f: fn(&Note) -> bool| step.notes.iter().any(f);
            let now = match action {
                Action::Drop(id) => noted_msg(&step.notes, id, Fault::Dropped),
                Action::Duplicate(id) => noted_msg(&step.notes, id, Fault::Duplicated),
                Action::Delay(id, _) => noted_msg(&step.notes, id, Fault::Delayed),
                Action::EvictKeys => noted(|n| matches!(n, Note::KeysEvicted { .. }))
                    .then_some((Fault::Evicted, None)),
                Action::RetryNow => noted(|n| matches!(n, Note::ClientRetryPressed { .. }))
                    .then_some((Fault::RetryPressed, None)),
                Action::ConcurrentDuplicate => noted(|n| matches!(n, Note::ClientSends { .. }))
                    .then_some((Fault::SecondRequest, None)),
                Action::ReuseKeyOtherBody => noted(|n| matches!(n, Note::ClientReusesKey))
                    .then_some((Fault::KeyReused, None)),
                Action::OtherUserSameKey => noted(|n| matches!(n, Note::OtherUserSameKey { .. }))
                    .then_some((Fault::OtherUser, None)),
                Action::LoseNextAck => {
                    acks.push(at);
                    None
                }
                Action::Crash(_) => {
                    crash = Some(at);
                    None
                }
                Action::Pause(_) => {
                    pause = Some(at);
                    None
                }
                Action::AdvanceClock(_) => {
                    clocks.push((at, suffered.len()));
                    None
                }
                Action::Start(_) => None,
            };
            if let Some((fault, msg)) = now {
                resolve_clocks(&mut clocks, &mut placed, &mut suffered, step.index);
                placed[at].hit = Some(Hit {
                    fault,
                    step: step.index,
                    msg,
                    op: None,
                    attempt: None,
                });
                suffered.push(fault);
            }
        }
        for note in &step.notes {
            let (fault, by) = match note {
                Note::MessageLost {
                    reason: DropReason::LostAck,
                    msg,
                } => (
                    Fault::AnswerLost,
                    (!acks.is_empty()).then(|| (acks.remove(0), Some(*msg))),
                ),
                Note::ApiCrashed { phase } => {
                    (Fault::Crashed(*phase), crash.take().map(|i| (i, None)))
                }
                Note::ApiPaused { phase } => {
                    (Fault::Paused(*phase), pause.take().map(|i| (i, None)))
                }
                Note::KeysExpired { .. } => (Fault::Expired, None),
                _ => continue,
            };
            if let Some((i, msg)) = by {
                placed[i].hit = Some(hit(fault, msg));
            }
            suffered.push(fault);
        }
    }
    (placed, suffered)
}

/// The clock jumps still waiting: they took effect at `step`.
fn resolve_clocks(
    clocks: &mut Vec<(usize, usize)>,
    placed: &mut [PlacedFault],
    suffered: &mut Vec<Fault>,
    step: u32,
) {
    // Latest first, so the earlier positions stay where they were.
    for (i, at) in clocks.drain(..).rev() {
        placed[i].hit = Some(Hit {
            fault: Fault::Offline,
            step,
            msg: None,
            op: None,
            attempt: None,
        });
        suffered.insert(at, Fault::Offline);
    }
}

/// The fault of a packet action when its note says it happened to `id`.
fn noted_msg(notes: &[Note], id: MsgId, fault: Fault) -> Option<(Fault, Option<MsgId>)> {
    notes
        .iter()
        .any(|n| match n {
            Note::MessageLost {
                msg,
                reason: DropReason::Dropped,
            } => *msg == id,
            Note::MessageDuplicated { msg, .. } | Note::MessageDelayed { msg, .. } => *msg == id,
            _ => false,
        })
        .then_some((fault, Some(id)))
}
