//! Who is speaking, on the stage (issue 42, item 1), from the lesson's bundle: the ring and
//! badge each packet in flight wears while two requests or more are alive, laid over the
//! packets (`idem_lesson::stage::rings`), with the badge of an attempt whose handler works at
//! the API with no packet in flight (a stalled one) beside the API's card; and the phone's
//! playback bar's words, which name the speakers where the narration does
//! (`idem_lesson::text::speaker::spoken_text`). The first screen keeps only their places
//! (`later::later_unasked`).

use leptos::prelude::*;

use crate::platform::lab::{use_lab, use_prefs};
use crate::view::keyed::keyed_rows;
use crate::view::slices::{drawn, FIRST_SCREEN};
use idem_lesson::geometry::Layout;
use idem_lesson::geometry::Point;
use idem_lesson::markup::num;
use idem_lesson::stage::rings::{
    badge_r, handler_badges, place_badges, ring_box, ring_size, ring_views, HandlerBadge, RingView,
};
use idem_lesson::stage::summary::narration_lines;
use idem_lesson::text::speaker::spoken_text;

/// The rings of the packets in flight, over them (a press goes through to the packet).
#[component]
pub fn PacketRings() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let views = Memo::new(move |_| {
        // Named with the panels' words (the page has them once its first screen is drawn).
        if !drawn(FIRST_SCREEN) {
            return Vec::new();
        }
        let layout = prefs.layout.get();
        lab.run
            .with(|r| ring_views(layout, r.shown(lab.side), prefs.catalog()))
    });
    // Where each ring and its badge are, each frame (the badges kept clear of each other).
    let places = Memo::new(move |_| {
        let now = lab.clock.display.get();
        let layout = prefs.layout.get();
        let reduced = prefs.reduced_motion.get();
        views.with(|views| {
            lab.run.with(|r| {
                let world = r.shown(lab.side);
                let placed = place_badges(layout, world, now, reduced, prefs.catalog(), views);
                views.iter().map(|v| v.id).zip(placed).collect::<Vec<_>>()
            })
        })
    });
    let rings = move || {
        let layout = prefs.layout.get();
        views
            .get()
            .into_iter()
            .map(|v| (layout, v))
            .collect::<Vec<_>>()
    };
    // The attempts whose handlers work at the API with no packet in flight (a stalled one),
    // each badge beside the API's card.
    let at_api = Memo::new(move |_| {
        if !drawn(FIRST_SCREEN) {
            return Vec::new();
        }
        let layout = prefs.layout.get();
        lab.run
            .with(|r| handler_badges(layout, r.shown(lab.side), prefs.catalog()))
    });
    view! {
        <g class="rings" data-testid="rings">
            {keyed_rows(
                rings,
                |(layout, v): &(Layout, RingView)| (*layout, v.id, v.name.clone()),
                move |(layout, v)| ring(places, layout, v),
            )}
            {keyed_rows(
                move || at_api.get(),
                |b: &HandlerBadge| (b.mark.clone(), b.name.clone(), num(b.at.x), num(b.at.y)),
                |b| {
                    view! {
                        <g
                            class=format!("ring {}", b.tone)
                            data-testid="handler-badge"
                            role="img"
                            aria-label=b.name
                            transform=format!("translate({} {})", num(b.at.x), num(b.at.y))
                        >
                            <circle class="ring-badge" r=num(b.r)/>
                            <text class="ring-mark" y="4.2" text-anchor="middle" font-size="12">
                                {b.mark}
                            </text>
                        </g>
                    }
                },
            )}
        </g>
    }
}

/// Each ring's packet id, with where its pill and its badge are (`place_badges`).
type Places = Memo<Vec<(u32, Option<(Point, Point)>)>>;

/// One packet's ring: round its pill, with its badge where `places` puts it, moving with it.
fn ring(places: Places, layout: Layout, v: RingView) -> impl IntoView {
    let id = v.id;
    let (w, h) = ring_size(&v);
    let place = move || {
        places.with(|all| {
            all.iter()
                .find(|(of, _)| *of == id)
                .and_then(|(_, place)| *place)
        })
    };
    let at = move || place().map(|(p, _)| format!("translate({} {})", num(p.x), num(p.y)));
    let badge = move || place().map_or((0.0, 0.0), |(_, b)| (b.x, b.y));
    let frame = move || {
        place().map_or((-w / 2.0, -h / 2.0, w, h), |(at, _)| {
            ring_box(layout, at, (w, h))
        })
    };
    view! {
        <g
            class=format!("ring {}", v.tone)
            data-testid="packet-ring"
            data-msg-id=id
            role="img"
            aria-label=v.name
            transform=at
        >
            <rect
                class="ring-line"
                x=move || num(frame().0)
                y=move || num(frame().1)
                width=move || num(frame().2)
                height=move || num(frame().3)
                rx=num(h / 2.0)
            />
            <circle
                class="ring-badge"
                cx=move || num(badge().0)
                cy=move || num(badge().1)
                r=num(badge_r(&v))
            />
            <text
                class="ring-mark"
                x=move || num(badge().0)
                y=move || num(badge().1 + 4.2)
                text-anchor="middle"
                font-size="12"
            >
                {v.mark}
            </text>
        </g>
    }
}

/// The playback bar's words, shown on phones only (the bar sticks to the bottom of the window
/// while playing): the step's narration, with who is speaking where the narration names them,
/// four lines at most, a longer step scrolling inside (back at its start at each step).
/// Screen readers hear the narration's live region instead.
#[component]
pub fn NowLine() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let words = move || {
        // The speakers' names are the panels' words (the page has them once its first screen
        // is drawn; a widget has them from the start).
        let named = drawn(FIRST_SCREEN);
        lab.run.with(|r| {
            let world = r.shown(lab.side);
            named
                .then(|| spoken_text(world, prefs.catalog()))
                .flatten()
                .unwrap_or_else(|| narration_lines(world, prefs.catalog()).join(" "))
        })
    };
    // A long step scrolls inside the bar (web/later.css): each step's words start at their
    // first line.
    let line = NodeRef::<leptos::html::P>::new();
    let words = Memo::new(move |_| words());
    Effect::new(move |_| {
        words.track();
        if let Some(p) = line.get() {
            p.set_scroll_top(0);
        }
    });
    view! { <p class="now-line" aria-hidden="true" data-testid="now-line" node_ref=line>{words}</p> }
}
