//! Narration keys: what happened in a step, as data. The page turns each note into a sentence
//! from its message catalog (one per language); the core never writes prose.

use serde::{Deserialize, Serialize};

use crate::nodes::message::DropReason;
use crate::phase::Phase;
use crate::topology::{MsgId, OpId};

/// One thing that happened in a step, with the numbers a sentence about it needs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Note {
    /// The client sent attempt `attempt` of `op` (1 = first try).
    ClientSends {
        /// Operation.
        op: OpId,
        /// Attempt number.
        attempt: u32,
        /// Whether an Idempotency-Key header is on it.
        with_key: bool,
    },
    /// No answer within the timeout.
    ClientTimedOut {
        /// Operation.
        op: OpId,
        /// The attempt that timed out.
        attempt: u32,
    },
    /// The client will retry after a backoff.
    ClientBacksOff {
        /// Operation.
        op: OpId,
        /// Milliseconds until the retry.
        wait_ms: u64,
    },
    /// The user pressed Retry.
    ClientRetryPressed {
        /// Operation.
        op: OpId,
    },
    /// The client got its answer and shows it.
    ClientGotAnswer {
        /// Operation.
        op: OpId,
        /// HTTP status.
        status: u16,
        /// Answered from the stored response.
        replayed: bool,
    },
    /// An answer arrived for an operation that was already settled, and was ignored.
    ClientIgnoredLateAnswer {
        /// Operation.
        op: OpId,
        /// HTTP status.
        status: u16,
    },
    /// The client stopped retrying (attempts used up or retry deadline passed).
    ClientGaveUp {
        /// Operation.
        op: OpId,
    },
    /// A 409 told the client to come back later.
    ClientToldToWait {
        /// Operation.
        op: OpId,
    },
    /// The API refused a charge without a key (400).
    ApiRejectsMissingKey,
    /// The API tries to claim the key (SET NX / INSERT … ON CONFLICT DO NOTHING).
    ApiClaimsKey,
    /// The API only looks the key up (no lock).
    ApiLooksUpKey,
    /// The claim succeeded or the lookup found nothing: this is a new request.
    ApiKeyIsNew,
    /// The claim failed: someone has the key; the API reads the record.
    ApiKeyTaken,
    /// The key was completed before: the stored response is replayed.
    ApiReplays {
        /// The stored status.
        status: u16,
    },
    /// Same key, different body: 422.
    ApiKeyReused,
    /// Same key, still in progress: 409.
    ApiKeyInProgress,
    /// The holder of an in-progress claim is gone (lease over): the API takes the key over.
    ApiReclaimsKey,
    /// The API calls the processor.
    ApiCallsProcessor {
        /// Whether the key is forwarded.
        forwarded: bool,
    },
    /// The API writes the ledger.
    ApiWritesLedger {
        /// Whether the key record commits in the same transaction.
        with_key: bool,
    },
    /// The API records the key's response in Redis after the commit.
    ApiRecordsKey,
    /// The API answers the client.
    ApiResponds {
        /// HTTP status.
        status: u16,
    },
    /// The claim is ours and the key's counter gave it this fencing token (above 1: someone
    /// held the key before, and may still be running).
    ApiGetsToken {
        /// The token.
        token: u64,
    },
    /// A handler stalled just before the named phase (a GC pause, a slow call).
    ApiPaused {
        /// The phase it waits before.
        phase: Phase,
    },
    /// A paused handler carries on with the phase it stopped before, unaware of the time lost.
    ApiResumes {
        /// The phase.
        phase: Phase,
    },
    /// A finishing write was refused for a stale fencing token: the handler gives up.
    ApiFenced,
    /// The processor refused a call whose fencing token is older than one it has seen.
    ProcessorFenced,
    /// The API process died before the named phase.
    ApiCrashed {
        /// The phase it did not reach.
        phase: Phase,
    },
    /// The API is back, with no memory of requests in progress.
    ApiRestarted,
    /// A backend reply reached a handler that died in a crash, and was discarded.
    ApiDiscardsOrphanReply,
    /// The store answered `OK` (a SET went through: for SET NX, the claim is ours).
    StoreOk,
    /// The store answered `(nil)`: no such key, or SET NX found one already.
    StoreNil,
    /// The store answered with a stored record.
    StoreValue,
    /// The ledger ran statements; rows affected per statement.
    LedgerRan {
        /// Rows affected, in statement order.
        rows: Vec<u64>,
        /// What each statement was, in the same order (`UPDATE accounts … WHERE version`).
        statements: Vec<String>,
    },
    /// The processor moved money.
    ProcessorCharged {
        /// The new payment.
        payment_id: String,
    },
    /// The processor recognised the forwarded key and moved no money.
    ProcessorDeduplicated {
        /// The earlier payment.
        payment_id: String,
    },
    /// A message never arrived.
    MessageLost {
        /// Which one.
        msg: MsgId,
        /// Why.
        reason: DropReason,
    },
    /// The network delivered a second copy of a message.
    MessageDuplicated {
        /// The original.
        msg: MsgId,
        /// The copy.
        copy: MsgId,
    },
    /// A message was held up.
    MessageDelayed {
        /// Which one.
        msg: MsgId,
        /// By how long.
        ms: u64,
    },
    /// "Lose the next ack" was armed.
    NextAckWillBeLost,
    /// A crash was armed for the next time a handler reaches `phase`.
    CrashArmed {
        /// Where.
        phase: Phase,
    },
    /// A pause was armed for the next handler that reaches `phase`.
    PauseArmed {
        /// Where.
        phase: Phase,
    },
    /// Store keys were evicted.
    KeysEvicted {
        /// How many.
        count: usize,
    },
    /// Keys reached their TTL and disappeared.
    KeysExpired {
        /// How many.
        count: usize,
    },
    /// The phone went offline while the clock runs on.
    ClockAdvanced {
        /// By how long.
        ms: u64,
    },
    /// A new logical operation began.
    OperationStarted {
        /// Its id.
        op: OpId,
    },
    /// The API debits the account, conditionally (`cas`) or blindly.
    ApiDebits {
        /// Whether the update carries `WHERE version = $expected`.
        cas: bool,
    },
    /// The conditional update matched 0 rows: the API answers 412 with the current version.
    ApiCasRejected,
    /// The phone, about to give up, asks the API what became of its key (status check).
    ClientAsksStatus {
        /// The operation.
        op: OpId,
    },
    /// A status check: the API looks in `charges` for a payment made with this key.
    ApiLooksUpStatus,
    /// The status check found the payment: 200 with it.
    ApiStatusFound,
    /// The status check found no payment with this key: 404.
    ApiStatusUnknown,
    /// The conditional update matched 0 rows, but `account_ops` holds this operation's id:
    /// its debit is already applied, so the API answers 200 with the account as it is now.
    ApiReconciled,
    /// The API counts a like, deduplicating by op_id or not.
    ApiLikes {
        /// Whether it inserts into like_ops first.
        dedup: bool,
    },
    /// like_ops already had the op_id (0 rows): the increment was skipped.
    ApiLikeSkipped,
    /// The recovery job looks for in-progress keys whose lease ran out.
    ApiRecoverySweep,
    /// The recovery job found stale claims and re-drives them.
    ApiRecovers {
        /// How many.
        count: usize,
    },
    /// A recovered operation is complete; there is no client connection to answer.
    ApiRecovered,
    /// The phone came back online.
    ClientWoke,
    /// The phone got a success that is not its own: another user's payment, or the answer
    /// to a different request made with the same key.
    ClientGotForeignAnswer {
        /// Operation.
        op: OpId,
        /// HTTP status.
        status: u16,
    },
    /// Another user sends a request that happens to carry the same key.
    OtherUserSameKey {
        /// That user.
        user: u32,
    },
    /// A client bug: a new operation reuses an earlier operation's key.
    ClientReusesKey,
    /// In-progress claims whose lease ran out disappeared (their holder did not finish).
    ClaimsExpired {
        /// How many.
        count: usize,
    },
    /// The action could not apply here (for example, evicting from a store not in use).
    NothingToDo,
}

impl Note {
    /// The message-catalog key of this note.
    pub fn key(&self) -> &'static str {
        match self {
            Note::ClientSends { attempt: 1, .. } => "client.sends",
            Note::ClientSends { .. } => "client.resends",
            Note::ClientTimedOut { .. } => "client.timed_out",
            Note::ClientBacksOff { .. } => "client.backs_off",
            Note::ClientRetryPressed { .. } => "client.retry_pressed",
            Note::ClientGotAnswer { status: 412, .. } => "client.got_current_state",
            Note::ClientGotAnswer { replayed: true, .. } => "client.got_replay",
            Note::ClientGotAnswer { status, .. } if (200..300).contains(status) => {
                "client.got_success"
            }
            Note::ClientGotAnswer { .. } => "client.got_error",
            Note::ClientIgnoredLateAnswer { .. } => "client.ignored_late",
            Note::ClientGaveUp { .. } => "client.gave_up",
            Note::ClientToldToWait { .. } => "client.told_to_wait",
            Note::ApiRejectsMissingKey => "api.missing_key",
            Note::ApiClaimsKey => "api.claims_key",
            Note::ApiLooksUpKey => "api.looks_up_key",
            Note::ApiKeyIsNew => "api.key_new",
            Note::ApiKeyTaken => "api.key_taken",
            Note::ApiReplays { .. } => "api.replays",
            Note::ApiKeyReused => "api.key_reused",
            Note::ApiKeyInProgress => "api.key_in_progress",
            Note::ApiReclaimsKey => "api.reclaims_key",
            Note::ApiCallsProcessor { forwarded: true } => "api.calls_processor_with_key",
            Note::ApiCallsProcessor { .. } => "api.calls_processor",
            Note::ApiWritesLedger { with_key: true } => "api.writes_ledger_with_key",
            Note::ApiWritesLedger { .. } => "api.writes_ledger",
            Note::ApiRecordsKey => "api.records_key",
            Note::ApiResponds { .. } => "api.responds",
            Note::ApiCrashed { .. } => "api.crashed",
            Note::ApiGetsToken { token: 1 } => "api.gets_token",
            Note::ApiGetsToken { .. } => "api.gets_later_token",
            Note::ApiPaused { .. } => "api.paused",
            Note::ApiResumes { .. } => "api.resumes",
            Note::ApiFenced => "api.fenced",
            Note::ProcessorFenced => "processor.fenced",
            Note::PauseArmed { .. } => "fault.pause_armed",
            Note::ApiRestarted => "api.restarted",
            Note::ApiDiscardsOrphanReply => "api.orphan_reply",
            Note::StoreOk => "store.ok",
            Note::StoreNil => "store.nil",
            Note::StoreValue => "store.value",
            Note::LedgerRan { .. } => "ledger.ran",
            Note::ProcessorCharged { .. } => "processor.charged",
            Note::ProcessorDeduplicated { .. } => "processor.deduplicated",
            Note::MessageLost {
                reason: DropReason::LostAck,
                ..
            } => "net.ack_lost",
            Note::MessageLost {
                reason: DropReason::ApiDown,
                ..
            } => "net.api_down",
            Note::MessageLost {
                reason: DropReason::ClientOffline,
                ..
            } => "net.client_offline",
            Note::MessageLost { .. } => "net.dropped",
            Note::MessageDuplicated { .. } => "net.duplicated",
            Note::MessageDelayed { .. } => "net.delayed",
            Note::NextAckWillBeLost => "fault.lose_next_ack",
            Note::CrashArmed { .. } => "fault.crash_armed",
            Note::KeysEvicted { .. } => "fault.evicted",
            Note::KeysExpired { .. } => "store.expired",
            Note::ClockAdvanced { .. } => "fault.clock_advanced",
            Note::OperationStarted { .. } => "client.op_started",
            Note::NothingToDo => "fault.nothing_to_do",
            Note::ApiRecoverySweep => "api.recovery_sweep",
            Note::ApiRecovers { .. } => "api.recovers",
            Note::ApiRecovered => "api.recovered",
            Note::ClientWoke => "client.woke",
            Note::ClientGotForeignAnswer { .. } => "client.got_foreign_answer",
            Note::OtherUserSameKey { .. } => "client.other_user",
            Note::ClientReusesKey => "client.reuses_key",
            Note::ClaimsExpired { .. } => "store.claims_expired",
            Note::ApiDebits { .. } => "api.debits",
            Note::ApiCasRejected => "api.cas_rejected",
            Note::ApiReconciled => "api.reconciled",
            Note::ClientAsksStatus { .. } => "client.asks_status",
            Note::ApiLooksUpStatus => "api.looks_up_status",
            Note::ApiStatusFound => "api.status_found",
            Note::ApiStatusUnknown => "api.status_unknown",
            Note::ApiLikes { .. } => "api.likes",
            Note::ApiLikeSkipped => "api.like_skipped",
        }
    }

    /// Every catalog key a note can produce, so catalogs can be checked for completeness.
    pub const KEYS: [&'static str; 73] = [
        "client.sends",
        "client.resends",
        "client.timed_out",
        "client.backs_off",
        "client.retry_pressed",
        "client.got_replay",
        "client.got_success",
        "client.got_error",
        "client.ignored_late",
        "client.gave_up",
        "client.told_to_wait",
        "api.missing_key",
        "api.claims_key",
        "api.looks_up_key",
        "api.key_new",
        "api.key_taken",
        "api.replays",
        "api.key_reused",
        "api.key_in_progress",
        "api.reclaims_key",
        "api.calls_processor_with_key",
        "api.calls_processor",
        "api.writes_ledger_with_key",
        "api.writes_ledger",
        "api.records_key",
        "api.responds",
        "api.crashed",
        "api.restarted",
        "api.orphan_reply",
        "store.ok",
        "store.nil",
        "store.value",
        "ledger.ran",
        "processor.charged",
        "processor.deduplicated",
        "net.ack_lost",
        "net.api_down",
        "net.dropped",
        "net.duplicated",
        "net.delayed",
        "fault.lose_next_ack",
        "fault.crash_armed",
        "fault.evicted",
        "store.expired",
        "fault.clock_advanced",
        "client.op_started",
        "fault.nothing_to_do",
        "api.debits",
        "api.cas_rejected",
        "api.reconciled",
        "client.asks_status",
        "api.looks_up_status",
        "api.status_found",
        "api.status_unknown",
        "api.likes",
        "api.like_skipped",
        "api.recovery_sweep",
        "api.recovers",
        "api.recovered",
        "client.woke",
        "net.client_offline",
        "client.got_current_state",
        "client.got_foreign_answer",
        "client.other_user",
        "client.reuses_key",
        "store.claims_expired",
        "api.gets_token",
        "api.gets_later_token",
        "api.paused",
        "api.resumes",
        "api.fenced",
        "fault.pause_armed",
        "processor.fenced",
    ];
}
