//! "Can you break it?": challenges as data. Each names a design (a scenario's operations
//! without their scripted faults, with given protections), a fault budget and what must
//! break. The student injects faults; the core's verdict decides success ([`Challenge::judge`]); a
//! finished exhaustive search within the budget that finds no violation proves the design
//! cannot be broken that way ([`Challenge::proves_unbreakable`]).

use serde::{Deserialize, Serialize};

use crate::explore::Report;
use crate::scenario::Scenario;
use crate::verdict::Invariant;
use crate::world::World;

/// One challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Challenge {
    /// URL id (`?challenge=redis-2`).
    pub id: &'static str,
    /// The scenario whose design and operations are played (without its scripted faults).
    pub scenario: &'static str,
    /// At most this many injected actions.
    pub budget: u32,
    /// The invariant that must break (`None`: any).
    pub breaks: Option<Invariant>,
    /// A fault kind the breaking run must use (URL name, e.g. `pause`), if any.
    pub needs: Option<&'static str>,
}

/// Every challenge, in list order.
pub(crate) const CHALLENGES: [Challenge; 4] = [
    Challenge {
        id: "redis-2",
        scenario: "key",
        budget: 2,
        breaks: None,
        needs: None,
    },
    Challenge {
        id: "op-id-no-index",
        scenario: "counter-no-index",
        budget: 2,
        breaks: Some(Invariant::AtMostOnce),
        needs: None,
    },
    Challenge {
        id: "lease-2",
        scenario: "lease-expiry",
        budget: 2,
        breaks: Some(Invariant::AtMostOnce),
        needs: Some("pause"),
    },
    Challenge {
        id: "fully-3",
        scenario: "fully-protected",
        budget: 3,
        breaks: None,
        needs: None,
    },
];

/// How a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Standing {
    /// Not broken (yet).
    Open,
    /// Broken within the budget.
    Solved,
    /// Proved unbreakable within the budget by an exhaustive search.
    Impossible,
}

impl Standing {
    /// `open`, `solved` or `impossible`.
    pub fn name(self) -> &'static str {
        match self {
            Standing::Open => "open",
            Standing::Solved => "solved",
            Standing::Impossible => "impossible",
        }
    }

    /// The standing with this name.
    pub fn from_name(name: &str) -> Option<Standing> {
        [Standing::Open, Standing::Solved, Standing::Impossible]
            .into_iter()
            .find(|s| s.name() == name)
    }
}

/// What the student's run on a challenge shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Attempt {
    /// The run is not the challenge's design (another scenario or other protections).
    OtherDesign,
    /// More actions injected than the budget allows.
    OverBudget,
    /// Still running.
    Running,
    /// Over, and nothing the challenge asks for broke.
    Holds,
    /// Over, and the invariant broke within the budget.
    Broken,
}

impl Challenge {
    /// The challenge with this id.
    pub fn by_id(id: &str) -> Option<Challenge> {
        CHALLENGES.iter().find(|c| c.id == id).copied()
    }

    /// The design under attack: the scenario, with its own protections, without its
    /// scripted faults.
    pub fn design(&self) -> Option<Scenario> {
        Scenario::by_id(self.scenario)
            .ok()
            .map(|s| s.without_scripted_faults())
    }
}

impl Challenge {
    /// Every challenge, in the order the page lists them.
    pub const ALL: [Challenge; 4] = CHALLENGES;

    /// Judges the run in `world` against this challenge with the core's verdict.
    pub fn judge(&self, world: &World) -> Attempt {
        let Some(design) = self.design() else {
            return Attempt::OtherDesign;
        };
        let s = world.scenario();
        if s.id != design.id || s.protections != design.protections || s.scripted_faults {
            return Attempt::OtherDesign;
        }
        if world.injected().len() > self.budget as usize {
            return Attempt::OverBudget;
        }
        if !world.is_quiescent() {
            return Attempt::Running;
        }
        let verdict = world.verdict();
        let broken = verdict
            .violations()
            .any(|(i, _)| self.breaks.is_none_or(|b| b == i));
        let used = self
            .needs
            .is_none_or(|kind| world.injected().iter().any(|(_, a)| a.kind_name() == kind));
        if broken && used {
            Attempt::Broken
        } else {
            Attempt::Holds
        }
    }

    /// Whether `report`, a search of `scenario` with up to `k` faults, proves the challenge
    /// cannot be won: it searched the challenge's design (scripted faults are left out by the
    /// explorer), to the end, with at least the budget, and found no run that breaks what the
    /// challenge asks for.
    pub fn proves_unbreakable(&self, scenario: &Scenario, k: u32, report: &Report) -> bool {
        let Some(design) = self.design() else {
            return false;
        };
        let same = scenario.id == design.id && scenario.protections == design.protections;
        let none = match (self.breaks, self.needs) {
            // Every broken (invariant, kinds) class keeps its shortest run: none with the kind.
            (breaks, Some(kind)) => !report
                .shortest
                .iter()
                .any(|c| breaks.is_none_or(|b| b == c.invariant) && c.uses(kind)),
            (Some(i), None) => report.violations_of(i) == 0,
            (None, None) => report.violating_runs == 0,
        };
        // A search that ran nothing found nothing: it proves nothing either.
        let searched = report.runs > 0;
        same && searched && report.done && report.cut_off == 0 && k >= self.budget && none
    }
}
