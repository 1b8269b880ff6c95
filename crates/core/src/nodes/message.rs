//! What the machines say to each other: the payload of every message, and why one can be lost
//! on the way. The machines own their messages; the network only carries them.

use serde::{Deserialize, Serialize};

use crate::http::{HttpRequest, HttpResponse};
use crate::nodes::ledger::{SqlBatch, StatementResult};
use crate::nodes::processor::{ChargeReply, ChargeRequest};
use crate::nodes::store::{RedisCommand, RedisReply};
use crate::topology::HandlerRef;

/// What a message carries.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Payload {
    /// Client → API.
    Request(HttpRequest),
    /// API → client: the ack.
    Response(HttpResponse),
    /// API → store.
    Redis(HandlerRef, RedisCommand),
    /// Store → API.
    RedisReply(HandlerRef, RedisReply),
    /// API → ledger.
    Sql(HandlerRef, SqlBatch),
    /// Ledger → API.
    SqlResults(HandlerRef, Vec<StatementResult>),
    /// API → processor.
    Charge(HandlerRef, ChargeRequest),
    /// Processor → API.
    ChargeReply(HandlerRef, ChargeReply),
}

impl Payload {
    /// Requests go towards the far node; replies (responses, acks) come back.
    pub fn is_reply(&self) -> bool {
        matches!(
            self,
            Payload::Response(_)
                | Payload::RedisReply(..)
                | Payload::SqlResults(..)
                | Payload::ChargeReply(..)
        )
    }

    /// The handler a backend message belongs to (the phone's requests and responses belong
    /// to none).
    pub fn handler(&self) -> Option<HandlerRef> {
        match self {
            Payload::Redis(h, _)
            | Payload::RedisReply(h, _)
            | Payload::Sql(h, _)
            | Payload::SqlResults(h, _)
            | Payload::Charge(h, _)
            | Payload::ChargeReply(h, _) => Some(*h),
            Payload::Request(_) | Payload::Response(_) => None,
        }
    }
}

/// Why a message never arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DropReason {
    /// Someone (the student, a script, the explorer) dropped it in flight.
    Dropped,
    /// "Lose the next ack" was armed when it was sent.
    LostAck,
    /// It reached the API while the API was down.
    ApiDown,
    /// It reached the phone while the phone was offline.
    ClientOffline,
}
