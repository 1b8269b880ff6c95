//! The one sentence of *why* after an answer (a prediction or a quiz question), and what a
//! real app does after a 412. A student who guessed wrong learns more from the reason than
//! from the right answer, and a right guess may have been luck; so both get the same sentence.
//!
//! The reason is read from the run itself, never written per question: the core's narration
//! notes say which mechanism decided the ending (the store replayed a stored answer, a claim
//! answered 409, the conditional UPDATE matched 0 rows, like_ops already held the op_id, a
//! key had expired…), and its figures give the numbers. A run the student changed with their
//! own faults gets the reason of *that* run.

use idem_core::{Figures, Note, Outcome, Story, World};

use crate::i18n::Catalog;

/// What decided a run's ending, as far as one sentence can tell it. Read from the notes and
/// the figures by [`reason`]; each variant has its own catalog key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Another user's request found this user's stored answer (keys not scoped by user).
    Leak,
    /// The same user reused a key for another payment, and no fingerprint told the bodies
    /// apart: the stored answer of the first payment was replayed to the second.
    Reused {
        /// The first payment's amount, in cents.
        first: u64,
        /// The second payment's amount (the one that never happened), in cents.
        second: u64,
    },
    /// Another user sent the same key, and the keys are scoped by user: no match.
    Scoped,
    /// A request without a key was refused with 400 before anything was charged.
    MissingKey,
    /// Nothing reached the card processor.
    NothingCharged,
    /// The stored key had expired when the retry came, so the retry looked new.
    Expired {
        /// Charges.
        times: usize,
    },
    /// Redis had evicted the stored key, so the retry looked new.
    Evicted {
        /// Charges.
        times: usize,
    },
    /// The API only looked the key up (no claim), so two copies both found nothing.
    LookupOnly {
        /// Charges.
        times: usize,
    },
    /// The retry carried no key, so nothing told it from a new payment.
    NoKey {
        /// Charges.
        times: usize,
    },
    /// Some other way past the protections: every attempt charged.
    Repeated {
        /// Charges.
        times: usize,
    },
    /// The retry carried the same key, and the store replayed the stored answer.
    Replayed {
        /// The stored status.
        status: u16,
    },
    /// Copies arrived while the key was claimed: 409, they never reached the processor.
    InProgress {
        /// Requests the phone sent for the operation (every attempt and copy).
        requests: u32,
        /// How many of them got 409.
        refused: usize,
    },
    /// A handler lost its key while it stalled; the retry took the key over with a newer
    /// fencing token, and the stalled handler's late call with its older token was refused.
    Fenced,
    /// The forwarded key let the processor recognise the repeat.
    ProcessorDeduplicated,
    /// Every answer arrived: there was no retry to repeat anything.
    NoRetry,
    /// The retry was recognised as the same operation (some other way).
    Recognised,
    /// The debit had no version check: the retry subtracted again.
    BlindDebit {
        /// Opening balance.
        from: i64,
        /// Balance now.
        to: i64,
    },
    /// The update matched 0 rows, but account_ops held the op id: 200 with the balance.
    Reconciled {
        /// Balance now.
        balance: i64,
    },
    /// The version had moved on, so the conditional UPDATE matched 0 rows: 412.
    CasRejected {
        /// Version now.
        version: u64,
        /// Balance now.
        balance: i64,
    },
    /// like_ops already held the op_id: the increment was skipped.
    LikeSkipped,
    /// like_ops has no unique index: ON CONFLICT never fired, the like counted again.
    NoUniqueIndex,
    /// The API counts likes without recording an op_id.
    LikesNotDeduplicated,
}

/// Whether any note of the run matches.
fn any(world: &World, f: impl Fn(&Note) -> bool) -> bool {
    world.steps().iter().flat_map(|s| s.notes.iter()).any(f)
}

/// The mechanism that decided how `world` ends (read at its end).
pub fn reason(world: &World) -> Reason {
    let verdict = world.verdict();
    let times = verdict.max_effects();
    let retried = world.client().ops().iter().any(|op| op.attempts > 1);
    let figures = Outcome::of(world).figures;
    match world.scenario().story {
        Story::CompareAndSet => {
            let (from, to, version) = match figures {
                Figures::Balance { from, to, version } => (from, to, version),
                _ => (0, 0, 0),
            };
            if times > 1 && any(world, |n| matches!(n, Note::ApiDebits { cas: false })) {
                Reason::BlindDebit { from, to }
            } else if any(world, |n| matches!(n, Note::ApiReconciled)) {
                Reason::Reconciled { balance: to }
            } else if any(world, |n| matches!(n, Note::ApiCasRejected)) {
                Reason::CasRejected {
                    version,
                    balance: to,
                }
            } else if !retried {
                Reason::NoRetry
            } else if times > 1 {
                Reason::BlindDebit { from, to }
            } else {
                Reason::Recognised
            }
        }
        Story::Counter => {
            if any(world, |n| matches!(n, Note::ApiLikeSkipped)) {
                Reason::LikeSkipped
            } else if times > 1 && any(world, |n| matches!(n, Note::ApiLikes { dedup: false })) {
                Reason::LikesNotDeduplicated
            } else if times > 1 && !world.ledger().like_ops_unique {
                Reason::NoUniqueIndex
            } else if !retried {
                Reason::NoRetry
            } else if times > 1 {
                Reason::LikesNotDeduplicated
            } else {
                Reason::Recognised
            }
        }
        Story::NaivePost | Story::IdempotencyKey => payment_reason(world, times, retried),
    }
}

fn payment_reason(world: &World, times: usize, retried: bool) -> Reason {
    if let Some(reason) = foreign_answer(world) {
        return reason;
    }
    if times > 1 {
        return if any(world, |n| matches!(n, Note::KeysExpired { .. })) {
            Reason::Expired { times }
        } else if any(world, |n| matches!(n, Note::KeysEvicted { .. })) {
            Reason::Evicted { times }
        } else if any(world, |n| {
            matches!(
                n,
                Note::ClientSends {
                    with_key: false,
                    ..
                }
            )
        }) {
            Reason::NoKey { times }
        } else if any(world, |n| matches!(n, Note::ApiLooksUpKey)) {
            Reason::LookupOnly { times }
        } else {
            Reason::Repeated { times }
        };
    }
    if times == 0 {
        return if any(world, |n| matches!(n, Note::ApiRejectsMissingKey)) {
            Reason::MissingKey
        } else {
            Reason::NothingCharged
        };
    }
    if any(world, |n| matches!(n, Note::OtherUserSameKey { .. })) {
        return Reason::Scoped;
    }
    let replayed = world
        .steps()
        .iter()
        .flat_map(|s| s.notes.iter())
        .find_map(|n| match n {
            Note::ApiReplays { status } => Some(*status),
            _ => None,
        });
    // What stopped the repeat that reached furthest decides: a late call refused for its old
    // token, the processor recognising a forwarded key, and only then the 409s on the way
    // (#42: `crash-one-tx` and `lease-fencing` were told as "the second got 409").
    let refused = world
        .steps()
        .iter()
        .flat_map(|s| s.notes.iter())
        .filter(|n| matches!(n, Note::ApiKeyInProgress))
        .count();
    if let Some(status) = replayed {
        Reason::Replayed { status }
    } else if any(world, |n| {
        matches!(n, Note::ProcessorFenced | Note::ApiFenced)
    }) {
        Reason::Fenced
    } else if any(world, |n| matches!(n, Note::ProcessorDeduplicated { .. })) {
        Reason::ProcessorDeduplicated
    } else if refused > 0 {
        Reason::InProgress {
            requests: world.client().ops().iter().map(|op| op.attempts).sum(),
            refused,
        }
    } else if !retried {
        Reason::NoRetry
    } else {
        Reason::Recognised
    }
}

/// A success shown for a payment that is not the one asked for: another user's (keys not
/// scoped by user), or the same user's earlier payment under a reused key (no fingerprint).
fn foreign_answer(world: &World) -> Option<Reason> {
    let op = world
        .steps()
        .iter()
        .flat_map(|s| s.notes.iter())
        .find_map(|n| match n {
            Note::ClientGotForeignAnswer { op, .. } => Some(*op),
            _ => None,
        })?;
    let asked = world.client().op(op)?;
    let first = world.client().ops().first()?;
    let cents = |body: &idem_core::http::RequestBody| match body {
        idem_core::http::RequestBody::Charge { amount_cents, .. } => *amount_cents,
        _ => 0,
    };
    // The answer shown is the first operation's stored one: whose it was tells the two apart.
    Some(if first.user == asked.user {
        Reason::Reused {
            first: cents(&first.body),
            second: cents(&asked.body),
        }
    } else {
        Reason::Leak
    })
}

/// The sentence of why for `world`'s ending, in `catalog`'s language; `None` until the panels'
/// texts are here (the reasons live there: the prediction's bundle comes before them and does
/// without the line meanwhile, which keeps them off the first screen's bytes).
pub fn why(world: &World, catalog: &Catalog) -> Option<String> {
    let n = |v: usize| v.to_string();
    match reason(world) {
        Reason::Leak => catalog.panel_text("why.leak"),
        Reason::Reused { first, second } => catalog.panel_fill(
            "why.reused",
            &[
                ("first", crate::labels::usd_in(first, catalog)),
                ("second", crate::labels::usd_in(second, catalog)),
            ],
        ),
        Reason::Scoped => catalog.panel_text("why.scoped"),
        Reason::MissingKey => catalog.panel_text("why.missing_key"),
        Reason::NothingCharged => catalog.panel_text("why.nothing_charged"),
        Reason::Expired { times } => catalog.panel_fill("why.expired", &[("n", n(times))]),
        Reason::Evicted { times } => catalog.panel_fill("why.evicted", &[("n", n(times))]),
        Reason::LookupOnly { times } => catalog.panel_fill("why.lookup_only", &[("n", n(times))]),
        Reason::NoKey { times } => catalog.panel_fill("why.no_key", &[("n", n(times))]),
        Reason::Repeated { times } => catalog.panel_fill("why.repeated", &[("n", n(times))]),
        Reason::Replayed { status } => {
            catalog.panel_fill("why.replayed", &[("status", status.to_string())])
        }
        // "and 1 was refused" read as "the first" (issue 42): one refusal is said in words.
        Reason::InProgress { requests, refused } => {
            let args = [
                ("n", requests.to_string()),
                ("refused", refused.to_string()),
            ];
            if refused == 1 {
                catalog.panel_fill("why.in_progress_one", &args)
            } else {
                catalog.panel_fill("why.in_progress", &args)
            }
        }
        Reason::Fenced => catalog.panel_text("why.fenced"),
        Reason::ProcessorDeduplicated => catalog.panel_text("why.processor_dedup"),
        Reason::NoRetry => catalog.panel_text("why.no_retry"),
        Reason::Recognised => catalog.panel_text("why.recognised"),
        Reason::BlindDebit { from, to } => catalog.panel_fill(
            "why.blind_debit",
            &[("from", from.to_string()), ("to", to.to_string())],
        ),
        Reason::Reconciled { balance } => {
            catalog.panel_fill("why.reconciled", &[("balance", balance.to_string())])
        }
        Reason::CasRejected { version, balance } => catalog.panel_fill(
            "why.cas_rejected",
            &[
                ("version", version.to_string()),
                ("balance", balance.to_string()),
            ],
        ),
        Reason::LikeSkipped => catalog.panel_text("why.like_skipped"),
        Reason::NoUniqueIndex => catalog.panel_text("why.no_unique_index"),
        Reason::LikesNotDeduplicated => catalog.panel_text("why.likes_not_deduplicated"),
    }
}

/// After a 412, what a real app does next, or `None` when no answer was a 412 (or the panels'
/// texts are not here yet). When the
/// operation that got it had retried (its first answer was lost), the change that moved the
/// version may be its own debit, so the app shows the balance the 412 carries; when it was
/// another operation's change, the app re-reads, lets the user confirm and resends with
/// If-Match on the new version.
pub fn after_412(world: &World, catalog: &Catalog) -> Option<String> {
    let op = world
        .steps()
        .iter()
        .flat_map(|s| s.notes.iter())
        .find_map(|n| match n {
            Note::ClientGotAnswer {
                op, status: 412, ..
            } => Some(*op),
            _ => None,
        })?;
    let (balance, version) = match Outcome::of(world).figures {
        Figures::Balance { to, version, .. } => (to, version),
        _ => return None,
    };
    let own = world.client().op(op).is_some_and(|o| o.attempts > 1);
    let args = [
        ("balance", balance.to_string()),
        ("version", version.to_string()),
    ];
    if own {
        catalog.panel_fill("why.next_412_own", &args)
    } else {
        catalog.panel_fill("why.next_412_other", &args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use idem_core::{Action, Scenario};

    /// The reason's words (native builds hold every part of the catalogs).
    fn why(world: &World, catalog: &Catalog) -> String {
        super::why(world, catalog).expect("native builds hold every part")
    }

    fn end(id: &str) -> World {
        let mut world = World::new(&Scenario::by_id(id).expect("scenario"));
        world.run(2_000);
        world
    }

    /// The reason is the run's mechanism, not a string per scenario: the stories and the quiz
    /// runs each get the one that decided them.
    #[test]
    fn each_story_gets_the_mechanism_that_decided_it() {
        assert_eq!(reason(&end("naive")), Reason::NoKey { times: 2 });
        assert_eq!(reason(&end("key")), Reason::Replayed { status: 201 });
        assert_eq!(
            reason(&end("concurrent")),
            Reason::InProgress {
                requests: 2,
                refused: 1
            }
        );
        assert_eq!(reason(&end("ttl")), Reason::Expired { times: 2 });
        assert_eq!(reason(&end("missing-key")), Reason::MissingKey);
        assert_eq!(reason(&end("scope-off")), Reason::Leak);
        assert_eq!(reason(&end("scope")), Reason::Scoped);
        assert_eq!(
            reason(&end("cas")),
            Reason::CasRejected {
                version: 6,
                balance: 80
            }
        );
        assert_eq!(
            reason(&end("cas-naive")),
            Reason::BlindDebit { from: 100, to: 60 }
        );
        assert_eq!(reason(&end("counter")), Reason::LikeSkipped);
        assert_eq!(reason(&end("counter-no-index")), Reason::NoUniqueIndex);
        assert_eq!(reason(&end("counter-naive")), Reason::LikesNotDeduplicated);
    }

    /// The same scenario run differently gets a different reason: the student's own faults
    /// decide, not the scenario's id.
    #[test]
    fn a_changed_run_gets_its_own_reason() {
        let mut world = World::new(&Scenario::by_id("key").expect("scenario"));
        for _ in 0..3 {
            world.step();
        }
        world.apply(Action::LoseNextAck).expect("armed");
        world.run(2_000);
        assert_eq!(reason(&world), Reason::Replayed { status: 201 });
        // A key story with nothing lost: no retry happened at all.
        let mut quiet = Scenario::by_id("key").expect("scenario");
        quiet
            .script
            .retain(|s| !matches!(s.action, Action::LoseNextAck));
        let mut world = World::new(&quiet);
        world.run(2_000);
        assert_eq!(reason(&world), Reason::NoRetry);
    }

    #[test]
    fn the_sentences_carry_the_runs_numbers_in_both_languages() {
        for (lang, replay, version) in [(Lang::En, "201", "6"), (Lang::Ru, "201", "6")] {
            let c = lang.catalog();
            let key = why(&end("key"), c);
            assert!(key.contains(replay), "{lang:?}: {key}");
            let cas = why(&end("cas"), c);
            assert!(
                cas.contains(version) && cas.contains("80"),
                "{lang:?}: {cas}"
            );
            let blind = why(&end("cas-naive"), c);
            assert!(
                blind.contains("100") && blind.contains("60"),
                "{lang:?}: {blind}"
            );
            assert!(!why(&end("ttl"), c).contains('{'));
        }
        assert!(why(&end("key"), Lang::En.catalog()).contains("same key"));
        assert!(why(&end("key"), Lang::Ru.catalog()).contains("тем же ключом"));
    }

    /// After a 412 the page says what the app does next: its own retry shows the balance the
    /// 412 carries; a race with another debit re-reads, confirms and resends with If-Match.
    #[test]
    fn after_a_412_the_app_knows_what_to_do() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            let own = after_412(&end("cas"), c).expect("cas ends in a 412");
            assert_eq!(
                own,
                c.fill(
                    "why.next_412_own",
                    &[("balance", "80".into()), ("version", "6".into())]
                )
            );
            assert!(own.contains("80"), "{own}");
            let other = after_412(&end("cas-race"), c).expect("cas-race has a 412");
            assert!(other.contains("If-Match: 6"), "{lang:?}: {other}");
            assert_ne!(own, other);
            assert_eq!(after_412(&end("cas-naive"), c), None);
            assert_eq!(after_412(&end("key"), c), None);
        }
    }
}
