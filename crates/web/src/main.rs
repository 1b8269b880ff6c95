//! Browser entry point: `trunk` builds this binary to WebAssembly.
//!
//! It mounts the lesson on the page, or the compact widget when the address has `embed`, or
//! nothing when the page has `<meta name="idem-lab" content="manual">` (it calls `mount`).
//! The page's language is chosen first and its catalog file loaded (`web/boot.js` has usually
//! fetched it already; the widget, drawn at once, waits for the panels' file too); a file that
//! cannot be loaded is reported in the page. Whatever is
//! mounted replaces index.html's first screen in the same task, so nothing moves on screen.

use idem_web::platform::catalogs::load_parts;
use leptos::prelude::*;

fn main() {
    idem_web::platform::crash::install();
    if idem_web::view::embed::manual_mount() {
        return;
    }
    let query = idem_web::platform::browser::location_query();
    let embed = idem_web::view::embed::embed_param(&query);
    let lang = if embed {
        idem_web::view::embed::query_lang(&query)
    } else {
        idem_lesson::lang::choose(&query, &idem_web::platform::lang::browser_languages()).0
    };
    // Each step of the start in a task of its own, so that none blocks the page long:
    // the wasm's start; reading the catalog (its file has usually arrived by then); the page's
    // opening run; drawing the first screen.
    later(Box::new(move || {
        wasm_bindgen_futures::spawn_local(async move {
            // The widget, drawn at once, waits for the panels' texts too.
            let loaded = load_parts(lang, embed).await;
            later(Box::new(move || {
                // The page's opening (`None` for the widget, which reads its own).
                let opening = (loaded.is_ok() && !embed).then(idem_web::view::app::Opening::read);
                later(Box::new(move || {
                    idem_web::platform::browser::remove_first_screen(&document());
                    match (loaded, opening) {
                        (Ok(_), Some(opening)) => {
                            mount_to_body(move || view! { <idem_web::App opening/> })
                        }
                        (Ok(_), None) => {
                            // `theme` in the link, as the option of `mount`.
                            let theme = idem_web::view::embed::query_theme(&query);
                            mount_to_body(move || {
                                view! { <idem_web::view::embed::Widget query=query theme page=true/> }
                            })
                        }
                        (Err(error), _) => mount_to_body(
                            move || view! { <idem_web::view::app::LoadFailed error/> },
                        ),
                    }
                }));
            }));
        });
    }));
}

/// Runs `f` in a task of its own, after the tasks waiting now (boxed: one copy of the code
/// for every step).
fn later(f: Box<dyn FnOnce()>) {
    set_timeout(f, std::time::Duration::ZERO);
}
