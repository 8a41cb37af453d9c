//! Live-RTP monitoring: periods of play (`period,rounds,wagered,returned`) against an expected
//! RTP per amount wagered and its volatility, each period and the running total inside or
//! outside its acceptance band.
//!
//! The expected figures come from a report's JSON: a `monitoring` object
//! (`rtp_total_wagered`, `sd_per_round`: the SD of one round's return per unit wagered), or a
//! simulation report's `rtp_total_wagered` and `rtp_total_wagered_se` with its observation
//! count (`seat_rounds`, else `initial_bets`, else `rounds`), which give the SD per round as
//! SE·√n. A period of `R` rounds then has SE σ/√R (rounds of equal stakes; unequal stakes
//! widen it by √(R·Σb²)/Σb, which the log does not carry), z = (observed − expected)/SE, and
//! its band at level L is expected ± z_L·SE.

use serde::Serialize;

use crate::report::{count_cell, pct_cell, Cell, Report, Section};

/// Why monitoring cannot start or read its log.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum MonitorError {
    #[error(transparent)]
    Input(#[from] crate::input::InputError),
    #[error("--expected {0}: not a JSON report ({1})")]
    NotJson(String, String),
    #[error("--expected {0}: it gives no expected RTP per amount wagered and its SD: expected a `monitoring` object or a simulation report's rtp_total_wagered and rtp_total_wagered_se")]
    NoExpectation(String),
    #[error(
        "--expected {0}: the expected RTP {1} or SD per round {2} is not a positive finite number"
    )]
    BadExpectation(String, f64, f64),
    #[error("{file}:{line}:{column}: {msg}")]
    Log {
        file: String,
        line: usize,
        column: usize,
        msg: String,
    },
    #[error("--level {0}: expected 95, 99 or 99.9")]
    Level(f64),
}

/// What the periods are held against.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expectation {
    pub rtp: f64,
    pub sd_per_round: f64,
    /// Where it came from.
    pub source: String,
}

impl Expectation {
    /// From a report's JSON text (`file` names it in errors).
    pub fn from_json(text: &str, file: &str) -> Result<Expectation, MonitorError> {
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| MonitorError::NotJson(file.into(), e.to_string()))?;
        let f = |v: &serde_json::Value, k: &str| v.get(k).and_then(|x| x.as_f64());
        let (rtp, sd, source) = if let Some(m) = v.get("monitoring") {
            match (f(m, "rtp_total_wagered"), f(m, "sd_per_round")) {
                (Some(r), Some(s)) => (r, s, format!("{file}: monitoring")),
                _ => return Err(MonitorError::NoExpectation(file.into())),
            }
        } else {
            let n = ["seat_rounds", "initial_bets", "rounds"]
                .iter()
                .find_map(|k| f(&v, k));
            match (f(&v, "rtp_total_wagered"), f(&v, "rtp_total_wagered_se"), n) {
                (Some(r), Some(se), Some(n)) => (
                    r,
                    se * n.sqrt(),
                    format!("{file}: simulated RTP per amount wagered, SD per round from its SE"),
                ),
                _ => return Err(MonitorError::NoExpectation(file.into())),
            }
        };
        if !(rtp.is_finite() && rtp > 0.0 && sd.is_finite() && sd > 0.0) {
            return Err(MonitorError::BadExpectation(file.into(), rtp, sd));
        }
        Ok(Expectation {
            rtp,
            sd_per_round: sd,
            source,
        })
    }
}

/// One period of play from the log.
#[derive(Clone, Debug, PartialEq)]
pub struct Period {
    pub period: String,
    pub rounds: u64,
    pub wagered: f64,
    pub returned: f64,
}

/// Most periods a log may hold.
pub const MAX_PERIODS: usize = 1_000_000;

/// The log: a `period,rounds,wagered,returned` header, then one row per period.
pub fn parse_log(text: &str, file: &str) -> Result<Vec<Period>, MonitorError> {
    let err = |line: usize, column: usize, msg: String| MonitorError::Log {
        file: file.into(),
        line,
        column,
        msg,
    };
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let want = ["period", "rounds", "wagered", "returned"];
    let headers = rdr
        .headers()
        .map_err(|e| err(1, 1, format!("cannot read the header: {e}")))?
        .clone();
    let got: Vec<String> = headers.iter().map(|h| h.to_ascii_lowercase()).collect();
    if got != want {
        return Err(err(
            1,
            1,
            format!(
                "the header is '{}': expected 'period,rounds,wagered,returned'",
                headers.iter().collect::<Vec<_>>().join(",")
            ),
        ));
    }
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line() as usize);
            err(line, 1, format!("not a CSV row of 4 fields: {e}"))
        })?;
        let line = rec.position().map_or(0, |p| p.line() as usize);
        if out.len() >= MAX_PERIODS {
            return Err(err(line, 1, format!("more than {MAX_PERIODS} periods")));
        }
        let period = rec[0].to_string();
        if period.is_empty() {
            return Err(err(line, 1, "the period is empty".into()));
        }
        let rounds: u64 = rec[1]
            .parse()
            .ok()
            .filter(|r| (1..=1_000_000_000_000).contains(r))
            .ok_or_else(|| {
                err(
                    line,
                    2,
                    format!(
                        "rounds '{}': expected a whole number from 1 to 1e12",
                        &rec[1]
                    ),
                )
            })?;
        let num = |i: usize, name: &str, positive: bool| -> Result<f64, MonitorError> {
            let v: f64 = rec[i]
                .parse()
                .map_err(|_| err(line, i + 1, format!("{name} '{}': not a number", &rec[i])))?;
            if !v.is_finite() || v < 0.0 || (positive && v == 0.0) {
                return Err(err(
                    line,
                    i + 1,
                    format!(
                        "{name} '{}': expected a {} finite amount",
                        &rec[i],
                        if positive { "positive" } else { "non-negative" }
                    ),
                ));
            }
            Ok(v)
        };
        let wagered = num(2, "wagered", true)?;
        let returned = num(3, "returned", false)?;
        out.push(Period {
            period,
            rounds,
            wagered,
            returned,
        });
    }
    if out.is_empty() {
        return Err(err(2, 1, "no periods after the header".into()));
    }
    Ok(out)
}

/// One period (or the running total) against the expectation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PeriodRow {
    pub period: String,
    pub rounds: u64,
    pub wagered: f64,
    pub returned: f64,
    pub rtp: f64,
    pub se: f64,
    pub z: f64,
    /// The acceptance band at the level.
    pub band: [f64; 2],
    pub in_band: bool,
}

/// Everything monitoring reports; its JSON is this struct.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MonitorModel {
    pub expected: Expectation,
    /// Two-sided level in percent, and its critical z.
    pub level: f64,
    pub z_level: f64,
    pub periods: Vec<PeriodRow>,
    /// The running total after each period.
    pub cumulative: Vec<PeriodRow>,
    pub out_of_band: usize,
}

/// The critical z of a two-sided level in percent (95, 99 or 99.9).
pub fn z_of_level(level: f64) -> Result<f64, MonitorError> {
    use statrs::distribution::{ContinuousCDF, Normal};
    if ![95.0, 99.0, 99.9].contains(&level) {
        return Err(MonitorError::Level(level));
    }
    Ok(Normal::standard().inverse_cdf(1.0 - (1.0 - level / 100.0) / 2.0))
}

fn row(e: &Expectation, zl: f64, period: String, rounds: u64, w: f64, r: f64) -> PeriodRow {
    let rtp = r / w;
    let se = e.sd_per_round / (rounds as f64).sqrt();
    let z = (rtp - e.rtp) / se;
    PeriodRow {
        period,
        rounds,
        wagered: w,
        returned: r,
        rtp,
        se,
        z,
        band: [e.rtp - zl * se, e.rtp + zl * se],
        in_band: z.abs() <= zl,
    }
}

/// Hold `periods` against `e` at `level`.
pub fn monitor(
    e: &Expectation,
    periods: &[Period],
    level: f64,
) -> Result<MonitorModel, MonitorError> {
    let zl = z_of_level(level)?;
    let rows: Vec<PeriodRow> = periods
        .iter()
        .map(|p| row(e, zl, p.period.clone(), p.rounds, p.wagered, p.returned))
        .collect();
    let (mut n, mut w, mut r) = (0u64, 0.0, 0.0);
    let cumulative = periods
        .iter()
        .map(|p| {
            n += p.rounds;
            w += p.wagered;
            r += p.returned;
            row(e, zl, format!("to {}", p.period), n, w, r)
        })
        .collect();
    Ok(MonitorModel {
        expected: e.clone(),
        level,
        z_level: zl,
        out_of_band: rows.iter().filter(|p| !p.in_band).count(),
        periods: rows,
        cumulative,
    })
}

/// The monitoring report.
pub fn render(m: &MonitorModel) -> Report {
    let mut r = Report {
        title: "rtplab live-RTP monitoring".into(),
        ..Default::default()
    };
    r.meta
        .push(("tool".into(), format!("rtplab {}", crate::VERSION)));
    r.meta.push((
        "expected".into(),
        format!(
            "RTP per amount wagered {:.4}%, SD per round {:.4} ({})",
            m.expected.rtp * 100.0,
            m.expected.sd_per_round,
            m.expected.source
        ),
    ));
    r.meta.push((
        "level".into(),
        format!("{}% (|z| <= {:.3})", m.level, m.z_level),
    ));
    for (title, rows) in [("Periods", &m.periods), ("Running total", &m.cumulative)] {
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
                Cell::num(format!("{:.2}", p.wagered), p.wagered, "money"),
                Cell::num(format!("{:.2}", p.returned), p.returned, "money"),
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
                Cell::from(if p.in_band { "in band" } else { "OUT OF BAND" }),
            ]);
        }
        r.sections.push(s);
    }
    r.notes.push(format!(
        "{} of {} periods outside the {}% band. A period's SE is the expected SD per round over √rounds (rounds of equal stakes; unequal stakes widen the band by √(R·Σb²)/Σb, which the log does not carry). At the {}% level about {:.1}% of periods fall outside by chance alone.",
        m.out_of_band,
        m.periods.len(),
        m.level,
        m.level,
        100.0 - m.level
    ));
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

/// The funnel plot: the band at every round count, the running total's path and each period
/// (at its own round count) as points.
pub fn plot(m: &MonitorModel) -> Result<String, String> {
    use crate::report::svg::{line_chart, Line, YUnit};
    let max = m
        .cumulative
        .last()
        .map_or(1, |c| c.rounds)
        .max(m.periods.iter().map(|p| p.rounds).max().unwrap_or(1));
    let lo_n = m.periods.iter().map(|p| p.rounds).min().unwrap_or(1).max(1) as f64;
    let grid: Vec<f64> = (0..=100)
        .map(|i| lo_n * (max as f64 / lo_n).powf(i as f64 / 100.0))
        .collect();
    let e = &m.expected;
    let edge = |sign: f64| -> Vec<(f64, f64)> {
        grid.iter()
            .map(|&n| {
                (
                    n,
                    100.0 * (e.rtp + sign * m.z_level * e.sd_per_round / n.sqrt()),
                )
            })
            .collect()
    };
    let (upper, lower) = (edge(1.0), edge(-1.0));
    let path: Vec<(f64, f64)> = m
        .cumulative
        .iter()
        .map(|c| (c.rounds as f64, 100.0 * c.rtp))
        .collect();
    let dots: Vec<(f64, f64)> = m
        .periods
        .iter()
        .map(|p| (p.rounds as f64, 100.0 * p.rtp))
        .collect();
    let band_name = format!("{}% band", m.level);
    let title = format!(
        "Observed RTP against the expected {:.3}% ({}% acceptance funnel)",
        e.rtp * 100.0,
        m.level
    );
    line_chart(
        &title,
        "rounds",
        "RTP per amount wagered (%)",
        YUnit::Percent,
        &[
            Line {
                name: &band_name,
                points: &upper,
                band: None,
                dots: false,
            },
            Line {
                name: "",
                points: &lower,
                band: None,
                dots: false,
            },
            Line {
                name: "running total",
                points: &path,
                band: None,
                dots: false,
            },
            Line {
                name: "periods",
                points: &dots,
                band: None,
                dots: true,
            },
        ],
        Some((e.rtp * 100.0, "expected")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exp() -> Expectation {
        Expectation {
            rtp: 0.99,
            sd_per_round: 1.0,
            source: "t".into(),
        }
    }

    #[test]
    fn expectations_from_a_report() {
        let e = Expectation::from_json(
            r#"{"monitoring": {"rtp_total_wagered": 0.9954, "sd_per_round": 1.15}}"#,
            "r.json",
        )
        .unwrap();
        assert_eq!((e.rtp, e.sd_per_round), (0.9954, 1.15));
        // A simulation report: SD per round = SE · √n.
        let e = Expectation::from_json(
            r#"{"rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 1000000}"#,
            "s.json",
        )
        .unwrap();
        assert!((e.sd_per_round - 1.0).abs() < 1e-12);
        for bad in [
            "{",
            r#"{"rtp": 1}"#,
            r#"{"monitoring": {"rtp_total_wagered": 0.9}}"#,
        ] {
            assert!(Expectation::from_json(bad, "b.json").is_err(), "{bad}");
        }
        let e = Expectation::from_json(
            r#"{"monitoring": {"rtp_total_wagered": 0.99, "sd_per_round": -1}}"#,
            "b.json",
        )
        .unwrap_err();
        assert!(matches!(e, MonitorError::BadExpectation(..)));
    }

    #[test]
    fn periods_against_the_band_by_hand() {
        let log = "period,rounds,wagered,returned\nmon,10000,10000,9950\ntue,10000,10000,9500\n";
        let p = parse_log(log, "l.csv").unwrap();
        let m = monitor(&exp(), &p, 99.0).unwrap();
        // SE = 1/√10000 = 0.01; mon: z = (0.995 − 0.99)/0.01 = 0.5; tue: z = −4.
        assert!((m.periods[0].z - 0.5).abs() < 1e-9);
        assert!(m.periods[0].in_band);
        assert!((m.periods[1].z + 4.0).abs() < 1e-9);
        assert!(!m.periods[1].in_band);
        assert_eq!(m.out_of_band, 1);
        let zl = m.z_level;
        assert!((zl - 2.5758).abs() < 1e-4);
        assert!((m.periods[0].band[0] - (0.99 - zl * 0.01)).abs() < 1e-12);
        // The running total: 20000 rounds, RTP 0.97250, SE 1/√20000.
        let c = &m.cumulative[1];
        assert_eq!((c.rounds, c.period.as_str()), (20000, "to tue"));
        assert!((c.rtp - 0.9725).abs() < 1e-12);
        assert!((c.z - (0.9725 - 0.99) * 20000f64.sqrt()).abs() < 1e-9);
        // 95% is narrower: z_L 1.96.
        assert!((z_of_level(95.0).unwrap() - 1.959964).abs() < 1e-6);
        assert!(z_of_level(90.0).is_err());
    }

    #[test]
    fn bad_logs_name_the_line_and_column() {
        for (log, want) in [
            ("day,rounds,wagered,returned\nx,1,1,1\n", "l.csv:1:1:"),
            ("period,rounds,wagered,returned\n", "no periods"),
            ("period,rounds,wagered,returned\nx,0,1,1\n", "l.csv:2:2:"),
            ("period,rounds,wagered,returned\nx,1.5,1,1\n", "l.csv:2:2:"),
            ("period,rounds,wagered,returned\nx,1,0,1\n", "l.csv:2:3:"),
            ("period,rounds,wagered,returned\nx,1,1,-1\n", "l.csv:2:4:"),
            ("period,rounds,wagered,returned\nx,1,1,nan\n", "l.csv:2:4:"),
            ("period,rounds,wagered,returned\nx,1,1\n", "l.csv:2:"),
            (
                "period,rounds,wagered,returned\n,1,1,1\n",
                "the period is empty",
            ),
        ] {
            let e = parse_log(log, "l.csv").unwrap_err().to_string();
            assert!(e.contains(want), "{log:?}: {e}");
        }
    }
}
