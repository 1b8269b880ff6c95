//! Browser entry point: `trunk` builds this binary to WebAssembly.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(idem_web::App);
}
