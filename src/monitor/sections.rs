//! The monitoring report: metadata, the tables of periods and the notes.

use super::{BandWidth, MonitorModel, PeriodRow, MAX_LISTED, MAX_NAMED};
use crate::report::{count_cell, pct_cell, Cell, Report, Section};

/// An amount with two decimals and thousands separators (12,345.60).
fn money(v: f64) -> String {
    let text = format!("{:.2}", v.abs());
    let (whole, cents) = text.split_at(text.len() - 3);
    let sign = if v < 0.0 && text != "0.00" { "-" } else { "" };
    format!("{sign}{}{cents}", crate::report::group_digits(whole))
}

/// A row's verdict; a row of merged periods says how many of them are out of band on their
/// own, then the verdict on the periods taken together (the row's band is theirs).
fn verdict(p: &PeriodRow, merged: bool) -> String {
    let v = if p.in_band { "in band" } else { "OUT OF BAND" };
    if merged {
        let (out, of) = (p.periods_out_of_band, p.periods);
        let count = crate::report::count;
        let out = match out {
            0 => "none".to_string(),
            n => format!("{} OUT", count(n)),
        };
        format!("{out} of {} alone; together {v}", count(of))
    } else {
        v.to_string()
    }
}

/// The report's metadata: the tool, the log, the expectation and the level.
fn meta(m: &MonitorModel) -> Vec<(String, String)> {
    let mut meta = vec![("tool".into(), format!("rtplab {}", crate::VERSION))];
    meta.push((
        "log".into(),
        format!(
            "{} (FNV-1a-64 {}), {} periods{}",
            m.log.name,
            m.log.fnv1a64,
            crate::report::count(m.log_periods),
            if m.periods_per_row > 1 {
                format!(
                    ", shown {} to a row",
                    crate::report::count(m.periods_per_row)
                )
            } else {
                String::new()
            }
        ),
    ));
    meta.push((
        "expected".into(),
        format!(
            "RTP per amount wagered {:.4}%, SD per round {:.4} ({}{})",
            m.expected.rtp * 100.0,
            m.expected.sd_per_round,
            m.expected.source,
            m.expected
                .tier
                .as_ref()
                .map(|t| format!(", {t} tier"))
                .unwrap_or_default()
        ),
    ));
    meta.push((
        "level".into(),
        format!("{}% (|z| <= {:.3})", m.level, m.z_level),
    ));
    meta.push((
        "band".into(),
        match m.band_width {
            BandWidth::Stakes => {
                "from each period's stakes (stake_sq): SE = SD per round × √(Σb²)/Σb".into()
            }
            BandWidth::LowerBound => "a LOWER BOUND: stakes taken as equal (the log has no stake_sq); when they vary the true band is wider by √(R·Σb²)/Σb".into(),
        },
    ));
    meta
}

/// A table of periods (or rows of merged periods, whose verdicts say so: `merged`).
fn periods_section(title: &str, rows: &[PeriodRow], merged: bool) -> Section {
    let mut s = Section::new(
        title,
        &[
            "period", "rounds", "wagered", "returned", "RTP", "SE", "z", "band", "verdict",
        ],
    );
    for p in rows {
        s.row([
            Cell::from(p.period.clone()),
            count_cell(p.rounds),
            Cell::num(money(p.wagered), p.wagered, "money"),
            Cell::num(money(p.returned), p.returned, "money"),
            pct_cell(p.rtp, 3),
            pct_cell(p.se, 3),
            Cell::num(format!("{:+.2}", p.z), p.z, "z"),
            Cell::range(
                format!(
                    "[{}, {}]",
                    crate::report::pct(p.band[0], 3),
                    crate::report::pct(p.band[1], 3)
                ),
                p.band[0],
                p.band[1],
                "fraction",
            ),
            Cell::from(verdict(p, merged)),
        ]);
    }
    s
}

/// The notes: the running total's verdict, the periods out of band, and how rows merge.
fn notes(m: &MonitorModel) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(total) = m.cumulative.last() {
        notes.push(format!(
            "Running total after {}: RTP {} over {} rounds, z = {:+.2}: {}.",
            total.period.strip_prefix("to ").unwrap_or(&total.period),
            crate::report::pct(total.rtp, 3),
            crate::report::count(total.rounds),
            total.z,
            if m.total_in_band {
                "inside its band"
            } else if m.out_of_band == 0 {
                "OUT OF BAND (a sustained drift that no single period shows; exit code 1)"
            } else {
                "OUT OF BAND (exit code 1)"
            }
        ));
    }
    let se = match m.band_width {
        BandWidth::Stakes => "A period's SE is the expected SD per round × √(Σb²)/Σb, b each round's stake: Σb² is the log's stake_sq, Σb what was wagered.",
        BandWidth::LowerBound => "A period's SE is the expected SD per round over √rounds: rounds of equal stakes. The log has no stake_sq (the sum of the rounds' squared stakes), so each band is a lower bound on its width: stakes that vary widen it by √(R·Σb²)/Σb, and a period out of this band may be inside the true one.",
    };
    notes.push(format!(
        "{} of {} periods outside the {}% band. {se} At the {}% level about {:.1}% of periods fall outside by chance alone.",
        crate::report::count(m.out_of_band),
        crate::report::count(m.log_periods),
        m.level,
        m.level,
        100.0 - m.level
    ));
    if m.out_of_band > 0 {
        let names: Vec<&str> = m
            .farthest_out_of_band
            .iter()
            .map(|p| p.period.as_str())
            .collect();
        notes.push(format!(
            "Farthest out of band (named on the control chart{}): {}.",
            if m.out_of_band as usize > MAX_NAMED {
                format!(", the {MAX_NAMED} of largest |z|")
            } else {
                String::new()
            },
            names.join(", ")
        ));
    }
    if m.periods_per_row > 1 {
        notes.push(format!(
            "The log's {} periods are shown {} to a row: a row's RTP, z and band are those of its periods together, and its verdict says how many of them are outside their own band. Every period is held against its own band (the count above and the exit code are of single periods); the first {} outside it are listed one by one.",
            crate::report::count(m.log_periods),
            crate::report::count(m.periods_per_row),
            MAX_LISTED
        ));
    }
    notes
}

/// The monitoring report.
pub fn render(m: &MonitorModel) -> Report {
    let mut r = Report {
        title: "rtplab live-RTP monitoring".into(),
        meta: meta(m),
        ..Default::default()
    };
    let merged = m.periods_per_row > 1;
    r.sections
        .push(periods_section("Periods", &m.periods, merged));
    r.sections
        .push(periods_section("Running total", &m.cumulative, false));
    if merged && !m.out_of_band_periods.is_empty() {
        r.sections.push(periods_section(
            "Out-of-band periods",
            &m.out_of_band_periods,
            false,
        ));
    }
    r.notes = notes(m);
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_has_separators_and_cents() {
        assert_eq!(money(10000.0), "10,000.00");
        assert_eq!(money(1234567.456), "1,234,567.46");
        assert_eq!(money(0.5), "0.50");
        assert_eq!(money(999.999), "1,000.00");
        assert_eq!(money(1e15), "1,000,000,000,000,000.00");
        // Running totals pass u64's range: 10^5 periods of 10^15.
        assert_eq!(money(1e20), "100,000,000,000,000,000,000.00");
        assert_eq!(
            (money(-1234.5), money(-0.001)),
            ("-1,234.50".into(), "0.00".into())
        );
    }
}
