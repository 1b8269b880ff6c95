//! The page's own link parameters (`lang`, `theme`, `embed`, `host`, `replay`) beside the deep link's
//! (`idem_core::DeepLink::PARAMS`), and the problems with them.
//!
//! A course author who misspells a parameter (`?them=dark`, `?lang=de&embed`) must hear about
//! it the way a bad scenario is reported, not find it silently ignored: `mount` refuses an
//! unknown option, and a link is held to the same rule. Pure: the page shows the problems in
//! its link notice ([`problem_text`]).

use idem_core::DeepLink;

use crate::i18n::{Catalog, Lang};
use crate::lang::percent_decode;
use crate::theme::Theme;

/// The parameters the page reads itself; every other name must be one of
/// [`DeepLink::PARAMS`].
pub const PAGE_PARAMS: [&str; 5] = ["lang", "theme", "embed", "host", "replay"];

/// A course author's exercise parameters, read by `crate::exercise::from_query` (`faults` and
/// `step`, its start state, are the deep link's own).
pub const EXERCISE_PARAMS: [&str; 6] = ["lock", "hide", "budget", "kinds", "stories", "allow"];

/// The values `embed` may have (`?embed`, `?embed=1`, `?embed=true`).
const EMBED_VALUES: [&str; 3] = ["", "1", "true"];

/// Longest parameter name or value quoted back in a notice (a link is untrusted text).
const QUOTE_MAX: usize = 40;

/// What is wrong with one of the page's parameters, or with a name nobody reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamProblem {
    /// No part of the lesson reads a parameter of this name (decoded, shortened).
    Unknown(String),
    /// A page parameter has a value outside the allowed ones.
    BadValue {
        /// The parameter.
        name: &'static str,
        /// The value given (decoded, shortened).
        value: String,
        /// Every allowed value.
        allowed: Vec<&'static str>,
    },
    /// A page parameter appears twice (the first is used).
    Repeated(&'static str),
}

/// The page's parameters of a query, each `None` when absent or bad, and every problem.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageParams {
    /// The compact widget was asked for.
    pub embed: bool,
    /// The language named by `lang`, when it is one the page has.
    pub lang: Option<Lang>,
    /// The colour theme named by `theme`.
    pub theme: Option<Theme>,
    /// The origin whose commands an `?embed` frame takes (`host=https://example.org`, issue
    /// 43 item 2): none unless the link names one.
    pub host: Option<String>,
    /// What could not be used, in the order of the query.
    pub problems: Vec<ParamProblem>,
}

impl PageParams {
    /// The problems without the one about `lang`: the full page says that one in its own
    /// notice, since it then falls back to the browser's language.
    pub fn problems_but_lang(&self) -> Vec<ParamProblem> {
        self.problems
            .iter()
            .filter(|p| !matches!(p, ParamProblem::BadValue { name: "lang", .. }))
            .cloned()
            .collect()
    }
}

/// Whether `value` is a web origin as `MessageEvent.origin` spells it: `http` or `https`,
/// a host of letters, digits, `.` and `-` (or `[…]` for IPv6), an optional port, no path.
pub fn is_origin(value: &str) -> bool {
    let Some(rest) = value
        .strip_prefix("https://")
        .or_else(|| value.strip_prefix("http://"))
    else {
        return false;
    };
    // The port is after the last `:` that is not inside an IPv6 host's brackets. (Bytes, not
    // `str::contains`: the first screen's module has that one, and a second caller would take
    // it out of line there.)
    let bytes = rest.as_bytes();
    #[allow(clippy::manual_contains)] // (see above: the size of the first screen's module)
    let (host, port) = match bytes.iter().rposition(|b| *b == b':') {
        Some(at) if at > 0 && !bytes[at..].iter().any(|b| *b == b']') => {
            (&bytes[..at], Some(&bytes[at + 1..]))
        }
        _ => (bytes, None),
    };
    let host_ok = !host.is_empty()
        && host
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'[' | b']' | b':'));
    let port_ok =
        port.is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.iter().all(u8::is_ascii_digit));
    host_ok && port_ok
}

/// Every name a link may hold, in the order the notice lists them.
pub fn known_params() -> impl Iterator<Item = &'static str> {
    DeepLink::PARAMS
        .into_iter()
        .chain(PAGE_PARAMS)
        .chain(EXERCISE_PARAMS)
}

fn quote(raw: &str) -> String {
    let decoded = percent_decode(raw);
    match decoded.char_indices().nth(QUOTE_MAX) {
        Some((cut, _)) => format!("{}…", &decoded[..cut]),
        None => decoded,
    }
}

/// Reads the page's parameters of `query` (with or without `?`) and reports unknown names.
/// The deep link's own parameters are left to `DeepLink::parse`, which reports their problems;
/// a query too long to read is reported there too, and read for nothing here.
pub fn page_params(query: &str) -> PageParams {
    let mut out = PageParams::default();
    if query.len() > DeepLink::MAX_QUERY_LEN {
        return out;
    }
    let mut seen: Vec<&'static str> = Vec::new();
    for pair in query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let Some(name) = PAGE_PARAMS.into_iter().find(|p| *p == name) else {
            // The exercise's parameters are checked by `exercise::from_query`.
            if !DeepLink::PARAMS.contains(&name) && !EXERCISE_PARAMS.contains(&name) {
                out.problems.push(ParamProblem::Unknown(quote(name)));
            }
            continue;
        };
        if seen.contains(&name) {
            out.problems.push(ParamProblem::Repeated(name));
            continue;
        }
        seen.push(name);
        let bad = |allowed: Vec<&'static str>| ParamProblem::BadValue {
            name,
            value: quote(value),
            allowed,
        };
        match name {
            "lang" => match Lang::from_tag(value) {
                Some(lang) => out.lang = Some(lang),
                None => out.problems.push(bad(Lang::ALL.map(Lang::tag).to_vec())),
            },
            "host" => {
                let origin = percent_decode(value);
                if is_origin(&origin) {
                    out.host = Some(origin);
                } else {
                    out.problems
                        .push(bad(vec!["an origin such as https://example.org"]));
                }
            }
            "theme" => match Theme::from_name(value) {
                Some(theme) => out.theme = Some(theme),
                None => out.problems.push(bad(Theme::ALL.map(Theme::name).to_vec())),
            },
            // A recording, checked whole when it is replayed (`crate::recording`).
            "replay" => {}
            _ => {
                if EMBED_VALUES.contains(&value) {
                    out.embed = true;
                } else {
                    out.problems.push(bad(vec!["1", "true"]));
                }
            }
        }
    }
    out
}

/// The notice's line for a problem, in `catalog`'s language.
pub fn problem_text(problem: &ParamProblem, catalog: &Catalog) -> String {
    let list = |names: &mut dyn Iterator<Item = &'static str>| names.collect::<Vec<_>>().join(", ");
    match problem {
        ParamProblem::Unknown(name) => catalog.fill(
            "link.unknown_param",
            &[
                ("value", name.clone()),
                ("allowed", list(&mut known_params())),
            ],
        ),
        ParamProblem::BadValue {
            name,
            value,
            allowed,
        } => catalog.fill(
            "link.bad_param",
            &[
                ("name", (*name).to_owned()),
                ("value", value.clone()),
                ("allowed", list(&mut allowed.iter().copied())),
            ],
        ),
        ParamProblem::Repeated(name) => {
            catalog.fill("link.repeated", &[("value", (*name).to_owned())])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_links_have_no_problems() {
        for query in [
            "",
            "?scenario=key&step=4&embed",
            "scenario=key&theme=dark&embed=1&lang=ru",
            "challenge=redis-2&embed=true",
            "scenario=naive&protect=none&faults=1.drop.3&base=1&compare=key",
        ] {
            let p = page_params(query);
            assert_eq!(p.problems, vec![], "{query}");
        }
        let p = page_params("scenario=key&theme=dark&embed&lang=ru");
        assert_eq!(
            (p.embed, p.lang, p.theme),
            (true, Some(Lang::Ru), Some(Theme::Dark))
        );
        assert_eq!(page_params("scenario=key"), PageParams::default());
    }

    #[test]
    fn an_unknown_name_is_reported_like_a_bad_value() {
        let p = page_params("?scenario=key&them=dark&embed&compact=false");
        assert_eq!(
            p.problems,
            vec![
                ParamProblem::Unknown("them".into()),
                ParamProblem::Unknown("compact".into())
            ]
        );
        assert!(p.embed && p.theme.is_none());
        let p = page_params("lang=de&embed&theme=pink&embed=0&lang=ru");
        assert_eq!(
            p.problems,
            vec![
                ParamProblem::BadValue {
                    name: "lang",
                    value: "de".into(),
                    allowed: vec!["en", "ru"]
                },
                ParamProblem::BadValue {
                    name: "theme",
                    value: "pink".into(),
                    allowed: vec!["auto", "light", "dark"]
                },
                ParamProblem::Repeated("embed"),
                ParamProblem::Repeated("lang"),
            ]
        );
        assert_eq!(p.lang, None, "a bad first lang is not replaced by a repeat");
        assert_eq!(p.problems_but_lang().len(), 3);
    }

    #[test]
    fn host_names_an_origin() {
        let p = page_params("scenario=key&embed&host=https%3A%2F%2Fcourse.example.org");
        assert_eq!(p.host.as_deref(), Some("https://course.example.org"));
        assert_eq!(p.problems, vec![]);
        assert_eq!(
            page_params("embed&host=http://127.0.0.1:8080")
                .host
                .as_deref(),
            Some("http://127.0.0.1:8080")
        );
        for bad in [
            "*",
            "example.org",
            "https://x/path",
            "javascript:x",
            "https://",
            "https://x:99999x",
        ] {
            let p = page_params(&format!("embed&host={bad}"));
            assert_eq!(p.host, None, "{bad}");
            assert!(
                matches!(
                    &p.problems[..],
                    [ParamProblem::BadValue { name: "host", .. }]
                ),
                "{bad}: {:?}",
                p.problems
            );
        }
    }

    #[test]
    fn quoted_names_are_decoded_and_shortened() {
        let long = "x".repeat(100);
        let p = page_params(&format!("%3Cb%3E=1&{long}"));
        assert_eq!(p.problems[0], ParamProblem::Unknown("<b>".into()));
        assert_eq!(
            p.problems[1],
            ParamProblem::Unknown(format!("{}…", "x".repeat(QUOTE_MAX)))
        );
        let too_long = "x=1&".repeat(2_000);
        assert_eq!(page_params(&too_long), PageParams::default());
    }

    #[test]
    fn the_notice_names_the_parameter_and_what_is_allowed() {
        for lang in Lang::ALL {
            let catalog = lang.catalog();
            let unknown = problem_text(&ParamProblem::Unknown("them".into()), catalog);
            assert!(
                unknown.contains("them")
                    && unknown.contains("scenario, protect")
                    && unknown.contains("lang, theme, embed"),
                "{unknown}"
            );
            let bad = problem_text(&page_params("theme=pink").problems[0], catalog);
            assert!(
                bad.contains("theme") && bad.contains("pink") && bad.contains("auto, light, dark"),
                "{bad}"
            );
            assert!(!bad.contains('{'), "{bad}");
        }
    }
}
