//! The options of the JS API ([`super::mount`]) and of the `?embed` address, with their
//! validation.
//!
//! Options are read from the JavaScript object by a small decoder in `super::api` (entries of
//! [`Value`]s, unknown fields refused, no serde: it would bring float formatting into the
//! wasm) into [`RawOptions`];
//! [`validate`] is pure and turns them into [`Options`] or an [`OptionError`] that names the
//! field and the allowed values.

use idem_core::Scenario;
use idem_core::{Challenge, DeepLink, Protections};
use std::fmt;

use crate::i18n::Lang;
use crate::markup::esc;
use crate::theme::Theme;

/// Any JavaScript value, as far as the options care.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null` or `undefined`: as if absent.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string.
    Text(String),
    /// An array.
    List(Vec<Value>),
    /// An object or anything else.
    Other,
}

/// The option names, as JavaScript spells them: today's, then the exercise's
/// ([`crate::exercise::FIELDS`], checked by the lesson's bundle, not by [`validate`]).
pub const FIELDS: [&str; 15] = [
    "scenario",
    "lang",
    "autoplay",
    "theme",
    "protections",
    "compact",
    "challenge",
    "lock",
    "hide",
    "budget",
    "kinds",
    "stories",
    "allow",
    "faults",
    "step",
];

/// The options object of [`mount`](super::mount) as JavaScript gave it: known fields only, any types.
///
/// It is decoded as a list of entries ([`RawOptions::from_entries`]) so that a misspelt option
/// is refused, not ignored.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawOptions {
    /// Scenario id (`idem_core::Scenario::IDS`); variants are scenario ids too.
    pub scenario: Option<Value>,
    /// `"en"` or `"ru"`.
    pub lang: Option<Value>,
    /// Start playing at once.
    pub autoplay: Option<Value>,
    /// `"auto"`, `"light"` or `"dark"`.
    pub theme: Option<Value>,
    /// Names from `Protections::NAMES` to switch on (all others off).
    pub protections: Option<Value>,
    /// Only the player (default `true`); `false` adds the fault menu, panels and explorer.
    pub compact: Option<Value>,
    /// A challenge id (`idem_core::Challenge::ALL`): the widget opens it, and sends
    /// `idem:challenge` as its standing changes.
    pub challenge: Option<Value>,
    /// Whether an exercise's entry (`crate::exercise::FIELDS`) was given. Only noted: the
    /// lesson's bundle reads and checks them from the options themselves
    /// (`crate::exercise::from_entries`), so neither their code nor a copy of them is in the
    /// first screen's module.
    pub exercise: bool,
}

impl RawOptions {
    /// The options from an object's entries; an unknown name is an error listing the known.
    pub fn from_entries(
        entries: impl IntoIterator<Item = (String, Value)>,
    ) -> Result<RawOptions, OptionError> {
        let mut raw = RawOptions::default();
        for (name, value) in entries {
            let slot = match name.as_str() {
                "scenario" => &mut raw.scenario,
                "lang" => &mut raw.lang,
                "autoplay" => &mut raw.autoplay,
                "theme" => &mut raw.theme,
                "protections" => &mut raw.protections,
                "compact" => &mut raw.compact,
                "challenge" => &mut raw.challenge,
                _ if FIELDS[7..].contains(&name.as_str()) => {
                    raw.exercise = true;
                    continue;
                }
                _ => return Err(OptionError::UnknownField(name)),
            };
            *slot = Some(value);
        }
        Ok(raw)
    }
}

/// Checked options.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Scenario id.
    pub scenario: String,
    /// Language (English when the asked one has no catalog).
    pub lang: Lang,
    /// Start playing at once.
    pub autoplay: bool,
    /// The colour theme.
    pub theme: Theme,
    /// Protections, when given.
    pub protections: Option<Protections>,
    /// Only the player.
    pub compact: bool,
    /// The challenge to open (its design replaces `scenario` and `protections`).
    pub challenge: Option<Challenge>,
    /// Whether an exercise's entry was given ([`RawOptions::exercise`]).
    pub exercise: bool,
}

impl Options {
    /// The deep-link query the widget opens (with `lang`).
    pub fn query(&self) -> String {
        let link = match self.challenge {
            Some(challenge) => DeepLink::to_challenge(&challenge),
            None => DeepLink {
                protections: self.protections,
                ..DeepLink::to_scenario(&self.scenario)
            },
        };
        format!("{}&lang={}", link.to_query(), self.lang.catalog().tag)
    }
}

/// What is wrong with the options.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionError {
    /// The value is not an object (or a `Map` with a key that is not a string).
    Decode(String),
    /// An option with this name does not exist.
    UnknownField(String),
    /// A field has the wrong type.
    WrongType {
        /// The field.
        field: &'static str,
        /// What it must be.
        expected: &'static str,
    },
    /// A field has a value outside the allowed ones.
    BadValue {
        /// The field.
        field: &'static str,
        /// The value given.
        value: String,
        /// Every allowed value.
        allowed: Vec<&'static str>,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("Idempotency Lab: bad options: ")?;
        match self {
            OptionError::Decode(message) => write!(f, "options must be an object ({message})"),
            OptionError::UnknownField(name) => {
                let allowed: Vec<String> = FIELDS.iter().map(|a| format!("`{a}`")).collect();
                write!(f, "unknown field `{name}`; allowed: {}", allowed.join(", "))
            }
            OptionError::WrongType { field, expected } => {
                write!(f, "`{field}` must be {expected}")
            }
            OptionError::BadValue {
                field,
                value,
                allowed,
            } => {
                let allowed: Vec<String> = allowed.iter().map(|a| format!("`{a}`")).collect();
                write!(
                    f,
                    "`{field}` cannot be `{value}`; allowed: {}",
                    allowed.join(", ")
                )
            }
        }
    }
}

fn text(field: &'static str, v: Option<Value>) -> Result<Option<String>, OptionError> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Text(s)) => Ok(Some(s)),
        Some(_) => Err(OptionError::WrongType {
            field,
            expected: "a string",
        }),
    }
}

fn flag(field: &'static str, v: Option<Value>, default: bool) -> Result<bool, OptionError> {
    match v {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(b),
        Some(_) => Err(OptionError::WrongType {
            field,
            expected: "true or false",
        }),
    }
}

fn one_of(
    field: &'static str,
    value: String,
    allowed: &[&'static str],
) -> Result<&'static str, OptionError> {
    allowed
        .iter()
        .find(|a| **a == value)
        .copied()
        .ok_or_else(|| OptionError::BadValue {
            field,
            value,
            allowed: allowed.to_vec(),
        })
}

/// Checks every option; the first problem is reported with the field and the allowed values.
pub fn validate(raw: RawOptions) -> Result<Options, OptionError> {
    let scenario_given = !matches!(raw.scenario, None | Some(Value::Null));
    let mut scenario = match text("scenario", raw.scenario)? {
        Some(id) => one_of("scenario", id, &Scenario::IDS)?.to_owned(),
        None => Scenario::IDS[0].to_owned(),
    };
    let lang = match text("lang", raw.lang)? {
        Some(tag) => {
            Lang::from_tag(one_of("lang", tag, &Lang::ALL.map(Lang::tag))?).unwrap_or_default()
        }
        None => Lang::En,
    };
    let theme = match text("theme", raw.theme)? {
        Some(t) => {
            Theme::from_name(one_of("theme", t, &Theme::ALL.map(Theme::name))?).unwrap_or_default()
        }
        None => Theme::Auto,
    };
    let protections = match raw.protections {
        None | Some(Value::Null) => None,
        Some(Value::List(items)) => {
            let mut p = Protections::NONE;
            for item in items {
                let name = match item {
                    Value::Text(s) => s,
                    _ => {
                        return Err(OptionError::WrongType {
                            field: "protections",
                            expected: "an array of protection names",
                        })
                    }
                };
                p.set(one_of("protections", name, &Protections::NAMES)?, true);
            }
            Some(p)
        }
        Some(_) => {
            return Err(OptionError::WrongType {
                field: "protections",
                expected: "an array of protection names",
            })
        }
    };
    let challenge = match text("challenge", raw.challenge)? {
        Some(id) => {
            let id = one_of("challenge", id, &Challenge::ALL.map(|c| c.id))?;
            let challenge = Challenge::by_id(id);
            // A challenge plays its own design: another scenario or protections beside it
            // would be silently replaced, so they are refused.
            let design = challenge.map(|c| c.scenario).unwrap_or_default();
            if scenario_given && scenario != design {
                return Err(OptionError::BadValue {
                    field: "scenario",
                    value: scenario,
                    allowed: vec![design],
                });
            }
            if protections.is_some() {
                return Err(OptionError::WrongType {
                    field: "protections",
                    expected: "absent with `challenge` (a challenge plays its own design)",
                });
            }
            scenario = design.to_owned();
            challenge
        }
        None => None,
    };
    Ok(Options {
        challenge,
        scenario,
        lang,
        autoplay: flag("autoplay", raw.autoplay, false)?,
        theme,
        protections,
        compact: flag("compact", raw.compact, true)?,
        exercise: raw.exercise,
    })
}

/// Whether a query string asks for the compact embed (`embed`, `embed=1`).
pub fn embed_param(query: &str) -> bool {
    query
        .trim_start_matches('?')
        .split('&')
        .any(|p| matches!(p, "embed" | "embed=1" | "embed=true"))
}

/// The language a query's `lang` parameter names (English when absent or unknown).
pub fn query_lang(query: &str) -> Lang {
    crate::lang::query_param(query, "lang")
        .and_then(Lang::from_tag)
        .unwrap_or_default()
}

/// The colour theme a query's `theme` parameter names (following the system when absent or
/// unknown; an unknown one is reported by `link_params`).
pub fn query_theme(query: &str) -> Theme {
    crate::lang::query_param(query, "theme")
        .and_then(Theme::from_name)
        .unwrap_or_default()
}

/// The iframe snippet that embeds `url` (already with `embed`).
pub fn iframe_snippet(url: &str, title: &str) -> String {
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"640\" loading=\"lazy\"></iframe>",
        esc(url),
        esc(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Option<Value> {
        Some(Value::Text(s.to_owned()))
    }

    #[test]
    fn good_options_become_a_query() {
        let raw = RawOptions {
            scenario: text("key"),
            lang: text("ru"),
            autoplay: Some(Value::Bool(true)),
            theme: text("dark"),
            protections: Some(Value::List(vec![Value::Text("key".into())])),
            compact: None,
            challenge: None,
            exercise: false,
        };
        let o = validate(raw).expect("valid");
        assert_eq!(o.scenario, "key");
        assert!(o.autoplay && o.compact);
        assert_eq!(o.theme, Theme::Dark);
        assert!(o.query().starts_with("scenario=key&protect=key&lang="));
        assert_eq!(
            validate(RawOptions::default()).expect("defaults").scenario,
            "naive"
        );
    }

    #[test]
    fn bad_values_name_the_field_and_the_allowed_values() {
        let e = validate(RawOptions {
            scenario: text("nope"),
            ..RawOptions::default()
        })
        .expect_err("bad");
        let m = e.to_string();
        assert!(
            m.contains("`scenario`") && m.contains("`nope`") && m.contains("`naive`"),
            "{m}"
        );
        let e = validate(RawOptions {
            theme: text("pink"),
            ..RawOptions::default()
        })
        .expect_err("bad");
        assert!(e
            .to_string()
            .contains("`theme` cannot be `pink`; allowed: `auto`, `light`, `dark`"));
        let e = validate(RawOptions {
            lang: text("de"),
            ..RawOptions::default()
        })
        .expect_err("bad");
        assert!(e.to_string().contains("`lang`"));
        let e = validate(RawOptions {
            protections: Some(Value::List(vec![Value::Text("teleport".into())])),
            ..RawOptions::default()
        })
        .expect_err("bad");
        assert!(e.to_string().contains("`protections` cannot be `teleport`"));
        assert!(e.to_string().contains("`unique-index`"));
        assert_eq!(
            validate(RawOptions {
                autoplay: text("yes"),
                ..RawOptions::default()
            }),
            Err(OptionError::WrongType {
                field: "autoplay",
                expected: "true or false"
            })
        );
        assert!(validate(RawOptions {
            protections: text("key"),
            ..RawOptions::default()
        })
        .is_err());
    }

    #[test]
    fn a_challenge_opens_its_design_and_refuses_another() {
        let o = validate(RawOptions {
            challenge: text("redis-2"),
            ..RawOptions::default()
        })
        .expect("valid");
        assert_eq!(o.challenge.map(|c| c.id), Some("redis-2"));
        assert!(o.query().contains("challenge=redis-2"), "{}", o.query());
        assert!(o.query().starts_with("scenario=key"), "{}", o.query());
        let same = RawOptions {
            challenge: text("redis-2"),
            scenario: text("key"),
            ..RawOptions::default()
        };
        assert!(validate(same).is_ok());
        let e = validate(RawOptions {
            challenge: text("redis-2"),
            scenario: text("naive"),
            ..RawOptions::default()
        })
        .expect_err("another design");
        assert_eq!(
            e.to_string(),
            "Idempotency Lab: bad options: `scenario` cannot be `naive`; allowed: `key`"
        );
        let e = validate(RawOptions {
            challenge: text("redis-3"),
            ..RawOptions::default()
        })
        .expect_err("no such challenge");
        assert!(
            e.to_string()
                .contains("`challenge` cannot be `redis-3`; allowed: `redis-2`"),
            "{e}"
        );
        assert!(validate(RawOptions {
            challenge: text("redis-2"),
            protections: Some(Value::List(vec![])),
            ..RawOptions::default()
        })
        .is_err());
        assert!(validate(RawOptions {
            challenge: Some(Value::Number(2.0)),
            ..RawOptions::default()
        })
        .is_err());
    }

    #[test]
    fn unknown_fields_are_refused_by_name() {
        let raw = RawOptions::from_entries([("theme".to_owned(), Value::Text("dark".into()))])
            .expect("known");
        assert_eq!(raw.theme, text("dark"));
        let e = RawOptions::from_entries([("colour".to_owned(), Value::Text("red".into()))])
            .expect_err("unknown");
        assert_eq!(e, OptionError::UnknownField("colour".into()));
        assert!(e
            .to_string()
            .contains("unknown field `colour`; allowed: `scenario`, `lang`"));
        assert!(e.to_string().ends_with("`faults`, `step`"), "{e}");
        // The exercise's options pass unchecked (only noted) to the lesson's bundle.
        let raw = RawOptions::from_entries([
            ("lock".to_owned(), Value::Text("key".into())),
            ("scenario".to_owned(), Value::Text("key".into())),
            ("budget".to_owned(), Value::Number(9.5)),
        ])
        .expect("known");
        let o = validate(raw).expect("today's options are good");
        assert!(o.exercise);
        let raw = RawOptions::from_entries([("scenario".to_owned(), Value::Text("key".into()))]);
        assert!(!validate(raw.expect("known")).expect("good").exercise);
        assert_eq!(&FIELDS[7..], &crate::exercise::FIELDS[..]);
    }

    #[test]
    fn query_helpers() {
        assert!(embed_param("scenario=key&embed"));
        assert!(embed_param("?embed=1"));
        assert!(!embed_param("scenario=embed"));
        assert_eq!(query_lang("scenario=key"), Lang::En);
        assert_eq!(query_theme("scenario=key&theme=dark&embed"), Theme::Dark);
        assert_eq!(query_theme("theme=pink"), Theme::Auto);
        assert_eq!(query_theme("scenario=key"), Theme::Auto);
    }

    #[test]
    fn the_snippet_escapes_its_attributes() {
        let s = iframe_snippet("https://x/lab/?scenario=key&embed", "A \"lab\"");
        assert!(s.contains("src=\"https://x/lab/?scenario=key&amp;embed\""));
        assert!(s.contains("title=\"A &quot;lab&quot;\"") && s.contains("loading=\"lazy\""));
    }
}
