//! The report model (game-neutral) and its renderers: table, Markdown, CSV, JSON.

mod formats;
pub mod html;
mod run;
pub mod svg;

use serde::Serialize;

use formats::csv_text;
pub use formats::TABLE_WIDTH;
pub use run::{where_run, PerSecond, RunHeader, RunMeta};

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Table,
    Markdown,
    Csv,
    Json,
    /// One self-contained page (the plots inline when written with `write_out_dir`).
    Html,
}

/// SVG plots of a run (file name, SVG text), rendered only when asked for.
pub type Plots = Box<dyn FnOnce() -> Result<Vec<(String, String)>, PlotError>>;

/// A plot that could not be drawn (the drawing library's message).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct PlotError(pub String);

/// The number behind a cell, in a unit a spreadsheet can use: `fraction` (0.9927 for
/// 99.27%), `count`, `points`, `bets`, ... A range is a 95% CI.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum Num {
    One(f64, &'static str),
    Range(f64, f64, &'static str),
    /// A count, exact (a float would round one past 2^53: 12345678901234567 to ...568).
    Count(u64),
}

/// One cell: the text the table and Markdown show, and (for numbers) the raw value and its
/// unit that CSV carries.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Cell {
    pub text: String,
    pub value: Option<Num>,
}

impl Cell {
    /// A number shown as `text`, carried as `v` in `unit` (no value when `v` is not finite).
    pub fn num(text: String, v: f64, unit: &'static str) -> Cell {
        Cell {
            text,
            value: v.is_finite().then_some(Num::One(v, unit)),
        }
    }
    /// A range (e.g. a 95% CI) shown as `text`.
    pub fn range(text: String, lo: f64, hi: f64, unit: &'static str) -> Cell {
        Cell {
            text,
            value: (lo.is_finite() && hi.is_finite()).then_some(Num::Range(lo, hi, unit)),
        }
    }
}

impl From<String> for Cell {
    fn from(text: String) -> Cell {
        Cell { text, value: None }
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Cell {
        Cell {
            text: text.to_string(),
            value: None,
        }
    }
}

/// A fraction shown as a percentage with `d` decimals, carried as the fraction.
pub fn pct_cell(v: f64, d: usize) -> Cell {
    Cell::num(pct(v, d), v, "fraction")
}

/// A 95% CI of fractions shown as percentages, carried as the two fractions.
pub fn ci_cell(ci95: [f64; 2], d: usize) -> Cell {
    let [lo, hi] = ci95;
    Cell::range(
        format!("[{}, {}]", pct(lo, d), pct(hi, d)),
        lo,
        hi,
        "fraction",
    )
}

/// An estimate of a fraction as three cells: its mean and SE as percentages with `d`
/// decimals, and its 95% CI.
pub fn pct_estimate_cells(mean: f64, se: f64, ci95: [f64; 2], d: usize) -> [Cell; 3] {
    [pct_cell(mean, d), pct_cell(se, d), ci_cell(ci95, d)]
}

/// A count shown with thousands separators, carried as the number.
pub fn count_cell(n: u64) -> Cell {
    Cell {
        text: count(n),
        value: Some(Num::Count(n)),
    }
}

/// The notes of a claim check: the verdict, and how many observations (`unit`, e.g.
/// "initial bets", "coups") would separate estimate and claim at 5 SE.
pub fn claim_notes(cc: &crate::stats::ClaimCheck, unit: &str) -> Vec<String> {
    let mut notes = vec![format!("Claim {}: {}", pct(cc.claimed, 2), cc.verdict)];
    if let Some(n) = cc.rounds_to_separate_at_5se {
        notes.push(format!(
            "Separating the estimate from the claim at 5 SE would take about {} {unit}.",
            count(n.min(1.8e19) as u64)
        ));
    }
    notes
}

/// A claim check as a table, so that CSV and JSON readers get its z, p-value and degrees of
/// freedom as numbers (the notes carry the same verdict as a sentence): one row, `what` (the
/// figure claimed, e.g. "RTP").
pub fn claim_section(cc: &crate::stats::ClaimCheck, what: &str) -> Section {
    let mut s = Section::new(
        "Claim",
        &["claim", "claimed", "z", "p-value", "df", "verdict"],
    );
    let verdict = match cc.consistent {
        Some(true) => "consistent (inside the 95% CI)",
        Some(false) => "not supported (outside the 95% CI)",
        None => "not checked",
    };
    let p = crate::stats::format_p(cc.p_value);
    s.row([
        Cell::from(what),
        pct_cell(cc.claimed, 4),
        Cell::num(
            if cc.z.is_finite() {
                format!("{:+.2}", cc.z)
            } else {
                "n/a".into()
            },
            cc.z,
            "",
        ),
        Cell::num(p.trim_start_matches("p = ").to_string(), cc.p_value, ""),
        count_cell(cc.df),
        Cell::from(verdict),
    ]);
    s
}

/// The precision note of a run: `n` observations (`unit`) give SE `se`; an SE of 0.01% would
/// take about `needed` (`needed_unit`). Without an SE (too few chunks) it says so, and no count.
pub fn precision_note(n: u64, unit: &str, se: f64, needed: f64, needed_unit: &str) -> String {
    if se.is_finite() && needed.is_finite() {
        format!(
            "Precision: {} {unit} give SE {}; SE 0.01% would take about {} {needed_unit}.",
            count(n),
            pct(se, 4),
            count(needed.min(1.8e19) as u64)
        )
    } else {
        format!(
            "Precision: {} {unit} give no standard error (too few chunks completed: SE n/a).",
            count(n)
        )
    }
}

/// A number with `d` decimals in `unit`.
pub fn fixed_cell(v: f64, d: usize, unit: &'static str) -> Cell {
    Cell::num(fixed(v, d), v, unit)
}

/// One table of a report.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Section {
    pub name: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
    /// How much of it the terminal shows by default ([`Report::brief`]); every other format,
    /// and the terminal with `--full`, shows it whole.
    #[serde(skip)]
    pub shown: Shown,
}

/// How much of a table the terminal shows without `--full`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shown {
    /// The whole table.
    #[default]
    Whole,
    /// Its first rows only.
    Head(usize),
    /// None of it: a detail a reader looks up (the note after the tables names it).
    Full,
}

impl Section {
    pub fn new(name: &str, columns: &[&str]) -> Section {
        Section {
            name: name.to_string(),
            columns: columns.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
            shown: Shown::Whole,
        }
    }
    pub fn row<C: Into<Cell>, I: IntoIterator<Item = C>>(&mut self, cells: I) {
        self.rows.push(cells.into_iter().map(Into::into).collect());
    }

    /// The table as a flat CSV: one line per row; a column that carries numbers holds the
    /// raw values (a range as `<column> low` and `<column> high`) followed by a
    /// `<column> unit` column; text columns hold their text.
    pub fn to_flat_csv(&self) -> String {
        let ncol = self.columns.len();
        let kinds: Vec<(bool, bool)> = (0..ncol)
            .map(|i| {
                let vals = self.rows.iter().filter_map(|r| r.get(i)?.value);
                let mut any = false;
                let mut range = false;
                for v in vals {
                    any = true;
                    range |= matches!(v, Num::Range(..));
                }
                (any, range)
            })
            .collect();
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut head = Vec::new();
        for (c, &(any, range)) in self.columns.iter().zip(&kinds) {
            if range {
                head.push(format!("{c} low"));
                head.push(format!("{c} high"));
            } else {
                head.push(c.clone());
            }
            if any {
                head.push(format!("{c} unit"));
            }
        }
        let _ = w.write_record(&head);
        for r in &self.rows {
            let mut rec = Vec::new();
            for (i, &(any, range)) in kinds.iter().enumerate() {
                let cell = r.get(i).cloned().unwrap_or_default();
                let (a, b, unit) = match cell.value {
                    Some(Num::One(v, u)) => (num_text(v), None, u),
                    Some(Num::Range(lo, hi, u)) => (num_text(lo), Some(num_text(hi)), u),
                    Some(Num::Count(n)) => (n.to_string(), None, "count"),
                    // A text cell in a numeric column ("n/a", "never taken"): no number.
                    None if any => (
                        if is_missing(&cell.text) {
                            String::new()
                        } else {
                            csv_text(&cell.text)
                        },
                        None,
                        "",
                    ),
                    None => (csv_text(&cell.text), None, ""),
                };
                rec.push(a);
                if range {
                    rec.push(b.unwrap_or_default());
                }
                if any {
                    rec.push(unit.to_string());
                }
            }
            let _ = w.write_record(&rec);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }
}

fn is_missing(t: &str) -> bool {
    t.is_empty() || t == "n/a" || t == "-"
}

/// A raw number for CSV: the shortest text that reads back as the same f64.
/// A cell's raw number: the shortest text that reads back as it, in plain decimal where that
/// is short and in scientific notation from 1e15 or below 1e-15 (`1e300`, not 301 digits);
/// exact counts are `Num::Count`.
fn num_text(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        crate::numparse::written(v)
    }
}

impl Report {
    /// Leave the tables whose names start with one of `names` to `--full` (and the
    /// `--out-dir` files): the terminal's report shows the answer first.
    pub fn full_only(&mut self, names: &[&str]) {
        for s in &mut self.sections {
            if names.iter().any(|n| s.name.starts_with(n)) {
                s.shown = Shown::Full;
            }
        }
    }

    /// Show only the first `rows` rows of the tables whose names start with `name` on the
    /// terminal without `--full`.
    pub fn head_only(&mut self, name: &str, rows: usize) {
        for s in &mut self.sections {
            if s.name.starts_with(name) && s.rows.len() > rows {
                s.shown = Shown::Head(rows);
            }
        }
    }

    /// Leave the notes that start with `prefix` to `--full` (and the `--out-dir` files).
    pub fn notes_full_only(&mut self, prefix: &str) {
        self.notes_full_only.push(prefix.to_string());
    }

    /// The report as the terminal shows it without `--full`: the tables and notes left to
    /// `--full` out, the long tables cut to their first rows (each saying so), and a last note
    /// naming what `--full` and `--out-dir` add. The same report when nothing is left out.
    pub fn brief(&self) -> Report {
        let mut r = self.clone();
        let notes_before = r.notes.len();
        r.notes.retain(|n| {
            !self
                .notes_full_only
                .iter()
                .any(|p| n.starts_with(p.as_str()))
        });
        let notes_left = notes_before - r.notes.len();
        let mut left = Vec::new();
        r.sections.retain_mut(|s| match s.shown {
            Shown::Whole => true,
            Shown::Head(n) => {
                let all = s.rows.len();
                if all > n {
                    s.rows.truncate(n);
                    s.name = format!("{} (first {n} of {all} rows)", s.name);
                }
                true
            }
            Shown::Full => {
                left.push(s.name.clone());
                false
            }
        });
        let cut = self
            .sections
            .iter()
            .any(|s| matches!(s.shown, Shown::Head(n) if s.rows.len() > n));
        if left.is_empty() && !cut && notes_left == 0 {
            return r;
        }
        let mut note = String::from("Shorter on the terminal:");
        if !left.is_empty() {
            note += &format!(
                " {} left out ({});",
                plural(left.len() as u64, "table"),
                left.join("; ")
            );
        }
        if notes_left > 0 {
            let kinds: Vec<&str> = self
                .notes_full_only
                .iter()
                .map(|p| p.trim_end_matches(':').trim())
                .collect();
            note += &format!(
                " {} left out ({});",
                plural(notes_left as u64, "note"),
                kinds.join("; ")
            );
        }
        note += " --full prints every table whole, --out-dir writes them all to files.";
        r.notes.push(note);
        r
    }
}

/// A rendered-to-be report: metadata, sections, notes, and the JSON document (the machine
/// contract) built by the game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub title: String,
    pub meta: Vec<(String, String)>,
    pub sections: Vec<Section>,
    /// Verdicts and warnings, shown after the tables.
    pub notes: Vec<String>,
    /// Notes the terminal leaves to `--full` (those starting with one of these), named by
    /// their count in the last note ([`Report::brief`]).
    pub notes_full_only: Vec<String>,
    pub json: serde_json::Value,
}

/// A fraction as a percentage with `d` decimals.
pub fn pct(v: f64, d: usize) -> String {
    if v.is_finite() {
        format!("{:.*}%", d, v * 100.0)
    } else {
        "n/a".into()
    }
}

/// A fraction as a percentage number without float noise: 0.9954 -> "99.54".
pub fn pct_text(v: f64) -> String {
    let t = format!("{:.6}", v * 100.0);
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The estimate of a ratio accumulator, divided by `scale`.
pub fn est(r: &crate::stats::Ratio, scale: f64) -> crate::stats::Estimate {
    crate::stats::Estimate::new(r.mean() / scale, r.se() / scale, r.df())
}

/// A 95% CI as percentages.
pub fn ci_pct(e: &crate::stats::Estimate, d: usize) -> String {
    ci_cell(e.ci95, d).text
}

/// An estimate as JSON: mean, se, ci95.
pub fn estimate_json(e: &crate::stats::Estimate) -> serde_json::Value {
    serde_json::json!({"mean": e.mean, "se": e.se, "ci95": e.ci95})
}

/// n/d (NaN when d is 0).
pub fn rate(n: u64, d: u64) -> f64 {
    if d == 0 {
        f64::NAN
    } else {
        n as f64 / d as f64
    }
}

/// The win rate of a strategy several seats share: the mean of those seats' win rates.
#[derive(Clone, Debug, serde::Serialize)]
pub struct StrategyWinRate {
    pub strategy: String,
    pub seats: usize,
    pub rate: f64,
    pub se: f64,
    pub ci95: [f64; 2],
}

/// Win rate per strategy when several seats share one The SE treats the seats as independent, which
/// overstates it slightly (seats of one game compete, so their results are negatively
/// correlated). `None` when every seat differs.
pub fn strategy_win_rates(
    names: &[String],
    wins: &[crate::stats::Ratio],
) -> Option<Vec<StrategyWinRate>> {
    let mut distinct: Vec<&String> = Vec::new();
    for n in names {
        if !distinct.contains(&n) {
            distinct.push(n);
        }
    }
    if distinct.len() == names.len() {
        return None;
    }
    let rows = distinct
        .into_iter()
        .map(|name| {
            let idx: Vec<usize> = (0..names.len()).filter(|&s| &names[s] == name).collect();
            let k = idx.len() as f64;
            let mean = idx.iter().map(|&s| wins[s].mean()).sum::<f64>() / k;
            let se = idx
                .iter()
                .map(|&s| wins[s].se().powi(2))
                .sum::<f64>()
                .sqrt()
                / k;
            let e = crate::stats::Estimate::new(mean, se, wins[idx[0]].df());
            StrategyWinRate {
                strategy: name.clone(),
                seats: idx.len(),
                rate: e.mean,
                se: e.se,
                ci95: e.ci95,
            }
        })
        .collect();
    Some(rows)
}

/// The table of [`strategy_win_rates`].
pub fn strategy_win_rate_section(rows: &[StrategyWinRate]) -> Section {
    let mut sec = Section::new(
        "Win rate by strategy (per seat, seats pooled; SE treats seats as independent)",
        &["strategy", "seats", "win rate per seat", "SE", "95% CI"],
    );
    for w in rows {
        let [rate, se, ci] = pct_estimate_cells(w.rate, w.se, w.ci95, 2);
        sec.row([
            Cell::from(w.strategy.clone()),
            count_cell(w.seats as u64),
            rate,
            se,
            ci,
        ]);
    }
    sec
}

/// A number with `d` decimals ("n/a" when not finite).
pub fn fixed(v: f64, d: usize) -> String {
    if !v.is_finite() {
        return "n/a".into();
    }
    // Thousands separators in the whole part ("21,150", "1,016,702.5").
    let s = format!("{:.d$}", v.abs());
    let (whole, frac) = s.split_at(s.find('.').unwrap_or(s.len()));
    let sign = if v < 0.0 && s.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        "-"
    } else {
        ""
    };
    format!("{sign}{}{frac}", group_digits(whole))
}

/// `n` and the noun, plural unless `n` is 1: "1 thread", "2 threads".
pub fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", count(n))
    }
}

/// A count with thousands separators.
pub fn count(n: u64) -> String {
    group_digits(&n.to_string())
}

/// A string of digits with thousands separators ("1234567" → "1,234,567"), for numbers of any
/// size (money totals pass u64's range).
pub fn group_digits(s: &str) -> String {
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A file-name slug of a section name.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// Write a report folder at `dir` whole (see `door::output::replace_dir`): the files of
/// [`fill_out_dir`]. The command line's `--out-dir` goes through `door::Door::write_dir`,
/// which checked and holds it; this is for a library caller that owns `dir`.
pub fn write_out_dir(
    dir: &std::path::Path,
    report: &Report,
    plots: &[(String, String)],
) -> std::io::Result<Vec<std::path::PathBuf>> {
    let t = crate::door::output::DirTarget::resolve(dir)?;
    crate::door::output::replace_dir(&t, |tmp| fill_out_dir(tmp, report, plots))
}

/// Write a report as files into `dir` (the folder being built): `report.md`, `report.json`,
/// `report.html` (one self-contained page with the plots inline), one flat CSV per section
/// (one row per table row, e.g. per histogram bin) and the given SVG plots. Every file carries
/// the run's metadata (CSV as leading `#` lines, SVG in a `<desc>` element).
pub fn fill_out_dir(
    dir: &std::path::Path,
    report: &Report,
    plots: &[(String, String)],
) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut written = Vec::new();
    let mut put = |name: &str, text: &str| -> std::io::Result<()> {
        let p = dir.join(name);
        std::fs::write(&p, text)?;
        written.push(p);
        Ok(())
    };
    put("report.md", &report.render(Format::Markdown))?;
    put("report.json", &report.render(Format::Json))?;
    put("report.html", &html::to_html(report, plots))?;
    let meta: String = report
        .meta
        .iter()
        .map(|(k, v)| format!("# {k}: {v}\n"))
        .collect();
    for s in &report.sections {
        let body = s.to_flat_csv();
        put(&format!("{}.csv", slug(&s.name)), &format!("{meta}{body}"))?;
    }
    let desc: String = report
        .meta
        .iter()
        .map(|(k, v)| format!("{k}: {v}; "))
        .collect();
    let desc = desc
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    for (name, svg) in plots {
        let with_meta = match svg.find('>') {
            Some(i) => format!("{}<desc>{}</desc>{}", &svg[..=i], desc, &svg[i + 1..]),
            None => svg.clone(),
        };
        put(name, &with_meta)?;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::formats::md;
    use super::*;

    #[test]
    fn precision_notes_state_the_se_or_that_there_is_none() {
        assert_eq!(
            precision_note(1_000_000, "initial bets", 0.0011, 121e6, "bets"),
            "Precision: 1,000,000 initial bets give SE 0.1100%; SE 0.01% would take about 121,000,000 bets."
        );
        // One chunk: no SE, and no "about 0 bets".
        let one = precision_note(56, "initial bets", f64::NAN, f64::NAN, "bets");
        assert_eq!(
            one,
            "Precision: 56 initial bets give no standard error (too few chunks completed: SE n/a)."
        );
    }

    /// A claim check's table: the claimed figure, z, p-value and df as numbers; a check that
    /// could not be made (no SE) has no z or p number, and says so.
    #[test]
    fn a_claim_table_carries_z_p_and_df_as_numbers() {
        let est = crate::stats::Estimate {
            mean: 0.99,
            se: 0.002,
            ci95: [0.986, 0.994],
        };
        let cc = crate::stats::check_claim(&est, 0.9954, 1000, 99, "RTP");
        let mut r = Report::default();
        r.sections.push(claim_section(&cc, "RTP"));
        let csv = r.render(Format::Csv);
        let lines: Vec<&str> = csv.lines().skip(1).collect();
        assert_eq!(lines[0], "Claim,RTP,claimed,0.9954,fraction");
        assert_eq!(lines[1], format!("Claim,RTP,z,{},", num_text(cc.z)));
        assert!((cc.z + 2.7).abs() < 1e-9, "{}", cc.z);
        assert_eq!(
            lines[2],
            format!("Claim,RTP,p-value,{},", num_text(cc.p_value))
        );
        assert!(cc.p_value > 0.0 && cc.p_value < 0.05);
        assert_eq!(lines[3], "Claim,RTP,df,99,count");
        assert_eq!(
            lines[4],
            "Claim,RTP,verdict,not supported (outside the 95% CI),"
        );
        let table = r.render(Format::Table);
        assert!(table.contains("-2.70"), "{table}");
        let none = crate::stats::Estimate {
            mean: 0.99,
            se: f64::NAN,
            ci95: [f64::NAN; 2],
        };
        let cc = crate::stats::check_claim(&none, 0.9954, 1000, 0, "RTP");
        let s = claim_section(&cc, "RTP");
        assert_eq!(s.rows[0][2].value, None);
        assert_eq!(s.rows[0][2].text, "n/a");
        assert_eq!(s.rows[0][3].text, "n/a");
        assert_eq!(s.rows[0][3].value, None);
        assert_eq!(s.rows[0][5].text, "not checked");
    }

    #[test]
    fn slugs_keep_the_whole_title() {
        assert_eq!(
            slug("Side bets and bet behind (RTP per stake of that bet)"),
            "side-bets-and-bet-behind-rtp-per-stake-of-that-bet"
        );
    }

    #[test]
    fn helpers() {
        assert_eq!(count(1234567), "1,234,567");
        assert_eq!(count(12), "12");
        assert_eq!(pct(0.99541, 3), "99.541%");
        assert_eq!(pct(f64::NAN, 3), "n/a");
    }

    #[test]
    fn number_formats_pin_their_text() {
        assert_eq!(pct(0.5, 0), "50%");
        assert_eq!(pct(-0.012345, 2), "-1.23%");
        assert_eq!(pct(f64::INFINITY, 1), "n/a");
        assert_eq!(pct_text(0.9954), "99.54");
        assert_eq!(pct_text(1.0), "100");
        assert_eq!(pct_text(0.0), "0");
        assert_eq!(fixed(1.23456, 2), "1.23");
        assert_eq!(fixed(1_016_702.0, 0), "1,016,702");
        assert_eq!(fixed(-1234.56, 1), "-1,234.6");
        assert_eq!(fixed(-0.001, 2), "0.00");
        assert_eq!(fixed(-2.0, 0), "-2");
        assert_eq!(fixed(f64::NAN, 2), "n/a");
        assert_eq!(fixed(f64::NEG_INFINITY, 2), "n/a");
        for (n, t) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (12_345, "12,345"),
            (100_000, "100,000"),
            (1_234_567, "1,234,567"),
        ] {
            assert_eq!(count(n), t);
        }
        assert_eq!(plural(1, "thread"), "1 thread");
        assert_eq!(plural(0, "thread"), "0 threads");
        assert_eq!(plural(2, "shard"), "2 shards");
        assert_eq!(plural(1234, "game"), "1,234 games");
        assert_eq!(where_run(1, 0), "on 1 thread");
        assert_eq!(where_run(4, 0), "on 4 threads");
        assert_eq!(where_run(0, 3), "merged from 3 shards");
        assert_eq!(where_run(8, 1), "merged from 1 shard");
        assert_eq!(rate(1, 4), 0.25);
        assert!(rate(1, 0).is_nan());
        for (v, t) in [
            (3.0, "3"),
            (-2.0, "-2"),
            (0.25, "0.25"),
            (-0.5, "-0.5"),
            // Before: f64::MAX was written out in full, 309 digits.
            (1e20, "1e20"),
            (f64::MAX, "1.7976931348623157e308"),
            (1e-300, "1e-300"),
            (-1.5e-7, "-0.00000015"),
            (-1.5e-17, "-1.5e-17"),
            (f64::NAN, "NaN"),
            // An integer goes through i64, so a negative zero is written as 0.
            (-0.0, "0"),
            (999_999_999_999_999.0, "999999999999999"),
            (1e15, "1e15"),
        ] {
            assert_eq!(num_text(v), t, "{v}");
        }
        for (t, missing) in [("", true), ("n/a", true), ("-", true), ("never", false)] {
            assert_eq!(is_missing(t), missing, "{t}");
        }
        assert_eq!(slug("  Hello, World!! 2 "), "hello-world-2");
        assert_eq!(slug("--"), "");
        assert_eq!(md("a|b|c"), "a\\|b\\|c");
    }

    #[test]
    fn cells_carry_finite_values_only() {
        assert_eq!(
            Cell::num("x".into(), 2.0, "count").value,
            Some(Num::One(2.0, "count"))
        );
        assert_eq!(Cell::num("x".into(), f64::NAN, "count").value, None);
        // Counts are exact, past 2^53 too.
        assert_eq!(
            count_cell(12_345_678_901_234_567).value,
            Some(Num::Count(12_345_678_901_234_567))
        );
        let mut t = Section::new("Run", &["what", "rounds", "bound"]);
        t.rows.push(vec![
            Cell::from("run"),
            count_cell(12_345_678_901_234_567),
            Cell::num("unbounded".into(), f64::MAX, "money"),
        ]);
        let mut r = Report::default();
        r.sections.push(t.clone());
        assert_eq!(
            r.render(Format::Csv).lines().skip(1).collect::<Vec<_>>(),
            [
                "Run,run,rounds,12345678901234567,count",
                "Run,run,bound,1.7976931348623157e308,money"
            ]
        );
        assert_eq!(
            t.to_flat_csv().lines().nth(1),
            Some("run,12345678901234567,count,1.7976931348623157e308,money")
        );
        let r = |lo, hi| Cell::range("r".into(), lo, hi, "fraction").value;
        assert_eq!(r(0.1, 0.2), Some(Num::Range(0.1, 0.2, "fraction")));
        assert_eq!(r(f64::NAN, 0.2), None);
        assert_eq!(r(0.1, f64::INFINITY), None);
        assert_eq!(
            count_cell(1234),
            Cell {
                text: "1,234".into(),
                value: Some(Num::Count(1234))
            }
        );
        assert_eq!(
            fixed_cell(1.5, 1, "points"),
            Cell::num("1.5".into(), 1.5, "points")
        );
        let e = crate::stats::Estimate {
            mean: 0.02,
            se: 0.005,
            ci95: [0.01, 0.03],
        };
        assert_eq!(ci_pct(&e, 2), "[1.00%, 3.00%]");
        assert_eq!(
            ci_cell(e.ci95, 1),
            Cell::range("[1.0%, 3.0%]".into(), 0.01, 0.03, "fraction")
        );
        assert_eq!(
            estimate_json(&e),
            serde_json::json!({"mean": 0.02, "se": 0.005, "ci95": [0.01, 0.03]})
        );
    }

    /// A ratio of two batches (x1/y, x2/y).
    fn ratio(x1: i64, x2: i64, y: i64) -> crate::stats::Ratio {
        let mut r = crate::stats::Ratio::default();
        for x in [x1, x2] {
            let mut b = crate::stats::Batch::default();
            b.add(x, y);
            r.close(&b, 1);
        }
        r
    }

    #[test]
    fn estimates_and_win_rates_by_strategy() {
        // (1 + 3) / 8 = 0.5 with SE 0.25; (0 + 2) / 8 = 0.25 with SE 0.25.
        let a = ratio(1, 3, 4);
        let b = ratio(0, 2, 4);
        assert_eq!(
            (a.mean(), a.se(), b.mean(), b.se()),
            (0.5, 0.25, 0.25, 0.25)
        );
        assert_eq!(est(&a, 2.0), crate::stats::Estimate::new(0.25, 0.125, 1));
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(strategy_win_rates(&names(&["x", "y"]), &[a, b]).is_none());
        let rows = strategy_win_rates(&names(&["x", "y", "x"]), &[a, b, b]).unwrap();
        let sec = strategy_win_rate_section(&rows);
        let js = serde_json::to_value(&rows).unwrap();
        let x = crate::stats::Estimate::new(0.375, (0.0625f64 + 0.0625).sqrt() / 2.0, 1);
        let y = crate::stats::Estimate::new(0.25, 0.25, 1);
        assert_eq!(sec.rows.len(), 2);
        assert_eq!(
            sec.rows[0],
            vec![
                Cell::from("x"),
                count_cell(2),
                pct_cell(x.mean, 2),
                pct_cell(x.se, 2),
                ci_cell(x.ci95, 2)
            ]
        );
        assert_eq!(sec.rows[1][0], Cell::from("y"));
        assert_eq!(sec.rows[1][1], count_cell(1));
        assert_eq!(sec.rows[1][2], pct_cell(0.25, 2));
        assert_eq!(
            js,
            serde_json::json!([
                {"strategy": "x", "seats": 2, "rate": x.mean, "se": x.se, "ci95": x.ci95},
                {"strategy": "y", "seats": 1, "rate": y.mean, "se": y.se, "ci95": y.ci95},
            ])
        );
    }

    /// The terminal's brief report leaves out the tables and notes left to `--full` and names
    /// them in its last note; a report with nothing left out is unchanged.
    #[test]
    fn the_brief_report_names_what_it_leaves_out() {
        let mut r = wide();
        assert_eq!(r.brief(), r);
        let mut extra = Section::new("Detail", &["a"]);
        extra.row(["1"]);
        r.sections.push(extra);
        r.notes.push("Assumption: one".into());
        r.notes.push("Assumption: two".into());
        r.full_only(&["Detail"]);
        r.notes_full_only("Assumption:");
        let b = r.brief();
        assert_eq!(b.sections.len(), 1);
        assert_eq!(&b.notes[..2], &["n0".to_string(), "n1".to_string()]);
        let last = b.notes.last().unwrap();
        assert!(
            last.contains("1 table left out (Detail);")
                && last.contains("2 notes left out (Assumption);"),
            "{last}"
        );
        assert_eq!(b.notes.len(), 3);
    }

    /// A report with a CI column, a short and a long row, and two notes.
    pub(super) fn wide() -> Report {
        let mut s = Section::new("Rates", &["name", "rate", "ci", "note"]);
        s.row([
            Cell::from("x"),
            pct_cell(0.5, 1),
            Cell::range("[40%, 60%]".into(), 0.4, 0.6, "fraction"),
            Cell::from("hello"),
        ]);
        s.row([Cell::from("y"), "n/a".into(), "-".into(), "".into()]);
        s.row([
            Cell::from("z"),
            "never taken".into(),
            Cell::num("30%".into(), 0.3, "fraction"),
        ]);
        s.row(["w", "1", "2", "3", "extra"]);
        Report {
            title: "Wide".into(),
            meta: vec![("a".into(), "1".into()), ("long key".into(), "v|w".into())],
            sections: vec![s],
            notes: vec!["n0".into(), "n1".into()],
            notes_full_only: Vec::new(),
            json: serde_json::json!(null),
        }
    }

    #[test]
    fn out_dir_files_carry_the_meta() {
        let d = std::env::temp_dir().join(format!("rtplab-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        let mut r = wide();
        r.meta.push(("chart".into(), "<a&b>".into()));
        let plots = [
            ("p.svg".to_string(), "<svg x>body</svg>".to_string()),
            ("q.svg".to_string(), "no tag".to_string()),
        ];
        let written = write_out_dir(&d, &r, &plots).unwrap();
        let names: Vec<_> = written
            .iter()
            .map(|p| p.strip_prefix(&d).unwrap().display().to_string())
            .collect();
        assert_eq!(
            names,
            [
                "report.md",
                "report.json",
                "report.html",
                "rates.csv",
                "p.svg",
                "q.svg"
            ]
        );
        let read = |n: &str| std::fs::read_to_string(d.join(n)).unwrap();
        assert_eq!(read("report.md"), r.render(Format::Markdown));
        assert_eq!(read("report.html"), html::to_html(&r, &plots));
        assert!(
            read("report.html").contains("&lt;a&amp;b&gt;"),
            "the meta, escaped"
        );
        assert_eq!(read("report.json"), "null\n");
        assert_eq!(
            read("rates.csv"),
            format!(
                "# a: 1\n# long key: v|w\n# chart: <a&b>\n{}",
                r.sections[0].to_flat_csv()
            )
        );
        assert_eq!(
            read("p.svg"),
            "<svg x><desc>a: 1; long key: v|w; chart: &lt;a&amp;b&gt;; </desc>body</svg>"
        );
        assert_eq!(read("q.svg"), "no tag");
        let _ = std::fs::remove_dir_all(&d);
    }
}
