//! Which language the page speaks: the `lang` parameter of the address (`en`, `ru`), else the
//! browser's preferred languages, else English. A `lang` value the page does not have falls
//! back the same way and is reported, like a bad deep link. The switch changes the language in
//! place and keeps the run. Also the address's small readers the other modules share
//! ([`query_param`], [`percent_decode`]).

use crate::i18n::Lang;

/// The raw value of the parameter `name` of a query string (with or without `?`), if present
/// with a value (the first one).
pub fn query_param<'q>(query: &'q str, name: &str) -> Option<&'q str> {
    query
        .trim_start_matches('?')
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}

/// The raw value of the `lang` parameter of a query string (without `?`), if present.
pub fn lang_param(query: &str) -> Option<&str> {
    query_param(query, "lang")
}

/// The language for a query and the browser's preferred languages (most preferred first),
/// and the `lang` value that was asked for but does not exist, if any.
pub fn choose(query: &str, preferred: &[String]) -> (Lang, Option<String>) {
    let asked = lang_param(query);
    if let Some(lang) = asked.and_then(Lang::from_tag) {
        return (lang, None);
    }
    let from_browser = preferred
        .iter()
        .find_map(|tag| {
            let primary = tag.split(['-', '_']).next().unwrap_or("");
            Lang::from_tag(&primary.to_ascii_lowercase())
        })
        .unwrap_or_default();
    (from_browser, asked.map(percent_decode))
}

/// `value` with its `%XX` escapes decoded (invalid UTF-8 becomes U+FFFD), for showing a
/// value from the address as the reader typed it. The result is still untrusted text: it is
/// shown as text, never as markup.
pub fn percent_decode(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied(),
            bytes.get(i + 2).copied(),
        ) {
            (b'%', Some(h), Some(l)) if hex(h).is_some() && hex(l).is_some() => {
                let byte = hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0);
                out.push(u8::try_from(byte).unwrap_or(b'?'));
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `query` with its `lang` parameter set to `tag` (replaced if present, else appended).
pub fn with_lang(query: &str, tag: &str) -> String {
    let mut parts: Vec<&str> = query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("lang=") && *p != "lang")
        .collect();
    let lang = format!("lang={tag}");
    parts.push(&lang);
    parts.join("&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefs(tags: &[&str]) -> Vec<String> {
        tags.iter().map(|t| (*t).to_owned()).collect()
    }

    #[test]
    fn a_parameter_is_found_by_its_whole_name() {
        let query = "?language=de&lang&theme=dark&lang=ru&replay=R1*0o";
        assert_eq!(
            query_param(query, "lang"),
            Some("ru"),
            "not `language`, not a bare `lang`"
        );
        assert_eq!(query_param(query, "theme"), Some("dark"));
        assert_eq!(query_param(query, "replay"), Some("R1*0o"));
        assert_eq!(query_param(query, "them"), None);
        assert_eq!(query_param("", "lang"), None);
    }

    #[test]
    fn the_parameter_wins_over_the_browser() {
        assert_eq!(
            choose("scenario=key&lang=ru", &prefs(&["en-US"])),
            (Lang::Ru, None)
        );
        assert_eq!(choose("?lang=en", &prefs(&["ru-RU"])), (Lang::En, None));
    }

    #[test]
    fn without_a_parameter_the_browser_decides_then_english() {
        assert_eq!(
            choose("scenario=key", &prefs(&["ru-RU", "en"])),
            (Lang::Ru, None)
        );
        assert_eq!(choose("", &prefs(&["de-DE", "ru"])), (Lang::Ru, None));
        assert_eq!(choose("", &prefs(&["RU"])), (Lang::Ru, None));
        assert_eq!(choose("", &prefs(&["de", "fr"])), (Lang::En, None));
        assert_eq!(choose("", &[]), (Lang::En, None));
    }

    #[test]
    fn an_unknown_value_falls_back_and_is_reported() {
        assert_eq!(
            choose("lang=klingon", &prefs(&["en"])),
            (Lang::En, Some("klingon".to_owned()))
        );
        assert_eq!(
            choose("lang=RU&step=2", &prefs(&["ru"])),
            (Lang::Ru, Some("RU".to_owned()))
        );
        assert_eq!(choose("lang=", &[]), (Lang::En, Some(String::new())));
    }

    #[test]
    fn a_reported_value_is_shown_decoded() {
        assert_eq!(
            choose("lang=%3Cb%3E", &prefs(&["en"])),
            (Lang::En, Some("<b>".to_owned()))
        );
        assert_eq!(percent_decode("%D1%80%D1%83"), "ру");
        assert_eq!(percent_decode("50%"), "50%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(percent_decode("%FF"), "\u{FFFD}");
    }

    #[test]
    fn the_switch_keeps_the_rest_of_the_link() {
        assert_eq!(
            with_lang("scenario=key&step=4", "ru"),
            "scenario=key&step=4&lang=ru"
        );
        assert_eq!(
            with_lang("?lang=en&scenario=key", "ru"),
            "scenario=key&lang=ru"
        );
        assert_eq!(with_lang("", "en"), "lang=en");
        assert_eq!(lang_param("a=1&lang=ru"), Some("ru"));
        assert_eq!(lang_param("language=ru"), None);
    }
}
