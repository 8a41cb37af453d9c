//! Counts written the way people write them: `100M`, `1e9`, `2.5k`, `1_000_000`.

/// Why a count was refused (`CountError::message` says it to the user).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CountError {
    /// Nothing, or not a number in any of the accepted forms.
    NotANumber,
    /// A number with a fraction left (`1.5`, `1e-3`, `2.0005k`).
    NotWhole,
    /// A whole number larger than a u64 holds (more than 18,446,744,073,709,551,615).
    TooLarge,
}

impl CountError {
    /// The message for text `s`.
    pub fn message(self, s: &str) -> String {
        match self {
            CountError::NotANumber if s.trim().is_empty() => {
                "expected a number such as 1000000, 100M or 1e9, found nothing".into()
            }
            CountError::NotANumber => {
                format!("expected a number such as 1000000, 100M or 1e9, found '{s}'")
            }
            CountError::NotWhole => format!("'{s}' is not a whole number"),
            CountError::TooLarge => {
                format!("'{s}' is too large (at most 18,446,744,073,709,551,615)")
            }
        }
    }
}

/// Parse a positive count. Suffixes k/K = 10^3, M = 10^6, G/B = 10^9, T = 10^12;
/// scientific notation and `_` separators are accepted; the value must be a whole number.
pub fn parse_count(s: &str) -> Result<u64, String> {
    count(s).map_err(|e| e.message(s))
}

/// `parse_count` with its reason typed: the number is read exactly, in decimal, never through
/// a float (`12345678901234567` and `1.2345678901234567e16` are that count, not the nearest
/// double, 12345678901234568).
pub fn count(s: &str) -> Result<u64, CountError> {
    let t: String = s.trim().chars().filter(|&c| c != '_' && c != ',').collect();
    let (num, mult) = match t.chars().last() {
        Some('k') | Some('K') => (&t[..t.len() - 1], 3),
        Some('M') | Some('m') => (&t[..t.len() - 1], 6),
        Some('G') | Some('g') | Some('B') | Some('b') => (&t[..t.len() - 1], 9),
        Some('T') | Some('t') => (&t[..t.len() - 1], 12),
        _ => (&t[..], 0),
    };
    let num = num.strip_prefix('+').unwrap_or(num);
    // mantissa [e exponent]: digits with at most one point, at least one digit.
    let (mantissa, exponent) = match num.find(['e', 'E']) {
        Some(i) => (&num[..i], Some(&num[i + 1..])),
        None => (num, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits_only = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !digits_only(whole) || !digits_only(fraction) {
        return Err(CountError::NotANumber);
    }
    let exponent: i64 = match exponent {
        None => 0,
        Some(e) => {
            let (negative, e) = match e.as_bytes().first() {
                Some(b'-') => (true, &e[1..]),
                Some(b'+') => (false, &e[1..]),
                _ => (false, e),
            };
            if e.is_empty() || !digits_only(e) {
                return Err(CountError::NotANumber);
            }
            // An exponent past any digit count saturates: the value is 0, not whole, or too large.
            let e = e.trim_start_matches('0');
            let v: i64 = if e.len() > 9 {
                1_000_000_000
            } else {
                e.parse().unwrap_or(0)
            };
            if negative {
                -v
            } else {
                v
            }
        }
    };
    // The value is digits × 10^scale, exactly.
    let digits = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    let mut scale = exponent + mult - fraction.len() as i64;
    let mut digits = digits.to_string();
    while scale < 0 && digits.ends_with('0') {
        digits.pop();
        scale += 1;
    }
    if digits.is_empty() {
        return Ok(0);
    }
    if scale < 0 {
        return Err(CountError::NotWhole);
    }
    if digits.len() as i64 + scale > 20 {
        return Err(CountError::TooLarge);
    }
    let mut v: u128 = digits.parse().map_err(|_| CountError::TooLarge)?;
    for _ in 0..scale {
        v *= 10;
    }
    u64::try_from(v).map_err(|_| CountError::TooLarge)
}

/// A float as a person would write it back: plain decimal from 1e-15 up to 1e15 (`0.25`,
/// `1500`, `0.0000003`), scientific notation beyond (`1e300`, not its 301 digits; `1e-300`,
/// not 300 zeros), the shortest text that reads back as the same number either way; `inf` and
/// `NaN` as such.
pub fn written(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 || !a.is_finite() || (1e-15..1e15).contains(&a) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

/// A percentage typed as decimal text ("99.54", "99.54%") as a fraction without float
/// noise: 0.9954, not 0.9953999999999999 (the quotient is rounded to 15 significant
/// digits, which any decimal typed with up to 13 significant digits survives exactly).
pub fn parse_percent(s: &str) -> Result<f64, String> {
    let t = s.trim().trim_end_matches('%').trim();
    let v: f64 = t
        .parse()
        .map_err(|_| format!("expected a percentage such as 99.54, found '{s}'"))?;
    if !v.is_finite() {
        return Err(format!("expected a percentage such as 99.54, found '{s}'"));
    }
    format!("{:.14e}", v / 100.0)
        .parse()
        .map_err(|_| format!("expected a percentage such as 99.54, found '{s}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percents_become_fractions_without_float_noise() {
        // Before: 99.54 / 100.0 = 0.9953999999999999 reached the JSON.
        assert_eq!(parse_percent("99.54").unwrap(), 0.9954);
        assert_eq!(
            serde_json::json!(parse_percent("99.54%").unwrap()).to_string(),
            "0.9954"
        );
        assert_eq!(parse_percent("97.3").unwrap(), 0.973);
        assert_eq!(parse_percent("100").unwrap(), 1.0);
        assert_eq!(parse_percent("99.5432").unwrap(), 0.995432);
        assert!(parse_percent("abc").is_err());
        assert!(parse_percent("inf").is_err());
    }

    #[test]
    fn accepted_forms() {
        assert_eq!(parse_count("1000").unwrap(), 1000);
        assert_eq!(parse_count("100M").unwrap(), 100_000_000);
        assert_eq!(parse_count("1e9").unwrap(), 1_000_000_000);
        assert_eq!(parse_count("2.5k").unwrap(), 2500);
        assert_eq!(parse_count("1_000_000").unwrap(), 1_000_000);
        assert_eq!(parse_count("3G").unwrap(), 3_000_000_000);
        assert_eq!(parse_count("0").unwrap(), 0);
    }

    #[test]
    fn refused_forms() {
        for s in ["", "abc", "-5", "1.5", "1e40", "NaN", "inf", "10X", "1e-3"] {
            assert!(parse_count(s).is_err(), "{s}");
        }
        for (s, why) in [
            ("", CountError::NotANumber),
            (".", CountError::NotANumber),
            ("1e", CountError::NotANumber),
            ("1.2.3", CountError::NotANumber),
            ("1e+-3", CountError::NotANumber),
            ("-0", CountError::NotANumber),
            ("0x10", CountError::NotANumber),
            ("1.5", CountError::NotWhole),
            ("1e-3", CountError::NotWhole),
            ("1.0001k", CountError::NotWhole),
            ("5e-99999999999999999999", CountError::NotWhole),
            ("1e40", CountError::TooLarge),
            ("18446744073709551616", CountError::TooLarge),
            ("1e99999999999999999999", CountError::TooLarge),
            ("100000000000000000000000T", CountError::TooLarge),
        ] {
            assert_eq!(count(s), Err(why), "{s}");
        }
    }

    /// Before: the number went through an f64, so a count past 2^53 came back as the nearest
    /// double (12345678901234567 as 12345678901234568) and was printed so.
    #[test]
    fn counts_past_two_to_the_53_are_exact() {
        for s in [
            "12345678901234567",
            "1.2345678901234567e16",
            "12345678901.234567M",
            "12_345_678_901_234_567",
            "123456789012345670e-1",
        ] {
            assert_eq!(count(s), Ok(12_345_678_901_234_567), "{s}");
        }
        assert_eq!(count("9007199254740993"), Ok(9_007_199_254_740_993));
        assert_eq!(count("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(count("1.8446744073709551615e19"), Ok(u64::MAX));
        assert_eq!(count("0e99999999999"), Ok(0));
        assert_eq!(count("+5"), Ok(5));
        assert_eq!(count(".5k"), Ok(500));
        assert_eq!(count("5.k"), Ok(5000));
        assert_eq!(count("1.5E3"), Ok(1500));
    }

    #[test]
    fn floats_are_written_back_short() {
        assert_eq!(written(1e300), "1e300");
        assert_eq!(written(f64::MAX), "1.7976931348623157e308");
        assert_eq!(written(-1e-300), "-1e-300");
        assert_eq!(written(1e15), "1e15");
        assert_eq!(written(999_999_999_999_999.0), "999999999999999");
        assert_eq!(written(0.25), "0.25");
        assert_eq!(written(3e-7), "0.0000003");
        assert_eq!(written(1e-16), "1e-16");
        assert_eq!(written(0.0), "0");
        assert_eq!(written(f64::INFINITY), "inf");
    }
}
