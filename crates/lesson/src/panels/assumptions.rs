//! What "proved" and "impossible" rest on. A search that finds no counter-example proves the
//! design holds against the fault kinds it tried, at most k of them; a student must not read
//! that as "holds against everything". So every such claim (the explorer's "no schedule breaks
//! it", a challenge proved impossible) is followed by one sentence naming what the search
//! leaves out (faults outside its menu) and what the model takes for granted, with the
//! details one tap away in a `<details>`, the pattern the page uses for folded text.

use crate::i18n::Catalog;
use crate::markup::{el, wrap, SafeHtml};

/// The sentence and its folded details, as escaped markup.
pub fn assumptions_html(catalog: &Catalog) -> SafeHtml {
    let details = el("summary", "", &catalog.text("ui.assumes_more"))
        + el("p", "", &catalog.text("ui.assumes_menu"))
        + el("p", "", &catalog.text("ui.assumes_model"));
    el(
        "p",
        "class=\"assumes\" data-testid=\"assumes\"",
        &catalog.text("ui.assumes"),
    ) + wrap("details", "class=\"assumes-more\"", &details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn the_claim_names_what_it_leaves_out_and_assumes() {
        let en = assumptions_html(Lang::En.catalog());
        for words in [
            "double tap",
            "another body",
            "another user",
            "inside the data centre",
            "24 h",
        ] {
            assert!(en.contains(words), "{words}: {en}");
        }
        assert!(
            en.contains("<details class=\"assumes-more\"><summary>"),
            "{en}"
        );
        let ru = assumptions_html(Lang::Ru.catalog());
        for words in [
            "двойное нажатие",
            "другим телом",
            "чужого пользователя",
            "внутри дата-центра",
            "24 ч",
        ] {
            assert!(ru.contains(words), "{words}: {ru}");
        }
    }
}
