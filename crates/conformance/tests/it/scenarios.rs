//! Every scenario, as defined and with its protections toggled, replayed statement by
//! statement and command by command against real PostgreSQL and Redis.

use crate::common;

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
        // A run whose backends were asked something had it compared: a replay that silently
        // compared nothing would agree with any model.
        let statements: usize = checked
            .harvest
            .sql
            .iter()
            .map(|e| e.batch.statements.len())
            .sum();
        let commands = checked
            .harvest
            .redis
            .iter()
            .filter(|e| matches!(e, idem_conformance::RedisEvent::Command { .. }))
            .count();
        assert!(
            (statements == 0 || checked.sql > 0) && checked.redis == commands,
            "{}: {} of {statements} statements, {} of {commands} commands compared",
            label(scenario),
            checked.sql,
            checked.redis
        );
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
    // The totals the line above prints: every run compares something on each server.
    assert!(sql > 0, "no SQL statement was compared");
    assert!(redis > 0, "no Redis command was compared");
    assert!(
        problems.is_empty(),
        "{} disagreement(s) between the model and the real servers:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
