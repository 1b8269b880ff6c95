//! Who is speaking, on the stage (issue 42, item 1): while two requests or more are alive,
//! each packet in flight wears a ring in its attempt's colour and a badge with the attempt's
//! number, named for screen readers ("#4 attempt 2"); with one request alive, none. The number
//! is the one the narration and the sequence diagram's badges give the same request
//! ([`crate::text::speaker`]). Only the lesson's bundle draws them (a part laid over the
//! packets): the first screen carries none of it.

use idem_core::{MsgId, Node, Party, World};

use crate::geometry::{Layout, Pill, Point};
use crate::i18n::Catalog;
use crate::labels::{msg_tag, packet_label, ShortNames};
use crate::stage::ring_marks::party_badge;
use crate::stage::topology::{lost_here, packet_at};
use crate::text::speaker::{party_name, several_alive};

/// A packet's ring: what the page draws over the packet, centred on it.
#[derive(Clone, Debug, PartialEq)]
pub struct RingView {
    /// The packet's message id.
    pub id: u32,
    /// The badge's text: the attempt's number (`R` for the recovery job), led by its
    /// operation's letter where the phone runs two (`B1`: [`party_badge`]).
    pub mark: String,
    /// The accessible name: the packet's tag and whose it is, `#4 attempt 2`.
    pub name: String,
    /// The colour's class, `ring-1` to `ring-4` by the attempt's number (then again from 1;
    /// another operation's start one further on), `ring-r` for the recovery job.
    pub tone: &'static str,
    /// The packet's pill, as the stage draws it (the ring goes round it).
    pub w: f64,
    /// The pill's height.
    pub h: f64,
    /// The end of the pill its badge goes to first: `1.0` the right, `-1.0` the left. The end
    /// ahead on a link that runs across (a packet leaves a card's side, so its back end touches
    /// the card), the left on one that runs down. [`badge_at`] moves it where a card is.
    pub end: f64,
}

/// The radius of a ring's badge; its number is drawn at 12 units (12 CSS px or more on a
/// phone: issue 42, item 7).
pub const BADGE_R: f64 = 9.0;

/// The radius of `v`'s badge: [`BADGE_R`], wider for a two-character mark (`B1`).
pub fn badge_r(v: &RingView) -> f64 {
    if v.mark.chars().count() > 1 {
        BADGE_R + 3.5
    } else {
        BADGE_R
    }
}

/// The ring's size round its pill.
pub fn ring_size(v: &RingView) -> (f64, f64) {
    (v.w + 6.0, v.h + 6.0)
}

/// The box of a ring of `size` ([`ring_size`]) round its pill centred at `at`, relative to `at`
/// (left, top, width, height), drawn in from the drawing's edges so a ring is never cut (a pill near an edge
/// keeps its ring on the side away from it; issue 42, item 7's phone at 360 px).
pub fn ring_box(layout: Layout, at: Point, size: (f64, f64)) -> (f64, f64, f64, f64) {
    let (w, h) = size;
    let (width, height) = layout.size();
    let edge = 1.5;
    let left = (-w / 2.0).max(edge - at.x);
    let right = (w / 2.0).min(width - edge - at.x);
    let top = (-h / 2.0).max(edge - at.y);
    let bottom = (h / 2.0).min(height - edge - at.y);
    (left, top, (right - left).max(0.0), (bottom - top).max(0.0))
}

/// Where each ring is (its pill's centre) and where its badge goes from there, at `now`, in
/// the order of `rings` (`None` for a packet no longer in flight). A badge goes to the end
/// [`RingView::end`] names, else to the other end, else above the ring, else below it: the
/// first place clear of every card, of the other rings, of the badges placed before it and of
/// the packets lost at the step ([`lost_here`]): a badge never covers a node's card, a packet,
/// a broken one or another badge.
pub fn place_badges(
    layout: Layout,
    world: &World,
    now: f64,
    reduced_motion: bool,
    catalog: &Catalog,
    rings: &[RingView],
) -> Vec<Option<(Point, Point)>> {
    let (cw, ch) = layout.card();
    let (width, height) = layout.size();
    // Every badge is kept as far from the rest as the widest one needs.
    let r = rings.iter().map(badge_r).fold(BADGE_R, f64::max);
    let margin = r + 1.0;
    let cards: Vec<Point> = world
        .scenario()
        .story
        .nodes()
        .iter()
        .map(|&node| layout.center(node))
        .collect();
    let at: Vec<Option<Point>> = rings
        .iter()
        .map(|v| packet_at(layout, world, MsgId(v.id), now, reduced_motion, catalog))
        .collect();
    let lost = lost_here(layout, world, reduced_motion, catalog);
    let mut placed: Vec<Point> = Vec::new();
    rings
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let here = at[i]?;
            let (w, h) = ring_size(v);
            let clear = |b: &Point| {
                let (x, y) = (here.x + b.x, here.y + b.y);
                let inside =
                    x >= margin && x <= width - margin && y >= margin && y <= height - margin;
                inside
                    && cards.iter().all(|c| {
                        (x - c.x).abs() > cw / 2.0 + margin || (y - c.y).abs() > ch / 2.0 + margin
                    })
                    && rings.iter().zip(&at).enumerate().all(|(j, (o, p))| {
                        let Some(p) = p.filter(|_| j != i) else {
                            return true;
                        };
                        let (ow, oh) = ring_size(o);
                        (x - p.x).abs() > ow / 2.0 + margin || (y - p.y).abs() > oh / 2.0 + margin
                    })
                    && placed
                        .iter()
                        .all(|q| (x - q.x).abs() > 2.0 * margin || (y - q.y).abs() > 2.0 * margin)
                    && lost.iter().all(|(_, q, g)| {
                        (x - q.x).abs() > g.w / 2.0 + margin || (y - q.y).abs() > g.h / 2.0 + margin
                    })
            };
            let ends = [
                Point {
                    x: v.end * w / 2.0,
                    y: 0.0,
                },
                Point {
                    x: -v.end * w / 2.0,
                    y: 0.0,
                },
                Point {
                    x: 0.0,
                    y: -h / 2.0 - r,
                },
                Point {
                    x: 0.0,
                    y: h / 2.0 + r,
                },
            ];
            let badge = ends.into_iter().find(clear).unwrap_or(ends[0]);
            placed.push(Point {
                x: here.x + badge.x,
                y: here.y + badge.y,
            });
            Some((here, badge))
        })
        .collect()
}

/// The rings of `world`'s packets in flight, in the network's order: none unless two parties
/// or more are alive in the visible step on screen.
pub fn ring_views(layout: Layout, world: &World, catalog: &Catalog) -> Vec<RingView> {
    if !several_alive(world) {
        return Vec::new();
    }
    let names = ShortNames::of(world);
    world
        .network()
        .in_flight()
        .filter_map(|m| {
            let party = world.speaker_of(m.id)?.party;
            let (mark, tone) = party_badge(world, party);
            let pill = Pill::new(
                &packet_label(m, &names, catalog),
                layout.label_px(),
                layout.gap(m.from, m.to),
            );
            let (from, to) = (layout.center(m.from), layout.center(m.to));
            let (dx, dy) = (to.x - from.x, to.y - from.y);
            let end = if dx.abs() > dy.abs() {
                dx.signum()
            } else {
                -1.0
            };
            Some(RingView {
                id: m.id.0,
                mark,
                name: format!(
                    "{} {}",
                    msg_tag(MsgId(m.id.0)),
                    party_name(party, world, catalog)
                ),
                tone,
                w: pill.w,
                h: pill.h,
                end,
            })
        })
        .collect()
}

/// A badge at the API's card: an attempt whose handler works there with no packet in flight
/// (a stalled handler sends nothing), while two requests or more are alive (#42, the review of
/// stop 54: the lease runs' legend listed attempt 1 while nothing in the drawing wore its
/// badge).
#[derive(Clone, Debug, PartialEq)]
pub struct HandlerBadge {
    /// The badge's text, as on the rings ([`party_badge`]).
    pub mark: String,
    /// The badge's colour class.
    pub tone: &'static str,
    /// The accessible name: whose it is, "attempt 1".
    pub name: String,
    /// The badge's centre: beside the API's card, out of it (left of it on a phone, whose
    /// links come down to its top; above its left end in the wide layout, whose client link
    /// comes in at its middle), one after another.
    pub at: Point,
    /// The badge's radius ([`BADGE_R`], wider for a two-character mark).
    pub r: f64,
}

/// The badges of the attempts at the API's handlers with no packet in flight, in the order of
/// the handlers; none while one request is alive.
pub fn handler_badges(layout: Layout, world: &World, catalog: &Catalog) -> Vec<HandlerBadge> {
    if !several_alive(world) {
        return Vec::new();
    }
    let flying: Vec<Party> = world
        .network()
        .in_flight()
        .filter_map(|m| Some(world.speaker_of(m.id)?.party))
        .collect();
    let mut parties: Vec<Party> = Vec::new();
    for (_, handler) in world.api().handlers() {
        let party = match handler.request_msg {
            Some(id) => match world.speaker_of(id) {
                Some(s) => s.party,
                None => continue,
            },
            None => Party::Recovery,
        };
        if !flying.contains(&party) && !parties.contains(&party) {
            parties.push(party);
        }
    }
    let api = layout.center(Node::Api);
    let (cw, ch) = layout.card();
    let r = BADGE_R + 3.5;
    let step = 2.0 * r + 4.0;
    let n = parties.len() as f64;
    parties
        .into_iter()
        .enumerate()
        .map(|(k, party)| {
            let (mark, tone) = party_badge(world, party);
            let at = if layout == Layout::Tall {
                Point {
                    x: api.x - cw / 2.0 - r - 4.0,
                    y: api.y + (k as f64 - (n - 1.0) / 2.0) * step,
                }
            } else {
                Point {
                    x: api.x - cw / 2.0 + r + 4.0 + k as f64 * step,
                    y: api.y - ch / 2.0 - r - 4.0,
                }
            };
            HandlerBadge {
                r: if mark.chars().count() > 1 {
                    BADGE_R + 3.5
                } else {
                    BADGE_R
                },
                mark,
                tone,
                name: party_name(party, world, catalog),
                at,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::stage::topology::lost_here;
    use crate::test_support::worlds;
    use idem_core::message::Payload;
    use idem_core::Party;

    /// The lease runs: while attempt 1's handler is stalled at the API (no packet of its in
    /// flight) and another attempt is alive, attempt 1 wears its badge beside the API's card,
    /// named for screen readers (the legend listed it and nothing in the drawing wore it: #42,
    /// the review of stop 54); every attempt a handler works for wears its badge, on a ring or
    /// beside the API, once; with one request alive there is none.
    #[test]
    fn a_stalled_attempt_wears_its_badge_at_the_api() {
        let catalog = Lang::En.catalog();
        for id in ["lease-expiry", "lease-fencing"] {
            let mut stalled = 0;
            for world in worlds(id) {
                for layout in [Layout::Wide, Layout::Tall] {
                    let badges = handler_badges(layout, &world, catalog);
                    if !several_alive(&world) {
                        assert!(badges.is_empty(), "{badges:?}");
                        continue;
                    }
                    let rings = ring_views(layout, &world, catalog);
                    // Every attempt a handler works for wears its badge: on a packet's ring,
                    // else beside the API.
                    for (_, h) in world.api().handlers() {
                        let Some(s) = h.request_msg.and_then(|m| world.speaker_of(m)) else {
                            continue;
                        };
                        let (mark, _) = party_badge(&world, s.party);
                        let worn = rings.iter().any(|r| r.mark == mark)
                            || badges.iter().any(|b| b.mark == mark);
                        assert!(worn, "{id} {}: {mark} worn nowhere", world.steps().len());
                    }
                    for b in &badges {
                        assert!(!rings.iter().any(|r| r.mark == b.mark), "{b:?} twice");
                        assert_eq!(b.name, format!("attempt {}", b.mark), "{b:?}");
                        let (w, h) = layout.size();
                        assert!(
                            b.at.x - b.r >= 0.0
                                && b.at.x + b.r <= w
                                && b.at.y - b.r >= 0.0
                                && b.at.y + b.r <= h,
                            "{b:?}"
                        );
                        let (cw, ch) = layout.card();
                        for node in world.scenario().story.nodes() {
                            let c = layout.center(*node);
                            let off = (b.at.x - c.x).abs() >= cw / 2.0 + b.r
                                || (b.at.y - c.y).abs() >= ch / 2.0 + b.r;
                            assert!(off, "{b:?} on the card of {node:?}");
                        }
                    }
                    if badges.iter().any(|b| b.mark == "1") {
                        stalled += 1;
                    }
                }
            }
            assert!(
                stalled > 4,
                "{id}: attempt 1 badged at the API at {stalled} steps"
            );
        }
    }

    /// Retry pressed early in story 2: attempt 2's 409 is lost on the phone's link while
    /// attempt 1's 201 comes down it (#42, the review of stop 54: the 201 and its badge lay on
    /// the lost 409). At every step with a lost packet, at both layouts, no pill in flight and
    /// no badge meets a lost packet as drawn (its shards, its words under it, its cross).
    #[test]
    fn packets_and_badges_keep_off_a_lost_packet() {
        let catalog = Lang::En.catalog();
        let (mut run, errors) = crate::playback::run_from_query("scenario=key&faults=5.retry");
        assert!(errors.is_empty(), "{errors:?}");
        run.run_to_end();
        let mut checked = 0;
        for world in run.snapshots() {
            for layout in [Layout::Wide, Layout::Tall] {
                let lost = lost_here(layout, &world, false, catalog);
                if lost.is_empty() || world.network().in_flight().next().is_none() {
                    continue;
                }
                let now = world.now().ms() as f64;
                let meets = |p: Point, w: f64, h: f64| {
                    lost.iter().any(|(_, q, g)| {
                        (p.x - q.x).abs() < (w + g.w) / 2.0 && (p.y - q.y).abs() < (h + g.h) / 2.0
                    })
                };
                for m in world.network().in_flight() {
                    let at = packet_at(layout, &world, m.id, now, false, catalog).expect("drawn");
                    let names = crate::labels::ShortNames::of(&world);
                    let pill = crate::stage::topology::pill_of(layout, m, &names, catalog);
                    assert!(
                        !meets(at, pill.w, pill.h),
                        "{layout:?}: #{} on a lost packet",
                        m.id.0
                    );
                    checked += 1;
                }
                let rings = ring_views(layout, &world, catalog);
                let placed = place_badges(layout, &world, now, false, catalog, &rings);
                for (ring, place) in rings.iter().zip(placed) {
                    let (at, badge) = place.expect("placed");
                    let r = 2.0 * badge_r(ring);
                    let centre = Point {
                        x: at.x + badge.x,
                        y: at.y + badge.y,
                    };
                    assert!(
                        !meets(centre, r, r),
                        "{layout:?}: {ring:?}'s badge on a lost packet"
                    );
                }
            }
        }
        assert!(
            checked >= 2,
            "a packet in flight beside a lost one at both layouts ({checked})"
        );
    }

    #[test]
    fn the_lease_run_rings_its_packets_by_attempt_while_two_are_alive() {
        let catalog = Lang::En.catalog();
        let mut seen = Vec::new();
        for world in worlds("lease-expiry") {
            let rings = ring_views(Layout::Wide, &world, catalog);
            if !several_alive(&world) {
                assert!(rings.is_empty(), "{rings:?}");
                continue;
            }
            assert_eq!(rings.len(), world.network().in_flight().count());
            for ring in rings {
                let m = world.network().get(MsgId(ring.id)).expect("in flight");
                let Some(Party::Attempt(a)) = world.speaker_of(m.id).map(|s| s.party) else {
                    panic!("a lease run's packet belongs to an attempt: {ring:?}");
                };
                assert_eq!(ring.mark, a.number.to_string(), "{ring:?}");
                assert!(
                    ring.name.ends_with(&format!("attempt {}", a.number)),
                    "{ring:?}"
                );
                if let Payload::Request(r) = &m.payload {
                    assert_eq!(r.attempt, a.number);
                }
                seen.push((ring.mark, ring.tone));
            }
        }
        // Attempt 1 and another are ringed, each in its own colour.
        assert!(seen.contains(&("1".to_owned(), "ring-1")), "{seen:?}");
        assert!(
            seen.iter()
                .any(|(mark, tone)| mark != "1" && *tone != "ring-1"),
            "{seen:?}"
        );
    }

    #[test]
    fn a_ring_and_its_badge_stay_inside_the_drawing() {
        let catalog = Lang::Ru.catalog();
        let runs = ["lease-expiry", "lease-fencing", "cas-race", "concurrent"];
        let mut drawn_in = 0;
        for layout in [Layout::Wide, Layout::Tall] {
            let (width, height) = layout.size();
            for world in runs.into_iter().flat_map(worlds) {
                let rings = ring_views(layout, &world, catalog);
                let now = world.now().ms() as f64;
                let placed = place_badges(layout, &world, now, false, catalog, &rings);
                for (v, (at, b)) in rings.iter().zip(placed.iter().flatten()) {
                    let (x, y, w, h) = ring_box(layout, *at, ring_size(v));
                    let (x, y) = (at.x + x, at.y + y);
                    assert!(x >= 0.0 && y >= 0.0, "{layout:?} {v:?}");
                    assert!(x + w <= width && y + h <= height, "{layout:?} {v:?}");
                    drawn_in += usize::from((w, h) != ring_size(v));
                    let (bx, by) = (at.x + b.x, at.y + b.y);
                    let r = badge_r(v);
                    assert!(bx >= r && bx <= width - r, "{layout:?} {v:?}");
                    assert!(by >= r && by <= height - r, "{layout:?} {v:?}");
                }
            }
        }
        // The phone's lease run puts a ringed pill at the drawing's right edge (step 20).
        assert!(
            drawn_in > 0,
            "no ring met an edge: the test no longer tests the edge"
        );
    }

    #[test]
    fn a_run_with_one_request_alive_has_no_ring() {
        for id in ["naive", "key", "cas"] {
            for world in worlds(id) {
                assert_eq!(
                    ring_views(Layout::Tall, &world, Lang::Ru.catalog()),
                    Vec::new(),
                    "{id}"
                );
            }
        }
    }

    #[test]
    fn a_badge_never_covers_a_card_a_packet_or_another_badge() {
        let catalog = Lang::En.catalog();
        for (layout, reduced) in [
            (Layout::Wide, false),
            (Layout::Tall, false),
            (Layout::Wide, true),
        ] {
            let (cw, ch) = layout.card();
            let runs = ["lease-expiry", "lease-fencing", "cas-race", "concurrent"];
            for world in runs.into_iter().flat_map(worlds) {
                let rings = ring_views(layout, &world, catalog);
                let now = world.now().ms() as f64;
                let placed = place_badges(layout, &world, now, reduced, catalog, &rings);
                let badges: Vec<(Point, Point)> = placed.iter().flatten().copied().collect();
                assert_eq!(badges.len(), rings.len());
                for (i, (at, b)) in badges.iter().enumerate() {
                    let (x, y) = (at.x + b.x, at.y + b.y);
                    for &node in world.scenario().story.nodes() {
                        let c = layout.center(node);
                        assert!(
                            (x - c.x).abs() > cw / 2.0 + BADGE_R
                                || (y - c.y).abs() > ch / 2.0 + BADGE_R,
                            "{layout:?} {:?} over {node:?}",
                            rings[i]
                        );
                    }
                    for (j, (other, ob)) in badges.iter().enumerate().filter(|(j, _)| *j != i) {
                        let (ow, oh) = ring_size(&rings[j]);
                        assert!(
                            (x - other.x).abs() > ow / 2.0 + BADGE_R
                                || (y - other.y).abs() > oh / 2.0 + BADGE_R,
                            "{layout:?} {:?} over {:?}",
                            rings[i],
                            rings[j]
                        );
                        let (ox, oy) = (other.x + ob.x, other.y + ob.y);
                        assert!(
                            (x - ox).abs() > 2.0 * BADGE_R || (y - oy).abs() > 2.0 * BADGE_R,
                            "{layout:?} two badges meet: {:?} {:?}",
                            rings[i],
                            rings[j]
                        );
                    }
                }
            }
        }
    }
}
