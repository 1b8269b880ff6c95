//! Pure geometry of the drawings: where the nodes sit, where a packet is along its link at a
//! given simulated time, and the columns of the sequence diagram. No browser types, so it is
//! unit-tested natively.

use idem_core::{Link, Node, SimTime};

/// A point in SVG user units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Horizontal, growing right.
    pub x: f64,
    /// Vertical, growing down.
    pub y: f64,
}

impl Point {
    fn lerp(self, to: Point, f: f64) -> Point {
        Point {
            x: self.x + (to.x - self.x) * f,
            y: self.y + (to.y - self.y) * f,
        }
    }
}

/// How the topology is laid out: side by side on wide screens, stacked on phones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Client left, API centre, the three backends in a column on the right.
    Wide,
    /// Two cards a row, the API alone between the rows: the client and the idempotency store
    /// above it, the ledger and the processor below (phones, and each side of a comparison).
    /// 320 units wide, so a 360 px phone (a drawing about 322 px wide) shows its 12-unit text
    /// at 12.1 px; every link runs down a band of its own, where a long packet has room; 488
    /// tall (the bands over and under the API 114 units each), so the drawing and the playback
    /// bar stuck under it, with a step's words of up to seven lines, fit a 740 px screen.
    Tall,
}

impl Layout {
    /// The layout for a lesson (page or widget) `width` CSS px wide: the phone's up to 640 px.
    pub fn for_width(width: f64) -> Layout {
        if width <= 640.0 {
            Layout::Tall
        } else {
            Layout::Wide
        }
    }

    /// Width and height of the drawing in SVG units. The wide one is drawn 900 px wide or more
    /// at 1280 px (web/style.css, `.stage`), so its 12-unit text is 12 CSS px or more there, and
    /// 392 tall, so the stories, the whole drawing and Play fit a 1280 × 800 screen.
    pub fn size(self) -> (f64, f64) {
        match self {
            Layout::Wide => (900.0, 392.0),
            Layout::Tall => (320.0, 488.0),
        }
    }

    /// The `viewBox` attribute.
    pub fn view_box(self) -> String {
        let (w, h) = self.size();
        format!("0 0 {} {}", w as u32, h as u32)
    }

    /// Width and height of a node card.
    pub fn card(self) -> (f64, f64) {
        match self {
            Layout::Wide => (164.0, 96.0),
            Layout::Tall => (152.0, 84.0),
        }
    }

    /// Font size of packet labels.
    pub fn label_px(self) -> f64 {
        match self {
            Layout::Wide => 12.5,
            Layout::Tall => 12.0,
        }
    }

    /// The centre of a node's card.
    pub fn center(self, node: Node) -> Point {
        let (x, y) = match (self, node) {
            (Layout::Wide, Node::Client) => (88.0, 196.0),
            (Layout::Wide, Node::Api) => (420.0, 196.0),
            (Layout::Wide, Node::Store) => (808.0, 52.0),
            (Layout::Wide, Node::Ledger) => (808.0, 196.0),
            (Layout::Wide, Node::Processor) => (808.0, 340.0),
            (Layout::Tall, Node::Client) => (80.0, 46.0),
            (Layout::Tall, Node::Api) => (160.0, 244.0),
            (Layout::Tall, Node::Store) => (240.0, 46.0),
            (Layout::Tall, Node::Ledger) => (80.0, 442.0),
            (Layout::Tall, Node::Processor) => (240.0, 442.0),
        };
        Point { x, y }
    }

    /// Where the segment from `node`'s centre towards `toward` leaves the node's card.
    pub fn card_edge(self, node: Node, toward: Point) -> Point {
        let c = self.center(node);
        let (w, h) = self.card();
        let (dx, dy) = (toward.x - c.x, toward.y - c.y);
        let tx = if dx == 0.0 {
            f64::INFINITY
        } else {
            (w / 2.0) / dx.abs()
        };
        let ty = if dy == 0.0 {
            f64::INFINITY
        } else {
            (h / 2.0) / dy.abs()
        };
        let t = tx.min(ty).min(1.0);
        Point {
            x: c.x + dx * t,
            y: c.y + dy * t,
        }
    }

    /// The visible part of a link: from the edge of the API's card to the edge of the peer's.
    pub fn link_ends(self, link: Link) -> (Point, Point) {
        let api = self.center(Node::Api);
        let peer = self.center(link.peer());
        (
            self.card_edge(Node::Api, peer),
            self.card_edge(link.peer(), api),
        )
    }

    /// Where a packet from `from` to `to` is drawn at `progress` (0 = leaving, 1 = arriving).
    /// Requests and replies travel in two lanes either side of the link so they never overlap.
    pub fn packet_point(self, from: Node, to: Node, progress: f64, reply: bool) -> Point {
        let a = self.card_edge(from, self.center(to));
        let b = self.card_edge(to, self.center(from));
        let p = a.lerp(b, progress.clamp(0.0, 1.0));
        // Lanes are fixed per link (measured from the API towards the peer), so a request and
        // its reply pass each other instead of overlapping.
        let peer = if from == Node::Api { to } else { from };
        let api = self.card_edge(Node::Api, self.center(peer));
        let far = self.card_edge(peer, self.center(Node::Api));
        let (dx, dy) = (far.x - api.x, far.y - api.y);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let lane = if reply { 13.0 } else { -13.0 };
        Point {
            x: p.x - dy / len * lane,
            y: p.y + dx / len * lane,
        }
    }

    /// The unit vector from a link towards the outer side of the lane a packet from `from` to
    /// `to` travels in (the way a packet moves when it must make room: see
    /// `stage::topology::packet_at`).
    pub fn lane_out(self, from: Node, to: Node, reply: bool) -> (f64, f64) {
        let on = self.packet_point(from, to, 0.5, reply);
        let mid = self
            .card_edge(from, self.center(to))
            .lerp(self.card_edge(to, self.center(from)), 0.5);
        let (dx, dy) = (on.x - mid.x, on.y - mid.y);
        let len = (dx * dx + dy * dy).sqrt().max(f64::EPSILON);
        (dx / len, dy / len)
    }

    /// Font size of a node card's status line (the drawing's units; web/style.css sets the same
    /// sizes: 12.5 px, and 12 px where the tall layout is drawn: web/path.css on a phone,
    /// style.css in a widget up to 640 px).
    pub fn status_px(self) -> f64 {
        match self {
            Layout::Wide => 12.5,
            Layout::Tall => 12.0,
        }
    }

    /// How wide a line of a card's status may be: the card less its margins (14 units each side
    /// on the wide card, where it starts at x = 14; 5 on the tall one, where it is centred).
    pub fn status_room(self) -> f64 {
        match self {
            Layout::Wide => self.card().0 - 28.0,
            Layout::Tall => self.card().0 - 10.0,
        }
    }

    /// The baselines (y inside the card) of a status drawn on `lines` lines: one line where it
    /// always was, two a line higher and a line lower, above the card's bottom edge.
    pub fn status_baselines(self, lines: usize) -> Vec<f64> {
        match (self, lines) {
            (Layout::Wide, 1) => vec![80.0],
            (Layout::Wide, _) => vec![72.0, 86.0],
            (Layout::Tall, 1) => vec![73.0],
            (Layout::Tall, _) => vec![67.0, 80.0],
        }
    }
    /// Distance between the card edges of `a` and `b` along the line joining their centres.
    pub fn gap(self, a: Node, b: Node) -> f64 {
        let p = self.card_edge(a, self.center(b));
        let q = self.card_edge(b, self.center(a));
        ((q.x - p.x).powi(2) + (q.y - p.y).powi(2)).sqrt()
    }
}

/// How far a packet sent at `sent` and due at `due` has travelled at time `now_ms` (0..=1).
pub fn progress(now_ms: f64, sent: SimTime, due: SimTime) -> f64 {
    let (s, d) = (sent.ms() as f64, due.ms() as f64);
    if d <= s {
        return 1.0;
    }
    ((now_ms - s) / (d - s)).clamp(0.0, 1.0)
}

/// The progress to draw for a pill `pill_w` wide on a gap `gap` long: real progress, kept off
/// the cards so a pill never hides a node (the middle when the gap is too short); with reduced
/// motion, always the middle of the link.
pub fn drawn_progress(progress: f64, reduced_motion: bool, gap: f64, pill_w: f64) -> f64 {
    if reduced_motion {
        return 0.5;
    }
    let margin = ((pill_w / 2.0 + 6.0) / gap.max(1.0)).min(0.5);
    margin + (1.0 - 2.0 * margin) * progress.clamp(0.0, 1.0)
}

/// Width of a rounded pill holding `label` in a font of `px` (monospace-ish estimate).
pub fn pill_width(label: &str, px: f64) -> f64 {
    label.chars().count() as f64 * px * 0.62 + px * 1.4
}

/// A label cut into the lines it is drawn on: one when it is at most `room` wide (estimated
/// as a pill's text: `pill_width` less its ends), else two: before and after its first " · "
/// (a packet's caption joins what it carries that way) or, without one, at the space nearest
/// its middle. A label without a space stays on one line. Two lines keep a long packet
/// between the cards it travels between, and a long status inside its card.
pub fn label_lines(label: &str, px: f64, room: f64) -> Vec<String> {
    if pill_width(label, px) - px * 1.4 <= room {
        return vec![label.to_owned()];
    }
    if let Some((a, b)) = label.split_once(" · ") {
        return vec![a.to_owned(), b.to_owned()];
    }
    let middle = label.chars().count() / 2;
    let cut = label
        .char_indices()
        .filter(|(_, c)| *c == ' ')
        .map(|(at, _)| at)
        .min_by_key(|&at| label[..at].chars().count().abs_diff(middle));
    match cut {
        Some(at) => vec![label[..at].to_owned(), label[at + 1..].to_owned()],
        None => vec![label.to_owned()],
    }
}

/// The shape of a packet's pill: its lines (`label_lines`), width and height, for a label of
/// `px` on a link `gap` long (the pill keeps 6 units off each card).
#[derive(Clone, Debug, PartialEq)]
pub struct Pill {
    /// The caption's lines, top first.
    pub lines: Vec<String>,
    /// The pill's width.
    pub w: f64,
    /// The pill's height.
    pub h: f64,
    /// The font size.
    pub px: f64,
}

impl Pill {
    /// The pill of `label` at `px` on a link `gap` long.
    pub fn new(label: &str, px: f64, gap: f64) -> Pill {
        let lines = label_lines(label, px, gap - 12.0 - px * 1.4);
        let w = lines.iter().map(|l| pill_width(l, px)).fold(0.0, f64::max);
        let h = px * 1.9 + (lines.len() - 1) as f64 * px * Pill::LEADING;
        Pill { lines, w, h, px }
    }

    /// Distance between two lines' baselines, in font sizes.
    const LEADING: f64 = 1.2;

    /// The baseline of line `i`, from the pill's centre.
    pub fn baseline(&self, i: usize) -> f64 {
        -self.h / 2.0 + self.px * 0.95 + self.px * 0.36 + i as f64 * self.px * Pill::LEADING
    }
}

/// Width of the sequence diagram in SVG units.
pub const SEQ_WIDTH: f64 = 720.0;
/// Height of the lifeline heads.
pub const SEQ_HEAD: f64 = 44.0;
/// Vertical distance between two messages.
pub const SEQ_ROW: f64 = 26.0;

/// The x of a node's lifeline in the sequence diagram of a story drawing `nodes`: the lanes
/// share the width evenly.
pub fn lifeline_x(nodes: &[Node], node: Node) -> f64 {
    let index = nodes.iter().position(|n| *n == node).unwrap_or(0) as f64;
    let lane = SEQ_WIDTH / nodes.len().max(1) as f64;
    lane / 2.0 + index * lane
}

/// The y of the `row`-th message of the sequence diagram.
pub fn row_y(row: usize) -> f64 {
    SEQ_HEAD + 18.0 + row as f64 * SEQ_ROW
}

/// Total height of a sequence diagram with `rows` messages.
pub fn seq_height(rows: usize) -> f64 {
    row_y(rows.max(1)) + 8.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_too_wide_is_cut_at_its_dot_or_nearest_its_middle() {
        assert_eq!(
            label_lines("INSERT charges", 12.5, 200.0),
            ["INSERT charges"]
        );
        assert_eq!(
            label_lines("wrote nothing · found 1 row", 12.5, 150.0),
            ["wrote nothing", "found 1 row"]
        );
        assert_eq!(
            label_lines("PATCH /accounts/1 −20 v5", 12.5, 150.0),
            ["PATCH /accounts/1", "−20 v5"]
        );
        assert_eq!(
            label_lines("idem:user_1:K1", 12.5, 20.0),
            ["idem:user_1:K1"]
        );
        // A two-line pill is taller, and as wide as its longer line.
        let pill = Pill::new("PATCH /accounts/1 −20 v5", 12.5, 168.0);
        assert_eq!(pill.lines.len(), 2);
        assert_eq!(pill.w, pill_width("PATCH /accounts/1", 12.5));
        assert!(pill.w <= 168.0 - 12.0, "between the cards");
        assert!(pill.h > 12.5 * 1.9 + 12.5);
        assert_eq!(
            pill.baseline(0),
            Pill::new("OK", 12.5, 168.0).baseline(0) - 12.5 * 0.6
        );
    }

    #[test]
    fn the_lane_points_away_from_the_link() {
        for layout in [Layout::Wide, Layout::Tall] {
            for reply in [false, true] {
                let (x, y) = layout.lane_out(Node::Client, Node::Api, reply);
                assert!(((x * x + y * y).sqrt() - 1.0).abs() < 1e-9);
                let on = layout.packet_point(Node::Client, Node::Api, 0.5, reply);
                let further = layout.packet_point(Node::Api, Node::Client, 0.5, reply);
                // Both directions of one lane are the same side.
                assert!((on.x - further.x).abs() < 1e-9 && (on.y - further.y).abs() < 1e-9);
            }
        }
    }

    fn inside_card(layout: Layout, node: Node, p: Point) -> bool {
        let c = layout.center(node);
        let (w, h) = layout.card();
        (p.x - c.x).abs() <= w / 2.0 + 1e-9 && (p.y - c.y).abs() <= h / 2.0 + 1e-9
    }

    #[test]
    fn nodes_fit_the_drawing_and_do_not_overlap() {
        for layout in [Layout::Wide, Layout::Tall] {
            let (w, h) = layout.size();
            let (cw, ch) = layout.card();
            for a in Node::ALL {
                let c = layout.center(a);
                assert!(
                    c.x - cw / 2.0 >= 0.0 && c.x + cw / 2.0 <= w,
                    "{layout:?} {a:?} x"
                );
                assert!(
                    c.y - ch / 2.0 >= 0.0 && c.y + ch / 2.0 <= h,
                    "{layout:?} {a:?} y"
                );
                for b in Node::ALL.into_iter().filter(|b| *b != a) {
                    let d = layout.center(b);
                    let apart = (c.x - d.x).abs() >= cw || (c.y - d.y).abs() >= ch;
                    assert!(apart, "{layout:?}: {a:?} overlaps {b:?}");
                }
            }
        }
    }

    #[test]
    fn links_run_from_card_edge_to_card_edge() {
        for layout in [Layout::Wide, Layout::Tall] {
            for link in Link::ALL {
                let (a, b) = layout.link_ends(link);
                assert!(inside_card(layout, Node::Api, a));
                assert!(inside_card(layout, link.peer(), b));
                assert!(!inside_card(layout, Node::Api, b));
            }
        }
        let (a, b) = Layout::Wide.link_ends(Link::ClientApi);
        assert_eq!(
            a,
            Point {
                x: 420.0 - 82.0,
                y: 196.0
            }
        );
        assert_eq!(
            b,
            Point {
                x: 88.0 + 82.0,
                y: 196.0
            }
        );
    }

    /// Issue #42 item 7: a 360 px phone draws the tall layout about 322 px wide; its packets'
    /// and statuses' text (web/path.css: titles 13.5) is 12 CSS px or more down to 320 px.
    #[test]
    fn the_tall_drawing_shows_its_text_at_12_px_on_a_phone() {
        let scale = 320.0 / Layout::Tall.size().0;
        assert!(Layout::Tall.label_px() * scale >= 12.0);
        assert!(Layout::Tall.status_px() * scale >= 12.0);
        for (width, layout) in [
            (360.0, Layout::Tall),
            (640.0, Layout::Tall),
            (641.0, Layout::Wide),
            (1280.0, Layout::Wide),
        ] {
            assert_eq!(Layout::for_width(width), layout, "{width}");
        }
    }

    /// Every link runs through free space: no card but its two ends is on it, so a packet
    /// travelling it covers no third node.
    #[test]
    fn links_cross_no_other_card() {
        for layout in [Layout::Wide, Layout::Tall] {
            for link in Link::ALL {
                let (a, b) = layout.link_ends(link);
                for node in Node::ALL
                    .into_iter()
                    .filter(|n| ![Node::Api, link.peer()].contains(n))
                {
                    for i in 0..=20 {
                        let p = a.lerp(b, f64::from(i) / 20.0);
                        assert!(
                            !inside_card(layout, node, p),
                            "{layout:?} {link:?} on {node:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn progress_follows_simulated_time() {
        let (s, d) = (SimTime(1_000), SimTime(1_300));
        assert_eq!(progress(900.0, s, d), 0.0);
        assert_eq!(progress(1_000.0, s, d), 0.0);
        assert_eq!(progress(1_150.0, s, d), 0.5);
        assert_eq!(progress(2_000.0, s, d), 1.0);
        assert_eq!(progress(5.0, SimTime(10), SimTime(10)), 1.0);
    }

    #[test]
    fn a_packet_moves_from_sender_to_receiver() {
        let l = Layout::Wide;
        let start = l.packet_point(Node::Client, Node::Api, 0.0, false);
        let mid = l.packet_point(Node::Client, Node::Api, 0.5, false);
        let end = l.packet_point(Node::Client, Node::Api, 1.0, false);
        assert!(start.x < mid.x && mid.x < end.x);
        assert!((mid.x - (88.0 + 420.0) / 2.0).abs() < 1e-9);
        // The reply travels back in the other lane.
        let back = l.packet_point(Node::Api, Node::Client, 0.5, true);
        assert!((back.x - mid.x).abs() < 1e-9);
        assert!((back.y - mid.y).abs() >= 20.0);
        // Out-of-range progress is clamped to the link.
        assert_eq!(
            l.packet_point(Node::Api, Node::Store, 7.0, false),
            l.packet_point(Node::Api, Node::Store, 1.0, false)
        );
    }

    #[test]
    fn drawn_progress_keeps_pills_off_the_cards_and_honours_reduced_motion() {
        // A 100-unit pill on a 400-unit gap: its centre stays 56 units from either card.
        assert!((drawn_progress(0.0, false, 400.0, 100.0) - 0.14).abs() < 1e-9);
        assert!((drawn_progress(1.0, false, 400.0, 100.0) - 0.86).abs() < 1e-9);
        assert_eq!(
            drawn_progress(0.3, false, 80.0, 100.0),
            0.5,
            "too short: the middle"
        );
        assert_eq!(drawn_progress(0.1, true, 400.0, 10.0), 0.5);
        assert_eq!(drawn_progress(0.9, true, 400.0, 10.0), 0.5);
        // The wide layout leaves room for the longest label between client and API.
        let l = Layout::Wide;
        assert!(l.gap(Node::Client, Node::Api) > pill_width("POST /charges · K1", l.label_px()));
    }

    #[test]
    fn pills_grow_with_their_label() {
        assert!(pill_width("POST /charges · K1", 13.0) > pill_width("OK", 13.0));
        assert!(pill_width("OK", 13.0) > 20.0);
    }

    #[test]
    fn lifelines_are_evenly_spaced_in_node_order() {
        let xs: Vec<f64> = Node::ALL.map(|n| lifeline_x(&Node::ALL, n)).to_vec();
        assert_eq!(xs[0], 72.0);
        for pair in xs.windows(2) {
            assert!((pair[1] - pair[0] - 144.0).abs() < 1e-9);
        }
        assert!(xs[4] < SEQ_WIDTH);
        let three = [Node::Client, Node::Api, Node::Ledger];
        assert_eq!(lifeline_x(&three, Node::Client), 120.0);
        assert_eq!(lifeline_x(&three, Node::Ledger), 600.0);
        assert!(row_y(1) - row_y(0) == SEQ_ROW);
        assert!(seq_height(3) > row_y(2));
    }
}
