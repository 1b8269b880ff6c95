//! Fixtures shared by the crate's unit tests.

use idem_core::{Scenario, Step, World};

use crate::i18n::Catalog;

/// The world of scenario `id` after at most `steps` steps (fewer if it goes quiet first).
pub fn played(id: &str, steps: usize) -> World {
    let mut world = World::new(&Scenario::by_id(id).expect("scenario"));
    world.run(steps);
    world
}

/// The worlds after each step of scenario `id`, run to its end (as the player keeps them).
pub fn worlds(id: &str) -> Vec<World> {
    let mut run = crate::playback::Run::new(Scenario::by_id(id).expect("scenario"));
    run.run_to_end();
    run.snapshots().collect()
}

/// The world of scenario `id` run to its end (at most 1,000 steps).
pub fn end(id: &str) -> World {
    played(id, 1_000)
}

/// Everything the page says about `step`: its plain lines, then the detail one tap away
/// (the SQL it ran and the legend of the row counts).
pub fn narrated(step: &Step, world: &World, catalog: &Catalog) -> Vec<String> {
    let (plain, detail) = crate::text::narrate_plain(step, world, catalog);
    plain.into_iter().chain(detail).collect()
}
