//! What happened in a run, as facts: the faults that took effect, each operation's attempts
//! and final answer, the money, rows and counters, and the verdict's broken invariants. The
//! page composes its closing sentences ("What you just saw", the replay intro) from these
//! facts, never from the scenario's script, so no sentence can contradict the run. No text
//! here: the words live in the page's catalogs.
//!
//! [`closing_protections`] answers "which protection would have prevented this?" by replaying
//! the same faults, by what they mean, with one more protection switched on (then two).

use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::client::{Told, UserView};
use crate::http::{RequestBody, ResponseBody};
use crate::phase::Phase;
use crate::placed::PlacedFault;
use crate::protections::{Protection, Protections};
use crate::scenario::Scenario;
use crate::topology::{OpId, UserId};
use crate::verdict::Invariant;
use crate::world::World;

/// A fault that took effect (not merely armed): something the run actually suffered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Fault {
    /// An answer was lost on the mobile network ("lose the next ack").
    AnswerLost,
    /// A packet was dropped in flight.
    Dropped,
    /// The network delivered a packet twice.
    Duplicated,
    /// A packet was held up.
    Delayed,
    /// The API crashed before this phase.
    Crashed(Phase),
    /// A handler stalled before this phase (a long GC pause, a slow call), then carried on.
    Paused(Phase),
    /// Redis lost keys (eviction).
    Evicted,
    /// Stored keys reached their TTL while still needed.
    Expired,
    /// The phone was offline while the servers' clock ran on.
    Offline,
    /// The user pressed Retry early.
    RetryPressed,
    /// A second request for the same operation was sent at once (double tap).
    SecondRequest,
    /// A new operation reused an earlier operation's key.
    KeyReused,
    /// Another user sent a request with the same key.
    OtherUser,
}

/// How an operation ended for its user.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ending {
    /// Still waiting (the run is not over, or nobody answers).
    Waiting,
    /// A success screen: status, whether replayed, and whether it is about another payment
    /// (another user's, or another request's made with the same key).
    Success {
        /// HTTP status.
        status: u16,
        /// Answered from the stored response.
        replayed: bool,
        /// The answer belongs to another user or another request.
        foreign: bool,
    },
    /// An error screen with this status.
    Error {
        /// HTTP status.
        status: u16,
    },
    /// The client gave up.
    GaveUp,
}

/// One logical operation as it went.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OpOutcome {
    /// The operation.
    pub op: OpId,
    /// Its user.
    pub user: UserId,
    /// Attempts the client sent (1 = no retry).
    pub attempts: u32,
    /// Effects it had (card charges, debits or likes).
    pub effects: usize,
    /// What the user was left with.
    pub ending: Ending,
    /// What that screen tells the user (the one definition the verdict checks).
    pub told: Told,
}

/// The figures of a run's story.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Figures {
    /// Payments: processor charges per user (user, count, cents) and the ledger's rows.
    Charges {
        /// Per user with at least one charge: (user, charges, cents), by user.
        per_user: Vec<(UserId, usize, u64)>,
        /// Rows in `charges`.
        ledger_rows: usize,
        /// Sum of `charges.amount`.
        ledger_cents: u64,
    },
    /// Compare-and-set: the balance and version before and after.
    Balance {
        /// Opening balance.
        from: i64,
        /// Balance now.
        to: i64,
        /// Version now.
        version: u64,
    },
    /// The counter: likes before and after.
    Likes {
        /// Opening likes.
        from: i64,
        /// Likes now.
        to: i64,
    },
}

/// Everything the closing sentences of a run may say.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// Faults that took effect, in the order they did (repeats kept: two lost answers are two),
    /// as [`Outcome::placed`] records them, with the keys that expired.
    pub faults: Vec<Fault>,
    /// Every fault placed on the run, by whom, and where it took effect or that it found
    /// nothing to hit.
    pub placed: Vec<PlacedFault>,
    /// The logical operations, in start order.
    pub ops: Vec<OpOutcome>,
    /// The story's figures.
    pub figures: Figures,
    /// Broken invariants, in display order.
    pub broken: Vec<Invariant>,
    /// Whether the run is over.
    pub quiescent: bool,
}

impl Outcome {
    /// The facts of `world` as it stands (its step log must be kept, as the page does).
    pub fn of(world: &World) -> Outcome {
        let (placed, faults) = crate::placed::record(world);
        let verdict = world.verdict();
        let effects = |op: OpId| {
            verdict
                .effects
                .iter()
                .find(|(o, _)| *o == op)
                .map_or(0, |(_, n)| *n)
        };
        let ops = world
            .client()
            .ops()
            .iter()
            .map(|o| {
                let ending = match &o.view {
                    UserView::Waiting => Ending::Waiting,
                    UserView::GaveUp => Ending::GaveUp,
                    UserView::Failed(r) => Ending::Error { status: r.status },
                    UserView::Succeeded(r) => Ending::Success {
                        status: r.status,
                        replayed: r.replayed,
                        foreign: foreign(&r.body, o.user, &o.body),
                    },
                };
                OpOutcome {
                    op: o.op,
                    user: o.user,
                    attempts: o.attempts,
                    effects: effects(o.op),
                    ending,
                    told: o.view.told(),
                }
            })
            .collect();
        let ledger = world.ledger();
        let figures = match world.client().ops().first().map(|o| &o.body) {
            Some(RequestBody::Debit { .. }) => Figures::Balance {
                from: world.scenario().balance,
                to: ledger.accounts.first().map_or(0, |a| a.balance),
                version: ledger.accounts.first().map_or(0, |a| a.version),
            },
            Some(RequestBody::Like { .. }) => Figures::Likes {
                from: world.scenario().likes,
                to: ledger.posts.first().map_or(0, |p| p.likes),
            },
            _ => {
                let mut per_user: Vec<(UserId, usize, u64)> = Vec::new();
                for line in &world.processor().statement {
                    // Kept in user order by insertion (no sort: its code would weigh on the page's
                    // wasm for a list of one or two users).
                    let at = per_user.partition_point(|(u, _, _)| *u < line.user);
                    match per_user.get_mut(at).filter(|(u, _, _)| *u == line.user) {
                        Some((_, n, cents)) => {
                            *n += 1;
                            *cents += line.amount_cents;
                        }
                        None => per_user.insert(at, (line.user, 1, line.amount_cents)),
                    }
                }
                Figures::Charges {
                    per_user,
                    ledger_rows: ledger.charges.len(),
                    ledger_cents: ledger.charges.iter().map(|c| c.amount_cents).sum(),
                }
            }
        };
        Outcome {
            faults,
            placed,
            ops,
            figures,
            broken: verdict.violations().map(|(i, _)| i).collect(),
            quiescent: verdict.quiescent,
        }
    }

    /// No invariant is broken.
    pub fn ok(&self) -> bool {
        self.broken.is_empty()
    }
}

/// Whether a success screen shows a payment other than the one asked for: another user's,
/// or one of another amount (the answer to an earlier request made with the same key). The
/// client judges the same way when it narrates.
fn foreign(response: &ResponseBody, user: UserId, asked: &RequestBody) -> bool {
    match (response, asked) {
        (
            ResponseBody::Charged {
                customer,
                amount_cents,
                ..
            },
            RequestBody::Charge {
                amount_cents: asked,
                ..
            },
        ) => *customer != user || amount_cents != asked,
        _ => false,
    }
}

/// The ways to close a run: each alternative is a set of protections (by URL name) that,
/// switched on in addition to those of `scenario`, make the same run — the scenario with the
/// same faults — quiet with no invariant broken. Every single protection that suffices (in the
/// order of [`Protections::NAMES`]); if none does, the first pair that does; empty when nothing
/// does.
///
/// "The same faults" are the `injected` actions by what they mean, not by their step counts
/// and packet ids, which depend on the protections (with the key on, the API talks to the
/// store first, so the lost answer is another packet at another step): see the crate's
/// `meaning` module. A run in which a fault cannot happen (its packet is never sent, or it is
/// refused at its moment) does not count as closed; a Retry press with nothing to retry (the
/// operation is over, or the client gave up) does nothing.
pub fn closing_protections(
    scenario: &Scenario,
    injected: &[(u32, Action)],
) -> Vec<Vec<&'static str>> {
    let Some(planned) = crate::meaning::describe(scenario, injected) else {
        return Vec::new();
    };
    let passes = |p: Protections| {
        let s = scenario.clone().with_protections(p);
        let Some(mut world) = crate::meaning::replay(&s, &planned) else {
            return false;
        };
        world.run(crate::meaning::MAX_STEPS as usize);
        world.is_quiescent() && world.verdict().ok()
    };
    let base = scenario.protections;
    let off: Vec<Protection> = Protection::ALL
        .into_iter()
        .filter(|p| !base.is_on(*p))
        .collect();
    let mut singles = Vec::new();
    for a in &off {
        let mut p = base;
        p.set_on(*a, true);
        if passes(p) {
            singles.push(vec![a.name()]);
        }
    }
    if !singles.is_empty() {
        return singles;
    }
    for (i, a) in off.iter().enumerate() {
        for b in &off[i + 1..] {
            let mut p = base;
            p.set_on(*a, true);
            p.set_on(*b, true);
            if passes(p) {
                return vec![vec![a.name(), b.name()]];
            }
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::message::Payload;
    use crate::topology::MsgId;

    fn end(id: &str) -> World {
        let mut w = World::new(&Scenario::by_id(id).expect("scenario"));
        w.run(5_000);
        w
    }

    #[test]
    fn the_naive_run_lost_one_answer_and_charged_twice() {
        let o = Outcome::of(&end("naive"));
        assert_eq!(o.faults, vec![Fault::AnswerLost]);
        assert_eq!(o.ops.len(), 1);
        assert_eq!(o.ops[0].attempts, 2);
        assert_eq!(o.ops[0].effects, 2);
        assert!(!o.ok());
        assert!(o.broken.contains(&Invariant::AtMostOnce));
        match o.figures {
            Figures::Charges {
                ref per_user,
                ledger_rows,
                ..
            } => {
                assert_eq!(per_user, &vec![(UserId(1), 2, 20_000)]);
                assert_eq!(ledger_rows, 2);
            }
            ref other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_scope_run_charges_each_user_once() {
        let o = Outcome::of(&end("scope"));
        assert!(o.ok(), "{o:?}");
        assert!(o.faults.contains(&Fault::OtherUser));
        let Figures::Charges { per_user, .. } = o.figures else {
            panic!("charges")
        };
        assert_eq!(
            per_user,
            vec![(UserId(1), 1, 10_000), (UserId(2), 1, 10_000)]
        );
    }

    #[test]
    fn a_reused_key_without_fingerprint_is_the_same_user_s_earlier_payment() {
        let o = Outcome::of(&end("key-reuse-no-fingerprint"));
        let second = &o.ops[1];
        assert_eq!(second.user, o.ops[0].user);
        assert!(matches!(
            second.ending,
            Ending::Success { foreign: true, .. }
        ));
        assert_eq!(second.effects, 0);
    }

    #[test]
    fn a_crash_before_the_ledger_breaks_the_key_story_and_forwarding_closes_it() {
        let s = Scenario::by_id("key").expect("key");
        let injected = vec![(0, Action::Crash(Phase::WriteLedger))];
        let mut w = World::replay(&s, &injected, 1).expect("replay");
        w.run(5_000);
        let o = Outcome::of(&w);
        assert!(
            o.faults.contains(&Fault::Crashed(Phase::WriteLedger)),
            "{o:?}"
        );
        assert!(!o.ok(), "{o:?}");
        let fixes = closing_protections(&s, &injected);
        assert!(fixes.contains(&vec!["forward"]), "{fixes:?}");
    }

    #[test]
    fn the_naive_story_is_closed_by_the_key() {
        let s = Scenario::by_id("naive").expect("naive");
        let ok = Scenario::by_id("key").expect("key");
        // closing_protections replays up to 5 000 steps per protection tried: a run that no
        // longer settles fails here at once instead of grinding through all of them.
        for scenario in [&s, &ok] {
            let mut world = World::new(scenario);
            assert_eq!(world.run(200), crate::RunEnd::Quiescent, "{}", scenario.id);
        }
        assert!(closing_protections(&s, &[]).contains(&vec!["key"]));
        // Nothing to close: every protection "passes", so exactly those that are off are
        // listed, one by one, in the switches' order.
        let off: Vec<Vec<&str>> = Protections::NAMES
            .into_iter()
            .filter(|p| ok.protections.get(p) == Some(false))
            .map(|p| vec![p])
            .collect();
        assert!(off.len() >= 5, "{off:?}");
        assert_eq!(closing_protections(&ok, &[]), off);
    }

    /// The answers for the seed stories that break, written down from what each protection
    /// is for (not computed by the replay under test): the key closes the naive POST; the
    /// op_id needs its unique index; a version closes the blind debit; the fingerprint closes a
    /// reused key; the lock or the processor's own dedup closes a concurrent copy; only the
    /// client's deadline with the outcome check closes a retry after the key's 24 h (the
    /// processor forgets the key at 24 h too); the key in PostgreSQL's transaction or forwarding closes an eviction and the
    /// crash window; with the key already in the transaction, only forwarding closes a crash
    /// before the ledger write.
    #[test]
    fn the_seed_stories_that_break_are_closed_by_the_switches_they_teach() {
        let table: [(&str, &[&[&str]]); 12] = [
            ("naive", &[&["key"]]),
            ("counter-naive", &[&["op-id", "unique-index"]]),
            ("cas-naive", &[&["cas"]]),
            ("counter-no-index", &[&["unique-index"]]),
            ("key-reuse-no-fingerprint", &[&["fingerprint"]]),
            ("concurrent-no-lock", &[&["lock"], &["forward"]]),
            // The deadline alone leaves the user told "we couldn't confirm" for a payment that
            // went through (`UserToldTheTruth`); with the outcome check they are told.
            ("ttl", &[&["deadline", "status-check"]]),
            ("scope-off", &[&["scope"]]),
            ("evict", &[&["same-tx"], &["forward"]]),
            ("crash-window", &[&["same-tx"], &["forward"]]),
            ("crash-no-forward", &[&["forward"]]),
            // A slow holder past its lease: the processor's own dedup, or fencing its call.
            ("lease-expiry", &[&["forward"], &["fencing"]]),
        ];
        // The table holds exactly the seed stories that break, in the scenarios' order.
        let broken: Vec<&str> = crate::scenario::IDS
            .into_iter()
            .filter(|id| !end(id).verdict().ok())
            .collect();
        assert_eq!(broken, table.map(|(id, _)| id));
        for (id, expected) in table {
            let s = Scenario::by_id(id).expect("scenario");
            let expected: Vec<Vec<&str>> = expected.iter().map(|alt| alt.to_vec()).collect();
            assert_eq!(closing_protections(&s, &[]), expected, "{id}");
        }
    }

    /// The run of `scenario` with `injected`, kept with its history (every packet stays
    /// readable), played to its end.
    fn played(scenario: &Scenario, injected: &[(u32, Action)]) -> World {
        let last = injected.iter().map(|(at, _)| *at).max().unwrap_or(0);
        let mut world = World::replay(scenario, injected, last + 1).expect("replays");
        world.run(5_000);
        world
    }

    /// A packet as the page would tell it, read from its contents: (towards the API, the
    /// operation, the attempt of the request it is or answers, a network copy).
    fn packet_words(world: &World, id: MsgId) -> (bool, OpId, u32, bool) {
        let net = world.network();
        let m = net.get(id).expect("kept with history");
        let request = |id: MsgId| match &net.get(id).expect("request").payload {
            Payload::Request(r) => r.attempt,
            other => panic!("{other:?}"),
        };
        match &m.payload {
            Payload::Request(r) => (true, r.op, r.attempt, m.duplicate_of.is_some()),
            Payload::Response(r) => (
                false,
                r.op,
                request(r.in_reply_to),
                m.duplicate_of.is_some(),
            ),
            other => panic!("not on the phone's link: {other:?}"),
        }
    }

    /// The explorer's counter-examples (k = 2) on the scenario `id` without its scripted faults.
    fn counterexamples(id: &str) -> (Scenario, Vec<crate::CounterExample>) {
        let base = Scenario::by_id(id)
            .expect("known")
            .without_scripted_faults();
        let report = crate::Explorer::new(&base, crate::Bounds::faults(2))
            .run_to_end()
            .clone();
        (base, report.shortest)
    }

    #[test]
    fn a_lost_201_of_the_naive_story_is_closed_by_the_key() {
        // The deep link `?scenario=naive&base=1&faults=6.drop.5`: packet #5 is the API's 201
        // to the phone; with the key on, the API asks the store first and that answer is
        // another packet at another step. The key closes it, as story 2 shows.
        let (base, shortest) = counterexamples("naive");
        let link = crate::DeepLink::parse("scenario=naive&base=1&faults=6.drop.5").expect("link");
        assert!(link.base);
        let injected = link.faults;
        assert_eq!(injected, vec![(6, Action::Drop(MsgId(5)))]);
        let world = played(&base, &injected);
        let lost = world.network().get(MsgId(5)).expect("sent");
        assert!(
            matches!(&lost.payload, Payload::Response(r) if r.status == 201),
            "{lost:?}"
        );
        assert!(!world.verdict().ok());
        let fixes = closing_protections(&base, &injected);
        assert!(fixes.contains(&vec!["key"]), "{fixes:?}");
        // The lesson's switch for story 2 is the key: its scenario turns it on.
        let story2 = Scenario::by_id("key").expect("key").protections;
        assert_eq!(story2.get("key"), Some(true));
        // The explorer's own counter-example that drops the 201 says the same.
        let cx = shortest
            .iter()
            .find(|cx| {
                let world = played(&base, &cx.injected);
                matches!(cx.injected[..], [(_, Action::Drop(id))]
                    if matches!(&world.network().get(id).expect("sent").payload,
                        Payload::Response(r) if r.status == 201))
            })
            .expect("the explorer finds the lost 201");
        let fixes = closing_protections(&base, &cx.injected);
        assert!(fixes.contains(&vec!["key"]), "{fixes:?}");
        // A client deadline of an hour does not stop a retry made seconds later.
        assert!(!fixes.iter().any(|f| f.contains(&"deadline")), "{fixes:?}");
    }

    #[test]
    fn a_retry_the_deadline_takes_away_is_not_closed_by_the_deadline_alone() {
        // The phone sleeps past the key's TTL and the user presses Retry on waking: with the
        // client's one-hour deadline there is no Retry to press, but the client gives up with
        // "we couldn't confirm" on a payment that went through, which breaks
        // `UserToldTheTruth` (issue 41): the deadline alone is not credited.
        let (base, shortest) = counterexamples("naive");
        let cx = shortest
            .iter()
            .find(|cx| cx.signature() == ["clock", "retry"])
            .expect("found");
        let fixes = closing_protections(&base, &cx.injected);
        assert!(!fixes.contains(&vec!["deadline"]), "{fixes:?}");
    }

    /// The run of `base` with `protections` on too and the faults `planned` replayed by
    /// meaning, played to its end and checked apart from the replay's own bookkeeping: it
    /// suffered the same faults as `original`, packet for packet as the page names them.
    /// `None` when the faults cannot happen there.
    fn same_faults_with(
        base: &Scenario,
        on: &[&str],
        planned: &[crate::meaning::Planned],
        original: &World,
    ) -> Option<World> {
        let mut p = base.protections;
        for n in on {
            p.set(n, true);
        }
        let other = base.clone().with_protections(p);
        let (replayed, in_vain) = crate::meaning::replay_noting(&other, planned)?;
        let again = played(&other, replayed.injected());
        // Only Retry presses may find nothing to do; they are left out of the other run.
        let kept: Vec<&(u32, Action)> = original
            .injected()
            .iter()
            .enumerate()
            .filter(|(i, (_, a))| {
                let vain = in_vain >> i & 1 == 1;
                assert!(!vain || *a == Action::RetryNow, "{a:?}");
                !vain
            })
            .map(|(_, a)| a)
            .collect();
        assert_eq!(again.injected().len(), kept.len());
        for ((_, a), (_, b)) in kept.into_iter().zip(again.injected()) {
            assert_eq!(a.kind_name(), b.kind_name(), "{on:?}");
            match (a, b) {
                (
                    Action::Drop(x) | Action::Duplicate(x) | Action::Delay(x, _),
                    Action::Drop(y) | Action::Duplicate(y) | Action::Delay(y, _),
                ) => assert_eq!(
                    packet_words(original, *x),
                    packet_words(&again, *y),
                    "{on:?}: {:?}",
                    original.injected()
                ),
                _ => assert_eq!(a, b, "{on:?}"),
            }
        }
        Some(again)
    }

    #[test]
    fn every_closing_answer_of_the_explorer_replays_the_same_faults_and_holds() {
        let (mut singles, mut pairs) = (0, 0);
        for id in crate::scenario::IDS {
            let (base, shortest) = counterexamples(id);
            for cx in &shortest {
                let original = played(&base, &cx.injected);
                assert!(!original.verdict().ok(), "{id}: {cx:?}");
                let fixes = closing_protections(&base, &cx.injected);
                let planned = crate::meaning::describe(&base, &cx.injected).expect("replays");
                let holds = |on: &[&str]| {
                    same_faults_with(&base, on, &planned, &original)
                        .is_some_and(|w| w.is_quiescent() && w.verdict().ok())
                };
                let holding: Vec<Vec<&str>> = Protections::NAMES
                    .into_iter()
                    .filter(|p| base.protections.get(p) == Some(false))
                    .filter(|p| holds(&[p]))
                    .map(|p| vec![p])
                    .collect();
                if holding.is_empty() {
                    assert!(fixes.len() <= 1, "{id}: {cx:?} {fixes:?}");
                    for pair in &fixes {
                        assert_eq!(pair.len(), 2, "{id}: {cx:?} {fixes:?}");
                        assert!(holds(pair), "{id}: {cx:?} {fixes:?}");
                        pairs += 1;
                    }
                } else {
                    // Exactly the single switches under which the same faults do no harm.
                    assert_eq!(fixes, holding, "{id}: {cx:?}");
                    singles += 1;
                }
            }
        }
        assert!(singles > 0 && pairs > 0, "{singles} {pairs}");
    }
}
