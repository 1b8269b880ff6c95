//! The ADR's cost calculator: RPS, key TTL, record size and the client's retry window in;
//! live records, memory, the cost of one more hour and the TTL trade-off (an SVG plot) out.
//! The arithmetic and validation are `idem_core::cost`'s; this file only formats and draws.
//! A bad field shows a message under it (its name and allowed range), never NaN.

use idem_core::cost::{curve, parse_field, CostError, CostField, CostInput, CostOutput};
use idem_core::{Node, Protections, Story};

use crate::i18n::Catalog;
use crate::markup::{el, esc, num, void, wrap, SafeHtml};

/// Where the calculator stands for the design on screen (issue 42, item 5): it prices stored
/// keys, so it belongs where keys are, and says so where they are not yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CalcPlace {
    /// The design stores keys: the calculator prices them.
    Keys,
    /// A payment story whose design stores no key (story 1, or the key switched off): the
    /// calculator stays, with a line on why (what the key would cost here).
    NoKeyYet,
    /// A story with no key store at all (compare-and-set, the counter): the version or the op_id
    /// costs no store, so the calculator is not shown.
    NoStore,
}

impl CalcPlace {
    /// The place for a design of `story`: from the story's nodes (whether it has a key store)
    /// and the design's key switch.
    pub fn of(story: Story, design: &Protections) -> CalcPlace {
        if !story.nodes().contains(&Node::Store) {
            CalcPlace::NoStore
        } else if design.idempotency_key {
            CalcPlace::Keys
        } else {
            CalcPlace::NoKeyYet
        }
    }
}

/// `x` with `decimals` digits after the catalog's decimal mark (trailing zeros dropped) and
/// the catalog's thousands separator.
pub fn decimal(x: f64, decimals: u32, catalog: &Catalog) -> String {
    let scale = 10f64.powi(decimals as i32);
    let scaled = (x.abs() * scale).round() as u64;
    let whole = scaled / scale as u64;
    let frac = scaled % scale as u64;
    let mut out = String::new();
    if x < 0.0 && scaled > 0 {
        out.push('-');
    }
    out.push_str(&digit_groups(whole, catalog));
    if frac > 0 {
        let frac = format!("{frac:0width$}", width = decimals as usize);
        out.push_str(&catalog.text("calc.decimal"));
        out.push_str(frac.trim_end_matches('0'));
    }
    out
}

/// `n` with the catalog's thousands separator: `1,104,571` in English, `1 104 571` in Russian.
pub fn digit_groups(n: u64, catalog: &Catalog) -> String {
    crate::markup::grouped(n, &catalog.text("calc.thousands"))
}

/// `x` scaled by powers of 1000 with one of `units` (smallest first), three significant
/// digits at most: `864 M`, `172.8 GB`.
fn scaled(x: f64, units: &[&str], catalog: &Catalog) -> String {
    let mut value = x;
    let mut unit = 0;
    while value >= 999.95 && unit + 1 < units.len() {
        value /= 1000.0;
        unit += 1;
    }
    let decimals = if unit == 0 { 0 } else { 1 };
    let number = decimal(value, decimals, catalog);
    if units[unit].is_empty() {
        number
    } else {
        format!("{number}\u{a0}{}", catalog.text(units[unit]))
    }
}

/// A count in words people read: `864,000,000 (≈ 864 M)`.
pub fn count_text(x: f64, catalog: &Catalog) -> String {
    let exact = decimal(x, 0, catalog);
    if x < 1000.0 {
        return exact;
    }
    let short = scaled(
        x,
        &[
            "",
            "unit.thousand",
            "unit.million",
            "unit.billion",
            "unit.trillion",
        ],
        catalog,
    );
    format!("{exact} (≈ {short})")
}

/// Bytes in decimal units: `172.8 GB`, `1.2 TB`.
pub fn bytes_text(bytes: f64, catalog: &Catalog) -> String {
    scaled(
        bytes,
        &[
            "unit.b", "unit.kb", "unit.mb", "unit.gb", "unit.tb", "unit.pb",
        ],
        catalog,
    )
}

/// The field's name in the current language.
pub fn field_key(field: CostField) -> &'static str {
    match field {
        CostField::Rps => "calc.rps",
        CostField::TtlHours => "calc.ttl",
        CostField::RecordBytes => "calc.size",
        CostField::RetryWindowHours => "calc.window",
    }
}

/// Why a field was refused, with its name and allowed range.
pub fn error_text(error: &CostError, catalog: &Catalog) -> String {
    let (field, key) = match error {
        CostError::NotANumber(f) => (*f, "calc.not_a_number"),
        CostError::OutOfRange(f) => (*f, "calc.out_of_range"),
    };
    let (low, high) = field.range();
    catalog.fill(
        key,
        &[
            ("name", catalog.text(field_key(field))),
            ("min", decimal(low, 2, catalog)),
            ("max", decimal(high, 2, catalog)),
        ],
    )
}

/// The figures as a definition list, then whether the TTL outlasts the retry window, in the
/// fields' own numbers (the window is the student's, not a fixed 1 h).
pub fn figures_html(input: &CostInput, out: &CostOutput, catalog: &Catalog) -> SafeHtml {
    let item = |key: &str, test_id: &str, value: String| {
        wrap(
            "div",
            "",
            &(el("dt", "", &catalog.text(key))
                + el("dd", &format!("data-testid=\"{test_id}\""), &value)),
        )
    };
    let hours = [
        ("ttl", decimal(input.ttl_hours, 2, catalog)),
        ("window", decimal(input.retry_window_hours, 2, catalog)),
    ];
    let (class, key) = if out.window_covered {
        ("ok", "calc.covered")
    } else {
        ("bad", "calc.uncovered")
    };
    let covered = el(
        "p",
        &format!("class=\"calc-note {class}\" data-testid=\"calc-window-note\""),
        &catalog.fill(key, &hours),
    );
    let figures = [
        item(
            "calc.records",
            "calc-records",
            count_text(out.live_records, catalog),
        ),
        item(
            "calc.memory",
            "calc-memory",
            bytes_text(out.memory_bytes, catalog),
        ),
        item(
            "calc.per_hour",
            "calc-per-hour",
            bytes_text(out.bytes_per_hour, catalog),
        ),
    ]
    .into_iter()
    .collect();
    wrap("dl", "class=\"calc-figures\"", &figures) + covered + latency_html(catalog)
}

/// What the keys add to each request's latency, in the model's terms: its store round-trips
/// times a LAN round-trip.
pub fn latency_html(catalog: &Catalog) -> SafeHtml {
    el(
        "p",
        "class=\"calc-note\" data-testid=\"calc-latency\"",
        &catalog.fill(
            "calc.latency",
            &[
                ("trips", idem_core::cost::STORE_ROUND_TRIPS.to_string()),
                ("rtt", decimal(idem_core::cost::REDIS_RTT_MS, 1, catalog)),
                (
                    "ms",
                    decimal(idem_core::cost::added_latency_ms(), 1, catalog),
                ),
            ],
        ),
    ) + el(
        "p",
        "class=\"calc-note\" data-testid=\"calc-adr-estimate\"",
        &catalog.text("calc.adr_estimate"),
    )
}

/// Memory against TTL: the line, the chosen TTL marked, and the TTLs shorter than the retry
/// window shaded ("TTL this short: a late retry charges again").
pub fn plot_svg(input: &CostInput, out: &CostOutput, catalog: &Catalog) -> SafeHtml {
    const W: f64 = 320.0;
    const H: f64 = 180.0;
    const L: f64 = 12.0;
    const R: f64 = 12.0;
    const T: f64 = 22.0;
    const B: f64 = 34.0;
    let Ok(points) = curve(input, 2) else {
        return SafeHtml::default();
    };
    let span = points.last().map_or(1.0, |p| p.0).max(f64::MIN_POSITIVE);
    let top = points.last().map_or(1.0, |p| p.1).max(1.0);
    let x = |h: f64| L + (W - L - R) * (h / span);
    let y = |b: f64| H - B - (H - T - B) * (b / top);
    let mut svg = SafeHtml::default();
    let window = input.retry_window_hours.min(span);
    if window > 0.0 {
        svg.push_str(&void(
            "rect",
            &format!(
                "class=\"late\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
                num(L),
                num(T),
                num(x(window) - L),
                num(H - T - B)
            ),
        ));
        svg.push_str(&el(
            "text",
            &format!(
                "class=\"late-label\" x=\"{}\" y=\"{}\"",
                num(L + 3.0),
                num(T - 6.0)
            ),
            &catalog.text("calc.late"),
        ));
    }
    let (l, r, t, b) = (num(L), num(W - R), num(T), num(H - B));
    svg.push_str(&void(
        "line",
        &format!("class=\"axis\" x1=\"{l}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\""),
    ));
    svg.push_str(&void(
        "line",
        &format!("class=\"axis\" x1=\"{l}\" y1=\"{t}\" x2=\"{l}\" y2=\"{b}\""),
    ));
    let path: Vec<String> = points
        .iter()
        .map(|(h, b)| format!("{},{}", num(x(*h)), num(y(*b))))
        .collect();
    svg.push_str(&void(
        "polyline",
        &format!("class=\"cost\" points=\"{}\"", path.join(" ")),
    ));
    let (mx, my) = (x(input.ttl_hours), y(out.memory_bytes));
    let (mx_at, my_at) = (num(mx), num(my));
    svg.push_str(&void(
        "line",
        &format!("class=\"chosen\" x1=\"{mx_at}\" y1=\"{my_at}\" x2=\"{mx_at}\" y2=\"{b}\""),
    ));
    svg.push_str(&void(
        "circle",
        &format!("class=\"chosen\" cx=\"{mx_at}\" cy=\"{my_at}\" r=\"4\""),
    ));
    let anchor = if mx > W / 2.0 { "end" } else { "start" };
    let dx = if mx > W / 2.0 { -7.0 } else { 7.0 };
    svg.push_str(&el(
        "text",
        &format!(
            "class=\"chosen-label\" x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\"",
            num(mx + dx),
            num(my + 4.0)
        ),
        &format!(
            "{} · {}",
            catalog.text("calc.chosen"),
            bytes_text(out.memory_bytes, catalog)
        ),
    ));
    for (h, anchor) in [(0.0, "start"), (span / 2.0, "middle"), (span, "end")] {
        svg.push_str(&el(
            "text",
            &format!(
                "class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\"",
                num(x(h)),
                num(H - B + 14.0)
            ),
            &decimal(h, 1, catalog),
        ));
    }
    svg.push_str(&el(
        "text",
        &format!(
            "class=\"axis-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\"",
            num(W / 2.0),
            num(H - 4.0)
        ),
        &catalog.text("calc.axis_ttl"),
    ));
    wrap(
        "svg",
        &format!(
            "class=\"calc-plot\" data-testid=\"calc-plot\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\"",
            W as u32,
            H as u32,
            esc(&catalog.text("calc.plot"))
        ),
        &svg,
    )
}

/// Reads the four fields: the input, or each field's error.
pub fn read_fields(texts: [&str; 4]) -> Result<CostInput, Vec<CostError>> {
    let fields = [
        CostField::Rps,
        CostField::TtlHours,
        CostField::RecordBytes,
        CostField::RetryWindowHours,
    ];
    let mut values = [0.0; 4];
    let mut errors = Vec::new();
    for (i, field) in fields.into_iter().enumerate() {
        match parse_field(field, texts[i]) {
            Ok(v) => values[i] = v,
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(CostInput {
        rps: values[0],
        ttl_hours: values[1],
        record_bytes: values[2],
        retry_window_hours: values[3],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use idem_core::cost::estimate;

    #[test]
    fn the_calculator_stands_where_keys_are_stored() {
        use idem_core::Scenario;
        let place = |id: &str| {
            let s = Scenario::by_id(id).expect("scenario");
            CalcPlace::of(s.story, &s.protections)
        };
        assert_eq!(place("key"), CalcPlace::Keys);
        assert_eq!(place("fully-protected"), CalcPlace::Keys);
        assert_eq!(place("naive"), CalcPlace::NoKeyYet);
        for id in ["cas", "cas-naive", "cas-race", "counter", "counter-naive"] {
            assert_eq!(place(id), CalcPlace::NoStore, "{id}");
        }
        // The student's switch counts: the key off in story 2 stores nothing.
        let off = Protections {
            idempotency_key: false,
            ..Protections::SEED_KEY
        };
        assert_eq!(
            CalcPlace::of(Story::IdempotencyKey, &off),
            CalcPlace::NoKeyYet
        );
        for lang in [Lang::En, Lang::Ru] {
            assert!(lang.catalog().text("calc.no_key").len() > 40, "{lang:?}");
        }
    }

    /// Defect 8: the latency the keys add is the model's round-trips, not a guessed percentage.
    #[test]
    fn the_added_latency_is_the_model_s_round_trips() {
        let en = latency_html(Lang::En.catalog());
        assert!(en.contains("2 round-trips × 0.2 ms ≈ 0.4 ms"), "{en}");
        let ru = latency_html(Lang::Ru.catalog());
        assert!(ru.contains("2 обращения × 0,2 мс ≈ 0,4 мс"), "{ru}");
        // The seed ADR's +30–50 % is shown, as the ADR's estimate, after what the model does.
        for (html, label) in [
            (en, "ADR’s estimate, not a measurement"),
            (ru, "оценка ADR, а не измерение"),
        ] {
            let (model, adr) = html
                .split_once("calc-adr-estimate")
                .expect("the ADR's line");
            assert!(model.contains("calc-latency"), "{html}");
            assert!(adr.contains("+30–50 %") && adr.contains(label), "{html}");
        }
    }

    #[test]
    fn the_adr_defaults_read_as_864_million_and_172_gb() {
        let en = Lang::En.catalog();
        let out = estimate(&CostInput::default()).expect("valid");
        assert_eq!(
            count_text(out.live_records, en),
            "864,000,000 (≈ 864\u{a0}M)"
        );
        assert_eq!(bytes_text(out.memory_bytes, en), "172.8\u{a0}GB");
        assert_eq!(bytes_text(out.bytes_per_hour, en), "7.2\u{a0}GB");
        let ru = Lang::Ru.catalog();
        assert_eq!(bytes_text(out.memory_bytes, ru), "172,8\u{a0}ГБ");
        assert!(count_text(out.live_records, ru).contains("млн"));
    }

    #[test]
    fn numbers_format_in_both_languages() {
        let en = Lang::En.catalog();
        assert_eq!(decimal(10_000.0, 2, en), "10,000");
        assert_eq!(decimal(0.01, 2, en), "0.01");
        assert_eq!(decimal(1.5, 2, en), "1.5");
        assert_eq!(bytes_text(200.0, en), "200\u{a0}B");
        assert_eq!(bytes_text(1.5e12, en), "1.5\u{a0}TB");
        assert_eq!(count_text(500.0, en), "500");
        assert_eq!(
            decimal(1_000_000.0, 2, Lang::Ru.catalog()),
            "1\u{a0}000\u{a0}000"
        );
    }

    #[test]
    fn bad_fields_name_themselves_and_their_range() {
        let en = Lang::En.catalog();
        let errors = read_fields(["ten", "24", "0", "1"]).expect_err("two bad fields");
        assert_eq!(errors.len(), 2);
        let text = error_text(&errors[0], en);
        assert!(
            text.contains("Requests per second") && text.contains("10,000,000"),
            "{text}"
        );
        let text = error_text(&errors[1], en);
        assert!(
            text.contains("Record size") && text.contains("16"),
            "{text}"
        );
        assert!(!text.contains("NaN"));
        assert!(read_fields(["10 000", "24", "200", "1"]).is_ok());
    }

    #[test]
    fn the_plot_shades_the_late_region_and_marks_the_ttl() {
        let en = Lang::En.catalog();
        let input = CostInput {
            ttl_hours: 0.5,
            ..CostInput::default()
        };
        let out = estimate(&input).expect("valid");
        let svg = plot_svg(&input, &out, en);
        assert!(svg.contains("data-testid=\"calc-plot\""));
        assert!(svg.contains("class=\"late\""), "{svg}");
        assert!(svg.contains("TTL this short: a late retry charges again"));
        assert!(svg.contains("<circle class=\"chosen\""));
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
        let html = figures_html(&input, &out, en);
        assert!(html.contains("calc-note bad"), "{html}");
    }

    /// Issue 41: the note named a fixed "Client retry deadline (1 h)" whatever the window
    /// field said, and a TTL equal to the window counted as outlasting it.
    #[test]
    fn the_window_note_speaks_of_the_fields_own_hours() {
        let en = Lang::En.catalog();
        let input = CostInput {
            ttl_hours: 24.0,
            retry_window_hours: 12.0,
            ..CostInput::default()
        };
        let html = figures_html(&input, &estimate(&input).expect("valid"), en);
        assert!(html.contains("calc-note ok"), "{html}");
        assert!(html.contains("12 h") && !html.contains("(1 h)"), "{html}");
        let equal = CostInput {
            retry_window_hours: 24.0,
            ..input
        };
        let html = figures_html(&equal, &estimate(&equal).expect("valid"), en);
        assert!(html.contains("calc-note bad"), "{html}");
        let ru = Lang::Ru.catalog();
        let html = figures_html(&input, &estimate(&input).expect("valid"), ru);
        assert!(html.contains("12 ч"), "{html}");
    }
}
