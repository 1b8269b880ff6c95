//! A message's delivery: to the machine it is for (or lost on arrival), the replies that
//! machine sends back, and the machines' outputs put on the wire.

use crate::api::{ApiInput, ApiOutput};
use crate::client::ClientOutput;
use crate::net::Fate;
use crate::nodes::message::{DropReason, Payload};
use crate::note::Note;
use crate::store::RedisReply;
use crate::topology::{Link, MsgId, Node};

use super::World;

impl World {
    pub(super) fn deliver(&mut self, id: MsgId, notes: &mut Vec<Note>, sent: &mut Vec<MsgId>) {
        let now = self.now;
        let Some(message) = self.net.get(id) else {
            return;
        };
        let (to, doomed) = (message.to, message.doomed);
        if doomed {
            self.net.settle(id, Fate::Lost(now, DropReason::LostAck));
            notes.push(Note::MessageLost {
                msg: id,
                reason: DropReason::LostAck,
            });
            return;
        }
        if to == Node::Client && self.client_offline_until.is_some() {
            self.net
                .settle(id, Fate::Lost(now, DropReason::ClientOffline));
            notes.push(Note::MessageLost {
                msg: id,
                reason: DropReason::ClientOffline,
            });
            return;
        }
        if to == Node::Api && !self.api.is_up() {
            self.net.settle(id, Fate::Lost(now, DropReason::ApiDown));
            notes.push(Note::MessageLost {
                msg: id,
                reason: DropReason::ApiDown,
            });
            return;
        }
        let Some(payload) = self.net.deliver(id, now) else {
            return;
        };
        let p = self.scenario.protections;
        // Without history the narration is dropped at the end of the step: not built at all.
        let narrate = self.keep_history;
        match (to, payload) {
            (Node::Client, Payload::Response(response)) => {
                self.client.on_response(now, &response, &mut self.rng)
            }
            (Node::Api, Payload::Request(request)) => {
                self.api.handle(now, ApiInput::Request(id, request), &p)
            }
            (Node::Api, reply) => self.api.handle(now, ApiInput::Reply(reply), &p),
            (Node::Store, Payload::Redis(handler, command)) => {
                let reply = self.store.execute(now, &command);
                if narrate {
                    notes.push(match reply {
                        RedisReply::Ok => Note::StoreOk,
                        RedisReply::Nil => Note::StoreNil,
                        RedisReply::Value(_) => Note::StoreValue,
                        RedisReply::Int(_) => Note::StoreOk,
                    });
                }
                self.reply(Node::Store, Payload::RedisReply(handler, reply), sent);
            }
            (Node::Ledger, Payload::Sql(handler, batch)) => {
                let results = self.ledger.execute(now, &batch);
                if narrate {
                    notes.push(Note::LedgerRan {
                        rows: results.iter().map(|r| r.rows).collect(),
                        statements: batch
                            .statements
                            .iter()
                            .map(|s| s.summary().to_owned())
                            .collect(),
                    });
                }
                self.reply(Node::Ledger, Payload::SqlResults(handler, results), sent);
            }
            (Node::Processor, Payload::Charge(handler, request)) => {
                let reply = self.processor.charge(now, &request);
                if narrate {
                    notes.push(if reply.fenced {
                        Note::ProcessorFenced
                    } else if reply.replayed {
                        Note::ProcessorDeduplicated {
                            payment_id: reply.payment_id.as_str().to_owned(),
                        }
                    } else {
                        Note::ProcessorCharged {
                            payment_id: reply.payment_id.as_str().to_owned(),
                        }
                    });
                }
                self.reply(Node::Processor, Payload::ChargeReply(handler, reply), sent);
            }
            _ => {}
        }
    }

    /// A backend answers the API over its link.
    pub(super) fn reply(&mut self, from: Node, payload: Payload, sent: &mut Vec<MsgId>) {
        let link = Link::to(from).unwrap_or(Link::ClientApi);
        let delay = self.scenario.latencies.of(link);
        let id = self
            .net
            .send(self.now, from, Node::Api, payload, delay, false);
        sent.push(id);
    }

    /// Moves what the client and the API want sent onto the network, and their notes into
    /// the step.
    pub(super) fn flush(&mut self, notes: &mut Vec<Note>, sent: &mut Vec<MsgId>) {
        let narrate = self.keep_history;
        loop {
            let mut progressed = false;
            while let Some(output) = self.client.poll() {
                progressed = true;
                match output {
                    ClientOutput::Note(note) if narrate => notes.push(note),
                    ClientOutput::Note(_) => {}
                    ClientOutput::Send(request) => {
                        let delay = self.scenario.latencies.client_api;
                        let id = self.net.send(
                            self.now,
                            Node::Client,
                            Node::Api,
                            Payload::Request(request),
                            delay,
                            false,
                        );
                        sent.push(id);
                    }
                }
            }
            while let Some(output) = self.api.poll() {
                progressed = true;
                match output {
                    ApiOutput::Note(note) if narrate => notes.push(note),
                    ApiOutput::Note(_) => {}
                    ApiOutput::Send(to, payload) => {
                        let link = Link::to(to).unwrap_or(Link::ClientApi);
                        let doomed =
                            matches!(payload, Payload::Response(_)) && self.lose_next_acks > 0;
                        if doomed {
                            self.lose_next_acks -= 1;
                        }
                        let delay = self.scenario.latencies.of(link);
                        let id = self
                            .net
                            .send(self.now, Node::Api, to, payload, delay, doomed);
                        sent.push(id);
                    }
                }
            }
            if !progressed {
                break;
            }
        }
    }
}
