//! Who is speaking: each note of a step, and each message, attributed to the request it is
//! about (an attempt of an operation) and to the side acting for it (the phone, or the API's
//! handler with the backends answering it). Computed on demand from a world's past (its
//! steps and messages), never while stepping: the search and a plain run pay nothing for it.
//!
//! A request that is not the phone's retry (a double tap's second request, the network's
//! copy, another operation's request) is never called a retry, whatever its number. The
//! network's copy of a request keeps that request's attempt number: its handler, its
//! backends' messages and its answer are numbered as the attempt it copies.

use super::{Cause, Step, World};
use crate::action::Action;
use crate::net::Fate;
use crate::nodes::message::Payload;
use crate::note::Note;
use crate::time::SimTime;
use crate::topology::{HandlerRef, MsgId, OpId};

/// One request the phone's operation put on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RequestAttempt {
    /// The request message (for the network's copy of a request, the copy).
    pub request: MsgId,
    /// The operation it is for.
    pub op: OpId,
    /// Its attempt number on the wire (1 = first try).
    pub number: u32,
    /// How it came to be sent.
    pub sent: Sent,
}

/// How a request came to be sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sent {
    /// The first operation's first request.
    First,
    /// The phone sent the operation again (after a timeout, or Retry pressed).
    Retry,
    /// A second request that is no retry: a double tap, another operation's request.
    Second,
    /// The network's copy of the phone's request (the same attempt, delivered twice).
    Copy,
}

/// Who acts for a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Party {
    /// A request of the phone's.
    Attempt(RequestAttempt),
    /// The recovery job and the operations it re-drives (no phone waits for them).
    Recovery,
}

/// Which side acts for the party.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The phone (sending, timing out, getting the answer).
    Phone,
    /// The API's handler, and the backends answering it.
    Handler,
    /// A handler that has stalled (paused past its claim's lease) at or before this step.
    Stalled,
    /// A backend (Redis, PostgreSQL, the card processor) answering the party's handler: its
    /// line is the backend's, said for that handler, never the handler's own (issue 42).
    Backend {
        /// Whether the handler it answers has stalled (as [`Role::Stalled`]).
        stalled: bool,
    },
}

/// The speaker of a note or a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Speaker {
    /// Whose request.
    pub party: Party,
    /// Which side.
    pub role: Role,
}

impl Step {
    /// The speaker of each of this step's notes, in order (`None` for a note no request owns:
    /// an armed fault, keys expiring, the API coming back). `world` is a world whose steps
    /// hold this one, with its history kept.
    pub fn speakers(&self, world: &World) -> Vec<Option<Speaker>> {
        let actor = world.actor(self);
        let stalled = world.stalled_parties(self.index);
        let mut phone: Option<Party> = actor;
        self.notes
            .iter()
            .map(|note| {
                let (party, role) = match note {
                    Note::ClientSends { op, attempt, .. } => {
                        let party = self
                            .sent
                            .iter()
                            .find_map(|id| world.attempt_of_request(*id).filter(|a| a.op == *op))
                            .or_else(|| world.attempt_numbered(*op, *attempt))
                            .map(Party::Attempt);
                        phone = party;
                        (party, Role::Phone)
                    }
                    Note::ClientTimedOut { op, attempt } => {
                        phone = world.attempt_numbered(*op, *attempt).map(Party::Attempt);
                        (phone, Role::Phone)
                    }
                    // An HTTP response answers exactly one request: the phone's reaction to it
                    // (and its back-off after a 409) belongs to the attempt that request was,
                    // even when the phone has sent a later one since (a stalled handler's late
                    // 409 to attempt 1 reaches a phone that sent attempt 3: attempt 1's answer,
                    // [`Step::answered_late`] says so).
                    Note::ClientGotAnswer { op, .. }
                    | Note::ClientIgnoredLateAnswer { op, .. }
                    | Note::ClientToldToWait { op }
                    | Note::ClientGotForeignAnswer { op, .. } => {
                        if let Some(answered) = world
                            .answered_by(self)
                            .filter(|a| a.op == *op)
                            .map(Party::Attempt)
                        {
                            phone = Some(answered);
                        }
                        (phone, Role::Phone)
                    }
                    Note::ClientAsksStatus { .. }
                    | Note::ClientBacksOff { .. }
                    | Note::ClientGaveUp { .. } => (phone, Role::Phone),
                    // The user's press or new operation: the request this step sends for it.
                    Note::ClientRetryPressed { op } | Note::OperationStarted { op } => (
                        self.sent
                            .iter()
                            .find_map(|id| world.attempt_of_request(*id).filter(|a| a.op == *op))
                            .map(Party::Attempt),
                        Role::Phone,
                    ),
                    Note::ClientReusesKey
                    | Note::OtherUserSameKey { .. }
                    | Note::ClientWoke
                    | Note::NextAckWillBeLost
                    | Note::CrashArmed { .. }
                    | Note::PauseArmed { .. }
                    | Note::KeysEvicted { .. }
                    | Note::KeysExpired { .. }
                    | Note::ClaimsExpired { .. }
                    | Note::ClockAdvanced { .. }
                    | Note::ApiRestarted
                    | Note::NothingToDo => (None, Role::Handler),
                    Note::MessageLost { msg, .. }
                    | Note::MessageDuplicated { msg, .. }
                    | Note::MessageDelayed { msg, .. } => match world.speaker_of(*msg) {
                        Some(s) => (Some(s.party), s.role),
                        None => (None, Role::Handler),
                    },
                    Note::ApiRecoverySweep | Note::ApiRecovers { .. } => {
                        (Some(Party::Recovery), Role::Handler)
                    }
                    Note::StoreOk
                    | Note::StoreNil
                    | Note::StoreValue
                    | Note::LedgerRan { .. }
                    | Note::ProcessorCharged { .. }
                    | Note::ProcessorDeduplicated { .. }
                    | Note::ProcessorFenced => (actor, Role::Backend { stalled: false }),
                    _ => (actor, Role::Handler),
                };
                let role = match (role, party) {
                    (Role::Handler, Some(p)) if stalled.contains(&p) => Role::Stalled,
                    (Role::Backend { .. }, Some(p)) if stalled.contains(&p) => {
                        Role::Backend { stalled: true }
                    }
                    _ => role,
                };
                party.map(|party| Speaker { party, role })
            })
            .collect()
    }

    /// Whether this step's answer reaches the phone late: the request it answers is an
    /// earlier attempt than the retry the phone has sent since (the stalled handler's 409 to
    /// attempt 1 after the phone sent attempt 3). Returns (the attempt answered, the phone's
    /// latest retry); `None` for a step that delivers no answer, or the answer to the phone's
    /// latest request, or where the later request is no retry (a double tap's second request
    /// leaves the first one waiting too).
    pub fn answered_late(&self, world: &World) -> Option<(RequestAttempt, RequestAttempt)> {
        let answered = world.answered_by(self)?;
        let latest = world
            .latest_attempt(answered.op, self.index)
            .filter(|l| l.sent == Sent::Retry && l.number > answered.number)?;
        Some((answered, latest))
    }

    /// Whether this step sends an answer late: the response it puts on the wire answers an
    /// earlier attempt than the retry the phone has sent since (the stalled handler's 201 to
    /// attempt 1 after the phone sent attempt 3). As [`Step::answered_late`], for the handler
    /// that answers rather than the phone that gets it.
    pub fn replies_late(&self, world: &World) -> Option<(RequestAttempt, RequestAttempt)> {
        let answered = self
            .sent
            .iter()
            .find_map(|id| match &world.net.get(*id)?.payload {
                Payload::Response(r) => world.attempt_of_request(r.in_reply_to),
                _ => None,
            })?;
        let latest = world
            .latest_attempt(answered.op, self.index)
            .filter(|l| l.sent == Sent::Retry && l.number > answered.number)?;
        Some((answered, latest))
    }

    /// The parties alive at this step ([`World::alive_at`] its time), with those this step's
    /// notes speak for, except an attempt the phone just stopped waiting for. Each party once.
    pub fn alive(&self, world: &World) -> Vec<Party> {
        let mut alive = world.alive_at(self.at);
        for (note, speaker) in self.notes.iter().zip(self.speakers(world)) {
            let done = matches!(
                note,
                Note::ClientTimedOut { .. }
                    | Note::ClientBacksOff { .. }
                    | Note::ClientGaveUp { .. }
            );
            match speaker {
                Some(s) if !done && !alive.contains(&s.party) => alive.push(s.party),
                _ => {}
            }
        }
        alive
    }
}

impl World {
    /// The parties alive at `at`: from their first message to the last one's arrival (or its
    /// loss), and on while a message of theirs is in flight or a handler still works for them
    /// (a stalled handler sends nothing, and is alive). In order of their first message.
    pub fn alive_at(&self, at: SimTime) -> Vec<Party> {
        let mut spans: Vec<(Party, SimTime, Option<SimTime>)> = Vec::new();
        for m in self.net.messages() {
            let Some(party) = self.party_of(m.id) else {
                continue;
            };
            let end = match m.fate {
                Fate::InFlight => None,
                Fate::Delivered(t) | Fate::Lost(t, _) => Some(t),
            };
            match spans.iter_mut().find(|(p, _, _)| *p == party) {
                Some((_, _, last)) => {
                    *last = match (*last, end) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        _ => None,
                    }
                }
                None => spans.push((party, m.sent_at, end)),
            }
        }
        for (_, handler) in self.api.handlers() {
            let party = match handler.request_msg {
                Some(id) => self.attempt_of_request(id).map(Party::Attempt),
                None => Some(Party::Recovery),
            };
            if let Some((_, _, last)) = spans.iter_mut().find(|(p, _, _)| Some(*p) == party) {
                *last = None;
            }
        }
        spans
            .into_iter()
            .filter(|(_, start, end)| *start <= at && end.is_none_or(|e| at <= e))
            .map(|(p, _, _)| p)
            .collect()
    }

    /// Whose request a message carries: a request or its answer belongs to the phone's
    /// attempt, a backend's message to the handler that sent it or that it answers.
    pub fn speaker_of(&self, msg: MsgId) -> Option<Speaker> {
        let party = self.party_of(msg)?;
        let role = match self.net.get(msg)?.payload {
            Payload::Request(_) | Payload::Response(_) => Role::Phone,
            _ if self.stalled_parties(u32::MAX).contains(&party) => Role::Stalled,
            _ => Role::Handler,
        };
        Some(Speaker { party, role })
    }

    /// Whose request a message carries ([`World::speaker_of`] without the side).
    fn party_of(&self, msg: MsgId) -> Option<Party> {
        let m = self.net.get(msg)?;
        match &m.payload {
            Payload::Request(_) => self.attempt_of_request(msg).map(Party::Attempt),
            Payload::Response(r) => self.attempt_of_request(r.in_reply_to).map(Party::Attempt),
            other => self.handler_party(other.handler()?),
        }
    }

    /// The request whose answer `step` delivered to the phone (`None` for a step that
    /// delivers no HTTP response).
    fn answered_by(&self, step: &Step) -> Option<RequestAttempt> {
        let Cause::Deliver(id) = step.cause else {
            return None;
        };
        match &self.net.get(id)?.payload {
            Payload::Response(r) => self.attempt_of_request(r.in_reply_to),
            _ => None,
        }
    }

    /// The attempt a request message is (`None` for any other message).
    fn attempt_of_request(&self, id: MsgId) -> Option<RequestAttempt> {
        let m = self.net.get(id)?;
        let Payload::Request(request) = &m.payload else {
            return None;
        };
        let first_op = self.client.ops().first().map(|o| o.op);
        // A double tap's second request goes out in the step its action made.
        let tapped = self.step_that_sent(id).is_some_and(|s| {
            matches!(
                s.cause,
                Cause::Injected(Action::ConcurrentDuplicate)
                    | Cause::Scripted(Action::ConcurrentDuplicate)
            )
        });
        let sent = if m.duplicate_of.is_some() {
            Sent::Copy
        } else if tapped || Some(request.op) != first_op {
            Sent::Second
        } else if request.attempt > 1 {
            Sent::Retry
        } else {
            Sent::First
        };
        Some(RequestAttempt {
            request: id,
            op: request.op,
            number: request.attempt,
            sent,
        })
    }

    /// The phone's own request `number` of operation `op` (not the network's copy of it).
    fn attempt_numbered(&self, op: OpId, number: u32) -> Option<RequestAttempt> {
        let id = self.net.messages().iter().find_map(|m| match &m.payload {
            Payload::Request(r)
                if r.op == op && r.attempt == number && m.duplicate_of.is_none() =>
            {
                Some(m.id)
            }
            _ => None,
        })?;
        self.attempt_of_request(id)
    }

    /// The phone's latest own request of operation `op` sent by step `upto` (not the
    /// network's copy of one): the request the phone waits on after that step.
    fn latest_attempt(&self, op: OpId, upto: u32) -> Option<RequestAttempt> {
        let sent_by = |id: MsgId| self.step_that_sent(id).is_some_and(|s| s.index <= upto);
        let id = self
            .net
            .messages()
            .iter()
            .filter(|m| m.duplicate_of.is_none() && sent_by(m.id))
            .filter_map(|m| match &m.payload {
                Payload::Request(r) if r.op == op => Some((r.attempt, m.id)),
                _ => None,
            })
            .max()?
            .1;
        self.attempt_of_request(id)
    }

    /// The step that put `msg` on the wire.
    fn step_that_sent(&self, msg: MsgId) -> Option<&Step> {
        self.steps.iter().find(|s| s.sent.contains(&msg))
    }

    /// Whose request a handler works on: the live handler's request, or for a finished one,
    /// the request whose arrival sent the handler's first message.
    fn handler_party(&self, handler: HandlerRef) -> Option<Party> {
        if let Some((_, h)) = self.api.handlers().find(|(r, _)| *r == handler) {
            return match h.request_msg {
                Some(id) => self.attempt_of_request(id).map(Party::Attempt),
                None => Some(Party::Recovery),
            };
        }
        let first = self
            .net
            .messages()
            .iter()
            .find(|m| m.payload.handler() == Some(handler))?;
        match self.step_that_sent(first.id)?.cause {
            Cause::Deliver(id) => {
                let m = self.net.get(id)?;
                match &m.payload {
                    Payload::Request(_) => self.attempt_of_request(id).map(Party::Attempt),
                    // A reply reached another handler and this one began: the recovery job
                    // re-driving what it found.
                    p if p.handler().is_some_and(|h| h != handler) => Some(Party::Recovery),
                    _ => None,
                }
            }
            Cause::RecoverySweep => Some(Party::Recovery),
            _ => None,
        }
    }

    /// Who acts in `step` apart from the phone's own notes: the party whose message arrived,
    /// or for a resumed handler, the party of what it sent.
    fn actor(&self, step: &Step) -> Option<Party> {
        match step.cause {
            Cause::Deliver(id) => self.party_of(id),
            Cause::ApiResume => step.sent.iter().find_map(|id| self.party_of(*id)),
            Cause::RecoverySweep => Some(Party::Recovery),
            _ => None,
        }
    }

    /// The parties whose handler paused at step `upto` or before.
    fn stalled_parties(&self, upto: u32) -> Vec<Party> {
        self.steps
            .iter()
            .take_while(|s| s.index <= upto)
            .filter(|s| s.notes.iter().any(|n| matches!(n, Note::ApiPaused { .. })))
            .filter_map(|s| self.actor(s))
            .collect()
    }
}
