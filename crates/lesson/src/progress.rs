//! The student's path through the lesson: the definition and "start here" on the first
//! screen, the seed stories in order with a done mark each (kept in `localStorage`), the
//! count of stories done, "Next story →" at the end of a run, a closing summary after the
//! last story, and the other mechanics grouped by theme as "advanced".
//!
//! The rules (what counts as done, which story comes next, how the marks are stored) are pure
//! functions tested natively; the components only read and write signals.

use idem_core::{Scenario, World};
use std::collections::BTreeSet;

/// The `localStorage` key that holds the finished scenarios.
pub const STORAGE_KEY: &str = "idem-lab.done";

/// What the closing summary says was learned, one point per story.
pub const LEARNED: [&str; 4] = [
    "path.learned_1",
    "path.learned_2",
    "path.learned_3",
    "path.learned_4",
];

/// The other mechanics, grouped by theme: (catalog key of the theme, scenario ids).
pub const THEMES: [(&str, &[&str]); 4] = [
    (
        "theme.keys",
        &[
            "missing-key",
            "key-reuse",
            "key-reuse-no-fingerprint",
            "scope",
            "scope-off",
        ],
    ),
    (
        "theme.races",
        &["concurrent", "concurrent-no-lock", "cas-race"],
    ),
    (
        "theme.failures",
        &[
            "ttl",
            "evict",
            "crash-window",
            "crash-no-forward",
            "crash-one-tx",
            "lease-expiry",
            "lease-fencing",
        ],
    ),
    (
        "theme.guards",
        &["cas-naive", "counter-no-index", "fully-protected"],
    ),
];

/// The finished scenarios read from their stored form (ids separated by commas); unknown
/// ids and stray spaces are dropped, so an old or tampered value cannot break the page.
pub fn parse_done(stored: &str) -> BTreeSet<String> {
    // Inserted one by one (`extend`), not `collect`ed: `collect` sorts its input first, and
    // that sort's code would weigh more in the wasm than a set of a dozen names needs.
    let mut done = BTreeSet::new();
    done.extend(
        stored
            .split(',')
            .map(str::trim)
            .filter(|id| Scenario::IDS.contains(id))
            .map(str::to_owned),
    );
    done
}

/// The stored form of the finished scenarios.
pub fn format_done(done: &BTreeSet<String>) -> String {
    done.iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(",")
}

/// How many of the seed runs are done. The path counts what it shows, one button per run
/// (1, 2, 3, 4a and 4b), so each ✓ mark adds one (issue 42: "0 of 4" beside five buttons).
pub fn runs_done(done: &BTreeSet<String>) -> usize {
    Scenario::seed_ids()
        .iter()
        .filter(|id| done.contains(**id))
        .count()
}

/// Where "start here" leads: story 1 while none is done; once the student has started, the
/// first run not done after the last one done, in path order (then from the start again), so
/// a student who did story 3 is sent on to 4a, not back to "start here" (issue 42); `None`
/// once all are done.
pub fn next_unfinished(done: &BTreeSet<String>) -> Option<&'static str> {
    let ids = Scenario::seed_ids();
    let after = ids
        .iter()
        .rposition(|id| done.contains(*id))
        .map_or(0, |at| at + 1);
    ids[after..]
        .iter()
        .chain(&ids[..after])
        .copied()
        .find(|id| !done.contains(*id))
}

/// The story after `id` on the path, if `id` is a seed story and not the last one.
pub fn next_story(id: &str) -> Option<&'static str> {
    let ids = Scenario::seed_ids();
    let at = ids.iter().position(|s| *s == id)?;
    ids.get(at + 1).copied()
}

/// What the page offers when a run of `id` has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterRun {
    /// Go on to this story.
    Next(&'static str),
    /// The last story: the closing summary and the advanced mechanics.
    Finished,
    /// A mechanic outside the path: nothing to add.
    Nothing,
}

/// What comes after a finished run of `id`.
pub fn after_run(id: &str) -> AfterRun {
    match next_story(id) {
        Some(next) => AfterRun::Next(next),
        None if Scenario::is_seed(id) => AfterRun::Finished,
        None => AfterRun::Nothing,
    }
}

/// The short number of a seed story as its title shows it ("1", "4a"), for "Next story".
pub fn story_number(title: &str) -> &str {
    title.split(" · ").next().unwrap_or(title)
}

/// Whether `world` is its story as written: the scenario's own design and scripted faults,
/// nothing the student added (a dropped packet, a switched protection, the base run).
pub fn tells_the_story(world: &World) -> bool {
    world.injected().is_empty()
        && idem_core::Scenario::by_id(&world.scenario().id).is_ok_and(|s| s == *world.scenario())
}

/// "Done: 2 of 5": the seed runs done, of all of them.
pub fn progress_text(done: &BTreeSet<String>, catalog: &crate::i18n::Catalog) -> String {
    catalog.fill(
        "path.progress",
        &[
            ("n", runs_done(done).to_string()),
            ("total", Scenario::seed_ids().len().to_string()),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn marks_survive_their_stored_form_and_junk_is_dropped() {
        let done = parse_done("key, naive,bogus,,counter");
        assert_eq!(format_done(&done), "counter,key,naive");
        assert_eq!(parse_done(&format_done(&done)), done);
        assert!(parse_done("").is_empty());
        // Each run counts: counter alone is one, as its ✓ mark shows.
        assert_eq!(runs_done(&done), 3);
        assert_eq!(runs_done(&parse_done("counter-naive,counter")), 2);
        assert_eq!(runs_done(&parse_done("ttl,scope")), 0);
        let all: BTreeSet<String> = Scenario::seed_ids()
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        assert_eq!(runs_done(&all), 5);
        assert_eq!(next_unfinished(&all), None);
    }

    /// Issue 42: "Start here" was still offered after story 3 was done. Once the student has
    /// started, the link goes on from the last run done.
    #[test]
    fn start_here_goes_on_from_the_last_run_done() {
        assert_eq!(next_unfinished(&parse_done("")), Some("naive"));
        assert_eq!(next_unfinished(&parse_done("cas")), Some("counter-naive"));
        assert_eq!(next_unfinished(&parse_done("naive,key")), Some("cas"));
        assert_eq!(
            next_unfinished(&parse_done("naive,cas")),
            Some("counter-naive")
        );
        // After the last run, back to the first one not done.
        assert_eq!(next_unfinished(&parse_done("counter")), Some("naive"));
        assert_eq!(next_unfinished(&parse_done("naive,counter")), Some("key"));
        // Mechanics outside the path do not move it.
        assert_eq!(next_unfinished(&parse_done("ttl")), Some("naive"));
    }

    #[test]
    fn the_path_goes_through_the_seed_stories_in_order() {
        let ids = Scenario::seed_ids();
        assert_eq!(ids[0], "naive");
        for pair in ids.windows(2) {
            assert_eq!(after_run(pair[0]), AfterRun::Next(pair[1]));
        }
        assert_eq!(after_run(ids[ids.len() - 1]), AfterRun::Finished);
        assert_eq!(after_run("ttl"), AfterRun::Nothing);
        assert_eq!(next_story("nonsense"), None);
    }

    #[test]
    fn every_mechanic_sits_in_exactly_one_theme() {
        let mut grouped: Vec<&str> = THEMES
            .iter()
            .flat_map(|(_, ids)| ids.iter().copied())
            .collect();
        grouped.sort_unstable();
        let mut all = Scenario::mechanic_ids().to_vec();
        all.sort_unstable();
        assert_eq!(grouped, all);
    }

    #[test]
    fn titles_do_not_clash_with_the_story_numbers() {
        for lang in Lang::ALL {
            let catalog = lang.catalog();
            let numbers: Vec<String> = Scenario::seed_ids()
                .iter()
                .map(|id| story_number(&catalog.text(&format!("scenario.{id}.title"))).to_owned())
                .collect();
            assert_eq!(numbers, ["1", "2", "3", "4a", "4b"], "{lang:?}");
            for id in Scenario::mechanic_ids() {
                let title = catalog.text(&format!("scenario.{id}.title"));
                assert!(!title.contains(" · "), "{lang:?} {id}: {title}");
            }
            for (key, _) in THEMES {
                assert!(catalog.get(key).is_some(), "{lang:?} {key}");
            }
        }
    }

    #[test]
    fn the_progress_line_counts_in_both_languages() {
        let en = Lang::En.catalog();
        let ru = Lang::Ru.catalog();
        let line = |c: &crate::i18n::Catalog, n: usize| {
            c.fill(
                "path.progress",
                &[("n", n.to_string()), ("total", "5".into())],
            )
        };
        assert_eq!(line(en, 1), "Done: 1 of 5");
        assert_eq!(line(ru, 3), "Пройдено: 3 из 5");
        assert_eq!(en.text("path.next"), "Next story →");
    }

    /// Review finding 16: story 1 was marked done after a dropped packet changed the run.
    #[test]
    fn only_the_story_as_written_finishes_it() {
        use idem_core::{Action, Scenario};
        let naive = Scenario::by_id("naive").expect("naive");
        let mut world = World::new(&naive);
        world.run(1_000);
        assert!(tells_the_story(&world));
        let mut changed = World::new(&naive);
        while changed.network().in_flight().all(|m| !m.is_faultable()) {
            assert!(changed.step().is_some());
        }
        let first = changed
            .network()
            .in_flight()
            .find(|m| m.is_faultable())
            .map(|m| m.id);
        changed
            .apply(Action::Drop(first.expect("in flight")))
            .expect("dropped");
        assert!(!tells_the_story(&changed));
        let mut keyed = naive.clone();
        keyed.protections.idempotency_key = true;
        assert!(!tells_the_story(&World::new(&keyed)));
        assert!(!tells_the_story(&World::new(
            &naive.clone().without_scripted_faults()
        )));
    }

    /// Issue 42: "Stories done: 0 of 4" while five story buttons showed. The count is of the
    /// buttons, so a ticked 4a counts.
    #[test]
    fn the_count_counts_the_buttons() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            let line = |n: &str| c.fill("path.progress", &[("n", n.into()), ("total", "5".into())]);
            assert_eq!(progress_text(&BTreeSet::new(), c), line("0"));
            assert_eq!(progress_text(&parse_done("counter-naive"), c), line("1"));
            assert_eq!(
                progress_text(&parse_done("counter-naive,counter,ttl"), c),
                line("2")
            );
            // The heading does not name another number.
            assert!(!c
                .text("group.stories")
                .chars()
                .any(|ch| ch.is_ascii_digit()));
            for word in ["four", "четыре"] {
                assert!(
                    !c.text("group.stories").to_lowercase().contains(word),
                    "{lang:?}"
                );
            }
            // Stop 52: nothing anywhere on the page counts the stories as four beside
            // "Done: 0 of 5" (the five buttons 1, 2, 3, 4a, 4b).
            for (key, text) in crate::i18n::check::all_entries(lang) {
                let text = text.to_lowercase();
                for words in [
                    "four stories",
                    "четыре истории",
                    "четырёх истори",
                    "4 stories",
                ] {
                    assert!(!text.contains(words), "{lang:?} {key}: {text}");
                }
            }
        }
    }
}
