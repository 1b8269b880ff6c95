//! A run's faults by what they mean, so the same faults can be replayed under other
//! protections.
//!
//! An injected action is recorded with a step count, and a packet fault names its packet by
//! id: both depend on the protections. With the Idempotency-Key on, the API talks to the store
//! before anything else, so the answer that was message #6 at step 5 is another number sent at
//! another step, and replaying the raw schedule drops some other packet, or nothing. Here each
//! fault is described instead by what it did:
//!
//! - a packet (only the phone's link loses, duplicates or delays packets) by what it is:
//!   "operation 1's 2nd request", "the answer to operation 1's 1st request", or the network's
//!   copy of one of those ([`Wire`]);
//! - its moment by the last thing the phone's side of the run did before it (a packet on the
//!   phone's link sent or arriving, a client timer, the phone waking, the API restarting or
//!   sweeping, a scripted input, the previous injected action: a [`Moment`]), and how many
//!   steps after that; the steps inside the data centre in between depend on the protections,
//!   so in another run the fault comes that many steps later or just before the next such
//!   moment, whichever is first.
//!
//! Replayed under the protections it was found with, a schedule rebuilds exactly the same run
//! (the tests check it for every counter-example of every scenario). A fault whose packet is
//! never sent, or already gone, in the other run, or that the other run refuses at its moment
//! cannot be replayed: the replay says so rather than inject something else. The one
//! exception is a Retry press that finds nothing to retry: the press does nothing (the phone
//! shows no Retry: the operation is over, or the client's deadline made it give up).

use crate::action::{Action, ActionError};
use crate::net::Payload;
use crate::scenario::Scenario;
use crate::topology::{MsgId, OpId};
use crate::world::{Cause, World};

/// Replays give up after this many steps (a run of the lesson takes well under 300).
const MAX_STEPS: u32 = 5_000;

/// A packet on the phone's link, by what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Wire {
    /// The phone's `n`-th request (0-based) for operation `op`, retries and second requests
    /// counted, the network's copies not; `copy` 0 is the request itself, `c` its c-th copy.
    Request {
        /// The operation.
        op: OpId,
        /// Which of its requests.
        n: u32,
        /// 0, or which network copy.
        copy: u32,
    },
    /// The API's answer to the request `to` (`(op, n, copy)` as above); `copy` as above.
    Response {
        /// The request answered.
        to: (OpId, u32, u32),
        /// 0, or which network copy.
        copy: u32,
    },
}

impl Wire {
    fn copy(self) -> u32 {
        match self {
            Wire::Request { copy, .. } | Wire::Response { copy, .. } => copy,
        }
    }

    fn with_copy(self, c: u32) -> Wire {
        match self {
            Wire::Request { op, n, .. } => Wire::Request { op, n, copy: c },
            Wire::Response { to, .. } => Wire::Response { to, copy: c },
        }
    }
}

/// Something on the phone's side of a run, the same whatever the data centre does in between.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Moment {
    /// A packet on the phone's link was sent.
    Sent(Wire),
    /// It arrived (or was lost on arrival).
    Arrived(Wire),
    /// The `n`-th client timer of this operation fired.
    Timer(OpId, u32),
    /// The phone woke for the `n`-th time.
    Wake(u32),
    /// The API restarted for the `n`-th time.
    Restart(u32),
    /// The API's recovery job ran for the `n`-th time.
    Sweep(u32),
    /// The `n`-th scripted input.
    Script(u32),
    /// The `n`-th injected action.
    Injected(u32),
}

/// One injected action by its meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Planned {
    /// The action (a packet fault's id is replaced on replay).
    pub action: Action,
    /// The packet a packet fault is about.
    pub target: Option<Wire>,
    /// The last moment before it (`None`: before anything happened).
    pub anchor: Option<Moment>,
    /// Steps after the anchor's step.
    pub after: u32,
}

/// Follows a run, naming its packets and moments.
#[derive(Clone, Debug, Default)]
struct Tracker {
    /// Every packet on the phone's link so far.
    wires: Vec<(MsgId, Wire)>,
    /// Moments so far, each with the step count just after it.
    seen: Vec<(Moment, u32)>,
}

impl Tracker {
    fn wire(&self, id: MsgId) -> Option<Wire> {
        self.wires.iter().find(|(m, _)| *m == id).map(|(_, w)| *w)
    }

    fn id(&self, wire: Wire) -> Option<MsgId> {
        self.wires.iter().find(|(_, w)| *w == wire).map(|(m, _)| *m)
    }

    fn count(&self, same: impl Fn(&Moment) -> bool) -> u32 {
        self.seen.iter().filter(|(m, _)| same(m)).count() as u32
    }

    /// The moments of the world's latest step (its cause first, then what it sent).
    fn observe(&mut self, world: &World) {
        let Some(step) = world.steps().last() else {
            return;
        };
        let at = world.step_count();
        let moment = match step.cause {
            Cause::Deliver(id) => self.wire(id).map(Moment::Arrived),
            Cause::ClientTimer(op) => Some(Moment::Timer(
                op,
                self.count(|m| matches!(m, Moment::Timer(o, _) if *o == op)),
            )),
            Cause::ClientWake => Some(Moment::Wake(self.count(|m| matches!(m, Moment::Wake(_))))),
            Cause::ApiRestart => Some(Moment::Restart(
                self.count(|m| matches!(m, Moment::Restart(_))),
            )),
            Cause::RecoverySweep => {
                Some(Moment::Sweep(self.count(|m| matches!(m, Moment::Sweep(_)))))
            }
            Cause::Scripted(_) => Some(Moment::Script(
                self.count(|m| matches!(m, Moment::Script(_))),
            )),
            Cause::Injected(_) => Some(Moment::Injected(
                self.count(|m| matches!(m, Moment::Injected(_))),
            )),
        };
        self.seen.extend(moment.map(|m| (m, at)));
        for id in &step.sent {
            let Some(message) = world.network().get(*id) else {
                continue;
            };
            if !message.is_faultable() {
                continue;
            }
            let copy_of = message.duplicate_of.and_then(|o| self.wire(o));
            let wire = match (&message.payload, copy_of) {
                (_, Some(original)) => {
                    let copies = self
                        .wires
                        .iter()
                        .filter(|(_, w)| w.copy() > 0 && w.with_copy(0) == original)
                        .count() as u32;
                    Some(original.with_copy(copies + 1))
                }
                (Payload::Request(request), None) => {
                    let n = self
                        .wires
                        .iter()
                        .filter(|(_, w)| {
                            matches!(w, Wire::Request { op, copy: 0, .. } if *op == request.op)
                        })
                        .count() as u32;
                    Some(Wire::Request {
                        op: request.op,
                        n,
                        copy: 0,
                    })
                }
                (Payload::Response(response), None) => match self.wire(response.in_reply_to) {
                    Some(Wire::Request { op, n, copy }) => Some(Wire::Response {
                        to: (op, n, copy),
                        copy: 0,
                    }),
                    _ => None,
                },
                _ => None,
            };
            if let Some(wire) = wire {
                self.wires.push((*id, wire));
                self.seen.push((Moment::Sent(wire), at));
            }
        }
    }

    /// An injected action that did nothing (a Retry press with nothing to retry): still the
    /// moment later faults may follow.
    fn pressed_in_vain(&mut self, step_count: u32) {
        let n = self.count(|m| matches!(m, Moment::Injected(_)));
        self.seen.push((Moment::Injected(n), step_count));
    }

    /// Whether the world's latest step had a moment.
    fn marked(&self, world: &World) -> bool {
        world.steps().last().is_some_and(|step| {
            !matches!(step.cause, Cause::Deliver(id) if self.wire(id).is_none())
                || step
                    .sent
                    .iter()
                    .any(|id| world.network().get(*id).is_some_and(|m| m.is_faultable()))
        })
    }

    /// The last moment so far and how many steps ago it was.
    fn last(&self, step_count: u32) -> (Option<Moment>, u32) {
        match self.seen.last() {
            Some((m, at)) => (Some(*m), step_count - at),
            None => (None, step_count),
        }
    }

    /// Steps since `anchor`, if it happened.
    fn since(&self, anchor: Option<Moment>, step_count: u32) -> Option<u32> {
        match anchor {
            None => Some(step_count),
            Some(a) => self
                .seen
                .iter()
                .find(|(m, _)| *m == a)
                .map(|(_, at)| step_count - at),
        }
    }
}

/// The action with its packet replaced by `id`.
fn aimed(action: Action, id: MsgId) -> Action {
    match action {
        Action::Drop(_) => Action::Drop(id),
        Action::Duplicate(_) => Action::Duplicate(id),
        Action::Delay(_, ms) => Action::Delay(id, ms),
        other => other,
    }
}

/// The packet an action names.
fn packet(action: &Action) -> Option<MsgId> {
    match action {
        Action::Drop(id) | Action::Duplicate(id) | Action::Delay(id, _) => Some(*id),
        _ => None,
    }
}

/// The meaning of `injected` (actions at step counts, as [`World::replay`] takes them) in the
/// run of `scenario`; `None` when they do not replay there.
pub(crate) fn describe(scenario: &Scenario, injected: &[(u32, Action)]) -> Option<Vec<Planned>> {
    let mut world = World::new(scenario);
    world.forget_history();
    let mut tracker = Tracker::default();
    let mut planned = Vec::with_capacity(injected.len());
    for (at, action) in injected {
        while world.step_count() < *at && !world.is_quiescent() {
            world.step();
            tracker.observe(&world);
        }
        let target = match packet(action) {
            Some(id) => Some(tracker.wire(id)?),
            None => None,
        };
        let (anchor, after) = tracker.last(world.step_count());
        planned.push(Planned {
            action: *action,
            target,
            anchor,
            after,
        });
        world.apply(*action).ok()?;
        tracker.observe(&world);
    }
    Some(planned)
}

/// The run of `scenario` with the faults `planned` injected by their meaning, up to the last
/// one (the rest of the run is the caller's); `None` when one of them cannot be replayed.
pub(crate) fn replay(scenario: &Scenario, planned: &[Planned]) -> Option<World> {
    replay_noting(scenario, planned).map(|(world, _)| world)
}

/// [`replay`], with the positions in `planned` of the Retry presses that found nothing to
/// retry. Those are not refused: the user's press does nothing when the phone offers no Retry
/// (the operation is over, or a deadline made the client give up), and that is the other
/// protections' doing, not a fault that could not happen.
pub(crate) fn replay_noting(
    scenario: &Scenario,
    planned: &[Planned],
) -> Option<(World, Vec<usize>)> {
    let mut world = World::new(scenario);
    world.forget_history();
    let mut tracker = Tracker::default();
    let mut in_vain = Vec::new();
    for (index, p) in planned.iter().enumerate() {
        loop {
            if let Some(since) = tracker.since(p.anchor, world.step_count()) {
                let due =
                    since >= p.after || world.is_quiescent() || next_is_marked(&world, &tracker);
                let action = match p.target {
                    None => Some(p.action),
                    Some(wire) => tracker.id(wire).map(|id| aimed(p.action, id)),
                };
                if let (true, Some(action)) = (due, action) {
                    match world.apply(action) {
                        Ok(_) => tracker.observe(&world),
                        Err(ActionError::NothingToRetry) => {
                            in_vain.push(index);
                            tracker.pressed_in_vain(world.step_count());
                        }
                        Err(_) => return None,
                    }
                    break;
                }
            }
            if world.is_quiescent() || world.step_count() >= MAX_STEPS {
                return None;
            }
            world.step();
            tracker.observe(&world);
        }
    }
    Some((world, in_vain))
}

/// Whether the world's next step has a moment (it is simulated on a copy).
fn next_is_marked(world: &World, tracker: &Tracker) -> bool {
    let mut next = world.clone();
    next.step().is_some() && tracker.marked(&next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::{Bounds, Explorer};
    use crate::scenario::IDS;

    #[test]
    fn under_the_same_protections_the_meaning_replays_the_same_run() {
        for id in IDS {
            let base = Scenario::by_id(id)
                .expect("known")
                .without_scripted_faults();
            let report = Explorer::new(&base, Bounds::faults(2)).run_to_end().clone();
            for cx in &report.shortest {
                let planned = describe(&base, &cx.injected).expect("replays");
                let world = replay(&base, &planned).expect("replays by meaning");
                assert_eq!(world.injected(), &cx.injected[..], "{id}: {planned:?}");
            }
        }
    }
}
