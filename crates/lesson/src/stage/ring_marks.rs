//! The marks of who is speaking in the drawing (issue 42, items 1 and 7; the stop-52 review):
//! each party's badge text and colour, the same on a packet's ring, in the sequence diagram and
//! in the rings' legend. Where the phone runs two operations (`cas-race`: two debits, each on
//! its attempt 1) a badge leads with its operation's letter, `A1` and `B1`, so two first
//! attempts never both read "1". Only the lesson's bundle draws them.

use idem_core::{MsgId, Party, World};

use crate::i18n::Catalog;
use crate::text::speaker::{party_name, several_alive};

/// The colour classes of the attempts' badges, in turn (`web/later.css`: none is a packet's or
/// a node's hue).
const TONES: [&str; 4] = ["ring-1", "ring-2", "ring-3", "ring-4"];

/// A party's badge: its text (`3`, `B1`, `R` for the recovery job) and its colour's class.
pub fn party_badge(world: &World, party: Party) -> (String, &'static str) {
    let Party::Attempt(a) = party else {
        return ("R".to_owned(), "ring-r");
    };
    // Attempt n of the first operation takes the n-th colour; another operation's attempts
    // start one colour further on, so A1 and B1 differ in colour too.
    let tone = TONES[(a.op.0 as usize + a.number as usize + 3) % TONES.len()];
    match op_letter(world, party) {
        Some(letter) => (format!("{letter}{}", a.number), tone),
        None => (a.number.to_string(), tone),
    }
}

/// The operation's letter (`A`, `B`, …) of an attempt, where the phone runs two operations or
/// more; `None` where it runs one, and for the recovery job.
pub fn op_letter(world: &World, party: Party) -> Option<char> {
    let Party::Attempt(a) = party else {
        return None;
    };
    (world.client().ops().len() > 1)
        .then(|| char::from_u32(u32::from(b'A') + a.op.0 % 26))
        .flatten()
}

/// The sequence diagram's badge for message `id`: `mark` (the attempt's circled number), led by
/// its operation's letter where the phone runs two operations (`B②`).
pub fn sequence_mark(world: &World, id: MsgId, mark: String) -> String {
    let letter = world.speaker_of(id).and_then(|s| op_letter(world, s.party));
    match letter {
        Some(letter) => format!("{letter}{mark}"),
        None => mark,
    }
}

/// One line of the rings' legend: a badge as drawn, and whose it is in words.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LegendEntry {
    /// The badge's text, as on the rings.
    pub mark: String,
    /// The badge's colour class.
    pub tone: &'static str,
    /// Whose packets wear it ("attempt 3", "second request, attempt 1").
    pub who: String,
}

/// The legend of who is speaking at the visible step `world` ends in: one entry a party that
/// is alive at it, speaks in it (the phone taking attempt 1's late answer: issue 42, stop 53)
/// or has a packet in flight, in the order of their badges; empty while one request is alive
/// (no ring, no badge is drawn then).
pub fn ring_legend(world: &World, catalog: &Catalog) -> Vec<LegendEntry> {
    if !several_alive(world) {
        return Vec::new();
    }
    let tail = crate::fold::visible_tail(world.steps());
    let alive = tail
        .first()
        .map(|step| step.alive(world))
        .unwrap_or_default();
    let speaking = tail
        .iter()
        .flat_map(|step| step.speakers(world))
        .flatten()
        .map(|s| s.party);
    let in_flight = world
        .network()
        .in_flight()
        .filter_map(|m| Some(world.speaker_of(m.id)?.party));
    let mut entries: Vec<LegendEntry> = Vec::new();
    for party in alive.into_iter().chain(speaking).chain(in_flight) {
        let (mark, tone) = party_badge(world, party);
        if entries.iter().any(|e| e.mark == mark) {
            continue;
        }
        entries.push(LegendEntry {
            mark,
            tone,
            who: party_name(party, world, catalog),
        });
    }
    entries.sort_by(|a, b| a.mark.cmp(&b.mark));
    entries
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Layout;
    use crate::i18n::Lang;
    use crate::stage::rings::ring_views;
    use crate::test_support::worlds;

    /// `cas-race`'s two debits are each on their attempt 1: their badges read A1 and B1, in two
    /// colours, on the rings and in the legend (both read "1" at the stop-52 review).
    #[test]
    fn two_operations_first_attempts_wear_two_badges() {
        let catalog = Lang::En.catalog();
        let mut both = 0;
        for world in worlds("cas-race") {
            let rings = ring_views(Layout::Wide, &world, catalog);
            let marks: Vec<&str> = rings.iter().map(|r| r.mark.as_str()).collect();
            if marks.contains(&"A1") && marks.contains(&"B1") {
                both += 1;
                let tones: Vec<_> = rings.iter().map(|r| r.tone).collect();
                assert_ne!(tones[0], tones[1], "{rings:?}");
                let legend = ring_legend(&world, catalog);
                let shown: Vec<&str> = legend.iter().map(|e| e.mark.as_str()).collect();
                assert_eq!(shown, ["A1", "B1"], "{legend:?}");
                assert_ne!(legend[0].who, legend[1].who);
            }
            assert!(!marks.contains(&"1"), "{marks:?}");
        }
        assert!(both > 3, "A1 and B1 in flight together at {both} steps");
    }

    /// One operation: badges are the attempt's number; the legend names each attempt with a
    /// packet in flight, and every attempt alive or speaking at the step (stop 53's review:
    /// the phone taking attempt 1's 409 had only "③ attempt 3" under the drawing); it is
    /// empty while one request is alive.
    #[test]
    fn the_legend_names_every_attempt_alive_speaking_or_in_flight() {
        for lang in [Lang::En, Lang::Ru] {
            let catalog = lang.catalog();
            let mut seen = 0;
            for id in ["lease-expiry", "lease-fencing", "concurrent-no-lock"] {
                for world in worlds(id) {
                    let legend = ring_legend(&world, catalog);
                    let rings = ring_views(Layout::Tall, &world, catalog);
                    if !several_alive(&world) {
                        assert!(legend.is_empty() && rings.is_empty(), "{legend:?}");
                        continue;
                    }
                    seen += 1;
                    for ring in &rings {
                        let entry = legend.iter().find(|e| e.mark == ring.mark);
                        let entry = entry.unwrap_or_else(|| panic!("{ring:?} not in {legend:?}"));
                        assert_eq!(entry.tone, ring.tone);
                        assert!(ring.name.ends_with(&entry.who), "{ring:?} {entry:?}");
                        assert!(entry.mark.parse::<u32>().is_ok(), "{entry:?}");
                    }
                    let tail = crate::fold::visible_tail(world.steps());
                    let speaking = tail.iter().flat_map(|s| s.speakers(&world)).flatten();
                    let parties = tail[0].alive(&world).into_iter();
                    for party in parties.chain(speaking.map(|s| s.party)) {
                        let (mark, _) = party_badge(&world, party);
                        assert!(
                            legend.iter().any(|e| e.mark == mark),
                            "{id} {}: {mark} not in {legend:?}",
                            world.steps().len()
                        );
                    }
                }
            }
            assert!(seen > 40, "{seen}");
        }
    }

    /// The steps the review read, pinned: the legend under the drawing (core step number).
    #[test]
    fn the_reviewed_steps_legends() {
        let catalog = Lang::En.catalog();
        for (id, step, want) in [
            // The phone takes the 409 to attempt 2 while attempt 1's handler stalls.
            ("lease-fencing", 11, &["1", "2"][..]),
            // The phone takes attempt 1's 409 after it sent attempt 3.
            ("lease-fencing", 25, &["1", "3"][..]),
            // The phone takes attempt 1's 201 while the second request's is on its way.
            ("concurrent-no-lock", 21, &["1", "2"][..]),
        ] {
            let world = worlds(id).swap_remove(step);
            let legend = ring_legend(&world, catalog);
            let marks: Vec<&str> = legend.iter().map(|e| e.mark.as_str()).collect();
            assert_eq!(marks, want, "{id} {step}");
        }
    }
}
