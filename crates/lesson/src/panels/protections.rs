//! Which protections the panel shows first, and how it groups the rest (issue 42, item 5).
//!
//! A story offers up to eleven switches; a student takes in the few the story is about. Those
//! come first, open; the others wait one tap away, grouped by what they protect. Which ones the
//! story is about is a fact of the core's scenarios, not a list kept here: the switches its own
//! design has on, and the switches that tell it apart from the closest design it is compared
//! with (`Scenario::compare_with`: naive's is the key, whose five switches are the fix; the
//! lease's is fencing). A story without a comparison is about what its design uses. A story
//! that offers only a few switches (compare-and-set, the counter: two each) folds none: there
//! is no wall to take in, and a tap to reach the second switch would buy nothing.

use idem_core::{Protection, Protections, Scenario};

use crate::i18n::Catalog;

/// What a protection protects: the panel's groups behind the disclosure, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Guards {
    /// The key's record: that a retry is recognised, and only as the same request of the same
    /// user, by one handler at a time.
    Key,
    /// The ledger and the money: that the effect is written once, whatever crashes or repeats.
    Ledger,
    /// The client: when it stops retrying, and what its user is told.
    Client,
}

impl Guards {
    /// Every group, in the panel's order.
    pub const ALL: [Guards; 3] = [Guards::Key, Guards::Ledger, Guards::Client];

    /// The group of `switch`. A match, not a table: a new protection does not compile until it
    /// has a group.
    pub const fn of(switch: Protection) -> Guards {
        use Protection::*;
        match switch {
            Key | RequireKey | Fingerprint | Lock | Scope | Fencing => Guards::Key,
            SameTx | Forward | Recovery | Cas | OpId | UniqueIndex => Guards::Ledger,
            Reconcile | Deadline | StatusCheck => Guards::Client,
        }
    }

    /// The group's name in the page's markup (`data-group`).
    pub const fn name(self) -> &'static str {
        match self {
            Guards::Key => "key",
            Guards::Ledger => "ledger",
            Guards::Client => "client",
        }
    }

    /// The catalog key of the group's heading.
    pub const fn title_key(self) -> &'static str {
        match self {
            Guards::Key => "protect.group.key",
            Guards::Ledger => "protect.group.ledger",
            Guards::Client => "protect.group.client",
        }
    }
}

/// The protections panel of one scenario: the switches the story is about, then the rest by
/// group (empty groups left out). Every switch the story offers is in exactly one place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panel {
    /// Shown open, in the story's display order.
    pub first: Vec<Protection>,
    /// Behind the disclosure: each group with its switches, in display order.
    pub rest: Vec<(Guards, Vec<Protection>)>,
}

impl Panel {
    /// A story offering at most this many switches shows them all.
    pub const FOLD_ABOVE: usize = 3;

    /// The panel for `scenario`: what its story offers, split by [`about`].
    pub fn of(scenario: &Scenario) -> Panel {
        let offered = scenario.story.protections();
        if offered.len() <= Panel::FOLD_ABOVE {
            return Panel {
                first: offered.to_vec(),
                rest: Vec::new(),
            };
        }
        let first = about(scenario);
        let rest = Guards::ALL
            .into_iter()
            .map(|group| {
                let members: Vec<Protection> = offered
                    .iter()
                    .copied()
                    .filter(|p| !first.contains(p) && Guards::of(*p) == group)
                    .collect();
                (group, members)
            })
            .filter(|(_, members)| !members.is_empty())
            .collect();
        Panel { first, rest }
    }

    /// How many switches wait behind the disclosure.
    pub fn folded(&self) -> usize {
        self.rest.iter().map(|(_, m)| m.len()).sum()
    }

    /// Whether a folded switch is on in `design` (a link's `protect`, or the student's own
    /// flip before the story changed): then the disclosure opens, so nothing on is hidden.
    pub fn folded_on(&self, design: &Protections) -> bool {
        self.rest
            .iter()
            .flat_map(|(_, m)| m.iter())
            .any(|p| design.is_on(*p))
    }
}

/// The switches `scenario`'s story is about, in the story's display order: those its own
/// design (the scenario as its id opens, not the student's flips) has on, and those that differ
/// from the closest design it is compared with (fewest switches apart; the first in
/// `Scenario::COMPARE` order on a tie).
pub fn about(scenario: &Scenario) -> Vec<Protection> {
    let offered = scenario.story.protections();
    let own = Scenario::by_id(&scenario.id)
        .map(|s| s.protections)
        .unwrap_or(scenario.protections);
    let apart = |other: &Protections| -> Vec<Protection> {
        offered
            .iter()
            .copied()
            .filter(|p| own.is_on(*p) != other.is_on(*p))
            .collect()
    };
    let closest = Scenario::compare_with(&scenario.id)
        .into_iter()
        .filter_map(|id| Scenario::by_id(id).ok())
        .map(|s| apart(&s.protections))
        .min_by_key(Vec::len)
        .unwrap_or_default();
    offered
        .iter()
        .copied()
        .filter(|p| own.is_on(*p) || closest.contains(p))
        .collect()
}

/// The switches of `design` that are on among those `scenario`'s story offers, in display
/// order: what the note by the player names ("On in this design: …").
pub fn on_here(scenario: &Scenario, design: &Protections) -> Vec<Protection> {
    scenario
        .story
        .protections()
        .iter()
        .copied()
        .filter(|p| design.is_on(*p))
        .collect()
}

/// The note by the player that names the switches on in this design, so a story that turns
/// four on says so where the student is looking, not only in ticked boxes below the fold.
/// `None` when none is on (the story's own words say it runs bare).
pub fn on_note(scenario: &Scenario, design: &Protections, catalog: &Catalog) -> Option<String> {
    let on = on_here(scenario, design);
    if on.is_empty() {
        return None;
    }
    let names: Vec<String> = on
        .iter()
        .map(|p| catalog.text(&format!("protect.{}", p.name())))
        .collect();
    Some(catalog.fill(
        "protect.on_here",
        &[("n", on.len().to_string()), ("names", names.join(", "))],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use Protection::*;

    fn panel(id: &str) -> Panel {
        Panel::of(&Scenario::by_id(id).expect("scenario"))
    }

    #[test]
    fn every_offered_switch_is_in_exactly_one_place_for_every_scenario() {
        for id in Scenario::IDS {
            let scenario = Scenario::by_id(id).expect("scenario");
            let p = Panel::of(&scenario);
            let mut placed: Vec<Protection> = p.first.clone();
            for (group, members) in &p.rest {
                assert!(!members.is_empty(), "{id}: empty group {group:?}");
                assert!(members.iter().all(|m| Guards::of(*m) == *group), "{id}");
                placed.extend(members);
            }
            placed.sort();
            let mut offered = scenario.story.protections().to_vec();
            offered.sort();
            assert_eq!(placed, offered, "{id}");
            assert!(!p.first.is_empty(), "{id}: the story is about something");
            // Every switch the design has on is in the open part.
            for on in on_here(&scenario, &scenario.protections) {
                assert!(p.first.contains(&on), "{id}: {on:?} is on but folded");
            }
            assert!(!p.folded_on(&scenario.protections), "{id}");
        }
    }

    #[test]
    fn the_stories_lead_with_their_own_fix() {
        let key_design = vec![Key, RequireKey, Fingerprint, Lock, Scope];
        // Story 1 has nothing on; what it is about is the key of story 2, its closest design.
        assert_eq!(panel("naive").first, key_design);
        assert_eq!(panel("key").first, key_design);
        assert_eq!(panel("key").folded(), 6);
        assert_eq!(
            panel("key").rest,
            vec![
                (Guards::Key, vec![Fencing]),
                (Guards::Ledger, vec![SameTx, Forward, Recovery]),
                (Guards::Client, vec![Deadline, StatusCheck]),
            ]
        );
        // Two switches: nothing to fold, though the version is what story 3 is about.
        assert_eq!(about(&Scenario::by_id("cas").expect("cas")), vec![Cas]);
        assert_eq!(panel("cas").first, vec![Cas, Reconcile]);
        assert_eq!(panel("cas").folded(), 0);
        assert_eq!(panel("counter-naive").first, vec![OpId, UniqueIndex]);
        let no_index = Scenario::by_id("counter-no-index").expect("counter-no-index");
        assert_eq!(
            about(&no_index),
            vec![OpId, UniqueIndex],
            "the index tells it from 4b"
        );
        // The lease's story is about fencing, which tells it from lease-fencing.
        assert!(panel("lease-expiry").first.contains(&Fencing));
        assert!(panel("concurrent-no-lock").first.contains(&Lock));
        assert!(panel("scope-off").first.contains(&Scope));
        assert!(panel("crash-window").first.contains(&SameTx));
        // Everything on: nothing folded.
        assert_eq!(panel("fully-protected").folded(), 0);
    }

    #[test]
    fn the_panel_follows_the_scenario_not_the_students_flips() {
        let mut flipped = Scenario::by_id("key").expect("key");
        flipped.protections.set_on(Forward, true);
        flipped.protections.set_on(Key, false);
        let p = Panel::of(&flipped);
        assert_eq!(p, panel("key"), "a flip moves nothing under the pointer");
        assert!(
            p.folded_on(&flipped.protections),
            "a folded switch on opens the fold"
        );
    }

    #[test]
    fn the_note_names_what_is_on_in_both_languages() {
        let key = Scenario::by_id("key").expect("key");
        let naive = Scenario::by_id("naive").expect("naive");
        for lang in [Lang::En, Lang::Ru] {
            let c = lang.catalog();
            let note = on_note(&key, &key.protections, c).expect("on");
            for p in on_here(&key, &key.protections) {
                assert!(
                    note.contains(&c.text(&format!("protect.{}", p.name()))),
                    "{note}"
                );
            }
            assert_eq!(on_note(&naive, &naive.protections, c), None);
            for g in Guards::ALL {
                assert!(c.get(g.title_key()).is_some(), "{lang:?} {g:?}");
            }
        }
        // Flipping a switch on in naive names it.
        let mut design = naive.protections;
        design.set_on(Forward, true);
        let en = Lang::En.catalog();
        let one = on_note(&naive, &design, en).expect("one on");
        assert!(one.contains(&en.text("protect.forward")), "{one}");
        assert!(
            one.contains("switch it off"),
            "one switch, one pronoun: {one}"
        );
        let five = on_note(&key, &key.protections, en).expect("five on");
        assert!(five.contains("switch them off"), "{five}");
    }
}
