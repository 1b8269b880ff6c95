//! Story 4: `likes = likes + 1` is not idempotent; an op_id with a unique index makes it so.

use crate::support;

use idem_core::http::ResponseBody;
use idem_core::{Invariant, Status, Violation};
use support::*;

fn likes_seen(world: &idem_core::World) -> Vec<i64> {
    world
        .network()
        .messages()
        .iter()
        .filter_map(|m| match &m.payload {
            idem_core::message::Payload::Response(r) => match r.body {
                ResponseBody::Liked { likes } => Some(likes),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[test]
fn naive_increment_counts_the_retry_100_101_102() {
    let world = run("counter-naive");
    assert_eq!(likes_seen(&world), vec![101, 102]);
    assert_eq!(world.ledger().posts[0].likes, 102);
    assert_eq!(
        world.verdict().status(Invariant::LikesMatchOperations),
        Some(&Status::Violated(Violation::WrongTotal {
            expected: 101,
            actual: 102
        }))
    );
}

#[test]
fn op_id_with_a_unique_index_skips_the_retry() {
    let world = run("counter");
    assert_eq!(world.ledger().posts[0].likes, 101);
    // [INSERT like_ops, UPDATE likes (conditional), SELECT likes]
    assert_eq!(ledger_rows(&world), vec![vec![1, 1, 1], vec![0, 0, 1]]);
    assert_eq!(likes_seen(&world), vec![101, 101]);
    assert_eq!(world.ledger().like_ops.len(), 1);
    assert!(world.verdict().ok());
}

#[test]
fn on_conflict_without_a_unique_index_never_conflicts() {
    let world = run("counter-no-index");
    assert_eq!(world.ledger().posts[0].likes, 102);
    assert_eq!(ledger_rows(&world), vec![vec![1, 1, 1], vec![1, 1, 1]]);
    let ops = &world.ledger().like_ops;
    assert_eq!(ops.len(), 2);
    assert_eq!(ops[0], ops[1], "the same op_id stored twice");
    assert!(!world.verdict().ok());
}
