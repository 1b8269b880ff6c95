//! Browser entry point: `trunk` builds this binary to WebAssembly.
//!
//! It mounts the lesson on the page, or the compact widget when the address has `embed`, or
//! nothing when the page has `<meta name="idem-lab" content="manual">` (it calls `mount`).

use leptos::prelude::*;

fn main() {
    idem_web::crash::install();
    if idem_web::embed::manual_mount() {
        return;
    }
    let query = idem_web::browser::location_query();
    if idem_web::embed::embed_param(&query) {
        mount_to_body(move || view! { <idem_web::embed::Widget query=query page=true/> });
    } else {
        mount_to_body(|| view! { <idem_web::App/> });
    }
}
