//! Fetching the catalog files in the browser. A file's address is `i18n/<file>` next to
//! `idem-web.js` (its `import.meta.url`), so the lesson works under any sub-path and from a
//! course page on another path that imports the module (`connect-src 'self'` allows it, the
//! module being served by the lesson's own host). `web/boot.js` starts the first file's request
//! while the wasm downloads and leaves the promise in `window.idemLabCatalogs[tag]`; the
//! request of a file is shared by everyone waiting for it, and a file is fetched once.

use std::cell::RefCell;

use leptos::wasm_bindgen::{JsCast, JsValue};
use leptos::web_sys::{js_sys, Response};
use wasm_bindgen_futures::JsFuture;

use idem_lesson::i18n::{install, loaded, Catalog, Lang, LoadError, Part};

thread_local! {
    /// Requests under way or done, by slot: a promise of the file's text.
    static REQUESTS: RefCell<Vec<(Lang, Part, js_sys::Promise)>> = const { RefCell::new(Vec::new()) };
}

/// Takes the request `web/boot.js` started for `lang`'s first file, if any (taken once: a
/// later attempt after a failure asks again).
fn take_prefetched(lang: Lang) -> Option<js_sys::Promise> {
    let all = js_sys::Reflect::get(&js_sys::global(), &"idemLabCatalogs".into()).ok()?;
    let all: js_sys::Object = all.dyn_into().ok()?;
    let promise = js_sys::Reflect::get(&all, &lang.tag().into()).ok()?;
    let _ = js_sys::Reflect::delete_property(&all, &lang.tag().into());
    promise.dyn_into::<js_sys::Promise>().ok()
}

/// A promise of the text of `url` (rejected with a short reason on a network error or an
/// HTTP status other than 2xx).
fn fetch_text(url: String) -> js_sys::Promise {
    wasm_bindgen_futures::future_to_promise(async move {
        let window = leptos::web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
        let response = JsFuture::from(window.fetch_with_str(&url))
            .await
            .map_err(|_| JsValue::from_str("the request failed (offline?)"))?;
        let response: Response = response.unchecked_into();
        if !response.ok() {
            return Err(JsValue::from_str(&format!("HTTP {}", response.status())));
        }
        JsFuture::from(response.text()?).await
    })
}

/// Starts the request of `part` of `lang` now, unless it is loaded or asked for already (a
/// later [`load`] shares it).
pub fn prefetch(lang: Lang, part: Part) {
    if loaded(lang, part).is_none() {
        let _ = request(lang, part);
    }
}

/// The request of `part` of `lang`: the one under way, or a new one.
fn request(lang: Lang, part: Part) -> js_sys::Promise {
    let file = format!("i18n/{}", part.file(lang));
    REQUESTS.with_borrow_mut(|all| {
        if let Some((_, _, p)) = all.iter().find(|(l, p, _)| *l == lang && *p == part) {
            return p.clone();
        }
        let promise = match part {
            Part::Main => take_prefetched(lang),
            Part::More | Part::Panels => None,
        }
        .unwrap_or_else(|| fetch_text(format!("{}{file}", crate::platform::browser::module_dir())));
        all.push((lang, part, promise.clone()));
        promise
    })
}

/// The catalog of `part` of `lang`: at once if loaded, else after fetching and reading its
/// file (once per page; callers waiting at the same time share one request).
pub async fn load(lang: Lang, part: Part) -> Result<&'static Catalog, LoadError> {
    if let Some(catalog) = loaded(lang, part) {
        return Ok(catalog);
    }
    let file = format!("i18n/{}", part.file(lang));
    let promise = request(lang, part);
    let error = |problem: String| {
        // Forget a failed request, so a later attempt asks again.
        REQUESTS.with_borrow_mut(|all| all.retain(|(l, p, _)| !(*l == lang && *p == part)));
        LoadError {
            file: file.clone(),
            problem,
        }
    };
    let text = JsFuture::from(promise).await.map_err(|e| {
        error(
            e.as_string()
                .or_else(|| e.dyn_ref::<js_sys::Error>().map(|e| e.message().into()))
                .unwrap_or_else(|| "the request failed".to_owned()),
        )
    })?;
    let text = text.as_string().unwrap_or_default();
    install(lang, part, &text).map_err(|e| error(format!("not a catalog ({e})")))
}
