//! Values as the command line gives them: counts, seeds, intervals, claims.

use super::ArgError;
use rtplab::numparse::parse_count;

/// A count from 0 (none) to 10^12 (the Doom audit's turns and games per tier).
pub(crate) fn parse_count_or_zero(s: &str) -> Result<u64, String> {
    let n = parse_count(s)?;
    if n > rtplab::game::MAX_COUNT {
        return Err(format!("{s}: expected a count from 0 (none) to 1e12"));
    }
    Ok(n)
}

/// The fewest rounds or turns an audit simulates: two or more in every one of its batches
/// (`rtplab::audit::SIM_BATCHES`), so that the standard error of its cross-check against the
/// exact values rests on thousands of batch means, as its z-test assumes.
const MIN_AUDIT_SAMPLE: u64 = 10_000;

/// An audit's simulated `unit`s (`n`, read from `s`): 0 (the exact analysis alone) or at least
/// `MIN_AUDIT_SAMPLE`. Fewer printed SE 0, an interval of one point and z = -inf.
pub(crate) fn audit_sample(s: &str, n: u64, unit: &str) -> Result<u64, String> {
    if n > 0 && n < MIN_AUDIT_SAMPLE {
        return Err(format!(
            "{s} {unit} are too few to test the simulation against the exact values (their \
             standard error would rest on a handful of results, and is 0 when they all agree): \
             give at least 10k, or 0 for the exact analysis alone"
        ));
    }
    Ok(n)
}

/// A count (1M, 1e6 accepted) from 1 to 10^12.
pub(crate) fn parse_count_limited(s: &str) -> Result<u64, String> {
    let n = parse_count(s)?;
    if n == 0 || n > rtplab::game::MAX_COUNT {
        return Err(format!("{s}: expected a count from 1 to 1e12"));
    }
    Ok(n)
}

pub(crate) fn parse_positive(s: &str) -> Result<u64, String> {
    let n = parse_count(s)?;
    if n == 0 {
        return Err("must be at least 1".into());
    }
    Ok(n)
}

/// A checkpoint interval: a positive number with an optional unit, `ms`, `s` (the default),
/// `m` or `h`: `500ms`, `30s`, `5m`, `1.5h`.
pub(crate) fn parse_interval(s: &str) -> Result<std::time::Duration, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let scale = match unit.trim() {
        "ms" => 1e-3,
        "" | "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => {
            return Err(format!(
                "expected an interval such as 30s, 5m, 1h or 500ms, found '{s}'"
            ))
        }
    };
    let v: f64 = num
        .parse()
        .map_err(|_| format!("expected an interval such as 30s, 5m, 1h or 500ms, found '{s}'"))?;
    let secs = v * scale;
    if !(0.001..=1e7).contains(&secs) {
        return Err(format!(
            "'{s}': the interval must be from 1ms to about 100 days"
        ));
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

pub(crate) fn parse_seed(s: &str) -> Result<u64, String> {
    s.trim()
        .parse::<u64>()
        .map_err(|_| format!("expected a whole number from 0 to 18446744073709551615, found '{s}'"))
}

pub(crate) fn parse_threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a thread count from 1 to 1024, found '{s}'"
        )),
    }
}

/// A count a back-counter or a spread acts at: a whole number (a true count once rounded by
/// --tc-rounding, or an unbalanced count's running count), e.g. 1 or -2.
pub(crate) fn parse_true_count(s: &str) -> Result<i32, String> {
    let t = s.trim();
    if let Ok(n) = t.parse::<i32>() {
        return Ok(n);
    }
    let range = || format!("'{s}': a count from {} to {}", i32::MIN, i32::MAX);
    match t.parse::<f64>() {
        Ok(x) if x.fract() == 0.0 && x.is_finite() => {
            if x >= i32::MIN as f64 && x <= i32::MAX as f64 {
                Ok(x as i32)
            } else {
                Err(range())
            }
        }
        Ok(x) if x.is_finite() && x.ceil() >= i32::MIN as f64 && x.ceil() <= i32::MAX as f64 => {
            let up = x.ceil() as i32;
            Err(format!(
                "'{s}': counts are compared as whole numbers (a true count after --tc-rounding, \
                 or a running count): give {up} for 'at {up} or above'"
            ))
        }
        Ok(x) if x.is_finite() => Err(range()),
        _ => Err(format!(
            "expected a whole count such as 1 or -2, found '{s}'"
        )),
    }
}

/// A risk of ruin as a percentage ("5%") or a fraction (0.05), strictly between 0 and 1.
pub(crate) fn parse_ror(s: &str) -> Result<f64, String> {
    let r = if s.trim().ends_with('%') {
        rtplab::numparse::parse_percent(s)?
    } else {
        s.trim()
            .parse::<f64>()
            .map_err(|_| format!("expected a risk of ruin such as 5% or 0.05, found '{s}'"))?
    };
    if r > 0.0 && r < 1.0 {
        Ok(r)
    } else {
        Err(format!(
            "'{s}': a risk of ruin is above 0 and below 1 (100%)"
        ))
    }
}

/// An EV per round in units, as a number (0.0151) or, by the convention of the risks of ruin,
/// a percentage of one unit ("1.51%"); negative for a losing game. The range is the library's
/// to judge.
pub(crate) fn parse_ev(s: &str) -> Result<f64, String> {
    let bad = || format!("expected an EV per round in units such as 0.0151 or 1.51%, found '{s}'");
    if s.trim().ends_with('%') {
        rtplab::numparse::parse_percent(s).map_err(|_| bad())
    } else {
        s.trim().parse::<f64>().map_err(|_| bad())
    }
}

pub(crate) fn parse_claim(s: &str) -> Result<f64, String> {
    match rtplab::numparse::parse_percent(s) {
        // A claim of at most 1% is a fraction written for a percent (0.9954 for 99.54%).
        Ok(v) if v > 0.0 && v <= 0.01 => Err(format!(
            "the claim is an RTP in percent and {s} looks like a fraction: did you mean {}?",
            (v * 1e4 * 1e6).round() / 1e6
        )),
        // Any wager of these games returns between half and one and a half times its stake
        // in the long run; a claim outside that is a typing error.
        Ok(v) if (0.5..=1.5).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected an RTP in percent from 50 to 150, such as 99.54, found '{s}'"
        )),
    }
}

/// The number of players of a dice game: `--players`, else one per `--seat`, else 4. Both
/// given must agree (a disagreement is refused rather than one of them silently ignored).
pub(crate) fn players_for_seats(players: Option<usize>, seats: usize) -> Result<usize, ArgError> {
    match players {
        Some(p) if seats > 0 && p != seats => Err(ArgError(format!(
            "--players {p} disagrees with the {seats} --seat given: give one --seat per \
             player, or leave out --players (the --seat count sets it)"
        ))),
        Some(p) => Ok(p),
        None if seats > 0 => Ok(seats),
        None => Ok(4),
    }
}

/// The SE above which a count table's tail is pooled: a percentage ("0.5%") of the unit bet,
/// 0 to pool nothing.
pub(crate) fn parse_pool_se(s: &str) -> Result<f64, String> {
    let bad = || {
        format!("expected an SE such as 0.5% (of the unit bet), or 0 to pool nothing, found '{s}'")
    };
    let v = if s.trim().ends_with('%') {
        rtplab::numparse::parse_percent(s).map_err(|_| bad())?
    } else if s.trim() == "0" {
        0.0
    } else {
        return Err(bad());
    };
    if v.is_finite() && (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(bad())
    }
}

#[cfg(test)]
mod tests {
    use super::parse_true_count;

    #[test]
    fn a_count_is_a_whole_number_in_range() {
        for (s, n) in [("2", 2), (" -3 ", -3), ("2.0", 2), ("1e3", 1000), ("-0", 0)] {
            assert_eq!(parse_true_count(s), Ok(n), "{s}");
        }
        for (s, says) in [
            ("0.5", "give 1 for 'at 1 or above'"),
            ("-0.5", "give 0 for 'at 0 or above'"),
            ("-2.5", "give -2 for"),
            ("3000000000", "a count from -2147483648 to 2147483647"),
            ("1e300", "a count from"),
            ("inf", "expected a whole count such as 1 or -2, found 'inf'"),
            ("two", "expected a whole count"),
        ] {
            let e = parse_true_count(s).unwrap_err();
            assert!(e.contains(says), "{s}: {e}");
        }
    }
}
