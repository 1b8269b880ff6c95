//! Filling a template: `{name}` placeholders replaced by their values, `{name:form|form|…}`
//! by the plural form a language's rule picks for the value read as a number (grouped by
//! threes as the catalogs write counts), and quotes inside quotes turned to the inner pair.

/// English (CLDR): form 0 "one" for exactly 1, form 1 "other" for everything else.
pub fn plural_en(n: u64) -> usize {
    usize::from(n != 1)
}

/// Russian (CLDR, integers): form 0 "one" (1, 21, 31, … but not 11), form 1 "few" (2–4,
/// 22–24, … but not 12–14), form 2 "many" (0, 5–20, 25–30, …).
pub fn plural_ru(n: u64) -> usize {
    let (d, h) = (n % 10, n % 100);
    if d == 1 && h != 11 {
        0
    } else if (2..=4).contains(&d) && !(12..=14).contains(&h) {
        1
    } else {
        2
    }
}

/// Replaces `{name}` placeholders (English plural rule for `{name:one|other}`); unknown
/// placeholders are left as written.
pub fn fill_template(template: &str, args: &[(&str, String)]) -> String {
    fill_plural(template, args, plural_en)
}

/// `text` read as a whole number, also when its digits are grouped by threes with a comma or a
/// (narrow) no-break space as the catalogs write counts: `1,104,571`, `1 104 571`.
fn whole_number(text: &str) -> Option<u64> {
    let separator = |c: char| matches!(c, ',' | '\u{a0}' | '\u{202f}');
    if !text.contains(separator) {
        return text.parse().ok();
    }
    let mut groups = text.split(separator);
    let first = groups.next()?;
    let grouped = groups.all(|g| g.len() == 3) && (1..=3).contains(&first.len());
    if !grouped {
        return None;
    }
    text.chars()
        .filter(|c| !separator(*c))
        .collect::<String>()
        .parse()
        .ok()
}

/// Replaces `{name}` with its value and `{name:form0|form1|…}` with the form `rule` picks for
/// the value read as a whole number (the last form when there are fewer forms than the rule
/// knows, the placeholder as written when the value is not a number or `name` is unknown).
pub fn fill_plural(template: &str, args: &[(&str, String)], rule: fn(u64) -> usize) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let inner = &after[..close];
                let (name, forms) = match inner.split_once(':') {
                    Some((name, forms)) => (name, Some(forms)),
                    None => (inner, None),
                };
                let value = args.iter().find(|(n, _)| *n == name).map(|(_, v)| v);
                let chosen = match (value, forms) {
                    (Some(v), Some(forms)) => whole_number(v).and_then(|n| {
                        let forms: Vec<&str> = forms.split('|').collect();
                        forms.get(rule(n).min(forms.len() - 1)).copied()
                    }),
                    (Some(v), None) => Some(v.as_str()),
                    (None, _) => None,
                };
                match chosen {
                    // A quoted value inside quotes takes the inner pair: «… „…“ …», “… ‘…’ …”.
                    Some(text) => match out.chars().next_back() {
                        Some('«') => out.extend(text.chars().map(|c| match c {
                            '«' => '„',
                            '»' => '“',
                            c => c,
                        })),
                        Some('“') => out.extend(text.chars().map(|c| match c {
                            '“' => '‘',
                            '”' => '’',
                            c => c,
                        })),
                        _ => out.push_str(text),
                    },
                    None => {
                        out.push('{');
                        out.push_str(inner);
                        out.push('}');
                    }
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::check::placeholders;
    use std::collections::BTreeSet;

    #[test]
    fn fill_replaces_named_placeholders() {
        let args = [("n", "2".to_owned()), ("who", "Alice".to_owned())];
        assert_eq!(fill_template("{who} paid {n}×", &args), "Alice paid 2×");
        assert_eq!(fill_template("{x} stays", &args), "{x} stays");
        assert_eq!(fill_template("open { brace", &args), "open { brace");
        assert_eq!(placeholders("{a} and {b}, {a}"), BTreeSet::from(["a", "b"]));
    }

    #[test]
    fn plurals_follow_each_language_s_rule() {
        let ru = |n: u64| {
            fill_plural(
                "{n} {n:ключ|ключа|ключей}",
                &[("n", n.to_string())],
                plural_ru,
            )
        };
        assert_eq!(ru(1), "1 ключ");
        assert_eq!(ru(2), "2 ключа");
        assert_eq!(ru(5), "5 ключей");
        assert_eq!(ru(11), "11 ключей");
        assert_eq!(ru(12), "12 ключей");
        assert_eq!(ru(21), "21 ключ");
        assert_eq!(ru(22), "22 ключа");
        assert_eq!(ru(0), "0 ключей");
        assert_eq!(ru(111), "111 ключей");
        let en = |n: u64| fill_template("{n} {n:key|keys}", &[("n", n.to_string())]);
        assert_eq!(en(1), "1 key");
        assert_eq!(en(0), "0 keys");
        assert_eq!(en(2), "2 keys");
        assert_eq!(fill_template("{n:a|b}", &[("n", "x".into())]), "{n:a|b}");
    }

    #[test]
    fn a_quoted_value_in_quotes_takes_the_inner_pair() {
        let args = [("x", "значит «сделано»".to_owned())];
        assert_eq!(
            fill_template("нарушено «{x}»", &args),
            "нарушено «значит „сделано“»"
        );
        assert_eq!(
            fill_template("{x}", &args),
            "значит «сделано»",
            "not inside quotes"
        );
        let en = [("x", "means “done”".to_owned())];
        assert_eq!(fill_template("broke “{x}”", &en), "broke “means ‘done’”");
    }

    #[test]
    fn counts_grouped_by_threes_choose_their_plural_form() {
        let ru = |n: &str| {
            fill_plural(
                "{n} {n:прогон|прогона|прогонов}",
                &[("n", n.into())],
                plural_ru,
            )
        };
        assert_eq!(ru("1\u{a0}104\u{a0}571"), "1\u{a0}104\u{a0}571 прогон");
        assert_eq!(ru("2\u{a0}002"), "2\u{a0}002 прогона");
        assert_eq!(ru("12\u{202f}345"), "12\u{202f}345 прогонов");
        let en = |n: &str| fill_template("{n} {n:run|runs}", &[("n", n.into())]);
        assert_eq!(en("1,001"), "1,001 runs");
        assert_eq!(en("1234"), "1234 runs");
        assert_eq!(whole_number("693,685"), Some(693_685));
        // Not a count grouped by threes: the placeholder stays as written.
        for bad in [
            "1,00", "1,0000", ",100", "100,", "1,,000", "1234,567", "1.000", "1 000",
        ] {
            assert_eq!(whole_number(bad), None, "{bad}");
            assert_eq!(en(bad), format!("{bad} {{n:run|runs}}"), "{bad}");
        }
    }
}
