//! The topology: five node cards, four links, and every packet in flight moving along its link
//! by simulated time. Node cards and packets are elements that keep their identity: a card
//! lives as long as the page, a packet from its send to its delivery (keyed by message id and
//! label), and only their position, colour and status text are reactive. A packet can be
//! focused (Tab) and dropped with a click or tap, Enter or Delete. Broken packets (transient) are
//! markup from pure functions, drawn by the lesson's bundle (`view/stage/ghosts.rs`).

use idem_core::net::Fate;
use idem_core::{Action, Link, MsgId, Node};
use leptos::html::Figure;
use leptos::prelude::*;

use crate::platform::lab::{use_lab, use_prefs, Lab, Prefs};
use crate::view::keyed::keyed_rows;
use idem_lesson::geometry::{Layout, Pill};
use idem_lesson::labels::node_text;
use idem_lesson::markup::num;
use idem_lesson::stage::topology::{
    icon, packet_at, packet_views, pill_svg, status_line, status_svg, topology_text, PacketView,
};

/// The SVG drawing of the system.
#[component]
pub fn Topology() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let frame = NodeRef::<Figure>::new();
    let story = Memo::new(move |_| lab.run.with(|r| r.scenario().story));
    // Keyed rows (see crate::view::keyed): a node's card is kept across stories that have it, and
    // a link while its story is shown. Rows are keyed by the layout too and read it (and the
    // language) untracked: a row that goes must not have subscribed to a signal that hardly
    // ever changes (see crate::view::keyed on why that leaks).
    let links = move || {
        let layout = prefs.layout.get();
        let story = story.get();
        Link::ALL
            .into_iter()
            .filter(|link| story.nodes().contains(&link.peer()))
            .map(|link| (layout, link))
            .collect::<Vec<_>>()
    };
    let link_line = |(layout, link): (Layout, Link)| {
        let (a, b) = layout.link_ends(link);
        view! {
            <line
                class=format!("link link-{}", link.name())
                x1=num(a.x)
                y1=num(a.y)
                x2=num(b.x)
                y2=num(b.y)
            />
        }
    };
    let nodes = move || {
        let layout = prefs.layout.get();
        story
            .get()
            .nodes()
            .iter()
            .map(|&node| (layout, node))
            .collect::<Vec<_>>()
    };
    let packets = move || {
        let layout = prefs.layout.get();
        lab.run.with(|r| {
            packet_views(r.shown(lab.side), prefs.catalog())
                .into_iter()
                .map(|p| (layout, p))
                .collect::<Vec<_>>()
        })
    };
    let described = move || {
        lab.run
            .with(|r| topology_text(r.shown(lab.side), prefs.catalog()))
    };
    view! {
        <figure class="topology-frame" node_ref=frame tabindex="-1">
            <svg
                class="topology"
                viewBox=move || prefs.layout.get().view_box()
                role="group"
                aria-label=prefs.t("ui.topology")
            >
                <g>
                    {keyed_rows(links, |k| *k, link_line)}
                    {keyed_rows(nodes, |k| *k, move |(layout, node)| node_card(lab, prefs, layout, node))}
                    // The packets lost or copied at this step, broken where they broke (the
                    // lesson's bundle: a run shows them only once stepped or played).
                    {crate::view::later::later_unasked(crate::view::later::LaterPart::Ghosts)}
                </g>
                <g class="packets">
                    {keyed_rows(
                        packets,
                        |(layout, p): &(Layout, PacketView)| (*layout, p.id, p.label.clone()),
                        move |(layout, p)| packet(lab, prefs, layout, p, frame),
                    )}
                </g>
                // Each packet's attempt while two requests are alive (the lesson's bundle).
                {crate::view::later::later_unasked(crate::view::later::LaterPart::Rings)}
            </svg>
            // The rings' legend while two requests are alive (the lesson's bundle).
            {crate::view::later::later_unasked(crate::view::later::LaterPart::Legend)}
            <p class="sr-only" data-testid="topology-text">{described}</p>
            <figcaption class="hint">{prefs.t("ui.tap_packet")}</figcaption>
        </figure>
    }
}

/// A node's card, drawn for `layout`: its colour and status line follow the run, its names
/// the story (a card stays while its node is in the stories shown and the layout holds).
fn node_card(lab: Lab, prefs: Prefs, layout: Layout, node: Node) -> impl IntoView {
    let n = node.name();
    // The whole page is drawn again when the language changes.
    let catalog = prefs.lang.get_untracked().catalog();
    let text = move |part: &'static str| {
        move || {
            lab.run
                .with(|r| node_text(r.shown(lab.side), node, part, catalog))
        }
    };
    let status = Memo::new(move |_| {
        lab.run
            .with(|r| status_line(r.shown(lab.side), node, catalog))
    });
    let tall = layout == Layout::Tall;
    let c = layout.center(node);
    let (w, h) = layout.card();
    let mid = num(w / 2.0);
    let status_x = if tall { mid.clone() } else { "14".to_owned() };
    let class = move || status.with(|s| s.1);
    view! {
        <g
            class=move || format!("node node-{n} {}", class())
            data-testid=format!("node-{n}")
            data-status=class
            transform=format!("translate({} {})", num(c.x - w / 2.0), num(c.y - h / 2.0))
        >
            <title>{text("name")}</title>
            <rect class="card" width=num(w) height=num(h) rx="14"/>
            <g
                class="icon"
                transform=if tall { format!("translate({mid} 22)") } else { "translate(28 30)".to_owned() }
            >
                <path d=icon(node)/>
            </g>
            <text
                class="node-title"
                x=if tall { mid.clone() } else { "48".to_owned() }
                y=if tall { "52" } else { "31" }
                text-anchor=tall.then_some("middle")
            >
                {text("short")}
            </text>
            {(!tall).then(|| view! { <text class="node-sub" x="48" y="49">{text("tech")}</text> })}
            <text
                class="node-status"
                text-anchor=tall.then_some("middle")
                inner_html=move || status.with(|s| status_svg(layout, &s.0, &status_x))
            ></text>
        </g>
    }
}

/// One packet: an element for as long as the message is in flight. A click or tap, Enter or Delete
/// drops it (the core refuses packets inside the data centre, with a reason); after a drop
/// from the keyboard the focus moves to the drawing, not to the page.
fn packet(
    lab: Lab,
    prefs: Prefs,
    layout: Layout,
    p: PacketView,
    frame: NodeRef<Figure>,
) -> impl IntoView {
    let id = p.id;
    let px = layout.label_px();
    let pill = Pill::new(&p.label, px, layout.gap(p.from, p.to));
    let w = pill.w;
    let doomed = move || {
        lab.run.with(|r| {
            r.shown(lab.side)
                .network()
                .get(MsgId(id))
                .is_some_and(|m| m.doomed)
        })
    };
    let base = format!(
        "packet {} {}{}",
        p.kind,
        p.proto,
        if p.droppable { " droppable" } else { "" }
    );
    let class = move || {
        if doomed() {
            format!("{base} doomed")
        } else {
            base.clone()
        }
    };
    let reduced = prefs.reduced_motion.get_untracked();
    let catalog = prefs.lang.get_untracked().catalog();
    let at = move || {
        let now = lab.clock.display.get();
        lab.run.with(|r| {
            packet_at(layout, r.shown(lab.side), MsgId(id), now, reduced, catalog)
                .map(|p| format!("translate({} {})", num(p.x), num(p.y)))
        })
    };
    // A click, not a pointerdown: a touch that scrolls the page and starts on a packet makes
    // no click, so it does not drop the packet.
    let drop = move || lab.act(Action::Drop(MsgId(id)));
    let on_key = move |e: leptos::ev::KeyboardEvent| {
        // A role="button" answers Enter and Space; Delete and Backspace drop it too.
        if matches!(e.key().as_str(), "Enter" | " " | "Delete" | "Backspace") {
            e.prevent_default();
            drop();
            let gone = lab.run.with_untracked(|r| {
                r.shown(lab.side)
                    .network()
                    .get(MsgId(id))
                    .is_none_or(|m| !matches!(m.fate, Fate::InFlight))
            });
            if gone {
                if let Some(frame) = frame.get_untracked() {
                    let _ = frame.focus();
                }
            }
        }
    };
    let hit_h = (pill.h + 16.0).max(40.0);
    let body = pill_svg(&pill);
    let pill = view! {
            <rect
                class="hit"
                x=num(-w / 2.0 - 6.0)
                y=num(-hit_h / 2.0)
                width=num(w + 12.0)
                height=num(hit_h)
                rx="20"
            />
            <g class="pill-body" inner_html=body></g>
    };
    view! {
        <g
            class=class
            data-testid="packet"
            data-msg-id=id
            data-kind=p.kind
            transform=at
            role="button"
            tabindex="0"
            aria-label=p.aria
            on:click=move |_| {
                drop();
            }
            on:keydown=on_key
        >
            <title>{p.title}</title>
            {pill}
        </g>
    }
}
