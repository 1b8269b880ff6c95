//! The cost calculator's arithmetic and its reading of the fields, pinned by value: each
//! field's range, the decimal reader's edges (digits past the 19th, exponents, signs), the
//! latency the keys add and the plotted curve. (The page formats what these give; the figures
//! themselves are checked here, where the calculator's code is.)

use idem_core::cost::{
    added_latency_ms, curve, estimate, parse_decimal, parse_field, CostError, CostField, CostInput,
    REDIS_RTT_MS, STORE_ROUND_TRIPS,
};

fn input(rps: f64, ttl_hours: f64, record_bytes: f64, retry_window_hours: f64) -> CostInput {
    CostInput {
        rps,
        ttl_hours,
        record_bytes,
        retry_window_hours,
    }
}

#[test]
fn each_field_has_its_range_and_its_edges_are_in_it() {
    assert_eq!(CostField::Rps.range(), (1.0, 10_000_000.0));
    assert_eq!(CostField::TtlHours.range(), (0.01, 720.0));
    assert_eq!(CostField::RecordBytes.range(), (16.0, 1_000_000.0));
    assert_eq!(CostField::RetryWindowHours.range(), (0.0, 720.0));
    for field in [
        CostField::Rps,
        CostField::TtlHours,
        CostField::RecordBytes,
        CostField::RetryWindowHours,
    ] {
        let (low, high) = field.range();
        assert_eq!(field.check(low), Ok(low));
        assert_eq!(field.check(high), Ok(high));
        assert_eq!(field.check(high * 1.001), Err(CostError::OutOfRange(field)));
        assert_eq!(field.check(f64::NAN), Err(CostError::OutOfRange(field)));
    }
    // 30 days is the longest TTL and retry window; a TTL of 31 days is refused.
    assert!(parse_field(CostField::TtlHours, "744").is_err());
    assert_eq!(parse_field(CostField::TtlHours, "720"), Ok(720.0));
}

#[test]
fn decimals_read_as_str_parse_reads_them() {
    for text in [
        "12",
        "-0.5",
        ".5",
        "7.",
        "1e3",
        "1E3",
        "2.5e-3",
        "+4",
        "0",
        "000123",
        "10.250",
        "123456789012345",
        "0.000001",
        "9e15",
        "1e-5",
        "0.0000000000000000000000125",
        "0e400",
        "-0.0e-400",
        "00.000",
    ] {
        let ours = parse_decimal(text).unwrap_or_else(|| panic!("{text} reads"));
        let std: f64 = text.parse().expect("a float");
        assert!(
            (ours - std).abs() <= std.abs() * 1e-15,
            "{text}: {ours} vs {std}"
        );
        // The sign too, zero's included (-0.0 == 0.0, so the check above cannot see it).
        assert_eq!(
            ours.is_sign_negative(),
            std.is_sign_negative(),
            "{text}: {ours} vs {std}"
        );
    }
    for bad in [
        "", ".", "e3", "1e", "1e+", "abc", "1.2.3", "--1", "NaN", "inf", "1 2",
    ] {
        assert_eq!(parse_decimal(bad), None, "{bad}");
    }
}

#[test]
fn digits_past_the_nineteenth_shift_the_scale() {
    // 25 digits: the first 19 are kept, the other 6 are powers of ten.
    let text = "1234567890123456789012345";
    let ours = parse_decimal(text).expect("reads");
    assert!(
        (ours / 1.234_567_890_123_456_8e24 - 1.0).abs() < 1e-15,
        "{ours}"
    );
    // After the point they are dropped: the value stays close to the whole part.
    let ours = parse_decimal("1.000000000000000000009").expect("reads");
    assert_eq!(ours, 1.0);
    // Exactly 19 and 20 digits: the 20th is a power of ten, never a digit of the integer
    // (20 nines would not fit in it).
    assert_eq!(parse_decimal("1000000000000000000"), Some(1e18));
    assert_eq!(parse_decimal("10000000000000000000"), Some(1e19));
    let nines = parse_decimal("99999999999999999999").expect("reads");
    assert!((nines / 1e20 - 1.0).abs() < 1e-15, "{nines}");
}

#[test]
fn exponents_are_read_in_full_and_huge_ones_saturate() {
    assert_eq!(parse_decimal("5e2"), Some(500.0));
    assert_eq!(parse_decimal("5e-2"), Some(0.05));
    assert_eq!(parse_decimal("5e0002"), Some(500.0));
    // An exponent longer than four digits is as good as infinite: out of every range.
    assert_eq!(parse_decimal("1e99999"), Some(f64::INFINITY));
    assert_eq!(parse_decimal("1e-99999"), Some(0.0));
    assert!(parse_field(CostField::Rps, "1e99999").is_err());
    // A four-digit exponent is read as it is: a thousand digits before it bring it back.
    let thousand_zeros = "0".repeat(1000);
    assert_eq!(
        parse_decimal(&format!("1{thousand_zeros}e-1000")),
        Some(1.0)
    );
    assert_eq!(
        parse_decimal(&format!("0.{thousand_zeros}25e1001")),
        Some(2.5)
    );
}

#[test]
fn the_keys_add_two_round_trips_of_a_fifth_of_a_millisecond() {
    assert_eq!(STORE_ROUND_TRIPS, 2);
    assert_eq!(REDIS_RTT_MS, 0.2);
    assert!(
        (added_latency_ms() - 0.4).abs() < 1e-12,
        "{}",
        added_latency_ms()
    );
}

#[test]
fn the_seed_s_figures_come_out() {
    // 10 000 RPS and a 24 h TTL keep 864 million records alive.
    let out = estimate(&input(10_000.0, 24.0, 200.0, 24.0)).expect("in range");
    assert_eq!(out.live_records, 864_000_000.0);
    assert_eq!(out.memory_bytes, 864_000_000.0 * 200.0);
    assert_eq!(out.bytes_per_hour, 10_000.0 * 3_600.0 * 200.0);
    // A retry at the window's last moment reaches the store after a key kept exactly as
    // long is gone: a TTL equal to the window does not outlast it (issue 41).
    assert!(!out.window_covered, "a 24 h TTL under a 24 h retry window");
    let seed = estimate(&input(10_000.0, 24.0, 200.0, 1.0)).expect("in range");
    assert!(seed.window_covered, "the seed's 24 h TTL and 1 h retries");
    let short = estimate(&input(10_000.0, 1.0, 200.0, 24.0)).expect("in range");
    assert!(!short.window_covered, "a 1 h TTL under a 24 h retry window");
}

#[test]
fn the_curve_runs_from_zero_to_twice_the_ttl_or_past_the_retry_window() {
    let points = curve(&input(100.0, 24.0, 100.0, 1.0), 5).expect("in range");
    let per_hour = 100.0 * 3_600.0 * 100.0;
    assert_eq!(
        points,
        vec![
            (0.0, 0.0),
            (12.0, 12.0 * per_hour),
            (24.0, 24.0 * per_hour),
            (36.0, 36.0 * per_hour),
            (48.0, 48.0 * per_hour),
        ]
    );
    // A retry window longer than twice the TTL: the plot reaches 1.25 × the window.
    let wide = curve(&input(100.0, 1.0, 100.0, 40.0), 3).expect("in range");
    assert_eq!(wide.last().map(|p| p.0), Some(50.0));
    // Fewer than two points asked for: two, the ends.
    assert_eq!(
        curve(&input(100.0, 1.0, 100.0, 1.0), 0).expect("ok").len(),
        2
    );
}
