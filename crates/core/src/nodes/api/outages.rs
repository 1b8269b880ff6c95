//! The API's outages: an armed crash or pause strikes when a handler is about to start its
//! phase; a crash loses every handler's memory until the restart, a pause stalls one handler
//! past its claim's lease; with recovery, a sweep re-drives the operations the crash left
//! claimed.

use crate::http::{HttpRequest, ResponseBody};
use crate::ledger::{Returned, SqlBatch, Statement, StatementResult};
use crate::nodes::message::Payload;
use crate::note::Note;
use crate::phase::Phase;
use crate::protections::Protections;
use crate::time::SimTime;
use crate::topology::Node;

use super::keys::{raw_key, recovery_applies, store_key};
use super::{Api, ApiOutput, Await, Handler, CLAIM_LEASE_MS, PAUSE_MS, RESTART_MS};

impl Api {
    /// Starts `phase` for handler `id`, unless a crash or a pause is armed for it.
    pub(super) fn enter(&mut self, now: SimTime, id: u32, phase: Phase, p: &Protections) {
        if self.pause_armed == Some(phase) && self.crash_armed != Some(phase) {
            self.pause(now, id, phase, None);
            return;
        }
        self.start(now, id, phase, p);
    }

    /// Stalls handler `id` before `phase` (with the response it was about to send, if any).
    pub(super) fn pause(
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

    pub(super) fn crash(&mut self, now: SimTime, phase: Phase) {
        self.handlers.clear();
        self.sweeper = None;
        self.sweep_at = None;
        self.epoch += 1;
        self.crash_armed = None;
        self.down_until = Some(now.plus(RESTART_MS));
        self.note(Note::ApiCrashed { phase });
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

    pub(super) fn on_sweep_result(
        &mut self,
        now: SimTime,
        rows: Vec<StatementResult>,
        p: &Protections,
    ) {
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
}
