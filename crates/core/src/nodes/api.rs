//! The payment API: one handler per request, moving through named phases. Each phase is one
//! round-trip to a backend, and the API can be crashed just before any of them.
//!
//! The charge handler, with every protection on, is the design of careful production systems:
//! claim the key (409 if taken, 422 if the body differs, replay if completed), call the processor
//! forwarding the key, commit the charge row and the key's response in one transaction, respond.
//! With protections off it degrades step by step to the naive handler of the seed's first story.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::base::canonical::{Canonical, CanonicalView};
use crate::base::vecmap::VecMap;
use crate::http::{ApiError, HttpRequest, HttpResponse, RequestBody, ResponseBody};
use crate::ledger::{Returned, SqlBatch, Statement, StatementResult};
use crate::nodes::message::Payload;
use crate::note::Note;
use crate::phase::Phase;
use crate::processor::{ChargeReply, ChargeRequest};
use crate::protections::Protections;
use crate::record::{KeyRecord, KeyStatus, StoredResponse};
use crate::store::{RedisCommand, RedisReply};
use crate::time::{SimTime, DAY, SECOND};
use crate::topology::{HandlerRef, MsgId, Node};

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
    pub fingerprint: String,
    /// The key's name in the store (`idem:user_1:<uuid>`), when the key protection applies.
    pub store_key: Option<String>,
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
    /// Every field, as its derived `Hash` would, with the handlers' and the outbox's times and
    /// message ids seen as such.
    fn canonical(&self, view: &mut CanonicalView) {
        view.plain(&self.epoch);
        view.plain(&self.next_handler);
        view.visit(&self.handlers);
        view.visit(&self.down_until);
        view.plain(&self.crash_armed);
        view.plain(&self.pause_armed);
        view.visit(&self.sweep_at);
        view.plain(&self.sweeper);
        view.visit(&self.outbox);
    }
}

impl Canonical for ApiOutput {
    /// A note as it is: the API's notes name no message (the network's do, and never pass
    /// through here).
    fn canonical(&self, view: &mut CanonicalView) {
        view.plain(&std::mem::discriminant(self));
        match self {
            ApiOutput::Send(to, payload) => {
                view.plain(to);
                view.visit(payload);
            }
            ApiOutput::Note(note) => view.plain(note),
        }
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

    /// The paused handler that is due (the first by number) carries on with the phase it
    /// stopped before, unaware that time passed.
    pub fn resume(&mut self, now: SimTime, p: &Protections) {
        let due = self
            .handlers
            .iter()
            .find(|(_, h)| h.paused_until.is_some_and(|t| t <= now))
            .map(|(id, h)| (*id, h.phase));
        let Some((id, phase)) = due else {
            return;
        };
        let held = self.handlers.get_mut(&id).and_then(|h| {
            h.paused_until = None;
            h.held.take()
        });
        self.note(Note::ApiResumes { phase });
        match held {
            Some((status, body, replayed)) => self.respond(now, id, status, body, replayed),
            None => self.start(now, id, phase, p),
        }
    }

    /// Whether the API is up and accepting connections.
    pub fn is_up(&self) -> bool {
        self.down_until.is_none()
    }

    /// Brings a crashed API back with an empty memory. With the recovery protection, it
    /// schedules a sweep for when the dead handlers' leases have run out.
    pub fn restart(&mut self, now: SimTime, p: &Protections) {
        self.down_until = None;
        if recovery_applies(p) {
            self.sweep_at = Some(now.plus(CLAIM_LEASE_MS));
        }
        self.outbox.push_back(ApiOutput::Note(Note::ApiRestarted));
    }

    /// When the recovery job runs next, if it is scheduled.
    pub fn sweep_at(&self) -> Option<SimTime> {
        self.sweep_at
    }

    /// Runs the recovery job: asks the ledger for in-progress keys whose lease ran out.
    pub fn sweep(&mut self, now: SimTime) {
        self.sweep_at = None;
        let id = self.next_handler;
        self.next_handler += 1;
        self.note(Note::ApiRecoverySweep);
        let handler = self.handler_ref(id);
        self.sweeper = Some(id);
        let batch = SqlBatch {
            statements: vec![Statement::SelectStaleKeys { now }],
            transaction: false,
            op: None,
        };
        self.send(Node::Ledger, Payload::Sql(handler, batch));
    }

    fn on_sweep_result(&mut self, now: SimTime, rows: Vec<StatementResult>, p: &Protections) {
        self.sweeper = None;
        let stale: Vec<HttpRequest> = rows
            .into_iter()
            .flat_map(|r| match r.returned {
                Returned::Keys(keys) => keys,
                _ => Vec::new(),
            })
            .filter_map(|row| row.request)
            .collect();
        self.note(Note::ApiRecovers { count: stale.len() });
        for request in stale {
            let id = self.next_handler;
            self.next_handler += 1;
            let handler = Handler {
                request_msg: None,
                fingerprint: request.body.fingerprint(),
                store_key: store_key(&request, p),
                request,
                phase: Phase::ClaimKey,
                awaiting: Await::Reclaim,
                payment: None,
                token: None,
                paused_until: None,
                held: None,
            };
            let statement = Statement::ReclaimKey {
                user: handler.request.user,
                key: raw_key(&handler),
                now,
                locked_until: now.plus(CLAIM_LEASE_MS),
            };
            self.handlers.insert(id, handler);
            self.send_sql(id, vec![statement], false);
        }
    }

    /// Handles a request or a backend reply at `now` under protections `p`.
    pub fn handle(&mut self, now: SimTime, input: ApiInput, p: &Protections) {
        match input {
            ApiInput::Request(msg, request) => self.on_request(now, msg, request, p),
            ApiInput::Reply(payload) => self.on_reply(now, payload, p),
        }
    }

    fn on_request(&mut self, now: SimTime, msg: MsgId, request: HttpRequest, p: &Protections) {
        let id = self.next_handler;
        self.next_handler += 1;
        let keyed = p.idempotency_key && request.idempotency_key.is_some();
        let store_key = store_key(&request, p);
        let handler = Handler {
            request_msg: Some(msg),
            // Only a keyed request is ever compared or stored, so only it pays for the hash.
            fingerprint: if keyed {
                request.body.fingerprint()
            } else {
                String::new()
            },
            request,
            store_key,
            phase: Phase::ClaimKey,
            awaiting: Await::Claim,
            payment: None,
            token: None,
            paused_until: None,
            held: None,
        };
        let is_charge = matches!(handler.request.body, RequestBody::Charge { .. });
        let missing_key = handler.request.idempotency_key.is_none();
        let status_query = handler.request.status_query;
        self.handlers.insert(id, handler);
        if status_query {
            self.look_up_status(id);
        } else if is_charge && p.idempotency_key && p.require_key && missing_key {
            self.note(Note::ApiRejectsMissingKey);
            self.respond_error(id, ApiError::MissingKey);
        } else if is_charge && keyed {
            self.enter(now, id, Phase::ClaimKey, p);
        } else if is_charge {
            self.enter(now, id, Phase::CallProcessor, p);
        } else {
            self.enter(now, id, Phase::WriteLedger, p);
        }
    }

    fn on_reply(&mut self, now: SimTime, payload: Payload, p: &Protections) {
        let handler_ref = match &payload {
            Payload::RedisReply(h, _) | Payload::SqlResults(h, _) | Payload::ChargeReply(h, _) => {
                *h
            }
            _ => return,
        };
        let id = handler_ref.id;
        if handler_ref.epoch == self.epoch && self.sweeper == Some(id) {
            if let Payload::SqlResults(_, rows) = payload {
                self.on_sweep_result(now, rows, p);
            }
            return;
        }
        let Some(awaiting) = self
            .handlers
            .get(&id)
            .filter(|_| handler_ref.epoch == self.epoch)
            .map(|h| h.awaiting)
        else {
            self.note(Note::ApiDiscardsOrphanReply);
            return;
        };
        match (awaiting, payload) {
            (Await::Claim, Payload::RedisReply(_, RedisReply::Int(token))) => {
                // The fenced claim is ours, with its token, in one step (no window between).
                if let Some(h) = self.handlers.get_mut(&id) {
                    h.token = Some(token);
                }
                self.note(Note::ApiKeyIsNew);
                self.note(Note::ApiGetsToken { token });
                self.enter(now, id, Phase::CallProcessor, p);
            }
            (Await::Claim, Payload::RedisReply(_, RedisReply::Value(record))) => {
                // The fenced claim found the key taken and brought its record back.
                self.note(Note::ApiKeyTaken);
                self.after_lookup(now, id, Some((record, None)), p);
            }
            (Await::Claim, Payload::RedisReply(_, reply)) => {
                self.after_claim(now, id, reply == RedisReply::Ok, p)
            }
            (Await::Claim, Payload::SqlResults(_, rows)) => {
                self.after_claim(now, id, first_rows(&rows) == 1, p)
            }
            (Await::Lookup, Payload::RedisReply(_, reply)) => {
                let record = match reply {
                    RedisReply::Value(record) => Some((record, None)),
                    _ => None,
                };
                self.after_lookup(now, id, record, p);
            }
            (Await::Lookup, Payload::SqlResults(_, rows)) => {
                let record = match rows.first().map(|r| &r.returned) {
                    Some(Returned::Key(row)) => {
                        Some((row.stored.record.clone(), Some(row.locked_until)))
                    }
                    _ => None,
                };
                self.after_lookup(now, id, record, p);
            }
            (Await::Reclaim, Payload::SqlResults(_, rows)) => {
                if first_rows(&rows) == 1 {
                    self.enter(now, id, Phase::CallProcessor, p);
                } else if self
                    .handlers
                    .get(&id)
                    .is_some_and(|h| h.request_msg.is_none())
                {
                    // Someone else (a client's retry) took the key over first: nothing to do.
                    self.handlers.remove(&id);
                } else {
                    self.note(Note::ApiKeyInProgress);
                    self.respond_error(id, ApiError::InProgress);
                }
            }
            (Await::Processor, Payload::ChargeReply(_, reply)) if reply.fenced => {
                self.fenced(id);
            }
            (Await::Processor, Payload::ChargeReply(_, reply)) => {
                if let Some(h) = self.handlers.get_mut(&id) {
                    h.payment = Some(reply);
                }
                self.enter(now, id, Phase::WriteLedger, p);
            }
            (Await::LedgerCommit, Payload::SqlResults(_, rows))
                if self.handlers.get(&id).is_some_and(|h| h.token.is_some())
                    && first_rows(&rows) == 0 =>
            {
                self.fenced(id);
            }
            (Await::Record, Payload::RedisReply(_, RedisReply::Nil)) => self.fenced(id),
            (Await::LedgerCommit, Payload::SqlResults(..)) => {
                let needs_record = self
                    .handlers
                    .get(&id)
                    .is_some_and(|h| h.store_key.is_some())
                    && !p.key_in_ledger_tx;
                let next = if needs_record {
                    Phase::RecordKey
                } else {
                    Phase::Respond
                };
                self.enter(now, id, next, p);
            }
            (Await::Record, Payload::RedisReply(..)) => self.enter(now, id, Phase::Respond, p),
            (Await::Debit, Payload::SqlResults(_, rows)) => {
                let applied = first_rows(&rows) == 1;
                let state = rows.iter().find_map(|r| match r.returned {
                    Returned::Account { balance, version } => Some((balance, version)),
                    _ => None,
                });
                let (balance, version) = state.unwrap_or_default();
                // This very debit is in `account_ops`: a retry of one already applied.
                let reconciled = !applied && rows.get(2).is_some_and(|r| r.rows == 1);
                if reconciled {
                    self.note(Note::ApiReconciled);
                }
                if applied || reconciled {
                    self.respond(
                        now,
                        id,
                        200,
                        ResponseBody::Debited { balance, version },
                        false,
                    );
                } else {
                    self.note(Note::ApiCasRejected);
                    self.respond(
                        now,
                        id,
                        412,
                        ResponseBody::PreconditionFailed { balance, version },
                        false,
                    );
                }
            }
            (Await::Status, Payload::SqlResults(_, rows)) => {
                let found = rows.into_iter().find_map(|r| match r.returned {
                    Returned::Charge(row) => Some(row),
                    _ => None,
                });
                match found {
                    Some(row) => {
                        self.note(Note::ApiStatusFound);
                        let body = ResponseBody::Charged {
                            payment_id: row.payment_id,
                            amount_cents: row.amount_cents,
                            customer: row.user,
                        };
                        self.respond(now, id, 200, body, false);
                    }
                    None => {
                        self.note(Note::ApiStatusUnknown);
                        self.respond_error(id, ApiError::NoSuchPayment);
                    }
                }
            }
            (Await::Like, Payload::SqlResults(_, rows)) => {
                let deduped = rows.len() > 1 && first_rows(&rows) == 0;
                if deduped {
                    self.note(Note::ApiLikeSkipped);
                }
                let likes = rows
                    .iter()
                    .rev()
                    .find_map(|r| match r.returned {
                        Returned::Likes(n) => Some(n),
                        _ => None,
                    })
                    .unwrap_or_default();
                self.respond(now, id, 200, ResponseBody::Liked { likes }, false);
            }
            _ => self.note(Note::ApiDiscardsOrphanReply),
        }
    }

    fn after_claim(&mut self, now: SimTime, id: u32, won: bool, p: &Protections) {
        if won {
            self.note(Note::ApiKeyIsNew);
            self.enter(now, id, Phase::CallProcessor, p);
            return;
        }
        self.note(Note::ApiKeyTaken);
        self.send_lookup(id, p);
    }

    fn after_lookup(
        &mut self,
        now: SimTime,
        id: u32,
        found: Option<(KeyRecord, Option<SimTime>)>,
        p: &Protections,
    ) {
        let Some(fingerprint) = self.handlers.get(&id).map(|h| h.fingerprint.clone()) else {
            return;
        };
        let Some((record, locked_until)) = found else {
            if p.lock {
                // Claimed a moment ago by someone whose lease just ran out: let the client retry.
                self.note(Note::ApiKeyInProgress);
                self.respond_error(id, ApiError::InProgress);
            } else {
                self.note(Note::ApiKeyIsNew);
                self.enter(now, id, Phase::CallProcessor, p);
            }
            return;
        };
        if p.fingerprint && record.fingerprint != fingerprint {
            self.note(Note::ApiKeyReused);
            self.respond_error(id, ApiError::KeyReused);
            return;
        }
        match record.status {
            KeyStatus::Completed(stored) => {
                self.note(Note::ApiReplays {
                    status: stored.status,
                });
                self.respond(now, id, stored.status, stored.body, true);
            }
            KeyStatus::InProgress => match locked_until {
                Some(until) if until <= now => {
                    self.note(Note::ApiReclaimsKey);
                    let Some(h) = self.handlers.get_mut(&id) else {
                        return;
                    };
                    h.awaiting = Await::Reclaim;
                    let statement = Statement::ReclaimKey {
                        user: h.request.user,
                        key: raw_key(h),
                        now,
                        locked_until: now.plus(CLAIM_LEASE_MS),
                    };
                    self.send_sql(id, vec![statement], false);
                }
                _ => {
                    self.note(Note::ApiKeyInProgress);
                    self.respond_error(id, ApiError::InProgress);
                }
            },
        }
    }

    /// Starts `phase` for handler `id`, unless a crash or a pause is armed for it.
    fn enter(&mut self, now: SimTime, id: u32, phase: Phase, p: &Protections) {
        if self.pause_armed == Some(phase) && self.crash_armed != Some(phase) {
            self.pause(now, id, phase, None);
            return;
        }
        self.start(now, id, phase, p);
    }

    /// Stalls handler `id` before `phase` (with the response it was about to send, if any).
    fn pause(
        &mut self,
        now: SimTime,
        id: u32,
        phase: Phase,
        held: Option<(u16, ResponseBody, bool)>,
    ) {
        let Some(h) = self.handlers.get_mut(&id) else {
            return;
        };
        self.pause_armed = None;
        h.phase = phase;
        h.awaiting = Await::Paused;
        h.paused_until = Some(now.plus(PAUSE_MS));
        h.held = held;
        self.note(Note::ApiPaused { phase });
    }

    /// A write that finishes the operation was refused for a stale fencing token: the handler
    /// gives up, and its client (if still listening) is told someone else has the key.
    fn fenced(&mut self, id: u32) {
        self.note(Note::ApiFenced);
        self.respond_error(id, ApiError::InProgress);
    }

    /// Starts `phase` for handler `id`, unless a crash is armed for it.
    fn start(&mut self, now: SimTime, id: u32, phase: Phase, p: &Protections) {
        if self.crash_armed == Some(phase) {
            self.crash(now, phase);
            return;
        }
        let Some(h) = self.handlers.get_mut(&id) else {
            return;
        };
        h.phase = phase;
        match phase {
            Phase::ClaimKey => {
                if p.lock {
                    self.note(Note::ApiClaimsKey);
                    self.send_claim(now, id, p);
                } else {
                    self.note(Note::ApiLooksUpKey);
                    self.send_lookup(id, p);
                }
            }
            Phase::CallProcessor => {
                h.awaiting = Await::Processor;
                let RequestBody::Charge { amount_cents, .. } = h.request.body else {
                    return;
                };
                let forwarded = p.forward_key && h.store_key.is_some();
                let request = ChargeRequest {
                    user: h.request.user,
                    amount_cents,
                    idempotency_key: if forwarded { h.store_key.clone() } else { None },
                    op: h.request.op,
                    fence: fence_of(h),
                };
                let handler = self.handler_ref(id);
                self.note(Note::ApiCallsProcessor { forwarded });
                self.send(Node::Processor, Payload::Charge(handler, request));
            }
            Phase::WriteLedger => self.write_ledger(now, id, p),
            Phase::RecordKey => {
                h.awaiting = Await::Record;
                let Some(key) = h.store_key.clone() else {
                    return;
                };
                let record = KeyRecord {
                    user: h.request.user,
                    fingerprint: h.fingerprint.clone(),
                    status: KeyStatus::Completed(charge_response(h)),
                };
                let command = match h.token {
                    Some(token) => RedisCommand::SetIfToken {
                        fence: fence_key(&key),
                        key,
                        value: record,
                        ttl_ms: KEY_TTL_MS,
                        token,
                    },
                    None => RedisCommand::Set {
                        key,
                        value: record,
                        nx: false,
                        ttl_ms: KEY_TTL_MS,
                    },
                };
                let handler = self.handler_ref(id);
                self.note(Note::ApiRecordsKey);
                self.send(Node::Store, Payload::Redis(handler, command));
            }
            Phase::Respond => {
                let response = charge_response(h);
                self.respond(now, id, response.status, response.body, false);
            }
        }
    }

    fn write_ledger(&mut self, now: SimTime, id: u32, p: &Protections) {
        let Some(h) = self.handlers.get_mut(&id) else {
            return;
        };
        match h.request.body.clone() {
            RequestBody::Charge { amount_cents, .. } => {
                h.awaiting = Await::LedgerCommit;
                let payment_id = h
                    .payment
                    .as_ref()
                    .map(|c| c.payment_id.clone())
                    .unwrap_or_default();
                let fence = fence_of(h);
                let mut statements: Vec<Statement> = fence
                    .iter()
                    .map(|(counter, token)| Statement::Fence {
                        counter: counter.clone(),
                        token: *token,
                    })
                    .collect();
                statements.push(Statement::InsertCharge {
                    payment_id,
                    user: h.request.user,
                    amount_cents,
                    idempotency_key: h.request.idempotency_key.clone(),
                    fence,
                });
                let fenced = statements.len() > 1;
                let with_key = h.store_key.is_some() && p.key_in_ledger_tx;
                if with_key {
                    let response = charge_response(h);
                    statements.push(if p.lock {
                        Statement::CompleteKey {
                            user: h.request.user,
                            key: raw_key(h),
                            response,
                        }
                    } else {
                        Statement::ClaimKey {
                            key: raw_key(h),
                            record: KeyRecord {
                                user: h.request.user,
                                fingerprint: h.fingerprint.clone(),
                                status: KeyStatus::Completed(response),
                            },
                            locked_until: now,
                            expires_at: now.plus(KEY_TTL_MS),
                            request: None,
                        }
                    });
                }
                self.note(Note::ApiWritesLedger { with_key });
                self.send_sql(id, statements, with_key || fenced);
            }
            RequestBody::Debit {
                account,
                amount,
                expected_version,
                op_id,
            } => {
                h.awaiting = Await::Debit;
                let expected_version = if p.cas { expected_version } else { None };
                // Reconciling: the debit records its operation's id, and the same batch reads
                // whether that id is applied, for when the compare-and-set fails.
                let op_id = op_id.filter(|_| p.reconcile && expected_version.is_some());
                self.note(Note::ApiDebits {
                    cas: expected_version.is_some(),
                });
                let mut statements = vec![
                    Statement::Debit {
                        account,
                        amount,
                        expected_version,
                        op_id: op_id.clone(),
                    },
                    Statement::SelectAccount { account },
                ];
                statements.extend(op_id.map(|op_id| Statement::SelectAccountOp { op_id }));
                self.send_sql(id, statements, false);
            }
            RequestBody::Like { post, op_id } => {
                h.awaiting = Await::Like;
                let dedup = p.op_dedup && op_id.is_some();
                self.note(Note::ApiLikes { dedup });
                match op_id.filter(|_| dedup) {
                    Some(op_id) => {
                        let statements = vec![
                            Statement::InsertLikeOp { op_id },
                            Statement::IncrementLikes {
                                post,
                                only_if_inserted: true,
                            },
                            Statement::SelectLikes { post },
                        ];
                        self.send_sql(id, statements, true);
                    }
                    None => {
                        let statements = vec![Statement::IncrementLikes {
                            post,
                            only_if_inserted: false,
                        }];
                        self.send_sql(id, statements, false);
                    }
                }
            }
        }
    }

    fn send_claim(&mut self, now: SimTime, id: u32, p: &Protections) {
        let Some(h) = self.handlers.get_mut(&id) else {
            return;
        };
        h.awaiting = Await::Claim;
        let record = KeyRecord {
            user: h.request.user,
            fingerprint: h.fingerprint.clone(),
            status: KeyStatus::InProgress,
        };
        if p.key_in_ledger_tx {
            let statement = Statement::ClaimKey {
                key: raw_key(h),
                record,
                locked_until: now.plus(CLAIM_LEASE_MS),
                expires_at: now.plus(KEY_TTL_MS),
                request: recovery_applies(p).then(|| h.request.clone()),
            };
            self.send_sql(id, vec![statement], false);
        } else {
            let Some(key) = h.store_key.clone() else {
                return;
            };
            let handler = self.handler_ref(id);
            // With fencing, the token comes from the key's counter (which outlives the claim)
            // in the same script as the claim.
            let command = if fencing_applies(p) {
                RedisCommand::ClaimWithToken {
                    fence: fence_key(&key),
                    key,
                    value: record,
                    ttl_ms: CLAIM_LEASE_MS,
                }
            } else {
                RedisCommand::Set {
                    key,
                    value: record,
                    nx: true,
                    ttl_ms: CLAIM_LEASE_MS,
                }
            };
            self.send(Node::Store, Payload::Redis(handler, command));
        }
    }

    fn send_lookup(&mut self, id: u32, p: &Protections) {
        let Some(h) = self.handlers.get_mut(&id) else {
            return;
        };
        h.awaiting = Await::Lookup;
        if p.key_in_ledger_tx {
            let statement = Statement::SelectKey {
                user: h.request.user,
                key: raw_key(h),
            };
            self.send_sql(id, vec![statement], false);
        } else {
            let Some(key) = h.store_key.clone() else {
                return;
            };
            let handler = self.handler_ref(id);
            self.send(
                Node::Store,
                Payload::Redis(handler, RedisCommand::Get { key }),
            );
        }
    }

    /// A status check: what became of the payment with this key, from `charges` (the row
    /// outlives the key's record, which expires after its TTL or may never have been written).
    fn look_up_status(&mut self, id: u32) {
        let Some(h) = self.handlers.get_mut(&id) else {
            return;
        };
        h.awaiting = Await::Status;
        let statement = Statement::SelectChargeByKey {
            user: h.request.user,
            key: raw_key(h),
            amount_cents: charge_cents(h),
        };
        self.note(Note::ApiLooksUpStatus);
        self.send_sql(id, vec![statement], false);
    }

    fn send_sql(&mut self, id: u32, statements: Vec<Statement>, transaction: bool) {
        let op = self.handlers.get(&id).map(|h| h.request.op);
        let batch = SqlBatch {
            statements,
            transaction,
            op,
        };
        let handler = self.handler_ref(id);
        self.send(Node::Ledger, Payload::Sql(handler, batch));
    }

    fn respond_error(&mut self, id: u32, error: ApiError) {
        // Errors are answered straight away: no phase, so no crash point, and nothing to record.
        let Some(h) = self.handlers.remove(&id) else {
            return;
        };
        let Some(request_msg) = h.request_msg else {
            return;
        };
        let response = HttpResponse {
            status: error.status(),
            replayed: false,
            body: ResponseBody::Error(error),
            in_reply_to: request_msg,
            user: h.request.user,
            op: h.request.op,
        };
        self.note(Note::ApiResponds {
            status: response.status,
        });
        self.send(Node::Client, Payload::Response(response));
    }

    fn respond(&mut self, now: SimTime, id: u32, status: u16, body: ResponseBody, replayed: bool) {
        if self.crash_armed == Some(Phase::Respond) {
            self.crash(now, Phase::Respond);
            return;
        }
        let not_entered = self
            .handlers
            .get(&id)
            .is_some_and(|h| h.phase != Phase::Respond);
        if self.pause_armed == Some(Phase::Respond) && not_entered {
            self.pause(now, id, Phase::Respond, Some((status, body, replayed)));
            return;
        }
        let Some(h) = self.handlers.remove(&id) else {
            return;
        };
        let Some(request_msg) = h.request_msg else {
            self.note(Note::ApiRecovered);
            return;
        };
        let response = HttpResponse {
            status,
            replayed,
            body,
            in_reply_to: request_msg,
            user: h.request.user,
            op: h.request.op,
        };
        self.note(Note::ApiResponds { status });
        self.send(Node::Client, Payload::Response(response));
    }

    fn crash(&mut self, now: SimTime, phase: Phase) {
        self.handlers.clear();
        self.sweeper = None;
        self.sweep_at = None;
        self.epoch += 1;
        self.crash_armed = None;
        self.down_until = Some(now.plus(RESTART_MS));
        self.note(Note::ApiCrashed { phase });
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

/// Fencing tokens come from the Redis claim's counter: with the lock in Redis
/// ([`Protections::fencing_acts`]).
fn fencing_applies(p: &Protections) -> bool {
    p.fencing_acts()
}

/// The counter that issues a key's fencing tokens (`fence:idem:user_1:<uuid>`).
fn fence_key(store_key: &str) -> String {
    let mut name = String::with_capacity(store_key.len() + 6);
    name.push_str("fence:");
    name.push_str(store_key);
    name
}

/// What a handler's finishing writes carry with fencing: its counter and its token.
fn fence_of(h: &Handler) -> Option<(String, u64)> {
    let token = h.token?;
    Some((fence_key(h.store_key.as_deref()?), token))
}

/// Recovery needs the request stored with an in-progress claim, which only the PostgreSQL
/// key table with a lock provides.
fn recovery_applies(p: &Protections) -> bool {
    p.recovery && p.idempotency_key && p.key_in_ledger_tx && p.lock
}

/// The key's name in the store: `idem:user_1:<key>` when scoped, `idem:<key>` when not.
fn store_key(request: &HttpRequest, p: &Protections) -> Option<String> {
    let key = request
        .idempotency_key
        .as_ref()
        .filter(|_| p.idempotency_key)?;
    // Built by hand rather than with `format!` (the explorer builds one per request).
    let mut name = String::with_capacity(key.len() + 20);
    name.push_str("idem:");
    if p.scope_by_user {
        name.push_str("user_");
        push_decimal(&mut name, request.user.0);
        name.push(':');
    }
    name.push_str(key);
    Some(name)
}

fn push_decimal(out: &mut String, n: u32) {
    if n >= 10 {
        push_decimal(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

fn first_rows(results: &[StatementResult]) -> u64 {
    results.first().map_or(0, |r| r.rows)
}

fn raw_key(h: &Handler) -> String {
    h.request.idempotency_key.clone().unwrap_or_default()
}

/// The amount a charge handler's request asks for (0 for a debit or a like).
fn charge_cents(h: &Handler) -> u64 {
    match h.request.body {
        RequestBody::Charge { amount_cents, .. } => amount_cents,
        _ => 0,
    }
}

/// The 201 a charge handler answers with (and stores for replays).
fn charge_response(h: &Handler) -> StoredResponse {
    let amount_cents = charge_cents(h);
    StoredResponse {
        status: 201,
        body: ResponseBody::Charged {
            payment_id: h
                .payment
                .as_ref()
                .map(|c| c.payment_id.clone())
                .unwrap_or_default(),
            amount_cents,
            customer: h.request.user,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_key_names_the_user_in_decimal_when_scoped() {
        let mut p = Protections::NONE;
        p.idempotency_key = true;
        let request = |user: u32| HttpRequest {
            user: crate::topology::UserId(user),
            idempotency_key: Some("k-1".to_owned()),
            body: RequestBody::Like {
                post: 7,
                op_id: None,
            },
            attempt: 1,
            op: crate::topology::OpId(0),
            status_query: false,
        };
        assert_eq!(store_key(&request(2), &p).as_deref(), Some("idem:k-1"));
        p.scope_by_user = true;
        for (user, name) in [
            (0, "idem:user_0:k-1"),
            (7, "idem:user_7:k-1"),
            (10, "idem:user_10:k-1"),
            (4_294_967_295, "idem:user_4294967295:k-1"),
        ] {
            assert_eq!(store_key(&request(user), &p).as_deref(), Some(name));
        }
        p.idempotency_key = false;
        assert_eq!(store_key(&request(1), &p), None);
    }
}
