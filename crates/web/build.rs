//! With the `split` feature (the release bundle), the wasm keeps its relocations, which
//! `wasm-split-cli` reads to cut the later parts into files of their own (scripts/split.sh).
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let split = std::env::var_os("CARGO_FEATURE_SPLIT").is_some();
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "wasm32");
    if split && wasm {
        println!("cargo::rustc-link-arg-bin=idem-web=--emit-relocs");
    }
}
