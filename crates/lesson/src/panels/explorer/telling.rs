//! A search's end put into words slice by slice: the page's workers hand over a report, and
//! each frame puts a few more of its counter-examples (and of the classes changed since the
//! previous search) into words, for up to [`super::SLICE_MS`], until all are told.

use idem_core::Invariant;
use idem_core::{CounterExample, Report, Scenario};

use crate::i18n::{Catalog, Lang};
use crate::markup::SafeHtml;

use super::{class_words, diff_html, listing, schedule_text, search_diff, CxText, LISTED};

/// A panel's searches: which one is current (a search's replies carry its generation, so a
/// stale one is ignored), the report being put into words, and the previous finished search.
/// The search itself runs elsewhere (the page's workers); its report comes here to be told.
pub struct Telling {
    /// The current search's number.
    pub generation: u32,
    /// A search that finished or was stopped, its counter-examples being put into words.
    pub words: Option<Words>,
    /// The previous finished search: the scenario it ran on and its counter-examples.
    pub previous: Option<(Scenario, Vec<CounterExample>)>,
}

/// The words of a finished (or stopped) search, built a few at a time between frames: putting
/// a counter-example into words replays it under other protections (`closing_protections`),
/// tens of runs each, too much to do all at once in one frame.
pub struct Words {
    pub report: Report,
    /// Each schedule once, with the rules it breaks ([`listing`]).
    pub listing: Vec<(CounterExample, Vec<Invariant>)>,
    pub stopped: bool,
    pub texts: Vec<(CounterExample, CxText)>,
    /// What changed since the previous search of the same scenario: the counter-examples of
    /// the classes gone (found on `was`) and new, and their words so far.
    pub diff: Option<DiffWords>,
}

pub struct DiffWords {
    pub was: Scenario,
    pub fixed: Vec<CounterExample>,
    pub new: Vec<CounterExample>,
    pub words: Vec<String>,
}

/// What the panel shows: a search's bound, its report so far, the scenario it ran on (without
/// scripted faults), whether Stop cut it short, and its counter-examples in words (once they
/// are all built).
#[derive(Clone)]
pub struct Shown {
    pub k: u32,
    pub report: Report,
    pub base: Scenario,
    pub stopped: bool,
    pub texts: Vec<(CounterExample, CxText)>,
    /// The language the search started in, which `texts` are in.
    pub lang: Lang,
}

/// What one frame's putting into words came to.
pub enum Told {
    /// Still putting a finished search into words: its totals, the state still "running".
    Running(Report),
    /// Stopped: the counter-examples found so far are in words.
    Stopped(Vec<(CounterExample, CxText)>),
    /// Finished and in words, with what changed since the previous search, if comparable.
    Done(
        Report,
        Vec<(CounterExample, CxText)>,
        Option<(usize, usize, SafeHtml)>,
    ),
}

impl Telling {
    /// No search yet.
    pub fn new() -> Telling {
        Telling {
            generation: 0,
            words: None,
            previous: None,
        }
    }

    /// `report`, the end of the current search of `base` (finished, or cut short when
    /// `stopped`), is put into words next.
    pub fn ended(&mut self, report: Report, stopped: bool, base: &Scenario) {
        let previous = (!stopped).then_some(self.previous.as_ref()).flatten();
        self.words = Some(Words::new(report, stopped, previous, base));
    }
}

impl Default for Telling {
    fn default() -> Self {
        Telling::new()
    }
}

impl Words {
    pub fn new(
        report: Report,
        stopped: bool,
        previous: Option<&(Scenario, Vec<CounterExample>)>,
        base: &Scenario,
    ) -> Words {
        let diff = (!stopped)
            .then_some(previous)
            .flatten()
            .filter(|(was, _)| was.id == base.id)
            .map(|(was, cxs)| {
                let (fixed, new) = search_diff(cxs, &report.shortest);
                DiffWords {
                    was: was.clone(),
                    fixed,
                    new,
                    words: Vec::new(),
                }
            });
        Words {
            listing: listing(&report.shortest),
            report,
            stopped,
            texts: Vec::new(),
            diff,
        }
    }

    /// Puts one more counter-example into words; false when all are.
    pub fn one_more(&mut self, base: &Scenario, catalog: &Catalog) -> bool {
        if let Some((cx, breaks)) = self
            .listing
            .get(self.texts.len())
            .filter(|_| self.texts.len() < LISTED)
        {
            self.texts
                .push((cx.clone(), schedule_text(cx, breaks, base, catalog)));
            return true;
        }
        let Some(d) = self.diff.as_mut() else {
            return false;
        };
        let i = d.words.len();
        let (cx, on) = match d.fixed.get(i) {
            Some(cx) => (cx, &d.was),
            None => match d.new.get(i - d.fixed.len()) {
                Some(cx) => (cx, base),
                None => return false,
            },
        };
        d.words.push(class_words(cx, on, catalog));
        true
    }

    pub fn finish(self, catalog: &Catalog) -> Told {
        if self.stopped {
            return Told::Stopped(self.texts);
        }
        let diff = self.diff.map(|d| {
            let (fixed, new) = d.words.split_at(d.fixed.len());
            (fixed.len(), new.len(), diff_html(fixed, new, catalog))
        });
        Told::Done(self.report, self.texts, diff)
    }
}

/// One frame's work: put the ended search into words while `more` says so (the page: for up
/// to [`SLICE_MS`]), asking it before every counter-example, so a frame overruns by one at most.
pub fn tell(
    s: &mut Telling,
    base: &Scenario,
    catalog: &Catalog,
    mut more: impl FnMut() -> bool,
) -> Option<Told> {
    let words = s.words.as_mut()?;
    while more() {
        if !words.one_more(base, catalog) {
            let words = s.words.take()?;
            if !words.stopped {
                s.previous = Some((base.clone(), words.report.shortest.clone()));
            }
            return Some(words.finish(catalog));
        }
    }
    // Not yet in words: the totals are final, the state still "running".
    let mut report = words.report.clone();
    report.done = false;
    Some(Told::Running(report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::panels::explorer::*;
    use idem_core::Bounds;
    use idem_core::Explorer;
    use idem_core::Scenario;

    /// The page's numbers are the core's: a finished search's report, its counter-examples put
    /// into words a few at a time as the frames do, ends as the report of the core's search, shown with the same runs,
    /// situations, steps and violating runs, in both languages' words.
    #[test]
    fn the_page_shows_the_cores_counts() {
        let key = Scenario::by_id("key").expect("key");
        let base = key.clone().without_scripted_faults();
        let core = Explorer::new(&key, Bounds::faults(2)).run_to_end().clone();
        let mut search = Telling::new();
        search.ended(
            Explorer::new(&key, Bounds::faults(2)).run_to_end().clone(),
            false,
            &base,
        );
        let c = Lang::En.catalog();
        let mut frames = 0;
        let (report, texts) = loop {
            frames += 1;
            assert!(frames < 100_000, "the search ends");
            let mut left = 5;
            let more = || {
                left -= 1;
                left > 0
            };
            match tell(&mut search, &base, c, more).expect("a search") {
                Told::Running(report) => assert!(!report.done, "running until in words"),
                Told::Done(report, texts, diff) => {
                    assert!(diff.is_none(), "no previous search");
                    break (report, texts);
                }
                Told::Stopped(_) => panic!("not stopped"),
            }
        };
        assert!(frames > 2, "the words took several slices: {frames}");
        assert_eq!(report, core);
        let listed = listing(&core.shortest);
        assert_eq!(texts.len(), listed.len().min(LISTED));
        for ((cx, text), (want, breaks)) in texts.iter().zip(&listed) {
            assert_eq!(cx, want);
            assert_eq!(text, &schedule_text(want, breaks, &base, c));
        }
        let v = result_view(2, &report, false, &base, c);
        assert_eq!(
            v.numbers,
            Some([2, core.runs, core.states, core.steps, core.violating_runs])
        );
        assert!(core.steps > core.states && core.runs > 1000, "{core:?}");
        assert_eq!(v.faults, core.tried_kinds().join(" "));
        assert!(
            v.faults.contains("delay") && v.faults.contains("lose-ack"),
            "{}",
            v.faults
        );
        let en = v.body.to_string();
        // Counts are grouped by threes as each language writes them.
        let group = crate::markup::grouped;
        assert!(
            core.steps >= 10_000,
            "a count that needs grouping: {}",
            core.steps
        );
        assert!(
            en.contains(&format!(
                "{} runs checked. The simulator played {} steps in all and remembered {} distinct situations",
                group(core.runs, ","),
                group(core.steps, ","),
                group(core.states, ",")
            )),
            "{en}"
        );
        let ru = result_view(2, &report, false, &base, Lang::Ru.catalog())
            .body
            .to_string();
        let plural = |n: u64, forms: [&str; 3]| {
            let form = match (n % 10, n % 100) {
                (1, r) if r != 11 => forms[0],
                (2..=4, r) if !(12..=14).contains(&r) => forms[1],
                _ => forms[2],
            };
            format!("{} {form}", group(n, "\u{a0}"))
        };
        for words in [
            plural(core.runs, ["прогон", "прогона", "прогонов"]),
            plural(core.steps, ["шаг", "шага", "шагов"]),
            plural(
                core.states,
                [
                    "различную ситуацию",
                    "различные ситуации",
                    "различных ситуаций",
                ],
            ),
        ] {
            assert!(ru.contains(&words), "{words}: {ru}");
        }
        // The progress line counts what the report counts so far.
        let mut running = Explorer::new(&key, Bounds::faults(2));
        running.run_for(300);
        let so_far = running.report().clone();
        let line = result_view(2, &so_far, false, &base, c).body.to_string();
        assert!(
            line.contains(&format!(
                "{} runs checked so far, {} steps simulated",
                group(so_far.runs, ","),
                group(so_far.steps, ",")
            )),
            "{line}"
        );
    }
}
