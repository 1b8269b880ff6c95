//! What changed since the previous search of the same scenario (`explore-diff`): the classes
//! of counter-examples (invariant and fault kinds) a protection toggled in between fixed, and
//! those it let in, each told by the counter-example that stands for it.

use idem_core::{class_diff, class_of, Class, CounterExample, Scenario};

use crate::i18n::Catalog;
use crate::markup::{el, wrap, SafeHtml};

use super::{fault_packets, fault_words};

/// A class in words: the invariant and the faults of the counter-example that stands for it
/// (found on `base`, whose packets it names).
pub fn class_words(cx: &CounterExample, base: &Scenario, catalog: &Catalog) -> String {
    let packets = fault_packets(base, &cx.injected, catalog);
    let faults: Vec<String> = cx
        .injected
        .iter()
        .map(|(_, a)| fault_words(a, &packets, base.story, catalog))
        .collect();
    format!(
        "{} — {}",
        catalog.text(&format!("invariant.{}", cx.invariant.name())),
        faults.join(" + ")
    )
}

/// What changed since the previous search of the same scenario: the counter-examples (one per
/// class) that stood for the classes now gone, and those of the classes that are new.
pub fn search_diff(
    before: &[CounterExample],
    after: &[CounterExample],
) -> (Vec<CounterExample>, Vec<CounterExample>) {
    let classes = |cxs: &[CounterExample]| cxs.iter().map(class_of).collect::<Vec<Class>>();
    let diff = class_diff(&classes(before), &classes(after));
    let pick = |cxs: &[CounterExample], wanted: &[Class]| {
        wanted
            .iter()
            .filter_map(|c| cxs.iter().find(|cx| class_of(cx) == *c).cloned())
            .collect::<Vec<_>>()
    };
    (pick(before, &diff.fixed), pick(after, &diff.new))
}

/// What changed since the previous search, in words: the counts, then the classes gone and
/// the classes new (each as [`class_words`]).
pub fn diff_html(fixed: &[String], new: &[String], catalog: &Catalog) -> SafeHtml {
    let list = |key: &str, words: &[String], class: &str| {
        if words.is_empty() {
            return SafeHtml::default();
        }
        let items: SafeHtml = words.iter().map(|w| el("li", "", w)).collect();
        el("p", "", &catalog.text(key)) + wrap("ul", &format!("class=\"{class}\""), &items)
    };
    let summary = catalog.fill(
        "ui.explore_diff",
        &[
            ("fixed", fixed.len().to_string()),
            ("new", new.len().to_string()),
        ],
    );
    el("p", "", &summary)
        + list("ui.explore_gone", fixed, "fixed")
        + list("ui.explore_new", new, "new")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use idem_core::Bounds;
    use idem_core::Explorer;
    use idem_core::Scenario;

    #[test]
    fn turning_the_key_on_fixes_classes_and_turning_it_off_brings_them_back() {
        let naive = Scenario::by_id("naive").expect("naive");
        let mut keyed = naive.clone();
        keyed.protections.idempotency_key = true;
        let search = |s: &Scenario| {
            Explorer::new(s, Bounds::faults(1))
                .run_to_end()
                .shortest
                .clone()
        };
        let (before, after) = (search(&naive), search(&keyed));
        let (fixed, new) = search_diff(&before, &after);
        assert!(!fixed.is_empty(), "the key fixes some classes");
        assert!(fixed.iter().all(|cx| before.contains(cx)));
        assert!(new.iter().all(|cx| after.contains(cx)));
        let (refixed, renew) = search_diff(&after, &before);
        assert_eq!((refixed.len(), renew.len()), (new.len(), fixed.len()));
        assert_eq!(search_diff(&before, &before), (Vec::new(), Vec::new()));
        let words = class_words(
            &fixed[0],
            &naive.clone().without_scripted_faults(),
            Lang::En.catalog(),
        );
        assert!(words.starts_with(
            &Lang::En
                .catalog()
                .text(&format!("invariant.{}", fixed[0].invariant.name()))
        ));
        assert!(words.contains(" — ") && !words.contains(" #"), "{words}");
        let html = diff_html(std::slice::from_ref(&words), &[], Lang::En.catalog());
        assert!(html.starts_with("<p>Since the previous search: 1 class of counter-examples gone, 0 new.</p><p>Gone:</p><ul class=\"fixed\"><li>"), "{html}");
        assert!(!html.contains("New:"), "{html}");
        let ru = diff_html(&[], &[words], Lang::Ru.catalog());
        assert!(
            ru.contains("исчезло: 0, появилось: 1") && ru.contains("Появились:"),
            "{ru}"
        );
    }
}
