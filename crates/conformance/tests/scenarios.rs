//! Every scenario, as defined and with its protections toggled, replayed statement by
//! statement and command by command against real PostgreSQL and Redis.

mod common;

use std::time::Duration;

use common::{announce, check, serial};
use idem_conformance::{label, variants};
use idem_core::Scenario;

#[test]
fn every_scenario_agrees_with_real_postgres_and_redis() {
    let _one_at_a_time = serial();
    let runs = variants();
    let (mut sql, mut redis, mut slept) = (0, 0, Duration::ZERO);
    let mut problems = Vec::new();
    let mut covered = Vec::new();
    for scenario in &runs {
        let checked = check(scenario);
        sql += checked.sql;
        redis += checked.redis;
        slept += checked.slept;
        problems.extend(checked.problems);
        covered.push((scenario.id.clone(), label(scenario)));
    }
    for id in Scenario::IDS {
        assert!(
            covered.iter().any(|(c, l)| c == id && l == id),
            "{id} was not run as defined"
        );
    }
    announce(&format!(
        "conformance: {sql} SQL statements, {redis} Redis commands compared \
         ({} runs of {} scenarios; {} ms slept for Redis expiry)",
        runs.len(),
        Scenario::IDS.len(),
        slept.as_millis()
    ));
    assert!(
        problems.is_empty(),
        "{} disagreement(s) between the model and the real servers:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
