//! Loading the catalogs (the lesson crate's [`idem_lesson::i18n`] reads and keeps them): in the
//! browser [`fetch`] requests the files; native builds (unit tests) have them bundled.

#[cfg(target_arch = "wasm32")]
mod fetch;
#[cfg(target_arch = "wasm32")]
pub use fetch::{load, prefetch};

#[cfg(not(target_arch = "wasm32"))]
use idem_lesson::i18n::{loaded, Catalog};
use idem_lesson::i18n::{Lang, LoadError, Part};

/// Starts the request of `part` of `lang` (native builds read the files at compile time).
#[cfg(not(target_arch = "wasm32"))]
pub fn prefetch(_lang: Lang, _part: Part) {}

/// The first screen's part of `lang`, and its panels' part too when `panels` (both asked for
/// at once): the language switch and the embedded widget, which draw everything at once, wait
/// for both. The first error, if any.
pub async fn load_parts(lang: Lang, panels: bool) -> Result<(), LoadError> {
    prefetch(lang, Part::Main);
    if panels {
        prefetch(lang, Part::Panels);
    }
    let main = load(lang, Part::Main).await.map(|_| ());
    // Both answers are awaited, so that neither request fails unheard.
    let panels = if panels {
        load(lang, Part::Panels).await.map(|_| ())
    } else {
        Ok(())
    };
    main.and(panels)
}

/// The catalog of `part` of `lang` (native builds read the files at compile time, so this
/// never waits and never fails; the browser's version fetches the file).
#[cfg(not(target_arch = "wasm32"))]
pub async fn load(lang: Lang, part: Part) -> Result<&'static Catalog, LoadError> {
    loaded(lang, part).ok_or_else(|| LoadError {
        file: part.file(lang),
        problem: "not bundled".to_owned(),
    })
}
