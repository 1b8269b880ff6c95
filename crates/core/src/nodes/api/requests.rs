//! A handler's way through its phases: a request arrives (and is refused, looked up or
//! started), and each backend reply (the claim, the lookup, the processor's answer, the
//! ledger's commit, the record) moves it to its next phase or ends it.

use crate::base::text::Text;
use crate::http::{ApiError, HttpRequest, RequestBody, ResponseBody};
use crate::ledger::{Returned, Statement, StatementResult};
use crate::nodes::message::Payload;
use crate::note::Note;
use crate::phase::Phase;
use crate::protections::Protections;
use crate::record::{KeyRecord, KeyStatus};
use crate::store::RedisReply;
use crate::time::SimTime;
use crate::topology::MsgId;

use super::keys::{raw_key, store_key};
use super::{Api, ApiInput, Await, Handler, CLAIM_LEASE_MS};

impl Api {
    /// Handles a request or a backend reply at `now` under protections `p`.
    pub fn handle(&mut self, now: SimTime, input: ApiInput, p: &Protections) {
        match input {
            ApiInput::Request(msg, request) => self.on_request(now, msg, request, p),
            ApiInput::Reply(payload) => self.on_reply(now, payload, p),
        }
    }

    pub(super) fn on_request(
        &mut self,
        now: SimTime,
        msg: MsgId,
        request: HttpRequest,
        p: &Protections,
    ) {
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
                Text::default()
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

    pub(super) fn on_reply(&mut self, now: SimTime, payload: Payload, p: &Protections) {
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

    pub(super) fn after_claim(&mut self, now: SimTime, id: u32, won: bool, p: &Protections) {
        if won {
            self.note(Note::ApiKeyIsNew);
            self.enter(now, id, Phase::CallProcessor, p);
            return;
        }
        self.note(Note::ApiKeyTaken);
        self.send_lookup(id, p);
    }

    pub(super) fn after_lookup(
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

    /// A write that finishes the operation was refused for a stale fencing token: the handler
    /// gives up, and its client (if still listening) is told someone else has the key.
    pub(super) fn fenced(&mut self, id: u32) {
        self.note(Note::ApiFenced);
        self.respond_error(id, ApiError::InProgress);
    }
}

fn first_rows(results: &[StatementResult]) -> u64 {
    results.first().map_or(0, |r| r.rows)
}
