//! Live-RTP monitoring: periods of play (`period,rounds,wagered,returned`) against an expected
//! RTP per amount wagered and its volatility, each period and the running total inside or
//! outside its acceptance band.
//!
//! The expected figures come from a report's JSON: a `monitoring` object
//! (`rtp_total_wagered`, `sd_per_round`: the SD of one round's return per unit wagered), a
//! simulation report's `rtp_total_wagered` and `rtp_total_wagered_se` with its observation
//! count (`seat_rounds`, else `initial_bets`, else `rounds`), which give the SD per round as
//! SE·√n, or a baccarat report of one flat bet (`rtp_exact`, and `sd_coup` per unit staked;
//! a tie is a coup wagered whose stake comes back, so the log must count ties as rounds and
//! their stakes as wagered and returned). A period of `R` rounds then has SE σ/√R (rounds of
//! equal stakes; unequal stakes widen it by √(R·Σb²)/Σb, which the log does not carry),
//! z = (observed − expected)/SE, and its band at level L is expected ± z_L·SE.

use serde::Serialize;

use crate::report::{count_cell, pct_cell, Cell, Report, Section};

/// Why monitoring cannot start or read its log.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum MonitorError {
    #[error(transparent)]
    Input(#[from] crate::input::InputError),
    #[error("--expected {0}: not a JSON report ({1})")]
    NotJson(String, String),
    #[error("--expected {0}: it gives no expected RTP per amount wagered and its SD: expected a `monitoring` object, a simulation report's rtp_total_wagered and rtp_total_wagered_se, or a flat-betting baccarat report")]
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
    #[error("--expected {0}: {1}")]
    Unsuitable(String, String),
}

/// What the periods are held against.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expectation {
    pub rtp: f64,
    pub sd_per_round: f64,
    /// The most a round can pay back per amount wagered (`max_return_per_wagered`, when the
    /// report states it): a period that returned more is a data error.
    pub max_return: Option<f64>,
    /// The strategy tier the figures are of (the audit's `monitoring.tier`), when stated.
    pub tier: Option<String>,
    /// Where it came from.
    pub source: String,
}

/// An expected RTP per amount wagered above this (1000%) is taken for a percent given where a
/// fraction belongs, when the report states no larger maximum return.
const MAX_PLAUSIBLE_RTP: f64 = 10.0;

/// The largest amount (wagered or returned) one period may carry: far above any table's
/// turnover (sums of 100,000 periods stay far inside f64's range; like any f64 amount they
/// are exact to the cent only below about 9e13).
pub const MAX_AMOUNT: f64 = 1e15;

impl Expectation {
    /// From a report's JSON text (`file` names it in errors).
    pub fn from_json(text: &str, file: &str) -> Result<Expectation, MonitorError> {
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| MonitorError::NotJson(file.into(), e.to_string()))?;
        let f = |v: &serde_json::Value, k: &str| v.get(k).and_then(|x| x.as_f64());
        let unsuitable = |why: &str| Err(MonitorError::Unsuitable(file.into(), why.into()));
        if v.get("interrupted").and_then(|x| x.as_bool()) == Some(true) {
            return unsuitable("the report is of an interrupted (partial) run: hold live results against a complete run's figures");
        }
        if v.get("count_key").is_some() {
            return unsuitable("the report is of a card counter, whose bets vary with the count: the bands assume rounds of equal stakes; use a flat-betting report (the same strategy without --count)");
        }
        let max_return = v
            .get("monitoring")
            .and_then(|m| f(m, "max_return_per_wagered"))
            .or_else(|| f(&v, "max_return_per_wagered"));
        let baccarat = v.get("game").and_then(|g| g.as_str()) == Some("baccarat");
        let (rtp, sd, source) = if let Some(m) = v.get("monitoring") {
            match (f(m, "rtp_total_wagered"), f(m, "sd_per_round")) {
                (Some(r), Some(s)) => (r, s, format!("{file}: monitoring")),
                _ => return Err(MonitorError::NoExpectation(file.into())),
            }
        } else if baccarat {
            // A coup's SD is of the net of all its bets; per amount wagered only when the one
            // main bet is the same every coup and nothing else is bet.
            let stake = f(&v, "max_stake").unwrap_or(0.0);
            if f(&v, "pairs").is_some_and(|p| p != 0.0) {
                return unsuitable("the report is of a baccarat run with pair bets beside the main bet: a coup's SD is then not per amount wagered; use a report of the main bet alone (without --pairs)");
            }
            if !(stake > 0.0 && f(&v, "average_bet") == Some(stake)) {
                return unsuitable("the report is of a baccarat staking plan whose bets vary (the bands assume coups of equal stakes): use a flat-betting report (a plain bet such as banker)");
            }
            match (f(&v, "rtp_exact"), f(&v, "sd_coup")) {
                (Some(r), Some(s)) => (
                    r,
                    s / stake,
                    format!("{file}: the bet's exact RTP, SD per coup from the simulation"),
                ),
                _ => return unsuitable("the report gives no exact RTP of one bet (a plan over several spots) or no SD per coup"),
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
        if let Some(mx) = max_return.filter(|m| !(m.is_finite() && *m >= 1.0)) {
            return unsuitable(&format!(
                "max_return_per_wagered {mx} is not a finite number of at least 1"
            ));
        }
        let most = max_return.unwrap_or(MAX_PLAUSIBLE_RTP);
        if rtp > most {
            return unsuitable(&format!(
                "the expected RTP per amount wagered {rtp} ({:.0}%) is more than a round can return ({most}): RTPs are fractions (0.9954 for 99.54%)",
                rtp * 100.0
            ));
        }
        let tier = v
            .get("monitoring")
            .and_then(|m| m.get("tier"))
            .and_then(|t| t.as_str())
            .map(str::to_string);
        Ok(Expectation {
            rtp,
            sd_per_round: sd,
            max_return,
            tier,
            source,
        })
    }
}

/// One period of play from the log.
#[derive(Clone, Debug, PartialEq)]
pub struct Period {
    /// The line of the log it was read from.
    pub line: usize,
    pub period: String,
    pub rounds: u64,
    pub wagered: f64,
    pub returned: f64,
}

/// Most periods a log may hold (hourly periods for 11 years); the report holds every period
/// in several forms, about 5 KB each.
pub const MAX_PERIODS: usize = 100_000;

/// At most `n` characters of `s` for a message (a binary file's "header" can be megabytes).
fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n).collect::<String>() + "…"
    }
}

/// The log: a `period,rounds,wagered,returned` header, then one row per period.
pub fn parse_log(text: &str, file: &str) -> Result<Vec<Period>, MonitorError> {
    let err = |line: usize, column: usize, msg: String| MonitorError::Log {
        file: file.into(),
        line,
        column,
        msg,
    };
    if text.trim().is_empty() {
        return Err(err(
            1,
            1,
            "the file is empty: expected a 'period,rounds,wagered,returned' header and a row per period".into(),
        ));
    }
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
                clip(&headers.iter().collect::<Vec<_>>().join(","), 80)
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
        if period.chars().count() > 200 {
            return Err(err(
                line,
                1,
                format!(
                    "the period '{}' is longer than 200 characters",
                    clip(&period, 40)
                ),
            ));
        }
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
                        clip(&rec[1], 40)
                    ),
                )
            })?;
        let num = |i: usize, name: &str, positive: bool| -> Result<f64, MonitorError> {
            let v: f64 = rec[i].parse().map_err(|_| {
                err(
                    line,
                    i + 1,
                    format!("{name} '{}': not a number", clip(&rec[i], 40)),
                )
            })?;
            if !v.is_finite() || v < 0.0 || (positive && v == 0.0) || v > MAX_AMOUNT {
                return Err(err(
                    line,
                    i + 1,
                    format!(
                        "{name} '{}': expected a {} amount of at most 1e15",
                        clip(&rec[i], 40),
                        if positive { "positive" } else { "non-negative" }
                    ),
                ));
            }
            Ok(v)
        };
        let wagered = num(2, "wagered", true)?;
        let returned = num(3, "returned", false)?;
        out.push(Period {
            line,
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
    /// The rtplab version that made the report.
    pub version: &'static str,
    /// The log of periods.
    pub log: LogFile,
    pub expected: Expectation,
    /// Two-sided level in percent, and its critical z.
    pub level: f64,
    pub z_level: f64,
    pub periods: Vec<PeriodRow>,
    /// The running total after each period.
    pub cumulative: Vec<PeriodRow>,
    pub out_of_band: usize,
    /// Whether the running total after the last period is inside its band.
    pub total_in_band: bool,
}

impl MonitorModel {
    /// Whether every period and the final running total are inside their bands (exit 0).
    pub fn all_in_band(&self) -> bool {
        self.out_of_band == 0 && self.total_in_band
    }
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

/// The log a report was made from: its name and the FNV-1a-64 hash of its content, stated in
/// the report so that the figures can be tied to the file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogFile {
    pub name: String,
    pub fnv1a64: String,
}

impl LogFile {
    pub fn new(name: &str, text: &str) -> LogFile {
        LogFile {
            name: name.to_string(),
            fnv1a64: format!("{:016x}", crate::shard::fnv1a64(text.as_bytes())),
        }
    }
}

/// Hold `periods` (read from `log`) against `e` at `level`. A period that returned more than
/// the game can pay back on what was wagered is a data error.
pub fn monitor(
    e: &Expectation,
    periods: &[Period],
    level: f64,
    log: &LogFile,
) -> Result<MonitorModel, MonitorError> {
    let file = log.name.as_str();
    let zl = z_of_level(level)?;
    if let Some(mx) = e.max_return {
        if let Some(p) = periods.iter().find(|p| p.returned > mx * p.wagered) {
            return Err(MonitorError::Log {
                file: file.into(),
                line: p.line,
                column: 4,
                msg: format!(
                    "returned {} is more than {mx} times the amount wagered {}, the most a round of this game pays back: a data error, not play",
                    p.returned, p.wagered
                ),
            });
        }
    }
    let rows: Vec<PeriodRow> = periods
        .iter()
        .map(|p| row(e, zl, p.period.clone(), p.rounds, p.wagered, p.returned))
        .collect();
    let (mut n, mut w, mut r) = (0u64, 0.0, 0.0);
    let cumulative: Vec<PeriodRow> = periods
        .iter()
        .map(|p| {
            n += p.rounds;
            w += p.wagered;
            r += p.returned;
            row(e, zl, format!("to {}", p.period), n, w, r)
        })
        .collect();
    Ok(MonitorModel {
        version: crate::VERSION,
        log: log.clone(),
        expected: e.clone(),
        level,
        z_level: zl,
        out_of_band: rows.iter().filter(|p| !p.in_band).count(),
        total_in_band: cumulative.last().is_none_or(|c: &PeriodRow| c.in_band),
        periods: rows,
        cumulative,
    })
}

/// An amount with two decimals and thousands separators (12,345.60).
fn money(v: f64) -> String {
    let text = format!("{:.2}", v.abs());
    let (whole, cents) = text.split_at(text.len() - 3);
    let sign = if v < 0.0 && text != "0.00" { "-" } else { "" };
    format!("{sign}{}{cents}", crate::report::group_digits(whole))
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
        "log".into(),
        format!(
            "{} (FNV-1a-64 {}), {} periods",
            m.log.name,
            m.log.fnv1a64,
            crate::report::count(m.periods.len() as u64)
        ),
    ));
    r.meta.push((
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
                Cell::from(if p.in_band { "in band" } else { "OUT OF BAND" }),
            ]);
        }
        r.sections.push(s);
    }
    if let Some(total) = m.cumulative.last() {
        r.notes.push(format!(
            "Running total after {}: RTP {} over {} rounds, z = {:+.2}: {}.",
            m.periods.last().map_or("", |p| p.period.as_str()),
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

/// `monitor`: the expected report, the log of periods (`-`: standard input), the acceptance
/// level, where the report goes. It fails when a period is out of its band.
pub struct MonitorJob {
    pub expected: std::path::PathBuf,
    pub log: std::path::PathBuf,
    pub level: f64,
    pub outputs: crate::job::Outputs,
}

impl crate::job::Job for MonitorJob {
    fn outputs(&self) -> &crate::job::Outputs {
        &self.outputs
    }
    fn run(self, _: &crate::job::Ctx) -> Result<crate::job::Outcome, crate::job::Error> {
        use crate::input::{read_stdin, read_text, MAX_SHARD_BYTES, MAX_TEXT_BYTES, STDIN};
        const MAX_LOG_BYTES: u64 = MAX_TEXT_BYTES * 64;
        // The level first: a bad one is refused before any file is read.
        z_of_level(self.level)?;
        let text = read_text(&self.expected, "--expected", MAX_SHARD_BYTES)?;
        let expected = Expectation::from_json(&text, &self.expected.display().to_string())?;
        // `-` reads the log from standard input (an export piped in).
        let (log_name, log) = if self.log.as_os_str() == "-" {
            (STDIN.to_string(), read_stdin("the log", MAX_LOG_BYTES)?)
        } else {
            let log = read_text(&self.log, "the log", MAX_LOG_BYTES)?;
            (self.log.display().to_string(), log)
        };
        let periods = parse_log(&log, &log_name)?;
        let model = monitor(
            &expected,
            &periods,
            self.level,
            &LogFile::new(&log_name, &log),
        )?;
        let report = render(&model);
        let ok = model.all_in_band();
        Ok(crate::job::Outcome::Report {
            report,
            plots: Box::new(move || {
                let svg = plot(&model).map_err(crate::job::plot_error("the funnel plot"))?;
                Ok(vec![("funnel.svg".to_string(), svg)])
            }),
            status: crate::job::Status::checked(ok),
            unsaved: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lf() -> LogFile {
        LogFile::new("l.csv", "")
    }

    fn exp() -> Expectation {
        Expectation {
            rtp: 0.99,
            sd_per_round: 1.0,
            max_return: Some(12.0),
            tier: None,
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
        // The maximum return is read where stated (the audit's object, a simulation report).
        let e = Expectation::from_json(
            r#"{"monitoring": {"rtp_total_wagered": 0.99, "sd_per_round": 1.1, "max_return_per_wagered": 12}}"#,
            "m.json",
        )
        .unwrap();
        assert_eq!(e.max_return, Some(12.0));
        assert_eq!(e.tier, None);
        let audit =
            r#"{"monitoring": {"tier": "basic", "rtp_total_wagered": 0.99, "sd_per_round": 1.1}}"#;
        assert_eq!(
            Expectation::from_json(audit, "a.json")
                .unwrap()
                .tier
                .as_deref(),
            Some("basic")
        );
        let sim = r#"{"rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 100, "max_return_per_wagered": 12}"#;
        assert_eq!(
            Expectation::from_json(sim, "s.json").unwrap().max_return,
            Some(12.0)
        );
        // A flat baccarat bet: its exact RTP and the simulated SD per coup per unit staked.
        let e = Expectation::from_json(
            include_str!("../reports/baccarat-banker/report.json"),
            "b.json",
        )
        .unwrap();
        assert_eq!(
            (e.rtp, e.sd_per_round),
            (0.989420942157528, 0.9273582206409534)
        );
        let five = r#"{"game": "baccarat", "pairs": 0, "max_stake": 5, "average_bet": 5, "rtp_exact": 0.98, "sd_coup": 4.5}"#;
        let e = Expectation::from_json(five, "b.json").unwrap();
        assert_eq!((e.rtp, e.sd_per_round), (0.98, 0.9));
        // Reports that cannot certify a band are refused, each saying why.
        let martingale = include_str!("../reports/baccarat-martingale/report.json");
        for (bad, why) in [
            (martingale, "whose bets vary"),
            (
                r#"{"game": "baccarat", "pairs": 1, "max_stake": 1, "average_bet": 1, "rtp_exact": 0.98, "sd_coup": 1}"#,
                "pair bets",
            ),
            (
                r#"{"game": "baccarat", "pairs": 0, "max_stake": 1, "average_bet": 1, "sd_coup": 1}"#,
                "no exact RTP",
            ),
            (
                r#"{"rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 100, "interrupted": true}"#,
                "interrupted",
            ),
            (
                r#"{"rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 100, "count_key": "true count"}"#,
                "equal stakes",
            ),
            // A percent where a fraction belongs: 9950%.
            (
                r#"{"monitoring": {"rtp_total_wagered": 99.5, "sd_per_round": 1.1}}"#,
                "RTPs are fractions",
            ),
            (
                r#"{"monitoring": {"rtp_total_wagered": 13, "sd_per_round": 1.1, "max_return_per_wagered": 12}}"#,
                "more than a round can return (12)",
            ),
            (
                r#"{"monitoring": {"rtp_total_wagered": 0.9, "sd_per_round": 1.1, "max_return_per_wagered": 0.5}}"#,
                "max_return_per_wagered 0.5",
            ),
        ] {
            let e = Expectation::from_json(bad, "b.json")
                .unwrap_err()
                .to_string();
            assert!(
                e.starts_with("--expected b.json: ") && e.contains(why),
                "{e}"
            );
        }
        // Without a stated maximum, up to 1000% is taken as stated.
        let e = r#"{"monitoring": {"rtp_total_wagered": 10, "sd_per_round": 1.1}}"#;
        assert_eq!(
            Expectation::from_json(e, "m.json").unwrap().max_return,
            None
        );
    }

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

    #[test]
    fn impossible_periods_are_data_errors() {
        // 12 times the amount wagered is the most a round returns; more is refused by line.
        let log = "period,rounds,wagered,returned\nmon,10,100,1200\ntue,10,100,1200.5\n";
        let p = parse_log(log, "l.csv").unwrap();
        assert!(monitor(&exp(), &p[..1], 99.0, &lf()).is_ok());
        let e = monitor(&exp(), &p, 99.0, &lf()).unwrap_err().to_string();
        assert!(
            e.starts_with("l.csv:3:4: returned 1200.5 is more than 12 times"),
            "{e}"
        );
        // No stated maximum: taken as play (and far out of band).
        let free = Expectation {
            max_return: None,
            ..exp()
        };
        let m = monitor(&free, &p, 99.0, &lf()).unwrap();
        assert!(!m.all_in_band() && m.out_of_band == 2);
        let text = render(&m).render(crate::report::Format::Table);
        assert!(text.contains("OUT OF BAND (exit code 1)") && !text.contains("no single period"));
        // Amounts beyond 1e15 would overflow the sums to infinity: refused.
        let e = parse_log("period,rounds,wagered,returned\nd,100,1.7e308,1\n", "l.csv")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("l.csv:2:3:") && e.contains("at most 1e15"),
            "{e}"
        );
        assert!(parse_log("period,rounds,wagered,returned\nd,100,1e15,1e15\n", "l.csv").is_ok());
    }

    #[test]
    fn a_drift_no_period_shows_fails_the_running_total() {
        // 30 periods each at z = +2 (inside the 99% band: |z| <= 2.576); the total's z is
        // 2·√30 = 11: out of band, so the run is not all in band (exit code 1).
        let mut log = String::from("period,rounds,wagered,returned\n");
        for d in 0..30 {
            // SE 0.01 at 10,000 rounds: RTP 0.99 + 0.02.
            log += &format!("d{d},10000,10000,10100\n");
        }
        let m = monitor(&exp(), &parse_log(&log, "l.csv").unwrap(), 99.0, &lf()).unwrap();
        assert_eq!(m.out_of_band, 0);
        assert!(!m.total_in_band && !m.all_in_band());
        let c = m.cumulative.last().unwrap();
        assert!((c.z - 2.0 * 30f64.sqrt()).abs() < 1e-6, "{}", c.z);
        let text = render(&m).render(crate::report::Format::Table);
        assert!(
            text.contains("Running total after d29")
                && text.contains("OUT OF BAND (a sustained drift"),
            "{text}"
        );
        // One period in band: all in band.
        let one = monitor(&exp(), &parse_log(&log, "l.csv").unwrap()[..1], 99.0, &lf()).unwrap();
        assert!(one.total_in_band && one.all_in_band());
    }

    #[test]
    fn periods_against_the_band_by_hand() {
        let log = "period,rounds,wagered,returned\nmon,10000,10000,9950\ntue,10000,10000,9500\n";
        let p = parse_log(log, "l.csv").unwrap();
        let m = monitor(&exp(), &p, 99.0, &LogFile::new("week.csv", log)).unwrap();
        // The report names the log and its hash, and the version that made it.
        assert_eq!(m.log.name, "week.csv");
        assert_eq!(
            m.log.fnv1a64,
            format!("{:016x}", crate::shard::fnv1a64(log.as_bytes()))
        );
        assert_ne!(m.log.fnv1a64, LogFile::new("week.csv", "").fnv1a64);
        let text = render(&m).render(crate::report::Format::Table);
        assert!(
            text.contains(&format!(
                "week.csv (FNV-1a-64 {}), 2 periods",
                m.log.fnv1a64
            )),
            "{text}"
        );
        let json = render(&m).render(crate::report::Format::Json);
        assert!(
            json.contains(&format!("\"version\": \"{}\"", crate::VERSION)),
            "{json}"
        );
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
            ("", "l.csv:1:1: the file is empty"),
            ("\n \n", "the file is empty"),
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
        // A binary file's "header" is quoted in part, never whole.
        let junk = "\0".repeat(1 << 20);
        let e = parse_log(&junk, "l.csv").unwrap_err().to_string();
        assert!(e.len() < 300 && e.contains("…"), "{} bytes", e.len());
        let long = format!(
            "period,rounds,wagered,returned\n{},1,1,1\n",
            "p".repeat(201)
        );
        let e = parse_log(&long, "l.csv").unwrap_err().to_string();
        assert!(e.contains("longer than 200"), "{e}");
    }
}
