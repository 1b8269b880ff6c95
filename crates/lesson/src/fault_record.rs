//! What became of the faults placed on a run, in words, from the core's one record of it
//! (`Outcome::placed`): the faults that found nothing to hit, and "Surprise me"'s count of
//! what it drew. The words live in the catalogs; this only picks and fills them.

use idem_core::{Action, Fault, Outcome, PlacedBy, PlacedFault, Story, World};

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
/// then an armed fault may still fire). Counts the injected faults of the core's record. The
/// run's summary ("What hit this run: …", `Outcome::faults`) lists what hit, which can name
/// more than was drawn: keys that expired because a drawn fault moved the clock. Then the
/// count says so and gives the list's length, so the two agree (issue 42: "4 faults … 4 hit"
/// beside five listed).
pub fn chaos_count(world: &World, catalog: &Catalog) -> Option<String> {
    if !world.is_quiescent() {
        return None;
    }
    let outcome = Outcome::of(world);
    let injected = outcome.placed.iter().filter(|p| p.by == PlacedBy::Injected);
    let (n, hit) = injected.fold((0, 0), |(n, hit), p| {
        (n + 1, hit + usize::from(p.hit.is_some()))
    });
    let expired = outcome
        .faults
        .iter()
        .filter(|f| **f == Fault::Expired)
        .count();
    let args = [
        ("n", n.to_string()),
        ("hit", hit.to_string()),
        ("missed", (n - hit).to_string()),
        ("all", outcome.faults.len().to_string()),
    ];
    Some(catalog.fill(
        if expired > 0 {
            "ui.chaos_count_expired"
        } else {
            "ui.chaos_count"
        },
        &args,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::playback::Run;
    use idem_core::Scenario;

    /// Story 2's "Surprise me" with seed 3 draws 4 faults, all hit, one of them a jump of the
    /// clock that makes the key expire: the run's summary lists 5 things. The count says 4
    /// drawn and the list's 5, with why; seed 4 of story 1 lists only drawn faults.
    #[test]
    fn the_chaos_count_agrees_with_what_the_run_lists() {
        for (id, seed, expired) in [("key", 3, true), ("naive", 4, false)] {
            let base = Run::new(Scenario::by_id(id).expect("scenario"));
            let mut run = Run::from_link(&base.chaos_link(seed)).expect("builds");
            run.run_to_end();
            let listed = Outcome::of(run.world()).faults.len();
            for lang in Lang::ALL {
                let c = lang.catalog();
                let text = chaos_count(run.world(), c).expect("over");
                let key = if expired {
                    "ui.chaos_count_expired"
                } else {
                    "ui.chaos_count"
                };
                let placed = Outcome::of(run.world()).placed;
                let hit = placed.iter().filter(|p| p.hit.is_some()).count();
                let want = c.fill(
                    key,
                    &[
                        ("n", placed.len().to_string()),
                        ("hit", hit.to_string()),
                        ("missed", (placed.len() - hit).to_string()),
                        ("all", listed.to_string()),
                    ],
                );
                assert_eq!(text, want, "{id} {lang:?}");
                if expired {
                    assert_eq!((placed.len(), listed), (4, 5), "{id}");
                    assert!(text.contains('5'), "{text}");
                }
            }
        }
    }
}
