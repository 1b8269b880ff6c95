//! The five machines of the topology, each driven the same way (`handle` / `on_timeout` in,
//! `poll` out): the mobile [`client`], the payment [`api`] that owns idempotency, the
//! idempotency [`store`] (Redis), the payments [`ledger`] (PostgreSQL) and the card
//! [`processor`]. Only the API talks to the other three, by the [`message`]s they exchange.

pub mod api;
pub mod client;
pub mod ledger;
pub mod message;
pub mod processor;
pub mod store;
