//! The sources of every outside claim the lesson makes (status codes, headers, the industry
//! table's rows, retention windows), each with a link that opens in a new tab. Other parts of
//! the page point at an entry with [`source_ref`] (`<a href="#src-stripe">`), so a claim
//! leads to where it was checked. The list itself is data: titles are the documents' own
//! names, what each supports is in the catalogs (`src.<id>`).

use crate::i18n::Catalog;
use crate::markup::{el, esc, wrap, SafeHtml};

/// One outside source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Source {
    /// Its anchor on the page is `src-<id>`; what it supports is `src.<id>` in the catalogs.
    pub id: &'static str,
    /// The document's own title.
    pub title: &'static str,
    /// Where to read it (https only).
    pub url: &'static str,
}

/// Every source, in the order the list shows them.
pub const SOURCES: [Source; 15] = [
    Source {
        id: "ietf-draft",
        title: "IETF draft: The Idempotency-Key HTTP Header Field",
        url: "https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/",
    },
    Source {
        id: "rfc9110-methods",
        title: "RFC 9110 §9.2: Common Method Properties",
        url: "https://www.rfc-editor.org/rfc/rfc9110#section-9.2",
    },
    Source {
        id: "rfc9110-if-match",
        title: "RFC 9110 §13.1.1: If-Match",
        url: "https://www.rfc-editor.org/rfc/rfc9110#section-13.1.1",
    },
    Source {
        id: "rfc9110-412",
        title: "RFC 9110 §15.5.13: 412 Precondition Failed",
        url: "https://www.rfc-editor.org/rfc/rfc9110#section-15.5.13",
    },
    Source {
        id: "stripe",
        title: "Stripe API reference: Idempotent requests",
        url: "https://docs.stripe.com/api/idempotent_requests",
    },
    Source {
        id: "square",
        title: "Square Developer: Idempotency",
        url: "https://developer.squareup.com/docs/build-basics/common-api-patterns/idempotency",
    },
    Source {
        id: "paypal",
        title: "PayPal: API idempotency",
        url: "https://developer.paypal.com/reference/guidelines/idempotency/",
    },
    Source {
        id: "sqs",
        title: "Amazon SQS Developer Guide: Exactly-once processing",
        url: "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/FIFO-queues-exactly-once-processing.html",
    },
    Source {
        id: "kip-98",
        title: "KIP-98: Exactly Once Delivery and Transactional Messaging",
        url: "https://cwiki.apache.org/confluence/display/KAFKA/KIP-98+-+Exactly+Once+Delivery+and+Transactional+Messaging",
    },
    Source {
        id: "etcd",
        title: "etcd API: Transactions",
        url: "https://etcd.io/docs/v3.5/learning/api/#transaction",
    },
    Source {
        id: "postgres-insert",
        title: "PostgreSQL 15: INSERT … ON CONFLICT",
        url: "https://www.postgresql.org/docs/15/sql-insert.html",
    },
    Source {
        id: "redis-set",
        title: "Redis: SET (NX, PX)",
        url: "https://redis.io/docs/latest/commands/set/",
    },
    Source {
        id: "redis-eviction",
        title: "Redis: Key eviction",
        url: "https://redis.io/docs/latest/develop/reference/eviction/",
    },
    Source {
        id: "fencing",
        title: "Martin Kleppmann: How to do distributed locking (fencing tokens)",
        url: "https://martin.kleppmann.com/2016/02/08/how-to-do-distributed-locking.html",
    },
    Source {
        id: "flink",
        title: "Apache Flink: An Overview of End-to-End Exactly-Once Processing",
        url: "https://flink.apache.org/2018/02/28/an-overview-of-end-to-end-exactly-once-processing-in-apache-flink-with-apache-kafka-too/",
    },
];

/// The source `id`'s number in the list, from 1.
fn number(id: &str) -> Option<usize> {
    SOURCES.iter().position(|s| s.id == id).map(|i| i + 1)
}

/// A reference to source `id`, as a short link to its entry ("[5]"), named for screen
/// readers ("Source 5: Stripe API reference…"). An unknown id is a bug: empty in release,
/// loud in tests.
pub fn source_ref(id: &str, catalog: &Catalog) -> SafeHtml {
    let Some((n, source)) = number(id).map(|n| (n, SOURCES[n - 1])) else {
        debug_assert!(false, "no source {id}");
        return SafeHtml::default();
    };
    let label = catalog.fill(
        "src.ref",
        &[("n", n.to_string()), ("title", source.title.to_owned())],
    );
    el(
        "a",
        &format!(
            "class=\"src-ref\" href=\"#src-{}\" aria-label=\"{}\" data-src=\"{}\"",
            esc(source.id),
            esc(&label),
            esc(source.id)
        ),
        &format!("[{n}]"),
    )
}

/// The list: each source's title as an outside link, and what the lesson takes from it.
pub fn sources_html(catalog: &Catalog) -> SafeHtml {
    let items: SafeHtml = SOURCES
        .iter()
        .map(|s| {
            let link = el(
                "a",
                &format!(
                    "href=\"{}\" target=\"_blank\" rel=\"noopener noreferrer\"",
                    esc(s.url)
                ),
                s.title,
            );
            wrap(
                "li",
                &format!("id=\"src-{}\" data-testid=\"source\"", esc(s.id)),
                &(link
                    + el(
                        "span",
                        "",
                        &format!(" — {}", catalog.text(&format!("src.{}", s.id))),
                    )),
            )
        })
        .collect();
    wrap("ol", "class=\"sources\"", &items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn every_source_is_an_https_link_opening_apart_with_its_words() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            let html = sources_html(c);
            assert_eq!(
                html.matches("data-testid=\"source\"").count(),
                SOURCES.len()
            );
            assert_eq!(
                html.matches("target=\"_blank\" rel=\"noopener noreferrer\"")
                    .count(),
                SOURCES.len()
            );
            for s in SOURCES {
                assert!(s.url.starts_with("https://"), "{}", s.url);
                assert!(html.contains(&format!("id=\"src-{}\"", s.id)));
                assert!(!c.text(&format!("src.{}", s.id)).is_empty());
            }
        }
        let ids: std::collections::BTreeSet<&str> = SOURCES.iter().map(|s| s.id).collect();
        assert_eq!(ids.len(), SOURCES.len(), "ids are unique");
    }

    #[test]
    fn a_reference_points_at_its_entry_and_names_it() {
        let c = Lang::En.catalog();
        let r = source_ref("stripe", c);
        assert!(r.contains("href=\"#src-stripe\""), "{r}");
        assert!(r.contains(">[5]<"), "{r}");
        assert!(r.contains("Stripe API reference"), "{r}");
    }
}
