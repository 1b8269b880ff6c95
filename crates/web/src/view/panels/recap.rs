//! Before and after a run: the student predicts the outcome at step 0, and when the run ends
//! the page tells them whether they were right and what the scenario showed. The options are
//! derived from the story, the answer from the core's own figures (the verdict's effects per
//! operation, the account balance, the post's likes): nothing here is scripted per scenario.

use leptos::prelude::*;

use crate::platform::lab::{use_lab, use_prefs};
use idem_lesson::markup::{el, SafeHtml};
use idem_lesson::panels::recap::{end_html, options, Choice};

/// The student's guess: (scenario id, chosen value); a guess belongs to the scenario it was
/// made for. Provided by the page outside the parts drawn again on a language switch, so the
/// guess survives it.
#[derive(Clone, Copy)]
pub struct Guess(pub RwSignal<Option<(String, String)>>);

/// Provides the guess for the page or a widget.
pub fn provide_guess() {
    provide_context(Guess(RwSignal::new(None)));
}

/// Predict at the start, the lesson of the scenario at the end. The choices are buttons with
/// their own handlers (keyed by value, so a pressed one keeps its focus); what the run
/// showed is markup from pure functions, in a live region.
#[component]
pub fn Recap(
    /// The page's anchor id for the panel (a widget, which may be one of several, has none).
    #[prop(optional)]
    anchor: Option<&'static str>,
) -> impl IntoView {
    let lab = use_lab();
    let prefs = use_prefs();
    let Guess(guess) = crate::platform::place::required("provide_guess");
    // Simulated once per scenario (and protections and language), not on every step.
    let choices = crate::platform::lab::per_scenario(lab, prefs, |r, catalog| {
        let start = r.start().clone();
        let mut end = start.clone();
        end.run(2_000);
        (r.scenario().id.clone(), options(&start, &end, catalog))
    });
    let current_guess = move || {
        let (id, list) = choices.with(|c| c.value.clone());
        guess
            .get()
            .filter(|(g, _)| *g == id)
            .and_then(|(_, v)| list.into_iter().find(|c| c.value == v))
    };
    let at_start = Memo::new(move |_| lab.run.with(|r| r.cursor() == 0));
    // The value pressed in the story on screen, for the buttons. A signal set on every change
    // of the story or the guess, not the guess itself: the buttons are drawn again for every
    // story, and a dropped button stays a subscriber of what it read until that is set (see
    // crate::view::keyed); the guess is set only when the student guesses.
    let pressed_value = RwSignal::new(None::<String>);
    Effect::new(move |_| pressed_value.set(current_guess().map(|c| c.value)));
    // Memoized: the live region is rewritten only when its text changes, not on every step,
    // so screen readers announce the guess and the recap, not each step.
    let body = Memo::new(move |_| {
        let catalog = prefs.catalog();
        let at_end = lab.run.with(|r| r.at_end());
        let chosen = current_guess();
        let mut html = SafeHtml::default();
        if let Some(c) = &chosen {
            if !at_end {
                html.push_str(&el(
                    "p",
                    "class=\"predict-chosen\"",
                    &catalog.fill("predict.chosen", &[("guess", c.label.clone())]),
                ));
            }
        }
        if at_end {
            html.push_str(
                &lab.run
                    .with(|r| end_html(r.world(), chosen.as_ref(), catalog)),
            );
        }
        html
    });
    // Whether the prediction came true is sent with each run that ends by the data stream
    // (view/stream.rs), from the guess this widget shares in context.
    let empty = move || !at_start.get() && body.with(|b| b.is_empty());
    // Keyed by choice: a pressed button keeps its element (and the focus), and stories with
    // the same choices keep the buttons.
    let button = move |c: Choice| {
        let value = c.value.clone();
        let pressed = {
            let value = value.clone();
            move || pressed_value.with(|p| p.as_ref() == Some(&value))
        };
        let choose = move |_| {
            let id = lab.run.with_untracked(|r| r.scenario().id.clone());
            guess.set(Some((id, value.clone())));
            // Guessed: now Play. On a phone the prediction sits below the player, so bring its
            // playback bar into view (review finding 15).
            if prefs.layout.get_untracked() == idem_lesson::geometry::Layout::Tall {
                crate::platform::browser::reveal_next_frame(idem_lesson::anchors::PLAYER_ANCHOR);
            }
        };
        view! {
            <button
                type="button"
                class="predict-option"
                data-testid="predict-option"
                data-value=c.value
                aria-pressed=move || pressed().to_string()
                on:click=choose
            >
                {c.label}
            </button>
        }
    };
    let buttons = crate::view::keyed::keyed_rows(
        move || choices.with(|c| c.value.1.clone()),
        |c: &Choice| (c.value.clone(), c.label.clone()),
        button,
    );
    view! {
        <section
            class="recap"
            id=anchor
            data-testid="predict"
            aria-live="polite"
            hidden=empty
        >
            // Hidden rather than taken out (`<Show>`): the choices would be drawn again on
            // every return to the start, and views drawn again and again must not read a memo
            // that outlives them (see crate::view::keyed).
            <div hidden=move || !at_start.get()>
                <h2>{prefs.t("predict.title")}</h2>
                <p>{prefs.t("predict.question")}</p>
                <div class="predict-options" role="group" aria-label=prefs.t("predict.title")>
                    {buttons}
                </div>
            </div>
            <div inner_html=move || body.get()></div>
        </section>
    }
}
