//! How the model's values that hold a time or a message id show themselves to the explorer's
//! canonical view (`base::canonical`; the API's own are beside its private fields, api.rs).
//! Every other value of the world is viewed by its plain `Hash`.
//!
//! Each impl visits the same fields, in the same order, as the type's derived `Hash`, less
//! the fields only the page reads (said where one is left out). An enum hashes its variant,
//! then its fields; a variant that holds neither a time nor an id is hashed whole.

use crate::base::canonical::{Canonical, CanonicalView};
use crate::client::UserView;
use crate::http::HttpResponse;
use crate::ledger::{KeyRow, Returned, SqlBatch, Statement, StatementResult};
use crate::net::{Fate, Message};
use crate::nodes::message::Payload;
use crate::processor::StatementLine;
use crate::record::StoredKey;

impl Canonical for Message {
    /// Every field but `sent_at`, which only the page shows (nothing in the simulation reads
    /// it), so messages that differ only in when they left are one situation.
    fn canonical(&self, view: &mut CanonicalView) {
        view.msg_id(self.id);
        view.plain(&self.from);
        view.plain(&self.to);
        view.plain(&self.link);
        view.time(self.deliver_at);
        view.visit(&self.payload);
        view.plain(&self.doomed);
        view.visit(&self.duplicate_of);
        view.visit(&self.fate);
    }
}

impl Canonical for Fate {
    fn canonical(&self, view: &mut CanonicalView) {
        view.plain(&std::mem::discriminant(self));
        match self {
            Fate::InFlight => {}
            Fate::Delivered(at) => view.time(*at),
            Fate::Lost(at, reason) => {
                view.time(*at);
                view.plain(reason);
            }
        }
    }
}

impl Canonical for Payload {
    fn canonical(&self, view: &mut CanonicalView) {
        match self {
            Payload::Response(response) => {
                view.plain(&std::mem::discriminant(self));
                view.visit(response);
            }
            Payload::Sql(handler, batch) => {
                view.plain(&std::mem::discriminant(self));
                view.plain(handler);
                view.visit(batch);
            }
            Payload::SqlResults(handler, results) => {
                view.plain(&std::mem::discriminant(self));
                view.plain(handler);
                view.visit(results);
            }
            Payload::Request(_)
            | Payload::Redis(..)
            | Payload::RedisReply(..)
            | Payload::Charge(..)
            | Payload::ChargeReply(..) => view.plain(self),
        }
    }
}

impl Canonical for HttpResponse {
    fn canonical(&self, view: &mut CanonicalView) {
        view.plain(&self.status);
        view.plain(&self.replayed);
        view.plain(&self.body);
        view.msg_id(self.in_reply_to);
        view.plain(&self.user);
        view.plain(&self.op);
    }
}

impl Canonical for UserView {
    fn canonical(&self, view: &mut CanonicalView) {
        match self {
            UserView::Succeeded(response) | UserView::Failed(response) => {
                view.plain(&std::mem::discriminant(self));
                view.visit(response);
            }
            UserView::Waiting | UserView::GaveUp => view.plain(self),
        }
    }
}

impl Canonical for StoredKey {
    fn canonical(&self, view: &mut CanonicalView) {
        view.plain(&self.record);
        view.time(self.expires_at);
    }
}

impl Canonical for KeyRow {
    fn canonical(&self, view: &mut CanonicalView) {
        view.plain(&self.key);
        view.visit(&self.stored);
        view.time(self.locked_until);
        view.plain(&self.request);
    }
}

impl Canonical for Statement {
    fn canonical(&self, view: &mut CanonicalView) {
        match self {
            Statement::ClaimKey {
                key,
                record,
                locked_until,
                expires_at,
                request,
            } => {
                view.plain(&std::mem::discriminant(self));
                view.plain(key);
                view.plain(record);
                view.time(*locked_until);
                view.time(*expires_at);
                view.plain(request);
            }
            Statement::SelectStaleKeys { now } => {
                view.plain(&std::mem::discriminant(self));
                view.time(*now);
            }
            Statement::ReclaimKey {
                user,
                key,
                now,
                locked_until,
            } => {
                view.plain(&std::mem::discriminant(self));
                view.plain(user);
                view.plain(key);
                view.time(*now);
                view.time(*locked_until);
            }
            Statement::InsertCharge { .. }
            | Statement::Fence { .. }
            | Statement::Debit { .. }
            | Statement::SelectAccount { .. }
            | Statement::SelectChargeByKey { .. }
            | Statement::SelectAccountOp { .. }
            | Statement::InsertLikeOp { .. }
            | Statement::IncrementLikes { .. }
            | Statement::SelectLikes { .. }
            | Statement::SelectKey { .. }
            | Statement::CompleteKey { .. } => view.plain(self),
        }
    }
}

impl Canonical for SqlBatch {
    fn canonical(&self, view: &mut CanonicalView) {
        view.visit(&self.statements);
        view.plain(&self.transaction);
        view.plain(&self.op);
    }
}

impl Canonical for StatementResult {
    fn canonical(&self, view: &mut CanonicalView) {
        view.plain(&self.rows);
        view.visit(&self.returned);
    }
}

impl Canonical for Returned {
    fn canonical(&self, view: &mut CanonicalView) {
        match self {
            Returned::Key(row) => {
                view.plain(&std::mem::discriminant(self));
                view.visit(row);
            }
            Returned::Keys(rows) => {
                view.plain(&std::mem::discriminant(self));
                view.visit(rows);
            }
            Returned::Nothing
            | Returned::Account { .. }
            | Returned::Likes(_)
            | Returned::Charge(_) => view.plain(self),
        }
    }
}

impl Canonical for StatementLine {
    /// Every field but `at`, which only the page shows: lines that differ only in when the
    /// money moved are one situation.
    fn canonical(&self, view: &mut CanonicalView) {
        view.plain(&self.payment_id);
        view.plain(&self.user);
        view.plain(&self.amount_cents);
        view.plain(&self.op);
    }
}
