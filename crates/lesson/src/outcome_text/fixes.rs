//! The protections that close a schedule, in words: alternatives joined with "or", a pair
//! with "+", for the explorer's list and for a replay of one schedule.

use crate::i18n::Catalog;

/// "Switching on “Forward key to processor” would have prevented it", or that no single
/// protection nor pair does, from a replay of this schedule alone (not shown by the page any
/// more: its claim is [`crate::prevention_text`]'s). Alternatives are joined with "or", a pair
/// with "+".
pub fn fix_sentence(fixes: &[Vec<&str>], catalog: &Catalog) -> String {
    if fixes.is_empty() {
        return catalog.text("sum.no_fix");
    }
    catalog.fill(
        "sum.fix",
        &[(
            "protections",
            alternatives(fixes, &catalog.text("sum.or"), catalog),
        )],
    )
}

pub(crate) fn alternatives(fixes: &[Vec<&str>], or: &str, catalog: &Catalog) -> String {
    fixes
        .iter()
        .take(3)
        .map(|set| {
            set.iter()
                .map(|n| {
                    let name = catalog.text(&format!("protect.{n}"));
                    catalog.fill("sum.name", &[("name", name)])
                })
                .collect::<Vec<_>>()
                .join(" + ")
        })
        .collect::<Vec<_>>()
        .join(or)
}

/// The protections that close a counter-example, for the explorer's list
/// ("stopped by “Forward key to processor”"): the replay of one schedule; that it is checked on
/// that schedule alone is said once, above the list (#42 item 4: the parenthetical was
/// repeated on every line). `kinds` (in words) is there for a catalog that names them.
pub fn closed_by(fixes: &[Vec<&str>], kinds: &str, catalog: &Catalog) -> String {
    if fixes.is_empty() {
        return catalog.text("ui.explore_no_fix");
    }
    catalog.fill(
        "ui.explore_fix",
        &[
            (
                "protections",
                alternatives(fixes, &catalog.text("sum.or"), catalog),
            ),
            ("kinds", kinds.to_owned()),
        ],
    )
}
