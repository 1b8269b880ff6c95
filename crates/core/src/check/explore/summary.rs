//! What the runs below a situation add up to ([`Summary`], with the shortest way to break
//! each invariant per fault kinds, [`Best`]), and the single run of a situation without
//! faults left ([`Straight`]): what the search remembers and reuses when it meets a situation
//! again.

use crate::action::{FaultKind, KindCounts};
use crate::verdict::Invariant;
use crate::world::World;

/// How a child hangs below its parent: which choice, and which fault kind it adds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge {
    pub(crate) choice: u32,
    pub(crate) kind: Option<FaultKind>,
}

/// The choice "take the next step" (faults are numbered by their place in [`faults`](super::faults)).
pub(crate) const STEP: u32 = u32::MAX;
/// No choice: the run ends here.
pub(crate) const END: u32 = u32::MAX - 1;

/// What the runs below a node add up to.
#[derive(Clone, Debug, Default)]
pub(crate) struct Summary {
    pub(crate) runs: u64,
    pub(crate) violating: u64,
    pub(crate) cut_off: u64,
    pub(crate) by_invariant: [u64; Invariant::ALL.len()],
    /// Steps of the longest run below (to reuse the summary only where the step bound cannot
    /// cut any of them off).
    pub(crate) longest: u32,
    /// Step count of the node it was computed at.
    pub(crate) at_step: u32,
    pub(crate) best: Vec<Best>,
}

/// The shortest way from a node to break `invariant` with exactly the fault kinds `kinds`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Best {
    pub(crate) invariant: u8,
    pub(crate) kinds: KindCounts,
    pub(crate) steps: u32,
    pub(crate) choice: u32,
}

/// What the single run from a node without faults left comes to (most nodes are such, so
/// this is kept small): the invariants it breaks, whether the bound cut it off, its steps.
#[derive(Clone, Copy, Debug)]
pub(super) struct Straight {
    pub(super) broken: u8,
    pub(super) cut: bool,
    pub(super) steps: u32,
    pub(super) at_step: u32,
    /// For how many of the next steps a crash armed in this situation stays armed (0 when
    /// none is).
    pub(super) armed: u32,
}

impl Straight {
    pub(super) fn of(world: &World, steps: u32, at_step: u32) -> Straight {
        let mut broken = 0u8;
        let cut = !world.is_quiescent();
        if !cut {
            for (invariant, _) in world.verdict().violations() {
                broken |= 1 << invariant_index(invariant);
            }
        }
        Straight {
            broken,
            cut,
            steps,
            at_step,
            armed: 0,
        }
    }

    /// The same run seen from one step further (while a crash armed here stays armed).
    pub(super) fn advanced(&self) -> Option<Straight> {
        (self.armed > 0 && self.steps > 0).then(|| Straight {
            steps: self.steps - 1,
            at_step: self.at_step + 1,
            armed: self.armed - 1,
            ..*self
        })
    }

    pub(super) fn valid_at(&self, at_step: u32, max_steps: u32) -> bool {
        at_step == self.at_step || (!self.cut && at_step.saturating_add(self.steps) <= max_steps)
    }
}

impl Summary {
    pub(crate) fn leaf(world: &World) -> Summary {
        let mut summary = Summary {
            runs: 1,
            at_step: world.step_count(),
            ..Summary::default()
        };
        for (invariant, _) in world.verdict().violations() {
            let i = invariant_index(invariant);
            summary.by_invariant[i] += 1;
            summary.best.push(Best {
                invariant: i as u8,
                kinds: KindCounts::NONE,
                steps: 0,
                choice: END,
            });
        }
        summary.violating = u64::from(!summary.best.is_empty());
        summary
    }

    pub(crate) fn cut(world: &World) -> Summary {
        Summary {
            runs: 1,
            cut_off: 1,
            at_step: world.step_count(),
            ..Summary::default()
        }
    }

    /// Adds a child's runs, one step further down and with `edge`'s fault kind.
    pub(crate) fn absorb(&mut self, child: &Summary, edge: Edge, step: u32) {
        self.runs += child.runs;
        self.violating += child.violating;
        self.cut_off += child.cut_off;
        for (a, b) in self.by_invariant.iter_mut().zip(child.by_invariant) {
            *a += b;
        }
        self.longest = self.longest.max(child.longest + step);
        for b in &child.best {
            let kinds = edge.kind.map_or(b.kinds, |k| b.kinds.with(k));
            let steps = b.steps + step;
            match self
                .best
                .iter_mut()
                .find(|m| m.invariant == b.invariant && m.kinds == kinds)
            {
                Some(m) if steps < m.steps => {
                    m.steps = steps;
                    m.choice = edge.choice;
                }
                Some(_) => {}
                None => self.best.push(Best {
                    invariant: b.invariant,
                    kinds,
                    steps,
                    choice: edge.choice,
                }),
            }
        }
    }

    /// Adds a straight run one step further down, with `edge`'s fault kind.
    pub(super) fn absorb_straight(&mut self, run: &Straight, edge: Edge) {
        self.runs += 1;
        self.cut_off += u64::from(run.cut);
        self.violating += u64::from(run.broken != 0);
        self.longest = self.longest.max(run.steps + 1);
        let kinds = edge.kind.map_or(KindCounts::NONE, KindCounts::one);
        for i in 0..Invariant::ALL.len() {
            if run.broken & (1 << i) == 0 {
                continue;
            }
            self.by_invariant[i] += 1;
            let steps = run.steps + 1;
            match self
                .best
                .iter_mut()
                .find(|m| usize::from(m.invariant) == i && m.kinds == kinds)
            {
                Some(m) if steps < m.steps => {
                    m.steps = steps;
                    m.choice = edge.choice;
                }
                Some(_) => {}
                None => self.best.push(Best {
                    invariant: i as u8,
                    kinds,
                    steps,
                    choice: edge.choice,
                }),
            }
        }
    }

    /// Whether this summary is what the node would give at step count `at_step`: always when
    /// no run below was cut off and the longest still fits under the bound.
    pub(super) fn valid_at(&self, at_step: u32, max_steps: u32) -> bool {
        at_step == self.at_step
            || (self.cut_off == 0 && at_step.saturating_add(self.longest) <= max_steps)
    }
}

pub(super) fn invariant_index(invariant: Invariant) -> usize {
    Invariant::ALL
        .iter()
        .position(|i| *i == invariant)
        .unwrap_or(0)
}
