//! The verdict badge: one headline from the core's invariants ("Charged twice", "Charged
//! once"), as a catalog key and the count it mentions.

use idem_core::http::RequestBody;
use idem_core::{Invariant, Violation};
use idem_core::{OpId, World};

use crate::i18n::Catalog;

/// What the verdict badge says: a catalog key, a number for it, and whether all is well.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Badge {
    /// Catalog key of the headline.
    pub key: &'static str,
    /// The count the headline may mention (`Charged {n} times`).
    pub n: usize,
    /// No invariant is violated.
    pub ok: bool,
}

pub(crate) enum OpKind {
    Charge,
    Debit,
    Like,
}

pub(crate) fn kind_of(world: &World, op: OpId) -> OpKind {
    match world.client().op(op).map(|o| &o.body) {
        Some(RequestBody::Debit { .. }) => OpKind::Debit,
        Some(RequestBody::Like { .. }) => OpKind::Like,
        _ => OpKind::Charge,
    }
}

/// The headline for the world's state, derived from `World::verdict` only.
pub fn badge(world: &World) -> Badge {
    badge_for(world, &world.verdict())
}

/// The headline for the world's state and its verdict (computed once by the caller).
pub fn badge_for(world: &World, verdict: &idem_core::Verdict) -> Badge {
    let bad = |key, n| Badge { key, n, ok: false };
    let violations: Vec<(Invariant, &Violation)> = verdict.violations().collect();
    if violations
        .iter()
        .any(|(i, _)| *i == Invariant::NoCrossUserReplay)
    {
        return bad("verdict.leak", 0);
    }
    if let Some((invariant, violation)) = violations.first() {
        return match (invariant, violation) {
            (_, Violation::Repeated { op, times }) => match (kind_of(world, *op), times) {
                (OpKind::Charge, 2) => bad("verdict.charged_twice", 2),
                (OpKind::Charge, n) => bad("verdict.charged_times", *n),
                (OpKind::Debit, 2) => bad("verdict.debited_twice", 2),
                (OpKind::Debit, n) => bad("verdict.debited_times", *n),
                (OpKind::Like, 2) => bad("verdict.likes_twice", 2),
                (OpKind::Like, n) => bad("verdict.likes_times", *n),
            },
            (Invariant::LikesMatchOperations, _) => bad("verdict.likes_wrong", 0),
            (Invariant::BalanceMatchesDebits, _) => bad("verdict.balance_wrong", 0),
            (Invariant::LedgerMatchesProcessor, _) => bad("verdict.mismatch", 0),
            (_, Violation::FalseFailure { op, .. }) => match kind_of(world, *op) {
                OpKind::Charge => bad("verdict.told_failed", 1),
                OpKind::Debit => bad("verdict.told_failed.debit", 1),
                OpKind::Like => bad("verdict.told_failed.like", 1),
            },
            _ => bad("verdict.false_success", 0),
        };
    }
    let good = |key| Badge {
        key,
        n: 1,
        ok: true,
    };
    let Some(first) = world.client().ops().first() else {
        return good("verdict.so_far");
    };
    if !verdict.quiescent {
        return good("verdict.so_far");
    }
    let all = |n: usize| verdict.effects.iter().all(|(_, e)| *e == n);
    match (kind_of(world, first.op), all(1), all(0)) {
        (OpKind::Charge, true, _) => good("verdict.charged_once"),
        (OpKind::Charge, _, true) => good("verdict.not_charged"),
        // The money is right, but the phone's last answer was a 412 (the retry refused):
        // the headline says both, so a green badge is not read as "all went well" beside a
        // 412 (issue 42, stop 52: the app has to ask the user).
        (OpKind::Debit, true, _) if got_412(world) => good("verdict.debited_once_412"),
        (OpKind::Debit, true, _) => good("verdict.debited_once"),
        (OpKind::Debit, _, true) => good("verdict.not_debited"),
        (OpKind::Like, true, _) => good("verdict.liked_once"),
        (OpKind::Like, _, true) => good("verdict.not_liked"),
        _ => good("verdict.at_most_once"),
    }
}

/// Whether an operation of the phone's ended on a 412 (its If-Match no longer matched).
fn got_412(world: &World) -> bool {
    world
        .client()
        .ops()
        .iter()
        .any(|o| matches!(&o.view, idem_core::client::UserView::Failed(r) if r.status == 412))
}

/// The badge as a sentence.
pub fn badge_text(badge: &Badge, catalog: &Catalog) -> String {
    catalog.fill(badge.key, &[("n", badge.n.to_string())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::test_support::end;
    use idem_core::{Scenario, World};

    /// Each broken rule has its own headline, and a quiet run in which nothing took effect
    /// says so for debits and likes too: verdicts built from a real run's, with one rule's
    /// status or the effects set by hand (no scripted run breaks these rules first).
    #[test]
    fn each_broken_rule_and_each_nothing_done_has_its_headline() {
        use idem_core::Status;
        let broken = |id: &str, invariant: Invariant, violation: Violation| {
            let world = end(id);
            let mut verdict = world.verdict();
            verdict.checks = vec![(invariant, Status::Violated(violation))];
            badge_for(&world, &verdict).key
        };
        let off = Violation::WrongTotal {
            expected: 1,
            actual: 2,
        };
        assert_eq!(
            broken("counter", Invariant::LikesMatchOperations, off.clone()),
            "verdict.likes_wrong"
        );
        assert_eq!(
            broken("cas", Invariant::BalanceMatchesDebits, off),
            "verdict.balance_wrong"
        );
        let mismatch = Violation::Mismatch {
            unrecorded: vec!["pay_abc".to_owned()],
            phantom: vec![],
        };
        assert_eq!(
            broken("key", Invariant::LedgerMatchesProcessor, mismatch),
            "verdict.mismatch"
        );
        let nothing = |id: &str| {
            let world = end(id);
            let mut verdict = world.verdict();
            assert!(verdict.ok() && verdict.quiescent, "{id}");
            for (_, effects) in &mut verdict.effects {
                *effects = 0;
            }
            badge_for(&world, &verdict).key
        };
        assert_eq!(nothing("cas"), "verdict.not_debited");
        // A debit that went through at once, with no 412 on the phone, is plainly green.
        let mut quiet = World::new(
            &Scenario::by_id("cas")
                .expect("cas")
                .without_scripted_faults(),
        );
        quiet.run(1_000);
        assert_eq!(badge(&quiet).key, "verdict.debited_once");
        assert_eq!(nothing("counter"), "verdict.not_liked");
        assert_eq!(nothing("key"), "verdict.not_charged");
    }

    #[test]
    fn badges_follow_the_core_verdict() {
        let cases = [
            ("naive", "verdict.charged_twice", false),
            ("key", "verdict.charged_once", true),
            ("cas", "verdict.debited_once_412", true),
            ("cas-naive", "verdict.debited_twice", false),
            ("counter-naive", "verdict.likes_twice", false),
            ("counter", "verdict.liked_once", true),
            ("scope-off", "verdict.leak", false),
            ("missing-key", "verdict.not_charged", true),
        ];
        for (id, key, ok) in cases {
            let b = badge(&end(id));
            assert_eq!((b.key, b.ok), (key, ok), "{id}");
        }
        let start = World::new(&Scenario::by_id("naive").expect("naive"));
        assert_eq!(badge(&start).key, "verdict.so_far");
        let catalog = Lang::En.catalog();
        assert_eq!(badge_text(&badge(&end("naive")), catalog), "Charged twice");
        assert_eq!(
            badge_text(&badge(&end("key")), catalog),
            "Charged exactly once"
        );
        // Story 3: the money is right, and the badge says the retry got 412 and the app asks
        // the user (a bare green "Debited exactly once" beside a 412 confused, stop 52).
        for (lang, ask) in [
            (Lang::En, "ask the user"),
            (Lang::Ru, "спросите пользователя"),
        ] {
            let text = badge_text(&badge(&end("cas")), lang.catalog());
            assert!(text.contains("412") && text.contains(ask), "{text}");
        }
        // A like counted twice says so, not a count that disagrees with the badge.
        assert_eq!(
            badge_text(&badge(&end("counter-naive")), catalog),
            "Like counted twice"
        );
        assert_eq!(
            badge_text(&badge(&end("counter-naive")), Lang::Ru.catalog()),
            "Лайк засчитан дважды"
        );
    }
}
