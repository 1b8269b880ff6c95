//! Minimal, escaped markup building for the read-only parts of the page (panels, node cards,
//! the sequence diagram). Rendering these as one string per part keeps the wasm small: typed
//! view trees are generated per shape, a string is just bytes. Pure and tested natively.

/// Markup that is safe to hand to `inner_html`: every text in it was escaped on the way in.
///
/// The only ways to make one are [`SafeHtml::text`] (escapes), [`el`] (escapes its text),
/// [`void`], [`wrap`] and [`table`] (built from other `SafeHtml` and escaped cells),
/// [`SafeHtml::markup`] (a `&'static str` written in this crate's source) and joining
/// `SafeHtml`s; there is no conversion from `String`. Attributes are passed as markup built by
/// code from constants and numbers, with any text value put through [`esc`]. It is the only
/// value the page gives to `inner_html` (it implements tachys' `InnerHtmlValue`), and
/// the web crate's `mount` is the only other place that writes HTML into the DOM.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct SafeHtml(String);

impl SafeHtml {
    /// Text shown as text: the five HTML special characters escaped.
    pub fn text(text: &str) -> Self {
        SafeHtml(esc(text))
    }

    /// Fixed markup written in the source (no data in it).
    pub fn markup(markup: &'static str) -> Self {
        SafeHtml(markup.to_owned())
    }

    /// Appends `more`.
    pub fn push_str(&mut self, more: &SafeHtml) {
        self.0.push_str(&more.0);
    }

    /// The markup.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for SafeHtml {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for SafeHtml {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<&str> for SafeHtml {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl std::ops::Add for SafeHtml {
    type Output = SafeHtml;
    fn add(mut self, more: SafeHtml) -> SafeHtml {
        self.0.push_str(&more.0);
        self
    }
}

impl std::ops::AddAssign for SafeHtml {
    fn add_assign(&mut self, more: SafeHtml) {
        self.0.push_str(&more.0);
    }
}

impl FromIterator<SafeHtml> for SafeHtml {
    fn from_iter<I: IntoIterator<Item = SafeHtml>>(parts: I) -> Self {
        let mut out = SafeHtml::default();
        for part in parts {
            out += part;
        }
        out
    }
}

/// Leptos's view traits for `SafeHtml` (the web crate turns the `leptos` feature on).
#[cfg(feature = "leptos")]
mod as_leptos_value {
    use super::SafeHtml;

    /// `SafeHtml` as an `inner_html` value: the same as its `String` (only the type differs).
    impl leptos::tachys::html::element::InnerHtmlValue for SafeHtml {
        type AsyncOutput = Self;
        type State = <String as leptos::tachys::html::element::InnerHtmlValue>::State;
        type Cloneable = Self;
        type CloneableOwned = Self;

        fn html_len(&self) -> usize {
            self.0.len()
        }

        fn to_html(self, buf: &mut String) {
            buf.push_str(&self.0);
        }

        fn to_template(_buf: &mut String) {}

        fn hydrate<const FROM_SERVER: bool>(
            self,
            el: &leptos::tachys::renderer::types::Element,
        ) -> Self::State {
            leptos::tachys::html::element::InnerHtmlValue::hydrate::<FROM_SERVER>(self.0, el)
        }

        fn build(self, el: &leptos::tachys::renderer::types::Element) -> Self::State {
            leptos::tachys::html::element::InnerHtmlValue::build(self.0, el)
        }

        fn rebuild(self, state: &mut Self::State) {
            leptos::tachys::html::element::InnerHtmlValue::rebuild(self.0, state)
        }

        fn into_cloneable(self) -> Self {
            self
        }

        fn into_cloneable_owned(self) -> Self {
            self
        }

        fn dry_resolve(&mut self) {}

        async fn resolve(self) -> Self {
            self
        }
    }

    /// Needed by the `view!` macro, which passes `inner_html` values (and closures returning
    /// them) through `IntoAttributeValue`; as a plain attribute it is its markup as text.
    impl leptos::tachys::html::attribute::AttributeValue for SafeHtml {
        type AsyncOutput = Self;
        type State = <String as leptos::tachys::html::attribute::AttributeValue>::State;
        type Cloneable = Self;
        type CloneableOwned = Self;

        fn html_len(&self) -> usize {
            self.0.len()
        }

        fn to_html(self, key: &str, buf: &mut String) {
            leptos::tachys::html::attribute::AttributeValue::to_html(self.0, key, buf)
        }

        fn to_template(_key: &str, _buf: &mut String) {}

        fn hydrate<const FROM_SERVER: bool>(
            self,
            key: &str,
            el: &leptos::tachys::renderer::types::Element,
        ) -> Self::State {
            leptos::tachys::html::attribute::AttributeValue::hydrate::<FROM_SERVER>(self.0, key, el)
        }

        fn build(self, el: &leptos::tachys::renderer::types::Element, key: &str) -> Self::State {
            leptos::tachys::html::attribute::AttributeValue::build(self.0, el, key)
        }

        fn rebuild(self, key: &str, state: &mut Self::State) {
            leptos::tachys::html::attribute::AttributeValue::rebuild(self.0, key, state)
        }

        fn into_cloneable(self) -> Self {
            self
        }

        fn into_cloneable_owned(self) -> Self {
            self
        }

        fn dry_resolve(&mut self) {}

        async fn resolve(self) -> Self {
            self
        }
    }
}

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

/// The opening tag `<tag attrs>`; `attrs` is markup built by code (text values through
/// [`esc`]), so it holds no tag delimiters.
fn open(tag: &str, attrs: &str) -> String {
    debug_assert!(
        !attrs.contains(['<', '>']),
        "attributes with a tag in them: {attrs}"
    );
    let space = if attrs.is_empty() { "" } else { " " };
    format!("<{tag}{space}{attrs}>")
}

/// An element with escaped text content: `<tag attrs>text</tag>`.
pub fn el(tag: &str, attrs: &str, text: &str) -> SafeHtml {
    SafeHtml(format!("{}{}</{tag}>", open(tag, attrs), esc(text)))
}

/// An element without content (`<line …/>`, SVG).
pub fn void(tag: &str, attrs: &str) -> SafeHtml {
    let mut out = open(tag, attrs);
    out.insert(out.len() - 1, '/');
    SafeHtml(out)
}

/// An element around other safe markup.
pub fn wrap(tag: &str, attrs: &str, inner: &SafeHtml) -> SafeHtml {
    SafeHtml(format!("{}{}</{tag}>", open(tag, attrs), inner.0))
}

/// A table: a header row and body rows of escaped cells; a cell starting with `#` is
/// right-aligned (numbers), the `#` itself is not shown.
pub fn table(class: &str, head: &[&str], rows: &[Vec<String>]) -> SafeHtml {
    let cell = |tag: &str, text: &str| match text.strip_prefix('#') {
        Some(number) => el(tag, "class=\"num\"", number),
        None => el(tag, "", text),
    };
    let head: SafeHtml = head.iter().map(|h| cell("th", h)).collect();
    let body: SafeHtml = rows
        .iter()
        .map(|r| wrap("tr", "", &r.iter().map(|c| cell("td", c)).collect()))
        .collect();
    table_of(class, head, body)
}

/// A table whose body cells are markup already (a cell with a link in it); the header's
/// cells are escaped text.
pub fn table_html(class: &str, head: &[&str], rows: &[Vec<SafeHtml>]) -> SafeHtml {
    let head: SafeHtml = head.iter().map(|h| el("th", "", h)).collect();
    let body: SafeHtml = rows
        .iter()
        .map(|r| {
            wrap(
                "tr",
                "",
                &r.iter().map(|c| wrap("td", "", c)).collect::<SafeHtml>(),
            )
        })
        .collect();
    table_of(class, head, body)
}

fn table_of(class: &str, head: SafeHtml, body: SafeHtml) -> SafeHtml {
    wrap(
        "table",
        &format!("class=\"table {}\"", esc(class)),
        &(wrap("thead", "", &wrap("tr", "", &head)) + wrap("tbody", "", &body)),
    )
}

/// `n` with `sep` between its groups of three digits: `grouped(1_104_571, ",")` is `1,104,571`.
pub fn grouped(n: u64, sep: &str) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 * sep.len());
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push_str(sep);
        }
        out.push(d);
    }
    out
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

    #[test]
    fn digits_are_grouped_by_threes() {
        assert_eq!(grouped(0, ","), "0");
        assert_eq!(grouped(999, ","), "999");
        assert_eq!(grouped(1_000, ","), "1,000");
        assert_eq!(grouped(1_104_571, "\u{a0}"), "1\u{a0}104\u{a0}571");
        assert_eq!(grouped(u64::MAX, ","), "18,446,744,073,709,551,615");
    }
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
        assert_eq!(wrap("ul", "", &el("li", "", "x")), "<ul><li>x</li></ul>");
        assert_eq!(void("line", "x1=\"1\""), "<line x1=\"1\"/>");
        assert_eq!(
            SafeHtml::text("<i>") + SafeHtml::markup("<br>"),
            "&lt;i&gt;<br>"
        );
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
