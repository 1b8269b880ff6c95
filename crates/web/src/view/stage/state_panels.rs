//! The state panels: what the phone, the idempotency store, the ledger and the card processor
//! hold at the current step, with live countdowns, as the lesson crate's
//! [`state_panels`](idem_lesson::stage::state_panels) builds them.

use idem_core::Node;
use idem_lesson::stage::ledger_panel::ledger_html;
use idem_lesson::stage::state_panels::{client_html, processor_html, store_html};
use leptos::prelude::*;

use crate::platform::lab::{use_clock, use_lab, use_prefs};

#[component]
pub fn StatePanels() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let clock = use_clock();
    // Countdowns move in tenths of a second: no need to rebuild on every frame.
    let tenth = Memo::new(move |_| (clock.display.get() / 100.0).floor() as i64);
    let client = move || {
        let now = tenth.get() as f64 * 100.0;
        lab.run
            .with(|r| client_html(r.world(), now, prefs.catalog()))
    };
    let store = move || {
        let now = tenth.get() as f64 * 100.0;
        lab.run
            .with(|r| store_html(r.world(), now, prefs.catalog()))
    };
    let ledger = move || lab.run.with(|r| ledger_html(r.world(), prefs.catalog()));
    let processor = move || lab.run.with(|r| processor_html(r.world(), prefs.catalog()));
    // The likes and compare-and-set stories have no idempotency store and no card processor.
    let unused = move |node: Node| {
        move || {
            lab.run
                .with(|r| !r.scenario().story.nodes().contains(&node))
        }
    };
    view! {
        <section class="panels" aria-label=prefs.t("ui.state")>
            <article class="panel client" data-testid="panel-client" inner_html=client></article>
            <article class="panel store" data-testid="panel-store" hidden=unused(Node::Store) inner_html=store></article>
            <article class="panel ledger" data-testid="panel-ledger" inner_html=ledger></article>
            <article class="panel processor" data-testid="panel-processor" hidden=unused(Node::Processor) inner_html=processor></article>
        </section>
    }
}
