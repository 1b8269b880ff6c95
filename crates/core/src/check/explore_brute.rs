//! The explorer's test oracle: every fault schedule of the search tree, one by one, with no
//! merging and no pruning at all. Exponentially slower than [`crate::Explorer`], and kept only
//! to check it: both must find the same runs, the same violations and the same shortest
//! counter-example per (invariant, fault kinds).

use crate::explore::{root, Bounds, CounterExample, Report};
use crate::scenario::Scenario;
use crate::verdict::Invariant;
use crate::world::World;

/// Walks every schedule of `scenario` within `bounds` and judges each run. In its report,
/// `runs` counts every schedule (as [`crate::Explorer`]'s "runs represented" does) and
/// `states` every branch point visited.
pub fn explore_brute(scenario: &Scenario, bounds: Bounds) -> Report {
    let mut report = Report {
        by_invariant: Invariant::ALL.iter().map(|i| (*i, 0)).collect(),
        ..Report::default()
    };
    let mut stack: Vec<(World, u32)> = vec![(root(scenario), 0)];
    while let Some((mut world, used)) = stack.pop() {
        report.states += 1;
        if world.is_quiescent() {
            judge(&mut report, &world);
            continue;
        }
        if world.step_count() >= bounds.max_steps {
            report.runs += 1;
            report.cut_off += 1;
            continue;
        }
        if used < bounds.max_faults {
            let menu = crate::explore::faults_of(&world, bounds.kinds);
            crate::explore::note_tried(&mut report, &menu);
            for action in menu {
                let mut branch = world.clone();
                if branch.apply(action).is_ok() {
                    stack.push((branch, used + 1));
                }
            }
        }
        world.step();
        report.steps += 1;
        stack.push((world, used));
    }
    report.done = true;
    report
}

fn judge(report: &mut Report, world: &World) {
    report.runs += 1;
    let verdict = world.verdict();
    let mut violated = false;
    for (invariant, _) in verdict.violations() {
        violated = true;
        if let Some((_, n)) = report
            .by_invariant
            .iter_mut()
            .find(|(i, _)| *i == invariant)
        {
            *n += 1;
        }
        let candidate = CounterExample {
            invariant,
            injected: world.injected().to_vec(),
            steps: world.step_count(),
        };
        let signature = candidate.signature();
        let same_kind =
            |c: &&mut CounterExample| c.invariant == invariant && c.signature() == signature;
        let shorter =
            |a: &CounterExample, b: &CounterExample| (a.faults(), a.steps) < (b.faults(), b.steps);
        match report.shortest.iter_mut().find(same_kind) {
            Some(best) if shorter(&candidate, best) => *best = candidate,
            Some(_) => {}
            None => report.shortest.push(candidate),
        }
    }
    report
        .shortest
        .sort_by_key(|c| (c.faults(), c.steps, c.invariant));
    if violated {
        report.violating_runs += 1;
    }
}
