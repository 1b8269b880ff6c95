//! The page's shared state, as three narrow `Copy` contexts: the run on screen with its verdict
//! ([`Lab`]), the playback clock ([`Clock`]), and the student's preferences ([`Prefs`]:
//! language, layout, motion, colour theme). A component takes the ones it reads (`use_lab`, `use_clock`,
//! `use_prefs`) and changes the run only through [`Lab`]'s methods, which call the core (a
//! change of the run also resets the clock, so the lab holds the clock, never the reverse).

use idem_core::{Action, ActionError, DeepLink, Protection, Scenario, Verdict};
use leptos::prelude::*;

use crate::platform::browser::{current_layout, media_matches};
use crate::platform::place::{required, Place};
use idem_lesson::geometry::Layout;
use idem_lesson::i18n::{Catalog, Lang};
use idem_lesson::playback::{Run, Side};
use idem_lesson::player::Playhead;
use idem_lesson::theme::Theme;

/// The student's preferences: the page's language, the topology's layout, reduced motion, the
/// colour theme.
#[derive(Clone, Copy)]
pub struct Prefs {
    /// The language of the page.
    pub lang: ReadSignal<Lang>,
    /// Changes the language in place (every text follows; the run is kept).
    pub set_lang: WriteSignal<Lang>,
    /// Wide or tall topology.
    pub layout: ReadSignal<Layout>,
    /// Changes the topology layout.
    pub set_layout: WriteSignal<Layout>,
    /// The user asked for reduced motion.
    pub reduced_motion: ReadSignal<bool>,
    /// The colour theme: the system's until the page's toggle, or a mounted widget's `theme`
    /// option, picks one.
    pub theme: RwSignal<Theme>,
}

impl Prefs {
    /// Preferences in `lang`, laid out in `layout`.
    pub fn new(lang: Lang, layout: Layout, reduced_motion: bool) -> Prefs {
        let (lang, set_lang) = signal(lang);
        let (layout, set_layout) = signal(layout);
        let (reduced_motion, _) = signal(reduced_motion);
        Prefs {
            lang,
            set_lang,
            layout,
            set_layout,
            reduced_motion,
            theme: RwSignal::new(Theme::Auto),
        }
    }

    /// The catalog of the current language (tracked).
    pub fn catalog(&self) -> &'static Catalog {
        self.lang.get().catalog()
    }

    /// Text of a catalog key in the current language (tracked).
    pub fn t(&self, key: &str) -> String {
        self.catalog().text(key)
    }
}

/// The playback clock: simulated time on screen, playing or paused, the speed, and what
/// playback said on its own (a gap jumped over, a stop at a key moment).
#[derive(Clone, Copy)]
pub struct Clock {
    /// Simulated time on screen (ms): between the world's time and its next event.
    pub display: ReadSignal<f64>,
    set_display: WriteSignal<f64>,
    /// Playing or paused.
    pub playing: ReadSignal<bool>,
    set_playing: WriteSignal<bool>,
    /// Playback speed (× real time).
    pub speed: ReadSignal<f64>,
    /// Sets the playback speed.
    pub set_speed: WriteSignal<f64>,
    /// A quiet gap just jumped over (simulated ms).
    pub skipped: ReadSignal<Option<u64>>,
    set_skipped: WriteSignal<Option<u64>>,
    /// Playback stopped by itself at a key moment of the story (until the next action).
    pub paused_at_key: ReadSignal<bool>,
    set_paused_at_key: WriteSignal<bool>,
    /// Real time (ms) the current step is still held on screen while playing.
    hold: RwSignal<f64>,
    /// The language a step is read in: how long it is held depends on its words.
    lang: ReadSignal<Lang>,
}

impl Clock {
    /// A paused clock at simulated time `at` (ms), holding steps long enough to read in `lang`.
    fn new(at: f64, lang: ReadSignal<Lang>) -> Clock {
        let (display, set_display) = signal(at);
        let (playing, set_playing) = signal(false);
        let (speed, set_speed) = signal(1.0);
        let (skipped, set_skipped) = signal(None);
        let (paused_at_key, set_paused_at_key) = signal(false);
        Clock {
            display,
            set_display,
            playing,
            set_playing,
            speed,
            set_speed,
            skipped,
            set_skipped,
            paused_at_key,
            set_paused_at_key,
            hold: RwSignal::new(0.0),
            lang,
        }
    }

    /// The run changed by hand: the display moves to its time, and what playback said goes.
    fn reset(&self, now: f64) {
        put(self.set_display, now);
        put(self.set_skipped, None);
        put(self.set_paused_at_key, false);
        self.hold.set(0.0);
    }

    /// Stops playing.
    fn pause(&self) {
        put(self.set_playing, false);
    }

    /// The clock's values for the lesson's player, untracked; `None` once the page is gone.
    fn head(&self) -> Option<Playhead> {
        Some(Playhead {
            playing: self.playing.try_get_untracked()?,
            display: self.display.try_get_untracked()?,
            speed: self.speed.try_get_untracked()?,
            hold: self.hold.try_get_untracked()?,
            skipped: self.skipped.try_get_untracked()?,
            paused_at_key: self.paused_at_key.try_get_untracked()?,
        })
    }

    /// Writes back what a frame of the player changed (`before` → `after`), so a signal's
    /// readers hear only of their own value changing.
    fn write(&self, before: Playhead, after: Playhead) {
        if after.display != before.display {
            self.set_display.set(after.display);
        }
        if after.hold != before.hold {
            self.hold.set(after.hold);
        }
        put(self.set_skipped, after.skipped);
        put(self.set_playing, after.playing);
        put(self.set_paused_at_key, after.paused_at_key);
    }
}

/// Why the player says something beside the run, until the next action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The core refused an action.
    Refused(ActionError),
    /// A hint, by its catalog key.
    Hint(&'static str),
}

impl Notice {
    /// The notice in words.
    pub fn text(&self, catalog: &Catalog) -> String {
        match self {
            Notice::Refused(error) => idem_lesson::text::action_error(error, catalog),
            Notice::Hint(key) => catalog.text(key),
        }
    }
}

/// The run on screen: its timeline and cursor in one signal, the core's verdict on the world
/// shown, and the last refusal or hint. Its methods are the only way the run changes.
#[derive(Clone, Copy)]
pub struct Lab {
    /// The run.
    pub run: ReadSignal<Run>,
    set_run: WriteSignal<Run>,
    /// The core's verdict on the world shown, computed once per change.
    pub verdict: Memo<Verdict>,
    /// The last refusal or hint, shown until the next action.
    pub notice: ReadSignal<Option<Notice>>,
    set_notice: WriteSignal<Option<Notice>>,
    /// The playback clock the run's changes reset.
    pub clock: Clock,
    /// Which world of the run the stage below shows (see [`Lab::side`]).
    pub side: Side,
    /// Where the lesson is drawn ([`provide_lab`] says; [`use_place`] reads it).
    pub place: Place,
}

impl Lab {
    /// A lab showing `run`, its steps held long enough to read in `prefs`'s language.
    pub fn new(run: Run, prefs: Prefs) -> Lab {
        let clock = Clock::new(run.world().now().ms() as f64, prefs.lang);
        let (run, set_run) = signal(run);
        let (notice, set_notice) = signal(None);
        let verdict = Memo::new(move |_| run.with(|r| r.world().verdict()));
        Lab {
            run,
            set_run,
            verdict,
            notice,
            set_notice,
            clock,
            side: Side::Left,
            place: Place::Page,
        }
    }

    /// The same lab seen from the right side of a comparison: everything is shared (the run,
    /// the clock, the actions, which reach both worlds) except the world shown and its verdict.
    pub fn side(self, side: Side) -> Lab {
        let run = self.run;
        Lab {
            side,
            verdict: Memo::new(move |_| run.with(|r| r.shown(side).verdict())),
            ..self
        }
    }

    fn changed(&self) {
        let now = self.run.with_untracked(|r| r.now().ms() as f64);
        self.clock.reset(now);
        put(self.set_notice, None);
    }

    /// Moves the cursor with `step`; the run's subscribers hear of it only when the step
    /// shown (or the number of known steps) changed.
    fn travel(&self, step: impl FnOnce(&mut Run)) {
        self.clock.pause();
        self.set_run.maybe_update(|r| {
            let before = (r.cursor(), r.known_steps());
            step(r);
            (r.cursor(), r.known_steps()) != before
        });
        self.changed();
    }

    /// One visible step forward (stepping the world past the known end): filler steps are
    /// stepped over, not stopped at (`idem_lesson::fold`).
    pub fn step_forward(&self) {
        self.travel(|r| {
            r.step_visible();
        });
    }

    /// One visible step back, exactly.
    pub fn step_back(&self) {
        self.travel(|r| {
            r.back_visible();
        });
    }

    /// Shows the end of the visible step that holds the snapshot after `index` steps.
    pub fn jump(&self, index: usize) {
        self.travel(|r| r.jump_visible(index));
    }

    /// Back to the start.
    pub fn restart(&self) {
        self.travel(Run::restart);
    }

    /// To the end of the run.
    pub fn run_to_end(&self) {
        self.travel(Run::run_to_end);
    }

    /// Play or pause. Playing at the end starts again from the beginning.
    pub fn toggle_play(&self) {
        let clock = self.clock;
        if clock.playing.get_untracked() {
            clock.set_playing.set(false);
            return;
        }
        if self.run.with_untracked(Run::at_end) {
            self.restart();
        }
        self.set_notice.set(None);
        put(clock.set_paused_at_key, false);
        clock.hold.set(0.0);
        clock.set_playing.set(true);
        // A frame of no time, at once: an event due now (the story's first) is shown by the
        // press itself, not a frame later (the first interaction answers in its own task).
        self.frame(0.0);
    }

    /// Injects an action at the cursor; a refusal becomes the notice. Returns whether the
    /// action was taken.
    pub fn act(&self, action: Action) -> bool {
        let mut result = Ok(());
        // A refused action leaves the run as it was: nobody is told it changed.
        self.set_run.maybe_update(|r| {
            result = r.apply(action);
            result.is_ok()
        });
        match result {
            Ok(()) => {
                self.changed();
                true
            }
            Err(error) => {
                self.set_notice.set(Some(Notice::Refused(error)));
                false
            }
        }
    }

    /// Shows the hint of catalog key `key` until the next action.
    pub fn say(&self, key: &'static str) {
        self.set_notice.set(Some(Notice::Hint(key)));
    }

    /// Opens another scenario from its start.
    pub fn switch(&self, id: &str) {
        let Ok(scenario) = Scenario::by_id(id) else {
            return;
        };
        self.clock.set_playing.set(false);
        self.set_run.set(Run::new(scenario));
        self.changed();
    }

    /// Opens the run a deep link describes (the caller has checked it); false when it cannot
    /// be built (the run on screen stays).
    pub fn open(&self, link: &DeepLink) -> bool {
        let Ok(run) = Run::from_link(link) else {
            return false;
        };
        self.clock.set_playing.set(false);
        self.set_run.set(run);
        self.changed();
        true
    }

    /// Flips one protection and rebuilds the run from the start.
    pub fn toggle_protection(&self, switch: Protection) {
        let mut p = self.run.with_untracked(|r| r.scenario().protections);
        p.toggle(switch);
        self.clock.set_playing.set(false);
        let rebuilt = self.run.with_untracked(|r| r.with_protections(p));
        self.set_run.set(rebuilt);
        self.changed();
    }

    /// One animation frame of `real_ms` while playing: the lesson's [`Playhead::frame`] decides
    /// (advance the display time, step when the next event is due, hold, stop); this hands it
    /// the clock's values and the run and writes back what changed. Returns whether playback
    /// goes on. Never panics on a lab whose page was unmounted (it just stops).
    pub fn frame(&self, real_ms: f64) -> bool {
        let clock = self.clock;
        let Some(before) = clock.head() else {
            return false;
        };
        if !before.playing {
            return false;
        }
        let Some(lang) = clock.lang.try_get_untracked() else {
            return false;
        };
        let mut head = before;
        // The run's readers hear of it only when it stepped.
        let frame = self.set_run.try_maybe_update(|r| {
            let frame = head.frame(r, real_ms, lang.catalog());
            (frame.stepped, frame)
        });
        let Some(frame) = frame else {
            return false;
        };
        clock.write(before, head);
        frame.go_on
    }
}

/// Sets `signal` to `value`, notifying its subscribers only when the value changes.
fn put<T: PartialEq + Send + Sync + 'static>(signal: WriteSignal<T>, value: T) {
    signal.maybe_update(|v| {
        let changed = *v != value;
        if changed {
            *v = value;
        }
        changed
    });
}

/// A value derived from the run's scenario (with its protections) and the language: computed
/// again when either changes, never on a step (for what costs a simulation, like the
/// prediction's options). On a step the memo only compares the scenario and keeps its value.
pub fn per_scenario<T>(
    lab: Lab,
    prefs: Prefs,
    compute: impl Fn(&Run, &'static Catalog) -> T + Send + Sync + 'static,
) -> Memo<PerScenario<T>>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    Memo::new(move |before: Option<&PerScenario<T>>| {
        let lang = prefs.lang.get();
        lab.run.with(|r| match before {
            Some(b) if b.lang == lang && b.scenario == *r.scenario() => b.clone(),
            _ => PerScenario {
                scenario: r.scenario().clone(),
                lang,
                value: compute(r, lang.catalog()),
            },
        })
    })
}

/// A value [`per_scenario`] computed, with what it was computed for.
#[derive(Clone, PartialEq)]
pub struct PerScenario<T> {
    scenario: Scenario,
    lang: Lang,
    /// The value.
    pub value: T,
}

/// The preferences, the clock and a lab for `run` in `lang`, laid out for the window and
/// honouring reduced motion, and where they are drawn, provided as contexts to the components
/// below.
pub fn provide_lab(run: Run, lang: Lang, place: Place) -> Lab {
    let prefs = Prefs::new(
        lang,
        current_layout(),
        media_matches("(prefers-reduced-motion: reduce)"),
    );
    let lab = Lab {
        place,
        ..Lab::new(run, prefs)
    };
    provide_context(prefs);
    provide_context(lab.clock);
    provide_context(lab);
    lab
}

/// The lab of the enclosing page or widget.
pub fn use_lab() -> Lab {
    required("provide_lab")
}

/// Where this part is drawn.
pub fn use_place() -> Place {
    use_lab().place
}

/// The playback clock of the enclosing page or widget.
pub fn use_clock() -> Clock {
    required("provide_lab")
}

/// The preferences of the enclosing page or widget.
pub fn use_prefs() -> Prefs {
    required("provide_lab")
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    use super::*;
    use idem_lesson::player::SKIP_NOTE_MS;

    fn lab(id: &str) -> Lab {
        lab_in(id, prefs())
    }

    fn prefs() -> Prefs {
        Prefs::new(Lang::En, Layout::Wide, false)
    }

    fn lab_in(id: &str, prefs: Prefs) -> Lab {
        Lab::new(Run::new(Scenario::by_id(id).expect("scenario")), prefs)
    }

    /// How often the run's subscribers have been told it changed (read it to bring it up to
    /// date).
    fn notifications(lab: Lab) -> impl Fn() -> usize {
        let count = Arc::new(AtomicUsize::new(0));
        let seen = Memo::new(move |_| {
            lab.run.track();
            count.fetch_add(1, Ordering::Relaxed) + 1
        });
        seen.get_untracked();
        move || seen.get_untracked() - 1
    }

    #[test]
    fn a_refused_action_changes_nothing_and_notifies_nobody() {
        let lab = lab("naive");
        let heard = notifications(lab);
        // At the start nothing has been sent: there is nothing to retry.
        lab.act(Action::RetryNow);
        assert_eq!(heard(), 0, "a refusal must not notify");
        assert!(lab.notice.get_untracked().is_some(), "the refusal is said");
        lab.step_forward();
        assert_eq!(heard(), 1);
        assert!(
            lab.notice.get_untracked().is_none(),
            "the next action clears it"
        );
    }

    #[test]
    fn moves_that_go_nowhere_notify_nobody() {
        let lab = lab("naive");
        let heard = notifications(lab);
        lab.step_back();
        lab.restart();
        lab.jump(0);
        assert_eq!(heard(), 0);
        lab.run_to_end();
        assert_eq!(heard(), 1);
        lab.run_to_end();
        lab.step_forward();
        assert_eq!(heard(), 1, "at the end there is nothing more to show");
        lab.restart();
        assert_eq!(heard(), 2);
    }

    #[test]
    fn the_skipped_note_belongs_to_one_step() {
        // The clock-advance story has a 25 h quiet gap that playback jumps over.
        let lab = lab("naive");
        lab.clock.set_skipped.set(Some(90_000_000));
        // Playing, the next due step that follows no gap clears the note.
        lab.clock.set_playing.set(true);
        let mut cleared = false;
        for _ in 0..10_000 {
            if !lab.frame(50.0) {
                break;
            }
            if lab.clock.skipped.get_untracked().is_none() {
                cleared = true;
                break;
            }
        }
        assert!(cleared, "the note stayed up while playing on");
    }

    #[test]
    fn a_long_gap_is_noted_on_the_step_it_leads_to() {
        let lab = lab("naive");
        // Put the display far behind the next event: the next frame jumps the gap.
        lab.clock.set_display.set(-1_000_000.0);
        lab.clock.set_playing.set(true);
        assert!(lab.frame(16.0));
        assert!(lab.clock.skipped.get_untracked().is_some());
        // Even at 4x the step (and its note) is held long enough to read.
        lab.clock.set_speed.set(4.0);
        let step = lab.run.with_untracked(Run::cursor);
        for _ in 0..((SKIP_NOTE_MS / 100.0) as usize - 1) {
            assert!(lab.frame(100.0));
        }
        assert_eq!(lab.run.with_untracked(Run::cursor), step);
        assert!(lab.clock.skipped.get_untracked().is_some());
        lab.step_forward();
        assert!(
            lab.clock.skipped.get_untracked().is_none(),
            "a step by hand clears it"
        );
    }

    /// Pressing Play shows the story's first step at once when it is due now (the press
    /// answers in its own task, not a frame later); playing on waits for the step's hold.
    #[test]
    fn play_shows_a_step_due_now_at_once() {
        let lab = lab("naive");
        assert_eq!(lab.run.with_untracked(Run::cursor), 0);
        assert_eq!(
            lab.run.with_untracked(Run::next_time).map(|t| t.ms()),
            Some(0)
        );
        lab.toggle_play();
        assert_eq!(lab.run.with_untracked(Run::cursor), 1, "the press stepped");
        assert!(lab.clock.playing.get_untracked());
        // The step is held long enough to read: a short frame does not step again.
        assert!(lab.frame(16.0));
        assert_eq!(lab.run.with_untracked(Run::cursor), 1);
        // Pause and play again: the hold is reset, and what is due now is shown.
        lab.toggle_play();
        assert!(!lab.clock.playing.get_untracked());
        let at = lab.run.with_untracked(Run::cursor);
        let due_now = lab
            .run
            .with_untracked(Run::next_time)
            .map(|t| t.ms() as f64)
            <= Some(lab.clock.display.get_untracked());
        lab.toggle_play();
        assert_eq!(
            lab.run.with_untracked(Run::cursor),
            if due_now { at + 1 } else { at }
        );
    }

    #[test]
    fn a_stop_at_a_key_moment_is_said_until_the_next_action() {
        let lab = lab("naive");
        lab.toggle_play();
        let mut frames = 0;
        while lab.frame(100.0) {
            frames += 1;
            assert!(frames < 100_000, "playback never stopped");
            assert!(
                !lab.clock.paused_at_key.get_untracked(),
                "said before the stop"
            );
        }
        assert!(
            !lab.run.with_untracked(Run::at_end),
            "the naive story stops at its lost answer, before the end"
        );
        assert!(
            lab.clock.paused_at_key.get_untracked(),
            "the stop is not said"
        );
        lab.toggle_play();
        assert!(!lab.clock.paused_at_key.get_untracked(), "Play clears it");
        lab.toggle_play();
        lab.clock.set_paused_at_key.set(true);
        lab.step_forward();
        assert!(!lab.clock.paused_at_key.get_untracked(), "a step clears it");
    }

    #[test]
    fn per_scenario_values_are_computed_once_per_scenario() {
        let prefs = prefs();
        let lab = lab_in("naive", prefs);
        let computed = Arc::new(AtomicUsize::new(0));
        let memo = {
            let computed = Arc::clone(&computed);
            per_scenario(lab, prefs, move |r, _| {
                computed.fetch_add(1, Ordering::Relaxed);
                r.scenario().id.clone()
            })
        };
        assert_eq!(memo.get_untracked().value, "naive");
        lab.step_forward();
        lab.step_forward();
        lab.run_to_end();
        lab.step_back();
        assert_eq!(memo.get_untracked().value, "naive");
        assert_eq!(computed.load(Ordering::Relaxed), 1, "recomputed on a step");
        lab.toggle_protection(Protection::Key);
        assert_eq!(memo.get_untracked().value, "naive");
        assert_eq!(
            computed.load(Ordering::Relaxed),
            2,
            "protections are part of it"
        );
        lab.switch("key");
        assert_eq!(memo.get_untracked().value, "key");
        assert_eq!(computed.load(Ordering::Relaxed), 3);
        prefs.set_lang.set(Lang::Ru);
        memo.get_untracked();
        assert_eq!(
            computed.load(Ordering::Relaxed),
            4,
            "the language is part of it"
        );
    }
}
