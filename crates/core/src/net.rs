//! The network: every message ever sent, in id order, with its fate. In-flight messages form a
//! priority queue ordered by (delivery time, id); time never runs backwards. What a message
//! carries is the machines' business (`message`): the network only moves it.

use serde::{Deserialize, Serialize};

use crate::nodes::message::{DropReason, Payload};
use crate::time::SimTime;
use crate::topology::{Link, MsgId, Node};

/// One-way delays of the links, in milliseconds. Lesson-scale, not production-scale: the slow
/// mobile link is what makes the ack's loss believable.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Latencies {
    /// Client ↔ API.
    pub client_api: u64,
    /// API ↔ store.
    pub api_store: u64,
    /// API ↔ ledger.
    pub api_ledger: u64,
    /// API ↔ processor.
    pub api_processor: u64,
}

impl Default for Latencies {
    fn default() -> Self {
        Self {
            client_api: 300,
            api_store: 100,
            api_ledger: 100,
            api_processor: 200,
        }
    }
}

impl Latencies {
    /// The delay of `link`.
    pub fn of(&self, link: Link) -> u64 {
        match link {
            Link::ClientApi => self.client_api,
            Link::ApiStore => self.api_store,
            Link::ApiLedger => self.api_ledger,
            Link::ApiProcessor => self.api_processor,
        }
    }
}

/// What became of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Fate {
    /// Still travelling.
    InFlight,
    /// Arrived at the given time.
    Delivered(SimTime),
    /// Lost at the given time.
    Lost(SimTime, DropReason),
}

/// A message on a link.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Message {
    /// Unique id, in sending order.
    pub id: MsgId,
    /// Sender.
    pub from: Node,
    /// Receiver.
    pub to: Node,
    /// The link it travels.
    pub link: Link,
    /// When it left.
    pub sent_at: SimTime,
    /// When it is due to arrive.
    pub deliver_at: SimTime,
    /// Contents.
    pub payload: Payload,
    /// Whether it will be lost on arrival ("lose the next ack").
    pub doomed: bool,
    /// The copy this message was duplicated from, if any.
    pub duplicate_of: Option<MsgId>,
    /// In flight, delivered or lost.
    pub fate: Fate,
}

impl Message {
    /// Only the mobile link loses, duplicates or delays packets in this model; inside the data
    /// centre, failures are modelled as API crashes.
    pub fn is_faultable(&self) -> bool {
        self.link == Link::ClientApi
    }
}

/// All messages of a run (or, with history off, only those in flight).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Network {
    messages: Vec<Message>,
    in_flight: Vec<MsgId>,
    next_id: u32,
    keep_history: bool,
}

impl Default for Network {
    fn default() -> Self {
        Self {
            messages: Vec::new(),
            in_flight: Vec::new(),
            next_id: 0,
            keep_history: true,
        }
    }
}

impl Network {
    /// Stops keeping settled messages (for the explorer, where only the future matters).
    pub fn forget_history(&mut self) {
        self.keep_history = false;
        let in_flight = &self.in_flight;
        self.messages.retain(|m| in_flight.contains(&m.id));
    }

    /// Puts a new message on the wire at `now`, due after `delay_ms`; returns its id.
    pub fn send(
        &mut self,
        now: SimTime,
        from: Node,
        to: Node,
        payload: Payload,
        delay_ms: u64,
        doomed: bool,
    ) -> MsgId {
        let id = self.fresh_id();
        let link = Link::to(if from == Node::Api { to } else { from }).unwrap_or(Link::ClientApi);
        self.messages.push(Message {
            id,
            from,
            to,
            link,
            sent_at: now,
            deliver_at: now.plus(delay_ms),
            payload,
            doomed,
            duplicate_of: None,
            fate: Fate::InFlight,
        });
        self.in_flight.push(id);
        id
    }

    /// Every message kept, in id order (all of them unless history is off).
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// One message.
    pub fn get(&self, id: MsgId) -> Option<&Message> {
        let index = self.index(id)?;
        self.messages.get(index)
    }

    /// Messages still travelling, in sending order.
    pub fn in_flight(&self) -> impl Iterator<Item = &Message> {
        self.in_flight.iter().filter_map(|id| self.get(*id))
    }

    /// The next message due: earliest delivery time, then lowest id.
    pub fn next_due(&self) -> Option<(SimTime, MsgId)> {
        self.in_flight().map(|m| (m.deliver_at, m.id)).min()
    }

    /// Takes a message out of flight with the given fate; false if it was not in flight.
    pub fn settle(&mut self, id: MsgId, fate: Fate) -> bool {
        let Some(pos) = self.in_flight.iter().position(|m| *m == id) else {
            return false;
        };
        self.in_flight.remove(pos);
        let Some(index) = self.index(id) else {
            return false;
        };
        if self.keep_history {
            self.messages[index].fate = fate;
        } else {
            self.messages.remove(index);
        }
        true
    }

    /// Takes a message out of flight as delivered at `now` and returns what it carries (moved
    /// out when history is off, copied when the message is kept); `None` if it was not in
    /// flight.
    pub fn deliver(&mut self, id: MsgId, now: SimTime) -> Option<Payload> {
        let pos = self.in_flight.iter().position(|m| *m == id)?;
        self.in_flight.remove(pos);
        let index = self.index(id)?;
        if self.keep_history {
            let message = &mut self.messages[index];
            message.fate = Fate::Delivered(now);
            Some(message.payload.clone())
        } else {
            Some(self.messages.remove(index).payload)
        }
    }

    /// Postpones an in-flight message.
    pub fn delay(&mut self, id: MsgId, ms: u64) -> bool {
        if !self.in_flight.contains(&id) {
            return false;
        }
        match self.index(id) {
            Some(index) => {
                let m = &mut self.messages[index];
                m.deliver_at = m.deliver_at.plus(ms);
                true
            }
            None => false,
        }
    }

    /// Makes the network deliver a second copy of an in-flight message `lag_ms` after the first.
    pub fn duplicate(&mut self, id: MsgId, lag_ms: u64) -> Option<MsgId> {
        if !self.in_flight.contains(&id) {
            return None;
        }
        let original = self.get(id)?.clone();
        let copy_id = self.fresh_id();
        self.messages.push(Message {
            id: copy_id,
            deliver_at: original.deliver_at.plus(lag_ms),
            duplicate_of: Some(id),
            doomed: false,
            ..original
        });
        self.in_flight.push(copy_id);
        Some(copy_id)
    }

    /// Whether anything is still travelling.
    pub fn is_idle(&self) -> bool {
        self.in_flight.is_empty()
    }

    fn fresh_id(&mut self) -> MsgId {
        let id = MsgId(self.next_id);
        self.next_id += 1;
        id
    }

    fn index(&self, id: MsgId) -> Option<usize> {
        self.messages.binary_search_by_key(&id, |m| m.id).ok()
    }
}
