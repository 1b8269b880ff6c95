//! "Try every failure": searches every schedule of up to k faults for the scenario and
//! protections on screen in the page's search workers (`platform::search`; on the main thread in
//! slices where workers cannot start, and the panel says it is slower), shows the totals as they
//! come, and lists the shortest counter-examples, put into words between animation frames;
//! clicking one replays it. Stop ends the search at once and keeps its totals so far, marked
//! partial.
//!
//! The controls are elements with their own handlers; the result is one element that keeps its
//! identity while a search runs (its state and numbers are reactive attributes, its summary
//! escaped markup from pure functions tested natively), and its counter-examples are buttons
//! with their own handlers. A replayed counter-example brings the player into view.
//!
//! After a search ends, the classes of counter-examples it found (invariant and fault kinds)
//! are compared with the previous search of the same scenario (`explore-diff`): what a
//! protection toggled in between fixed, and what it let in.

use idem_core::{CounterExample, Protections, Report, Scenario};
use leptos::prelude::*;

use crate::platform::browser::now_ms;
use crate::platform::lab::{use_lab, use_prefs};
use crate::platform::search::{Event, Mode};
use idem_lesson::i18n::Lang;
use idem_lesson::markup::SafeHtml;
use idem_lesson::panels::explorer::{
    counterexample_link, listing, markers_html, result_view, schedule_text, tell, CxText, Shown,
    Telling, Told, DEFAULT_K, KS, LISTED, SLICE_MS,
};
use idem_lesson::stream::Act;

/// A finished search, shared with the challenges: the scenario searched, its bound and report.
#[derive(Clone, Copy)]
pub struct LastSearch(pub RwSignal<Option<(Scenario, u32, Report)>>);

/// The page's last finished search (a widget keeps none).
pub fn use_last_search() -> Option<LastSearch> {
    use crate::platform::place::{required, Place};
    (crate::platform::lab::use_place() == Place::Page).then(|| required("App"))
}

fn slice(
    lang: Lang,
    search: StoredValue<Telling, LocalStorage>,
    result: RwSignal<Option<Shown>>,
    diff: RwSignal<Option<(usize, usize, SafeHtml)>>,
    generation: u32,
    finished: impl Fn() + Copy + 'static,
) {
    let _ = request_animation_frame_with_handle(move || {
        // A later search, or the panel gone (a widget disposed, the language switched, compare
        // mode): nothing to do, and nothing may be read.
        if search.try_with_value(|s| s.generation) != Some(generation) {
            return;
        }
        let Some(Some(base)) = result.try_with_untracked(|r| r.as_ref().map(|s| s.base.clone()))
        else {
            return;
        };
        let catalog = lang.catalog();
        let Some(Some(sliced)) = search.try_update_value(|s| {
            if s.generation != generation {
                return None;
            }
            let start = now_ms();
            tell(s, &base, catalog, || now_ms() - start < SLICE_MS)
        }) else {
            return;
        };
        let again = matches!(sliced, Told::Running(_));
        let done = matches!(sliced, Told::Done(..));
        let shown = result.try_update(|r| {
            let Some(shown) = r else {
                return false;
            };
            match sliced {
                Told::Running(report) if !shown.stopped => shown.report = report,
                Told::Running(_) => {}
                Told::Stopped(texts) => shown.texts = texts,
                Told::Done(report, texts, changed) => {
                    shown.report = report;
                    shown.texts = texts;
                    diff.try_set(changed);
                }
            }
            true
        });
        if shown != Some(true) {
            return;
        }
        if done {
            finished();
        } else if again {
            slice(lang, search, result, diff, generation, finished);
        }
    });
}

/// The "Try every failure" panel.
#[component]
pub fn TryEveryFailure() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let search = StoredValue::new_local(Telling::new());
    // The search under way in the workers (dropping it stops it), where it runs, and why it
    // could not.
    let searching = StoredValue::new_local(None::<crate::platform::search::Search>);
    let mode = RwSignal::new(None::<Mode>);
    // Where searches run: the page's workers, unless a browser test gives its own.
    let backend = use_context::<crate::platform::search::Backend>();
    let failed = RwSignal::new(None::<String>);
    let result = RwSignal::new(None::<Shown>);
    // What changed since the previous finished search of the same scenario.
    let diff = RwSignal::new(None::<(usize, usize, SafeHtml)>);
    let last_search = use_last_search();
    // Starting, finishing and stopping a search are `idem:action`s.
    let noter = crate::platform::stream::Noter::here();
    let finished = move || {
        let Some((k, report, base)) =
            result.with_untracked(|r| r.as_ref().map(|s| (s.k, s.report.clone(), s.base.clone())))
        else {
            return;
        };
        if let Some(LastSearch(last)) = last_search {
            last.set(Some((base, k, report)));
        }
        noter.note(Act::SearchStopped { finished: true });
    }; // A different scenario or other protections make the result stale: drop it and stop.
    let subject = Memo::new(move |_| {
        lab.run
            .with(|r| (r.scenario().id.clone(), r.scenario().protections))
    });
    Effect::new(move |before: Option<(String, Protections)>| {
        let now = subject.get();
        if before.is_some_and(|b| b != now) {
            searching.set_value(None);
            search.update_value(|s| {
                s.generation += 1;
                s.words = None;
            });
            result.set(None);
            failed.set(None);
            mode.set(None);
        }
        now
    });
    // Stop is shown only while a search runs.
    let running = move || result.with(|r| r.as_ref().is_some_and(|s| !s.report.done && !s.stopped));
    let k_select = NodeRef::<leptos::html::Select>::new();
    let run_button = NodeRef::<leptos::html::Button>::new();
    let on_stop = move |_| {
        // The workers stop here; what they found so far is put into words in the next frames
        // (a finished search being put into words just finishes).
        let base = result.with_untracked(|r| r.as_ref().map(|s| s.base.clone()));
        let stopped = searching
            .try_update_value(Option::take)
            .flatten()
            .map(|h| h.stop());
        let cut_short = stopped.is_some();
        if cut_short {
            noter.note(Act::SearchStopped { finished: false });
        }
        let mut so_far = None;
        let mut generation = 0;
        search.update_value(|s| {
            generation = s.generation;
            if let (Some(report), Some(base)) = (stopped, base) {
                s.ended(report.clone(), true, &base);
                so_far = Some(report);
            } else if let Some(words) = &s.words {
                so_far = Some(words.report.clone());
            }
        });
        result.update(|r| {
            if let Some(s) = r {
                s.stopped = true;
                if let Some(report) = so_far {
                    s.report = report;
                }
            }
        });
        // Stop hides itself: keep the focus in the panel, on Run.
        if let Some(run) = run_button.get_untracked() {
            let _ = run.focus();
        }
        // A search cut short is put into words; one already being put into words goes on
        // in its own frames.
        if cut_short {
            slice(
                prefs.lang.get_untracked(),
                search,
                result,
                diff,
                generation,
                finished,
            );
        }
    };
    let on_run = move |_| {
        noter.note(Act::SearchStarted);
        let k = k_select
            .get_untracked()
            .and_then(|s| s.value().parse::<u32>().ok())
            .filter(|k| KS.contains(k))
            .unwrap_or(DEFAULT_K);
        let scenario = lab.run.with_untracked(|r| r.scenario().clone());
        let lang = prefs.lang.get_untracked();
        let base = scenario.clone().without_scripted_faults();
        let mut generation = 0;
        // The previous search, if any, stops first.
        searching.set_value(None);
        search.update_value(|s| {
            s.generation += 1;
            generation = s.generation;
            s.words = None;
        });
        diff.set(None);
        failed.set(None);
        mode.set(None);
        result.set(Some(Shown {
            k,
            report: Report::default(),
            base: base.clone(),
            stopped: false,
            texts: Vec::new(),
            lang,
        }));
        // What the workers say, for this search only (a later one has another generation).
        let on_event = move |event: Event| {
            if search.try_with_value(|s| s.generation) != Some(generation) {
                return;
            }
            match event {
                Event::Started(m) => {
                    mode.try_set(Some(m));
                }
                Event::Progress(report) => {
                    result.try_update(|r| {
                        if let Some(s) = r.as_mut().filter(|s| !s.stopped) {
                            s.report = report;
                        }
                    });
                }
                Event::Done(report) => {
                    // The workers are done: let them go.
                    searching.try_update_value(|h| *h = None);
                    search.try_update_value(|s| s.ended(report, false, &base));
                    slice(lang, search, result, diff, generation, finished);
                }
                Event::Failed(why) => {
                    failed.try_set(Some(why));
                    result.try_update(|r| {
                        if let Some(s) = r {
                            s.stopped = true;
                        }
                    });
                }
            }
        };
        let handle = crate::platform::search::Search::start(backend, &scenario, k, on_event);
        searching.set_value(Some(handle));
    };
    // A counter-example's button replays it and brings the player into view.
    let replay = move |cx: &CounterExample| {
        let (id, p) = subject.get_untracked();
        lab.open(&counterexample_link(&id, p, cx));
        crate::platform::browser::reveal(idem_lesson::anchors::PLAYER_ANCHOR);
    };
    // The counter-examples of the result on screen, once it stopped or finished.
    // Built between frames in the language the search started in; another language since
    // puts them into its words here.
    let listed = Memo::new(move |_| {
        let lang = prefs.lang.get();
        result.with(|r| {
            r.as_ref()
                .map(|s| match s.lang == lang {
                    true => s.texts.clone(),
                    false => s
                        .texts
                        .iter()
                        .map(|(cx, t)| {
                            (
                                cx.clone(),
                                schedule_text(cx, &t.breaks, &s.base, lang.catalog()),
                            )
                        })
                        .collect(),
                })
                .unwrap_or_default()
        })
    });
    let more = move || {
        result.with(|r| {
            r.as_ref().map_or(0, |s| {
                listing(&s.report.shortest).len().saturating_sub(LISTED)
            })
        })
    };
    let cx_button = move |(cx, text): (CounterExample, CxText)| {
        // The first rule it breaks, and all of them (a schedule is listed once, issue 42).
        let invariant = cx.invariant.name();
        let invariants = text
            .breaks
            .iter()
            .map(|i| i.name())
            .collect::<Vec<_>>()
            .join(" ");
        view! {
            <li>
                <button
                    type="button"
                    class="cx"
                    data-testid="counterexample"
                    data-invariant=invariant
                    data-invariants=invariants
                    on:click=move |_| replay(&cx)
                >
                    <strong>{text.invariant}</strong>
                    <span class="cx-faults">{text.faults}</span>
                    <span class="cx-steps">{text.steps}</span>
                    <span class="cx-fix" data-testid="cx-fix">{text.fix}</span>
                </button>
            </li>
        }
    };
    let diff_view = move || {
        diff.get().map(|(fixed, new, html)| {
            view! {
                <div
                    class="explore-diff"
                    data-testid="explore-diff"
                    data-fixed=fixed.to_string()
                    data-new=new.to_string()
                    inner_html=html
                ></div>
            }
        })
    };
    on_cleanup(move || {
        let _ = searching.try_update_value(Option::take);
        // Workers started ahead for a search that will not come from this panel.
        crate::platform::search::cool();
        let _ = search.try_update_value(|s| {
            s.generation += 1;
            s.words = None;
        });
    });
    // One view of the result per report; the element below keeps its identity while the
    // search runs (only its attributes and content change) and goes when the result does.
    let shown = Memo::new(move |_| {
        result.with(|r| {
            r.as_ref()
                .map(|s| result_view(s.k, &s.report, s.stopped, &s.base, prefs.catalog()))
        })
    });
    let number = move |i: usize| {
        move || shown.with(|v| v.as_ref().and_then(|v| v.numbers).map(|n| n[i].to_string()))
    };
    let markers = move || {
        lab.run.with(|r| {
            markers_html(
                &r.link().faults,
                r.cursor(),
                &r.stops(),
                r.scenario().story,
                prefs.catalog(),
            )
        })
    };
    view! {
        <section class="explore" aria-label=prefs.t("ui.explore_title")>
            <h2>{prefs.t("ui.explore_title")}</h2>
            <p class="lede">{prefs.t("ui.explore_intro")}</p>
            // Reaching for the controls starts the search workers, so their code is loaded and
            // compiled by the time Run is pressed.
            <div
                class="explore-controls"
                on:pointerenter=move |_| crate::platform::search::warm()
                on:focusin=move |_| crate::platform::search::warm()
            >
                <label class="field">
                    <span>{prefs.t("ui.explore_k")}</span>
                    <select data-testid="explore-k" node_ref=k_select>
                        {KS
                            .map(|k| view! { <option value=k selected=k == DEFAULT_K>{k}</option> })
                            .collect_view()}
                    </select>
                </label>
                <button
                    type="button"
                    class="primary"
                    data-testid="explore-run"
                    node_ref=run_button
                    on:click=on_run
                >
                    {prefs.t("ui.explore_run")}
                </button>
                <button
                    type="button"
                    class="secondary"
                    data-testid="explore-stop"
                    hidden=move || !running()
                    on:click=on_stop
                >
                    {prefs.t("ui.explore_stop")}
                </button>
                <p class="hint">{prefs.t("ui.explore_slow")}</p>
            </div>
            // Where the search runs, said only when it is slower: on the page itself.
            {move || {
                let text = match (failed.get(), mode.get()) {
                    (Some(why), _) => prefs.catalog().fill("ui.explore_failed", &[("why", why)]),
                    // While it runs, and once it is over.
                    (None, Some(Mode::MainThread)) if running() => {
                        prefs.t("ui.explore_main_thread")
                    }
                    (None, Some(Mode::MainThread)) => prefs.t("ui.explore_main_thread_done"),
                    // Workers are how it should be: nothing for a student to know (#42 item
                    // 4); the count stays in `data-workers`.
                    (None, Some(Mode::Workers(_)) | None) => return None,
                };
                Some(view! { <p class="hint explore-where" data-testid="explore-where">{text}</p> })
            }}
            // Busy while the search runs, so a screen reader announces the final summary
            // rather than every frame's progress.
            <div class="explore-out" aria-live="polite" aria-busy=move || running().to_string()>
                {diff_view}
                <Show when=move || shown.with(Option::is_some)>
                    <div
                        class="explore-result"
                        data-testid="explore-result"
                        data-state=move || shown.with(|v| v.as_ref().map(|v| v.state))
                        data-k=number(0)
                        data-runs=number(1)
                        data-states=number(2)
                        data-steps=number(3)
                        data-violations=number(4)
                        data-faults=move || shown.with(|v| v.as_ref().map(|v| v.faults.clone()))
                        data-workers=move || mode.get().map(|m| match m {
                            Mode::Workers(n) => n.to_string(),
                            Mode::MainThread => "0".to_owned(),
                        })
                    >
                        <div inner_html=move || {
                            shown.with(|v| v.as_ref().map(|v| v.body.clone()).unwrap_or_default())
                        }></div>
                        <Show when=move || listed.with(|l| !l.is_empty())>
                            <ol class="cx-list">
                                {move || listed.get().into_iter().map(cx_button).collect_view()}
                            </ol>
                        </Show>
                        <Show when=move || { more() > 0 }>
                            <p class="hint">
                                {move || prefs.catalog().fill("ui.explore_more", &[("n", more().to_string())])}
                            </p>
                        </Show>
                    </div>
                </Show>
            </div>
            <div class="explore-markers" inner_html=markers></div>
        </section>
    }
}
