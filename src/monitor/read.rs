//! Reading a log of periods a row at a time: each row checked, held against its band, and
//! merged into rows of 2, 4, 8, … periods beyond `MAX_ROWS`.

use std::io::{BufRead, Read};

use super::{
    z_of_level, BandWidth, Expectation, LogFile, MonitorError, MonitorModel, PeriodRow, MAX_AMOUNT,
    MAX_LINE_BYTES, MAX_LISTED, MAX_LOG_BYTES, MAX_NAMED, MAX_PERIODS, MAX_ROWS,
};

/// The columns of a log, in order; `stake_sq` may be left out.
pub(super) const COLUMNS: [&str; 5] = ["period", "rounds", "wagered", "returned", "stake_sq"];

/// One period of play from the log.
#[derive(Clone, Debug, PartialEq)]
pub struct Period {
    /// The line of the log it was read from.
    pub line: usize,
    pub period: String,
    pub rounds: u64,
    pub wagered: f64,
    pub returned: f64,
    /// The sum of its rounds' squared stakes, when the log carries it.
    pub stake_sq: Option<f64>,
}

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
    /// Where the run's first period is in the log (from 1).
    first: u64,
    periods: u64,
    rounds: u64,
    wagered: f64,
    returned: f64,
    /// Σb² of the rounds (0 when the log does not carry it).
    stake_sq: f64,
    /// Periods outside their own band.
    out: u64,
    /// The smallest and largest z of the periods each against its own band.
    z_lo: f64,
    z_hi: f64,
}

impl Sums {
    /// The run followed by `o`.
    fn add(&mut self, o: &Sums) {
        if self.periods == 0 {
            *self = *o;
            return;
        }
        self.periods += o.periods;
        self.rounds += o.rounds;
        self.wagered += o.wagered;
        self.returned += o.returned;
        self.stake_sq += o.stake_sq;
        self.out += o.out;
        self.z_lo = self.z_lo.min(o.z_lo);
        self.z_hi = self.z_hi.max(o.z_hi);
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

/// The periods as they are read: each held against its band, merged into rows for showing.
struct Tally<'a> {
    e: &'a Expectation,
    zl: f64,
    /// Whether the log carries `stake_sq`.
    stakes: bool,
    total: Sums,
    groups: Vec<Group>,
    per_row: u64,
    listed: Vec<PeriodRow>,
    /// The `MAX_NAMED` periods out of band farthest out so far, in log order.
    farthest: Vec<PeriodRow>,
}

impl Tally<'_> {
    fn push(&mut self, p: Period) {
        let mut one = Sums {
            first: self.total.periods + 1,
            periods: 1,
            rounds: p.rounds,
            wagered: p.wagered,
            returned: p.returned,
            stake_sq: p.stake_sq.unwrap_or(0.0),
            ..Sums::default()
        };
        let mut r = row(self.e, self.zl, self.stakes, p.period, &one);
        (one.z_lo, one.z_hi) = (r.z, r.z);
        r.z_range = [r.z, r.z];
        one.out = u64::from(!r.in_band);
        if !r.in_band {
            let r = PeriodRow {
                periods_out_of_band: 1,
                ..r.clone()
            };
            if self.listed.len() < MAX_LISTED {
                self.listed.push(r.clone());
            }
            self.keep_if_farthest(r);
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

    /// Keep out-of-band `r` among the `MAX_NAMED` farthest out: in place of the nearest kept,
    /// if it is farther (an earlier period stays before a later one as far out).
    fn keep_if_farthest(&mut self, r: PeriodRow) {
        if self.farthest.len() < MAX_NAMED {
            self.farthest.push(r);
            return;
        }
        let nearest = self
            .farthest
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.z.abs().total_cmp(&b.1.z.abs()).then(b.0.cmp(&a.0)))
            .map(|(i, _)| i);
        if let Some(i) = nearest.filter(|&i| r.z.abs() > self.farthest[i].z.abs()) {
            self.farthest.remove(i);
            self.farthest.push(r);
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

/// A row of the log as a period (with `stake_sq` when the log has the column); `err` names its
/// line and column.
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
    // Field `i` as a number from 0 (above 0 when `positive`) to `most`, named by its column.
    let num = |i: usize, positive: bool, most: (f64, &str)| -> Result<f64, MonitorError> {
        let (name, text) = (COLUMNS[i], field(i)?);
        let v: f64 = text.parse().map_err(|_| {
            err(
                line,
                i + 1,
                format!("{name} '{}': not a number", clip(text, 40)),
            )
        })?;
        if !v.is_finite() || v < 0.0 || (positive && v == 0.0) || v > most.0 {
            return Err(err(
                line,
                i + 1,
                format!(
                    "{name} '{}': expected a {} amount of at most {}",
                    clip(text, 40),
                    if positive { "positive" } else { "non-negative" },
                    most.1
                ),
            ));
        }
        Ok(v)
    };
    let amount = (MAX_AMOUNT, "1e15");
    let wagered = num(2, true, amount)?;
    let returned = num(3, false, amount)?;
    let stake_sq = match rec.len() {
        5 => Some(num(4, true, (MAX_AMOUNT * MAX_AMOUNT, "1e30"))?),
        _ => None,
    };
    if let Some(sq) = stake_sq {
        // R stakes summing to W have W²/R <= Σb² <= W² (equal stakes; one stake and the rest
        // nothing), up to a millionth: amounts rounded when written.
        let (least, most) = (wagered * wagered / rounds as f64, wagered * wagered);
        let why = if sq < least * (1.0 - 1e-6) {
            Some(format!("less than wagered²/rounds = {least}, the least {rounds} rounds wagering {wagered} in all can have (every stake equal)"))
        } else if sq > most * (1.0 + 1e-6) {
            Some(format!(
                "more than wagered² = {most}, the most stakes summing to {wagered} can have"
            ))
        } else {
            None
        };
        if let Some(why) = why {
            return Err(err(
                line,
                5,
                format!(
                    "stake_sq {sq} (the sum of the rounds' squared stakes) is {why}: a data error"
                ),
            ));
        }
    }
    Ok(Period {
        line,
        period,
        rounds,
        wagered,
        returned,
        stake_sq,
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
                log_error(
                    name,
                    line,
                    1,
                    format!("not a CSV row of the header's fields: {e}"),
                )
            }
        },
    }
}

/// Read log `name`'s header: `period,rounds,wagered,returned` and optionally `stake_sq`
/// (whether it has that column), else say what the file holds instead (nothing but blank
/// lines, or another header).
fn read_header<T: BufRead>(
    rdr: &mut csv::Reader<Tap<T>>,
    name: &str,
) -> Result<bool, MonitorError> {
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
    let got: Vec<String> = headers
        .iter()
        .map(|h| String::from_utf8_lossy(h).to_ascii_lowercase())
        .collect();
    if got == COLUMNS[..4] || got == COLUMNS {
        return Ok(got.len() == 5);
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
                "the file is empty: expected a 'period,rounds,wagered,returned' header (and optionally ',stake_sq') and a row per period".into(),
            )),
            Err(_) => blank = false,
        }
    }
    Err(err(
        1,
        1,
        format!(
            "the header is '{}': expected 'period,rounds,wagered,returned', optionally with ',stake_sq' (the sum of the rounds' squared stakes)",
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
/// header, optionally with `stake_sq`, then one row per period) against `e` at `level`, a row
/// at a time. A bad row, or a period that returned more than a round of the game can pay back
/// on what was wagered, is refused with its line and column.
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
    let stakes = read_header(&mut rdr, name)?;
    let mut tally = Tally {
        e,
        zl,
        stakes,
        total: Sums::default(),
        groups: Vec::new(),
        per_row: 1,
        listed: Vec::new(),
        farthest: Vec::new(),
    };
    read_periods(&mut rdr, name, &mut tally)?;
    let label = |g: &Group| match g.sums.periods {
        1 => g.first.clone(),
        _ => format!("{} … {}", g.first, g.last),
    };
    let g = &tally.groups;
    let periods: Vec<PeriodRow> = g
        .iter()
        .map(|g| row(e, zl, stakes, label(g), &g.sums))
        .collect();
    let cumulative: Vec<PeriodRow> = g
        .iter()
        .map(|g| row(e, zl, stakes, format!("to {}", g.last), &g.to))
        .collect();
    Ok(MonitorModel {
        version: crate::VERSION,
        log: LogFile::of_hash(name, rdr.get_ref().hash),
        expected: e.clone(),
        level,
        z_level: zl,
        band_width: if stakes {
            BandWidth::Stakes
        } else {
            BandWidth::LowerBound
        },
        log_periods: tally.total.periods,
        periods_per_row: tally.per_row,
        out_of_band: tally.total.out,
        total_in_band: cumulative.last().is_none_or(|c| c.in_band),
        periods,
        cumulative,
        out_of_band_periods: tally.listed,
        farthest_out_of_band: tally.farthest,
    })
}

/// A row of the tables: the periods summed in `s`, held against `e` at |z| <= `zl`, with the
/// SE of their logged stakes (`stakes`) or of equal stakes.
fn row(e: &Expectation, zl: f64, stakes: bool, period: String, s: &Sums) -> PeriodRow {
    let rtp = s.returned / s.wagered;
    let se = if stakes {
        e.sd_per_round * s.stake_sq.sqrt() / s.wagered
    } else {
        e.sd_per_round / (s.rounds as f64).sqrt()
    };
    let z = (rtp - e.rtp) / se;
    PeriodRow {
        period,
        first_period: s.first,
        periods: s.periods,
        periods_out_of_band: s.out,
        z_range: [s.z_lo, s.z_hi],
        rounds: s.rounds,
        wagered: s.wagered,
        returned: s.returned,
        stake_sq: stakes.then_some(s.stake_sq),
        rtp,
        se,
        z,
        band: [e.rtp - zl * se, e.rtp + zl * se],
        in_band: z.abs() <= zl,
    }
}

#[cfg(test)]
mod tests {
    use super::super::render;
    use super::*;

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

    #[test]
    fn stake_sq_gives_the_band_of_the_stakes_played() {
        // Four rounds staking 1, 1, 1 and 97: W = 100, Σb² = 9,412. SE = 1 × √9412 / 100 =
        // 0.970; taken as equal stakes 1/√4 = 0.5, narrower by √(4 × 9412)/100 = 1.94.
        let with =
            "period,rounds,wagered,returned,stake_sq\nmon,4,100,194,9412\ntue,4,100,100,2500\n";
        let m = run(&exp(), with).unwrap();
        assert_eq!(m.band_width, BandWidth::Stakes);
        let p = &m.periods[0];
        assert_eq!(p.stake_sq, Some(9412.0));
        assert!((p.se - 9412f64.sqrt() / 100.0).abs() < 1e-15);
        // RTP 1.94: z = 0.95/0.970 = 0.98, in band; without the column z = 1.9, still in.
        assert!((p.z - 0.95 / p.se).abs() < 1e-12 && p.in_band);
        // tue's equal stakes of 25: SE 1/√4, as without the column.
        assert!((m.periods[1].se - 0.5).abs() < 1e-15);
        // The running total: Σb² and W summed.
        let c = &m.cumulative[1];
        assert_eq!(c.stake_sq, Some(11912.0));
        assert!((c.se - 11912f64.sqrt() / 200.0).abs() < 1e-15);
        // The case-insensitive header, as for the other columns.
        let upper = with.replacen("stake_sq", "Stake_SQ", 1);
        assert_eq!(run(&exp(), &upper).unwrap().periods, m.periods);
        // Without the column: the equal-stakes SE, said to be a lower bound in every format.
        let without = "period,rounds,wagered,returned\nmon,4,100,194\n";
        let n = run(&exp(), without).unwrap();
        assert_eq!(n.band_width, BandWidth::LowerBound);
        assert_eq!(n.periods[0].stake_sq, None);
        assert!((n.periods[0].se - 0.5).abs() < 1e-15);
        assert!((p.se / n.periods[0].se - (4.0f64 * 9412.0).sqrt() / 100.0).abs() < 1e-12);
        use crate::report::Format;
        for f in [
            Format::Table,
            Format::Markdown,
            Format::Csv,
            Format::Json,
            Format::Html,
        ] {
            let lower = render(&n).render(f);
            let exact = render(&m).render(f);
            let says = |t: &str| t.contains("LOWER BOUND") || t.contains("lower_bound");
            assert!(says(&lower) && !says(&exact), "{f:?}");
        }
    }

    #[test]
    fn a_stake_sq_no_stakes_can_have_is_refused_by_line_and_field() {
        // 10 rounds wagering 100: Σb² from 100²/10 = 1,000 (equal stakes) to 100² (one stake).
        let log = |sq: &str| {
            format!(
                "period,rounds,wagered,returned,stake_sq\nmon,10,100,99,1000\ntue,10,100,99,{sq}\n"
            )
        };
        // Up to a millionth off (amounts rounded when written) is taken.
        for ok in ["1000", "10000", "5000.5", "1e4", "999.9995", "10000.005"] {
            assert!(run(&exp(), &log(ok)).is_ok(), "{ok}");
        }
        for (bad, why) in [
            ("999.9", "less than wagered²/rounds = 1000"),
            ("10000.1", "more than wagered² = 10000"),
            ("0", "expected a positive amount"),
            ("-5", "expected a positive amount"),
            ("x", "not a number"),
            ("inf", "expected a positive amount"),
            ("1e31", "at most 1e30"),
        ] {
            let e = run(&exp(), &log(bad)).unwrap_err().to_string();
            assert!(
                e.starts_with("l.csv:3:5: stake_sq") && e.contains(why),
                "{bad}: {e}"
            );
        }
        // A row without the column the header has, and a header with a column unknown.
        let e = run(
            &exp(),
            "period,rounds,wagered,returned,stake_sq\nmon,10,100,99\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("l.csv:2:"), "{e}");
        let e = run(
            &exp(),
            "period,rounds,wagered,returned,stakes\nmon,10,100,99,1000\n",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("l.csv:1:1: the header is") && e.contains("stake_sq"),
            "{e}"
        );
    }

    #[test]
    fn merged_rows_sum_stake_sq_and_the_farthest_out_are_kept() {
        // 1,000 periods (rows of 4): period i stakes Σb² = 1,000,000 + i (whole numbers: the
        // sums are exact), wagered 10,000 over 10,000 rounds, so SE ≈ 0.1: z = 10·(RTP − 0.99).
        // Out of band: periods 100..=114 at z = −3 − (i − 100)/10, 15 of them; the 10 farthest
        // are 105..=114.
        let mut log = String::from("period,rounds,wagered,returned,stake_sq\n");
        for i in 0..1000u64 {
            let rtp = match i {
                100..=114 => 0.99 - (3.0 + (i - 100) as f64 / 10.0) * 0.1,
                _ => 0.99,
            };
            log += &format!("d{i},10000,10000,{},{}\n", 10000.0 * rtp, 1_000_000 + i);
        }
        let m = run(&exp(), &log).unwrap();
        assert_eq!(m.periods_per_row, 4);
        for (k, r) in m.periods.iter().enumerate() {
            let i = 4 * k as u64;
            assert_eq!(r.first_period, i + 1);
            assert_eq!(r.stake_sq, Some((4_000_000 + 4 * i + 6) as f64));
            assert_eq!(r.se, 1.0 * r.stake_sq.unwrap().sqrt() / r.wagered);
        }
        let total = m.cumulative.last().unwrap();
        assert_eq!(
            total.stake_sq,
            Some((1_000_000_000 + 999 * 1000 / 2) as f64)
        );
        assert_eq!(m.out_of_band, 15);
        let far: Vec<&str> = m
            .farthest_out_of_band
            .iter()
            .map(|p| p.period.as_str())
            .collect();
        let want: Vec<String> = (105..115).map(|i| format!("d{i}")).collect();
        assert_eq!(far, want);
        assert_eq!(m.farthest_out_of_band[0].first_period, 106);
        // A row's z range spans its periods' own: rows 25..=28 hold 100..=115.
        let r = &m.periods[25];
        assert_eq!(r.period, "d100 … d103");
        assert!(
            r.z_range[0] < -3.2 && r.z_range[1] < -2.9,
            "{:?}",
            r.z_range
        );
        // Equal |z|: the earlier stays.
        let mut tie = String::from("period,rounds,wagered,returned,stake_sq\n");
        for i in 0..12 {
            tie += &format!("t{i},10000,10000,9500,10000\n");
        }
        let m = run(&exp(), &tie).unwrap();
        let kept: Vec<u64> = m
            .farthest_out_of_band
            .iter()
            .map(|p| p.first_period)
            .collect();
        assert_eq!(kept, (1..=10).collect::<Vec<u64>>());
    }
}
