//! The quiz after the last story: a few runs the student has not played, each asked as "how
//! does it end?". The choices and the right answer come from the prediction's own rules
//! ([`options`], [`outcome`]) applied to the scenario run to its end in the core; only the
//! questions' wording is in the catalogs. Native radio buttons in a fieldset per question, so
//! it works with the keyboard and reads well in a screen reader.

use idem_core::{Scenario, World};

use crate::i18n::Catalog;
use crate::panels::recap::{options, outcome, Choice};
use crate::panels::why::{after_412, why};

/// The scenarios asked about, in order (their question is `quiz.<id>`).
pub const QUESTIONS: [&str; 4] = ["concurrent", "ttl", "cas-naive", "counter-no-index"];

/// One question: its scenario, the choices and the outcome the core ran to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// The scenario id.
    pub id: &'static str,
    /// The choices offered (the right one among them).
    pub choices: Vec<Choice>,
    /// How the run really ends.
    pub answer: Choice,
    /// Why it ends so, from the run (shown after any answer, right or wrong).
    pub why: String,
    /// What a real app does next, when the run ends in a 412.
    pub next: Option<String>,
}

/// The question about scenario `id`, judged by running it in the core.
pub fn question(id: &'static str, catalog: &Catalog) -> Option<Question> {
    let start = World::new(&Scenario::by_id(id).ok()?);
    let mut end = start.clone();
    end.run(2_000);
    Some(Question {
        id,
        choices: options(&start, &end, catalog),
        answer: outcome(&end, catalog),
        why: why(&end, catalog).unwrap_or_default(),
        next: after_412(&end, catalog),
    })
}

/// Every question of the quiz.
pub fn questions(catalog: &Catalog) -> Vec<Question> {
    QUESTIONS
        .iter()
        .filter_map(|id| question(id, catalog))
        .collect()
}

/// The score line: nothing to count before the first answer, then the right ones among those
/// answered, then among all.
pub fn score_text(right: usize, answered: usize, total: usize, catalog: &Catalog) -> String {
    match answered {
        0 => catalog.text("quiz.score_none"),
        n if n < total => catalog.fill(
            "quiz.score_so_far",
            &[("n", right.to_string()), ("answered", n.to_string())],
        ),
        _ => catalog.fill(
            "quiz.score",
            &[("n", right.to_string()), ("total", total.to_string())],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    /// Review finding 10: "0 of 4 right" was shown before any answer.
    #[test]
    fn the_score_counts_only_answers_given() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            let none = score_text(0, 0, 4, c);
            assert!(!none.contains('0'), "{none}");
            assert_eq!(
                score_text(1, 2, 4, c),
                c.fill(
                    "quiz.score_so_far",
                    &[("n", "1".into()), ("answered", "2".into())]
                )
            );
            assert!(score_text(1, 2, 4, c).contains('2'));
            assert!(score_text(3, 4, 4, c).contains('4'));
        }
    }

    /// Every question has its wording in both languages, two or more choices, exactly one of
    /// them the core's outcome; and the quiz is not "always the bad ending".
    #[test]
    fn every_question_has_one_right_choice_from_the_core() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            let list = questions(c);
            assert_eq!(list.len(), QUESTIONS.len());
            for q in &list {
                assert!(
                    c.get(&format!("quiz.{}", q.id)).is_some(),
                    "{lang:?} {}",
                    q.id
                );
                assert!(q.choices.len() >= 2, "{}", q.id);
                let right = q.choices.iter().filter(|ch| **ch == q.answer).count();
                assert_eq!(right, 1, "{}: {:?}", q.id, q.choices);
            }
            let values: Vec<&str> = list.iter().map(|q| q.answer.value.as_str()).collect();
            assert_eq!(values, ["once", "twice", "60", "102"], "{lang:?}");
        }
    }

    /// Issue 42: every answer, right or wrong, comes with a reason read from the run; no two
    /// questions share one (the run decides, not a fixed string), and the reasons differ by
    /// language.
    #[test]
    fn every_question_says_why_from_its_run() {
        let en = questions(Lang::En.catalog());
        let ru = questions(Lang::Ru.catalog());
        for (e, r) in en.iter().zip(&ru) {
            assert!(!e.why.is_empty() && !r.why.is_empty(), "{}", e.id);
            assert_ne!(e.why, r.why, "{}", e.id);
        }
        let mut reasons: Vec<&str> = en.iter().map(|q| q.why.as_str()).collect();
        reasons.dedup();
        assert_eq!(reasons.len(), en.len(), "{reasons:?}");
        let ttl = &en[1];
        assert!(ttl.why.contains("expired"), "{}", ttl.why);
        assert!(ru[1].why.contains("истёк"), "{}", ru[1].why);
        let cas = &en[2];
        assert!(
            cas.why.contains("100") && cas.why.contains("60"),
            "{}",
            cas.why
        );
        assert!(
            en.iter().all(|q| q.next.is_none()),
            "no quiz run ends in a 412"
        );
    }
}
