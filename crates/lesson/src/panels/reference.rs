//! Reading below the player: how real systems identify a repeat (the comparison table), when
//! idempotency is not worth its cost, and why "exactly-once" means at-least-once delivery
//! plus an idempotent consumer. Static text from the long-form catalog (fetched when a section
//! is first opened), built as markup.

use crate::i18n::Catalog;
use crate::markup::{el, table_html, wrap, SafeHtml};

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

/// The source each row of the table was checked against (an entry of
/// [`crate::panels::sources::SOURCES`]).
pub const INDUSTRY_SOURCES: [&str; 8] = [
    "stripe",
    "square",
    "paypal",
    "sqs",
    "kip-98",
    "etcd",
    "rfc9110-412",
    "ietf-draft",
];

/// The comparison table, in a box that scrolls sideways on narrow screens; each row ends with
/// a link to its source (`page` holds the link's words, `more` the table's).
pub fn industry_html(more: &Catalog, page: &Catalog) -> SafeHtml {
    let head = [
        "industry.col_system",
        "industry.col_key",
        "industry.col_window",
        "industry.col_reuse",
        "industry.col_source",
    ]
    .map(|k| more.text(k));
    let rows: Vec<Vec<SafeHtml>> = INDUSTRY
        .iter()
        .zip(INDUSTRY_SOURCES)
        .map(|(k, source)| {
            let mut cells: Vec<SafeHtml> = more.text(k).split('|').map(SafeHtml::text).collect();
            cells.push(crate::panels::sources::source_ref(source, page));
            cells
        })
        .collect();
    let head: Vec<&str> = head.iter().map(String::as_str).collect();
    // On a phone the table is wider than the screen: say so (review finding 16).
    el(
        "p",
        "class=\"hint narrow-only\" data-testid=\"industry-scroll\"",
        &more.text("industry.scroll"),
    ) + wrap(
        "div",
        "class=\"table-scroll\" tabindex=\"0\" data-testid=\"industry-table\"",
        &table_html("industry", &head, &rows),
    )
}

/// "When not to bother": the cases, then the rule of thumb.
pub fn when_html(catalog: &Catalog, page: &Catalog) -> SafeHtml {
    use crate::panels::sources::source_ref;
    let items: SafeHtml = [
        ("when.put", Some("rfc9110-methods")),
        ("when.get", Some("rfc9110-methods")),
        ("when.telemetry", None),
        ("when.streams", Some("flink")),
    ]
    .iter()
    .map(|(k, source)| {
        let refs = source.map(|s| SafeHtml::text(" ") + source_ref(s, page));
        wrap(
            "li",
            "",
            &(SafeHtml::text(&catalog.text(k)) + refs.unwrap_or_default()),
        )
    })
    .collect();
    wrap("ul", "", &items) + el("p", "class=\"rule\"", &catalog.text("when.rule"))
}

/// "Exactly-once = at-least-once + an idempotent consumer".
pub fn exactly_html(catalog: &Catalog, page: &Catalog) -> SafeHtml {
    use crate::panels::sources::source_ref;
    el("p", "", &catalog.text("exactly.body"))
        + wrap(
            "p",
            "",
            &(SafeHtml::text(&catalog.text("exactly.effect"))
                + SafeHtml::text(" ")
                + source_ref("sqs", page)
                + source_ref("kip-98", page)),
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    /// Defects 2, 8 and 9: figures checked against their sources (docs/sources.md).
    #[test]
    fn the_long_form_figures_match_their_sources() {
        let en = Lang::En.more();
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
            let html = industry_html(lang.more(), lang.catalog());
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
            // Finding 8: every row links to the source it was checked against.
            for source in INDUSTRY_SOURCES {
                assert!(
                    html.contains(&format!("href=\"#src-{source}\"")),
                    "{source}"
                );
            }
            assert_eq!(html.matches("class=\"src-ref\"").count(), INDUSTRY.len());
        }
    }

    #[test]
    fn the_reading_sections_have_their_points() {
        let html = when_html(Lang::En.more(), Lang::En.catalog());
        assert_eq!(html.matches("<li>").count(), 4);
        assert!(html.contains("DELETE") && html.contains("Flink"));
        assert!(exactly_html(Lang::En.more(), Lang::En.catalog()).contains("at-least-once"));
    }

    /// Issue 41: a PUT sent twice leaves the same state only if nothing writes in between
    /// (RFC 9110 speaks of identical requests), and Stripe keeps keys at least 24 h.
    #[test]
    fn a_put_is_idempotent_only_without_a_write_in_between() {
        for lang in Lang::ALL {
            let put = lang.more().text("when.put");
            assert!(put.contains("If-Match") && put.contains("412"), "{put}");
            let stripe = lang.more().text("industry.stripe");
            let window = stripe.split('|').nth(2).expect("a window");
            assert!(window.contains("24") && window.len() > 5, "{window}");
        }
        let put = Lang::En.more().text("when.put");
        assert!(
            put.contains("only if nothing else writes in between"),
            "{put}"
        );
        assert!(put.contains("overwrite"), "{put}");
    }
}
