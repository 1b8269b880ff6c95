//! The sentence at step 0: the scenario's intro, or what a replay or a changed design is
//! instead, so the intro never describes a run the student is not watching.

use idem_core::{Scenario, World};

use crate::i18n::Catalog;

/// At step 0: the scenario's intro, unless this is a replay of a counter-example on the
/// scenario without its scripted faults — then the scripted intro ("the answer never
/// reaches the phone") would be false, and the intro says what the replay is instead.
/// When the student changed the protections, the story's intro ("sent with no key") would
/// describe another design, so the intro says the run is the story's with their design.
pub fn intro(world: &World, catalog: &Catalog) -> String {
    let id = &world.scenario().id;
    let story = Scenario::by_id(id).ok();
    let scripted = story.as_ref().is_some_and(|s| s.scripted_faults);
    let title = || catalog.text(&format!("scenario.{id}.title"));
    if scripted && !world.scenario().scripted_faults {
        catalog.fill("narr.replay_intro", &[("title", title())])
    } else if story.is_some_and(|s| s.protections != world.scenario().protections) {
        catalog.fill("narr.changed_intro", &[("title", title())])
    } else {
        match SEED_INTROS.iter().find(|(seed, _)| *seed == id.as_str()) {
            Some((_, key)) => catalog.text(key),
            // A mechanic's intro is the panels' text; until it is here the step names the
            // scenario by its title.
            None => catalog
                .panel_text(&format!("scenario.{id}.intro"))
                .unwrap_or_else(title),
        }
    }
}

/// The seed stories' intros, which the first screen carries (every other scenario's is in the
/// panels' texts, as their summaries are).
const SEED_INTROS: [(&str, &str); 5] = [
    ("naive", "scenario.naive.intro"),
    ("key", "scenario.key.intro"),
    ("cas", "scenario.cas.intro"),
    ("counter-naive", "scenario.counter-naive.intro"),
    ("counter", "scenario.counter.intro"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    /// Review finding: story 1 with the Idempotency-Key ticked still said "with no key".
    #[test]
    fn the_intro_of_a_story_with_other_protections_does_not_describe_the_story_design() {
        for lang in Lang::ALL {
            let c = lang.catalog();
            let mut s = Scenario::by_id("naive").expect("naive");
            s.protections.idempotency_key = true;
            let text = intro(&World::new(&s), c);
            assert_ne!(text, c.text("scenario.naive.intro"));
            assert!(text.contains(&c.text("scenario.naive.title")), "{text}");
            let story = intro(&World::new(&Scenario::by_id("naive").expect("naive")), c);
            assert_eq!(story, c.text("scenario.naive.intro"));
        }
    }

    #[test]
    fn a_replay_without_the_scripted_faults_does_not_promise_them() {
        let base = Scenario::by_id("naive")
            .expect("naive")
            .without_scripted_faults();
        let w = World::new(&base);
        for lang in Lang::ALL {
            let c = lang.catalog();
            let text = intro(&w, c);
            assert_ne!(text, c.text("scenario.naive.intro"));
            assert!(text.contains(&c.text("scenario.naive.title")), "{text}");
        }
        let scripted = World::new(&Scenario::by_id("naive").expect("naive"));
        assert_eq!(
            intro(&scripted, Lang::En.catalog()),
            Lang::En.catalog().text("scenario.naive.intro")
        );
    }
}
