//! Reading below the player: how real systems identify a repeat (the comparison table), when
//! idempotency is not worth its cost, and why "exactly-once" means at-least-once delivery
//! plus an idempotent consumer. Static text from the catalog, built as markup once.

use leptos::prelude::*;

use crate::i18n::Catalog;
use crate::lab::use_lab;
use crate::markup::{el, table, wrap, SafeHtml};

/// The table's rows, one catalog entry each (`system|key|window|on repeat`).
pub const INDUSTRY: [&str; 8] = [
    "industry.stripe",
    "industry.square",
    "industry.paypal",
    "industry.sqs",
    "industry.kafka",
    "industry.etcd",
    "industry.http",
    "industry.ietf",
];

/// The comparison table, in a box that scrolls sideways on narrow screens.
pub fn industry_html(catalog: &Catalog) -> SafeHtml {
    let head = [
        "industry.col_system",
        "industry.col_key",
        "industry.col_window",
        "industry.col_reuse",
    ]
    .map(|k| catalog.text(k));
    let rows: Vec<Vec<String>> = INDUSTRY
        .iter()
        .map(|k| catalog.text(k).split('|').map(str::to_owned).collect())
        .collect();
    let head: Vec<&str> = head.iter().map(String::as_str).collect();
    wrap(
        "div",
        "class=\"table-scroll\" tabindex=\"0\" data-testid=\"industry-table\"",
        &table("industry", &head, &rows),
    )
}

/// "When not to bother": the cases, then the rule of thumb.
pub fn when_html(catalog: &Catalog) -> SafeHtml {
    let items: SafeHtml = ["when.put", "when.get", "when.telemetry", "when.streams"]
        .iter()
        .map(|k| el("li", "", &catalog.text(k)))
        .collect();
    wrap("ul", "", &items) + el("p", "class=\"rule\"", &catalog.text("when.rule"))
}

/// "Exactly-once = at-least-once + an idempotent consumer".
pub fn exactly_html(catalog: &Catalog) -> SafeHtml {
    el("p", "", &catalog.text("exactly.body")) + el("p", "", &catalog.text("exactly.effect"))
}

/// The three reading sections.
#[component]
pub fn Reference() -> impl IntoView {
    let lab = use_lab();
    let catalog = lab.lang.get_untracked().catalog();
    view! {
        <details class="extra" open>
            <summary>{catalog.text("industry.title")}</summary>
            <div class="extra-body" inner_html=industry_html(catalog)></div>
        </details>
        <details class="extra" data-testid="when-not">
            <summary>{catalog.text("when.title")}</summary>
            <div class="extra-body" inner_html=when_html(catalog)></div>
        </details>
        <details class="extra" data-testid="exactly-once">
            <summary>{catalog.text("exactly.title")}</summary>
            <div class="extra-body" inner_html=exactly_html(catalog)></div>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    /// Defects 2, 8 and 9: figures checked against their sources (docs/sources.md).
    #[test]
    fn the_long_form_figures_match_their_sources() {
        let en = Lang::En.catalog();
        let paypal = en.text("industry.paypal");
        assert!(
            paypal.contains("6 h by default") && paypal.contains("72 h"),
            "{paypal}"
        );
        assert!(!paypal.contains("about 72"), "{paypal}");
        let streams = en.text("when.streams");
        assert!(
            streams.contains("replayable source") && streams.contains("upstream"),
            "{streams}"
        );
        for lang in Lang::ALL {
            let lede = lang.catalog().text("calc.lede");
            assert!(!lede.contains("30–50"), "{lede}");
            assert!(lede.contains("0.2") || lede.contains("0,2"), "{lede}");
        }
    }

    #[test]
    fn the_table_has_every_system_in_both_languages() {
        for lang in Lang::ALL {
            let html = industry_html(lang.catalog());
            assert_eq!(html.matches("<tr>").count(), 9, "{html}");
            for system in [
                "Stripe", "Square", "PayPal", "SQS", "Kafka", "etcd", "If-Match", "IETF",
            ] {
                assert!(html.contains(system), "{system}");
            }
            let paypal = html
                .split("<tr>")
                .find(|row| row.contains("PayPal"))
                .expect("a PayPal row");
            assert!(
                paypal.contains("72 h") || paypal.contains("72 ч"),
                "PayPal's window: {paypal}"
            );
            assert!(html.contains("412 Precondition Failed"));
        }
    }

    #[test]
    fn the_reading_sections_have_their_points() {
        let html = when_html(Lang::En.catalog());
        assert_eq!(html.matches("<li>").count(), 4);
        assert!(html.contains("DELETE") && html.contains("Flink"));
        assert!(exactly_html(Lang::En.catalog()).contains("at-least-once"));
    }
}
