//! The five nodes, the four links between them, and the identifiers that name things on them.

use serde::{Deserialize, Serialize};

/// One of the five boxes of the lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Node {
    /// The mobile app: sends requests, loses acks, retries.
    Client,
    /// The payment API: the only node that talks to the other three, and the owner of idempotency.
    Api,
    /// The idempotency store (a Redis model).
    Store,
    /// The payments ledger (a PostgreSQL model).
    Ledger,
    /// The card processor (PSP): really moves money.
    Processor,
}

impl Node {
    /// All nodes, in the order the lesson draws them.
    pub const ALL: [Node; 5] = [
        Node::Client,
        Node::Api,
        Node::Store,
        Node::Ledger,
        Node::Processor,
    ];

    /// A stable lowercase name (used in test ids and URLs).
    pub fn name(self) -> &'static str {
        match self {
            Node::Client => "client",
            Node::Api => "api",
            Node::Store => "store",
            Node::Ledger => "ledger",
            Node::Processor => "processor",
        }
    }
}

/// A link of the topology. There is no other path: the client never talks to the ledger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Link {
    /// Mobile network between the client and the API: slow and lossy.
    ClientApi,
    /// Data-centre link between the API and the idempotency store.
    ApiStore,
    /// Data-centre link between the API and the ledger.
    ApiLedger,
    /// Internet link between the API and the card processor.
    ApiProcessor,
}

impl Link {
    /// All links.
    pub const ALL: [Link; 4] = [
        Link::ClientApi,
        Link::ApiStore,
        Link::ApiLedger,
        Link::ApiProcessor,
    ];

    /// The link that joins the API with `node`, or `None` for the API itself.
    pub fn to(node: Node) -> Option<Link> {
        match node {
            Node::Client => Some(Link::ClientApi),
            Node::Store => Some(Link::ApiStore),
            Node::Ledger => Some(Link::ApiLedger),
            Node::Processor => Some(Link::ApiProcessor),
            Node::Api => None,
        }
    }

    /// The node at the far end from the API.
    pub fn peer(self) -> Node {
        match self {
            Link::ClientApi => Node::Client,
            Link::ApiStore => Node::Store,
            Link::ApiLedger => Node::Ledger,
            Link::ApiProcessor => Node::Processor,
        }
    }

    /// A stable lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Link::ClientApi => "client-api",
            Link::ApiStore => "api-store",
            Link::ApiLedger => "api-ledger",
            Link::ApiProcessor => "api-processor",
        }
    }
}

/// The id of a message, unique within one run; the UI uses it to point at a packet ("drop #7").
/// The explorer's view leaves ids out through `base::canonical`, not through its `Hash`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct MsgId(pub u32);

/// One logical operation the user wants done once ("pay $100", "like post 7"). Ground truth for
/// the invariant checks only: the API never reads it, it sees keys, versions and op_ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct OpId(pub u32);

/// An authenticated user of the payment API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct UserId(pub u32);

/// Names the request handler inside the API that a backend reply belongs to. The epoch changes
/// when the API restarts, so replies addressed to a handler that died in a crash are recognised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct HandlerRef {
    /// How many times the API process has started before this one.
    pub epoch: u32,
    /// The handler's number within that process.
    pub id: u32,
}

#[cfg(test)]
mod tests {
    use super::{Link, MsgId, Node};
    use std::hash::{DefaultHasher, Hash, Hasher};

    /// The names are the page's test ids and the links' words: pinned.
    #[test]
    fn nodes_and_links_have_their_stable_names() {
        let nodes: Vec<&str> = Node::ALL.iter().map(|n| n.name()).collect();
        assert_eq!(nodes, ["client", "api", "store", "ledger", "processor"]);
        let links: Vec<&str> = Link::ALL.iter().map(|l| l.name()).collect();
        assert_eq!(
            links,
            ["client-api", "api-store", "api-ledger", "api-processor"]
        );
    }

    /// A message id hashes by its number outside the explorer's canonical view (which leaves
    /// ids out on purpose): two packets are two keys of any hash map.
    #[test]
    fn message_ids_hash_by_their_number() {
        let hash = |id: u32| {
            let mut h = DefaultHasher::new();
            MsgId(id).hash(&mut h);
            h.finish()
        };
        assert_ne!(hash(1), hash(2));
        assert_eq!(hash(7), hash(7));
    }
}
