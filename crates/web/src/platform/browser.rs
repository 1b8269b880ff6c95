//! The few browser facts the page needs (query string, history, media queries, clock), each
//! failing soft: outside a browser or on an error they return a neutral value.

use idem_lesson::geometry::Layout;
use leptos::prelude::*;
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen]
extern "C" {
    type ImportMeta;
    #[wasm_bindgen(thread_local_v2, js_namespace = import, js_name = meta)]
    static IMPORT_META: ImportMeta;
    #[wasm_bindgen(method, getter)]
    fn url(this: &ImportMeta) -> String;
}

/// The directory of the module `idem-web.js`, with its trailing `/`: the lesson's files (the
/// catalogs, the search worker) are found next to it, under any sub-path and from a course
/// page on another path that imports the module.
pub fn module_dir() -> String {
    let url = IMPORT_META.with(ImportMeta::url);
    let path = url.split(['?', '#']).next().unwrap_or("");
    match path.rfind('/') {
        Some(slash) => path[..=slash].to_owned(),
        None => String::new(),
    }
}

/// The current query string, without `?`.
pub fn location_query() -> String {
    window()
        .location()
        .search()
        .unwrap_or_default()
        .trim_start_matches('?')
        .to_owned()
}

/// Replaces the query string of the current history entry (no reload, no new entry).
pub fn replace_query(query: &str) {
    let window = window();
    let path = window.location().pathname().unwrap_or_default();
    if let Ok(history) = window.history() {
        let url = format!("{path}?{query}");
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// Whether a CSS media query matches now.
pub fn media_matches(query: &str) -> bool {
    window()
        .match_media(query)
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

/// Scrolls the element with id `id` to the top of the window when its top is out of view
/// (scrolled past, or below the window), so the effect of a button far from it is seen. No
/// such element (an embedded player has none): nothing happens.
pub fn reveal(id: &str) {
    let Some(element) = document().get_element_by_id(id) else {
        return;
    };
    let top = element.get_bounding_client_rect().top();
    let height = window()
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    if top < 0.0 || top > height {
        element.scroll_into_view_with_bool(true);
    }
}

/// [`reveal`]s the element with id `id` at the next frame: for a button whose effect is drawn
/// reactively (a challenge's goal, the compare stages), which is on the page only by then.
pub fn reveal_next_frame(id: &'static str) {
    request_animation_frame(move || reveal(id));
}

/// [`reveal`]s the element with id `id` and gives it the focus (it has `tabindex="-1"`): for a
/// button that goes away once pressed, whose focus would otherwise fall to the page's body.
pub fn reveal_and_focus(id: &str) {
    reveal(id);
    if let Some(element) = document().get_element_by_id(id) {
        if let Some(element) =
            wasm_bindgen::JsCast::dyn_ref::<leptos::web_sys::HtmlElement>(&element)
        {
            let _ = element.focus();
        }
    }
}

/// Milliseconds from the page's time origin (monotonic).
pub fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// Removes index.html's first screen (`.idem-shell`: one per language, web/lang.js shows one),
/// which stands in for the lesson until the wasm mounts it or reports why it could not.
pub fn remove_first_screen(document: &leptos::web_sys::Document) {
    let shells = document.get_elements_by_class_name("idem-shell");
    while let Some(shell) = shells.item(0) {
        shell.remove();
    }
}

/// Adds the later stylesheet, `later.css` next to `idem-web.js` (the rules of the parts drawn
/// after the first screen: `style.css`, which index.html links, holds only what the first screen
/// and Play use, so the bytes before Play are fewer), unless the document has it already. A
/// `<link>` element, not inline style, so it loads under `style-src 'self'`; its rules come
/// after every rule of `style.css`, as they did in one file, and match nothing on the first
/// screen (tests/e2e/measure-css.mjs), so no rule that styles the first screen changes.
pub fn add_later_sheet() {
    let document = document();
    // Looked up by tag, not by selector: the page's code looks no element up by selector
    // (crates/web/tests/it/page_sources.rs).
    let links = document.get_elements_by_tag_name("link");
    let has_it = (0..links.length()).filter_map(|i| links.item(i)).any(|l| {
        l.get_attribute("href")
            .is_some_and(|h| h.ends_with("later.css"))
    });
    if has_it {
        return;
    }
    let Some(head) = document.get_elements_by_tag_name("head").item(0) else {
        return;
    };
    let Ok(link) = document.create_element("link") else {
        return;
    };
    let _ = link.set_attribute("rel", "stylesheet");
    let _ = link.set_attribute("href", &format!("{}later.css", module_dir()));
    let _ = head.append_child(&link);
}

/// The window's width under which the topology is drawn tall (`Layout::for_width`'s).
pub const NARROW: &str = "(max-width: 640px)";

/// The topology layout the window's width asks for: the first guess, before the lesson is
/// drawn (then `hooks::use_layout` follows the lesson's own width).
pub fn current_layout() -> Layout {
    if media_matches(NARROW) {
        Layout::Tall
    } else {
        Layout::Wide
    }
}
