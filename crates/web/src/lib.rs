//! Idempotency Lab: the Leptos (client-side rendered) user interface.

use leptos::prelude::*;

/// The whole lesson page.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <main class="page">
            <h1 data-testid="title">"Idempotency Lab"</h1>
            <p class="lede">
                "Learn why retrying a request can charge a customer twice, and how an "
                "Idempotency-Key, a compare-and-set version and an op_id make retries safe."
            </p>
        </main>
    }
}
