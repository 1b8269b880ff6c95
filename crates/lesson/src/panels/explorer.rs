//! "Try every failure", what the page says of it: the core's [`Report`] of every schedule of up
//! to k faults for the scenario and protections on screen (searched by the page's workers, see
//! `idem-web`'s `platform::search`), put into words: what it means for the story, the counts,
//! the shortest counter-examples (each put into words a few at a time between frames, as
//! [`Words`]), and what changed since the previous search. Stop keeps the totals so far,
//! marked partial.
//!
//! Each view of the result ([`result_view`]) is built here from the report and drawn by the
//! component in `idem-web`, which keeps one element for it while a search runs. After a search
//! ends, the classes of counter-examples it found (invariant and fault kinds)
//! are compared with the previous search of the same scenario (`explore-diff`): what a
//! protection toggled in between fixed, and what it let in.

use idem_core::Invariant;
use idem_core::{class_diff, class_of, Class};
use idem_core::{
    Action, CounterExample, DeepLink, FaultKind, MsgId, Protections, Report, Scenario, Story, World,
};

use crate::i18n::{Catalog, Lang};
use crate::labels::{packet_kind, packet_label, ShortNames};
use crate::markup::{el, table, wrap, SafeHtml};

/// Fault bounds offered. k = 4 is left out: the exhaustive search keeps a summary per distinct
/// situation, and on the heaviest scenarios k = 4 has about 15 million of them (2.4 GB
/// natively), more than a browser tab can hold.
pub const KS: [u32; 3] = [1, 2, 3];

/// The default bound.
pub const DEFAULT_K: u32 = 2;

/// Real milliseconds of work per animation frame on the page's main thread: putting a result
/// into words, or the whole search where workers cannot start.
pub const SLICE_MS: f64 = 12.0;

/// Counter-examples listed (the rest are counted).
pub const LISTED: usize = 24;

/// A fault in words, from the fault menu's labels; a packet is named by its caption in
/// `packets` ("Drop the response 201 pay_abc", see [`fault_packets`]), else by its id ("Drop #3").
pub fn fault_words(
    action: &Action,
    packets: &[(MsgId, String)],
    story: Story,
    catalog: &Catalog,
) -> String {
    let with_msg = |key: &str, id: MsgId| match packets.iter().find(|(m, _)| *m == id) {
        Some((_, packet)) => format!("{} {packet}", catalog.text(key)),
        None => format!(
            "{} {}",
            catalog.text(key),
            crate::labels::msg_no(id, catalog)
        ),
    };
    match action {
        Action::Drop(id) => with_msg("ui.drop", *id),
        Action::Duplicate(id) => with_msg("ui.duplicate", *id),
        Action::Delay(id, _) => with_msg("ui.delay", *id),
        Action::Pause(phase) => format!(
            "{} {}",
            catalog.text("ui.pause_at"),
            catalog.fill(
                "sum.quote",
                &[("x", crate::labels::phase_in(*phase, story, catalog))]
            )
        ),
        Action::Crash(phase) => format!(
            "{} {}",
            catalog.text("ui.crash_before"),
            catalog.fill(
                "sum.quote",
                &[("x", crate::labels::phase_in(*phase, story, catalog))]
            )
        ),
        Action::RetryNow => catalog.text("ui.retry"),
        Action::LoseNextAck => catalog.text("ui.lose_ack"),
        Action::EvictKeys => catalog.text("ui.evict"),
        Action::AdvanceClock(_) => catalog.text("ui.clock"),
        Action::ConcurrentDuplicate => catalog.text("ui.concurrent"),
        Action::ReuseKeyOtherBody => catalog.text("ui.reuse_key"),
        Action::OtherUserSameKey => catalog.text("ui.other_user"),
        Action::Start(_) => action.kind_name().to_owned(),
    }
}

/// "step 3: Drop the request POST /charges · K1 · step 7: Retry (client)".
pub fn schedule_words(
    injected: &[(u32, Action)],
    packets: &[(MsgId, String)],
    story: Story,
    catalog: &Catalog,
) -> String {
    injected
        .iter()
        .map(|(at, a)| {
            catalog.fill(
                "ui.explore_at",
                &[
                    ("step", (at + 1).to_string()),
                    ("fault", fault_words(a, packets, story, catalog)),
                ],
            )
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The packets a counter-example's faults act on, in words ("the response 201 pay_abc"). Its
/// message ids are those of the base run, so the base run is replayed with the schedule up to
/// its last fault (not applied; every packet it names was sent by then) and the packets are
/// looked up there. Packets not found keep their id.
pub fn fault_packets(
    base: &Scenario,
    injected: &[(u32, Action)],
    catalog: &Catalog,
) -> Vec<(MsgId, String)> {
    let ids: Vec<MsgId> = injected
        .iter()
        .filter_map(|(_, a)| match a {
            Action::Drop(id) | Action::Duplicate(id) | Action::Delay(id, _) => Some(*id),
            _ => None,
        })
        .collect();
    let last = injected.iter().map(|(at, _)| *at).max().unwrap_or(0);
    let Some(world) = (!ids.is_empty())
        .then(|| World::replay(base, injected, last).ok())
        .flatten()
    else {
        return Vec::new();
    };
    let names = ShortNames::of(&world);
    ids.into_iter()
        .filter_map(|id| {
            let m = world.network().get(id)?;
            let key = match packet_kind(m) {
                "response" => "ui.explore_response",
                _ => "ui.explore_request",
            };
            let label = packet_label(m, &names, catalog);
            Some((id, catalog.fill(key, &[("packet", label)])))
        })
        .collect()
}

/// What the `explore-result` element shows: its state (`running`, `partial` or `done`), the
/// numbers it carries as attributes once the search stopped or finished, and its content.
/// The element itself stays the same while a search runs; only these change.
#[derive(Clone, PartialEq, Debug)]
pub struct ResultView {
    /// `running`, `partial` or `done` (`data-state`).
    pub state: &'static str,
    /// `data-k`, `data-runs` (runs represented), `data-states` (distinct situations
    /// remembered), `data-steps` (steps simulated) and `data-violations` (violating runs), as
    /// the core's report counts them; none while running.
    pub numbers: Option<[u64; 5]>,
    /// The fault kinds the search tried, as URL names (`data-faults`); empty while running.
    pub faults: String,
    /// The progress line, or the summary, the table and the counter-examples.
    pub body: SafeHtml,
}

/// The fault kinds a claim covers, in words: "dropped packets, a lost answer, …".
pub fn kinds_text(kinds: &[FaultKind], catalog: &Catalog) -> String {
    kinds
        .iter()
        .map(|k| catalog.text(&format!("kind.{}", k.name())))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a finished search means for the story on screen: it can still break with up to `k`
/// faults added (how many of the runs tried), or it holds against all of them. A stopped
/// search speaks only of what it found so far.
pub fn lead_text(
    k: u32,
    report: &Report,
    partial: bool,
    base: &Scenario,
    catalog: &Catalog,
) -> Option<String> {
    let n = |v: u64| crate::panels::calculator::digit_groups(v, catalog);
    // The story by its title while its design is the story's own; another design is "this
    // design" (the student switched protections).
    let own = Scenario::by_id(&base.id).is_ok_and(|s| s.protections == base.protections);
    let story = if own {
        catalog.fill(
            "sum.quote",
            &[("x", catalog.text(&format!("scenario.{}.title", base.id)))],
        )
    } else {
        catalog.text("ui.explore_this_design")
    };
    let args = [
        ("k", k.to_string()),
        ("story", story),
        ("bad", n(report.violating_runs)),
        ("runs", n(report.runs_represented())),
        ("examples", examples(report, base, catalog)),
    ];
    match (report.violating_runs > 0, partial) {
        (true, false) => Some(catalog.fill("ui.explore_lead_broken", &args)),
        (true, true) => Some(catalog.fill("ui.explore_lead_so_far", &args)),
        // "No run breaks it" is a claim about runs: a search that played none proves nothing.
        (false, false) if report.runs_represented() > 0 => {
            Some(catalog.fill("ui.explore_lead_holds", &args))
        }
        (false, _) => None,
    }
}

/// What breaks the story, in the student's words before any count: the faults of the two
/// shortest counter-examples with different faults ("crash the API before “write the ledger”;
/// or the phone offline 25 h, then Retry").
fn examples(report: &Report, base: &Scenario, catalog: &Catalog) -> String {
    let mut seen: Vec<idem_core::KindCounts> = Vec::new();
    let mut said = Vec::new();
    for cx in &report.shortest {
        let kinds = cx.kinds();
        if seen.contains(&kinds) {
            continue;
        }
        seen.push(kinds);
        let packets = fault_packets(base, &cx.injected, catalog);
        let faults: Vec<String> = cx
            .injected
            .iter()
            .map(|(_, a)| lower_first(&fault_words(a, &packets, base.story, catalog)))
            .collect();
        said.push(faults.join(&catalog.text("ui.explore_then")));
        // One example, in plain words; the rest are in the list below (issue 42).
        if said.len() == 1 {
            break;
        }
    }
    said.join(&catalog.text("ui.explore_or"))
}

/// `text` with its first letter in lower case ("Crash the API…" inside a sentence).
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The progress or result of a search with bound `k` on `base` (the scenario without its
/// scripted faults, which counter-examples replay on); a `stopped` search that had not finished
/// shows its totals so far as `data-state="partial"`.
pub fn result_view(
    k: u32,
    report: &Report,
    stopped: bool,
    base: &Scenario,
    catalog: &Catalog,
) -> ResultView {
    let n = |v: u64| crate::panels::calculator::digit_groups(v, catalog);
    let partial = stopped && !report.done;
    if !report.done && !partial {
        let text = catalog.fill(
            "ui.explore_progress",
            &[
                ("runs", n(report.runs_represented())),
                ("steps", n(report.steps)),
            ],
        );
        return ResultView {
            state: "running",
            numbers: None,
            faults: String::new(),
            body: el("p", "", &text),
        };
    }
    let mut out = if partial {
        el(
            "p",
            "class=\"explore-partial\"",
            &catalog.text("ui.explore_partial"),
        )
    } else {
        SafeHtml::default()
    };
    // What it means for the story first (review finding 14), the statistics after.
    if let Some(lead) = lead_text(k, report, partial, base, catalog) {
        out += el(
            "p",
            "class=\"explore-lead\" data-testid=\"explore-lead\"",
            &lead,
        );
    }
    // The counts and "distinct situations" are for the curious: one tap away (issue 42).
    let mut numbers = el("summary", "", &catalog.text("ui.explore_numbers"));
    numbers += el(
        "p",
        "class=\"explore-summary\"",
        &catalog.fill(
            "ui.explore_summary",
            &[
                ("runs", n(report.runs_represented())),
                ("steps", n(report.steps)),
                ("states", n(report.distinct_situations())),
                ("bad", n(report.violating_runs)),
            ],
        ),
    );
    if report.cut_off > 0 {
        numbers += el(
            "p",
            "class=\"hint\"",
            &catalog.fill("ui.explore_cut", &[("n", n(report.cut_off))]),
        );
    }
    let rows: Vec<Vec<String>> = Invariant::ALL
        .iter()
        .filter(|i| crate::stage::summary::relevant(base.story, **i))
        .map(|i| {
            vec![
                catalog.text(&format!("invariant.{}", i.name())),
                format!("#{}", n(report.violations_of(*i))),
            ]
        })
        .collect();
    numbers += table(
        "explore-table",
        &[
            &catalog.text("ui.invariants"),
            &format!("#{}", catalog.text("ui.explore_runs")),
        ],
        &rows,
    );
    out += wrap(
        "details",
        "class=\"explore-numbers\" data-testid=\"explore-numbers\"",
        &numbers,
    );
    if report.shortest.is_empty() {
        // A partial search that found nothing says nothing about the rest.
        if !partial {
            out += el(
                "p",
                "class=\"explore-none\"",
                &catalog.fill(
                    "ui.explore_none",
                    &[
                        ("k", k.to_string()),
                        ("kinds", kinds_text(&report.kinds_tried(), catalog)),
                    ],
                ),
            ) + crate::panels::assumptions::assumptions_html(catalog);
        }
    } else {
        // The counter-examples themselves follow as buttons ([`counterexample_text`]).
        out += el("p", "", &catalog.text("ui.explore_shortest"));
    }
    ResultView {
        state: if partial { "partial" } else { "done" },
        faults: report.tried_kinds().join(" "),
        numbers: Some([
            u64::from(k),
            report.runs,
            report.states,
            report.steps,
            report.violating_runs,
        ]),
        body: out,
    }
}

/// A counter-example's button in words: the invariant it breaks, its faults, its length and
/// the protections that close it.
#[derive(Clone, PartialEq, Debug)]
pub struct CxText {
    /// The broken invariants, in words (every rule this schedule breaks, listed once).
    pub invariant: String,
    /// The invariants this schedule breaks (so another language can say them again).
    pub breaks: Vec<Invariant>,
    /// The schedule of faults.
    pub faults: String,
    /// "12 steps".
    pub steps: String,
    /// "stops this very schedule (checked on it alone …): …": a replay of this one schedule, not
    /// the search that backs "would have prevented it" at a run's end.
    pub fix: String,
}

/// The words of a counter-example found on `base`, for the one invariant it stands for.
pub fn counterexample_text(cx: &CounterExample, base: &Scenario, catalog: &Catalog) -> CxText {
    schedule_text(cx, &[cx.invariant], base, catalog)
}

/// The core keeps the shortest counter-example per invariant and set of fault kinds, so one
/// schedule that breaks three rules comes three times. The student is shown each schedule
/// once, with every rule it breaks (issue 42): the schedules in the core's order, each with
/// the invariants it was found for.
pub fn listing(shortest: &[CounterExample]) -> Vec<(CounterExample, Vec<Invariant>)> {
    let mut out: Vec<(CounterExample, Vec<Invariant>)> = Vec::new();
    for cx in shortest {
        match out.iter_mut().find(|(c, _)| c.injected == cx.injected) {
            Some((_, breaks)) if !breaks.contains(&cx.invariant) => breaks.push(cx.invariant),
            Some(_) => {}
            None => out.push((cx.clone(), vec![cx.invariant])),
        }
    }
    out
}

/// The words of the schedule of `cx` found on `base`, breaking each of `breaks`.
pub fn schedule_text(
    cx: &CounterExample,
    breaks: &[Invariant],
    base: &Scenario,
    catalog: &Catalog,
) -> CxText {
    CxText {
        invariant: breaks
            .iter()
            .map(|i| catalog.text(&format!("invariant.{}", i.name())))
            .collect::<Vec<_>>()
            .join(" · "),
        breaks: breaks.to_vec(),
        faults: schedule_words(
            &cx.injected,
            &fault_packets(base, &cx.injected, catalog),
            base.story,
            catalog,
        ),
        steps: catalog.fill("ui.explore_steps", &[("n", cx.steps.to_string())]),
        fix: crate::outcome_text::closed_by(
            &idem_core::closing_protections(base, &cx.injected),
            catalog,
        ),
    }
}

/// A class in words: the invariant and the faults of the counter-example that stands for it
/// (found on `base`, whose packets it names).
pub fn class_words(cx: &CounterExample, base: &Scenario, catalog: &Catalog) -> String {
    let packets = fault_packets(base, &cx.injected, catalog);
    let faults: Vec<String> = cx
        .injected
        .iter()
        .map(|(_, a)| fault_words(a, &packets, base.story, catalog))
        .collect();
    format!(
        "{} — {}",
        catalog.text(&format!("invariant.{}", cx.invariant.name())),
        faults.join(" + ")
    )
}

/// What changed since the previous search of the same scenario: the counter-examples (one per
/// class) that stood for the classes now gone, and those of the classes that are new.
pub fn search_diff(
    before: &[CounterExample],
    after: &[CounterExample],
) -> (Vec<CounterExample>, Vec<CounterExample>) {
    let classes = |cxs: &[CounterExample]| cxs.iter().map(class_of).collect::<Vec<Class>>();
    let diff = class_diff(&classes(before), &classes(after));
    let pick = |cxs: &[CounterExample], wanted: &[Class]| {
        wanted
            .iter()
            .filter_map(|c| cxs.iter().find(|cx| class_of(cx) == *c).cloned())
            .collect::<Vec<_>>()
    };
    (pick(before, &diff.fixed), pick(after, &diff.new))
}

/// What changed since the previous search, in words: the counts, then the classes gone and
/// the classes new (each as [`class_words`]).
pub fn diff_html(fixed: &[String], new: &[String], catalog: &Catalog) -> SafeHtml {
    let list = |key: &str, words: &[String], class: &str| {
        if words.is_empty() {
            return SafeHtml::default();
        }
        let items: SafeHtml = words.iter().map(|w| el("li", "", w)).collect();
        el("p", "", &catalog.text(key)) + wrap("ul", &format!("class=\"{class}\""), &items)
    };
    let summary = catalog.fill(
        "ui.explore_diff",
        &[
            ("fixed", fixed.len().to_string()),
            ("new", new.len().to_string()),
        ],
    );
    el("p", "", &summary)
        + list("ui.explore_gone", fixed, "fixed")
        + list("ui.explore_new", new, "new")
}

/// The faults of the run on screen, each marked applied or still to come.
pub fn markers_html(
    injected: &[(u32, Action)],
    cursor: usize,
    story: Story,
    catalog: &Catalog,
) -> SafeHtml {
    if injected.is_empty() {
        return SafeHtml::default();
    }
    let items: SafeHtml = injected
        .iter()
        .map(|(at, a)| {
            let state = if (*at as usize) < cursor {
                "applied"
            } else {
                "pending"
            };
            el(
                "li",
                &format!("class=\"{state}\" data-testid=\"fault-marker\" data-at=\"{at}\""),
                &catalog.fill(
                    "ui.explore_at",
                    &[
                        ("step", (at + 1).to_string()),
                        ("fault", fault_words(a, &[], story, catalog)),
                    ],
                ),
            )
        })
        .collect();
    el("p", "", &catalog.text("ui.explore_loaded")) + wrap("ul", "class=\"markers\"", &items)
}

/// The deep link that replays a counter-example from its first step.
pub fn counterexample_link(id: &str, protections: Protections, cx: &CounterExample) -> DeepLink {
    DeepLink {
        scenario: id.to_owned(),
        protections: Some(protections),
        faults: cx.injected.clone(),
        step: Some(0),
        base: true,
        ..DeepLink::default()
    }
}

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
    use idem_core::Bounds;
    use idem_core::Explorer;
    use idem_core::{MsgId, Phase, Scenario};

    /// The result element's attributes and content as the page renders them.
    fn result_html(
        k: u32,
        report: &Report,
        stopped: bool,
        base: &Scenario,
        catalog: &Catalog,
    ) -> String {
        let v = result_view(k, report, stopped, base, catalog);
        let numbers = v
            .numbers
            .map(|[k, runs, states, steps, bad]| {
                format!(
                    " data-k=\"{k}\" data-runs=\"{runs}\" data-states=\"{states}\" data-steps=\"{steps}\" data-violations=\"{bad}\""
                )
            })
            .unwrap_or_default();
        // The counter-examples' buttons as the component lists them, one line each.
        let listed: String = if v.numbers.is_some() {
            listing(&report.shortest)
                .iter()
                .take(LISTED)
                .map(|(cx, breaks)| {
                    let t = schedule_text(cx, breaks, base, catalog);
                    format!(
                        "\n[cx] {} | {} | {} | {}",
                        t.invariant, t.faults, t.steps, t.fix
                    )
                })
                .collect()
        } else {
            String::new()
        };
        format!("data-state=\"{}\"{numbers}>{}{listed}", v.state, v.body)
    }

    #[test]
    fn faults_read_like_the_menu() {
        let c = Lang::En.catalog();
        assert_eq!(
            fault_words(&Action::Drop(MsgId(3)), &[], Story::NaivePost, c),
            "Drop #4"
        );
        let named = [(MsgId(3), "the response 201 pay_abc".to_owned())];
        assert_eq!(
            fault_words(&Action::Drop(MsgId(3)), &named, Story::NaivePost, c),
            "Drop the response 201 pay_abc"
        );
        assert!(
            fault_words(&Action::Crash(Phase::RecordKey), &[], Story::NaivePost, c)
                .starts_with("Crash the API before “")
        );
        let ru = fault_words(
            &Action::Crash(Phase::RecordKey),
            &[],
            Story::NaivePost,
            Lang::Ru.catalog(),
        );
        assert!(ru.ends_with("«запись ключа»"), "{ru}");
        assert_eq!(
            schedule_words(&[(2, Action::RetryNow)], &[], Story::NaivePost, c),
            "step 3: Retry (client)",
            "a fault applied after 2 steps is the run's step 3"
        );
    }

    /// Defect 10: a replayed fault happens at the step it is listed at; payment runs do not
    /// list the balance or likes checks; naive has no key to speak of; each counter-example
    /// names the protection that closes it.
    #[test]
    fn counterexamples_read_true_for_the_story() {
        let naive = Scenario::by_id("naive").expect("naive");
        let base = naive.clone().without_scripted_faults();
        let report = Explorer::new(&naive, Bounds::faults(1))
            .run_to_end()
            .clone();
        let c = Lang::En.catalog();
        let html = result_html(1, &report, false, &base, c);
        assert!(
            !html.contains(&c.text("invariant.likes-match-operations")),
            "{html}"
        );
        assert!(
            !html.contains(&c.text("invariant.balance-matches-debits")),
            "{html}"
        );
        assert!(!html.contains("same key"), "{html}");
        assert_eq!(
            html.matches("\n[cx] ").count(),
            listing(&report.shortest).len().min(LISTED)
        );
        assert!(
            html.contains("| stops this very schedule (checked on it alone, not on every schedule of its kinds): “Idempotency-Key”"),
            "{html}"
        );
        let cx = report.shortest_overall().expect("naive breaks");
        let (at, action) = cx.injected[0];
        let world = World::replay(&base, &cx.injected, at + 1).expect("replays");
        let step = world.steps().last().expect("the fault's step");
        assert_eq!(step.index, at, "listed as step {}", at + 1);
        assert_eq!(step.cause, idem_core::Cause::Injected(action));
    }

    #[test]
    fn a_finished_search_shows_its_numbers_and_counterexamples() {
        let naive = Scenario::by_id("naive").expect("naive");
        let mut explorer = Explorer::new(&naive, Bounds::faults(1));
        let report = explorer.run_to_end().clone();
        let base = naive.clone().without_scripted_faults();
        let html = result_html(1, &report, false, &base, Lang::En.catalog());
        assert!(html.contains(&format!("data-runs=\"{}\"", report.runs)));
        assert!(html.contains(&format!("data-violations=\"{}\"", report.violating_runs)));
        assert_eq!(
            html.matches("\n[cx] ").count(),
            listing(&report.shortest).len().min(LISTED)
        );
        // Each counter-example replays to a violated verdict on the base scenario.
        let cx = report.shortest_overall().expect("naive breaks");
        let link = counterexample_link("naive", naive.protections, cx);
        let run = crate::playback::Run::from_link(&link).expect("replays");
        assert_eq!(run.cursor(), 0);
        let start = crate::playback::Run::new(naive.clone());
        assert_eq!(run.scenario().id, start.scenario().id);
        assert_eq!(run.scenario().protections, start.scenario().protections);
        let mut end = run.clone();
        end.run_to_end();
        assert!(!end.world().verdict().ok());
        let running = result_html(1, &Report::default(), false, &base, Lang::En.catalog());
        assert!(running.contains("data-state=\"running\"") && !running.contains("data-runs"));
    }

    #[test]
    fn counterexamples_name_their_packets() {
        let naive = Scenario::by_id("naive").expect("naive");
        let base = naive.clone().without_scripted_faults();
        let report = Explorer::new(&naive, Bounds::faults(1))
            .run_to_end()
            .clone();
        for lang in Lang::ALL {
            let html = result_html(1, &report, false, &base, lang.catalog());
            assert!(!html.contains(" #"), "{lang:?}: {html}");
        }
        let html = result_html(1, &report, false, &base, Lang::En.catalog());
        assert!(html.contains("Drop the response 201 pay_"), "{html}");
        let dropped = report
            .shortest
            .iter()
            .flat_map(|cx| &cx.injected)
            .find(|(_, a)| matches!(a, Action::Drop(_)))
            .expect("naive breaks with a drop");
        let ru = fault_packets(&base, std::slice::from_ref(dropped), Lang::Ru.catalog());
        assert!(ru[0].1.starts_with("ответ 201"), "{ru:?}");
    }

    #[test]
    fn a_stopped_search_shows_partial_totals() {
        let scope = Scenario::by_id("scope").expect("scope");
        let base = scope.clone().without_scripted_faults();
        let mut explorer = Explorer::new(&scope, Bounds::faults(3));
        assert!(!explorer.run_for(50));
        let report = explorer.report().clone();
        let c = Lang::En.catalog();
        let running = result_html(3, &report, false, &base, c);
        assert!(running.contains("data-state=\"running\""));
        let partial = result_html(3, &report, true, &base, c);
        assert!(partial.contains("data-state=\"partial\""), "{partial}");
        assert!(partial.contains(&format!("data-runs=\"{}\"", report.runs)));
        assert!(partial.contains(&c.text("ui.explore_partial")));
        assert!(!partial.contains("explore-none"));
        let done = Explorer::new(&scope, Bounds::faults(1))
            .run_to_end()
            .clone();
        assert!(result_html(1, &done, true, &base, c).contains("data-state=\"done\""));
    }

    #[test]
    fn turning_the_key_on_fixes_classes_and_turning_it_off_brings_them_back() {
        let naive = Scenario::by_id("naive").expect("naive");
        let mut keyed = naive.clone();
        keyed.protections.idempotency_key = true;
        let search = |s: &Scenario| {
            Explorer::new(s, Bounds::faults(1))
                .run_to_end()
                .shortest
                .clone()
        };
        let (before, after) = (search(&naive), search(&keyed));
        let (fixed, new) = search_diff(&before, &after);
        assert!(!fixed.is_empty(), "the key fixes some classes");
        assert!(fixed.iter().all(|cx| before.contains(cx)));
        assert!(new.iter().all(|cx| after.contains(cx)));
        let (refixed, renew) = search_diff(&after, &before);
        assert_eq!((refixed.len(), renew.len()), (new.len(), fixed.len()));
        assert_eq!(search_diff(&before, &before), (Vec::new(), Vec::new()));
        let words = class_words(
            &fixed[0],
            &naive.clone().without_scripted_faults(),
            Lang::En.catalog(),
        );
        assert!(words.starts_with(
            &Lang::En
                .catalog()
                .text(&format!("invariant.{}", fixed[0].invariant.name()))
        ));
        assert!(words.contains(" — ") && !words.contains(" #"), "{words}");
        let html = diff_html(std::slice::from_ref(&words), &[], Lang::En.catalog());
        assert!(html.starts_with("<p>Since the previous search: 1 class of counter-examples gone, 0 new.</p><p>Gone:</p><ul class=\"fixed\"><li>"), "{html}");
        assert!(!html.contains("New:"), "{html}");
        let ru = diff_html(&[], &[words], Lang::Ru.catalog());
        assert!(
            ru.contains("исчезло: 0, появилось: 1") && ru.contains("Появились:"),
            "{ru}"
        );
    }

    /// Review finding 14: the result leads with what it means for the story, the counts come
    /// after; a design that holds says so first too, and a stopped search only what it found.
    #[test]
    fn the_result_leads_with_the_story_then_the_counts() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            let key = Scenario::by_id("key").expect("key");
            let base = key.clone().without_scripted_faults();
            let report = Explorer::new(&key, Bounds::faults(2)).run_to_end().clone();
            assert!(report.violating_runs > 0);
            let html = result_view(2, &report, false, &base, c).body.to_string();
            let lead = html.find("data-testid=\"explore-lead\"").expect("a lead");
            let counts = html.find("class=\"explore-summary\"").expect("the counts");
            assert!(lead < counts, "{html}");
            let title = c.text("scenario.key.title");
            let words = lead_text(2, &report, false, &base, c).expect("words");
            assert!(words.contains(&title), "{words}");
            assert_eq!(
                words,
                c.fill(
                    "ui.explore_lead_broken",
                    &[
                        ("k", "2".into()),
                        ("story", c.fill("sum.quote", &[("x", title.clone())])),
                        (
                            "bad",
                            crate::panels::calculator::digit_groups(report.violating_runs, c)
                        ),
                        (
                            "runs",
                            crate::panels::calculator::digit_groups(report.runs_represented(), c)
                        ),
                        ("examples", examples(&report, &base, c)),
                    ]
                )
            );
            // The lead is one plain sentence with one example of what breaks the story (the
            // key story: the phone comes back after its key expired, or the API crashes
            // between the charge and the ledger); the counts wait one tap away (issue 42).
            let said = examples(&report, &base, c);
            assert!(
                said.contains(&lower_first(&c.text("ui.clock")))
                    || said.contains(&lower_first(&c.text("ui.crash_before"))),
                "{said}"
            );
            assert!(!said.contains(&c.text("ui.explore_or")), "{said}");
            assert!(words.contains(&said), "{words}");
            let count = crate::panels::calculator::digit_groups(report.violating_runs, c);
            assert!(!words.contains(&count), "{words}");
            let details = html.find("<details").expect("the counts are one tap away");
            assert!(lead < details && details < counts, "{html}");
            let full = Scenario::by_id("fully-protected").expect("full");
            let held = Explorer::new(&full, Bounds::faults(1)).run_to_end().clone();
            assert_eq!(held.violating_runs, 0);
            let words = lead_text(1, &held, false, &full.clone().without_scripted_faults(), c)
                .expect("words");
            assert!(
                words.contains(&c.text("scenario.fully-protected.title")),
                "{words}"
            );
            // The whole sentence, written out (not rebuilt with the code under test).
            let literal = match lang {
                Lang::En => {
                    "With up to 1 fault added, in every place they fit, “Everything on” still \
                     holds: no run breaks what the simulation checks."
                }
                Lang::Ru => {
                    "Если добавить не больше 1 сбоя в любом месте, где они возможны, «Всё включено» \
                     всё равно держится: ни один прогон не нарушает то, что проверяет симуляция."
                }
            };
            assert_eq!(words, literal);
            assert_eq!(lead_text(1, &held, true, &full, c), None);
            // A finished search that played no run claims nothing (issue 45).
            let none = Report {
                done: true,
                ..Report::default()
            };
            assert_eq!(lead_text(1, &none, false, &full, c), None);
            // A design the student changed is not the story's: "this design".
            let mut changed = base.clone();
            changed.protections.lock = !changed.protections.lock;
            let words = lead_text(2, &report, false, &changed, c).expect("words");
            assert!(!words.contains(&title), "{words}");
            assert!(words.contains(&c.text("ui.explore_this_design")), "{words}");
        }
    }

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

    #[test]
    fn markers_show_what_is_still_to_come() {
        let faults = [(1, Action::RetryNow), (5, Action::EvictKeys)];
        let html = markers_html(&faults, 3, Story::NaivePost, Lang::En.catalog());
        assert!(html.contains("class=\"applied\" data-testid=\"fault-marker\" data-at=\"1\""));
        assert!(html.contains("class=\"pending\" data-testid=\"fault-marker\" data-at=\"5\""));
        assert_eq!(
            markers_html(&[], 0, Story::NaivePost, Lang::En.catalog()),
            ""
        );
    }

    /// Issue 42: a schedule that breaks several rules is listed once, with all of them, in
    /// both languages; nothing the core found is lost on the way.
    #[test]
    fn each_breaking_schedule_is_listed_once_with_every_rule_it_breaks() {
        let key = Scenario::by_id("key").expect("key");
        let base = key.clone().without_scripted_faults();
        let report = Explorer::new(&key, Bounds::faults(2)).run_to_end().clone();
        let listed = listing(&report.shortest);
        for (i, (cx, _)) in listed.iter().enumerate() {
            assert!(
                listed[..i].iter().all(|(c, _)| c.injected != cx.injected),
                "listed twice: {cx:?}"
            );
        }
        let pairs: usize = listed.iter().map(|(_, b)| b.len()).sum();
        assert_eq!(pairs, report.shortest.len(), "every (schedule, rule) kept");
        let (cx, breaks) = listed
            .iter()
            .find(|(_, b)| b.len() > 1)
            .expect("a schedule breaks two rules");
        assert!(listed.len() < report.shortest.len());
        for lang in Lang::ALL {
            let c = lang.catalog();
            let text = schedule_text(cx, breaks, &base, c);
            for i in breaks {
                assert!(
                    text.invariant
                        .contains(&c.text(&format!("invariant.{}", i.name()))),
                    "{lang:?}: {}",
                    text.invariant
                );
            }
        }
    }
}
