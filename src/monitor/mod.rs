//! Live-RTP monitoring: periods of play (`period,rounds,wagered,returned`, and optionally
//! `stake_sq`) against an expected RTP per amount wagered and its volatility, each period and
//! the running total inside or outside its acceptance band.
//!
//! The expected figures come from a report's JSON, read into typed figures whose every field is
//! required: a `monitoring` object (`rtp_total_wagered`, `sd_per_round`: the SD of one round's
//! return per unit wagered), a simulation report's `rtp_total_wagered` and
//! `rtp_total_wagered_se` with its observation count (`seat_rounds`, else `initial_bets`, else
//! `rounds`), which give the SD per round as SE·√n, or a baccarat report of one flat bet
//! (`rtp_exact`, and `sd_coup` per unit staked; a tie is a coup wagered whose stake comes back,
//! so the log must count ties as rounds and their stakes as wagered and returned). Each states
//! `max_return_per_wagered`, the most a round returns per amount wagered under the game's
//! rules; where the report gives its game's rules the bound is computed from them again and a
//! report stating another is refused. A period that returned more is a data error.
//!
//! A period's SE is σ·√(Σb²)/Σb, σ the SD per round and b each round's stake (what it
//! wagered), when the log carries `stake_sq` = Σb² (Σb is `wagered`). Without it the stakes are
//! taken as equal: SE σ/√R for `R` rounds, a lower bound, as unequal stakes widen it by
//! √(R·Σb²)/Σb ([`BandWidth`]). z = (observed − expected)/SE, and the band at level L is
//! expected ± z_L·SE.
//!
//! The log is read a row at a time: memory holds the rows shown, not the log. Beyond
//! `MAX_ROWS` periods, adjacent periods are merged into rows of 2, 4, 8, … periods for the
//! tables and the plots; every period is still held against its own band, the verdict and the
//! running total are exact, and the first `MAX_LISTED` periods out of band are listed, and the
//! `MAX_NAMED` farthest out named on the control chart.

use serde::Serialize;

mod expected;
mod plot;
mod read;
mod sections;
mod write;

pub use expected::{incomplete, Expectation, Figures, ReadFigures, Reader, MAX_AMOUNT};
pub use plot::{control_chart, funnel};
pub use read::{monitor, Period};
pub use sections::render;
pub use write::PeriodLogRow;

/// Why monitoring cannot start or read its log.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum MonitorError {
    #[error(transparent)]
    Input(#[from] crate::door::input::InputError),
    #[error("--expected {0}: not a JSON report ({1})")]
    NotJson(String, String),
    #[error("--expected {0}: it gives no expected RTP per amount wagered and its SD: expected a `monitoring` object, a simulation report's rtp_total_wagered and rtp_total_wagered_se, or a flat-betting baccarat report")]
    NoExpectation(String),
    #[error("--expected {file}: cannot read its {what}: {why}; {how}")]
    Incomplete {
        file: String,
        what: &'static str,
        why: String,
        how: &'static str,
    },
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

crate::job::carried!(MonitorError);

/// Most periods a log may hold (hourly periods for over 1,000 years): the running total's
/// rounds (at most 1e12 a period) stay inside u64.
pub const MAX_PERIODS: u64 = 10_000_000;

/// Most rows each table and the plot show: a longer log is shown with adjacent periods merged
/// into rows of 2, 4, 8, … periods (between `MAX_ROWS / 2` and `MAX_ROWS` rows).
pub const MAX_ROWS: usize = 400;

/// Most out-of-band periods listed one by one when the tables merge periods.
pub const MAX_LISTED: usize = 100;

/// Most out-of-band periods named on the control chart: those farthest out (largest |z|).
pub const MAX_NAMED: usize = 10;

/// Longest line of a log: a longer one (a binary file, a file without line ends) is refused
/// before it is held in memory.
pub const MAX_LINE_BYTES: u64 = 1 << 20;

/// Largest log: far more than `MAX_PERIODS` rows take.
pub const MAX_LOG_BYTES: u64 = crate::door::input::MAX_LOG_BYTES;

/// One period (or a row of periods, or the running total) against the expectation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PeriodRow {
    pub period: String,
    /// Where its first period is in the log: 1 for the log's first period.
    pub first_period: u64,
    /// The log's periods it holds (1 unless periods are merged; the running total: all so far).
    pub periods: u64,
    /// Of them, those outside their own band.
    pub periods_out_of_band: u64,
    /// The smallest and the largest z of its periods each against its own band (both `z` for
    /// a single period).
    pub z_range: [f64; 2],
    pub rounds: u64,
    pub wagered: f64,
    pub returned: f64,
    /// The sum of its rounds' squared stakes, when the log carries it (`stake_sq`).
    pub stake_sq: Option<f64>,
    pub rtp: f64,
    pub se: f64,
    pub z: f64,
    /// The acceptance band at the level.
    pub band: [f64; 2],
    pub in_band: bool,
}

/// What a band's width is built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BandWidth {
    /// Each period's logged sum of squared stakes (`stake_sq`): SE = σ·√(Σb²)/Σb.
    Stakes,
    /// Stakes assumed equal (the log has no `stake_sq`): SE = σ/√rounds. When stakes vary the
    /// true band is wider by √(R·Σb²)/Σb, so this one is a lower bound on its width: a period
    /// out of it may be inside the true band.
    LowerBound,
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
    /// What the bands' widths are built from: the logged stakes, or equal stakes (a lower
    /// bound).
    pub band_width: BandWidth,
    /// Periods in the log.
    pub log_periods: u64,
    /// Periods in each row of `periods` and `cumulative` (1: every period its own row; more
    /// when the log has more than `MAX_ROWS` periods).
    pub periods_per_row: u64,
    pub periods: Vec<PeriodRow>,
    /// The running total after each row.
    pub cumulative: Vec<PeriodRow>,
    /// Periods outside their own band, counted one by one.
    pub out_of_band: u64,
    /// The first `MAX_LISTED` of them.
    pub out_of_band_periods: Vec<PeriodRow>,
    /// The `MAX_NAMED` of them farthest out (largest |z|; the earlier of equals), in log order:
    /// those the control chart names.
    pub farthest_out_of_band: Vec<PeriodRow>,
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

/// The log a report was made from: its name and the FNV-1a-64 hash of its content (without a
/// byte-order mark), stated in the report so that the figures can be tied to the file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogFile {
    pub name: String,
    pub fnv1a64: String,
}

impl LogFile {
    fn of_hash(name: &str, hash: u64) -> LogFile {
        LogFile {
            name: name.to_string(),
            fnv1a64: format!("{hash:016x}"),
        }
    }
}

/// `monitor`: the expected report, the log of periods (`-`: standard input), the acceptance
/// level, where the report goes. It fails when a period is out of its band.
pub struct MonitorJob {
    /// The games' own readings of their reports (the registry's).
    pub readers: Vec<Reader>,
    pub expected: std::path::PathBuf,
    pub log: std::path::PathBuf,
    pub level: f64,
    /// One wager of a dossier to hold the periods against (`--wager`), not its main bet.
    pub wager: Option<String>,
    pub outputs: crate::job::Outputs,
}

impl crate::job::Job for MonitorJob {
    fn outputs(&self) -> &crate::job::Outputs {
        &self.outputs
    }
    fn run(self, _: &crate::job::Ctx) -> Result<crate::job::Outcome, crate::job::Error> {
        use crate::door::input::{open_file, read_text, MAX_SHARD_BYTES, STDIN};
        // The level first: a bad one is refused before any file is read.
        z_of_level(self.level)?;
        let text = read_text(&self.expected, "--expected", MAX_SHARD_BYTES)?;
        let file = self.expected.display().to_string();
        let expected = match &self.wager {
            Some(name) => Expectation::of_wager(&text, &file, name)?,
            None => Expectation::from_json(&text, &file, &self.readers)?,
        };
        // `-` reads the log from standard input (an export piped in).
        let model = if self.log.as_os_str() == "-" {
            monitor(&expected, self.level, STDIN, std::io::stdin().lock())?
        } else {
            let (log, _) = open_file(&self.log, "the log")?;
            monitor(&expected, self.level, &self.log.display().to_string(), log)?
        };
        let report = render(&model);
        let ok = model.all_in_band();
        Ok(crate::job::Outcome::Report {
            report,
            plots: Box::new(move || {
                let funnel = funnel(&model).map_err(crate::job::plot_error("the funnel plot"))?;
                let control =
                    control_chart(&model).map_err(crate::job::plot_error("the control chart"))?;
                Ok(vec![
                    ("funnel.svg".to_string(), funnel),
                    ("control-chart.svg".to_string(), control),
                ])
            }),
            status: crate::job::Status::checked(ok),
            unsaved: None,
        })
    }
}
