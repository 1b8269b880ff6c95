//! What each phase sends: the claim or the lookup of the key, the call to the processor (with
//! the key forwarded), the ledger's writes, the record of the response, the status check; and
//! how a handler answers its client.

use crate::http::{ApiError, HttpResponse, RequestBody, ResponseBody};
use crate::ledger::{SqlBatch, Statement};
use crate::nodes::message::Payload;
use crate::note::Note;
use crate::phase::Phase;
use crate::processor::ChargeRequest;
use crate::protections::Protections;
use crate::record::{KeyRecord, KeyStatus, StoredResponse};
use crate::store::RedisCommand;
use crate::time::SimTime;
use crate::topology::Node;

use super::keys::{fence_key, fence_of, fencing_applies, raw_key, recovery_applies};
use super::{Api, Await, Handler, CLAIM_LEASE_MS, KEY_TTL_MS};

impl Api {
    /// Starts `phase` for handler `id`, unless a crash is armed for it.
    pub(super) fn start(&mut self, now: SimTime, id: u32, phase: Phase, p: &Protections) {
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

    pub(super) fn write_ledger(&mut self, now: SimTime, id: u32, p: &Protections) {
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

    pub(super) fn send_claim(&mut self, now: SimTime, id: u32, p: &Protections) {
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

    pub(super) fn send_lookup(&mut self, id: u32, p: &Protections) {
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
    pub(super) fn look_up_status(&mut self, id: u32) {
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

    pub(super) fn send_sql(&mut self, id: u32, statements: Vec<Statement>, transaction: bool) {
        let op = self.handlers.get(&id).map(|h| h.request.op);
        let batch = SqlBatch {
            statements,
            transaction,
            op,
        };
        let handler = self.handler_ref(id);
        self.send(Node::Ledger, Payload::Sql(handler, batch));
    }

    pub(super) fn respond_error(&mut self, id: u32, error: ApiError) {
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

    pub(super) fn respond(
        &mut self,
        now: SimTime,
        id: u32,
        status: u16,
        body: ResponseBody,
        replayed: bool,
    ) {
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
}

/// The amount a charge handler's request asks for (0 for a debit or a like).
pub(super) fn charge_cents(h: &Handler) -> u64 {
    match h.request.body {
        RequestBody::Charge { amount_cents, .. } => amount_cents,
        _ => 0,
    }
}

/// The 201 a charge handler answers with (and stores for replays).
pub(super) fn charge_response(h: &Handler) -> StoredResponse {
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
