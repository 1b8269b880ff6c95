//! A model of the card processor (PSP). It sits outside every transaction of ours: once it has
//! charged, only its own idempotency key can stop a second charge.

use crate::base::text::Text;
use serde::{Deserialize, Serialize};

use crate::base::vecmap::VecMap;
use crate::time::{SimTime, DAY};
use crate::topology::{OpId, UserId};

/// How long the processor remembers an idempotency key (Stripe: 24 h).
pub const PROCESSOR_KEY_TTL_MS: u64 = DAY;

/// A charge request from the API.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChargeRequest {
    /// The customer.
    pub user: UserId,
    /// Amount in cents.
    pub amount_cents: u64,
    /// The key the API forwarded, if it does.
    pub idempotency_key: Option<Text>,
    /// Ground truth: the logical operation.
    pub op: OpId,
    /// With fencing: the claim's counter and the caller's token. The processor keeps the
    /// newest token it has seen per counter and refuses a call with an older one.
    pub fence: Option<(Text, u64)>,
}

/// The processor's answer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChargeReply {
    /// The payment id.
    pub payment_id: Text,
    /// True when the key matched an earlier charge and no money moved this time.
    pub replayed: bool,
    /// True when the call was refused for a stale fencing token (no money moved, no id).
    pub fenced: bool,
}

/// One line of the customer's card statement.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StatementLine {
    /// Payment id.
    pub payment_id: Text,
    /// Customer.
    pub user: UserId,
    /// Amount in cents.
    pub amount_cents: u64,
    /// When the money moved.
    pub at: SimTime,
    /// Ground truth: the logical operation that caused it.
    pub op: OpId,
}

/// The processor's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Processor {
    /// Every charge ever made: the customers' statements.
    pub statement: Vec<StatementLine>,
    keys: VecMap<Text, (Text, SimTime)>,
    fences: VecMap<Text, u64>,
}

impl Processor {
    /// The newest fencing token seen per counter.
    pub fn fences(&self) -> impl Iterator<Item = (&Text, &u64)> {
        self.fences.iter()
    }

    /// The forwarded keys it remembers, with the payment each names and when it forgets it
    /// (a key is forgotten once that time has come).
    pub fn keys(&self) -> impl Iterator<Item = (&Text, &(Text, SimTime))> {
        self.keys.iter()
    }

    /// Charges a card, unless the forwarded key was seen within its TTL.
    pub fn charge(&mut self, now: SimTime, request: &ChargeRequest) -> ChargeReply {
        self.keys.retain(|_, (_, expires)| *expires > now);
        if let Some((counter, token)) = &request.fence {
            if self
                .fences
                .get(counter)
                .is_some_and(|newest| newest > token)
            {
                return ChargeReply {
                    payment_id: Text::default(),
                    replayed: false,
                    fenced: true,
                };
            }
            self.fences.insert(counter.clone(), *token);
        }
        if let Some(key) = &request.idempotency_key {
            if let Some((payment_id, _)) = self.keys.get(key) {
                return ChargeReply {
                    payment_id: payment_id.clone(),
                    replayed: true,
                    fenced: false,
                };
            }
        }
        let payment_id = Text::from(payment_id(self.statement.len()));
        self.statement.push(StatementLine {
            payment_id: payment_id.clone(),
            user: request.user,
            amount_cents: request.amount_cents,
            at: now,
            op: request.op,
        });
        if let Some(key) = &request.idempotency_key {
            self.keys.insert(
                key.clone(),
                (payment_id.clone(), now.plus(PROCESSOR_KEY_TTL_MS)),
            );
        }
        ChargeReply {
            payment_id,
            replayed: false,
            fenced: false,
        }
    }

    /// Total charged to `user`, in cents.
    pub fn total_for(&self, user: UserId) -> u64 {
        self.statement
            .iter()
            .filter(|l| l.user == user)
            .map(|l| l.amount_cents)
            .sum()
    }
}

/// Payment ids in the seed's style: `pay_abc`, `pay_abd`, … (three letters, base 26).
pub fn payment_id(n: usize) -> String {
    let mut v = n + 28; // "abc" is a=0, b=1, c=2 → 0·676 + 1·26 + 2
    let mut letters = [b'a'; 3];
    for slot in letters.iter_mut().rev() {
        *slot = b'a' + (v % 26) as u8;
        v /= 26;
    }
    format!("pay_{}", String::from_utf8_lossy(&letters))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(key: Option<&str>) -> ChargeRequest {
        ChargeRequest {
            user: UserId(1),
            amount_cents: 10_000,
            idempotency_key: key.map(Text::from),
            op: OpId(0),
            fence: None,
        }
    }

    #[test]
    fn payment_ids_start_at_pay_abc() {
        assert_eq!(payment_id(0), "pay_abc");
        assert_eq!(payment_id(1), "pay_abd");
        assert_eq!(payment_id(24), "pay_aca");
    }

    #[test]
    fn without_a_key_every_call_charges() {
        let mut p = Processor::default();
        p.charge(SimTime(0), &req(None));
        p.charge(SimTime(1), &req(None));
        assert_eq!(p.total_for(UserId(1)), 20_000);
    }

    #[test]
    fn a_forwarded_key_dedups_within_its_ttl() {
        let mut p = Processor::default();
        let first = p.charge(SimTime(0), &req(Some("k")));
        let again = p.charge(SimTime(5), &req(Some("k")));
        assert_eq!(again.payment_id, first.payment_id);
        assert!(again.replayed);
        assert_eq!(p.total_for(UserId(1)), 10_000);
        let late = p.charge(SimTime(PROCESSOR_KEY_TTL_MS), &req(Some("k")));
        assert!(!late.replayed);
        assert_eq!(p.total_for(UserId(1)), 20_000);
    }
}
