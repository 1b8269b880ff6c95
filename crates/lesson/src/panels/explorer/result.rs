//! The `explore-result` element's content, built from the core's [`Report`]: while a search
//! runs, its progress; once it stopped or finished, what it means for the story first (the
//! lead), then the counts one tap away, and the line that introduces its counter-examples.

use idem_core::Invariant;
use idem_core::{Report, Scenario};

use crate::i18n::Catalog;
use crate::markup::{el, table, wrap, SafeHtml};

use super::{fault_packets, fault_words, kinds_text};

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
    // The example's fault alone does not say what goes wrong ("phone offline 25 h"): the
    // sentence of why of its own run does (#42 item 4: the key's record expired, so the retry
    // was a new charge).
    let with_why = |lead: String| match example_why(report, base, catalog) {
        Some(why) => format!("{lead} {why}"),
        None => lead,
    };
    match (report.violating_runs > 0, partial) {
        (true, false) => Some(with_why(catalog.fill("ui.explore_lead_broken", &args))),
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

/// Why the lead's example went wrong: the first counter-example replayed to its end, told
/// by its run's sentence of why ([`crate::panels::why::why`]).
fn example_why(report: &Report, base: &Scenario, catalog: &Catalog) -> Option<String> {
    let cx = report.shortest.first()?;
    let mut world = idem_core::World::replay(base, &cx.injected, cx.steps).ok()?;
    world.run(2_000);
    crate::panels::why::why(&world, catalog)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::panels::explorer::*;
    use idem_core::Bounds;
    use idem_core::Explorer;
    use idem_core::{Action, Scenario, World};

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
        assert!(html.contains("| stopped by “Idempotency-Key”"), "{html}");
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
                ) + " "
                    + &example_why(&report, &base, c).expect("the example's reason")
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
}
