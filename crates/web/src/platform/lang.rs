//! Which language the page speaks: the `lang` parameter of the address (`en`, `ru`), else the
//! browser's preferred languages, else English. A `lang` value the page does not have falls
//! back the same way and is reported, like a bad deep link. The switch changes the language in
//! place and keeps the run.

use leptos::prelude::*;

use idem_lesson::i18n::Lang;

/// The browser's preferred languages (`navigator.languages`, else `navigator.language`).
pub fn browser_languages() -> Vec<String> {
    let navigator = window().navigator();
    let mut tags: Vec<String> = navigator
        .languages()
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    if tags.is_empty() {
        tags.extend(navigator.language());
    }
    tags
}

/// Sets `<html lang>` so screen readers and hyphenation use the page's language.
pub fn set_document_lang(lang: Lang) {
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("lang", lang.catalog().tag);
    }
}
