//! The student's progress, shared by the story picker, the first screen and the end of a run:
//! the finished stories, loaded from and kept in `localStorage` (the rules of what counts as
//! done live in `idem_lesson::progress`).

use std::collections::BTreeSet;

use leptos::prelude::*;

use crate::platform::lab::Lab;
use crate::platform::storage;
use idem_lesson::progress::{format_done, parse_done, tells_the_story, STORAGE_KEY};

/// The marks as stored when the page opened (`None` when storage cannot be used), read ahead
/// of [`provide_progress`] when the page reads them in an earlier task (main.rs: the
/// first use of the browser's storage waits for it, and no task should block the page long). Kept as stored, read by `provide_progress`.
pub struct Stored(Option<String>);

impl Stored {
    /// Reads the stored marks.
    pub fn read() -> Stored {
        Stored(storage::get(STORAGE_KEY))
    }
}

/// Stores the marks; false when storage refused.
fn save(done: &BTreeSet<String>) -> bool {
    storage::set(STORAGE_KEY, &format_done(done))
}

/// The student's progress, shared by the picker, the first screen and the end of a run.
#[derive(Clone, Copy)]
pub struct Progress {
    /// The finished scenarios.
    pub done: RwSignal<BTreeSet<String>>,
    /// The marks are kept across visits (storage works and is used).
    pub kept: RwSignal<bool>,
    /// The page asked for storage and the browser refused it: say so.
    pub refused: RwSignal<bool>,
}

impl Progress {
    /// Whether `id` is done (tracked).
    pub fn is_done(&self, id: &str) -> bool {
        self.done.with(|d| d.contains(id))
    }
}

/// Loads the marks, provides them as context and marks a scenario done whenever its run
/// reaches the end. `keep` is false for tests and embeddings that must not touch storage.
pub fn provide_progress(lab: Lab, keep: bool, stored: Option<Stored>) -> Progress {
    let loaded = if keep {
        stored
            .unwrap_or_else(Stored::read)
            .0
            .map(|s| parse_done(&s))
    } else {
        None
    };
    let progress = Progress {
        kept: RwSignal::new(keep && loaded.is_some()),
        refused: RwSignal::new(keep && loaded.is_none()),
        done: RwSignal::new(loaded.unwrap_or_default()),
    };
    provide_context(progress);
    Effect::new(move |_| {
        // A challenge replays a story without its faults, and a run changed by the student's
        // own faults or switches tells another story: finishing either is not the story.
        let Some(id) = lab.run.with(|r| {
            (r.at_end() && r.challenge().is_none() && tells_the_story(r.world()))
                .then(|| r.scenario().id.clone())
        }) else {
            return;
        };
        if progress.done.with_untracked(|d| d.contains(&id)) {
            return;
        }
        progress.done.update(|d| {
            d.insert(id);
        });
        if progress.kept.get_untracked() {
            let saved = progress.done.with_untracked(save);
            progress.kept.set(saved);
            progress.refused.set(!saved);
        }
    });
    progress
}

/// The progress of the page (a widget keeps none).
pub fn use_progress() -> Option<Progress> {
    use crate::platform::place::{required, Place};
    (crate::platform::lab::use_place() == Place::Page).then(|| required("provide_progress"))
}
