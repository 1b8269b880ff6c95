//! Prints the trace of one scenario: `cargo run -p idem-core --example trace -- naive`.

use idem_core::{Scenario, World};

fn main() {
    let id = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "naive".to_owned());
    let scenario = match Scenario::by_id(&id) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e:?}; known ids: {:?}", idem_core::Scenario::IDS);
            std::process::exit(2);
        }
    };
    let mut world = World::new(&scenario);
    while let Some(step) = world.step() {
        let keys: Vec<&str> = step.notes.iter().map(|n| n.key()).collect();
        println!(
            "#{:<3} t={:<9} {:?} {:?} sent={:?}",
            step.index,
            step.at.ms(),
            step.cause,
            keys,
            step.sent
        );
    }
    let verdict = world.verdict();
    println!("money: {:?}", verdict.money);
    println!("effects: {:?}", verdict.effects);
    for (invariant, status) in &verdict.checks {
        println!("  {:<28} {:?}", invariant.name(), status);
    }
    for op in world.client().ops() {
        println!(
            "op {:?}: attempts={} view={:?}",
            op.op, op.attempts, op.view
        );
    }
}
