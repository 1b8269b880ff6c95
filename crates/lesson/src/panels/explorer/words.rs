//! A search's counter-examples in the student's words: each fault as the fault menu says it,
//! a schedule step by step, the packets it acts on by their captions, the fault kinds a claim
//! covers, and the faults of the run on screen marked applied or still to come.

use idem_core::Invariant;
use idem_core::{Action, CounterExample, FaultKind, MsgId, Scenario, Story, World};

use crate::fold::Stops;
use crate::i18n::Catalog;
use crate::labels::{packet_kind, packet_label, ShortNames};
use crate::markup::{el, wrap, SafeHtml};

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

/// "step 3: Drop the request POST /charges · K1 · step 7: Retry (client)", each fault at the
/// step the counter shows when it applies: the visible step of the run's `stops` (a fault
/// applied after `at` core steps is the core's step `at + 1`, never folded).
pub fn schedule_words(
    injected: &[(u32, Action)],
    packets: &[(MsgId, String)],
    stops: &Stops,
    story: Story,
    catalog: &Catalog,
) -> String {
    injected
        .iter()
        .map(|(at, a)| {
            catalog.fill(
                "ui.explore_at",
                &[
                    ("step", stops.visible(*at as usize + 1).to_string()),
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
    let last = injected.iter().map(|(at, _)| *at).max().unwrap_or(0);
    if !injected.iter().any(|(_, a)| packet_of(a).is_some()) {
        return Vec::new();
    }
    World::replay(base, injected, last)
        .map(|world| packets_in(&world, injected, catalog))
        .unwrap_or_default()
}

/// The packet a fault acts on, if it acts on one.
fn packet_of(action: &Action) -> Option<MsgId> {
    match action {
        Action::Drop(id) | Action::Duplicate(id) | Action::Delay(id, _) => Some(*id),
        _ => None,
    }
}

/// [`fault_packets`] read from a replay of the run that holds them.
fn packets_in(
    world: &World,
    injected: &[(u32, Action)],
    catalog: &Catalog,
) -> Vec<(MsgId, String)> {
    let names = ShortNames::of(world);
    injected
        .iter()
        .filter_map(|(_, a)| packet_of(a))
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

/// The fault kinds a claim covers, in words: "dropped packets, a lost answer, …".
pub fn kinds_text(kinds: &[FaultKind], catalog: &Catalog) -> String {
    kinds
        .iter()
        .map(|k| catalog.text(&format!("kind.{}", k.name())))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The kinds of fault a schedule is made of, each once, in the order they come.
fn kinds_of(injected: &[(u32, Action)]) -> Vec<FaultKind> {
    let mut kinds: Vec<FaultKind> = Vec::new();
    for kind in injected.iter().filter_map(|(_, a)| a.kind()) {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
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
    /// "stopped by …": a replay of this one schedule (said once above the list), not
    /// the search that backs "would have prevented it" at a run's end.
    pub fix: String,
}

/// The words of a counter-example found on `base`, for the one invariant it stands for.
pub fn counterexample_text(cx: &CounterExample, base: &Scenario, catalog: &Catalog) -> CxText {
    schedule_text(cx, &[cx.invariant], base, catalog)
}

/// The core keeps the shortest counter-example per invariant and set of fault kinds, so one
/// schedule that breaks three rules comes three times. The student is shown each schedule
/// once, with every rule it breaks (issue 42), fewest faults first, then fewest steps (the
/// core's order); a schedule that only adds faults to a listed one, and breaks no rule that
/// one does not, is left out (words4: "crash, then a delay" was listed under "crash").
pub fn listing(shortest: &[CounterExample]) -> Vec<(CounterExample, Vec<Invariant>)> {
    let mut out: Vec<(CounterExample, Vec<Invariant>)> = Vec::new();
    for cx in shortest {
        match out.iter_mut().find(|(c, _)| c.injected == cx.injected) {
            Some((_, breaks)) if !breaks.contains(&cx.invariant) => breaks.push(cx.invariant),
            Some(_) => {}
            None => out.push((cx.clone(), vec![cx.invariant])),
        }
    }
    let minimal: Vec<bool> = out
        .iter()
        .map(|(cx, breaks)| {
            !out.iter()
                .any(|(other, its)| adds_to(cx, other) && breaks.iter().all(|b| its.contains(b)))
        })
        .collect();
    let mut kept: Vec<_> = out
        .into_iter()
        .zip(minimal)
        .filter_map(|(listed, keep)| keep.then_some(listed))
        .collect();
    kept.sort_by_key(|(cx, _)| (cx.faults(), cx.steps));
    kept
}

/// Whether `cx` holds `other`'s faults and more: at least as many faults of each kind, and
/// more in all. By kind, not by step: a fault added early shifts the steps of the ones after
/// it, so "a delay, then the phone offline 25 h" holds "the phone offline 25 h" at another
/// step (review 4 of #42 found such schedules listed under the page's "left out").
fn adds_to(cx: &CounterExample, other: &CounterExample) -> bool {
    let (more, fewer) = (cx.kinds(), other.kinds());
    fewer.total() < more.total() && fewer.kinds().all(|k| fewer.count(k) <= more.count(k))
}

/// The words of the schedule of `cx` found on `base`, breaking each of `breaks`.
pub fn schedule_text(
    cx: &CounterExample,
    breaks: &[Invariant],
    base: &Scenario,
    catalog: &Catalog,
) -> CxText {
    // One replay, to just past the last fault: the packets the faults name, and each fault's
    // step counted as the page will count it once the run is loaded (visible steps). The
    // run's length stays the search's figure, in the core's steps.
    let last = cx.injected.iter().map(|(at, _)| *at).max().unwrap_or(0);
    let replayed = World::replay(base, &cx.injected, last + 1).ok();
    let stops = replayed
        .as_ref()
        .map_or_else(|| Stops::every(cx.steps as usize), |w| Stops::of(w.steps()));
    let packets = replayed
        .as_ref()
        .map(|w| packets_in(w, &cx.injected, catalog))
        .unwrap_or_default();
    CxText {
        invariant: breaks
            .iter()
            .map(|i| catalog.text(&format!("invariant.{}", i.name())))
            .collect::<Vec<_>>()
            .join(" · "),
        breaks: breaks.to_vec(),
        faults: schedule_words(&cx.injected, &packets, &stops, base.story, catalog),
        steps: catalog.fill("ui.explore_steps", &[("n", cx.steps.to_string())]),
        fix: crate::outcome_text::closed_by(
            &idem_core::closing_protections(base, &cx.injected),
            &kinds_text(&kinds_of(&cx.injected), catalog),
            catalog,
        ),
    }
}

/// The faults of the run on screen, each marked applied or still to come, at the visible
/// step of the run's `stops` it applies at.
pub fn markers_html(
    injected: &[(u32, Action)],
    cursor: usize,
    stops: &Stops,
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
                        ("step", stops.visible(*at as usize + 1).to_string()),
                        ("fault", fault_words(a, &[], story, catalog)),
                    ],
                ),
            )
        })
        .collect();
    el("p", "", &catalog.text("ui.explore_loaded")) + wrap("ul", "class=\"markers\"", &items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use idem_core::Bounds;
    use idem_core::Explorer;
    use idem_core::{MsgId, Phase, Scenario};

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
            schedule_words(
                &[(2, Action::RetryNow)],
                &[],
                &Stops::every(5),
                Story::NaivePost,
                c
            ),
            "step 3: Retry (client)",
            "a fault applied after 2 steps is the run's step 3"
        );
    }

    #[test]
    fn markers_show_what_is_still_to_come() {
        let faults = [(1, Action::RetryNow), (5, Action::EvictKeys)];
        let every = Stops::every(9);
        let html = markers_html(&faults, 3, &every, Story::NaivePost, Lang::En.catalog());
        assert!(html.contains("class=\"applied\" data-testid=\"fault-marker\" data-at=\"1\""));
        assert!(html.contains("class=\"pending\" data-testid=\"fault-marker\" data-at=\"5\""));
        assert_eq!(
            markers_html(&[], 0, &every, Story::NaivePost, Lang::En.catalog()),
            ""
        );
    }

    /// Issue 42: with filler folded, a fault is numbered as the step counter numbers the step
    /// it applies at, in the run on screen and in a counter-example's words.
    #[test]
    fn a_fault_is_numbered_as_the_step_counter_counts() {
        let key = Scenario::by_id("key").expect("key");
        let mut run = crate::playback::Run::new(key.clone());
        // After the claim's OK, the INSERT's count and the record's OK, all three folded.
        run.jump(11);
        run.apply(Action::EvictKeys).expect("a store to evict from");
        assert_eq!((run.cursor(), run.visible_step()), (12, 9));
        let faults = run.link().faults;
        assert_eq!(faults, vec![(11, Action::EvictKeys)]);
        let html = markers_html(&faults, 12, &run.stops(), key.story, Lang::En.catalog());
        assert!(html.contains(">step 9: "), "{html}");
        let world = World::replay(&key, &faults, 100).expect("replays");
        let words = schedule_words(
            &faults,
            &[],
            &Stops::of(world.steps()),
            key.story,
            Lang::Ru.catalog(),
        );
        assert!(words.starts_with("шаг 9: "), "{words}");
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
        // Every (schedule, rule) the core found is listed, or its schedule holds the faults of
        // a listed one that breaks that rule too, and more (words4; by kind: review 4).
        for cx in &report.shortest {
            let more = cx.kinds();
            assert!(
                listed.iter().any(|(c, b)| b.contains(&cx.invariant)
                    && (c.injected == cx.injected
                        || c.kinds()
                            .kinds()
                            .all(|k| c.kinds().count(k) <= more.count(k)))),
                "lost: {cx:?}"
            );
        }
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
