//! The sequence diagram of the run so far: five lifelines and one arrow per message (lost ones
//! crossed out, those in flight dashed), in step with the cursor. Clicking an arrow jumps to
//! the step that sent it. The drawing is markup from a pure function.

use idem_core::net::Fate;
use idem_core::World;
use leptos::prelude::*;

use crate::i18n::Catalog;
use crate::lab::use_lab;
use crate::markup::{el, num, void, wrap, SafeHtml};
use crate::stage::geometry::{lifeline_x, row_y, seq_height, SEQ_HEAD, SEQ_WIDTH};
use crate::stage::labels::{
    clock_in, msg_no, node_text, packet_kind, packet_label, protocol, ShortNames,
};

/// The diagram's SVG content for `world` (every message it has seen).
pub fn sequence_svg(world: &World, catalog: &Catalog) -> SafeHtml {
    let names = ShortNames::of(world);
    let messages = world.network().messages();
    let height = seq_height(messages.len());
    let current = world
        .steps()
        .last()
        .map(|s| s.sent.as_slice())
        .unwrap_or(&[]);
    let mut out = SafeHtml::default();
    let nodes = world.scenario().story.nodes();
    for &node in nodes {
        let x = lifeline_x(nodes, node);
        let x_at = num(x);
        let line = void(
            "line",
            &format!(
                "x1=\"{x_at}\" y1=\"{}\" x2=\"{x_at}\" y2=\"{}\"",
                num(SEQ_HEAD - 10.0),
                num(height - 4.0)
            ),
        );
        let rect = void(
            "rect",
            &format!(
                "x=\"{}\" y=\"6\" width=\"124\" height=\"28\" rx=\"8\"",
                num(x - 62.0)
            ),
        );
        let label = el(
            "text",
            &format!("x=\"{x_at}\" y=\"25\" text-anchor=\"middle\""),
            &node_text(world, node, "short", catalog),
        );
        out.push_str(&wrap(
            "g",
            &format!("class=\"lifeline {}\"", node.name()),
            &(line + rect + label),
        ));
    }
    for (row, m) in messages.iter().enumerate() {
        let y = row_y(row);
        let (x1, x2) = (lifeline_x(nodes, m.from), lifeline_x(nodes, m.to));
        let lost = matches!(m.fate, Fate::Lost(..));
        let flying = m.fate == Fate::InFlight;
        let end = if lost || flying {
            x1 + (x2 - x1) * 0.55
        } else {
            x2
        };
        let dir = if x2 > x1 { 1.0 } else { -1.0 };
        let jump = world
            .steps()
            .iter()
            .find(|s| s.sent.contains(&m.id))
            .map_or(0, |s| s.index as usize + 1);
        let class = format!(
            "arrow {} {}{}{}{}",
            packet_kind(m),
            protocol(&m.payload),
            if lost { " lost" } else { "" },
            if flying { " flying" } else { "" },
            if current.contains(&m.id) {
                " current"
            } else {
                ""
            },
        );
        let tip = if lost {
            el(
                "text",
                &format!(
                    "class=\"cross\" x=\"{}\" y=\"{}\" text-anchor=\"middle\"",
                    num(end),
                    num(y + 5.0)
                ),
                "✕",
            )
        } else {
            void(
                "path",
                &format!(
                    "class=\"head\" d=\"M{} {} l{} -4 v8 z\"",
                    num(end),
                    num(y),
                    num(-8.0 * dir)
                ),
            )
        };
        let hit = void(
            "rect",
            &format!(
                "class=\"row-hit\" x=\"0\" y=\"{}\" width=\"{}\" height=\"{SEQ_ROW_H}\"",
                num(y - 17.0),
                num(SEQ_WIDTH)
            ),
        );
        let time = el(
            "text",
            &format!("class=\"time\" x=\"4\" y=\"{}\"", num(y + 4.0)),
            &clock_in(m.sent_at.ms(), catalog),
        );
        let y_at = num(y);
        let line = void(
            "line",
            &format!(
                "x1=\"{}\" y1=\"{y_at}\" x2=\"{}\" y2=\"{y_at}\"",
                num(x1),
                num(end)
            ),
        );
        let label = el(
            "text",
            &format!(
                "class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\"",
                num((x1 + x2) / 2.0),
                num(y - 5.0)
            ),
            &format!(
                "{} {}",
                msg_no(m.id),
                packet_label(&m.payload, &names, catalog)
            ),
        );
        out.push_str(&wrap(
            "g",
            &format!(
                "class=\"{class}\" data-testid=\"seq-arrow\" data-msg-id=\"{}\" data-jump=\"{jump}\"",
                m.id.0
            ),
            &(hit + time + line + tip + label),
        ));
    }
    out
}

const SEQ_ROW_H: u32 = 24;

/// The diagram.
#[component]
pub fn Sequence() -> impl IntoView {
    let lab = use_lab();
    let height = move || {
        lab.run
            .with(|r| seq_height(r.world().network().messages().len()))
    };
    let content = move || lab.run.with(|r| sequence_svg(r.world(), lab.catalog()));
    // Keep the newest arrow in view: after each change, once the SVG has its new height,
    // scroll the box so the last row sits a little above its bottom edge.
    let scroller = NodeRef::<leptos::html::Div>::new();
    Effect::new(move || {
        let rows = lab.run.with(|r| r.world().network().messages().len());
        request_animation_frame(move || {
            // The page may have been drawn again (language switch) or unmounted meanwhile.
            let Some(div) = scroller.try_get_untracked().flatten() else {
                return;
            };
            let scale = f64::from(div.scroll_height()) / seq_height(rows).max(1.0);
            let target =
                row_y(rows.saturating_sub(1)) * scale - f64::from(div.client_height()) * 0.7;
            div.set_scroll_top(target.max(0.0) as i32);
        });
    });
    let on_click = move |event: leptos::ev::MouseEvent| {
        let jump =
            crate::browser::closest_attr(&event, "data-jump").and_then(|v| v.parse::<usize>().ok());
        if let Some(index) = jump {
            lab.jump(index);
        }
    };
    view! {
        <section class="sequence">
            <h2>{lab.t("ui.sequence")}</h2>
            <p class="hint">{lab.t("ui.sequence_hint")}</p>
            <p class="hint narrow-only" data-testid="sequence-scroll">{lab.t("ui.sequence_scroll")}</p>
            <div
                class="sequence-scroll"
                node_ref=scroller
                tabindex="0"
                role="region"
                aria-label=lab.t("ui.sequence")
            >
                <svg
                    class="sequence-svg"
                    viewBox=move || format!("0 0 {} {}", SEQ_WIDTH as u32, height() as u32)
                    data-testid="sequence"
                    role="img"
                    aria-label=lab.t("ui.sequence")
                    on:click=on_click
                    inner_html=content
                ></svg>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::test_support::end;

    #[test]
    fn one_arrow_per_message_and_lost_ones_crossed() {
        let world = end("naive");
        let svg = sequence_svg(&world, Lang::En.catalog());
        assert_eq!(
            svg.matches("data-testid=\"seq-arrow\"").count(),
            world.network().messages().len()
        );
        assert_eq!(svg.matches("class=\"lifeline").count(), 5);
        assert!(svg.contains(" lost"), "the lost ack is crossed out");
        assert!(
            svg.contains("data-jump=\"2\""),
            "the first request jumps to step 2"
        );
    }
}
