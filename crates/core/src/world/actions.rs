//! Actions on the world: whether one can be done now, and doing it (a fault on a packet or a
//! machine, a retry, a new operation started with a fresh key).

use crate::action::{Action, ActionError, OpKind, OpSpec};
use crate::base::text::Text;
use crate::http::RequestBody;
use crate::net::Fate;
use crate::nodes::message::DropReason;
use crate::note::Note;
use crate::scenario::{ACCOUNT, BOB};
use crate::topology::{MsgId, OpId};

use super::World;

impl World {
    pub(super) fn check(&self, action: Action) -> Result<(), ActionError> {
        let in_flight = |id: MsgId| -> Result<(), ActionError> {
            let message = self.net.get(id).ok_or(ActionError::NoSuchMessage(id))?;
            if message.fate != Fate::InFlight {
                return Err(ActionError::NotInFlight(id));
            }
            if !message.is_faultable() {
                return Err(ActionError::NotOnMobileLink(id));
            }
            Ok(())
        };
        match action {
            Action::Drop(id) | Action::Duplicate(id) | Action::Delay(id, _) => in_flight(id),
            Action::RetryNow
            | Action::ConcurrentDuplicate
            | Action::ReuseKeyOtherBody
            | Action::OtherUserSameKey
                if self.client_offline_until.is_some() =>
            {
                Err(ActionError::ClientOffline)
            }
            Action::RetryNow if self.client.retryable_op(self.now).is_none() => {
                Err(ActionError::NothingToRetry)
            }
            Action::LoseNextAck if self.is_quiescent() => Err(ActionError::NothingOnItsWay),
            Action::Crash(phase) | Action::Pause(phase)
                if !crate::explore::phases(&self.scenario).contains(&phase) =>
            {
                Err(ActionError::NoSuchPhase(phase))
            }
            Action::ConcurrentDuplicate | Action::ReuseKeyOtherBody | Action::OtherUserSameKey
                if self.client.ops().is_empty() =>
            {
                Err(ActionError::NoOperationYet)
            }
            _ => Ok(()),
        }
    }

    pub(super) fn perform(&mut self, action: Action, notes: &mut Vec<Note>, sent: &mut Vec<MsgId>) {
        let now = self.now;
        match action {
            Action::Start(spec) => self.start_op(spec, None, None),
            Action::RetryNow => {
                if let Some(op) = self.client.retryable_op(now) {
                    self.client.retry_now(now, op);
                }
            }
            Action::Drop(id) => {
                if self.net.settle(id, Fate::Lost(now, DropReason::Dropped)) {
                    notes.push(Note::MessageLost {
                        msg: id,
                        reason: DropReason::Dropped,
                    });
                }
            }
            Action::LoseNextAck => {
                self.lose_next_acks = self.lose_next_acks.saturating_add(1);
                notes.push(Note::NextAckWillBeLost);
            }
            Action::Duplicate(id) => {
                if let Some(copy) = self.net.duplicate(id, 60) {
                    notes.push(Note::MessageDuplicated { msg: id, copy });
                    sent.push(copy);
                }
            }
            Action::Delay(id, ms) => {
                if self.net.delay(id, ms) {
                    notes.push(Note::MessageDelayed { msg: id, ms });
                }
            }
            Action::Crash(phase) => {
                self.api.arm_crash(phase);
                notes.push(Note::CrashArmed { phase });
            }
            Action::Pause(phase) => {
                self.api.arm_pause(phase);
                notes.push(Note::PauseArmed { phase });
            }
            Action::EvictKeys => {
                let count = self.store.evict_all();
                notes.push(if count > 0 {
                    Note::KeysEvicted { count }
                } else {
                    Note::NothingToDo
                });
            }
            Action::AdvanceClock(ms) => {
                // The phone goes offline for `ms`: the servers keep working on their own
                // schedule, answers to the phone are lost, and its timers wait for it.
                let wake = now.plus(ms);
                self.client_offline_until =
                    Some(self.client_offline_until.map_or(wake, |w| w.max(wake)));
                notes.push(Note::ClockAdvanced { ms });
            }
            Action::ConcurrentDuplicate => {
                if let Some(op) = self.client.ops().last().map(|o| o.op) {
                    self.client.send_copy(now, op);
                }
            }
            Action::ReuseKeyOtherBody => {
                if let Some(first) = self.client.ops().first().cloned() {
                    notes.push(Note::ClientReusesKey);
                    let kind = match first.body {
                        RequestBody::Charge { amount_cents, .. } => OpKind::Charge {
                            amount_cents: amount_cents + 5_000,
                        },
                        RequestBody::Debit { amount, .. } => OpKind::Debit {
                            amount: amount + 10,
                            read_version: self.scenario.version,
                        },
                        RequestBody::Like { post, .. } => OpKind::Like { post: post + 1 },
                    };
                    let spec = OpSpec {
                        user: first.user,
                        kind,
                    };
                    self.start_op(spec, Some(first.key), None);
                }
            }
            Action::OtherUserSameKey => {
                if let Some(first) = self.client.ops().first().cloned() {
                    notes.push(Note::OtherUserSameKey { user: BOB.0 });
                    let spec = OpSpec {
                        user: BOB,
                        kind: kind_of(&first.body, self.scenario.version),
                    };
                    self.start_op(spec, Some(first.key), None);
                }
            }
        }
    }

    /// Starts an operation; `key` overrides the fresh key (`Some(None)` = no key).
    pub(super) fn start_op(
        &mut self,
        spec: OpSpec,
        key: Option<Option<Text>>,
        op_id: Option<Text>,
    ) {
        let p = self.scenario.protections;
        let op = OpId(self.next_op);
        self.next_op += 1;
        let key = match key {
            Some(k) => k,
            None if p.idempotency_key && !self.scenario.client_omits_key => Some(self.uuid()),
            None => None,
        };
        let body = match spec.kind {
            OpKind::Charge { amount_cents } => RequestBody::Charge {
                amount_cents,
                currency: Text::from("usd"),
            },
            OpKind::Debit {
                amount,
                read_version,
            } => RequestBody::Debit {
                account: ACCOUNT,
                amount,
                expected_version: p.cas.then_some(read_version),
                op_id: op_id.or_else(|| p.reconcile.then(|| self.uuid())),
            },
            OpKind::Like { post } => RequestBody::Like {
                post,
                op_id: op_id.or_else(|| p.op_dedup.then(|| self.uuid())),
            },
        };
        self.client.start(self.now, op, spec.user, body, key);
    }

    pub(super) fn uuid(&mut self) -> Text {
        Text::from(
            uuid::Builder::from_random_bytes(self.rng.bytes16())
                .into_uuid()
                .to_string(),
        )
    }
}

fn kind_of(body: &RequestBody, read_version: u64) -> OpKind {
    match body {
        RequestBody::Charge { amount_cents, .. } => OpKind::Charge {
            amount_cents: *amount_cents,
        },
        RequestBody::Debit {
            amount,
            expected_version,
            ..
        } => OpKind::Debit {
            amount: *amount,
            read_version: expected_version.unwrap_or(read_version),
        },
        RequestBody::Like { post, .. } => OpKind::Like { post: *post },
    }
}
