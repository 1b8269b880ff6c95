//! Rewrites the golden traces in `crates/core/tests/golden/` from the current engine (and
//! `closing.txt`, what closes each shortest counter-example at k = 2):
//! `cargo run -p idem-core --example golden` (or `scripts/golden.sh`). Review the diff before
//! committing it: every changed line is a change of behaviour or of narration.

#[path = "../tests/support/mod.rs"]
mod support;

use idem_core::Scenario;

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for entry in entries.flatten() {
            if entry.path().extension().is_some_and(|x| x == "trace") {
                std::fs::remove_file(entry.path()).expect("remove a stale trace");
            }
        }
    }
    std::fs::create_dir_all(&dir).expect("the golden directory");
    for id in Scenario::IDS {
        let path = dir.join(format!("{id}.trace"));
        std::fs::write(&path, support::trace_text(&support::run(id))).expect("write a trace");
        println!("wrote {}", path.display());
    }
    let path = dir.join("closing.txt");
    std::fs::write(&path, support::closing_text()).expect("write the closing protections");
    println!("wrote {}", path.display());
}
