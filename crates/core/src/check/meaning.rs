//! A run's faults by what they mean, so the same faults can be replayed under other
//! protections.
//!
//! An injected action is recorded with a step count, and a packet fault names its packet by
//! id: both depend on the protections. With the Idempotency-Key on, the API talks to the store
//! before anything else, so the 201 that was packet #5, dropped at step 6 of the naive run, is
//! another packet sent at another step, and replaying the raw schedule drops some other
//! packet, or nothing. Here each fault is described instead by what it did:
//!
//! - a packet (only the phone's link loses, duplicates or delays packets) by what it is:
//!   "operation 1's 2nd request", "the answer to operation 1's 1st request", or the network's
//!   copy of one of those (a [`Name`]);
//! - its moment by the last thing the phone's side of the run did before it (a packet on the
//!   phone's link sent or arriving, a client timer, the phone waking, the API restarting or
//!   sweeping, a scripted input, the previous injected action: also a [`Name`]), and how many
//!   steps after that; the steps inside the data centre in between depend on the protections,
//!   so in another run the fault comes that many steps later or just before the next such
//!   moment, whichever is first (a packet fault, if its packet is sent later there, when it
//!   is sent).
//!
//! Replayed under the protections it was found with, a schedule rebuilds exactly the same run
//! (the tests check it for every counter-example of every scenario). A fault whose packet is
//! never sent, or already gone, in the other run, or that the other run refuses at its moment
//! cannot be replayed: the replay says so rather than inject something else. The one
//! exception is a Retry press that finds nothing to retry: the press does nothing (the phone
//! shows no Retry: the operation is over, or the client's deadline made it give up).

use crate::action::{Action, ActionError};
use crate::nodes::message::Payload;
use crate::scenario::Scenario;
use crate::topology::MsgId;
use crate::world::{Cause, World};

/// Replays, and the closing check that plays them on, give up after this many steps (a run of
/// the lesson takes well under 300).
pub(crate) const MAX_STEPS: u32 = 5_000;

/// A packet on the phone's link or a moment of a run, by what it is: `[kind, a, b, c]` (plain
/// numbers keep the page's wasm small). Packets:
///
/// - `[REQUEST, op, n, copy]`: the phone's `n`-th request (0-based) for operation `op`,
///   retries and second requests counted, the network's copies not; `copy` 0 is the request
///   itself, `c` the network's c-th copy of it;
/// - `[RESPONSE, op, n | request_copy << 16, copy]`: the API's answer to that request (or to
///   its copy `request_copy`), `copy` as above;
/// - `[STATUS, …]` and `[STATUS_ANSWER, …]`: the same for the phone's status checks, counted
///   apart (a status check is not a retry, and a fault on a retry does not land on one).
///
/// Moments, the things on the phone's side of a run, the same whatever the data centre does
/// in between: a packet sent (the packet's own name), a packet that arrived or was lost on
/// arrival (its name with [`ARRIVED`] added to the kind), the `n`-th client timer of operation
/// `op` (`[TIMER, op, n, 0]`), and the `n`-th time the phone woke, the API restarted, its
/// recovery job ran, a paused handler carried on, a scripted input came or an action was injected (`[kind, 0, n, 0]`).
pub(crate) type Name = [u32; 4];

const REQUEST: u32 = 1;
const RESPONSE: u32 = 2;
/// Added to a packet's kind: it arrived.
const ARRIVED: u32 = 2;
const TIMER: u32 = 5;
const WAKE: u32 = 6;
const RESTART: u32 = 7;
const SWEEP: u32 = 8;
const SCRIPT: u32 = 9;
const INJECTED: u32 = 10;
const RESUME: u32 = 11;
const STATUS: u32 = 12;
const STATUS_ANSWER: u32 = 13;

/// One injected action by its meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Planned {
    /// The action (a packet fault's id is replaced on replay).
    pub action: Action,
    /// The packet a packet fault is about.
    pub target: Option<Name>,
    /// The last moment before it (`None`: before anything happened).
    pub anchor: Option<Name>,
    /// Steps after the anchor's step.
    pub after: u32,
}

/// Follows a run, naming its packets and moments.
#[derive(Clone, Debug, Default)]
struct Tracker {
    /// Every packet on the phone's link so far.
    wires: Vec<(MsgId, Name)>,
    /// Moments so far, each with the step count just after it.
    seen: Vec<(Name, u32)>,
}

impl Tracker {
    fn wire(&self, id: MsgId) -> Option<Name> {
        self.wires.iter().find(|(m, _)| *m == id).map(|(_, w)| *w)
    }

    fn id(&self, wire: Name) -> Option<MsgId> {
        self.wires.iter().find(|(_, w)| *w == wire).map(|(m, _)| *m)
    }

    /// How many packets so far start with `head`, copies or not.
    fn count(&self, head: &[u32], copies: bool) -> u32 {
        self.wires
            .iter()
            .filter(|(_, w)| w[..head.len()] == *head && (w[3] > 0) == copies)
            .count() as u32
    }

    /// The next moment of `kind` (of operation `op` for a timer, else `op` is 0).
    fn next(&self, kind: u32, op: u32) -> Name {
        let n = self
            .seen
            .iter()
            .filter(|(m, _)| m[0] == kind && m[1] == op)
            .count() as u32;
        [kind, op, n, 0]
    }

    /// The moments of the world's latest step (its cause first, then what it sent).
    fn observe(&mut self, world: &World) {
        let Some(step) = world.steps().last() else {
            return;
        };
        let at = world.step_count();
        let moment = match step.cause {
            Cause::Deliver(id) => self.wire(id).map(|w| [w[0] + ARRIVED, w[1], w[2], w[3]]),
            Cause::ClientTimer(op) => Some(self.next(TIMER, op.0)),
            Cause::ClientWake => Some(self.next(WAKE, 0)),
            Cause::ApiRestart => Some(self.next(RESTART, 0)),
            Cause::RecoverySweep => Some(self.next(SWEEP, 0)),
            Cause::ApiResume => Some(self.next(RESUME, 0)),
            Cause::Scripted(_) => Some(self.next(SCRIPT, 0)),
            Cause::Injected(_) => Some(self.next(INJECTED, 0)),
        };
        self.seen.extend(moment.map(|m| (m, at)));
        for id in &step.sent {
            let Some(message) = world.network().get(*id) else {
                continue;
            };
            if !message.is_faultable() {
                continue;
            }
            let wire = match (&message.payload, message.duplicate_of) {
                (_, Some(original)) => self
                    .wire(original)
                    .map(|o| [o[0], o[1], o[2], self.count(&o[..3], true) + 1]),
                (Payload::Request(request), None) => {
                    let op = request.op.0;
                    let kind = if request.status_query {
                        STATUS
                    } else {
                        REQUEST
                    };
                    Some([kind, op, self.count(&[kind, op], false), 0])
                }
                (Payload::Response(response), None) => self
                    .wire(response.in_reply_to)
                    .filter(|w| w[0] == REQUEST || w[0] == STATUS)
                    .map(|w| {
                        let kind = if w[0] == STATUS {
                            STATUS_ANSWER
                        } else {
                            RESPONSE
                        };
                        [kind, w[1], w[2] | w[3] << 16, 0]
                    }),
                _ => None,
            };
            if let Some(wire) = wire {
                self.wires.push((*id, wire));
                self.seen.push((wire, at));
            }
        }
    }

    /// An injected action that did nothing (a Retry press with nothing to retry): still the
    /// moment later faults may follow.
    fn pressed_in_vain(&mut self, step_count: u32) {
        let moment = self.next(INJECTED, 0);
        self.seen.push((moment, step_count));
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
    fn last(&self, step_count: u32) -> (Option<Name>, u32) {
        match self.seen.last() {
            Some((m, at)) => (Some(*m), step_count - at),
            None => (None, step_count),
        }
    }

    /// Steps since `anchor`, if it happened.
    fn since(&self, anchor: Option<Name>, step_count: u32) -> Option<u32> {
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

/// [`replay`], with the Retry presses that found nothing to retry (bit `i % 32` for
/// `planned[i]`: runs have a handful of faults). Those are not refused: the user's press does nothing when the phone offers no Retry
/// (the operation is over, or a deadline made the client give up), and that is the other
/// protections' doing, not a fault that could not happen.
pub(crate) fn replay_noting(scenario: &Scenario, planned: &[Planned]) -> Option<(World, u32)> {
    let mut world = World::new(scenario);
    world.forget_history();
    let mut tracker = Tracker::default();
    let mut in_vain = 0u32;
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
                            in_vain |= 1 << (index % 32);
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

    /// Names count per operation and kind: originals and copies apart, each copy numbered,
    /// each attempt and each timer of an operation numbered from 0.
    #[test]
    fn packets_and_moments_are_named_by_operation_attempt_and_copy() {
        let scenario = Scenario::by_id("naive").expect("naive");
        let mut world = World::new(&scenario);
        let mut t = Tracker::default();
        // Answers lost (the story's own and four more): the original's and its two copies',
        // then the first two retries': the phone times out again and again.
        for _ in 0..4 {
            world.apply(Action::LoseNextAck).expect("armed");
            t.observe(&world);
        }
        let first = loop {
            world.step().expect("a step");
            t.observe(&world);
            let sent = world.steps().last().expect("step").sent.clone();
            if let Some(id) = sent
                .into_iter()
                .find(|id| world.network().get(*id).is_some_and(|m| m.is_faultable()))
            {
                break id;
            }
        };
        // The first request, copied twice.
        for _ in 0..2 {
            world.apply(Action::Duplicate(first)).expect("copied");
            t.observe(&world);
        }
        while world.step().is_some() {
            t.observe(&world);
        }
        let op = t.wire(first).expect("named")[1];
        let names: Vec<Name> = t.wires.iter().map(|(_, w)| *w).collect();
        assert_eq!(t.wire(first), Some([REQUEST, op, 0, 0]));
        assert!(names.contains(&[REQUEST, op, 0, 1]), "{names:?}");
        assert!(names.contains(&[REQUEST, op, 0, 2]), "{names:?}");
        // Answers are named by what they answer: the original's, then each copy's apart.
        assert!(names.contains(&[RESPONSE, op, 0, 0]), "{names:?}");
        assert!(names.contains(&[RESPONSE, op, 1 << 16, 0]), "{names:?}");
        // The retries are the operation's second and third originals.
        assert!(names.contains(&[REQUEST, op, 1, 0]), "{names:?}");
        assert!(names.contains(&[REQUEST, op, 2, 0]), "{names:?}");
        let timers: Vec<Name> = t
            .seen
            .iter()
            .map(|(m, _)| *m)
            .filter(|m| m[0] == TIMER)
            .collect();
        assert_eq!(&timers[..2], [[TIMER, op, 0, 0], [TIMER, op, 1, 0]]);
        // Each name is given once.
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
    }

    /// A status check and its answer have names of their own, apart from requests and answers.
    #[test]
    fn a_status_check_and_its_answer_are_named_apart() {
        let mut scenario = Scenario::by_id("fully-protected").expect("scenario");
        scenario.protections.status_check = true;
        let mut world = World::new(&scenario);
        let mut t = Tracker::default();
        while !t.wires.iter().any(|(_, w)| w[0] == REQUEST) {
            world.step().expect("the payment starts");
            t.observe(&world);
        }
        world
            .apply(Action::AdvanceClock(25 * crate::time::HOUR))
            .expect("offline");
        t.observe(&world);
        while world.step().is_some() {
            t.observe(&world);
        }
        let names: Vec<Name> = t.wires.iter().map(|(_, w)| *w).collect();
        let op = names[0][1];
        assert!(names.contains(&[STATUS, op, 0, 0]), "{names:?}");
        assert!(names.contains(&[STATUS_ANSWER, op, 0, 0]), "{names:?}");
        assert!(names.contains(&[REQUEST, op, 0, 0]), "{names:?}");
    }

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

    /// A Retry press that finds nothing to retry does nothing, but it is still a moment: a
    /// fault planned after it follows it.
    #[test]
    fn a_press_in_vain_is_still_the_moment_the_next_fault_follows() {
        let scenario = Scenario::by_id("naive")
            .expect("naive")
            .without_scripted_faults();
        let press = Planned {
            action: Action::RetryNow,
            target: None,
            anchor: None,
            after: 0,
        };
        let lose = Planned {
            action: Action::LoseNextAck,
            target: None,
            anchor: Some([INJECTED, 0, 0, 0]),
            after: 0,
        };
        // Before the payment starts there is nothing to retry.
        assert_eq!(
            World::new(&scenario).apply(Action::RetryNow),
            Err(ActionError::NothingToRetry)
        );
        let (world, in_vain) = replay_noting(&scenario, &[press, lose]).expect("replays");
        assert_eq!(in_vain, 0b1, "the press, not the lost answer, was in vain");
        assert_eq!(world.injected(), &[(0, Action::LoseNextAck)]);
    }
}
