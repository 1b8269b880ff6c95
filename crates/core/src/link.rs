//! Deep links: a run as a URL query. Scenario, protections, injected faults and the step are
//! enough to rebuild any state exactly, because the world is deterministic.
//!
//! ```text
//! ?scenario=key&protect=key.lock.fingerprint&faults=5.drop.7_9.crash.write-ledger&step=14
//! ```
//!
//! Every value comes from outside, so parsing validates everything and reports each problem
//! as a [`LinkError`]; nothing here panics on any input.

use serde::{Deserialize, Serialize};

use crate::action::{Action, ActionError};
use crate::challenge::Challenge;
use crate::compare::Pair;
use crate::phase::Phase;
use crate::protections::{Protection, Protections};
use crate::scenario::{comparable, Scenario, IDS};
use crate::topology::MsgId;
use crate::world::World;

/// Longest query the parser looks at.
pub(crate) const MAX_QUERY_LEN: usize = 4_096;
/// Most faults a link may carry.
pub(crate) const MAX_FAULTS: usize = 64;
/// Highest step a link may ask for.
pub(crate) const MAX_STEP: u32 = 5_000;
/// The parameters a deep link owns; the page reads others of its own (`lang`, `embed`, …)
/// and reports any name neither knows.
pub(crate) const PARAMS: [&str; 8] = [
    "scenario",
    "protect",
    "faults",
    "step",
    "base",
    "compare",
    "challenge",
    "chaos",
];

/// A parsed deep link.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DeepLink {
    /// Scenario id.
    pub scenario: String,
    /// Protections, when they differ from the scenario's own.
    pub protections: Option<Protections>,
    /// Injected actions with the step count at which each applies.
    pub faults: Vec<(u32, Action)>,
    /// The step to show (`None`: the end of the run).
    pub step: Option<u32>,
    /// The scenario without its scripted faults (the explorer's base run).
    pub base: bool,
    /// Another scenario of the same story shown beside it (compare mode); the faults and the
    /// step are then on the pair's joint timeline.
    pub compare: Option<String>,
    /// The "Can you break it?" challenge being played.
    pub challenge: Option<String>,
    /// A chaos run's seed ("Surprise me"): the run's `faults` were drawn by
    /// [`crate::chaos::schedule`] from this seed, on the design without scripted faults
    /// (`base`). The link spells the faults out too, so opening it needs no drawing;
    /// [`crate::chaos::drew`] checks that they are the seed's.
    pub chaos: Option<u32>,
}

/// What is wrong with a link.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LinkError {
    /// The query is longer than [`MAX_QUERY_LEN`].
    TooLong(usize),
    /// No scenario has this id.
    UnknownScenario(String),
    /// No protection has this name.
    UnknownProtection(String),
    /// A fault entry could not be read.
    BadFault(String),
    /// More than [`MAX_FAULTS`] faults.
    TooManyFaults(usize),
    /// The step is not a number up to [`MAX_STEP`].
    BadStep(String),
    /// The same parameter appears twice.
    Repeated(String),
    /// A value holds characters links never contain.
    BadCharacters(String),
    /// `compare` names no scenario, or one that does not tell the same story.
    BadCompare(String),
    /// No challenge has this id.
    UnknownChallenge(String),
    /// `chaos` is not a seed (a number up to 4 294 967 295).
    BadChaos(String),
    /// `chaos` given with a parameter it cannot join (`compare`, `challenge`), or without one
    /// it needs (`base`, `faults`): the name of that parameter.
    ChaosWith(String),
    /// A fault was refused when the run was rebuilt.
    FaultRefused {
        /// Its position in the list.
        index: usize,
        /// Why.
        error: ActionError,
    },
}

impl Default for DeepLink {
    fn default() -> Self {
        DeepLink {
            scenario: IDS[0].to_owned(),
            protections: None,
            faults: Vec::new(),
            step: None,
            base: false,
            compare: None,
            challenge: None,
            chaos: None,
        }
    }
}

impl DeepLink {
    /// The longest query string read.
    pub const MAX_QUERY_LEN: usize = MAX_QUERY_LEN;
    /// The most faults a link holds.
    pub const MAX_FAULTS: usize = MAX_FAULTS;
    /// The latest step a link names.
    pub const MAX_STEP: u32 = MAX_STEP;
    /// The parameters [`DeepLink::parse`] reads (any other is left to the page).
    pub const PARAMS: [&'static str; 8] = PARAMS;

    /// The link spelling of an action, without its step (`crash.record-key`).
    pub fn action_token(action: &Action) -> String {
        action_token(action)
    }

    /// The link that opens `challenge` at its start: its design, no script, the challenge.
    /// (The link reads challenges as it reads scenarios; a challenge knows no links.)
    pub fn to_challenge(challenge: &Challenge) -> DeepLink {
        DeepLink {
            scenario: challenge.scenario.to_owned(),
            base: true,
            challenge: Some(challenge.id.to_owned()),
            ..DeepLink::default()
        }
    }

    /// A link to the start of a scenario.
    pub fn to_scenario(id: &str) -> DeepLink {
        DeepLink {
            scenario: id.to_owned(),
            ..DeepLink::default()
        }
    }

    /// Reads the parameters this module owns (`scenario`, `protect`, `faults`, `step`, `base`,
    /// `compare`, `challenge`, `chaos`) from a query string (with or without the leading `?`); other parameters are ignored.
    /// Returns every problem found, not just the first.
    pub fn parse(query: &str) -> Result<DeepLink, Vec<LinkError>> {
        let (link, errors) = DeepLink::parse_lenient(query);
        if errors.is_empty() {
            Ok(link)
        } else {
            Err(errors)
        }
    }

    /// Like [`DeepLink::parse`], but keeps every parameter that parsed: a bad parameter is
    /// left at its default (a bad `protect` or `faults` is dropped whole, since its parts
    /// depend on each other) and reported. A query over [`MAX_QUERY_LEN`] keeps nothing.
    pub fn parse_lenient(query: &str) -> (DeepLink, Vec<LinkError>) {
        if query.len() > MAX_QUERY_LEN {
            return (DeepLink::default(), vec![LinkError::TooLong(query.len())]);
        }
        let mut link = DeepLink::default();
        let mut errors = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        let mut compare_after: Option<String> = None;
        let mut challenge: Option<Challenge> = None;
        let mut chaos: Option<u32> = None;
        for pair in query
            .trim_start_matches('?')
            .split('&')
            .filter(|p| !p.is_empty())
        {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            if !PARAMS.contains(&name) {
                continue;
            }
            if seen.contains(&name) {
                errors.push(LinkError::Repeated(name.to_owned()));
                continue;
            }
            seen.push(name);
            if !value
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c))
            {
                errors.push(LinkError::BadCharacters(name.to_owned()));
                continue;
            }
            match name {
                "scenario" => {
                    if IDS.contains(&value) {
                        link.scenario = value.to_owned();
                    } else {
                        errors.push(LinkError::UnknownScenario(value.to_owned()));
                    }
                }
                "protect" => match parse_protections(value) {
                    Ok(p) => link.protections = Some(p),
                    Err(e) => errors.extend(e),
                },
                "faults" => match parse_faults(value) {
                    Ok(f) => link.faults = f,
                    Err(e) => errors.extend(e),
                },
                "step" => match value.parse::<u32>() {
                    Ok(n) if n <= MAX_STEP => link.step = Some(n),
                    _ => errors.push(LinkError::BadStep(value.to_owned())),
                },
                "compare" => compare_after = Some(value.to_owned()),
                "challenge" => match Challenge::by_id(value) {
                    // A challenge plays its own design: scenario, protections, no script.
                    Some(c) => challenge = Some(c),
                    None => errors.push(LinkError::UnknownChallenge(value.to_owned())),
                },
                "chaos" => match value.parse::<u32>() {
                    Ok(seed) => chaos = Some(seed),
                    Err(_) => errors.push(LinkError::BadChaos(value.to_owned())),
                },
                _ => link.base = matches!(value, "" | "1" | "true"),
            }
        }
        if let Some(c) = challenge {
            let design = DeepLink::to_challenge(&c);
            link.scenario = design.scenario;
            link.protections = design.protections;
            link.base = true;
            link.challenge = design.challenge;
        }
        // `compare` is checked once the scenario is known (the parameters come in any order);
        // a challenge is played alone.
        if let Some(other) = compare_after {
            if challenge.is_none()
                && IDS.contains(&other.as_str())
                && comparable(&link.scenario, &other)
            {
                link.compare = Some(other);
            } else {
                errors.push(LinkError::BadCompare(other));
            }
        }
        // A chaos run is played alone, on the run without scripted faults, its faults spelled
        // (as read: a `base=0` or an empty `faults` is missing too, so the link reads back).
        if let Some(seed) = chaos {
            let conflict = ["compare", "challenge"]
                .into_iter()
                .find(|name| seen.contains(name))
                .or((!link.base).then_some("base"))
                .or(link.faults.is_empty().then_some("faults"));
            match conflict {
                Some(name) => errors.push(LinkError::ChaosWith(name.to_owned())),
                None => link.chaos = Some(seed),
            }
        }
        (link, errors)
    }

    /// The query string for this link (without `?`), in a stable order.
    pub fn to_query(&self) -> String {
        let mut parts = vec![format!("scenario={}", self.scenario)];
        if let Some(p) = &self.protections {
            let on: Vec<&str> = p.on().map(Protection::name).collect();
            parts.push(format!(
                "protect={}",
                if on.is_empty() {
                    "none".to_owned()
                } else {
                    on.join(".")
                }
            ));
        }
        if self.base {
            parts.push("base=1".to_owned());
        }
        if let Some(other) = &self.compare {
            parts.push(format!("compare={other}"));
        }
        if let Some(id) = &self.challenge {
            parts.push(format!("challenge={id}"));
        }
        if let Some(seed) = self.chaos {
            parts.push(format!("chaos={seed}"));
        }
        if !self.faults.is_empty() {
            let faults: Vec<String> = self
                .faults
                .iter()
                .map(|(at, a)| format!("{at}.{}", action_token(a)))
                .collect();
            parts.push(format!("faults={}", faults.join("_")));
        }
        if let Some(step) = self.step {
            parts.push(format!("step={step}"));
        }
        parts.join("&")
    }

    /// The scenario the link describes (its protections and base flag applied).
    pub fn scenario(&self) -> Result<Scenario, LinkError> {
        let mut scenario = Scenario::by_id(&self.scenario)
            .map_err(|_| LinkError::UnknownScenario(self.scenario.clone()))?;
        if let Some(p) = self.protections {
            scenario.protections = p;
        }
        if self.base {
            scenario = scenario.without_scripted_faults();
        }
        Ok(scenario)
    }

    /// The scenario shown beside it in compare mode (the base flag applied to both; the
    /// protections belong to the left one).
    pub fn compare_scenario(&self) -> Result<Option<Scenario>, LinkError> {
        let Some(other) = &self.compare else {
            return Ok(None);
        };
        let mut scenario =
            Scenario::by_id(other).map_err(|_| LinkError::BadCompare(other.clone()))?;
        if self.base {
            scenario = scenario.without_scripted_faults();
        }
        Ok(Some(scenario))
    }

    /// Rebuilds a compare-mode run: the pair after every joint step from the start up to
    /// `step` (or to the end). Empty when the link does not compare.
    pub fn build_pair(&self) -> Result<Vec<Pair>, LinkError> {
        let Some(right) = self.compare_scenario()? else {
            return Ok(Vec::new());
        };
        let left = self.scenario()?;
        let mut snapshots = vec![Pair::new(&left, &right)];
        Pair::replay_each(
            &left,
            &right,
            &self.faults,
            self.step.unwrap_or(MAX_STEP),
            |p| snapshots.push(p.clone()),
        )
        .map_err(|(index, error)| LinkError::FaultRefused { index, error })?;
        Ok(snapshots)
    }

    /// Rebuilds the run: every step from the start up to `step` (or to the end).
    pub fn build(&self) -> Result<Vec<World>, LinkError> {
        let scenario = self.scenario()?;
        let mut snapshots = vec![World::new(&scenario)];
        World::replay_each(
            &scenario,
            &self.faults,
            self.step.unwrap_or(MAX_STEP),
            |w| snapshots.push(w.clone()),
        )
        .map_err(|(index, error)| LinkError::FaultRefused { index, error })?;
        Ok(snapshots)
    }
}

fn parse_protections(value: &str) -> Result<Protections, Vec<LinkError>> {
    let mut p = Protections::NONE;
    if value == "none" || value.is_empty() {
        return Ok(p);
    }
    let errors: Vec<LinkError> = value
        .split('.')
        .filter(|name| !p.set(name, true))
        .map(|name| LinkError::UnknownProtection(name.to_owned()))
        .collect();
    if errors.is_empty() {
        Ok(p)
    } else {
        Err(errors)
    }
}

fn parse_faults(value: &str) -> Result<Vec<(u32, Action)>, Vec<LinkError>> {
    if value.is_empty() {
        return Ok(Vec::new());
    }
    let entries: Vec<&str> = value.split('_').collect();
    if entries.len() > MAX_FAULTS {
        return Err(vec![LinkError::TooManyFaults(entries.len())]);
    }
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for entry in entries {
        match parse_fault(entry) {
            Some(fault) if out.last().is_none_or(|(at, _)| *at <= fault.0) => out.push(fault),
            _ => errors.push(LinkError::BadFault(entry.to_owned())),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

fn parse_fault(entry: &str) -> Option<(u32, Action)> {
    let mut parts = entry.split('.');
    let at: u32 = parts.next()?.parse().ok().filter(|n| *n <= MAX_STEP)?;
    let kind = parts.next()?;
    let mut number = || -> Option<u64> { parts.next()?.parse().ok() };
    let msg = |n: u64| u32::try_from(n).ok().map(MsgId);
    let action = match kind {
        "retry" => Action::RetryNow,
        "lose-ack" => Action::LoseNextAck,
        "evict" => Action::EvictKeys,
        "concurrent" => Action::ConcurrentDuplicate,
        "reuse-key" => Action::ReuseKeyOtherBody,
        "other-user" => Action::OtherUserSameKey,
        "drop" => Action::Drop(msg(number()?)?),
        "dup" => Action::Duplicate(msg(number()?)?),
        "delay" => {
            let id = msg(number()?)?;
            Action::Delay(id, number().filter(|ms| *ms <= 7 * crate::time::DAY)?)
        }
        "clock" => Action::AdvanceClock(number().filter(|ms| *ms <= 30 * crate::time::DAY)?),
        "crash" => Action::Crash(Phase::from_name(parts.next()?)?),
        "pause" => Action::Pause(Phase::from_name(parts.next()?)?),
        _ => return None,
    };
    if parts.next().is_some() {
        return None;
    }
    Some((at, action))
}

/// The link spelling of an action (without its step).
pub(crate) fn action_token(action: &Action) -> String {
    let kind = action.kind_name();
    match action {
        Action::Drop(id) | Action::Duplicate(id) => format!("{kind}.{}", id.0),
        Action::Delay(id, ms) => format!("{kind}.{}.{ms}", id.0),
        Action::AdvanceClock(ms) => format!("{kind}.{ms}"),
        Action::Crash(phase) | Action::Pause(phase) => format!("{kind}.{}", phase.name()),
        // Every other action (a start, a retry, …) is its kind alone.
        _ => kind.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_the_query() {
        let mut p = Protections::NONE;
        p.idempotency_key = true;
        p.lock = true;
        let link = DeepLink {
            scenario: "key".to_owned(),
            protections: Some(p),
            faults: vec![
                (2, Action::Drop(MsgId(0))),
                (5, Action::Crash(Phase::WriteLedger)),
                (5, Action::Delay(MsgId(3), 400)),
                (9, Action::AdvanceClock(90_000_000)),
                (9, Action::RetryNow),
            ],
            step: Some(14),
            base: true,
            ..DeepLink::default()
        };
        let query = link.to_query();
        assert_eq!(
            query,
            "scenario=key&protect=key.lock&base=1&faults=2.drop.0_5.crash.write-ledger_5.delay.3.400_9.clock.90000000_9.retry&step=14"
        );
        assert_eq!(DeepLink::parse(&query), Ok(link.clone()));
        assert_eq!(
            DeepLink::parse(&format!("?lang=ru&{query}&embed")),
            Ok(link)
        );
    }

    #[test]
    fn every_problem_is_reported() {
        let errors = DeepLink::parse(
            "scenario=nope&protect=key.teleport&faults=x.drop_3.drop.-1_4.crash.nowhere&step=abc",
        )
        .expect_err("bad link");
        assert_eq!(
            errors,
            vec![
                LinkError::UnknownScenario("nope".into()),
                LinkError::UnknownProtection("teleport".into()),
                LinkError::BadFault("x.drop".into()),
                LinkError::BadFault("3.drop.-1".into()),
                LinkError::BadFault("4.crash.nowhere".into()),
                LinkError::BadStep("abc".into()),
            ]
        );
    }

    #[test]
    fn a_chaos_link_names_its_seed_and_spells_its_faults() {
        let link = crate::chaos::link("key", Some(Protections::NONE), 42).expect("a scenario");
        assert!(link.base, "a chaos run has no scripted faults");
        assert_eq!(link.chaos, Some(42));
        assert!(!link.faults.is_empty());
        assert!(crate::chaos::drew(&link));
        let query = link.to_query();
        assert!(
            query.starts_with("scenario=key&protect=none&base=1&chaos=42&faults="),
            "{query}"
        );
        // The same link, read back: the same faults and verdict.
        let again = DeepLink::parse(&query).expect("ok");
        assert_eq!(again, link);
        assert_eq!(
            again.build().expect("builds").last().map(World::verdict),
            link.build().expect("builds").last().map(World::verdict)
        );
        // Faults that are not the seed's are not its chaos run.
        let edited = DeepLink {
            faults: link.faults[..link.faults.len() - 1].to_vec(),
            ..link.clone()
        };
        assert!(!crate::chaos::drew(&edited));
    }

    #[test]
    fn a_chaos_seed_is_a_number_with_its_faults_and_alone() {
        let (_, errors) = DeepLink::parse_lenient("base=1&faults=0.retry&chaos=x1");
        assert_eq!(errors, vec![LinkError::BadChaos("x1".into())]);
        let (_, errors) = DeepLink::parse_lenient("base=1&faults=0.retry&chaos=4294967296");
        assert_eq!(errors, vec![LinkError::BadChaos("4294967296".into())]);
        for (query, other) in [
            ("chaos=1&faults=3.retry", "base"),
            ("base=1&chaos=1", "faults"),
            ("base=1&chaos=1&faults=", "faults"),
            ("base=0&chaos=1&faults=0.retry", "base"),
            (
                "scenario=naive&base=1&faults=0.retry&chaos=1&compare=key",
                "compare",
            ),
            (
                "base=1&faults=0.retry&chaos=1&challenge=redis-2",
                "challenge",
            ),
        ] {
            let (link, errors) = DeepLink::parse_lenient(query);
            assert!(
                errors.contains(&LinkError::ChaosWith(other.into())),
                "{query}: {errors:?}"
            );
            assert_eq!(link.chaos, None, "{query}");
        }
    }

    #[test]
    fn hostile_input_is_refused_not_panicked_on() {
        assert!(
            matches!(DeepLink::parse(&"a".repeat(MAX_QUERY_LEN + 1)), Err(e) if e == vec![LinkError::TooLong(MAX_QUERY_LEN + 1)])
        );
        assert!(DeepLink::parse("scenario=<script>").is_err());
        assert!(DeepLink::parse("scenario=key&scenario=naive").is_err());
        assert!(DeepLink::parse("step=99999999999999999999").is_err());
        assert!(DeepLink::parse("faults=1.drop.99999999999").is_err());
        assert!(
            DeepLink::parse("faults=5.drop.1_2.drop.1").is_err(),
            "steps must not go back"
        );
        let many = vec!["1.retry"; MAX_FAULTS + 1].join("_");
        assert!(DeepLink::parse(&format!("faults={many}")).is_err());
        assert_eq!(DeepLink::parse(""), Ok(DeepLink::default()));
    }

    #[test]
    fn lenient_parsing_keeps_the_good_parameters() {
        for step in ["-1", "1e3", "99999999999999999999", "5001"] {
            let (link, errors) = DeepLink::parse_lenient(&format!("?scenario=key&step={step}"));
            assert_eq!(link.scenario, "key", "step={step}");
            assert_eq!(link.step, None);
            assert_eq!(errors, vec![LinkError::BadStep(step.into())]);
        }
        let (link, errors) =
            DeepLink::parse_lenient("scenario=nope&protect=key.lock&faults=1.retry_x&step=3");
        assert_eq!(link.scenario, DeepLink::default().scenario);
        let mut p = Protections::NONE;
        p.idempotency_key = true;
        p.lock = true;
        assert_eq!(link.protections, Some(p));
        assert!(link.faults.is_empty(), "a bad fault list is dropped whole");
        assert_eq!(link.step, Some(3));
        assert_eq!(
            errors,
            vec![
                LinkError::UnknownScenario("nope".into()),
                LinkError::BadFault("x".into())
            ]
        );
        let (link, errors) = DeepLink::parse_lenient("scenario=key&scenario=naive");
        assert_eq!((link.scenario.as_str(), errors.len()), ("key", 1));
        let (link, errors) = DeepLink::parse_lenient(&"a".repeat(MAX_QUERY_LEN + 1));
        assert_eq!(link, DeepLink::default());
        assert_eq!(errors, vec![LinkError::TooLong(MAX_QUERY_LEN + 1)]);
        let valid = "scenario=key&protect=key&step=4";
        assert_eq!(
            DeepLink::parse_lenient(valid),
            (DeepLink::parse(valid).expect("valid"), Vec::new())
        );
    }

    #[test]
    fn build_replays_to_the_requested_step() {
        let link = DeepLink::parse("scenario=naive&step=7").expect("valid");
        let snapshots = link.build().expect("builds");
        assert_eq!(snapshots.len(), 8);
        assert_eq!(snapshots[7].step_count(), 7);
        // Without a step the link replays to the end (up to MAX_STEP snapshots): a run that
        // no longer ends fails here at once instead of cloning thousands of worlds.
        assert!(
            snapshots[7].clone().run(200) == crate::RunEnd::Quiescent,
            "the naive run ends"
        );
        let full = DeepLink::parse("scenario=naive")
            .expect("valid")
            .build()
            .expect("builds");
        assert!(full.last().is_some_and(World::is_quiescent));
        assert_eq!(full[7], snapshots[7]);
    }

    #[test]
    fn a_fault_that_does_not_apply_is_an_error() {
        let link = DeepLink::parse("scenario=naive&faults=0.drop.42").expect("parses");
        assert_eq!(
            link.build(),
            Err(LinkError::FaultRefused {
                index: 0,
                error: ActionError::NoSuchMessage(MsgId(42))
            })
        );
    }
}
