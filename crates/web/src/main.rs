//! Browser entry point: `trunk` builds this binary to WebAssembly.

use leptos::prelude::*;

fn main() {
    console_error_panic_hook::set_once();
    mount_to_body(|| view! { <idem_web::App/> });
}
