//! The ADR's cost calculator: RPS, key TTL, record size and the client's retry window in;
//! live records, memory, the cost of one more hour and the TTL trade-off (an SVG plot) out.
//! The arithmetic and validation are `idem_core::cost`'s; this file only formats and draws.
//! A bad field shows a message under it (its name and allowed range), never NaN.

use idem_core::cost::{estimate, parse_field, CostField, CostInput};
use leptos::prelude::*;

use crate::platform::lab::{use_lab, use_prefs};
use idem_lesson::markup::el;
use idem_lesson::panels::calculator::{
    decimal, error_text, field_key, figures_html, plot_svg, read_fields, CalcPlace,
};

/// The calculator section: shown where the design on screen stores keys, with a line on why
/// in a payment story that stores none yet, hidden (keeping its fields) in the stories without a
/// key store.
#[component]
pub fn Calculator() -> impl IntoView {
    let prefs = use_prefs();
    let lab = use_lab();
    let place = Memo::new(move |_| {
        lab.run
            .with(|r| CalcPlace::of(r.scenario().story, &r.scenario().protections))
    });
    let d = CostInput::default();
    let texts = [d.rps, d.ttl_hours, d.record_bytes, d.retry_window_hours]
        .map(|v| RwSignal::new(decimal(v, 2, prefs.lang.get_untracked().catalog())));
    let read = move || read_fields(texts.map(|t| t.get()).each_ref().map(String::as_str));
    let fields = [
        (CostField::Rps, "calc-rps"),
        (CostField::TtlHours, "calc-ttl"),
        (CostField::RecordBytes, "calc-size"),
        (CostField::RetryWindowHours, "calc-window"),
    ]
    .into_iter()
    .zip(texts)
    .map(|((field, test_id), text)| {
        let error = move || {
            let catalog = prefs.catalog();
            parse_field(field, &text.get())
                .err()
                .map(|e| {
                    el(
                        "span",
                        "data-testid=\"calc-error\"",
                        &error_text(&e, catalog),
                    )
                })
                .unwrap_or_default()
        };
        view! {
            <label class="calc-field">
                <span class="calc-label">{prefs.t(field_key(field))}</span>
                <input
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    spellcheck="false"
                    data-testid=test_id
                    prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))
                />
                <span class="calc-error" role="alert" inner_html=error></span>
            </label>
        }
    })
    .collect_view();
    let result = move || {
        let catalog = prefs.catalog();
        match read() {
            Ok(input) => match estimate(&input) {
                Ok(out) => figures_html(&input, &out, catalog) + plot_svg(&input, &out, catalog),
                Err(e) => el("p", "class=\"calc-note bad\"", &error_text(&e, catalog)),
            },
            Err(_) => el("p", "class=\"calc-note bad\"", &catalog.text("calc.fix")),
        }
    };
    view! {
        <section class="extra calc" aria-labelledby="calc-title" hidden=move || place.get() == CalcPlace::NoStore>
            <h2 id="calc-title">{prefs.t("calc.title")}</h2>
            {move || (place.get() == CalcPlace::NoKeyYet).then(|| view! {
                <p class="hint calc-why" data-testid="calc-why">{prefs.t("calc.no_key")}</p>
            })}
            <p class="hint">{prefs.t("calc.lede")}</p>
            <div class="calc-fields">{fields}</div>
            <div class="calc-result" aria-live="polite" inner_html=result></div>
        </section>
    }
}
