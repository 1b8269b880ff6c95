//! The catalog files' format: one `key = template` a line, read strictly (a line of another
//! shape, a bad or repeated key or an empty template is refused with its line) and written
//! back the same way.

/// Why a catalog file was refused: the line (from 1) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The line, counted from 1 (0: the file as a whole).
    pub line: usize,
    /// What is wrong, in English (no catalog may be at hand to say it otherwise).
    pub problem: &'static str,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.problem)
        } else {
            write!(f, "line {}: {}", self.line, self.problem)
        }
    }
}

/// Whether `key` is a well-formed key: lower-case ASCII letters, digits and `._-`.
pub fn valid_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b))
}

/// Reads a catalog file: one `key = template` a line; `#` comment lines and blank lines are
/// skipped; a line ending may be `\n` or `\r\n`. Strict: a line of another shape, a bad or
/// repeated key, an empty template or a file without entries is an error naming the line.
pub fn parse(text: &str) -> Result<Vec<(&str, &str)>, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut entries: Vec<(&str, &str)> = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let error = |problem| ParseError {
            line: i + 1,
            problem,
        };
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, template)) = line.split_once(" = ") else {
            return Err(error("expected `key = template`"));
        };
        if !valid_key(key) {
            return Err(error("a key is lower-case letters, digits and . _ -"));
        }
        if template.is_empty() {
            return Err(error("the template is empty"));
        }
        if template.contains('\r') {
            return Err(error("a carriage return inside a template"));
        }
        if entries.iter().any(|(k, _)| *k == key) {
            return Err(error("this key was already given"));
        }
        entries.push((key, template));
    }
    if entries.is_empty() {
        return Err(ParseError {
            line: 0,
            problem: "the file has no entries",
        });
    }
    Ok(entries)
}

/// Writes entries in the format [`parse`] reads (for tools and the round-trip test).
pub fn render(entries: &[(&str, &str)]) -> String {
    entries
        .iter()
        .map(|(k, t)| format!("{k} = {t}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_file_is_refused_with_its_line() {
        let ok = "# comment\r\n\r\nui.a = A = a {x}\r\nui.b = B\n";
        assert_eq!(parse(ok), Ok(vec![("ui.a", "A = a {x}"), ("ui.b", "B")]));
        assert_eq!(parse("\u{feff}ui.a = A"), Ok(vec![("ui.a", "A")]));
        fn line(text: &str) -> Result<usize, usize> {
            parse(text).map(|e| e.len()).map_err(|e| e.line)
        }
        assert_eq!(line("ui.a = A\n<!doctype html>"), Err(2));
        assert_eq!(line("ui.a = A\nui.a = B"), Err(2));
        assert_eq!(line("Ui.a = A"), Err(1));
        assert_eq!(line("ui.a = "), Err(1));
        assert_eq!(line("ui.a=A"), Err(1));
        assert_eq!(line(" = A"), Err(1));
        assert_eq!(line("ui.a = A\rB"), Err(1));
        assert_eq!(line(""), Err(0));
        assert_eq!(line("# only a comment\n\n"), Err(0));
        let message = parse("x\ny").expect_err("bad").to_string();
        assert_eq!(message, "line 1: expected `key = template`");
    }
}

/// The catalog parser reads files from the network: whatever bytes come, it never panics,
/// and what it accepts reads back unchanged.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod fuzz {
    use super::*;
    use proptest::prelude::*;

    fn key() -> impl Strategy<Value = String> {
        "[a-z0-9._-]{1,20}"
    }

    /// Non-empty templates on one line: any characters but line breaks, often `=`, `{`, `#`.
    fn template() -> impl Strategy<Value = String> {
        "[^\r\n]{0,30}( = |\\{n:a\\|b\\}|#|\\u{a0})?[^\r\n]{0,10}x"
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        #[test]
        fn any_text_parses_or_names_a_line(text in "(?s).{0,200}") {
            match parse(&text) {
                Ok(entries) => {
                    prop_assert!(!entries.is_empty());
                    prop_assert!(entries.iter().all(|(k, t)| valid_key(k) && !t.is_empty()));
                }
                Err(e) => prop_assert!(e.line <= text.split('\n').count()),
            }
        }

        #[test]
        fn lines_of_catalog_shape_and_noise_never_panic(
            lines in prop::collection::vec(
                prop_oneof![
                    (key(), template()).prop_map(|(k, t)| format!("{k} = {t}")),
                    "[^\n]{0,40}",
                    Just("# comment".to_owned()),
                    Just(String::new()),
                ],
                0..12,
            )
        ) {
            let text = lines.join("\n");
            let _ = parse(&text);
        }

        #[test]
        fn rendered_entries_read_back(
            pairs in prop::collection::btree_map(key(), template(), 1..12)
        ) {
            let entries: Vec<(&str, &str)> =
                pairs.iter().map(|(k, t)| (k.as_str(), t.as_str())).collect();
            let text = render(&entries);
            prop_assert_eq!(parse(&text), Ok(entries.clone()));
            let crlf = text.replace('\n', "\r\n");
            prop_assert_eq!(parse(&crlf), Ok(entries));
        }
    }
}
