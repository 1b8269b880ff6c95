//! Visible steps: the core's steps as the student steps through them. A step that only carries
//! a backend's acknowledgement ("Redis answers OK") or a statement count ("PostgreSQL runs this
//! step's SQL") brings no new idea (issue 42, "Filler and order"), so it folds into the step
//! before it, the request it answers: one visible step is a range of the core's steps, and the
//! player stops only at the end of a range.
//!
//! Time travel stays exact: the folded steps are still the core's steps, with their snapshots;
//! the cursor and the links' `step=` keep counting them, only the counter and the Step
//! buttons count visible steps. Folding only looks backwards (a filler step joins the step
//! before it), so the visible step a world ends in is known from the world's own past: the
//! narration of a world and the player's stops always agree.

use idem_core::{Cause, Note, Step};

/// Whether `note` only says that a backend answered as asked: an `OK`, a record read back
/// (what it says, the next step tells: "the record says completed"), or the statements the
/// ledger ran (their rows are shown in the step's SQL, not narrated). A typed property of the
/// note's kind, so a new note is not filler until it is listed here.
pub fn is_filler_note(note: &Note) -> bool {
    matches!(
        note,
        Note::StoreOk | Note::StoreValue | Note::LedgerRan { .. }
    )
}

/// Whether `step` only acknowledges: a backend's answer arriving ([`Cause::Deliver`]) whose
/// every note is filler ([`is_filler_note`]). A step a fault caused, or one with any other
/// note, stands on its own.
pub fn only_acknowledges(step: &Step) -> bool {
    matches!(step.cause, Cause::Deliver(_))
        && !step.notes.is_empty()
        && step.notes.iter().all(is_filler_note)
}

/// Whether the core's step `i` of `steps` is filler and folds into the step before it: it only
/// acknowledges ([`only_acknowledges`]). Where two handlers interleave (issue 42: "Redis
/// answers OK" and "PostgreSQL runs INSERT INTO charges" as steps of their own in the lease
/// and early-Retry runs) it folds too, into the other handler's step, with one exception: an
/// answer to a claim sent by an earlier step than the one just before stays a step of its own,
/// since there it says whose claim went through.
pub fn folds(steps: &[Step], i: usize) -> bool {
    let Some(step) = steps.get(i).filter(|_| i > 0) else {
        return false;
    };
    match step.cause {
        Cause::Deliver(msg) => {
            only_acknowledges(step)
                && !steps[..i - 1].iter().any(|s| {
                    s.sent.contains(&msg) && s.notes.iter().any(|n| matches!(n, Note::ApiClaimsKey))
                })
        }
        _ => false,
    }
}

/// Where the player stops in a run: at cursor 0 and after every visible step, that is at
/// every cursor whose next core step does not fold ([`folds`]). A view of the run's steps
/// ([`Stops::of`]), or one stop per step ([`Stops::every`]) where nothing folds; it keeps no
/// list of its own (the page's first screen counts every byte), so each answer is a walk over
/// the steps, a few dozen.
#[derive(Clone, Copy, Debug)]
pub struct Stops<'a> {
    steps: &'a [Step],
    len: usize,
}

impl<'a> Stops<'a> {
    /// The stops of a run whose steps are `steps` (in order, from the first): a filler step
    /// ([`folds`]) joins the step before it; the first step always starts a visible step.
    pub fn of(steps: &'a [Step]) -> Stops<'a> {
        Stops {
            steps,
            len: steps.len(),
        }
    }

    /// One stop per step, for `steps` steps (nothing folds: a comparison's joint timeline).
    pub fn every(steps: usize) -> Stops<'static> {
        Stops {
            steps: &[],
            len: steps,
        }
    }

    /// How many visible steps there are.
    pub fn total(&self) -> usize {
        self.visible(self.len)
    }

    /// Whether the player stops at `cursor`: the start, or the end of a visible step (the
    /// next core step, if any, does not fold into the one before it).
    pub fn is_stop(&self, cursor: usize) -> bool {
        !folds(self.steps, cursor)
    }

    /// The visible step `cursor` is in: 0 at the start, else the number of the visible step
    /// whose range holds the core's step `cursor - 1` (a cursor inside a fold, as a link may
    /// name, counts as the visible step it is part of). Past the last stop, one more per step.
    pub fn visible(&self, cursor: usize) -> usize {
        (0..cursor).filter(|&i| !folds(self.steps, i)).count()
    }

    /// The first stop after `cursor`, if the run has one.
    pub fn next(&self, cursor: usize) -> Option<usize> {
        (cursor + 1..=self.len).find(|&c| self.is_stop(c))
    }

    /// The last stop before `cursor` (the start, 0, when there is none).
    pub fn previous(&self, cursor: usize) -> usize {
        (1..cursor).rev().find(|&c| self.is_stop(c)).unwrap_or(0)
    }

    /// The stop that ends the visible step `cursor` is in (`cursor` itself at a stop or past
    /// the last one).
    pub fn at_or_after(&self, cursor: usize) -> usize {
        if self.is_stop(cursor) {
            return cursor;
        }
        self.next(cursor).unwrap_or(cursor)
    }

    /// The core's steps (0-based indices) of every visible step, in order: ranges that meet
    /// end to end and cover every step.
    pub fn ranges(&self) -> Vec<std::ops::Range<usize>> {
        let ends: Vec<usize> = (1..=self.len).filter(|&c| self.is_stop(c)).collect();
        let starts = std::iter::once(0).chain(ends.iter().copied());
        starts
            .zip(ends.iter().copied())
            .map(|(a, b)| a..b)
            .collect()
    }
}

/// The steps of the visible step that `steps` (a world's past, in order) ends in: its last
/// step, and the steps before it back to the one the filler folds into. Empty before any step.
/// What the narration says and what the drawing marks as this step's.
pub fn visible_tail(steps: &[Step]) -> &[Step] {
    let mut start = steps.len().saturating_sub(1);
    while start > 0 && folds(steps, start) {
        start -= 1;
    }
    &steps[start..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playback::Run;
    use idem_core::{Scenario, World};

    fn whole(id: &str) -> World {
        let mut run = Run::new(Scenario::by_id(id).expect("scenario"));
        run.run_to_end();
        run.world().clone()
    }

    /// Every scenario: the visible steps map one-to-one onto ranges of the core's steps that
    /// meet end to end and cover every step; no visible step is filler only; each filler step
    /// folds into the step before it; an acknowledgement left standing answers a claim sent
    /// by an earlier step than the one just before (two handlers interleave: it says whose
    /// claim went through); and most stories have filler.
    #[test]
    fn every_scenario_folds_its_filler_into_the_request_it_answers() {
        let (mut folded_somewhere, mut standing) = (0, 0);
        for scenario in Scenario::all() {
            let world = whole(&scenario.id);
            let steps = world.steps();
            let stops = Stops::of(steps);
            let ranges = stops.ranges();
            assert_eq!(ranges.len(), stops.total(), "{}", scenario.id);
            let mut next = 0;
            for range in &ranges {
                assert_eq!(range.start, next, "{}: ranges meet", scenario.id);
                assert!(range.end > range.start, "{}: no empty range", scenario.id);
                next = range.end;
                assert!(
                    !range.clone().all(|i| folds(steps, i)),
                    "{}: a filler-only visible step {range:?}",
                    scenario.id
                );
                // The narration's tail at the stop is the whole range.
                assert_eq!(
                    visible_tail(&steps[..range.end]),
                    &steps[range.clone()],
                    "{}",
                    scenario.id
                );
            }
            assert_eq!(next, steps.len(), "{}: every step covered", scenario.id);
            for (i, step) in steps.iter().enumerate() {
                if !only_acknowledges(step) {
                    continue;
                }
                let Cause::Deliver(msg) = step.cause else {
                    unreachable!("an acknowledgement is a delivery")
                };
                let sender = steps
                    .iter()
                    .position(|s| s.sent.contains(&msg))
                    .expect("a delivered message was sent");
                let range = ranges.iter().find(|r| r.contains(&i)).expect("covered");
                let claim = steps[sender]
                    .notes
                    .iter()
                    .any(|n| matches!(n, Note::ApiClaimsKey));
                if folds(steps, i) {
                    assert!(range.contains(&(i - 1)), "{}", scenario.id);
                    assert!(sender + 1 == i || !claim, "{}: step {i}", scenario.id);
                } else {
                    assert!(
                        sender + 1 != i && claim,
                        "{}: step {i} should fold",
                        scenario.id
                    );
                    assert_eq!(range.start, i, "{}", scenario.id);
                    standing += 1;
                }
            }
            if stops.total() < steps.len() {
                folded_somewhere += 1;
            }
        }
        let all = Scenario::all().len();
        assert!(
            folded_somewhere * 4 >= all * 3,
            "{folded_somewhere} of {all}"
        );
        // The concurrent stories' race: the OK that tells whose claim won stays.
        assert!(standing >= 1);
    }

    /// The key story: "Redis answers OK" and the statement count are not steps of their own;
    /// the counter counts what is left, and a cursor inside a fold (as a link may name) counts
    /// as the visible step it is part of.
    #[test]
    fn the_key_story_hides_its_acknowledgements() {
        let world = whole("key");
        let steps = world.steps();
        assert_eq!(steps.len(), 20);
        let stops = Stops::of(steps);
        // Steps 3 (OK to the claim), 7 (the INSERT's count), 9 (OK to the record) and 17
        // (the record read back, #42: "Redis returns the stored record" on its own) fold.
        assert_eq!(stops.total(), 16);
        assert!(folds(steps, 3) && folds(steps, 7) && folds(steps, 9) && folds(steps, 17));
        assert!(!folds(steps, 15), "(nil) says the claim failed: kept");
        assert!(!folds(steps, 0) && !folds(steps, 2));
        assert!(stops.is_stop(2) && !stops.is_stop(3) && stops.is_stop(4));
        assert_eq!(stops.visible(3), 3);
        assert_eq!(stops.visible(4), 3);
        assert_eq!(stops.visible(5), 4);
        assert_eq!(stops.next(2), Some(4));
        assert_eq!(stops.next(3), Some(4));
        assert_eq!(stops.previous(5), 4);
        assert_eq!(stops.previous(4), 2);
        assert_eq!(stops.previous(3), 2);
        assert_eq!(stops.previous(1), 0);
        assert_eq!(stops.at_or_after(3), 4);
        assert_eq!(stops.next(20), None);
        assert_eq!(stops.visible(20), 16);
        assert_eq!(Stops::every(3).total(), 3);
        assert!((0..=3).all(|c| Stops::every(3).is_stop(c)));
    }
}
