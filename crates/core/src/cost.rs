//! The ADR's cost of keys: how many records a TTL keeps alive and how much memory they take,
//! and the trade-off against the client's retry window. Pure arithmetic, validated inputs.

use serde::{Deserialize, Serialize};

/// What the calculator is given (all from text fields, so every value is validated).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostInput {
    /// Mutating requests per second that carry a key.
    pub rps: f64,
    /// How long a key is kept, in hours.
    pub ttl_hours: f64,
    /// Bytes per stored record (key, response, fingerprint and the store's own overhead).
    pub record_bytes: f64,
    /// The latest a client may still retry, in hours.
    pub retry_window_hours: f64,
}

impl Default for CostInput {
    /// The seed's ADR: 10 000 RPS, 24 h, with a 200-byte record and clients that retry for up
    /// to an hour.
    fn default() -> Self {
        CostInput {
            rps: 10_000.0,
            ttl_hours: 24.0,
            record_bytes: 200.0,
            retry_window_hours: 1.0,
        }
    }
}

/// Which input is out of range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CostField {
    /// Requests per second.
    Rps,
    /// Key TTL.
    TtlHours,
    /// Record size.
    RecordBytes,
    /// Client retry window.
    RetryWindowHours,
}

impl CostField {
    /// Allowed range (inclusive).
    pub fn range(self) -> (f64, f64) {
        match self {
            CostField::Rps => (1.0, 10_000_000.0),
            CostField::TtlHours => (0.01, 24.0 * 30.0),
            CostField::RecordBytes => (16.0, 1_000_000.0),
            CostField::RetryWindowHours => (0.0, 24.0 * 30.0),
        }
    }

    /// `value` if it is a finite number in [`CostField::range`].
    pub fn check(self, value: f64) -> Result<f64, CostError> {
        let (low, high) = self.range();
        if value.is_finite() && (low..=high).contains(&value) {
            Ok(value)
        } else {
            Err(CostError::OutOfRange(self))
        }
    }
}

/// Why an input was refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum CostError {
    /// Not a number at all.
    NotANumber(CostField),
    /// A number outside [`CostField::range`].
    OutOfRange(CostField),
}

/// The estimate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostOutput {
    /// Keys alive at any moment under steady load: RPS × TTL in seconds.
    pub live_records: f64,
    /// Their memory in bytes.
    pub memory_bytes: f64,
    /// Whether the TTL outlasts every retry: strictly longer than the retry window, since a
    /// retry sent at the window's last moment reaches the store a little later still, when a
    /// key kept exactly that long is already gone (else late retries duplicate again).
    pub window_covered: bool,
    /// Extra memory for each additional hour of TTL, in bytes.
    pub bytes_per_hour: f64,
}

/// Reads a text field as a number in the field's range. Accepts spaces, `_` and `,` as digit
/// group separators (`10 000`, `10_000`, `10,000`) and a decimal point.
pub fn parse_field(field: CostField, text: &str) -> Result<f64, CostError> {
    let cleaned: String = text
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | ',' | '\u{a0}'))
        .collect();
    let value = parse_decimal(&cleaned).ok_or(CostError::NotANumber(field))?;
    field.check(value)
}

/// Reads a plain decimal number (`12`, `-0.5`, `.5`, `7.`, `1e3`) with integer arithmetic: its
/// first 19 significant digits as an integer, then one multiplication or division by a power
/// of ten, so the web page carries no float-parsing machinery. The same number as
/// `str::parse` while the digits and the power of ten are exact in an `f64` (15 significant
/// digits, 10^22: every field's range and precision); `NaN`, `inf` and anything else are
/// `None`.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (number, exponent) = match rest.split_once(['e', 'E']) {
        Some((number, exponent)) => {
            let (sign, digits) = match exponent.strip_prefix('-') {
                Some(digits) => (-1, digits),
                None => (1, exponent.strip_prefix('+').unwrap_or(exponent)),
            };
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let magnitude = digits.trim_start_matches('0');
            let magnitude: i32 = if magnitude.len() > 4 {
                10_000
            } else {
                magnitude.parse().unwrap_or(0)
            };
            (number, sign * magnitude)
        }
        None => (rest, 0),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty()
        || !whole
            .bytes()
            .chain(fraction.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let fraction = fraction.trim_end_matches('0');
    let mut mantissa: u64 = 0;
    let mut scale = exponent - i32::try_from(fraction.len()).unwrap_or(i32::MAX / 2);
    // Zeros before the first other digit, on either side of the point, are not significant:
    // the scale already counts the fraction's.
    let mut significant = 0;
    for digit in whole.bytes().chain(fraction.bytes()) {
        if significant == 0 && digit == b'0' {
            continue;
        }
        if significant < 19 {
            mantissa = mantissa * 10 + u64::from(digit - b'0');
        } else {
            // Digits past the 19th only shift the scale (or, after the point, are dropped).
            scale += 1;
        }
        significant += 1;
    }
    if mantissa == 0 {
        // Zero, whatever its exponent (`0e400` would otherwise be 0 × ∞).
        return Some(if negative { -0.0 } else { 0.0 });
    }
    let power = 10f64.powi(scale.unsigned_abs().min(400) as i32);
    let value = if scale >= 0 {
        mantissa as f64 * power
    } else {
        mantissa as f64 / power
    };
    Some(if negative { -value } else { value })
}

/// Store round-trips the model adds to a keyed request when keys live in Redis: claim the key
/// (`SET NX`, or `GET` without the lock), then record the answer (`SET`). With the key in the
/// ledger transaction they are statements of the transaction the charge needs anyway.
pub const STORE_ROUND_TRIPS: u32 = 2;

/// A typical Redis round-trip on a 1 Gbit/s LAN, in milliseconds (Redis's own latency guide
/// measures about 0.2 ms on such a network).
pub const REDIS_RTT_MS: f64 = 0.2;

/// Latency the keys add to a request: round-trips × round-trip time, in milliseconds.
pub fn added_latency_ms() -> f64 {
    f64::from(STORE_ROUND_TRIPS) * REDIS_RTT_MS
}

/// Validates every input, then estimates.
pub fn estimate(input: &CostInput) -> Result<CostOutput, CostError> {
    for (field, value) in [
        (CostField::Rps, input.rps),
        (CostField::TtlHours, input.ttl_hours),
        (CostField::RecordBytes, input.record_bytes),
        (CostField::RetryWindowHours, input.retry_window_hours),
    ] {
        field.check(value)?;
    }
    let live_records = input.rps * input.ttl_hours * 3_600.0;
    Ok(CostOutput {
        live_records,
        memory_bytes: live_records * input.record_bytes,
        window_covered: input.ttl_hours > input.retry_window_hours,
        bytes_per_hour: input.rps * 3_600.0 * input.record_bytes,
    })
}

/// Memory against TTL for the plot: `points` TTLs spread evenly from 0 to twice the chosen TTL
/// (at least up to the retry window), as (hours, bytes).
pub fn curve(input: &CostInput, points: usize) -> Result<Vec<(f64, f64)>, CostError> {
    let output = estimate(input)?;
    let span = (input.ttl_hours * 2.0).max(input.retry_window_hours * 1.25);
    let n = points.max(2);
    Ok((0..n)
        .map(|i| {
            let hours = span * i as f64 / (n - 1) as f64;
            (hours, output.bytes_per_hour * hours)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_adr_figure_10k_rps_for_24_hours_is_864_million_records() {
        let out = estimate(&CostInput::default()).expect("valid");
        assert_eq!(out.live_records, 864_000_000.0);
        assert_eq!(out.memory_bytes, 172_800_000_000.0);
        assert!(out.window_covered);
    }

    #[test]
    fn a_ttl_shorter_than_the_retry_window_is_flagged() {
        let input = CostInput {
            ttl_hours: 0.5,
            ..CostInput::default()
        };
        assert!(!estimate(&input).expect("valid").window_covered);
    }

    #[test]
    fn a_ttl_equal_to_the_retry_window_does_not_outlast_it() {
        let equal = CostInput {
            ttl_hours: 12.0,
            retry_window_hours: 12.0,
            ..CostInput::default()
        };
        assert!(!estimate(&equal).expect("valid").window_covered);
        let longer = CostInput {
            ttl_hours: 12.5,
            ..equal
        };
        assert!(estimate(&longer).expect("valid").window_covered);
    }

    #[test]
    fn text_fields_are_validated() {
        assert_eq!(parse_field(CostField::Rps, "10 000"), Ok(10_000.0));
        assert_eq!(parse_field(CostField::Rps, "10,000"), Ok(10_000.0));
        assert_eq!(parse_field(CostField::TtlHours, "1.5"), Ok(1.5));
        assert_eq!(
            parse_field(CostField::Rps, "ten"),
            Err(CostError::NotANumber(CostField::Rps))
        );
        assert_eq!(
            parse_field(CostField::Rps, "0"),
            Err(CostError::OutOfRange(CostField::Rps))
        );
        assert_eq!(
            parse_field(CostField::Rps, "NaN"),
            Err(CostError::NotANumber(CostField::Rps))
        );
        assert_eq!(
            parse_field(CostField::Rps, "inf"),
            Err(CostError::NotANumber(CostField::Rps))
        );
        assert_eq!(
            parse_field(CostField::Rps, "1e400"),
            Err(CostError::OutOfRange(CostField::Rps))
        );
        assert_eq!(parse_field(CostField::Rps, "1.5e3"), Ok(1_500.0));
        for bad in [
            "-", ".", "1..2", "1e", "e5", "1.2.3", "--1", "0x10", "1e+-2",
        ] {
            assert_eq!(parse_decimal(bad), None, "{bad}");
        }
        assert_eq!(
            parse_field(CostField::RecordBytes, ""),
            Err(CostError::NotANumber(CostField::RecordBytes))
        );
        let bad = CostInput {
            rps: f64::NAN,
            ..CostInput::default()
        };
        assert_eq!(estimate(&bad), Err(CostError::OutOfRange(CostField::Rps)));
    }

    #[test]
    fn the_curve_is_linear_in_the_ttl_and_passes_the_estimate() {
        let input = CostInput::default();
        let points = curve(&input, 9).expect("valid");
        assert_eq!(points.len(), 9);
        assert_eq!(points[0], (0.0, 0.0));
        let at_ttl = points
            .iter()
            .find(|(h, _)| *h == 24.0)
            .expect("the TTL is a sample");
        assert_eq!(at_ttl.1, estimate(&input).expect("valid").memory_bytes);
    }
}

/// The hand-written decimal reader against the standard library's (exact) one.
#[cfg(test)]
mod parse_decimal_props {
    use super::parse_decimal;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn reads_like_std_for_field_sized_numbers(
            text in "[+-]?[0-9]{0,9}(\\.[0-9]{0,9})?([eE][+-]?[0-9]{1,2})?"
        ) {
            let std: Option<f64> = text.parse().ok();
            match (parse_decimal(&text), std) {
                (Some(ours), Some(std)) => {
                    // Digits and power exact: the same number; beyond 10^22 one rounding more.
                    let close = ours == std || ((ours - std) / std).abs() < 1e-15;
                    prop_assert!(close, "{} → {} vs {}", text, ours, std);
                }
                (ours, std) => prop_assert_eq!(ours.is_some(), std.is_some(), "{}", text),
            }
        }

        #[test]
        fn never_panics(text in "(?s).{0,40}") {
            let _ = parse_decimal(&text);
        }
    }
}
