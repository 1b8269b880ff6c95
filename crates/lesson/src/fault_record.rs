//! What became of the faults placed on a run, in words, from the core's one record of it
//! (`Outcome::placed`): the faults that found nothing to hit, and "Surprise me"'s count of
//! what it drew. The words live in the catalogs; this only picks and fills them.

use idem_core::{Action, Outcome, PlacedBy, PlacedFault, Story, World};

use crate::i18n::Catalog;

/// "Of 5 faults placed, 3 hit and 2 found nothing to hit: a crash before “record the key”, …",
/// from the core's record of the faults placed from outside (the student's, a link's, a
/// challenge's or "Surprise me"'s; the script's own are the story). `None` when every one hit.
pub fn missed_sentence(placed: &[PlacedFault], story: Story, catalog: &Catalog) -> Option<String> {
    let injected: Vec<&PlacedFault> = placed
        .iter()
        .filter(|p| p.by == PlacedBy::Injected)
        .collect();
    let missed: Vec<String> = injected
        .iter()
        .filter(|p| p.hit.is_none())
        .map(|p| missed_phrase(p, story, catalog))
        .collect();
    if missed.is_empty() {
        return None;
    }
    // The panels' text: a run's end comes after they are here.
    catalog.panel_fill(
        "sum.missed",
        &[
            ("n", injected.len().to_string()),
            ("hit", (injected.len() - missed.len()).to_string()),
            ("missed", missed.len().to_string()),
            ("list", missed.join(", ")),
        ],
    )
}

fn missed_phrase(placed: &PlacedFault, story: Story, catalog: &Catalog) -> String {
    let phase = |p| vec![("phase", crate::labels::phase_in(p, story, catalog))];
    match placed.action {
        Action::Crash(p) => catalog
            .panel_fill("missed.crash", &phase(p))
            .unwrap_or_default(),
        Action::Pause(p) => catalog
            .panel_fill("missed.pause", &phase(p))
            .unwrap_or_default(),
        Action::LoseNextAck => catalog.panel_text("missed.lose_ack").unwrap_or_default(),
        Action::EvictKeys => catalog.panel_text("missed.evict").unwrap_or_default(),
        Action::AdvanceClock(_) => catalog.panel_text("missed.clock").unwrap_or_default(),
        Action::RetryNow => catalog.panel_text("missed.retry").unwrap_or_default(),
        Action::Drop(_) | Action::Duplicate(_) | Action::Delay(..) => {
            catalog.panel_text("missed.packet").unwrap_or_default()
        }
        Action::ConcurrentDuplicate => catalog.text("fact.second_request"),
        Action::ReuseKeyOtherBody => catalog.text("fact.key_reused"),
        Action::OtherUserSameKey | Action::Start(_) => catalog.text("fact.other_user"),
    }
}

/// "4 drawn: 2 hit, 2 found nothing to hit", for a "Surprise me" run once it is over (before
/// then an armed fault may still fire). Counts the injected faults of the core's record.
pub fn chaos_count(world: &World, catalog: &Catalog) -> Option<String> {
    if !world.is_quiescent() {
        return None;
    }
    let placed = Outcome::of(world).placed;
    let injected = placed.iter().filter(|p| p.by == PlacedBy::Injected);
    let (n, hit) = injected.fold((0, 0), |(n, hit), p| {
        (n + 1, hit + usize::from(p.hit.is_some()))
    });
    Some(catalog.fill(
        "ui.chaos_count",
        &[
            ("n", n.to_string()),
            ("hit", hit.to_string()),
            ("missed", (n - hit).to_string()),
        ],
    ))
}
