//! The topology: five node cards, four links, and every packet in flight moving along its link
//! by simulated time. Clicking a packet on the mobile link drops it. The still parts (links,
//! cards, broken packets) are markup from pure functions; moving packets are components.

use idem_core::client::UserView;
use idem_core::net::{DropReason, Fate, Message};
use idem_core::{Action, Link, MsgId, Node, Note, Story, World};
use leptos::prelude::*;

use crate::geometry::{drawn_progress, pill_width, progress, Layout, Point};
use crate::i18n::Catalog;
use crate::lab::use_lab;
use crate::labels::{packet_kind, packet_label, protocol, usd, ShortNames};
use crate::markup::{el, esc, num};

/// The SVG drawing of the system.
#[component]
pub fn Topology() -> impl IntoView {
    let lab = use_lab();
    let packets = move || {
        let now = lab.display.get();
        let layout = lab.layout.get();
        lab.run.with(|r| {
            packets_svg(
                layout,
                r.world(),
                now,
                lab.reduced_motion.get_untracked(),
                lab.catalog(),
            )
        })
    };
    // Packets are redrawn every frame, so a press (not a click) drops one.
    let on_press = move |event: leptos::ev::PointerEvent| {
        if let Some(id) =
            crate::browser::closest_attr(&event, "data-msg-id").and_then(|v| v.parse().ok())
        {
            lab.act(Action::Drop(MsgId(id)));
        }
    };
    let still = move || {
        let layout = lab.layout.get();
        let reduced = lab.reduced_motion.get();
        lab.run.with(|r| {
            let w = r.world();
            let mut out = links_svg(layout);
            out.push_str(&nodes_svg(layout, w, lab.catalog()));
            out.push_str(&ghosts_svg(layout, w, reduced, r.cursor()));
            out
        })
    };
    view! {
        <figure class="topology-frame">
            <svg
                class="topology"
                viewBox=move || lab.layout.get().view_box()
                role="group"
                aria-label=lab.t("ui.topology")
            >
                <g inner_html=still></g>
                <g class="packets" on:pointerdown=on_press inner_html=packets></g>
            </svg>
            <figcaption class="hint">{lab.t("ui.tap_packet")}</figcaption>
        </figure>
    }
}

/// The four links as SVG lines.
pub fn links_svg(layout: Layout) -> String {
    Link::ALL
        .into_iter()
        .map(|link| {
            let (a, b) = layout.link_ends(link);
            format!(
                "<line class=\"link link-{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                link.name(),
                num(a.x),
                num(a.y),
                num(b.x),
                num(b.y)
            )
        })
        .collect()
}

/// A node's status line and the class that colours its card.
pub fn status_line(world: &World, node: Node, catalog: &Catalog) -> (String, &'static str) {
    let notes: &[Note] = world.steps().last().map_or(&[], |s| s.notes.as_slice());
    let has = |f: fn(&Note) -> bool| notes.iter().any(f);
    match node {
        Node::Client => {
            if world.client_offline_until().is_some() {
                return (catalog.text("node.offline"), "warn");
            }
            match world.client().ops().last().map(|o| &o.view) {
                None => (catalog.text("node.idle"), ""),
                Some(UserView::Waiting) => (catalog.text("node.waiting"), "busy"),
                Some(UserView::Succeeded(_)) => (catalog.text("node.success"), "ok"),
                Some(UserView::Failed(r)) if r.status == 412 => {
                    (catalog.text("node.rereads"), "ok")
                }
                Some(UserView::Failed(_)) => (catalog.text("node.error"), "warn"),
                Some(UserView::GaveUp) => (catalog.text("node.gave_up"), "warn"),
            }
        }
        Node::Api => {
            let api = world.api();
            if api.down_until().is_some() {
                return (catalog.text("node.crashed"), "bad");
            }
            if let Some(phase) = api.crash_armed() {
                let phase = catalog.text(&format!("phase.{}", phase.name()));
                return (
                    catalog.fill("node.crash_armed", &[("phase", phase)]),
                    "warn",
                );
            }
            match api.handlers().next() {
                Some((_, h)) => {
                    // One request: just its phase, so the line fits the card; more: "2× phase".
                    let phase = catalog.text(&format!("phase.{}", h.phase.name()));
                    let status = match api.handlers().count() {
                        1 => phase,
                        n => {
                            catalog.fill("node.handling", &[("phase", phase), ("n", n.to_string())])
                        }
                    };
                    (status, "busy")
                }
                None => (catalog.text("node.up"), ""),
            }
        }
        Node::Store => {
            let n = world.store().entries().count().to_string();
            let class = if has(|n| matches!(n, Note::StoreValue | Note::ApiReplays { .. })) {
                "hit"
            } else if has(|n| matches!(n, Note::KeysEvicted { .. } | Note::KeysExpired { .. })) {
                "warn"
            } else if has(|n| matches!(n, Note::StoreOk | Note::StoreNil)) {
                "flash"
            } else {
                ""
            };
            (catalog.fill("node.keys", &[("n", n)]), class)
        }
        Node::Ledger => {
            let l = world.ledger();
            let text = match world.scenario().story {
                Story::CompareAndSet => l
                    .accounts
                    .first()
                    .map(|a| format!("balance {} · v{}", a.balance, a.version))
                    .unwrap_or_default(),
                Story::Counter => l
                    .posts
                    .first()
                    .map(|p| format!("likes {}", p.likes))
                    .unwrap_or_default(),
                _ => catalog.fill("node.charges", &[("n", l.charges.len().to_string())]),
            };
            let class = if has(|n| matches!(n, Note::LedgerRan { .. })) {
                "flash"
            } else {
                ""
            };
            (text, class)
        }
        Node::Processor => {
            let total: u64 = world
                .processor()
                .statement
                .iter()
                .map(|l| l.amount_cents)
                .sum();
            let class = if has(|n| matches!(n, Note::ProcessorCharged { .. })) {
                "charged"
            } else if has(|n| matches!(n, Note::ProcessorDeduplicated { .. })) {
                "hit"
            } else {
                ""
            };
            (usd(total), class)
        }
    }
}

/// A simple line icon for each node, drawn around (0, 0) in a 24-unit box.
pub fn icon(node: Node) -> &'static str {
    match node {
        Node::Client => "<rect x=\"-8\" y=\"-12\" width=\"16\" height=\"24\" rx=\"3\"/><line x1=\"-3\" y1=\"8\" x2=\"3\" y2=\"8\"/>",
        Node::Api => "<rect x=\"-11\" y=\"-11\" width=\"22\" height=\"9\" rx=\"2\"/><rect x=\"-11\" y=\"2\" width=\"22\" height=\"9\" rx=\"2\"/><circle cx=\"-6\" cy=\"-6.5\" r=\"1.2\"/><circle cx=\"-6\" cy=\"6.5\" r=\"1.2\"/>",
        Node::Store => "<path d=\"M0 -12 L11 -6 L0 0 L-11 -6 Z\"/><path d=\"M-11 0 L0 6 L11 0\"/><path d=\"M-11 6 L0 12 L11 6\"/>",
        Node::Ledger => "<ellipse cx=\"0\" cy=\"-8\" rx=\"10\" ry=\"4\"/><path d=\"M-10 -8 V8 A10 4 0 0 0 10 8 V-8\"/><path d=\"M-10 0 A10 4 0 0 0 10 0\"/>",
        Node::Processor => "<rect x=\"-12\" y=\"-8\" width=\"24\" height=\"16\" rx=\"2.5\"/><line x1=\"-12\" y1=\"-3\" x2=\"12\" y2=\"-3\"/><line x1=\"-8\" y1=\"4\" x2=\"-2\" y2=\"4\"/>",
    }
}

/// The five node cards: icon, name, technology and a live status line, coloured by status.
pub fn nodes_svg(layout: Layout, world: &World, catalog: &Catalog) -> String {
    let (w, h) = layout.card();
    let tall = layout == Layout::Tall;
    Node::ALL
        .into_iter()
        .map(|node| {
            let c = layout.center(node);
            let (status, class) = status_line(world, node, catalog);
            let name = catalog.text(&format!("node.{}.short", node.name()));
            let tech = catalog.text(&format!("node.{}.tech", node.name()));
            let (icon_at, text) = if tall {
                let mid = num(w / 2.0);
                (
                    format!("{mid} 22"),
                    format!(
                        "{}{}",
                        el("text", &format!("class=\"node-title\" x=\"{mid}\" y=\"52\" text-anchor=\"middle\""), &name),
                        el("text", &format!("class=\"node-status\" x=\"{mid}\" y=\"72\" text-anchor=\"middle\""), &status),
                    ),
                )
            } else {
                (
                    "28 30".to_owned(),
                    format!(
                        "{}{}{}",
                        el("text", "class=\"node-title\" x=\"48\" y=\"31\"", &name),
                        el("text", "class=\"node-sub\" x=\"48\" y=\"49\"", &tech),
                        el("text", "class=\"node-status\" x=\"14\" y=\"80\"", &status),
                    ),
                )
            };
            format!(
                "<g class=\"node node-{n} {class}\" data-testid=\"node-{n}\" data-status=\"{class}\" transform=\"translate({x} {y})\">\
                 <title>{full}</title><rect class=\"card\" width=\"{w}\" height=\"{h}\" rx=\"14\"/>\
                 <g class=\"icon\" transform=\"translate({icon_at})\">{icon}</g>{text}</g>",
                n = node.name(),
                x = num(c.x - w / 2.0),
                y = num(c.y - h / 2.0),
                w = num(w),
                h = num(h),
                full = esc(&catalog.text(&format!("node.{}.name", node.name()))),
                icon = icon(node),
            )
        })
        .collect()
}

/// Packets lost in the current step, drawn where they broke; CSS makes them split and fade.
pub fn ghosts_svg(layout: Layout, world: &World, reduced_motion: bool, cursor: usize) -> String {
    let Some(step) = world.steps().last() else {
        return String::new();
    };
    let names = ShortNames::of(world);
    let px = layout.label_px();
    let splits: String = step
        .sent
        .iter()
        .filter_map(|id| world.network().get(*id))
        .filter(|m| m.duplicate_of.is_some())
        .map(|m| {
            let w = pill_width(&packet_label(&m.payload, &names), px);
            let p = point_at(layout, m, world.now().ms() as f64, reduced_motion, w);
            format!(
                "<g class=\"split {}\" data-testid=\"split-packet\" transform=\"translate({} {})\"><rect class=\"pill\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\"/></g>",
                protocol(&m.payload),
                num(p.x),
                num(p.y),
                num(-w / 2.0),
                num(-px * 0.95),
                num(w),
                num(px * 1.9),
                num(px * 0.95)
            )
        })
        .collect();
    let lost: String = step.notes
        .iter()
        .filter_map(|n| match n {
            Note::MessageLost { msg, .. } => world.network().get(*msg),
            _ => None,
        })
        .map(|m| {
            let at = match m.fate {
                Fate::Lost(t, DropReason::Dropped) => t.ms() as f64,
                _ => m.deliver_at.ms() as f64,
            };
            let label = packet_label(&m.payload, &names);
            let w = pill_width(&label, px);
            let p = point_at(layout, m, at, reduced_motion, w);
            let pill = |x: f64| {
                format!(
                    "<rect class=\"pill\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\"/>",
                    num(x),
                    num(-px * 0.95),
                    num(w / 2.0),
                    num(px * 1.9),
                    num(px * 0.95)
                )
            };
            format!(
                "<g class=\"ghost {kind} {proto}\" data-testid=\"lost-packet\" data-step=\"{cursor}\" transform=\"translate({x} {y})\">\
                 <g class=\"shard left\">{left}</g><g class=\"shard right\">{right}</g>{text}{cross}</g>",
                kind = packet_kind(m),
                proto = protocol(&m.payload),
                x = num(p.x),
                y = num(p.y),
                left = pill(-w / 2.0),
                right = pill(0.0),
                text = el("text", &format!("class=\"pill-label\" text-anchor=\"middle\" y=\"{}\" font-size=\"{}\"", num(px * 0.36), num(px)), &label),
                cross = el("text", &format!("class=\"cross\" text-anchor=\"middle\" y=\"{}\"", num(-px * 1.3)), "✕"),
            )
        })
        .collect();
    splits + &lost
}

/// Where message `m`, drawn as a pill `pill_w` wide, is at simulated time `now`.
pub fn point_at(layout: Layout, m: &Message, now: f64, reduced_motion: bool, pill_w: f64) -> Point {
    let p = progress(now, m.sent_at, m.deliver_at);
    let d = drawn_progress(p, reduced_motion, layout.gap(m.from, m.to), pill_w);
    layout.packet_point(m.from, m.to, d, m.payload.is_reply())
}

/// The inside of a packet's pill (drawn around its centre).
pub fn pill_svg(label: &str, px: f64) -> String {
    let w = pill_width(label, px);
    format!(
        "<rect class=\"hit\" x=\"{hx}\" y=\"-20\" width=\"{hw}\" height=\"40\" rx=\"20\"/>\
         <g class=\"pill-body\"><rect class=\"pill\" x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"{r}\"/>{text}</g>",
        hx = num(-w / 2.0 - 6.0),
        hw = num(w + 12.0),
        x = num(-w / 2.0),
        y = num(-px * 0.95),
        w = num(w),
        h = num(px * 1.9),
        r = num(px * 0.95),
        text = el(
            "text",
            &format!("class=\"pill-label\" text-anchor=\"middle\" y=\"{}\" font-size=\"{}\"", num(px * 0.36), num(px)),
            label
        ),
    )
}

/// Every packet in flight at display time `now`: a labelled pill on its link.
pub fn packets_svg(
    layout: Layout,
    world: &World,
    now: f64,
    reduced_motion: bool,
    catalog: &Catalog,
) -> String {
    let names = ShortNames::of(world);
    let px = layout.label_px();
    world
        .network()
        .in_flight()
        .map(|m| {
            let label = packet_label(&m.payload, &names);
            let p = point_at(layout, m, now, reduced_motion, pill_width(&label, px));
            let key = if m.is_faultable() { "ui.packet_drop" } else { "ui.packet_internal" };
            let title = catalog.fill(key, &[("label", label.clone()), ("msg", crate::labels::msg_no(m.id))]);
            format!(
                "<g class=\"packet {kind} {proto}{doomed}{droppable}\" data-testid=\"packet\" data-msg-id=\"{id}\" data-kind=\"{kind}\" transform=\"translate({x} {y})\" role=\"button\">{title}{pill}</g>",
                kind = packet_kind(m),
                proto = protocol(&m.payload),
                doomed = if m.doomed { " doomed" } else { "" },
                droppable = if m.is_faultable() { " droppable" } else { "" },
                id = m.id.0,
                x = num(p.x),
                y = num(p.y),
                title = el("title", "", &title),
                pill = pill_svg(&label, px),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use idem_core::Scenario;

    #[test]
    fn the_drawing_has_five_nodes_and_four_links() {
        let world = World::new(&Scenario::by_id("key").expect("key"));
        for layout in [Layout::Wide, Layout::Tall] {
            let svg = nodes_svg(layout, &world, Lang::En.catalog());
            for node in Node::ALL {
                assert!(svg.contains(&format!("data-testid=\"node-{}\"", node.name())));
            }
            assert_eq!(links_svg(layout).matches("<line").count(), 4);
        }
    }

    #[test]
    fn a_crashed_api_is_red_and_a_replay_is_a_hit() {
        let catalog = Lang::En.catalog();
        let mut world = World::new(&Scenario::by_id("crash-window").expect("scenario"));
        while world.api().down_until().is_none() {
            world.step();
        }
        assert_eq!(status_line(&world, Node::Api, catalog).1, "bad");
        let mut world = World::new(&Scenario::by_id("key").expect("key"));
        let mut hit = false;
        while world.step().is_some() {
            hit |= status_line(&world, Node::Store, catalog).1 == "hit";
        }
        assert!(hit);
    }

    #[test]
    fn a_lost_ack_leaves_a_broken_pill() {
        let mut world = World::new(&Scenario::by_id("naive").expect("naive"));
        let mut ghosts = String::new();
        while world.step().is_some() && ghosts.is_empty() {
            ghosts = ghosts_svg(Layout::Wide, &world, false, 1);
        }
        assert!(ghosts.contains("ghost response"), "{ghosts}");
        assert!(ghosts.contains("201 pay_abc"), "{ghosts}");
    }
}
