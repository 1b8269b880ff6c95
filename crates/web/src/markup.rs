//! Minimal, escaped markup building for the read-only parts of the page (panels, node cards,
//! the sequence diagram). Rendering these as one string per part keeps the wasm small: typed
//! view trees are generated per shape, a string is just bytes. Pure and tested natively.

/// `text` with the five HTML special characters escaped, safe in text and quoted attributes.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// An element with escaped text content: `<tag attrs>text</tag>`. `attrs` is trusted markup.
pub fn el(tag: &str, attrs: &str, text: &str) -> String {
    let space = if attrs.is_empty() { "" } else { " " };
    format!("<{tag}{space}{attrs}>{}</{tag}>", esc(text))
}

/// An element around already-built markup.
pub fn wrap(tag: &str, attrs: &str, inner: &str) -> String {
    let space = if attrs.is_empty() { "" } else { " " };
    format!("<{tag}{space}{attrs}>{inner}</{tag}>")
}

/// A table: a header row and body rows of escaped cells; a cell starting with `#` is
/// right-aligned (numbers), the `#` itself is not shown.
pub fn table(class: &str, head: &[&str], rows: &[Vec<String>]) -> String {
    let cell = |tag: &str, text: &str| match text.strip_prefix('#') {
        Some(number) => el(tag, "class=\"num\"", number),
        None => el(tag, "", text),
    };
    let head: String = head.iter().map(|h| cell("th", h)).collect();
    let body: String = rows
        .iter()
        .map(|r| {
            wrap(
                "tr",
                "",
                &r.iter().map(|c| cell("td", c)).collect::<String>(),
            )
        })
        .collect();
    format!(
        "<table class=\"table {class}\"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )
}

/// A number for an SVG attribute, rounded to one decimal (short, and no float formatting
/// machinery beyond integers).
pub fn num(v: f64) -> String {
    let tenths = (v * 10.0).round() as i64;
    let sign = if tenths < 0 { "-" } else { "" };
    let t = tenths.unsigned_abs();
    if t.is_multiple_of(10) {
        format!("{sign}{}", t / 10)
    } else {
        format!("{sign}{}.{}", t / 10, t % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(
            esc("<b>\"x\" & 'y'</b>"),
            "&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/b&gt;"
        );
        assert_eq!(
            el("p", "class=\"a\"", "1 < 2"),
            "<p class=\"a\">1 &lt; 2</p>"
        );
        assert_eq!(wrap("ul", "", "<li>x</li>"), "<ul><li>x</li></ul>");
    }

    #[test]
    fn tables_align_numbers() {
        let t = table("t", &["a", "#b"], &[vec!["x<".into(), "#12".into()]]);
        assert_eq!(
            t,
            "<table class=\"table t\"><thead><tr><th>a</th><th class=\"num\">b</th></tr></thead>\
             <tbody><tr><td>x&lt;</td><td class=\"num\">12</td></tr></tbody></table>"
        );
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.34), "12.3");
        assert_eq!(num(-0.25), "-0.3");
        assert_eq!(num(-3.0), "-3");
    }
}
