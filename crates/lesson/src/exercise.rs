//! A course author's exercise (issue 43, item 1): what the student may change (`lock`), which
//! parts are shown (`hide`), a fault budget and the fault kinds allowed (`budget`, `kinds`),
//! the stories offered (`stories`), which answer-giving tools a challenge allows (`allow`) and
//! a start state (`faults`, `step`; a link names those as a deep link does).
//!
//! The same names are `mount()` options, attributes of the `<idem-lab>` tag and link
//! parameters. They are read and checked here, purely, by code that only the lesson's bundle
//! reaches (the first screen's module only notes their names in `mount`): a bad one is an
//! [`ExerciseError`] in the words of today's options (the field, what was wrong, what is
//! allowed), which rejects the handle's `ready()` and is shown in the widget, or, in a link,
//! a line of the link notice.

use idem_core::{DeepLink, FaultKind, Protection, Protections, Scenario};

use crate::link_params::ParamProblem;
use crate::options::{OptionError, Value};

/// A bad exercise option: the field, what was wrong, what is allowed. Its own type, worded as
/// [`OptionError`] is (a test pins the two the same), so that the lesson's bundle words it
/// with code of its own: calling `OptionError`'s (the first screen's `mount` words those) from
/// there would take it out of line in the first screen's module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExerciseError {
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

impl ExerciseError {
    /// The field blamed.
    pub fn field(&self) -> &'static str {
        match self {
            ExerciseError::WrongType { field, .. } | ExerciseError::BadValue { field, .. } => field,
        }
    }

    /// The error's words: `Idempotency Lab: bad options: …`, as `mount`'s own.
    pub fn message(&self) -> String {
        let said = match self {
            ExerciseError::WrongType { field, expected } => format!("`{field}` must be {expected}"),
            ExerciseError::BadValue {
                field,
                value,
                allowed,
            } => {
                let mut list = String::new();
                for (i, a) in allowed.iter().enumerate() {
                    if i > 0 {
                        list.push_str(", ");
                    }
                    list.push('`');
                    list.push_str(a);
                    list.push('`');
                }
                format!("`{field}` cannot be `{value}`; allowed: {list}")
            }
        };
        format!("Idempotency Lab: bad options: {said}")
    }
}

impl From<ExerciseError> for OptionError {
    fn from(error: ExerciseError) -> OptionError {
        match error {
            ExerciseError::WrongType { field, expected } => {
                OptionError::WrongType { field, expected }
            }
            ExerciseError::BadValue {
                field,
                value,
                allowed,
            } => OptionError::BadValue {
                field,
                value,
                allowed,
            },
        }
    }
}

/// The exercise's names, as options, attributes and link parameters spell them.
pub const FIELDS: [&str; 8] = [
    "lock", "hide", "budget", "kinds", "stories", "allow", "faults", "step",
];

/// The names a link reads as exercise parameters (`faults` and `step` are the deep link's own).
pub const LINK_FIELDS: [&str; 6] = crate::link_params::EXERCISE_PARAMS;

/// The most faults a budget may allow (a link carries no more).
pub const MAX_BUDGET: u32 = DeepLink::MAX_FAULTS as u32;

/// A part of the widget an exercise may hide. (Named apart from the components that draw
/// them, `Faults`, `Sequence`: the web crate's first-screen key test follows names, and this
/// enum's are read by code on the first screen's side of that test.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WidgetPart {
    /// The story picker.
    Stories,
    /// The protection switches.
    Protections,
    /// The fault buttons and menu.
    FaultMenu,
    /// "Try every failure".
    Explorer,
    /// The nodes' state panels.
    Panels,
    /// The sequence diagram.
    SequenceDiagram,
}

impl WidgetPart {
    /// Every part, in the widget's order.
    pub const ALL: [WidgetPart; 6] = [
        WidgetPart::Stories,
        WidgetPart::Protections,
        WidgetPart::FaultMenu,
        WidgetPart::Explorer,
        WidgetPart::Panels,
        WidgetPart::SequenceDiagram,
    ];

    /// The spelling in `hide`.
    pub const fn name(self) -> &'static str {
        match self {
            WidgetPart::Stories => "stories",
            WidgetPart::Protections => "protections",
            WidgetPart::FaultMenu => "faults",
            WidgetPart::Explorer => "explorer",
            WidgetPart::Panels => "panels",
            WidgetPart::SequenceDiagram => "sequence",
        }
    }
}

/// A tool that would give a challenge's answer away, off in a challenge unless allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// "Try every failure", whose counter-examples are the answer.
    Search,
    /// Other designs: the story picker and the protections.
    Designs,
}

impl Tool {
    /// Every tool.
    pub const ALL: [Tool; 2] = [Tool::Search, Tool::Designs];

    /// The spelling in `allow`.
    pub const fn name(self) -> &'static str {
        match self {
            Tool::Search => "search",
            Tool::Designs => "designs",
        }
    }
}

/// A checked exercise. The default is no exercise: nothing locked, hidden or limited.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exercise {
    /// The switches the student may not flip.
    pub lock: Protections,
    /// The parts not shown.
    pub hide: Vec<WidgetPart>,
    /// At most this many faults (`None`: no limit but the run's).
    pub budget: Option<u32>,
    /// The fault kinds offered (`None`: every kind).
    pub kinds: Option<Vec<FaultKind>>,
    /// The stories offered, scenario ids (`None`: every story).
    pub stories: Option<Vec<&'static str>>,
    /// The answer-giving tools a challenge keeps.
    pub allow: Vec<Tool>,
    /// The start state's faults, in the deep link's spelling (`5.drop.7_9.crash.write-ledger`).
    pub faults: Option<String>,
    /// The start state's step.
    pub step: Option<u32>,
}

impl Exercise {
    /// Whether any option was given.
    pub fn is_set(&self) -> bool {
        *self != Exercise::default()
    }

    /// Whether `part` is shown.
    pub fn shows(&self, part: WidgetPart) -> bool {
        !self.hide.contains(&part)
    }

    /// Whether the student may flip `switch`.
    pub fn may_flip(&self, switch: Protection) -> bool {
        !self.lock.is_on(switch)
    }

    /// Whether the menu offers `kind`.
    pub fn offers(&self, kind: FaultKind) -> bool {
        self.kinds.as_ref().is_none_or(|k| k.contains(&kind))
    }

    /// Whether a challenge keeps `tool`.
    pub fn allows(&self, tool: Tool) -> bool {
        self.allow.contains(&tool)
    }

    /// Whether the student may place one more fault after `used`.
    pub fn within_budget(&self, used: usize) -> bool {
        self.budget.is_none_or(|b| (used as u64) < u64::from(b))
    }

    /// The start state's deep link on `link`'s design (its scenario and protections), when
    /// the exercise names one: `faults` and `step` replace the link's.
    pub fn start(&self, mut link: DeepLink) -> Option<DeepLink> {
        if self.faults.is_none() && self.step.is_none() {
            return None;
        }
        if let Some(f) = &self.faults {
            link.faults = DeepLink::parse(&format!("faults={f}")).ok()?.faults;
        }
        link.step = self.step.or(link.step);
        Some(link)
    }
}

/// The items of a list option: an array of strings, or one string separated by commas (an
/// attribute's and a link's spelling; `.` too in a link). An empty string is an empty list.
#[allow(clippy::manual_pattern_char_comparison)] // (a closure on purpose: see below)
fn items(field: &'static str, value: Value) -> Result<Vec<String>, ExerciseError> {
    let wrong = || ExerciseError::WrongType {
        field,
        expected: "an array of names or a string of names separated by commas",
    };
    match value {
        // (A closure, not `[',', '.']`: that pattern's splitter is the first screen's, in
        // `lang::choose`, and a second caller would take it out of line there.)
        Value::Text(s) => Ok(s
            .split(|c| c == ',' || c == '.')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()),
        Value::List(list) => list
            .into_iter()
            .map(|v| match v {
                Value::Text(s) => Ok(s),
                _ => Err(wrong()),
            })
            .collect(),
        _ => Err(wrong()),
    }
}

/// Each item of `value` as one of `allowed` (by index), or the error naming the first bad one.
fn names(
    field: &'static str,
    value: Value,
    allowed: &[&'static str],
) -> Result<Vec<usize>, ExerciseError> {
    items(field, value)?
        .into_iter()
        .map(|item| {
            allowed
                .iter()
                .position(|a| *a == item)
                .ok_or_else(|| ExerciseError::BadValue {
                    field,
                    value: item,
                    allowed: allowed.to_vec(),
                })
        })
        .collect()
}

/// A whole number from 0 to `max`, as a number or as digits.
fn whole(
    field: &'static str,
    value: Value,
    max: u32,
    expected: &'static str,
) -> Result<u32, ExerciseError> {
    let n = match value {
        Value::Number(n) if n.fract() == 0.0 && (0.0..=f64::from(max)).contains(&n) => {
            Some(n as u32)
        }
        Value::Text(s) => s.trim().parse::<u32>().ok().filter(|n| *n <= max),
        _ => None,
    };
    n.ok_or(ExerciseError::WrongType { field, expected })
}

/// Reads and checks an exercise from its entries (names of [`FIELDS`]; an unknown name is
/// refused, naming the exercise's). The first problem is returned.
pub fn from_entries(
    entries: impl IntoIterator<Item = (String, Value)>,
) -> Result<Exercise, ExerciseError> {
    let mut out = Exercise::default();
    for (name, value) in entries {
        if value == Value::Null {
            continue;
        }
        match name.as_str() {
            "lock" => {
                out.lock = if value == Value::Text("all".into()) {
                    Protections::ALL
                } else {
                    let mut lock = Protections::NONE;
                    for i in names("lock", value, &Protections::NAMES)? {
                        lock.set_on(Protection::ALL[i], true);
                    }
                    lock
                };
            }
            "hide" => {
                let all = WidgetPart::ALL.map(WidgetPart::name);
                out.hide = names("hide", value, &all)?
                    .into_iter()
                    .map(|i| WidgetPart::ALL[i])
                    .collect();
            }
            "budget" => {
                out.budget = Some(whole(
                    "budget",
                    value,
                    MAX_BUDGET,
                    "a whole number of faults from 0 to 64",
                )?);
            }
            "kinds" => {
                let all = FaultKind::ALL.map(FaultKind::name);
                out.kinds = Some(
                    names("kinds", value, &all)?
                        .into_iter()
                        .map(|i| FaultKind::ALL[i])
                        .collect(),
                );
            }
            "stories" => {
                out.stories = Some(
                    names("stories", value, &Scenario::IDS)?
                        .into_iter()
                        .map(|i| Scenario::IDS[i])
                        .collect(),
                );
            }
            "allow" => {
                let all = Tool::ALL.map(Tool::name);
                out.allow = names("allow", value, &all)?
                    .into_iter()
                    .map(|i| Tool::ALL[i])
                    .collect();
            }
            "faults" => {
                let Value::Text(faults) = value else {
                    return Err(ExerciseError::WrongType {
                        field: "faults",
                        expected:
                            "faults as a link spells them, e.g. \"1.drop.3_4.crash.write-ledger\"",
                    });
                };
                if DeepLink::parse(&format!("faults={faults}")).is_err() {
                    return Err(ExerciseError::WrongType {
                        field: "faults",
                        expected:
                            "faults as a link spells them, e.g. \"1.drop.3_4.crash.write-ledger\"",
                    });
                }
                out.faults = Some(faults);
            }
            "step" => {
                out.step = Some(whole(
                    "step",
                    value,
                    DeepLink::MAX_STEP,
                    "a whole number of steps from 0 to 5000",
                )?);
            }
            _ => {
                let allowed: Vec<&'static str> = FIELDS.to_vec();
                return Err(ExerciseError::BadValue {
                    field: "exercise",
                    value: name,
                    allowed,
                });
            }
        }
    }
    Ok(out)
}

/// The exercise a link names ([`LINK_FIELDS`]; its start state is the deep link's own), and
/// each bad parameter as a line of the link notice. A bad parameter is left out, the rest kept.
pub fn from_query(query: &str) -> (Exercise, Vec<ParamProblem>) {
    let mut out = Exercise::default();
    let mut problems = Vec::new();
    if query.len() > DeepLink::MAX_QUERY_LEN {
        return (out, problems);
    }
    let mut seen: Vec<&str> = Vec::new();
    for pair in query.trim_start_matches('?').split('&') {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let Some(name) = LINK_FIELDS.into_iter().find(|f| *f == name) else {
            continue;
        };
        if seen.contains(&name) {
            problems.push(ParamProblem::Repeated(name));
            continue;
        }
        seen.push(name);
        let value = crate::lang::percent_decode(value);
        match from_entries([(name.to_owned(), Value::Text(value.clone()))]) {
            Ok(one) => merge(&mut out, one),
            Err(error) => problems.push(link_problem(name, value, error)),
        }
    }
    (out, problems)
}

/// `one`'s options (one field set) into `out`.
fn merge(out: &mut Exercise, one: Exercise) {
    let Exercise {
        lock,
        hide,
        budget,
        kinds,
        stories,
        allow,
        faults,
        step,
    } = one;
    if lock != Protections::NONE {
        out.lock = lock;
    }
    if !hide.is_empty() {
        out.hide = hide;
    }
    if !allow.is_empty() {
        out.allow = allow;
    }
    out.budget = budget.or(out.budget);
    out.kinds = kinds.or(out.kinds.take());
    out.stories = stories.or(out.stories.take());
    out.faults = faults.or(out.faults.take());
    out.step = step.or(out.step);
}

/// A link's bad exercise parameter in the notice's shape (the value quoted short, as the
/// notice quotes any).
fn link_problem(name: &'static str, value: String, error: ExerciseError) -> ParamProblem {
    let value: String = value.chars().take(40).collect();
    match error {
        ExerciseError::BadValue { value, allowed, .. } => ParamProblem::BadValue {
            name,
            value: value.chars().take(40).collect(),
            allowed,
        },
        _ => ParamProblem::BadValue {
            name,
            value,
            allowed: vec![match name {
                "budget" => "0 … 64",
                _ => "names separated by commas",
            }],
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Value {
        Value::Text(s.to_owned())
    }

    /// One option's exercise; an error is worded exactly as `mount`'s [`OptionError`].
    fn one(name: &str, value: Value) -> Result<Exercise, ExerciseError> {
        let result = from_entries([(name.to_owned(), value)]);
        if let Err(e) = &result {
            assert_eq!(e.message(), OptionError::from(e.clone()).to_string());
        }
        result
    }

    #[test]
    fn no_options_is_no_exercise() {
        let e = from_entries([]).expect("empty");
        assert!(!e.is_set());
        assert!(WidgetPart::ALL.into_iter().all(|p| e.shows(p)));
        assert!(Protection::ALL.into_iter().all(|p| e.may_flip(p)));
        assert!(FaultKind::ALL.into_iter().all(|k| e.offers(k)));
        assert!(e.within_budget(1_000));
        assert!(!e.allows(Tool::Search));
        assert_eq!(e.start(DeepLink::to_scenario("key")), None);
        assert_eq!(
            from_entries([("lock".into(), Value::Null)]),
            Ok(Exercise::default())
        );
    }

    #[test]
    fn lists_read_as_arrays_or_comma_strings() {
        let a = one("lock", Value::List(vec![text("key"), text("lock")])).expect("array");
        let b = one("lock", text("key, lock")).expect("string");
        assert_eq!(a, b);
        assert!(!a.may_flip(Protection::Key) && !a.may_flip(Protection::Lock));
        assert!(a.may_flip(Protection::Cas));
        let all = one("lock", text("all")).expect("all");
        assert!(Protection::ALL.into_iter().all(|p| !all.may_flip(p)));
        let e = one("hide", text("explorer,sequence")).expect("hide");
        assert!(
            !e.shows(WidgetPart::Explorer)
                && !e.shows(WidgetPart::SequenceDiagram)
                && e.shows(WidgetPart::FaultMenu)
        );
        let e = one("kinds", text("crash,drop")).expect("kinds");
        assert!(e.offers(FaultKind::Crash) && !e.offers(FaultKind::Pause));
        let none = one("kinds", text("")).expect("no kinds");
        assert!(FaultKind::ALL.into_iter().all(|k| !none.offers(k)));
        let e = one("stories", Value::List(vec![text("naive"), text("key")])).expect("stories");
        assert_eq!(e.stories, Some(vec!["naive", "key"]));
        let e = one("allow", text("search")).expect("allow");
        assert!(e.allows(Tool::Search) && !e.allows(Tool::Designs));
    }

    #[test]
    fn numbers_read_as_numbers_or_digits() {
        let e = one("budget", Value::Number(2.0)).expect("number");
        assert_eq!(e, one("budget", text("2")).expect("digits"));
        assert!(e.within_budget(1) && !e.within_budget(2));
        assert!(!one("budget", Value::Number(0.0))
            .expect("zero")
            .within_budget(0));
        for bad in [
            Value::Number(2.5),
            Value::Number(-1.0),
            Value::Number(65.0),
            text("two"),
            Value::Bool(true),
        ] {
            let m = one("budget", bad.clone())
                .expect_err("bad budget")
                .message();
            assert_eq!(
                m,
                "Idempotency Lab: bad options: `budget` must be a whole number of faults from 0 to 64",
                "{bad:?}"
            );
        }
        assert_eq!(one("step", Value::Number(4.0)).expect("step").step, Some(4));
        assert!(one("step", Value::Number(5_001.0)).is_err());
    }

    #[test]
    fn bad_values_name_the_field_the_value_and_what_is_allowed() {
        let m = one("lock", text("key,teleport"))
            .expect_err("bad")
            .message();
        assert!(
            m.contains("`lock` cannot be `teleport`; allowed: `key`")
                && m.contains("`unique-index`"),
            "{m}"
        );
        let m = one("hide", text("header")).expect_err("bad").message();
        assert!(
            m.ends_with("`hide` cannot be `header`; allowed: `stories`, `protections`, `faults`, `explorer`, `panels`, `sequence`"),
            "{m}"
        );
        let m = one("kinds", text("meteor")).expect_err("bad").message();
        assert!(
            m.contains("`kinds` cannot be `meteor`") && m.contains("`lose-ack`"),
            "{m}"
        );
        let m = one("stories", text("nope")).expect_err("bad").message();
        assert!(
            m.contains("`stories` cannot be `nope`") && m.contains("`naive`"),
            "{m}"
        );
        let m = one("allow", text("answers")).expect_err("bad").message();
        assert!(
            m.ends_with("`allow` cannot be `answers`; allowed: `search`, `designs`"),
            "{m}"
        );
        let m = one("lock", Value::Number(1.0)).expect_err("bad").message();
        assert!(m.contains("`lock` must be an array of names"), "{m}");
        let m = one("lock", Value::List(vec![Value::Bool(true)]))
            .expect_err("bad")
            .message();
        assert!(m.contains("`lock` must be an array"), "{m}");
        let m = one("faults", text("1.meteor.3"))
            .expect_err("bad")
            .message();
        assert!(
            m.contains("`faults` must be faults as a link spells them"),
            "{m}"
        );
        let m = one("colour", text("red")).expect_err("unknown").message();
        assert!(
            m.contains("`exercise` cannot be `colour`; allowed: `lock`, `hide`"),
            "{m}"
        );
    }

    #[test]
    fn a_start_state_replaces_the_links_faults_and_step() {
        let e = from_entries([
            ("faults".to_owned(), text("1.lose-ack")),
            ("step".to_owned(), Value::Number(3.0)),
        ])
        .expect("start");
        let link = DeepLink::to_scenario("key");
        let start = e.start(link.clone()).expect("a start state");
        assert_eq!(start.scenario, "key");
        assert_eq!(start.step, Some(3));
        assert_eq!(start.faults.len(), 1);
        assert!(
            start.to_query().contains("faults=1.lose-ack"),
            "{}",
            start.to_query()
        );
        let only_step = one("step", Value::Number(0.0))
            .expect("step")
            .start(link)
            .expect("start");
        assert_eq!((only_step.faults.len(), only_step.step), (0, Some(0)));
    }

    #[test]
    fn a_link_names_the_exercise_and_reports_each_bad_parameter() {
        let (e, problems) = from_query(
            "?scenario=key&lock=key.lock&hide=explorer%2Csequence&budget=2&kinds=crash&embed",
        );
        assert_eq!(problems, vec![]);
        assert!(!e.may_flip(Protection::Key) && !e.may_flip(Protection::Lock));
        assert!(!e.shows(WidgetPart::Explorer) && !e.shows(WidgetPart::SequenceDiagram));
        assert_eq!(e.budget, Some(2));
        assert_eq!(e.kinds, Some(vec![FaultKind::Crash]));
        let (e, problems) = from_query("lock=teleport&budget=lots&hide=explorer&hide=faults");
        assert_eq!(
            e.hide,
            vec![WidgetPart::Explorer],
            "good parameters are kept"
        );
        assert_eq!(e.lock, Protections::NONE);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            matches!(&problems[0], ParamProblem::BadValue { name: "lock", value, allowed } if value == "teleport" && allowed.contains(&"key"))
        );
        assert!(
            matches!(&problems[1], ParamProblem::BadValue { name: "budget", value, .. } if value == "lots")
        );
        assert_eq!(problems[2], ParamProblem::Repeated("hide"));
        let (e, problems) = from_query("scenario=key&faults=1.lose-ack&step=3");
        assert!(
            !e.is_set() && problems.is_empty(),
            "faults and step are the deep link's"
        );
    }
}
