//! Time travel over a run: the world after every step so far (kept as a [`timeline`]), a
//! cursor, and the playback clock. Pure (no browser), so stepping back and forth is
//! unit-tested natively.
mod timeline;

use crate::fold::Stops;
use idem_core::{
    Action, ActionError, DeepLink, LinkError, Pair, Protections, Scenario, SimTime, World,
};
use timeline::{Timeline, Worlds};

/// Quiet gaps longer than this (simulated ms) are jumped over while playing.
pub const QUIET_GAP_MS: f64 = 3_000.0;
/// Playback speeds offered, as multiples of real time.
pub const SPEEDS: [f64; 5] = [0.25, 0.5, 1.0, 2.0, 4.0];

/// Which world of a run a view shows: the run's own, or the one beside it in compare mode
/// (without a comparison both are the run's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Side {
    /// The run's world (the left one in compare mode).
    #[default]
    Left,
    /// The world shown beside it in compare mode.
    Right,
}

/// One run: the scenario, its timeline (one world, or in compare mode two on one timeline,
/// the core's [`Pair`], the left world being the run's) and the step shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    scenario: Scenario,
    base: bool,
    timeline: Timeline,
    challenge: Option<String>,
    /// A chaos run's seed, until the student injects a fault of their own (the link then
    /// spells the faults without it).
    chaos: Option<u32>,
}

impl Run {
    /// The whole run of `scenario` (computed to its end), shown from the start.
    pub fn new(scenario: Scenario) -> Run {
        let link = DeepLink {
            scenario: scenario.id.clone(),
            protections: Some(scenario.protections),
            ..DeepLink::default()
        };
        Run::from_link(&link).unwrap_or_else(|_| Run::single(scenario))
    }

    fn single(scenario: Scenario) -> Run {
        Run {
            timeline: Timeline::new(Worlds::One(World::new(&scenario))),
            scenario,
            base: false,
            challenge: None,
            chaos: None,
        }
    }

    /// The run a deep link describes: its scenario, protections and faults, computed to the
    /// end, with the cursor at the link's step (the start when it names none).
    pub fn from_link(link: &DeepLink) -> Result<Run, LinkError> {
        let scenario = link.scenario()?;
        let start = match link.compare_scenario()? {
            Some(right) => Worlds::Two(Pair::new(&scenario, &right)),
            None => Worlds::One(World::new(&scenario)),
        };
        let mut timeline = Timeline::new(start);
        timeline
            .play(&link.faults)
            .map_err(|(index, error)| LinkError::FaultRefused { index, error })?;
        timeline.show((link.step.unwrap_or(0) as usize).min(timeline.len() - 1));
        Ok(Run {
            scenario,
            base: link.base,
            timeline,
            challenge: link.challenge.clone(),
            chaos: link.chaos,
        })
    }

    /// The scenario shown beside this one (compare mode).
    pub fn compare(&self) -> Option<&Scenario> {
        self.pair().map(|p| p.right().scenario())
    }

    /// The pair at the cursor (compare mode).
    pub fn pair(&self) -> Option<&Pair> {
        self.timeline.shown().pair()
    }

    /// The world at the cursor on `side`.
    #[inline(never)] // (read by most views: one call each, not a copy each, in the page's wasm)
    pub fn shown(&self, side: Side) -> &World {
        match (side, self.pair()) {
            (Side::Right, Some(p)) => p.right(),
            _ => self.world(),
        }
    }

    /// The challenge being played, if any.
    pub fn challenge(&self) -> Option<&str> {
        self.challenge.as_deref()
    }

    /// The simulated time reached at the cursor (both sides' in compare mode).
    pub fn now(&self) -> SimTime {
        self.timeline.shown().now()
    }

    /// When the next step is due: the next known step's time, or the next event's.
    pub fn next_time(&self) -> Option<SimTime> {
        self.timeline
            .time(self.cursor() + 1)
            .or_else(|| self.timeline.shown().next_wakeup())
    }

    /// The scenario (with the protections in force).
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The world at the cursor.
    #[inline(never)] // (as `shown`)
    pub fn world(&self) -> &World {
        self.timeline.shown().left()
    }

    /// The step shown (0 = before anything happened).
    pub fn cursor(&self) -> usize {
        self.timeline.cursor()
    }

    /// How many steps are known (the cursor can go up to this).
    pub fn known_steps(&self) -> usize {
        self.timeline.len() - 1
    }

    /// The world after `index` steps, if known (the left world in compare mode): a copy, the
    /// timeline keeping a world only every few steps and the step log once.
    pub fn snapshot(&self, index: usize) -> Option<World> {
        self.timeline.state(index).map(Worlds::into_left)
    }

    /// Every known world (the left one in compare mode), from the start to the last known
    /// step: copies, as [`Run::snapshot`] gives them.
    #[cfg(any(test, feature = "test-support"))]
    pub(crate) fn snapshots(&self) -> impl Iterator<Item = World> + '_ {
        (0..=self.known_steps()).filter_map(|i| self.snapshot(i))
    }

    /// The world before the first step (the left one in compare mode), without copying it.
    pub fn start(&self) -> &World {
        self.timeline.first().left()
    }

    /// The last known world (the left one in compare mode), without copying it.
    pub fn end(&self) -> &World {
        self.timeline.last().left()
    }

    /// At the last known step, and nothing is left to happen.
    pub fn at_end(&self) -> bool {
        self.cursor() == self.known_steps() && self.timeline.shown().is_quiescent()
    }

    /// Moves one step on: to the next known step, or by stepping the world. False at the end.
    pub fn step_forward(&mut self) -> bool {
        let next = self.cursor() + 1;
        if next == self.timeline.len() && !self.timeline.extend() {
            return false;
        }
        self.timeline.show(next);
        true
    }

    /// Where the player stops in this run ([`Stops`]): filler steps fold into the step before
    /// them. A comparison's joint timeline folds nothing (its steps interleave two worlds).
    pub fn stops(&self) -> Stops<'_> {
        match self.pair() {
            Some(_) => Stops::every(self.known_steps()),
            None => Stops::of(self.timeline.last().left().steps()),
        }
    }

    /// The visible step shown: what the step counter says ([`Stops::visible`]).
    pub fn visible_step(&self) -> usize {
        self.stops().visible(self.cursor())
    }

    /// How many visible steps the run has (the counter's total).
    pub fn visible_total(&self) -> usize {
        self.stops().visible(self.known_steps())
    }

    /// Whether the cursor is where the player stops (the start or a visible step's end).
    pub fn at_stop(&self) -> bool {
        self.stops().is_stop(self.cursor())
    }

    /// The Step button: on to the end of the next visible step, stepping over the filler
    /// steps between (each is still taken, so the snapshots stay the core's). False at the end.
    pub fn step_visible(&mut self) -> bool {
        if !self.step_forward() {
            return false;
        }
        while !self.at_stop() && self.step_forward() {}
        true
    }

    /// Step back: to the end of the visible step before, restored exactly. False at the start.
    pub fn back_visible(&mut self) -> bool {
        if self.cursor() == 0 {
            return false;
        }
        self.timeline.show(self.stops().previous(self.cursor()));
        true
    }

    /// Shows the end of the visible step that the snapshot after `index` core steps is part
    /// of (a sequence arrow names the step that sent it, which may be folded).
    pub fn jump_visible(&mut self, index: usize) {
        self.jump(index);
        let at = self
            .stops()
            .at_or_after(self.cursor())
            .min(self.known_steps());
        self.timeline.show(at);
    }

    /// Moves one step back, restoring the earlier world exactly. False at the start.
    pub fn step_back(&mut self) -> bool {
        let Some(back) = self.cursor().checked_sub(1) else {
            return false;
        };
        self.timeline.show(back);
        true
    }

    /// Shows the world after `index` steps (clamped to the known ones).
    pub fn jump(&mut self, index: usize) {
        self.timeline.show(index.min(self.known_steps()));
    }

    /// Back to the start; the run's future is kept.
    pub fn restart(&mut self) {
        self.timeline.show(0);
    }

    /// Steps until nothing is left to happen (bounded like a deep link).
    pub fn run_to_end(&mut self) {
        while self.cursor() < DeepLink::MAX_STEP as usize && self.step_forward() {}
    }

    /// Applies `action` at the cursor. The steps after the cursor are dropped first: a
    /// different past has a different future, which is computed to its end at once (bounded
    /// like a deep link) so "step n / N" keeps counting the whole run.
    /// In compare mode the action reaches both worlds where it applies (refused only when
    /// both refuse).
    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        self.timeline.branch(action)?;
        if self.pair().is_none() {
            // The faults are no longer (only) the ones a chaos seed drew.
            self.chaos = None;
        }
        // The rest, computed now; the cursor stays where it is.
        while self.timeline.len() <= DeepLink::MAX_STEP as usize && self.timeline.extend() {}
        Ok(())
    }

    /// The same scenario with other protections, from the start, without injected faults
    /// (and without a comparison or a challenge: a challenge is played on its own design).
    pub fn with_protections(&self, protections: Protections) -> Run {
        let mut link = DeepLink::to_scenario(&self.scenario.id);
        link.protections = Some(protections);
        link.base = self.base;
        Run::from_link(&link).unwrap_or_else(|_| Run::single(self.scenario.clone()))
    }

    /// The link that rebuilds this run at this step.
    pub fn link(&self) -> DeepLink {
        let default = Scenario::by_id(&self.scenario.id).map(|s| s.protections);
        let protections = self.scenario.protections;
        let faults = self.timeline.last().injected().to_vec();
        let protections = (default != Ok(protections)).then_some(protections);
        DeepLink {
            scenario: self.scenario.id.clone(),
            protections,
            faults,
            step: (self.cursor() > 0).then_some(self.cursor() as u32),
            base: self.base,
            compare: self.compare().map(|s| s.id.clone()),
            challenge: self.challenge.clone(),
            chaos: self.chaos,
        }
    }

    /// A chaos run of this design ("Surprise me"): the faults seed `seed` draws, from the
    /// start, without the scenario's scripted faults, a comparison or a challenge.
    pub fn chaos_link(&self, seed: u32) -> DeepLink {
        let default = Scenario::by_id(&self.scenario.id).map(|s| s.protections);
        let protections = self.scenario.protections;
        let protections = (default != Ok(protections)).then_some(protections);
        idem_core::chaos::link(&self.scenario.id, protections, seed)
            .unwrap_or_else(|_| DeepLink::to_scenario(&self.scenario.id))
    }

    /// The seed this run's link names (`chaos=`), until the student injects a fault of their
    /// own; whether the faults are the seed's is `idem_core::chaos::drew`'s to say.
    pub fn chaos_seed(&self) -> Option<u32> {
        self.link().chaos
    }
}

/// Real time (ms) a narrated step of `chars` characters stays on screen while playing at
/// `speed`: at 1× and slower, long enough to read it (about 14 characters a second, at least
/// 1.2 s, at most 7 s); at 2× half that, so 2× reads as twice as fast, not as a blur; 4× is
/// the fast-forward and does not wait.
pub fn hold_ms(chars: usize, speed: f64) -> f64 {
    if speed > 2.0 {
        return 0.0;
    }
    (chars as f64 * 70.0).clamp(1_200.0, 7_000.0) / speed.max(1.0)
}

/// A moment of the story worth stopping at while playing at 1× or slower: in the visible step
/// the world ends in ([`crate::fold::visible_tail`]), an answer was lost on the way, or the
/// phone sent a retry.
pub fn key_moment(world: &World) -> bool {
    use idem_core::Note;
    crate::fold::visible_tail(world.steps()).iter().any(|step| {
        step.notes.iter().any(|n| {
            matches!(
                n,
                Note::MessageLost { .. } | Note::ClientSends { attempt: 2.., .. }
            )
        })
    })
}

/// What one animation frame does to the playback clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tick {
    /// The new display time (simulated ms).
    pub display: f64,
    /// The next event is due: take a step.
    pub due: bool,
    /// A quiet gap of this many simulated ms was jumped over.
    pub skipped_ms: Option<u64>,
}

/// Advances the display time by `real_ms` × `speed` towards `next` (the world's next wakeup).
/// Long quiet gaps (an idle phone, a 25 h clock advance) are jumped over and reported.
pub fn tick(display: f64, real_ms: f64, speed: f64, next: Option<SimTime>) -> Tick {
    let Some(next) = next else {
        return Tick {
            display,
            due: false,
            skipped_ms: None,
        };
    };
    let next = next.ms() as f64;
    if next - display > QUIET_GAP_MS {
        return Tick {
            display: next,
            due: true,
            skipped_ms: Some((next - display) as u64),
        };
    }
    let advanced = display + real_ms.max(0.0) * speed;
    if advanced >= next {
        Tick {
            display: next,
            due: true,
            skipped_ms: None,
        }
    } else {
        Tick {
            display: advanced,
            due: false,
            skipped_ms: None,
        }
    }
}

/// The run a query string asks for and what was wrong with it. Bad parameters are dropped
/// and the good ones kept; faults that cannot be replayed are dropped too (the scenario,
/// protections and step stay).
pub fn run_from_query(query: &str) -> (Run, Vec<LinkError>) {
    let (link, mut errors) = DeepLink::parse_lenient(query);
    match Run::from_link(&link) {
        Ok(run) => (run, errors),
        Err(error) => {
            errors.push(error);
            let without_faults = DeepLink {
                faults: Vec::new(),
                ..link
            };
            let run =
                Run::from_link(&without_faults).unwrap_or_else(|_| Run::new(default_scenario()));
            (run, errors)
        }
    }
}

/// The scenario shown when nothing (or something invalid) is asked for.
pub fn default_scenario() -> Scenario {
    Scenario::by_id(idem_core::Scenario::IDS[0]).unwrap_or_else(|_| {
        Scenario::all()
            .into_iter()
            .next()
            .expect("the core has scenarios")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "Surprise me": the run a seed draws, kept in the address as `chaos=<seed>` while its
    /// faults are the drawn ones, spelled out once the student adds one of their own.
    #[test]
    fn a_chaos_run_is_linked_by_its_seed_until_its_faults_change() {
        let key = Run::new(Scenario::by_id("key").expect("key"));
        let chaos = Run::from_link(&key.chaos_link(7)).expect("builds");
        assert_eq!(chaos.chaos_seed(), Some(7));
        assert_eq!(chaos.cursor(), 0, "played from the start");
        let faults = chaos.link().faults;
        assert_eq!(
            faults,
            idem_core::chaos::schedule(&Scenario::by_id("key").expect("key"), 7)
        );
        assert!(chaos.link().to_query().contains("&base=1&chaos=7&faults="));
        assert!(idem_core::chaos::drew(&chaos.link()));
        // The same seed on another design draws for that design.
        let other = key.with_protections(Protections::NONE);
        assert!(other
            .chaos_link(7)
            .to_query()
            .contains("protect=none&base=1&chaos=7"));
        // A fault of the student's own: the link spells every fault out.
        let mut changed = chaos.clone();
        changed
            .apply(Action::LoseNextAck)
            .expect("applies at the start");
        assert_eq!(changed.chaos_seed(), None);
        let query = changed.link().to_query();
        assert!(query.contains("base=1&faults=0.lose-ack"), "{query}");
        assert!(!query.contains("chaos="), "{query}");
    }

    fn run(id: &str) -> Run {
        Run::new(Scenario::by_id(id).expect("scenario"))
    }

    #[test]
    fn the_four_stories_end_as_the_seed_says() {
        let mut naive = run("naive");
        assert_eq!(naive.cursor(), 0);
        naive.run_to_end();
        assert!(naive.at_end());
        assert_eq!(naive.world().verdict().money.statement_cents, 20_000);
        assert!(!naive.world().verdict().ok());
        let mut key = run("key");
        key.run_to_end();
        assert_eq!(key.world().verdict().money.statement_cents, 10_000);
        assert!(key.world().verdict().ok());
        let mut cas = run("cas");
        cas.run_to_end();
        assert_eq!(cas.world().ledger().accounts[0].balance, 80);
        let mut counter = run("counter-naive");
        counter.run_to_end();
        assert_eq!(counter.world().ledger().posts[0].likes, 102);
        let mut counter = run("counter");
        counter.run_to_end();
        assert_eq!(counter.world().ledger().posts[0].likes, 101);
    }

    #[test]
    fn stepping_back_restores_the_exact_snapshot() {
        let mut r = run("naive");
        for _ in 0..6 {
            assert!(r.step_forward());
        }
        let at6 = r.world().clone();
        r.step_forward();
        assert!(r.step_back());
        assert_eq!(r.world(), &at6);
        r.restart();
        assert_eq!(r.cursor(), 0);
        assert!(!r.step_back());
        assert_eq!(r.world().step_count(), 0);
    }

    #[test]
    fn an_action_in_the_past_truncates_the_future() {
        let mut r = run("naive");
        let full = r.known_steps();
        let old_future = r.snapshot(3);
        r.jump(2);
        r.apply(Action::RetryNow).expect("the op is pending");
        assert_eq!(r.cursor(), 3);
        assert_ne!(r.snapshot(3), old_future);
        // The new future is known to its end at once: "step n / N" counts the whole run.
        assert!(r.known_steps() > 3, "{} of {full}", r.known_steps());
        let mut live = r.snapshot(3).expect("applied").clone();
        live.run(2_000);
        assert_eq!(r.snapshot(r.known_steps()), Some(live));
        assert!(r.step_forward());
        assert_eq!(r.world().step_count(), 4);
        r.run_to_end();
        assert!(r.at_end());
        assert_eq!(r.cursor(), r.known_steps());
    }

    /// The Step buttons move by visible steps ([`Stops`]) and stay exact: forward then back
    /// visits the same snapshots, each a core snapshot; a link keeps counting the core's steps
    /// and rebuilds the same world, and one that names a step inside a fold opens there,
    /// counted as the visible step it is part of.
    #[test]
    fn the_step_buttons_move_by_visible_steps_exactly() {
        let mut r = run("key");
        let total = r.visible_total();
        assert_eq!((total, r.known_steps()), (16, 20));
        let mut forward = vec![r.cursor()];
        while r.step_visible() {
            assert!(r.at_stop());
            assert_eq!(r.visible_step(), forward.len());
            forward.push(r.cursor());
        }
        assert_eq!(forward.len(), total + 1);
        assert!(r.at_end() && !r.step_visible());
        assert!(forward.contains(&2) && !forward.contains(&3) && forward.contains(&4));
        let mut back = vec![r.cursor()];
        while r.back_visible() {
            back.push(r.cursor());
        }
        back.reverse();
        assert_eq!(back, forward);
        // A link at a stop and one inside a fold.
        r.jump(4);
        let query = r.link().to_query();
        assert!(query.ends_with("step=4"), "{query}");
        let again = Run::from_link(&DeepLink::parse(&query).expect("parses")).expect("builds");
        assert_eq!((again.world(), again.visible_step()), (r.world(), 3));
        let mut inside =
            Run::from_link(&DeepLink::parse("scenario=key&step=3").expect("ok")).expect("ok");
        assert_eq!((inside.cursor(), inside.visible_step()), (3, 3));
        assert!(!inside.at_stop());
        assert!(inside.step_visible());
        assert_eq!(inside.cursor(), 4, "on to the end of its visible step");
        inside.jump_visible(3);
        assert_eq!(inside.cursor(), 4, "a jump shows the whole visible step");
        inside.jump(3);
        assert!(inside.back_visible());
        assert_eq!(inside.cursor(), 2);
        // Compare mode folds nothing: every step of the joint timeline is a stop.
        let pair = Run::from_link(&DeepLink::parse("scenario=naive&compare=key").expect("ok"))
            .expect("builds");
        assert_eq!(pair.visible_total(), pair.known_steps());
    }

    #[test]
    fn refused_actions_leave_the_run_alone() {
        let mut r = run("key");
        let before = r.clone();
        assert_eq!(r.apply(Action::RetryNow), Err(ActionError::NothingToRetry));
        assert_eq!(r, before);
    }

    #[test]
    fn the_link_rebuilds_the_same_state() {
        let mut r = run("key");
        r.jump(3);
        r.apply(Action::Crash(idem_core::Phase::RecordKey))
            .expect("crash");
        r.step_forward();
        r.step_forward();
        let link = r.link();
        let query = link.to_query();
        let again = Run::from_link(&DeepLink::parse(&query).expect("parses")).expect("builds");
        assert_eq!(again.cursor(), r.cursor());
        assert_eq!(again.world(), r.world());
        assert_eq!(
            DeepLink::parse("scenario=key").expect("ok"),
            run("key").link()
        );
    }

    #[test]
    fn a_comparison_drives_both_worlds_on_one_timeline() {
        let link = DeepLink::parse("scenario=naive&compare=key&base=1").expect("valid");
        let mut r = Run::from_link(&link).expect("builds");
        assert_eq!(r.compare().map(|s| s.id.as_str()), Some("key"));
        r.apply(Action::LoseNextAck).expect("applies to both");
        assert!(r.world().next_ack_will_be_lost() && r.shown(Side::Right).next_ack_will_be_lost());
        r.run_to_end();
        assert!(r.at_end());
        assert_eq!(r.world().verdict().money.statement_cents, 20_000);
        assert_eq!(r.shown(Side::Right).verdict().money.statement_cents, 10_000);
        assert_eq!(r.shown(Side::Left), r.world());
        // Step back restores both sides exactly.
        let (left, right) = (r.world().clone(), r.shown(Side::Right).clone());
        assert!(r.step_back());
        assert!(r.step_forward());
        assert_eq!((r.world(), r.shown(Side::Right)), (&left, &right));
        // The link names both, and the faults on the joint timeline.
        let query = r.link().to_query();
        assert!(
            query.contains("compare=key") && query.contains("faults=0.lose-ack"),
            "{query}"
        );
        let again = Run::from_link(&DeepLink::parse(&query).expect("parses")).expect("builds");
        assert_eq!(again.shown(Side::Right), r.shown(Side::Right));
        // Playback time is the pair's: the next step is never before the time reached.
        r.restart();
        while r.cursor() < r.known_steps() {
            let next = r.next_time().expect("a next step");
            assert!(next >= r.now());
            r.step_forward();
        }
        // Other protections leave the comparison.
        assert!(r.with_protections(Protections::ALL).compare().is_none());
    }

    /// The timeline keeps a world only every few steps: every world it gives back is the one
    /// the core builds step by step, whole (the link's snapshots), on one world and on a
    /// pair, after a change of the past and after stepping past the known end.
    #[test]
    fn every_step_gives_back_the_world_the_core_builds() {
        for query in [
            "scenario=naive&base=1",
            "scenario=key",
            "scenario=naive&compare=key&base=1&faults=0.lose-ack",
        ] {
            let link = DeepLink::parse(query).expect("valid");
            let mut r = Run::from_link(&link).expect("builds");
            r.jump(2);
            r.apply(Action::LoseNextAck).expect("applies");
            r.jump(4);
            r.apply(Action::RetryNow).ok();
            r.run_to_end();
            assert!(!r.link().faults.is_empty(), "{query}");
            let again = DeepLink {
                step: Some(DeepLink::MAX_STEP),
                ..r.link()
            };
            let lefts: Vec<World> = match again.build_pair().expect("builds") {
                pairs if pairs.is_empty() => again.build().expect("builds"),
                pairs => {
                    let mut cursor = r.clone();
                    for (i, pair) in pairs.iter().enumerate() {
                        cursor.jump(i);
                        assert_eq!(cursor.pair(), Some(pair), "{query}: pair {i}");
                    }
                    pairs.iter().map(|p| p.left().clone()).collect()
                }
            };
            assert_eq!(lefts.len(), r.known_steps() + 1, "{query}");
            for (i, world) in lefts.iter().enumerate() {
                assert_eq!(r.snapshot(i).as_ref(), Some(world), "{query}: snapshot {i}");
                r.jump(i);
                assert_eq!(r.world(), world, "{query}: step {i} shown");
            }
            let end = &lefts[lefts.len() - 1];
            assert_eq!(
                (r.end().verdict(), r.end().injected(), r.end().now()),
                (end.verdict(), end.injected(), end.now()),
                "{query}"
            );
            // Back and forth over the steps, the shown world stays whole.
            r.jump(1);
            r.jump(lefts.len() - 1);
            assert_eq!(r.world(), &lefts[lefts.len() - 1], "{query}");
            assert!(r.world().steps().len() > 3, "{query}: the log is shown");
        }
    }

    /// Past a few checkpoints (a long run: the student starts payment after payment), every
    /// step shown, jumped to or copied is the world as it was when first reached, also after
    /// the past is changed between two checkpoints.
    #[test]
    fn a_long_run_rebuilds_every_step_from_its_checkpoints() {
        let start = Scenario::by_id("naive")
            .expect("naive")
            .script
            .iter()
            .find_map(|s| matches!(s.action, Action::Start(_)).then_some(s.action))
            .expect("the story starts a payment");
        let mut r = run("naive");
        let mut seen = vec![r.world().clone()];
        let play = |r: &mut Run, seen: &mut Vec<World>, to: usize| {
            while r.cursor() < to {
                if !r.step_forward() {
                    r.apply(start).expect("a new payment starts");
                }
                seen.truncate(r.cursor());
                seen.push(r.world().clone());
            }
        };
        play(&mut r, &mut seen, 300);
        let check = |r: &mut Run, seen: &[World]| {
            for i in [0, 1, 63, 64, 65, 130, 299, 7, 128, 129, 200, 300] {
                assert_eq!(r.snapshot(i).as_ref(), Some(&seen[i]), "snapshot {i}");
                r.jump(i);
                assert_eq!(r.world(), &seen[i], "step {i} shown");
            }
            r.restart();
            while r.cursor() < 300 {
                r.step_forward();
                assert_eq!(r.world(), &seen[r.cursor()], "step {}", r.cursor());
            }
        };
        check(&mut r, &seen);
        // A fault placed at step 150 (between two checkpoints): a new future from there.
        r.jump(150);
        seen.truncate(151);
        r.apply(Action::LoseNextAck).expect("applies");
        seen.push(r.world().clone());
        play(&mut r, &mut seen, 300);
        assert_ne!(r.snapshot(160), None);
        check(&mut r, &seen);
    }

    #[test]
    fn protections_rebuild_from_the_start() {
        let mut r = run("naive");
        r.run_to_end();
        let mut p = r.scenario().protections;
        p.idempotency_key = true;
        let mut changed = r.with_protections(p);
        assert_eq!(changed.cursor(), 0);
        assert!(changed.scenario().protections.idempotency_key);
        assert!(changed.link().to_query().contains("protect=key"));
        changed.run_to_end();
        assert_eq!(changed.world().verdict().money.statement_cents, 10_000);
    }

    #[test]
    fn playing_at_1x_waits_for_the_reader_and_stops_at_the_key_moments() {
        assert_eq!(hold_ms(10, 1.0), 1_200.0);
        assert_eq!(hold_ms(60, 1.0), 4_200.0);
        assert_eq!(hold_ms(10_000, 0.5), 7_000.0);
        assert_eq!(hold_ms(60, 2.0), 2_100.0);
        assert_eq!(hold_ms(60, 4.0), 0.0);
        // The naive story: the ack is lost, then the retry goes out; nothing else stops it.
        let mut r = run("naive");
        r.run_to_end();
        let stops: Vec<usize> = (1..=r.known_steps())
            .filter(|i| r.stops().is_stop(*i) && r.snapshot(*i).is_some_and(|w| key_moment(&w)))
            .collect();
        assert_eq!(stops.len(), 2, "{stops:?}");
        let lost = r.snapshot(stops[0]).expect("known");
        assert!(lost.steps().last().is_some_and(|s| s
            .notes
            .iter()
            .any(|n| matches!(n, idem_core::Note::MessageLost { .. }))));
        assert!(stops[0] < stops[1]);
    }

    #[test]
    fn the_clock_runs_at_speed_and_jumps_quiet_gaps() {
        let t = tick(0.0, 100.0, 2.0, Some(SimTime(300)));
        assert_eq!((t.display, t.due), (200.0, false));
        let t = tick(200.0, 100.0, 2.0, Some(SimTime(300)));
        assert_eq!((t.display, t.due), (300.0, true));
        let t = tick(
            2_000.0,
            16.0,
            1.0,
            Some(SimTime(2_000 + 25 * SimTime::HOUR)),
        );
        assert!(t.due);
        assert_eq!(t.skipped_ms, Some(25 * SimTime::HOUR));
        let t = tick(10.0, 16.0, 1.0, None);
        assert!(!t.due);
    }
}
