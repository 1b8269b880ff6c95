//! The sequence diagram of the run so far: one lifeline per node and one arrow per message
//! (lost ones crossed out, those in flight dashed), in step with the cursor. Each arrow is an
//! element of its own, kept while its message stays in the run (keyed by message), with its
//! own handlers: a click, Enter or Space jumps to the step that sent it. The lifelines and
//! each arrow's drawing are markup from pure functions.

use idem_core::net::Fate;
use idem_core::World;

use crate::geometry::{lifeline_x, pill_width, row_y, seq_height, SEQ_HEAD, SEQ_WIDTH};
use crate::i18n::Catalog;
use crate::labels::{
    clock_in, msg_tag, node_text, packet_kind, packet_label, protocol, ShortNames,
};
use crate::markup::{el, num, void, wrap, SafeHtml};
use crate::stage::ring_marks::sequence_mark;

/// The lifelines of `world`'s story, as tall as its messages need.
pub fn lifelines_svg(world: &World, catalog: &Catalog) -> SafeHtml {
    let height = seq_height(world.network().messages().len());
    let nodes = world.scenario().story.nodes();
    nodes
        .iter()
        .map(|&node| {
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
            wrap(
                "g",
                &format!("class=\"lifeline {}\"", node.name()),
                &(line + rect + label),
            )
        })
        .collect()
}

/// What the page needs to draw one arrow.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrowView {
    /// The message id.
    pub id: u32,
    /// The step a press jumps to: the one that sent the message (the core's steps; the page
    /// shows the end of the visible step it is part of).
    pub jump: usize,
    /// That step as the counter numbers it: visible steps, filler folded ([`crate::fold`]).
    pub step: usize,
    /// The accessible name: the time and the message as drawn, its ends and the step a press
    /// goes to.
    pub aria: String,
    /// `arrow request http`, with ` lost`, ` flying` and ` current` as they apply.
    pub class: String,
    /// The drawing: hit area, time, line, head (or cross) and label.
    pub body: SafeHtml,
}

/// One arrow per message `world` has seen, in order.
pub fn arrow_views(world: &World, catalog: &Catalog) -> Vec<ArrowView> {
    let names = ShortNames::of(world);
    (0..world.network().messages().len())
        .filter_map(|row| arrow_view(world, &names, row, catalog))
        .collect()
}

/// The arrow of the message in `row` (`None` past the last one).
pub fn arrow_view(
    world: &World,
    names: &ShortNames,
    row: usize,
    catalog: &Catalog,
) -> Option<ArrowView> {
    let m = world.network().messages().get(row)?;
    let nodes = world.scenario().story.nodes();
    // The arrows of the visible step on screen: a folded acknowledgement's request too.
    let current: Vec<_> = crate::fold::visible_tail(world.steps())
        .iter()
        .flat_map(|s| s.sent.iter().copied())
        .collect();
    let short = |node| node_text(world, node, "short", catalog);
    let y = row_y(row);
    let (x1, x2) = (lifeline_x(nodes, m.from), lifeline_x(nodes, m.to));
    let lost = matches!(m.fate, Fate::Lost(..));
    let flying = m.fate == Fate::InFlight;
    let plain_caption = format!("{} {}", msg_tag(m.id), packet_label(m, names, catalog));
    // While two requests or more are alive, the arrow's request in a badge (①, ②; A①, B①
    // where the phone runs two operations) before its caption, named in words for screen
    // readers (issue 42, item 1).
    let badge = crate::text::speaker::arrow_badge(world, row, catalog)
        .map(|(mark, name)| (sequence_mark(world, m.id, mark), name));
    let caption = match &badge {
        Some((mark, _)) => format!("{mark} {plain_caption}"),
        None => plain_caption.clone(),
    };
    let clock = clock_in(m.sent_at.ms(), catalog);
    let dir = dir_of(x1, x2);
    // Captions are measured as pills' texts: 11 px on wide screens, 14 px on phones
    // (web/later.css: the diagram is drawn after the first screen), where the time column is
    // hidden.
    let (narrow, wide) = (pill_width(&caption, 11.0), pill_width(&caption, 14.0));
    // The caption is centred above its arrow, but never reaches back into the time column on
    // the left (10 px mono, 0.6 em a character: "25 ч 00 мин 03 с" is 96 units wide and ran
    // under the caption of the first lifeline's arrow in the expired-key story).
    let clock_end = 4.0 + clock.chars().count() as f64 * 6.0 + 6.0;
    let centre = ((x1 + x2) / 2.0).max(clock_end + narrow / 2.0);
    // A lost message's line stops at its cross, past the middle. The cross must not cover the
    // caption: it goes past the caption's end where the arrow leaves room; else the caption
    // moves beside the arrow, right of it or left of it, where the row has room (each row holds
    // one arrow).
    let halfway = x1 + (x2 - x1) * 0.55;
    let past_caption = centre + (wide / 2.0 + 6.0) * dir;
    let (lo, hi) = (x1.min(x2), x1.max(x2));
    let (label_x, anchor, end) = if !lost {
        let end = if flying { halfway } else { x2 };
        (centre, "middle", end)
    } else if (x2 - past_caption) * dir > 10.0 {
        let end = if (past_caption - halfway) * dir > 0.0 {
            past_caption
        } else {
            halfway
        };
        (centre, "middle", end)
    } else if SEQ_WIDTH - hi >= wide + 8.0 {
        (hi + 8.0, "start", halfway)
    } else if lo - clock_end >= narrow + 8.0 {
        (lo - 8.0, "end", halfway)
    } else {
        (centre, "middle", halfway)
    };
    let jump = world
        .steps()
        .iter()
        .find(|s| s.sent.contains(&m.id))
        .map_or(0, |s| s.index as usize + 1);
    // The counter's number for that step: filler folds (a past folds the same way whatever
    // follows it, so the number of an arrow already drawn never changes).
    let step = crate::fold::Stops::of(world.steps()).visible(jump);
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
        &clock,
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
    let caption_html = match &badge {
        Some((mark, _)) => {
            // A space first: the row's text reads "0.300 s ① #3 …" as its name does (the
            // time is a text of its own; axe compares the two).
            SafeHtml::text(" ")
                + el("tspan", "class=\"seq-badge\"", mark)
                + SafeHtml::text(&format!(" {plain_caption}"))
        }
        None => SafeHtml::text(&plain_caption),
    };
    let label = wrap(
        "text",
        &format!(
            "class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\"",
            num(label_x),
            num(y - 5.0)
        ),
        &caption_html,
    );
    let aria = catalog.fill(
        "ui.seq_arrow",
        &[
            // It starts with what the row shows, in order: the time, then the caption.
            (
                "packet",
                // The badge as drawn (a name holds the text shown), then in words.
                match &badge {
                    Some((_, name)) => format!(
                        "{clock} {caption}, {} → {}, {name}",
                        short(m.from),
                        short(m.to)
                    ),
                    None => format!(
                        "{clock} {plain_caption}, {} → {}",
                        short(m.from),
                        short(m.to)
                    ),
                },
            ),
            ("step", step.to_string()),
        ],
    );
    Some(ArrowView {
        id: m.id.0,
        jump,
        step,
        aria,
        class,
        body: hit + time + line + tip + label,
    })
}

const SEQ_ROW_H: u32 = 24;

/// 1 for an arrow drawn rightwards, -1 for one drawn leftwards.
fn dir_of(x1: f64, x2: f64) -> f64 {
    if x2 > x1 {
        1.0
    } else {
        -1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    /// Issue #42: a lost reply's cross was drawn over its caption ("#6 201 pay_abc"). The
    /// cross stands at the line's end; the caption, at either size it is drawn at, keeps
    /// clear of it (as estimated from its characters).
    #[test]
    fn a_lost_message_s_cross_keeps_off_its_caption() {
        let mut world = World::new(&idem_core::Scenario::by_id("naive").expect("naive"));
        while world.step().is_some() {}
        let names = ShortNames::of(&world);
        let mut lost = 0;
        for row in 0..world.network().messages().len() {
            let arrow = arrow_view(&world, &names, row, Lang::En.catalog()).expect("arrow");
            let body = arrow.body.to_string();
            let Some(cross) = body.split("class=\"cross\" x=\"").nth(1) else {
                continue;
            };
            lost += 1;
            let number = |s: &str| s.split('"').next().unwrap().parse::<f64>().unwrap();
            let cross_x = number(cross);
            let label = body.split("class=\"label\" x=\"").nth(1).expect("label");
            let label_x = number(label);
            let anchor = label.split("text-anchor=\"").nth(1).expect("anchor");
            let caption = label.split('>').nth(1).unwrap().split('<').next().unwrap();
            let w = pill_width(caption, 14.0);
            let (from, to) = match anchor.split('"').next().unwrap() {
                "middle" => (label_x - w / 2.0, label_x + w / 2.0),
                "start" => (label_x, label_x + w),
                _ => (label_x - w, label_x),
            };
            assert!(cross_x + 6.0 <= from || cross_x - 6.0 >= to, "{body}");
        }
        assert!(lost > 0, "the naive story loses a reply");
    }
    use crate::test_support::end;

    #[test]
    fn one_arrow_per_message_and_lost_ones_crossed() {
        let world = end("naive");
        let arrows = arrow_views(&world, Lang::En.catalog());
        assert_eq!(arrows.len(), world.network().messages().len());
        let ids: Vec<u32> = arrows.iter().map(|a| a.id).collect();
        assert_eq!(ids, (0..arrows.len() as u32).collect::<Vec<_>>());
        let lines = lifelines_svg(&world, Lang::En.catalog());
        assert_eq!(lines.matches("class=\"lifeline").count(), 5);
        let lost: Vec<&ArrowView> = arrows
            .iter()
            .filter(|a| a.class.contains(" lost"))
            .collect();
        assert_eq!(lost.len(), 1, "the lost ack is crossed out");
        assert!(lost[0].body.contains("class=\"cross\""), "{}", lost[0].body);
        assert!(!arrows[0].body.contains("class=\"cross\""));
        assert_eq!(arrows[0].jump, 2, "the first request jumps to step 2");
        assert!(arrows
            .iter()
            .all(|a| a.jump > 0 && a.jump <= world.steps().len()));
    }

    #[test]
    fn every_arrow_is_named_for_screen_readers_in_both_languages() {
        let world = end("naive");
        for (lang, text) in [
            (
                Lang::En,
                "#1 POST /charges, Mobile client → Payment API: go to step 2",
            ),
            (
                Lang::Ru,
                "#1 POST /charges, Телефон → API оплаты: перейти к шагу 2",
            ),
        ] {
            let catalog = lang.catalog();
            let time = clock_in(world.network().messages()[0].sent_at.ms(), catalog);
            let arrows = arrow_views(&world, catalog);
            assert_eq!(arrows[0].aria, format!("{time} {text}"));
        }
    }
}
