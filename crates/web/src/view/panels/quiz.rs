//! The quiz after the last story: a few runs the student has not played, each asked as "how
//! does it end?". The choices and the right answer come from the prediction's own rules
//! ([`options`], [`outcome`]) applied to the scenario run to its end in the core; only the
//! questions' wording is in the catalogs. Native radio buttons in a fieldset per question, so
//! it works with the keyboard and reads well in a screen reader.

use leptos::prelude::*;

use crate::platform::lab::{use_lab, use_prefs};
use crate::platform::stream::Noter;
use idem_lesson::panels::quiz::{questions, score_text, Question};
use idem_lesson::stream::Act;

/// The quiz: one fieldset per question; choosing an answer shows at once whether it is right
/// (in a live region), and the score counts the right ones.
#[component]
pub fn Quiz() -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    // Each answer is an `idem:action` of kind `quiz`.
    let noter = Noter::here();
    let catalog = prefs.lang.get_untracked().catalog();
    let list = questions(catalog);
    let total = list.len();
    let picked: Vec<RwSignal<Option<bool>>> = list.iter().map(|_| RwSignal::new(None)).collect();
    let score = Memo::new({
        let picked = picked.clone();
        move |_| picked.iter().filter(|p| p.get() == Some(true)).count()
    });
    let answered = Memo::new({
        let picked = picked.clone();
        move |_| picked.iter().filter(|p| p.get().is_some()).count()
    });
    let items = list
        .into_iter()
        .zip(picked.iter().copied())
        .enumerate()
        .map(|(i, (q, picked))| {
            let Question {
                id,
                choices,
                answer,
                why,
                next,
            } = q;
            let name = format!("quiz-{id}");
            let right_value = answer.value.clone();
            let buttons = choices
                .into_iter()
                .map(|c| {
                    let right = c.value == right_value;
                    let act = Act::Quiz {
                        question: id.to_owned(),
                        answer: c.value.clone(),
                        correct: right,
                    };
                    view! {
                        <label class="quiz-choice">
                            <input
                                type="radio"
                                name=name.clone()
                                value=c.value.clone()
                                data-testid="quiz-option"
                                on:change=move |_| {
                                    picked.set(Some(right));
                                    noter.note(act.clone());
                                }
                            />
                            <span>{c.label}</span>
                        </label>
                    }
                })
                .collect_view();
            let answer_label = answer.label.clone();
            let result = move || {
                picked.get().map(|right| {
                    let text = if right {
                        catalog.fill("quiz.right", &[("answer", answer_label.clone())])
                    } else {
                        catalog.fill("quiz.wrong", &[("answer", answer_label.clone())])
                    };
                    let class = if right { "right" } else { "wrong" };
                    // A wrong answer offers the run itself, played in the player above.
                    let open = (!right).then(|| {
                        view! {
                            " "
                            <button
                                type="button"
                                class="link-button"
                                data-testid="quiz-open"
                                on:click=move |_| {
                                    lab.switch(id);
                                    crate::platform::browser::reveal(idem_lesson::anchors::PLAYER_ANCHOR);
                                }
                            >
                                {catalog.text("quiz.open")}
                            </button>
                        }
                    });
                    // Right or wrong, the reason from the run (and after a 412, what an app does).
                    let because = match &next {
                        Some(next) => format!("{why} {next}"),
                        None => why.clone(),
                    };
                    view! {
                        <span class=format!("predict-result {class}") data-correct=right.to_string()>
                            {text}
                        </span>
                        " "
                        <span class="quiz-why" data-testid="quiz-why">{because}</span>
                        {open}
                    }
                })
            };
            view! {
                <fieldset class="quiz-question" data-testid="quiz-q" data-scenario=id>
                    <legend>
                        {format!("{}. ", i + 1)}
                        {catalog.text(&format!("quiz.{id}"))}
                    </legend>
                    <div class="quiz-choices">{buttons}</div>
                    <p class="quiz-result" data-testid="quiz-result" aria-live="polite">{result}</p>
                </fieldset>
            }
        })
        .collect_view();
    view! {
        <section class="quiz" data-testid="quiz" aria-labelledby="quiz-title">
            <h2 id="quiz-title">{catalog.text("quiz.title")}</h2>
            <p>{catalog.text("quiz.lede")}</p>
            {items}
            <p class="quiz-score" data-testid="quiz-score" data-right=move || score.get().to_string()>
                {move || score_text(score.get(), answered.get(), total, catalog)}
            </p>
        </section>
    }
}
