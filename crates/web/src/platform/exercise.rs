//! The exercise a course author set up (issue 43, item 1), as a context of the widget's parts
//! that follow it: the protection switches (locks), the fault menu (kinds, budget). Provided
//! by `view::embed::exercise::ExerciseParts` (the lesson's bundle) around the parts it draws;
//! absent on the page and in a widget without one.

use idem_lesson::exercise::Exercise;
use leptos::prelude::*;

/// The checked exercise of the enclosing widget.
#[derive(Clone, Copy)]
pub struct ExerciseRules(pub RwSignal<Exercise>);

/// The enclosing widget's exercise (`None` where none was set up).
pub fn use_exercise() -> Option<RwSignal<Exercise>> {
    use_context::<ExerciseRules>().map(|ExerciseRules(rules)| rules)
}
