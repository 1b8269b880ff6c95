//! The HTTP transcript: every request and response on the phone's link so far, written as
//! they would travel on the wire (request line, headers, JSON body; status line,
//! `Idempotent-Replayed`, JSON body), from the core's own message payloads. Lost messages are
//! marked. A collapsible block with a Copy button.

use idem_core::http::{ResponseBody, IDEMPOTENT_REPLAYED, IF_MATCH};
use idem_core::message::{DropReason, Payload};
use idem_core::net::{Fate, Message};
use idem_core::World;

use crate::i18n::Catalog;
use crate::markup::{el, wrap, SafeHtml};
use crate::panels::sources::source_ref;

/// The wire text of one message on the phone's link (`None` for any other message).
pub fn wire_text(message: &Message) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    let body = match &message.payload {
        Payload::Request(request) => {
            lines.push(request.request_line());
            lines.extend(
                request
                    .headers()
                    .into_iter()
                    .map(|(name, value)| format!("{name}: {value}")),
            );
            // A status check is a GET: headers, no body.
            if request.status_query {
                return Some(lines.join("\n"));
            }
            request.body.to_json()
        }
        Payload::Response(response) => {
            lines.push(response.status_line());
            lines.push("Content-Type: application/json".to_owned());
            if response.replayed {
                lines.push(format!("{IDEMPOTENT_REPLAYED}: true"));
            }
            if let ResponseBody::Debited { version, .. }
            | ResponseBody::PreconditionFailed { version, .. } = response.body
            {
                lines.push(format!("ETag: \"{version}\""));
            }
            response.body_json()
        }
        _ => return None,
    };
    lines.push(String::new());
    lines.push(body);
    Some(lines.join("\n"))
}

/// The comment line above a message: its id, direction and, if it never arrived, why.
pub fn heading(message: &Message, catalog: &Catalog) -> String {
    let arrow = catalog.text(if message.payload.is_reply() {
        "transcript.to_phone"
    } else {
        "transcript.to_api"
    });
    let mut parts = vec![format!(
        "{} {arrow}",
        crate::labels::msg_no(message.id, catalog)
    )];
    if let Some(original) = message.duplicate_of {
        parts.push(catalog.fill(
            "transcript.copy_of",
            &[("msg", crate::labels::msg_no(original, catalog))],
        ));
    }
    match message.fate {
        Fate::InFlight => parts.push(catalog.text("transcript.in_flight")),
        Fate::Lost(_, reason) => {
            let why = catalog.text(match reason {
                DropReason::Dropped => "transcript.why_dropped",
                DropReason::LostAck => "transcript.why_ack",
                DropReason::ApiDown => "transcript.why_down",
                DropReason::ClientOffline => "transcript.why_offline",
            });
            parts.push(catalog.fill("transcript.lost", &[("why", why)]));
        }
        Fate::Delivered(_) => {}
    }
    format!("# {}", parts.join(" · "))
}

/// The transcript as markup: one `<pre>` per message, lost ones marked.
pub fn transcript_html(world: &World, catalog: &Catalog) -> SafeHtml {
    let blocks: SafeHtml = world
        .network()
        .messages()
        .iter()
        .filter(|m| m.is_faultable())
        .filter_map(|m| {
            let text = wire_text(m)?;
            let lost = matches!(m.fate, Fate::Lost(..));
            let class = match (lost, m.payload.is_reply()) {
                (true, _) => "http lost",
                (false, true) => "http response",
                (false, false) => "http request",
            };
            Some(el(
                "pre",
                &format!("class=\"{class}\" data-msg-id=\"{}\"", m.id.0),
                &format!("{}\n{text}\n", heading(m, catalog)),
            ))
        })
        .collect();
    if blocks.is_empty() {
        el("p", "class=\"muted\"", &catalog.text("transcript.empty"))
    } else {
        let messages = world.network().messages();
        let if_match = messages.iter().any(|m| {
            matches!(&m.payload, Payload::Request(r) if r.headers().iter().any(|(n, _)| n == IF_MATCH))
        });
        let replayed = messages
            .iter()
            .any(|m| matches!(&m.payload, Payload::Response(r) if r.replayed));
        // A note under the transcript, with the sources its claim was checked against.
        let note = |shown: bool, test_id: &str, key: &str, sources: [&str; 2]| {
            if !shown {
                return SafeHtml::default();
            }
            let refs: SafeHtml = sources.iter().map(|s| source_ref(s, catalog)).collect();
            wrap(
                "p",
                &format!("class=\"hint\" data-testid=\"{test_id}\""),
                &(SafeHtml::text(&catalog.text(key)) + SafeHtml::text(" ") + refs),
            )
        };
        let notes = note(
            if_match,
            "if-match-note",
            "transcript.if_match",
            ["rfc9110-if-match", "rfc9110-412"],
        ) + note(
            replayed,
            "replayed-note",
            "transcript.replayed",
            ["stripe", "ietf-draft"],
        );
        notes + wrap("div", "class=\"http-log\"", &blocks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::test_support::played;
    use idem_core::Scenario;

    #[test]
    fn the_key_story_shows_the_wire_and_the_replay() {
        let html = transcript_html(&played("key", 2_000), Lang::En.catalog());
        assert!(html.contains("POST /charges HTTP/1.1"), "{html}");
        assert!(html.contains("Authorization: Bearer tok_user_1"), "{html}");
        assert!(html.contains("Content-Type: application/json"), "{html}");
        // Review finding 1: the draft's header is a quoted string, and the replay header is
        // Stripe's convention, said beside it.
        assert!(html.contains("Idempotency-Key: &quot;"), "{html}");
        assert!(html.contains("HTTP/1.1 201 Created"), "{html}");
        assert!(html.contains("Idempotent-Replayed: true"), "{html}");
        assert!(html.contains("data-testid=\"replayed-note\""), "{html}");
        for lang in Lang::ALL {
            let note = lang.catalog().text("transcript.replayed");
            assert!(note.contains("Stripe"), "{note}");
        }
        assert!(html.contains("class=\"http lost\""), "{html}");
        assert!(html.contains("LOST on the network"), "{html}");
        assert!(html.contains("{&quot;amount&quot;:10000"), "{html}");
    }

    /// Defect 4: the 412 answers a failed If-Match, and the transcript says so.
    #[test]
    fn compare_and_set_sends_if_match_and_gets_etags() {
        let html = transcript_html(&played("cas", 2_000), Lang::En.catalog());
        assert!(html.contains("If-Match: &quot;5&quot;"), "{html}");
        assert!(!html.contains("expected_version"), "{html}");
        assert!(html.contains("ETag: &quot;6&quot;"), "{html}");
        assert!(html.contains("data-testid=\"if-match-note\""), "{html}");
        let html = transcript_html(&played("key", 2_000), Lang::En.catalog());
        assert!(!html.contains("If-Match"), "{html}");
    }

    #[test]
    fn refusals_show_their_status_lines() {
        let catalog = Lang::En.catalog();
        for (id, line) in [
            ("missing-key", "HTTP/1.1 400 Bad Request"),
            ("key-reuse", "HTTP/1.1 422 Unprocessable Content"),
            ("concurrent", "HTTP/1.1 409 Conflict"),
            ("cas", "HTTP/1.1 412 Precondition Failed"),
        ] {
            let html = transcript_html(&played(id, 2_000), catalog);
            assert!(html.contains(line), "{id}: {html}");
        }
        let naive = transcript_html(&played("naive", 2_000), catalog);
        assert!(!naive.contains("Idempotency-Key:"), "{naive}");
    }

    #[test]
    fn an_empty_run_says_so() {
        let world = World::new(&Scenario::by_id("naive").expect("naive"));
        let html = transcript_html(&world, Lang::Ru.catalog());
        assert!(html.starts_with("<p class=\"muted\">"), "{html}");
    }
}
