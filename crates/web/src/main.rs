//! Browser entry point: `trunk` builds this binary to WebAssembly.
//!
//! It mounts the lesson on the page, or the compact widget when the address has `embed`, or
//! nothing when the page has `<meta name="idem-lab" content="manual">` (it calls `mount`).
//! The page's language is chosen first and its catalog file loaded (`web/boot.js` has usually
//! fetched it already; the widget, drawn at once, waits for the panels' file too); a file that
//! cannot be loaded is reported in the page. Whatever is
//! mounted replaces index.html's first screen in the same task, so nothing moves on screen.

use idem_web::i18n::load_parts;
use leptos::prelude::*;

fn main() {
    idem_web::crash::install();
    if idem_web::embed::manual_mount() {
        return;
    }
    let query = idem_web::browser::location_query();
    let embed = idem_web::embed::embed_param(&query);
    let lang = if embed {
        idem_web::embed::query_lang(&query)
    } else {
        idem_web::lang::choose(&query, &idem_web::lang::browser_languages()).0
    };
    wasm_bindgen_futures::spawn_local(async move {
        let loaded = load_parts(lang, embed).await;
        // The mount in a task of its own: the wasm's start and the catalog are one task.
        set_timeout(
            move || {
                idem_web::browser::remove_first_screen(&document());
                match loaded {
                    Ok(_) if embed => mount_to_body(
                        move || view! { <idem_web::embed::Widget query=query page=true/> },
                    ),
                    Ok(_) => mount_to_body(|| view! { <idem_web::App/> }),
                    Err(error) => {
                        mount_to_body(move || view! { <idem_web::app::LoadFailed error/> })
                    }
                }
            },
            std::time::Duration::ZERO,
        );
    });
}
