//! `wasm-post`: the release build's edits of the first-screen wasm module, for
//! `scripts/drop-classes.mjs` and `scripts/short-imports.mjs` (which edit the glue to match and
//! write both files only when both edits succeed). Run as
//! `cargo run -q --offline -p idem-wasm-post -- <command>`:
//!
//! ```text
//! wasm-post drop-exports <in.wasm> <out.wasm> <name>...
//! wasm-post short-imports <in.wasm> <out.wasm> <from> <to>   prints "<long>\t<short>" lines
//! ```
//!
//! On any error it prints why on stderr, writes nothing, and exits with 1 (2 for bad usage).

use std::process::ExitCode;

const USAGE: &str = "usage: wasm-post drop-exports <in.wasm> <out.wasm> <name>...\n       \
                     wasm-post short-imports <in.wasm> <out.wasm> <from> <to>";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage) => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Edit(message)) => {
            eprintln!("wasm-post: {message}");
            ExitCode::FAILURE
        }
    }
}

enum Failure {
    Usage,
    Edit(String),
}

fn run(args: &[&str]) -> Result<(), Failure> {
    let read = |path: &str| std::fs::read(path).map_err(|e| Failure::Edit(format!("{path}: {e}")));
    let write = |path: &str, bytes: &[u8]| {
        std::fs::write(path, bytes).map_err(|e| Failure::Edit(format!("{path}: {e}")))
    };
    let edit = |path: &str, e: idem_wasm_post::Error| Failure::Edit(format!("{path}: {e}"));
    match args {
        ["drop-exports", input, output, names @ ..] if !names.is_empty() => {
            let wasm =
                idem_wasm_post::drop_exports(&read(input)?, names).map_err(|e| edit(input, e))?;
            write(output, &wasm)
        }
        ["short-imports", input, output, from, to] => {
            let renamed = idem_wasm_post::short_imports(&read(input)?, from, to)
                .map_err(|e| edit(input, e))?;
            write(output, &renamed.wasm)?;
            for (long, short) in renamed.names {
                println!("{long}\t{short}");
            }
            Ok(())
        }
        _ => Err(Failure::Usage),
    }
}
