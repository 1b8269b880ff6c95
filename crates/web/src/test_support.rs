//! Fixtures shared by the crate's unit tests.

use idem_core::{Scenario, World};

/// The world of scenario `id` after at most `steps` steps (fewer if it goes quiet first).
pub(crate) fn played(id: &str, steps: usize) -> World {
    let mut world = World::new(&Scenario::by_id(id).expect("scenario"));
    world.run(steps);
    world
}

/// The world of scenario `id` run to its end (at most 1,000 steps).
pub(crate) fn end(id: &str) -> World {
    played(id, 1_000)
}
