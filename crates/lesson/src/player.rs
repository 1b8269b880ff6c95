//! The player's policy, frame by frame: when playing steps the run, how long a step stays on
//! screen to be read, when a quiet gap is jumped over, and where playback stops by itself (the
//! run's end, a key moment of the story at 1× and slower; a step is held and stopped at only
//! once it is a whole visible step, [`crate::fold`]). Pure: the web crate keeps the
//! clock's values in signals, hands them here as a [`Playhead`] with the run once a frame, and
//! writes back what changed, so the policy is tested natively, beside [`tick`] and
//! [`hold_ms`].

use crate::i18n::Catalog;
use crate::playback::{hold_ms, key_moment, tick, Run};
use crate::stage::summary::narration_chars;

/// Real time (ms) playback holds the step after a skipped gap, so its note can be read.
pub const SKIP_NOTE_MS: f64 = 2_000.0;

/// The playback clock's values between two frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playhead {
    /// Playing or paused.
    pub playing: bool,
    /// Simulated time on screen (ms): between the world's time and its next event.
    pub display: f64,
    /// Playback speed (× real time).
    pub speed: f64,
    /// Real time (ms) the current step is still held on screen.
    pub hold: f64,
    /// A quiet gap just jumped over (simulated ms): said on the step it led to.
    pub skipped: Option<u64>,
    /// Playback stopped by itself at a key moment of the story.
    pub paused_at_key: bool,
}

/// What one frame did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Playback goes on: ask for another frame.
    pub go_on: bool,
    /// The run took a step (its holder tells its readers; otherwise nobody need hear).
    pub stepped: bool,
}

impl Playhead {
    /// One animation frame of `real_ms` on `run`, whose steps are read in `catalog`: while a
    /// step is held only the hold shrinks; otherwise the display time advances ([`tick`]) and,
    /// when the next event is due, the run steps and the step is held long enough to read
    /// ([`hold_ms`], at least [`SKIP_NOTE_MS`] after a skipped gap). Playing stops at the
    /// run's end, and at 1× or slower at a key moment before it ([`key_moment`]), said as
    /// `paused_at_key`. A paused head does nothing.
    pub fn frame(&mut self, run: &mut Run, real_ms: f64, catalog: &Catalog) -> Frame {
        let stop = Frame {
            go_on: false,
            stepped: false,
        };
        if !self.playing {
            return stop;
        }
        let Some(next) = run.next_time() else {
            self.playing = false;
            return stop;
        };
        if self.hold > 0.0 {
            self.hold -= real_ms;
            return Frame {
                go_on: true,
                stepped: false,
            };
        }
        let t = tick(self.display, real_ms, self.speed, Some(next));
        self.display = t.display;
        if !t.due {
            return Frame {
                go_on: true,
                stepped: false,
            };
        }
        // The note on a skipped gap belongs to the visible step it led to: the next visible
        // step clears it (a filler step folded into this one keeps it).
        let continues = !run.at_stop();
        self.skipped = if continues {
            self.skipped.or(t.skipped_ms)
        } else {
            t.skipped_ms
        };
        run.step_forward();
        // Inside a visible step (a filler step follows): no hold, no stop; the step is read
        // once it is whole.
        if !run.at_stop() {
            self.hold = 0.0;
            return Frame {
                go_on: true,
                stepped: true,
            };
        }
        // At 1× and slower: time to read the step, and a stop at the story's key moments.
        let chars = narration_chars(run.world(), catalog);
        let at_key = !run.at_end() && key_moment(run.world());
        let hold = hold_ms(chars, self.speed);
        // At any speed, the note on a skipped gap stays long enough to be read.
        self.hold = if self.skipped.is_some() {
            hold.max(SKIP_NOTE_MS)
        } else {
            hold
        };
        if self.speed <= 1.0 && at_key {
            self.playing = false;
            // Said beside the narration: a pause nobody asked for looks like a freeze.
            self.paused_at_key = true;
            return Frame {
                go_on: false,
                stepped: true,
            };
        }
        Frame {
            go_on: true,
            stepped: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use idem_core::Scenario;

    fn run(id: &str) -> Run {
        Run::new(Scenario::by_id(id).expect("scenario"))
    }

    fn playing(speed: f64) -> Playhead {
        Playhead {
            playing: true,
            display: 0.0,
            speed,
            hold: 0.0,
            skipped: None,
            paused_at_key: false,
        }
    }

    #[test]
    fn a_paused_head_leaves_the_run_and_itself_alone() {
        let mut r = run("naive");
        let mut head = Playhead {
            playing: false,
            ..playing(1.0)
        };
        let before = (r.clone(), head);
        let frame = head.frame(&mut r, 100.0, Lang::En.catalog());
        assert_eq!(
            frame,
            Frame {
                go_on: false,
                stepped: false
            }
        );
        assert_eq!((r, head), before);
    }

    /// A step due now is taken at once, then held as long as its narration takes to read at
    /// 1×, half that at 2×, not at all at 4×; while held, frames only shrink the hold.
    #[test]
    fn a_step_is_held_long_enough_to_read_at_its_speed() {
        let c = Lang::En.catalog();
        for speed in [1.0, 2.0, 4.0] {
            let mut r = run("naive");
            let mut head = playing(speed);
            let frame = head.frame(&mut r, 0.0, c);
            assert!(frame.go_on && frame.stepped, "{speed}: {frame:?}");
            assert_eq!(r.cursor(), 1);
            let want = hold_ms(narration_chars(r.world(), c), speed);
            assert_eq!(head.hold, want, "{speed}");
            assert_eq!(want > 0.0, speed <= 2.0, "{speed}: {want}");
            if want > 0.0 {
                let frame = head.frame(&mut r, 100.0, c);
                assert!(frame.go_on && !frame.stepped);
                assert_eq!(head.hold, want - 100.0);
                assert_eq!(r.cursor(), 1, "held, not stepped");
            }
        }
    }

    /// A gap longer than the quiet gap is jumped over in one frame and said on the step it
    /// led to, held at least [`SKIP_NOTE_MS`] even at 4×; the next step clears the note.
    #[test]
    fn a_long_gap_is_jumped_and_its_note_held_on_its_step() {
        let c = Lang::En.catalog();
        let mut r = run("naive");
        let mut head = Playhead {
            display: -1_000_000.0,
            ..playing(4.0)
        };
        let next = r.next_time().expect("a next event").ms();
        let frame = head.frame(&mut r, 16.0, c);
        assert!(frame.go_on && frame.stepped);
        assert_eq!(head.skipped, Some(next + 1_000_000));
        assert_eq!(head.display, next as f64);
        assert_eq!(head.hold, SKIP_NOTE_MS);
        let mut frames = 0;
        while head.hold > 0.0 {
            assert!(!head.frame(&mut r, 100.0, c).stepped);
            frames += 1;
        }
        assert_eq!(frames, (SKIP_NOTE_MS / 100.0) as usize);
        assert!(head.skipped.is_some(), "still said while held");
        let mut steps = 0;
        while head.frame(&mut r, 100.0, c).go_on && steps < 10_000 {
            steps += 1;
            if r.cursor() > 1 {
                break;
            }
        }
        assert_eq!(r.cursor(), 2);
        assert_eq!(head.skipped, None, "the next step without a gap clears it");
    }

    /// Playing the key story at 1×: every core step is taken (the snapshots stay the core's),
    /// but a step is held to be read only where the Step button stops: "Redis answers OK" and
    /// the ledger's statement count go by without a hold of their own.
    #[test]
    fn playback_holds_only_whole_visible_steps() {
        let c = Lang::En.catalog();
        let mut r = run("key");
        let mut head = playing(1.0);
        let mut seen = Vec::new();
        let mut frames = 0;
        while frames < 100_000 {
            frames += 1;
            let frame = head.frame(&mut r, 50.0, c);
            if frame.stepped {
                seen.push(r.cursor());
                let stop = r.at_stop();
                assert_eq!(head.hold > 0.0, stop, "at {}", r.cursor());
            }
            if !frame.go_on {
                if r.at_end() {
                    break;
                }
                assert!(r.at_stop(), "a key moment is a whole step");
                head.playing = true;
            }
        }
        assert!(r.at_end());
        assert_eq!(seen, (1..=r.known_steps()).collect::<Vec<_>>());
        let stops = r.stops();
        assert_eq!(
            seen.iter().filter(|c| stops.is_stop(**c)).count(),
            r.visible_total()
        );
        assert!(r.visible_total() < r.known_steps());
    }

    /// At 1× the naive story stops by itself at its lost answer, before the end, and says so;
    /// at 4× it plays to the end and stops there without a word.
    #[test]
    fn playback_stops_at_a_key_moment_when_slow_and_at_the_end() {
        let c = Lang::En.catalog();
        let play = |speed: f64| {
            let mut r = run("naive");
            let mut head = playing(speed);
            let mut frames = 0;
            while head.frame(&mut r, 100.0, c).go_on {
                frames += 1;
                assert!(frames < 100_000, "playback never stopped");
            }
            (r, head)
        };
        let (slow, head) = play(1.0);
        assert!(!slow.at_end(), "stopped before the end");
        assert!(key_moment(slow.world()));
        assert!(!head.playing && head.paused_at_key);
        let (fast, head) = play(4.0);
        assert!(fast.at_end(), "4× plays through");
        assert!(!head.playing && !head.paused_at_key);
        let mut end = fast.clone();
        let mut again = playing(4.0);
        let frame = again.frame(&mut end, 100.0, c);
        assert_eq!(
            frame,
            Frame {
                go_on: false,
                stepped: false
            },
            "nothing left to play"
        );
        assert!(!again.playing);
        assert_eq!(end, fast);
    }
}
