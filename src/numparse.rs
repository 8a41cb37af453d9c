//! Counts written the way people write them: `100M`, `1e9`, `2.5k`, `1_000_000`.

/// Parse a positive count. Suffixes k/K = 10^3, M = 10^6, G/B = 10^9, T = 10^12;
/// scientific notation and `_` separators are accepted; the value must be a whole number.
pub fn parse_count(s: &str) -> Result<u64, String> {
    let t: String = s.trim().chars().filter(|&c| c != '_' && c != ',').collect();
    if t.is_empty() {
        return Err("expected a number such as 1000000, 100M or 1e9, found nothing".into());
    }
    let (num, mult) = match t.chars().last() {
        Some('k') | Some('K') => (&t[..t.len() - 1], 1e3),
        Some('M') | Some('m') => (&t[..t.len() - 1], 1e6),
        Some('G') | Some('g') | Some('B') | Some('b') => (&t[..t.len() - 1], 1e9),
        Some('T') | Some('t') => (&t[..t.len() - 1], 1e12),
        _ => (&t[..], 1.0),
    };
    let bad = || format!("expected a number such as 1000000, 100M or 1e9, found '{s}'");
    let too_large = || format!("'{s}' is too large (at most about 1.8e19)");
    if let Ok(v) = num.parse::<u64>() {
        let v = v as f64 * mult;
        return to_u64(v).ok_or_else(too_large);
    }
    let v: f64 = num.parse().map_err(|_| bad())?;
    if !v.is_finite() {
        return Err(bad());
    }
    let v = v * mult;
    if v.fract() != 0.0 {
        return Err(format!("'{s}' is not a whole number"));
    }
    if v < 0.0 {
        return Err(bad());
    }
    to_u64(v).ok_or_else(too_large)
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

fn to_u64(v: f64) -> Option<u64> {
    if (0.0..1.8e19).contains(&v) {
        Some(v as u64)
    } else {
        None
    }
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
    }
}
