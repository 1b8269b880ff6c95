//! Conformance of the core's models with real PostgreSQL and Redis.
//!
//! The pure half lives here: running a scenario to quiescence, collecting from the world's
//! network every batch the ledger ran and every command the store ran with the model's
//! answers ([`harvest`]), the model's final tables as comparable rows ([`view`]), and the
//! mapping of simulated Redis expiry onto a short real-time schedule ([`plan`]). The tests in
//! `tests/` replay all of it against real servers (`bash scripts/conformance.sh`).

pub mod harvest;
pub mod plan;
pub mod view;
use idem_core::{Protections, RunEnd, Scenario, Story, World};

pub use harvest::{harvest, Harvest, RedisEvent, SqlEvent};

/// Steps after which a scenario that has not gone quiet is a bug of the core.
pub const STEP_BOUND: usize = 10_000;

/// Runs `scenario` to quiescence.
///
/// # Panics
/// When the world does not go quiet within [`STEP_BOUND`] steps.
pub fn run(scenario: &Scenario) -> World {
    let mut world = World::new(scenario);
    let end = world.run(STEP_BOUND);
    assert_eq!(
        end,
        RunEnd::Quiescent,
        "{} did not go quiet",
        label(scenario)
    );
    world
}

/// A readable name for a scenario and its protections, e.g. `key` or `key+same-tx-scope`.
pub fn label(scenario: &Scenario) -> String {
    let Ok(base) = Scenario::by_id(&scenario.id) else {
        return scenario.id.clone();
    };
    if scenario.protections == Protections::ALL && base.protections != Protections::ALL {
        return format!("{}[all]", scenario.id);
    }
    let flips: Vec<String> = Protections::NAMES
        .iter()
        .filter(|name| base.protections.get(name) != scenario.protections.get(name))
        .map(|name| {
            let on = scenario.protections.get(name) == Some(true);
            format!("{}{name}", if on { "+" } else { "-" })
        })
        .collect();
    if flips.is_empty() {
        scenario.id.clone()
    } else {
        format!("{}[{}]", scenario.id, flips.join(","))
    }
}

/// Every scenario of [`Scenario::IDS`] as defined, plus the toggles that change what reaches the
/// backends: everything on; for the key stories the key table in PostgreSQL instead of Redis
/// (and back), the lock and the per-user scope (in either store); for the counter the unique
/// index. Duplicates (a toggle that gives a set already listed) are left out.
pub fn variants() -> Vec<Scenario> {
    let mut out: Vec<Scenario> = Vec::new();
    for id in Scenario::IDS {
        let Ok(base) = Scenario::by_id(id) else {
            continue;
        };
        let p = base.protections;
        let mut sets = vec![p, Protections::ALL];
        match base.story {
            Story::IdempotencyKey => {
                sets.push(flip(p, "same-tx"));
                sets.push(flip(p, "lock"));
                sets.push(flip(p, "scope"));
                sets.push(flip(flip(p, "same-tx"), "scope"));
            }
            Story::Counter => sets.push(flip(p, "unique-index")),
            Story::NaivePost | Story::CompareAndSet => {}
        }
        for set in sets {
            let scenario = base.clone().with_protections(set);
            if !out
                .iter()
                .any(|s| s.id == scenario.id && s.protections == scenario.protections)
            {
                out.push(scenario);
            }
        }
    }
    out
}

fn flip(mut p: Protections, name: &str) -> Protections {
    let on = p.get(name) == Some(true);
    p.set(name, !on);
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_is_run_as_defined() {
        let all = variants();
        for id in Scenario::IDS {
            let base = Scenario::by_id(id).expect("a scenario");
            assert!(
                all.iter()
                    .any(|s| s.id == id && s.protections == base.protections),
                "{id} missing"
            );
        }
        assert!(all.len() > Scenario::IDS.len());
    }

    #[test]
    fn labels_name_the_flipped_switches() {
        let key = Scenario::by_id("key").expect("key");
        assert_eq!(label(&key), "key");
        let mut p = key.protections;
        p.set("same-tx", true);
        p.set("scope", false);
        assert_eq!(label(&key.with_protections(p)), "key[-scope,+same-tx]");
    }
}
