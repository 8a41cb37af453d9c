//! Live-RTP monitoring: periods of play (`period,rounds,wagered,returned`) against an expected
//! RTP per amount wagered and its volatility, each period and the running total inside or
//! outside its acceptance band.
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
//! A period of `R` rounds has SE σ/√R (rounds of equal stakes; unequal stakes widen it by
//! √(R·Σb²)/Σb, which the log does not carry), z = (observed − expected)/SE, and its band at
//! level L is expected ± z_L·SE.
//!
//! The log is read a row at a time: memory holds the rows shown, not the log. Beyond
//! `MAX_ROWS` periods, adjacent periods are merged into rows of 2, 4, 8, … periods for the
//! tables and the plot; every period is still held against its own band, the verdict and the
//! running total are exact, and the first `MAX_LISTED` periods out of band are listed.

use std::io::{BufRead, Read};

use serde::{Deserialize, Serialize};

use crate::report::{count_cell, pct_cell, Cell, Report, Section};

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

/// What the periods are held against.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expectation {
    pub rtp: f64,
    pub sd_per_round: f64,
    /// The most a round can pay back per amount wagered under the game's rules (the report's
    /// `max_return_per_wagered`): a period that returned more is a data error.
    pub max_return: f64,
    /// The strategy tier the figures are of (the audit's `monitoring.tier`), when stated.
    pub tier: Option<String>,
    /// Where it came from.
    pub source: String,
}

/// The largest amount (wagered or returned) one period may carry: far above any table's
/// turnover (sums of `MAX_PERIODS` periods stay far inside f64's range; like any f64 amount
/// they are exact to the cent only below about 9e13).
pub const MAX_AMOUNT: f64 = 1e15;

/// What any report says of itself, read before its figures.
#[derive(Deserialize)]
struct Head {
    game: Option<String>,
    interrupted: Option<bool>,
    count_key: Option<serde::de::IgnoredAny>,
    monitoring: Option<serde_json::Value>,
    rtp_total_wagered: Option<serde::de::IgnoredAny>,
}

/// A dossier's `monitoring` object (`rtplab audit`).
#[derive(Deserialize)]
struct MonitoringFigures {
    rtp_total_wagered: f64,
    sd_per_round: f64,
    max_return_per_wagered: f64,
    tier: Option<String>,
}

/// A simulation report's figures per amount wagered.
#[derive(Deserialize)]
struct SimFigures {
    rtp_total_wagered: f64,
    rtp_total_wagered_se: f64,
    max_return_per_wagered: f64,
    /// The observations of the SE: seat-rounds (initial bets or rounds in reports without).
    seat_rounds: Option<f64>,
    initial_bets: Option<f64>,
    rounds: Option<f64>,
}

/// How to make a report that `monitor` reads, by its kind.
const HOW_AUDIT: &str = "make the dossier again with this version of rtplab (`rtplab audit blackjack --out-dir DIR` with the options that made it), whose `monitoring` object has every field";
const HOW_SIM: &str = "make the report again with this version of rtplab (`rtplab sim blackjack --out-dir DIR` with the options that made it), which states every field";

/// A game's reading of its own reports for `monitor` (`Game::MONITOR`), where they differ
/// from what every report states. The binary gives `monitor` the readers of its registry.
#[derive(Clone, Copy)]
pub struct Reader {
    /// The game (a report's `game`).
    pub game: &'static str,
    /// The figures of a report without a `monitoring` object, when the game's reports state
    /// them their own way (`None`: a simulation report's RTP per amount wagered and its SE);
    /// called with the report and its file name.
    pub figures: Option<ReadFigures>,
    /// The most a round can return per amount wagered under the rules the report states,
    /// which the report's own statement must equal.
    pub max_return: fn(&serde_json::Value) -> Result<f64, serde_json::Error>,
}

/// A game's reading of a report's figures (the report, its file name).
pub type ReadFigures = fn(&serde_json::Value, &str) -> Result<Figures, MonitorError>;

/// The expected figures a report gives, before they are checked.
pub struct Figures {
    pub rtp: f64,
    pub sd_per_round: f64,
    /// The report's `max_return_per_wagered`.
    pub max_return: f64,
    /// Where they came from (the file and what in it).
    pub source: String,
    /// How to make a report that states them all, for a message when one is missing.
    pub how: &'static str,
}

/// The error for a report `file` whose `what` cannot be read (`how`: how to make one that
/// can), from the reason serde gives.
pub fn incomplete<'a>(
    file: &'a str,
    what: &'static str,
    how: &'static str,
) -> impl Fn(serde_json::Error) -> MonitorError + 'a {
    move |e| MonitorError::Incomplete {
        file: file.into(),
        what,
        why: e.to_string(),
        how,
    }
}

impl Expectation {
    /// From a report's JSON text (`file` names it in errors); `readers` are the games' own
    /// readings of their reports (the registry's).
    pub fn from_json(
        text: &str,
        file: &str,
        readers: &[Reader],
    ) -> Result<Expectation, MonitorError> {
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| MonitorError::NotJson(file.into(), e.to_string()))?;
        let unsuitable = |why: &str| Err(MonitorError::Unsuitable(file.into(), why.into()));
        let head = Head::deserialize(&v).map_err(incomplete(file, "report", HOW_SIM))?;
        if head.interrupted == Some(true) {
            return unsuitable("the report is of an interrupted (partial) run: hold live results against a complete run's figures");
        }
        if head.count_key.is_some() {
            return unsuitable("the report is of a card counter, whose bets vary with the count: the bands assume rounds of equal stakes; use a flat-betting report (the same strategy without --count)");
        }
        let reader = readers
            .iter()
            .find(|r| Some(r.game) == head.game.as_deref());
        let (f, tier) = if let Some(m) = &head.monitoring {
            let m = MonitoringFigures::deserialize(m).map_err(incomplete(
                file,
                "`monitoring` object",
                HOW_AUDIT,
            ))?;
            let f = Figures {
                rtp: m.rtp_total_wagered,
                sd_per_round: m.sd_per_round,
                max_return: m.max_return_per_wagered,
                source: format!("{file}: monitoring"),
                how: HOW_AUDIT,
            };
            (f, m.tier)
        } else if let Some(read) = reader.and_then(|r| r.figures) {
            (read(&v, file)?, None)
        } else if head.rtp_total_wagered.is_some() {
            (sim_figures(&v, file)?, None)
        } else {
            return Err(MonitorError::NoExpectation(file.into()));
        };
        let Figures {
            rtp,
            sd_per_round: sd,
            max_return: stated,
            source,
            how,
        } = f;
        if !(rtp.is_finite() && rtp > 0.0 && sd.is_finite() && sd > 0.0) {
            return Err(MonitorError::BadExpectation(file.into(), rtp, sd));
        }
        if !(stated.is_finite() && stated >= 1.0) {
            return unsuitable(&format!(
                "max_return_per_wagered {stated} is not a finite number of at least 1"
            ));
        }
        // The bound comes from the game's rules: where the report gives them, its statement
        // must be what they give.
        let ruled = reader
            .map(|r| (r.max_return)(&v))
            .transpose()
            .map_err(incomplete(file, "rules", how))?;
        if let Some(mx) = ruled.filter(|mx| (mx - stated).abs() > 1e-12 * mx) {
            return unsuitable(&format!(
                "max_return_per_wagered {stated} is not what its rules give ({mx}): the report was edited or made by another version; {how}"
            ));
        }
        if rtp > stated {
            return unsuitable(&format!(
                "the expected RTP per amount wagered {rtp} ({:.0}%) is more than a round can return ({stated}): RTPs are fractions (0.9954 for 99.54%)",
                rtp * 100.0
            ));
        }
        Ok(Expectation {
            rtp,
            sd_per_round: sd,
            max_return: stated,
            tier,
            source,
        })
    }
}

/// A simulation report's figures: the RTP per amount wagered, and the SD per round from its
/// SE and observation count.
fn sim_figures(v: &serde_json::Value, file: &str) -> Result<Figures, MonitorError> {
    let read = incomplete(file, "simulation figures", HOW_SIM);
    let s = SimFigures::deserialize(v).map_err(&read)?;
    let Some(n) = s.seat_rounds.or(s.initial_bets).or(s.rounds) else {
        return Err(read(serde::de::Error::missing_field("seat_rounds")));
    };
    Ok(Figures {
        rtp: s.rtp_total_wagered,
        sd_per_round: s.rtp_total_wagered_se * n.sqrt(),
        max_return: s.max_return_per_wagered,
        source: format!("{file}: simulated RTP per amount wagered, SD per round from its SE"),
        how: HOW_SIM,
    })
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

/// Most periods a log may hold (hourly periods for over 1,000 years): the running total's
/// rounds (at most 1e12 a period) stay inside u64.
pub const MAX_PERIODS: u64 = 10_000_000;

/// Most rows each table and the plot show: a longer log is shown with adjacent periods merged
/// into rows of 2, 4, 8, … periods (between `MAX_ROWS / 2` and `MAX_ROWS` rows).
pub const MAX_ROWS: usize = 400;

/// Most out-of-band periods listed one by one when the tables merge periods.
pub const MAX_LISTED: usize = 100;

/// Longest line of a log: a longer one (a binary file, a file without line ends) is refused
/// before it is held in memory.
pub const MAX_LINE_BYTES: u64 = 1 << 20;

/// Largest log: far more than `MAX_PERIODS` rows take.
pub const MAX_LOG_BYTES: u64 = crate::door::input::MAX_LOG_BYTES;

/// At most `n` characters of `s` for a message (a binary file's "header" can be megabytes).
fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n).collect::<String>() + "…"
    }
}

/// FNV-1a-64 of nothing; `fnv_add` continues it over more bytes (as `shard::fnv1a64`).
const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv_add(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// Why the tap stopped the log.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Stop {
    /// This line is longer than `MAX_LINE_BYTES`.
    LongLine(usize),
    TooBig,
}

/// The log's bytes on their way to the CSV reader: hashed (FNV-1a-64, as the report names the
/// log) and counted, a line longer than `MAX_LINE_BYTES` or a log larger than `MAX_LOG_BYTES`
/// stopped before it is read.
struct Tap<R> {
    inner: R,
    hash: u64,
    bytes: u64,
    /// The line being read (from 1) and its bytes so far.
    line: usize,
    line_bytes: u64,
    stop: Option<Stop>,
}

impl<R: BufRead> Tap<R> {
    /// A leading UTF-8 byte-order mark is dropped (nor hashed).
    fn new(mut inner: R) -> std::io::Result<Tap<R>> {
        const BOM: &[u8] = "\u{feff}".as_bytes();
        if inner.fill_buf()?.starts_with(BOM) {
            inner.consume(BOM.len());
        }
        Ok(Tap {
            inner,
            hash: FNV_START,
            bytes: 0,
            line: 1,
            line_bytes: 0,
            stop: None,
        })
    }
}

impl<R: Read> Read for Tap<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let stopped =
            |s: Stop| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("{s:?}"));
        if let Some(s) = self.stop {
            return Err(stopped(s));
        }
        let n = self.inner.read(buf)?;
        // The bytes before a stop go on; the read after them fails.
        let mut ok = n;
        for (i, &b) in buf[..n].iter().enumerate() {
            self.bytes += 1;
            if b == b'\n' {
                self.line += 1;
                self.line_bytes = 0;
            } else {
                self.line_bytes += 1;
            }
            if self.line_bytes > MAX_LINE_BYTES {
                self.stop = Some(Stop::LongLine(self.line));
            } else if self.bytes > MAX_LOG_BYTES {
                self.stop = Some(Stop::TooBig);
            }
            if let Some(s) = self.stop {
                if i == 0 {
                    return Err(stopped(s));
                }
                ok = i;
                break;
            }
        }
        self.hash = fnv_add(self.hash, &buf[..ok]);
        Ok(ok)
    }
}

/// Sums of a run of periods.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Sums {
    periods: u64,
    rounds: u64,
    wagered: f64,
    returned: f64,
    /// Periods outside their own band.
    out: u64,
}

impl Sums {
    fn add(&mut self, o: &Sums) {
        self.periods += o.periods;
        self.rounds += o.rounds;
        self.wagered += o.wagered;
        self.returned += o.returned;
        self.out += o.out;
    }
}

/// Adjacent periods shown as one row: their sums, and the running total after the last.
#[derive(Clone, Debug)]
struct Group {
    first: String,
    last: String,
    sums: Sums,
    to: Sums,
}

/// One period (or a row of periods, or the running total) against the expectation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PeriodRow {
    pub period: String,
    /// The log's periods it holds (1 unless periods are merged; the running total: all so far).
    pub periods: u64,
    /// Of them, those outside their own band.
    pub periods_out_of_band: u64,
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

fn row(e: &Expectation, zl: f64, period: String, s: &Sums) -> PeriodRow {
    let rtp = s.returned / s.wagered;
    let se = e.sd_per_round / (s.rounds as f64).sqrt();
    let z = (rtp - e.rtp) / se;
    PeriodRow {
        period,
        periods: s.periods,
        periods_out_of_band: s.out,
        rounds: s.rounds,
        wagered: s.wagered,
        returned: s.returned,
        rtp,
        se,
        z,
        band: [e.rtp - zl * se, e.rtp + zl * se],
        in_band: z.abs() <= zl,
    }
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

/// The periods as they are read: each held against its band, merged into rows for showing.
struct Tally<'a> {
    e: &'a Expectation,
    zl: f64,
    total: Sums,
    groups: Vec<Group>,
    per_row: u64,
    listed: Vec<PeriodRow>,
}

impl Tally<'_> {
    fn push(&mut self, p: Period) {
        let mut one = Sums {
            periods: 1,
            rounds: p.rounds,
            wagered: p.wagered,
            returned: p.returned,
            out: 0,
        };
        let r = row(self.e, self.zl, p.period, &one);
        one.out = u64::from(!r.in_band);
        if !r.in_band && self.listed.len() < MAX_LISTED {
            self.listed.push(PeriodRow {
                periods_out_of_band: 1,
                ..r.clone()
            });
        }
        self.total.add(&one);
        let full = self
            .groups
            .last()
            .is_none_or(|g| g.sums.periods == self.per_row);
        if full && self.groups.len() == MAX_ROWS {
            self.merge();
        }
        match self.groups.last_mut() {
            Some(g) if g.sums.periods < self.per_row => {
                g.sums.add(&one);
                g.last = r.period;
                g.to = self.total;
            }
            _ => self.groups.push(Group {
                first: r.period.clone(),
                last: r.period,
                sums: one,
                to: self.total,
            }),
        }
    }

    /// Merge adjacent rows in pairs: twice the periods to a row.
    fn merge(&mut self) {
        let mut merged = Vec::with_capacity(MAX_ROWS / 2 + 1);
        let mut it = std::mem::take(&mut self.groups).into_iter();
        while let Some(mut a) = it.next() {
            if let Some(b) = it.next() {
                a.sums.add(&b.sums);
                a.last = b.last;
                a.to = b.to;
            }
            merged.push(a);
        }
        self.groups = merged;
        self.per_row *= 2;
    }
}

/// A row of the log as a period; `err` names its line and column.
fn period_of(
    rec: &csv::ByteRecord,
    line: usize,
    err: &impl Fn(usize, usize, String) -> MonitorError,
) -> Result<Period, MonitorError> {
    let field = |i: usize| {
        std::str::from_utf8(&rec[i])
            .map_err(|_| err(line, i + 1, "not UTF-8 text; save the log as UTF-8".into()))
    };
    let period = field(0)?.to_string();
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
    let text = field(1)?;
    let rounds: u64 = text
        .parse()
        .ok()
        .filter(|r| (1..=1_000_000_000_000).contains(r))
        .ok_or_else(|| {
            err(
                line,
                2,
                format!(
                    "rounds '{}': expected a whole number from 1 to 1e12",
                    clip(text, 40)
                ),
            )
        })?;
    let num = |i: usize, name: &str, positive: bool| -> Result<f64, MonitorError> {
        let text = field(i)?;
        let v: f64 = text.parse().map_err(|_| {
            err(
                line,
                i + 1,
                format!("{name} '{}': not a number", clip(text, 40)),
            )
        })?;
        if !v.is_finite() || v < 0.0 || (positive && v == 0.0) || v > MAX_AMOUNT {
            return Err(err(
                line,
                i + 1,
                format!(
                    "{name} '{}': expected a {} amount of at most 1e15",
                    clip(text, 40),
                    if positive { "positive" } else { "non-negative" }
                ),
            ));
        }
        Ok(v)
    };
    Ok(Period {
        line,
        period,
        rounds,
        wagered: num(2, "wagered", true)?,
        returned: num(3, "returned", false)?,
    })
}

/// An error in log `name` at `line` and `column`.
fn log_error(name: &str, line: usize, column: usize, msg: String) -> MonitorError {
    MonitorError::Log {
        file: name.into(),
        line,
        column,
        msg,
    }
}

/// A failed read of log `name`: a line too long, a log too large, or the CSV reader's own error.
fn read_failure(name: &str, e: csv::Error, stop: Option<Stop>) -> MonitorError {
    use crate::door::input::InputError;
    match stop {
        Some(Stop::LongLine(line)) => log_error(
            name,
            line,
            1,
            format!(
                "the line is longer than {} bytes: not a log of periods (a binary file, or one without line ends)",
                crate::report::count(MAX_LINE_BYTES)
            ),
        ),
        Some(Stop::TooBig) => MonitorError::Input(InputError::TooBigStream {
            what: "the log".into(),
            path: name.into(),
            limit: MAX_LOG_BYTES,
        }),
        None => match e.kind() {
            csv::ErrorKind::Io(io) => MonitorError::Input(InputError::Io {
                what: "the log".into(),
                path: name.into(),
                why: io.to_string(),
            }),
            _ => {
                let line = e.position().map_or(0, |p| p.line() as usize);
                log_error(name, line, 1, format!("not a CSV row of 4 fields: {e}"))
            }
        },
    }
}

/// Read log `name`'s header: `period,rounds,wagered,returned`, else say what the file holds
/// instead (nothing but blank lines, or another header).
fn read_header<T: BufRead>(rdr: &mut csv::Reader<Tap<T>>, name: &str) -> Result<(), MonitorError> {
    let err = |line: usize, column: usize, msg: String| log_error(name, line, column, msg);
    let headers = match rdr.byte_headers() {
        Ok(h) => h.clone(),
        Err(e) => {
            return Err(match rdr.get_ref().stop {
                None => err(1, 1, format!("cannot read the header: {e}")),
                stop => read_failure(name, e, stop),
            })
        }
    };
    let want = ["period", "rounds", "wagered", "returned"];
    let got: Vec<String> = headers
        .iter()
        .map(|h| String::from_utf8_lossy(h).to_ascii_lowercase())
        .collect();
    if got == want {
        return Ok(());
    }
    let mut rec = csv::ByteRecord::new();
    // Nothing but blank lines: an empty file.
    let mut blank = got.iter().all(|h| h.is_empty());
    while blank {
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => blank = rec.iter().all(|f| f.is_empty()),
            Ok(false) => return Err(err(
                1,
                1,
                "the file is empty: expected a 'period,rounds,wagered,returned' header and a row per period".into(),
            )),
            Err(_) => blank = false,
        }
    }
    Err(err(
        1,
        1,
        format!(
            "the header is '{}': expected 'period,rounds,wagered,returned'",
            clip(&got.join(","), 80)
        ),
    ))
}

/// Hold every row of log `name` after its header against `tally`'s expectation, refusing a
/// bad row or a period that returned more than a round can pay back.
fn read_periods<T: BufRead>(
    rdr: &mut csv::Reader<Tap<T>>,
    name: &str,
    tally: &mut Tally,
) -> Result<(), MonitorError> {
    let err = |line: usize, column: usize, msg: String| log_error(name, line, column, msg);
    let mut rec = csv::ByteRecord::new();
    while rdr
        .read_byte_record(&mut rec)
        .map_err(|e| read_failure(name, e, rdr.get_ref().stop))?
    {
        let line = rec.position().map_or(0, |p| p.line() as usize);
        if tally.total.periods >= MAX_PERIODS {
            let most = crate::report::count(MAX_PERIODS);
            return Err(err(line, 1, format!("more than {most} periods")));
        }
        let p = period_of(&rec, line, &err)?;
        let mx = tally.e.max_return;
        if p.returned > mx * p.wagered {
            return Err(err(
                line,
                4,
                format!(
                    "returned {} is more than {mx} times the amount wagered {}, the most a round of this game pays back: a data error, not play",
                    p.returned, p.wagered
                ),
            ));
        }
        tally.push(p);
    }
    if tally.total.periods == 0 {
        return Err(err(2, 1, "no periods after the header".into()));
    }
    Ok(())
}

/// Hold the log read from `input` (`name` in messages: a `period,rounds,wagered,returned`
/// header, then one row per period) against `e` at `level`, a row at a time. A bad row, or a
/// period that returned more than a round of the game can pay back on what was wagered, is
/// refused with its line and column.
pub fn monitor<R: Read>(
    e: &Expectation,
    level: f64,
    name: &str,
    input: R,
) -> Result<MonitorModel, MonitorError> {
    let zl = z_of_level(level)?;
    let tap = Tap::new(std::io::BufReader::new(input))
        .map_err(|e| read_failure(name, csv::Error::from(e), None))?;
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .trim(csv::Trim::All)
        .from_reader(tap);
    read_header(&mut rdr, name)?;
    let mut tally = Tally {
        e,
        zl,
        total: Sums::default(),
        groups: Vec::new(),
        per_row: 1,
        listed: Vec::new(),
    };
    read_periods(&mut rdr, name, &mut tally)?;
    let label = |g: &Group| match g.sums.periods {
        1 => g.first.clone(),
        _ => format!("{} … {}", g.first, g.last),
    };
    let g = &tally.groups;
    let periods: Vec<PeriodRow> = g.iter().map(|g| row(e, zl, label(g), &g.sums)).collect();
    let cumulative: Vec<PeriodRow> = g
        .iter()
        .map(|g| row(e, zl, format!("to {}", g.last), &g.to))
        .collect();
    Ok(MonitorModel {
        version: crate::VERSION,
        log: LogFile::of_hash(name, rdr.get_ref().hash),
        expected: e.clone(),
        level,
        z_level: zl,
        log_periods: tally.total.periods,
        periods_per_row: tally.per_row,
        out_of_band: tally.total.out,
        total_in_band: cumulative.last().is_none_or(|c| c.in_band),
        periods,
        cumulative,
        out_of_band_periods: tally.listed,
    })
}

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
    notes.push(format!(
        "{} of {} periods outside the {}% band. A period's SE is the expected SD per round over √rounds (rounds of equal stakes; unequal stakes widen the band by √(R·Σb²)/Σb, which the log does not carry). At the {}% level about {:.1}% of periods fall outside by chance alone.",
        crate::report::count(m.out_of_band),
        crate::report::count(m.log_periods),
        m.level,
        m.level,
        100.0 - m.level
    ));
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
    /// The games' own readings of their reports (the registry's).
    pub readers: Vec<Reader>,
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
        use crate::door::input::{open_file, read_text, MAX_SHARD_BYTES, STDIN};
        // The level first: a bad one is refused before any file is read.
        z_of_level(self.level)?;
        let text = read_text(&self.expected, "--expected", MAX_SHARD_BYTES)?;
        let expected =
            Expectation::from_json(&text, &self.expected.display().to_string(), &self.readers)?;
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

    /// The expectation from a report, read with the readers the binary registers.
    fn from_json(text: &str, file: &str) -> Result<Expectation, MonitorError> {
        let readers = [
            crate::games::blackjack::MONITOR,
            crate::games::baccarat::monitor::READER,
        ];
        Expectation::from_json(text, file, &readers)
    }

    /// The log `text` (named l.csv) against `e` at 99%.
    fn run(e: &Expectation, text: &str) -> Result<MonitorModel, MonitorError> {
        monitor(e, 99.0, "l.csv", text.as_bytes())
    }

    fn exp() -> Expectation {
        Expectation {
            rtp: 0.99,
            sd_per_round: 1.0,
            max_return: 12.0,
            tier: None,
            source: "t".into(),
        }
    }

    /// The report `base` with `changes` made to its top-level keys (null: the key removed).
    fn with(base: &str, changes: serde_json::Value) -> String {
        let mut v: serde_json::Value = serde_json::from_str(base).unwrap();
        let top = v.as_object_mut().unwrap();
        for (k, x) in changes.as_object().unwrap() {
            if x.is_null() {
                top.remove(k);
            } else {
                top.insert(k.clone(), x.clone());
            }
        }
        v.to_string()
    }

    const BANKER: &str = include_str!("../reports/baccarat-banker/report.json");

    #[test]
    fn expectations_from_a_report() {
        let e = from_json(
            r#"{"monitoring": {"rtp_total_wagered": 0.9954, "sd_per_round": 1.15, "max_return_per_wagered": 12}}"#,
            "r.json",
        )
        .unwrap();
        assert_eq!((e.rtp, e.sd_per_round), (0.9954, 1.15));
        // A simulation report: SD per round = SE · √n.
        let e = from_json(
            r#"{"rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 1000000, "max_return_per_wagered": 12}"#,
            "s.json",
        )
        .unwrap();
        assert!((e.sd_per_round - 1.0).abs() < 1e-12);
        for bad in [
            "{",
            r#"{"rtp": 1}"#,
            r#"{"monitoring": {"rtp_total_wagered": 0.9}}"#,
        ] {
            assert!(from_json(bad, "b.json").is_err(), "{bad}");
        }
        let e = from_json(
            r#"{"monitoring": {"rtp_total_wagered": 0.99, "sd_per_round": -1, "max_return_per_wagered": 12}}"#,
            "b.json",
        )
        .unwrap_err();
        assert!(matches!(e, MonitorError::BadExpectation(..)));
        // The maximum return is read where stated (the audit's object, a simulation report).
        let e = from_json(
            r#"{"monitoring": {"rtp_total_wagered": 0.99, "sd_per_round": 1.1, "max_return_per_wagered": 12}}"#,
            "m.json",
        )
        .unwrap();
        assert_eq!(e.max_return, 12.0);
        assert_eq!(e.tier, None);
        let audit = r#"{"monitoring": {"tier": "basic", "rtp_total_wagered": 0.99, "sd_per_round": 1.1, "max_return_per_wagered": 12}}"#;
        assert_eq!(
            from_json(audit, "a.json").unwrap().tier.as_deref(),
            Some("basic")
        );
        let sim = r#"{"rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 100, "max_return_per_wagered": 12}"#;
        assert_eq!(from_json(sim, "s.json").unwrap().max_return, 12.0);
        // A flat baccarat bet: its exact RTP and the simulated SD per coup per unit staked;
        // a banker win pays 1:1 less 5%: at most 1.95 per amount wagered.
        let e = from_json(BANKER, "b.json").unwrap();
        assert_eq!(
            (e.rtp, e.sd_per_round, e.max_return),
            (0.989420942157528, 0.9273582206409534, 1.95)
        );
        let flat = |stake: u64, average: f64, pairs: u64| {
            let j = serde_json::json!({"max_stake": stake, "average_bet": average, "pairs": pairs, "rtp_exact": 0.98, "sd_coup": 4.5});
            with(BANKER, j)
        };
        let e = from_json(&flat(5, 5.0, 0), "b.json").unwrap();
        assert_eq!((e.rtp, e.sd_per_round), (0.98, 0.9));
        // Reports that cannot certify a band are refused, each saying why.
        let martingale = include_str!("../reports/baccarat-martingale/report.json");
        let several = with(BANKER, serde_json::json!({"rtp_exact": null}));
        for (bad, why) in [
            (martingale, "whose bets vary"),
            (&flat(1, 1.0, 1), "pair bets"),
            (&several, "no exact RTP"),
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
                r#"{"monitoring": {"rtp_total_wagered": 99.5, "sd_per_round": 1.1, "max_return_per_wagered": 12}}"#,
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
            let e = from_json(bad, "b.json").unwrap_err().to_string();
            assert!(
                e.starts_with("--expected b.json: ") && e.contains(why),
                "{e}"
            );
        }
    }

    #[test]
    fn the_bound_is_required_and_must_be_what_the_rules_give() {
        // Without the bound a period returning 1000 times its stake would get a verdict:
        // every kind of report must state it, and the error says how to make one that does.
        for (text, what, how) in [
            (
                r#"{"rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 100}"#,
                "simulation figures",
                "rtplab sim blackjack",
            ),
            (
                r#"{"monitoring": {"rtp_total_wagered": 0.99, "sd_per_round": 1.1}}"#,
                "`monitoring` object",
                "rtplab audit blackjack",
            ),
            (
                &with(BANKER, serde_json::json!({"max_return_per_wagered": null})),
                "baccarat figures",
                "rtplab sim baccarat",
            ),
        ] {
            let e = from_json(text, "r.json").unwrap_err();
            assert!(matches!(e, MonitorError::Incomplete { .. }), "{e}");
            let e = e.to_string();
            assert!(
                e.starts_with(&format!("--expected r.json: cannot read its {what}:"))
                    && e.contains("max_return_per_wagered")
                    && e.contains(how),
                "{e}"
            );
        }
        // A report that gives its rules must state what they give: 1.95 for this banker bet,
        // 12 at any blackjack table (the pairs side bet's 11:1 and its stake).
        let forged = with(BANKER, serde_json::json!({"max_return_per_wagered": 1000}));
        let e = from_json(&forged, "b.json").unwrap_err().to_string();
        assert!(
            e.contains("max_return_per_wagered 1000 is not what its rules give (1.95)"),
            "{e}"
        );
        let rules = serde_json::to_value(crate::games::blackjack::rules::Rules::seed()).unwrap();
        let bj = |mx: f64| {
            serde_json::json!({"game": "blackjack", "rules": rules, "rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 100, "max_return_per_wagered": mx}).to_string()
        };
        assert_eq!(from_json(&bj(12.0), "s.json").unwrap().max_return, 12.0);
        let e = from_json(&bj(1000.0), "s.json").unwrap_err().to_string();
        assert!(e.contains("not what its rules give (12)"), "{e}");
        let no_rules = serde_json::json!({"game": "blackjack", "rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 100, "max_return_per_wagered": 12}).to_string();
        let e = from_json(&no_rules, "s.json").unwrap_err().to_string();
        assert!(
            e.contains("cannot read its rules: missing field `rules`"),
            "{e}"
        );
    }

    #[test]
    fn a_flat_banker_bet_without_an_sd_per_coup_is_refused_for_that() {
        // The exact analysis, a comparison and a baseline of the flat banker bet state no
        // stakes and no SD per coup: the refusal names that, not a staking plan whose bets
        // vary.
        let exact = crate::games::baccarat::exact_report::exact_model(
            &crate::games::baccarat::rules::BacRules::standard(),
        );
        let exact = serde_json::to_string(&exact).unwrap();
        let baseline = include_str!("../reports/baselines/baccarat-banker-cut-card.json");
        let compare = r#"{"game": "baccarat", "strategies": [], "pairs": []}"#;
        for (text, kind) in [
            (exact.as_str(), "the exact analysis"),
            (baseline, "a baseline"),
            (compare, "a comparison"),
        ] {
            let e = from_json(text, "b.json").unwrap_err().to_string();
            assert!(
                e.contains(&format!("the report is {kind}"))
                    && e.contains("no SD per coup")
                    && !e.contains("vary"),
                "{e}"
            );
        }
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
        let mon = "period,rounds,wagered,returned\nmon,10,100,1200\n";
        let log = format!("{mon}tue,10,100,1200.5\n");
        assert!(run(&exp(), mon).is_ok());
        let e = run(&exp(), &log).unwrap_err().to_string();
        assert!(
            e.starts_with("l.csv:3:4: returned 1200.5 is more than 12 times"),
            "{e}"
        );
        // Under a larger bound: play (and far out of band).
        let large = Expectation {
            max_return: 1000.0,
            ..exp()
        };
        let m = run(&large, &log).unwrap();
        assert!(!m.all_in_band() && m.out_of_band == 2);
        let text = render(&m).render(crate::report::Format::Table);
        assert!(text.contains("OUT OF BAND (exit code 1)") && !text.contains("no single period"));
        // Amounts beyond 1e15 would overflow the sums to infinity: refused.
        let e = run(&exp(), "period,rounds,wagered,returned\nd,100,1.7e308,1\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("l.csv:2:3:") && e.contains("at most 1e15"),
            "{e}"
        );
        assert!(run(&exp(), "period,rounds,wagered,returned\nd,100,1e15,1e15\n").is_ok());
    }

    /// A log of `n` periods of 10,000 rounds, each at RTP `rtp(i)`.
    fn log_of(n: usize, rtp: impl Fn(usize) -> f64) -> String {
        let mut log = String::from("period,rounds,wagered,returned\n");
        for i in 0..n {
            log += &format!("d{i},10000,10000,{}\n", 10000.0 * rtp(i));
        }
        log
    }

    #[test]
    fn a_drift_no_period_shows_fails_the_running_total() {
        // 30 periods each at z = +2 (inside the 99% band: |z| <= 2.576); the total's z is
        // 2·√30 = 11: out of band, so the run is not all in band (exit code 1).
        // SE 0.01 at 10,000 rounds: RTP 0.99 + 0.02.
        let log = log_of(30, |_| 1.01);
        let m = run(&exp(), &log).unwrap();
        assert_eq!(m.out_of_band, 0);
        assert!(!m.total_in_band && !m.all_in_band());
        let c = m.cumulative.last().unwrap();
        assert!((c.z - 2.0 * 30f64.sqrt()).abs() < 1e-6, "{}", c.z);
        let text = render(&m).render(crate::report::Format::Table);
        // Notes wrap to the table format's width: read them as one line.
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            text.contains("Running total after d29")
                && text.contains("OUT OF BAND (a sustained drift"),
            "{text}"
        );
        // One period in band: all in band.
        let one = run(&exp(), &log_of(1, |_| 1.01)).unwrap();
        assert!(one.total_in_band && one.all_in_band());
    }

    #[test]
    fn periods_against_the_band_by_hand() {
        let log = "period,rounds,wagered,returned\nmon,10000,10000,9950\ntue,10000,10000,9500\n";
        let m = monitor(&exp(), 99.0, "week.csv", log.as_bytes()).unwrap();
        // The report names the log and its hash, and the version that made it.
        assert_eq!(m.log.name, "week.csv");
        assert_eq!(
            m.log.fnv1a64,
            format!("{:016x}", crate::shard::fnv1a64(log.as_bytes()))
        );
        // The hash is of the text: a byte-order mark is not part of it.
        let bom = format!("\u{feff}{log}");
        let b = monitor(&exp(), 99.0, "week.csv", bom.as_bytes()).unwrap();
        assert_eq!(b.log.fnv1a64, m.log.fnv1a64);
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
    fn a_long_log_is_shown_in_merged_rows_and_judged_period_by_period() {
        // 1,000 periods at the expected RTP but three far out (z = ±5): shown in rows of
        // 4 periods (400 rows hold 800; the 801st merges them to rows of 4).
        let far = [7, 500, 998];
        let rtp = |i: usize| match i {
            500 => 0.94,
            _ if far.contains(&i) => 1.04,
            _ => 0.99,
        };
        let log = log_of(1000, rtp);
        let m = run(&exp(), &log).unwrap();
        assert_eq!((m.log_periods, m.periods_per_row), (1000, 4));
        assert_eq!((m.periods.len(), m.cumulative.len()), (250, 250));
        assert_eq!(m.periods[0].period, "d0 … d3");
        assert_eq!(m.cumulative[249].period, "to d999");
        // Every period against its own band: exactly the three.
        assert_eq!(m.out_of_band, 3);
        let listed: Vec<&str> = m
            .out_of_band_periods
            .iter()
            .map(|p| p.period.as_str())
            .collect();
        assert_eq!(listed, ["d7", "d500", "d998"]);
        assert!((m.out_of_band_periods[1].z + 5.0).abs() < 1e-9);
        // A row's figures are of its periods together; its count says which are out.
        let row = &m.periods[1];
        assert_eq!(
            (row.periods, row.periods_out_of_band, row.rounds),
            (4, 1, 40_000)
        );
        assert!((row.rtp - (0.99 * 3.0 + 1.04) / 4.0).abs() < 1e-12);
        assert_eq!(m.periods.iter().map(|p| p.periods).sum::<u64>(), 1000);
        // The running total is exact: the same as every period on its own row.
        let total = m.cumulative.last().unwrap();
        assert_eq!(total.rounds, 10_000_000);
        let sum: f64 = (0..1000).map(|i| 10000.0 * rtp(i)).sum();
        assert!((total.rtp - sum / 1e7).abs() < 1e-15);
        assert!(!m.all_in_band());
        let text = render(&m).render(crate::report::Format::Table);
        for want in [
            "1,000 periods, shown 4 to a row",
            "Out-of-band periods",
            // d4 … d7 together are at z = +2.5, in band; d7 alone is not.
            "1 OUT of 4 alone; together in band",
            "3 of 1,000 periods outside",
        ] {
            assert!(text.contains(want), "{want}");
        }
        // 400 periods or fewer: one a row, as before.
        let m = run(&exp(), &log_of(400, rtp)).unwrap();
        assert_eq!((m.periods.len(), m.periods_per_row), (400, 1));
        let text = render(&m).render(crate::report::Format::Table);
        assert!(!text.contains("to a row") && !text.contains("Out-of-band periods"));
        // Past 400 the rows halve: 401 periods are 201 rows.
        assert_eq!(run(&exp(), &log_of(401, rtp)).unwrap().periods.len(), 201);
    }

    #[test]
    fn bad_logs_name_the_line_and_column() {
        for (log, want) in [
            ("day,rounds,wagered,returned\nx,1,1,1\n", "l.csv:1:1:"),
            ("period,rounds,wagered,returned\n", "no periods"),
            ("", "l.csv:1:1: the file is empty"),
            ("\n \n", "the file is empty"),
            ("\n \n\t\n", "the file is empty"),
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
            let e = run(&exp(), log).unwrap_err().to_string();
            assert!(e.contains(want), "{log:?}: {e}");
        }
        // A binary file's "header" is quoted in part, never whole.
        let junk = "\0".repeat(1 << 20);
        let e = run(&exp(), &junk).unwrap_err().to_string();
        assert!(e.len() < 300 && e.contains("…"), "{} bytes", e.len());
        let long = format!(
            "period,rounds,wagered,returned\n{},1,1,1\n",
            "p".repeat(201)
        );
        let e = run(&exp(), &long).unwrap_err().to_string();
        assert!(e.contains("longer than 200"), "{e}");
        // A line longer than 1 MiB is refused before it is held, by its line.
        let huge = format!(
            "period,rounds,wagered,returned\nd,1,1,1\n{}\n",
            "9".repeat(3 << 20)
        );
        let e = run(&exp(), &huge).unwrap_err().to_string();
        assert!(
            e.starts_with("l.csv:3:1: the line is longer than 1,048,576 bytes"),
            "{e}"
        );
        // Bytes that are not UTF-8, by line and column.
        let bytes = b"period,rounds,wagered,returned\nd,1,1,1\n\xff,1,1,1\n";
        let e = monitor(&exp(), 99.0, "l.csv", &bytes[..])
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("l.csv:3:1: not UTF-8"), "{e}");
    }
}
