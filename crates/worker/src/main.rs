//! The search worker's entry (built by Trunk beside the page as `idem-worker.js` and
//! `idem-worker_bg.wasm`, started through `idem-worker_loader.js`): serves the page's requests
//! in a Web Worker, and does nothing on a page's main thread, which imports the module for its
//! fallback search.

fn main() {
    #[cfg(target_arch = "wasm32")]
    idem_worker::serve();
}
