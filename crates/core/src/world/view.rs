//! The world's canonical view ([`World::view`]): what the explorer merges situations by, with
//! what is past or only shown by the page left out.

use crate::base::canonical::CanonicalView;

use super::World;

impl World {
    /// The explorer's view of this world: a 128-bit fingerprint of everything that decides
    /// the future and the verdict, up to a shift in time and a renumbering of messages, plus
    /// (`with_sent`) which packets the last step sent (the explorer faults a packet only then).
    ///
    /// - Every time is seen relative to now (the canonical view, `base::canonical`, is told
    ///   which values are times): nothing in the simulation reads the clock's absolute value,
    ///   only differences and comparisons, and the script's next entry is seen as a time too.
    /// - Message ids are left out (the view is told which values are ids): the network keeps
    ///   messages in id order, a fresh id is always the greatest, and the only other readers
    ///   of an id (`in_reply_to`, `request_msg`, `duplicate_of`) use no more than whether
    ///   there is one.
    /// - The past is left out: the step count, the step log, the injected actions, when each
    ///   message left and when each charge was made (nothing reads those but the page).
    ///
    /// So two worlds with equal views step to worlds with equal views, offer the same faults
    /// in the same order, and judge alike.
    pub(crate) fn view(&self, with_sent: bool) -> u128 {
        let mut v = CanonicalView::new(self.now);
        v.plain(&self.rng);
        self.view_client(&mut v);
        v.visit(&self.api);
        self.view_keys(&mut v);
        v.plain(&self.ledger.charges);
        v.plain(&self.ledger.accounts);
        v.plain(&self.ledger.posts);
        v.plain(&self.ledger.like_ops);
        v.plain(&self.ledger.account_ops);
        v.plain(&self.ledger.debits);
        v.plain(&self.ledger.likes);
        v.plain(&self.ledger.fences);
        v.visit(&self.processor.statement);
        v.plain(&self.script_pos);
        v.visit(&self.scenario.script.get(self.script_pos).map(|s| s.at));
        v.plain(&self.lose_next_acks);
        v.visit(&self.client_offline_until);
        v.plain(&self.next_op);
        // The packets in flight, in id order (settled ones, kept with history, are past).
        for message in self.net.in_flight() {
            v.visit(message);
        }
        v.end_of_list();
        if with_sent {
            // Which packets in flight on the mobile link (by place, as ids are left out) the
            // last step sent: the explorer faults those only.
            let sent = self.steps.last().map_or(&[][..], |s| s.sent.as_slice());
            for (place, message) in self.net.in_flight().enumerate() {
                if message.is_faultable() && sent.contains(&message.id) {
                    v.plain(&place);
                }
            }
            v.end_of_list();
        }
        v.finish128()
    }

    /// The client's operations for [`World::view`], with what is past left out where only its
    /// being past matters: a timer already due fires at once (or when the phone wakes), so
    /// only its order among the due ones counts; an operation's start counts only against the
    /// retry deadline, and not at all without one.
    pub(super) fn view_client(&self, v: &mut CanonicalView) {
        use crate::client::Wait;
        let now = self.now;
        let due_at = |wait: &Wait| match *wait {
            Wait::Answer { timeout_at: t }
            | Wait::Backoff { retry_at: t }
            | Wait::Status { timeout_at: t } => Some(t),
            Wait::Nothing => None,
        };
        let ops = self.client.ops();
        let deadline = self.client.config().retry_deadline_ms;
        for o in ops {
            v.plain(&o.op);
            v.plain(&o.user);
            v.plain(&o.body);
            v.plain(&o.key);
            v.plain(&o.attempts);
            v.visit(&o.view);
            v.plain(&std::mem::discriminant(&o.wait));
            match due_at(&o.wait) {
                Some(t) if t < now => {
                    let rank = ops
                        .iter()
                        .filter_map(|p| due_at(&p.wait).map(|u| (u, p.op)))
                        .filter(|(u, op)| *u < now && (*u, *op) < (t, o.op))
                        .count();
                    v.plain(&(true, rank));
                }
                t => {
                    v.plain(&false);
                    v.visit(&t);
                }
            }
            if let Some(d) = deadline {
                v.plain(&now.since(o.started_at).min(d + 1));
            }
        }
    }

    /// The idempotency keys of the store, the ledger and the processor for [`World::view`],
    /// without those past their expiry: each is deleted before anything reads it again.
    pub(super) fn view_keys(&self, v: &mut CanonicalView) {
        let now = self.now;
        // Redis keeps a key up to and including its expiry time.
        for (key, stored) in self.store.entries() {
            if stored.expires_at >= now {
                v.visit(&(key, stored));
            }
        }
        v.end_of_list();
        for row in &self.ledger.idempotency_keys {
            if row.stored.expires_at > now {
                v.visit(row);
            }
        }
        v.end_of_list();
        for counter in self.store.counters() {
            v.plain(&counter);
        }
        v.end_of_list();
        v.plain(&self.ledger.like_ops_unique);
        v.plain(&self.ledger.keys_scoped);
        for fence in self.processor.fences() {
            v.plain(&fence);
        }
        v.end_of_list();
        for (key, remembered) in self.processor.keys() {
            if remembered.1 > now {
                v.visit(&(key, remembered));
            }
        }
        v.end_of_list();
    }
}
