//! The payment API: one handler per request, moving through named phases. Each phase is one
//! round-trip to a backend, and the API can be crashed just before any of them.
//!
//! The charge handler, with every protection on, is the design of careful production systems:
//! claim the key (409 if taken, 422 if the body differs, replay if completed), call the processor
//! forwarding the key, commit the charge row and the key's response in one transaction, respond.
//! With protections off it degrades step by step to the naive handler of the seed's first story.
//!
//! This file holds the machine's state and what the world reads of it; the rest is one file
//! per thing the API does: a request's way through its phases (`requests`), what each phase
//! sends and how a handler answers (`phases`), crashes, pauses and the recovery sweep
//! (`outages`), and the key's names and fencing (`keys`).

use crate::base::text::Text;
use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::base::canonical::{Canonical, CanonicalView};
use crate::base::vecmap::VecMap;
use crate::http::{HttpRequest, ResponseBody};
use crate::nodes::message::Payload;
use crate::note::Note;
use crate::phase::Phase;
use crate::processor::ChargeReply;
use crate::time::{SimTime, DAY, SECOND};
use crate::topology::{HandlerRef, MsgId, Node};

mod keys;
mod outages;
mod phases;
mod requests;

/// How long a key's response is kept (Stripe and the seed's ADR: 24 h).
pub const KEY_TTL_MS: u64 = DAY;

/// How long an in-progress claim holds before another request may take the key over.
pub const CLAIM_LEASE_MS: u64 = 5 * SECOND;

/// How long the API is down after a crash.
pub const RESTART_MS: u64 = SECOND;

/// How long a paused handler stalls: longer than its claim's lease, so another request can
/// take the key over while it still believes it holds it.
pub const PAUSE_MS: u64 = CLAIM_LEASE_MS + SECOND;

/// What a handler waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
enum Await {
    Claim,
    Paused,
    Lookup,
    Reclaim,
    Processor,
    LedgerCommit,
    Record,
    Debit,
    Like,
    Status,
}

/// A request being handled.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Handler {
    /// The request message; `None` for an operation re-driven by the recovery job, which has
    /// no client connection to answer.
    pub request_msg: Option<MsgId>,
    /// The request.
    pub request: HttpRequest,
    /// SHA-256 of its canonical body.
    pub fingerprint: Text,
    /// The key's name in the store (`idem:user_1:<uuid>`), when the key protection applies.
    pub store_key: Option<Text>,
    /// The phase in progress.
    pub phase: Phase,
    awaiting: Await,
    payment: Option<ChargeReply>,
    /// With fencing: the token its claim got.
    pub token: Option<u64>,
    /// While paused: when it carries on.
    pub paused_until: Option<SimTime>,
    /// A response it was about to send when it paused before responding.
    held: Option<(u16, ResponseBody, bool)>,
}

impl Canonical for Handler {
    /// Every field but `fingerprint` and `store_key`, which are set once from the request (and
    /// whether it came from a client) under the scenario's fixed protections: the explorer
    /// views every situation, and those two long strings only repeat the request.
    fn canonical(&self, view: &mut CanonicalView) {
        view.visit(&self.request_msg);
        view.plain(&self.request);
        view.plain(&self.phase);
        view.plain(&self.awaiting);
        view.plain(&self.payment);
        view.plain(&self.token);
        view.visit(&self.paused_until);
        view.plain(&self.held);
    }
}

/// A message for the API.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ApiInput {
    /// A client request arrived.
    Request(MsgId, HttpRequest),
    /// A backend reply arrived.
    Reply(Payload),
}

/// Something the API wants done.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ApiOutput {
    /// Send to a node.
    Send(Node, Payload),
    /// Narrate.
    Note(Note),
}

/// The API process.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Api {
    epoch: u32,
    next_handler: u32,
    handlers: VecMap<u32, Handler>,
    down_until: Option<SimTime>,
    crash_armed: Option<Phase>,
    pause_armed: Option<Phase>,
    sweep_at: Option<SimTime>,
    sweeper: Option<u32>,
    outbox: VecDeque<ApiOutput>,
}

impl Canonical for Api {
    /// Every field, as its derived `Hash` would, with the handlers' times and message ids seen
    /// as such; but the outbox, which the world drains within each step (`World::flush`), so
    /// it is empty in every situation the explorer compares (as the phone's is, which the view
    /// leaves out too).
    fn canonical(&self, view: &mut CanonicalView) {
        view.plain(&self.epoch);
        view.plain(&self.next_handler);
        view.visit(&self.handlers);
        view.visit(&self.down_until);
        view.plain(&self.crash_armed);
        view.plain(&self.pause_armed);
        view.visit(&self.sweep_at);
        view.plain(&self.sweeper);
        debug_assert!(
            self.outbox.is_empty(),
            "the world drains the API's outbox within each step"
        );
    }
}

impl Api {
    /// Drains what the API wants done.
    pub fn poll(&mut self) -> Option<ApiOutput> {
        self.outbox.pop_front()
    }

    /// Requests in progress, by handler number.
    pub fn handlers(&self) -> impl Iterator<Item = (HandlerRef, &Handler)> {
        let epoch = self.epoch;
        self.handlers
            .iter()
            .map(move |(id, h)| (HandlerRef { epoch, id: *id }, h))
    }

    /// When a crashed API comes back, if it is down.
    pub fn down_until(&self) -> Option<SimTime> {
        self.down_until
    }

    /// The armed crash, if any.
    pub fn crash_armed(&self) -> Option<Phase> {
        self.crash_armed
    }

    /// Arms a crash for the next time any handler is about to start `phase`.
    pub fn arm_crash(&mut self, phase: Phase) {
        self.crash_armed = Some(phase);
    }

    /// The armed pause, if any.
    pub fn pause_armed(&self) -> Option<Phase> {
        self.pause_armed
    }

    /// Arms a pause for the next time any handler is about to start `phase`.
    pub fn arm_pause(&mut self, phase: Phase) {
        self.pause_armed = Some(phase);
    }

    /// When the next paused handler carries on, if one is paused.
    pub fn resume_at(&self) -> Option<SimTime> {
        self.handlers.values().filter_map(|h| h.paused_until).min()
    }

    /// Whether the API is up and accepting connections.
    pub fn is_up(&self) -> bool {
        self.down_until.is_none()
    }

    /// When the recovery job runs next, if it is scheduled.
    pub fn sweep_at(&self) -> Option<SimTime> {
        self.sweep_at
    }

    fn handler_ref(&self, id: u32) -> HandlerRef {
        HandlerRef {
            epoch: self.epoch,
            id,
        }
    }

    fn note(&mut self, note: Note) {
        self.outbox.push_back(ApiOutput::Note(note));
    }

    fn send(&mut self, to: Node, payload: Payload) {
        self.outbox.push_back(ApiOutput::Send(to, payload));
    }
}
