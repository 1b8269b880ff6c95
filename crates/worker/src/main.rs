//! The search worker's entry (built by Trunk beside the page as `idem-worker.js` and
//! `idem-worker_bg.wasm`, started through `idem-worker_loader.js`): serves the page's requests
//! in a Web Worker, and does nothing on a page's main thread, which imports the module for its
//! fallback search. The browser glue lives here, not in the library the page links, so the
//! page's wasm never carries the `Search` class's exports.

#[cfg(target_arch = "wasm32")]
mod glue;

fn main() {
    #[cfg(target_arch = "wasm32")]
    glue::serve();
}
