//! The named phases of the payment API's request handler. Its own module so that the notes
//! (which name phases) and the API (which runs them) do not import each other.

use serde::{Deserialize, Serialize};

/// A point in the handler where the API can be crashed or a handler paused: just before the
/// phase starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// Look up or claim the Idempotency-Key.
    ClaimKey,
    /// Ask the card processor to charge.
    CallProcessor,
    /// Write the ledger (charge row, debit or like), with the key record when it shares the
    /// transaction.
    WriteLedger,
    /// Write the key's response into Redis after the ledger commit.
    RecordKey,
    /// Send the answer to the client.
    Respond,
}

impl Phase {
    /// All phases in handler order.
    pub const ALL: [Phase; 5] = [
        Phase::ClaimKey,
        Phase::CallProcessor,
        Phase::WriteLedger,
        Phase::RecordKey,
        Phase::Respond,
    ];

    /// A stable lowercase name (URL spelling).
    pub fn name(self) -> &'static str {
        match self {
            Phase::ClaimKey => "claim-key",
            Phase::CallProcessor => "call-processor",
            Phase::WriteLedger => "write-ledger",
            Phase::RecordKey => "record-key",
            Phase::Respond => "respond",
        }
    }

    /// The phase with this name.
    pub fn from_name(name: &str) -> Option<Phase> {
        Phase::ALL.into_iter().find(|p| p.name() == name)
    }
}
