//! A student's work as a recording (issue 43, item 4): what they did, with its times, in a
//! versioned compact text a URL or a database field holds (`replay=` links, `record()` and
//! `replay()` on a widget's handle), and the exact replay of it. The core is deterministic,
//! so replaying the entries from the recorded start reaches the same step, faults and verdict.
//!
//! ```text
//! R1*0oscenario~key*1200p*2400h5*300f5.evict*900k.lock.0*10s3*0e3
//! ```
//!
//! `R1` is the format's version; each entry is `*`, the milliseconds since the previous entry,
//! a letter, and its argument:
//!
//! | letter | entry | argument |
//! | --- | --- | --- |
//! | `o` | a run opened whole (the start, another story, a challenge, "Surprise me", a counter-example) | its link's query, `=` written `~` and `&` written `,` |
//! | `s` | the step shown (a step, a restart, run to the end) | the run's step count |
//! | `p` | Play | |
//! | `h` | Pause | the step count where playback was paused |
//! | `f` | a fault, a drop or a Retry | `<n>.<token>`: the step count it was placed at, and its link spelling |
//! | `k` | a protection switched | `.<name>.<1 or 0>` |
//! | `g` | a prediction | the choice's value |
//! | `n` | something that does not change the run (a glossary term, a quiz answer, a search) | the action's kind |
//! | `e` | the end of the recording: the step shown, paused | the step count |
//!
//! Every character is one a URL's query value holds as it is (`replay=R1*…`); a host that
//! percent-encodes it anyway (`encodeURIComponent`) is read the same.
//!
//! A recording of another version is refused whole with that reason, never half-played; so is
//! one whose entries do not replay (a fault the run refuses, a step past its end).

use std::fmt;

use idem_core::{DeepLink, Protection};

use crate::playback::{run_from_query, Run};
use crate::stream::{Act, Seen};

/// The version of the recording format (`R1`).
pub const VERSION: u32 = 1;
/// The longest recording read (characters).
pub const MAX_LEN: usize = 16_384;
/// The most entries a recording holds.
pub const MAX_ENTRIES: usize = 1_000;

/// The `replay=` parameter of a link's query (percent-encoded or not), if any.
pub fn replay_param(query: &str) -> Option<&str> {
    crate::lang::query_param(query, "replay")
}

/// One thing the student did (or the start), as the recording keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A run opened whole: its link's query.
    Open(String),
    /// The step shown: the run's step count.
    Step(usize),
    /// Play pressed.
    Play,
    /// Pause pressed at this step count.
    Pause(usize),
    /// An action placed at this step count of the run (its link spelling).
    Fault(u32, String),
    /// A protection switched on or off.
    Protection(Protection, bool),
    /// A prediction: the choice's value.
    Guess(String),
    /// Something that does not change the run: the action's kind.
    Note(String),
    /// The end: the step shown, paused.
    End(usize),
}

/// A recording: its entries, each with the milliseconds since the previous one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recording {
    /// (ms since the previous entry, entry), the first one the start.
    pub entries: Vec<(u64, Entry)>,
}

/// Why a recording cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordingError {
    /// Longer than [`MAX_LEN`] characters.
    TooLong(usize),
    /// More than [`MAX_ENTRIES`] entries.
    TooMany(usize),
    /// Not a recording: it does not start with `R` and a version.
    NotARecording,
    /// Made in another version of the format.
    Version(String),
    /// An entry cannot be read.
    BadEntry {
        /// Its position (the start is 0).
        index: usize,
        /// The entry as written.
        text: String,
    },
    /// It does not start with a run opened whole.
    NoStart,
    /// An entry does not replay on the run it reaches (a refused fault, a step past the end,
    /// a link with problems).
    DoesNotReplay {
        /// Its position.
        index: usize,
    },
}

impl fmt::Display for RecordingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordingError::TooLong(n) => {
                write!(f, "a recording is at most {MAX_LEN} characters, not {n}")
            }
            RecordingError::TooMany(n) => {
                write!(
                    f,
                    "a recording holds at most {MAX_ENTRIES} entries, not {n}"
                )
            }
            RecordingError::NotARecording => {
                write!(f, "not a recording: it must start with `R{VERSION}*`")
            }
            RecordingError::Version(v) => write!(
                f,
                "the recording's format is version `{v}`; this lab replays version `{VERSION}` only"
            ),
            RecordingError::BadEntry { index, text } => write!(
                f,
                "entry {index} (`{text}`) cannot be read; allowed: milliseconds, then one of \
                 `o`, `s`, `p`, `h`, `f`, `k`, `g`, `n`, `e` and its argument"
            ),
            RecordingError::NoStart => write!(f, "the first entry must open a run (`0o<link>`)"),
            RecordingError::DoesNotReplay { index } => write!(
                f,
                "entry {index} does not replay on the run before it (the recording was edited, \
                 or made by another version of the lesson)"
            ),
        }
    }
}

impl Recording {
    /// A recording that starts with the run `seen` shows.
    pub fn starting(seen: &Seen) -> Recording {
        let mut recording = Recording::default();
        recording.push(0, Entry::Open(seen.link.to_query()));
        if let Some(guess) = &seen.guess {
            recording.push(0, Entry::Guess(guess.clone()));
        }
        recording
    }

    /// Adds `entry`, `ms` after the previous one (bounded: entries past [`MAX_ENTRIES`] are
    /// not kept, the end still is).
    pub fn push(&mut self, ms: u64, entry: Entry) {
        if self.entries.len() < MAX_ENTRIES - 1 {
            self.entries.push((ms, entry));
        }
    }

    /// Adds what the student did between two observations (`acts`, from
    /// [`crate::stream::diff`]), `ms` after the previous entry; `after` is the second one.
    pub fn note(&mut self, ms: u64, acts: &[Act], after: &Seen) {
        let mut ms = ms;
        for act in acts {
            let entry = match act {
                Act::Step { .. } => Entry::Step(after.cursor),
                Act::Play => Entry::Play,
                Act::Pause => Entry::Pause(after.cursor),
                // Placed at the step shown before it: the run's apply moves one on.
                Act::Fault { .. } | Act::Drop { .. } | Act::Retry { .. } => {
                    match (after.link.faults.last(), after.cursor.checked_sub(1)) {
                        (Some((_, action)), Some(at)) => {
                            Entry::Fault(at as u32, DeepLink::action_token(action))
                        }
                        _ => Entry::Open(after.link.to_query()),
                    }
                }
                Act::Protection { name, on } => match Protection::from_name(name) {
                    Some(p) => Entry::Protection(p, *on),
                    None => Entry::Open(after.link.to_query()),
                },
                Act::Scenario | Act::Open | Act::Surprise { .. } => {
                    Entry::Open(after.link.to_query())
                }
                Act::Prediction { choice } => Entry::Guess(choice.clone()),
                other => Entry::Note(other.kind().to_owned()),
            };
            self.push(ms, entry);
            ms = 0;
        }
    }

    /// The recording as text, ending with the step `end` shows (paused).
    pub fn text(&self, end: usize) -> String {
        let mut out = format!("R{VERSION}");
        let ended = self
            .entries
            .iter()
            .map(|(ms, e)| (*ms, e.clone()))
            .chain([(0, Entry::End(end))]);
        for (ms, entry) in ended {
            out.push('*');
            out.push_str(&ms.to_string());
            out.push_str(&entry.text());
        }
        out
    }

    /// Reads a recording's text; refused whole when anything in it is not this version's.
    pub fn parse(text: &str) -> Result<Recording, RecordingError> {
        if text.len() > MAX_LEN {
            return Err(RecordingError::TooLong(text.len()));
        }
        let decoded = crate::lang::percent_decode(text);
        let text = decoded.as_str();
        let mut parts = text.split('*');
        let head = parts.next().unwrap_or_default();
        let version = head
            .strip_prefix('R')
            .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_alphanumeric()))
            .ok_or(RecordingError::NotARecording)?;
        if version != VERSION.to_string() {
            return Err(RecordingError::Version(version.to_owned()));
        }
        let mut entries = Vec::new();
        for (index, part) in parts.enumerate() {
            if entries.len() >= MAX_ENTRIES {
                return Err(RecordingError::TooMany(text.split('*').count() - 1));
            }
            let bad = || RecordingError::BadEntry {
                index,
                text: part.chars().take(40).collect(),
            };
            let digits = part.bytes().take_while(u8::is_ascii_digit).count();
            let ms: u64 = part[..digits].parse().map_err(|_| bad())?;
            let rest = &part[digits..];
            let mut chars = rest.chars();
            let letter = chars.next().ok_or_else(bad)?;
            let arg = chars.as_str();
            entries.push((ms, Entry::read(letter, arg).ok_or_else(bad)?));
        }
        if !matches!(entries.first(), Some((_, Entry::Open(_)))) {
            return Err(RecordingError::NoStart);
        }
        Ok(Recording { entries })
    }

    /// Replays the recording: the run after each entry, with the time it comes at (ms since
    /// the start) and whether it is playing then. Refused whole when any entry does not
    /// replay. The last frame is where the recording ended.
    pub fn replay(&self) -> Result<Vec<Frame>, RecordingError> {
        let mut frames: Vec<Frame> = Vec::new();
        let mut t = 0u64;
        for (index, (ms, entry)) in self.entries.iter().enumerate() {
            t = t.saturating_add(*ms);
            let failed = || RecordingError::DoesNotReplay { index };
            let before = frames.last();
            let (run, playing, guess) = match (entry, before) {
                (Entry::Open(query), _) => {
                    let (run, errors) = run_from_query(query);
                    if !errors.is_empty() {
                        return Err(failed());
                    }
                    let guess = before.and_then(|b| b.guess.clone());
                    (run, false, guess)
                }
                (_, None) => return Err(RecordingError::NoStart),
                (Entry::Step(n) | Entry::Pause(n) | Entry::End(n), Some(b)) => {
                    let mut run = b.run.clone();
                    if *n > run.known_steps() {
                        return Err(failed());
                    }
                    run.jump(*n);
                    (run, false, b.guess.clone())
                }
                (Entry::Play, Some(b)) => (b.run.clone(), true, b.guess.clone()),
                (Entry::Fault(at, token), Some(b)) => {
                    let mut run = b.run.clone();
                    let link =
                        DeepLink::parse(&format!("faults={at}.{token}")).map_err(|_| failed())?;
                    let action = link.faults.first().map(|(_, a)| *a).ok_or_else(failed)?;
                    if *at as usize > run.known_steps() {
                        return Err(failed());
                    }
                    run.jump(*at as usize);
                    run.apply(action).map_err(|_| failed())?;
                    (run, false, b.guess.clone())
                }
                (Entry::Protection(p, on), Some(b)) => {
                    let mut protections = b.run.scenario().protections;
                    protections.set_on(*p, *on);
                    (b.run.with_protections(protections), false, b.guess.clone())
                }
                (Entry::Guess(choice), Some(b)) => {
                    let scenario = b.run.scenario().id.clone();
                    (b.run.clone(), b.playing, Some((scenario, choice.clone())))
                }
                (Entry::Note(_), Some(b)) => (b.run.clone(), b.playing, b.guess.clone()),
            };
            frames.push(Frame {
                at_ms: t,
                run,
                playing,
                guess,
            });
        }
        Ok(frames)
    }
}

/// The run after one entry of a replay.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// When it comes: ms since the recording's start.
    pub at_ms: u64,
    /// The run.
    pub run: Run,
    /// Playing from here (until the next entry).
    pub playing: bool,
    /// The prediction made: (scenario id, choice).
    pub guess: Option<(String, String)>,
}

impl Entry {
    fn text(&self) -> String {
        match self {
            Entry::Open(query) => format!("o{}", query.replace('=', "~").replace('&', ",")),
            Entry::Step(n) => format!("s{n}"),
            Entry::Play => "p".to_owned(),
            Entry::Pause(n) => format!("h{n}"),
            Entry::Fault(at, token) => format!("f{at}.{token}"),
            Entry::Protection(p, on) => format!("k.{}.{}", p.name(), u8::from(*on)),
            Entry::Guess(choice) => format!("g{choice}"),
            Entry::Note(kind) => format!("n{kind}"),
            Entry::End(n) => format!("e{n}"),
        }
    }

    fn read(letter: char, arg: &str) -> Option<Entry> {
        let number = || arg.parse::<usize>().ok();
        let plain = |s: &str| {
            (s.len() <= 64
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)))
            .then(|| s.to_owned())
        };
        Some(match letter {
            'o' => Entry::Open(
                (arg.len() <= DeepLink::MAX_QUERY_LEN
                    && arg
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-_.~,".contains(&b)))
                .then(|| arg.replace('~', "=").replace(',', "&"))?,
            ),
            's' => Entry::Step(number()?),
            'p' if arg.is_empty() => Entry::Play,
            'h' => Entry::Pause(number()?),
            'e' => Entry::End(number()?),
            'f' => {
                let (at, token) = arg.split_once('.')?;
                Entry::Fault(at.parse().ok()?, plain(token).filter(|t| !t.is_empty())?)
            }
            'k' => {
                let (name, on) = arg.strip_prefix('.')?.rsplit_once('.')?;
                let on = match on {
                    "1" => true,
                    "0" => false,
                    _ => return None,
                };
                Entry::Protection(Protection::from_name(name)?, on)
            }
            'g' => Entry::Guess(plain(arg)?),
            'n' => Entry::Note(plain(arg)?),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use idem_core::{Action, Scenario};

    fn seen(run: &Run) -> Seen {
        Seen::of(run, false, false, None)
    }

    #[test]
    fn a_recorded_session_replays_to_the_same_run() {
        let mut run = Run::new(Scenario::by_id("key").expect("scenario"));
        let start = seen(&run);
        let mut recording = Recording::starting(&start);
        let mut before = start;
        let record = |run: &Run, before: &mut Seen, recording: &mut Recording| {
            let after = seen(run);
            let acts = crate::stream::diff(before, &after);
            recording.note(250, &acts, &after);
            *before = after;
        };
        run.step_visible();
        run.step_visible();
        record(&run, &mut before, &mut recording);
        run.apply(Action::RetryNow).expect("retry");
        record(&run, &mut before, &mut recording);
        let mut p = run.scenario().protections;
        p.toggle(Protection::Lock);
        run = run.with_protections(p);
        record(&run, &mut before, &mut recording);
        run.step_visible();
        run.apply(Action::EvictKeys).expect("evict");
        record(&run, &mut before, &mut recording);
        run.run_to_end();
        record(&run, &mut before, &mut recording);
        let text = recording.text(run.cursor());
        assert!(text.starts_with("R1*0oscenario~key*250s"), "{text}");
        assert!(
            text.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.~,*".contains(&b)),
            "{text}"
        );
        let parsed = Recording::parse(&text).expect("it reads back");
        let frames = parsed.replay().expect("it replays");
        let last = frames.last().expect("frames");
        assert_eq!(last.run.link(), run.link());
        assert_eq!(last.run.world().verdict(), run.world().verdict());
        assert_eq!(last.at_ms, 250 * 5);
    }

    #[test]
    fn another_version_and_edited_entries_are_refused_whole() {
        assert_eq!(
            Recording::parse("R2*0oscenario~key"),
            Err(RecordingError::Version("2".into()))
        );
        assert_eq!(
            Recording::parse("scenario=key"),
            Err(RecordingError::NotARecording)
        );
        assert_eq!(Recording::parse("R1*0s3"), Err(RecordingError::NoStart));
        assert!(matches!(
            Recording::parse("R1*0oscenario~key*5x"),
            Err(RecordingError::BadEntry { index: 1, .. })
        ));
        let past_the_end = Recording::parse("R1*0oscenario%7Ekey*5s4999").expect("reads");
        assert_eq!(
            past_the_end.replay(),
            Err(RecordingError::DoesNotReplay { index: 1 })
        );
        let message = RecordingError::Version("2".into()).to_string();
        assert!(
            message.contains("version `2`") && message.contains("`1`"),
            "{message}"
        );
    }
}
