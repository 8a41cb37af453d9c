//! The report model (game-neutral) and its renderers: table, Markdown, CSV, JSON.

pub mod html;
pub mod svg;

use serde::Serialize;
use std::fmt::Write;

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
    Cell::num(count(n), n as f64, "count")
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
}

impl Section {
    pub fn new(name: &str, columns: &[&str]) -> Section {
        Section {
            name: name.to_string(),
            columns: columns.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
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
fn num_text(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
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
    pub json: serde_json::Value,
}

impl Report {
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Table => self.to_table(),
            Format::Markdown => self.to_markdown(),
            Format::Csv => self.to_csv(),
            Format::Json => {
                let mut s = serde_json::to_string_pretty(&self.json).unwrap_or_default();
                s.push('\n');
                s
            }
            Format::Html => html::to_html(self, &[]),
        }
    }

    /// Aligned text tables fitting [`TABLE_WIDTH`] columns: long metadata values and notes
    /// wrap, a long cell wraps within its column, and a table still too wide is split into
    /// parts by columns, each repeating the first (the row's name). Markdown, CSV, HTML and
    /// JSON keep every table whole.
    fn to_table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.title);
        let _ = writeln!(out, "{}", "=".repeat(self.title.chars().count()));
        let w = self
            .meta
            .iter()
            .map(|(k, _)| k.chars().count())
            .max()
            .unwrap_or(0);
        for (k, v) in &self.meta {
            let lines = wrap(v, TABLE_WIDTH.saturating_sub(w + 2).max(30));
            for (i, l) in lines.iter().enumerate() {
                let key = if i == 0 { k.as_str() } else { "" };
                let _ = writeln!(out, "{}", format!("{key:<w$}  {l}").trim_end());
            }
        }
        for s in &self.sections {
            table_section(&mut out, s, TABLE_WIDTH);
        }
        if !self.notes.is_empty() {
            out.push('\n');
            for n in &self.notes {
                for (i, l) in wrap(n, TABLE_WIDTH - 2).iter().enumerate() {
                    let mark = if i == 0 { "*" } else { " " };
                    let _ = writeln!(out, "{}", format!("{mark} {l}").trim_end());
                }
            }
        }
        out
    }

    fn to_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# {}\n", self.title);
        let _ = writeln!(out, "| | |\n|---|---|");
        for (k, v) in &self.meta {
            let _ = writeln!(out, "| {} | {} |", md(k), md(v));
        }
        for s in &self.sections {
            let _ = writeln!(out, "\n## {}\n", s.name);
            let _ = writeln!(
                out,
                "| {} |",
                s.columns
                    .iter()
                    .map(|c| md(c))
                    .collect::<Vec<_>>()
                    .join(" | ")
            );
            let align: Vec<&str> = (0..s.columns.len())
                .map(|i| if i == 0 { "---" } else { "---:" })
                .collect();
            let _ = writeln!(out, "|{}|", align.join("|"));
            for r in &s.rows {
                let _ = writeln!(
                    out,
                    "| {} |",
                    r.iter()
                        .map(|c| md(&c.text))
                        .collect::<Vec<_>>()
                        .join(" | ")
                );
            }
        }
        if !self.notes.is_empty() {
            out.push('\n');
            for n in &self.notes {
                let _ = writeln!(out, "- {}", md(n));
            }
        }
        out
    }

    /// Long format: one line per cell, `section,row,column,value,unit`; numbers are raw
    /// (a percentage as its fraction, unit `fraction`; a 95% CI as two lines, `<column> low`
    /// and `<column> high`); text cells have an empty unit. Metadata is section `meta`.
    fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record(["section", "row", "column", "value", "unit"]);
        for (k, v) in &self.meta {
            let _ = w.write_record(["meta", k.as_str(), "value", v.as_str(), ""]);
        }
        for s in &self.sections {
            for r in &s.rows {
                let key = csv_text(r.first().map(|c| c.text.as_str()).unwrap_or(""));
                for (c, v) in s.columns.iter().zip(r).skip(1) {
                    match v.value {
                        Some(Num::One(x, u)) => {
                            let _ = w.write_record([&s.name, &key, c, &num_text(x), u]);
                        }
                        Some(Num::Range(lo, hi, u)) => {
                            let _ = w.write_record([
                                &s.name,
                                &key,
                                &format!("{c} low"),
                                &num_text(lo),
                                u,
                            ]);
                            let _ = w.write_record([
                                &s.name,
                                &key,
                                &format!("{c} high"),
                                &num_text(hi),
                                u,
                            ]);
                        }
                        None => {
                            let _ = w.write_record([&s.name, &key, c, &csv_text(&v.text), ""]);
                        }
                    }
                }
            }
        }
        for (i, n) in self.notes.iter().enumerate() {
            let _ = w.write_record(["notes", &i.to_string(), "text", n.as_str(), ""]);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }
}

/// A text cell for CSV, kept from being read as a formula by a spreadsheet: text starting with
/// `=`, `+`, `@`, a tab or a carriage return, or `-` when it is not a number (a period label
/// `=cmd|x` from a log), gets a leading `'`.
fn csv_text(t: &str) -> String {
    let risky = t.starts_with(['=', '+', '@', '\t', '\r'])
        || (t.starts_with('-') && t != "-" && t.parse::<f64>().is_err());
    if risky {
        format!("'{t}")
    } else {
        t.to_string()
    }
}

/// The widest a table in the table format is, in columns (characters).
pub const TABLE_WIDTH: usize = 100;

/// The widest a column of a table too wide for [`TABLE_WIDTH`] is: its longer cells wrap.
const WRAP_COLUMN: usize = 40;

/// `text` broken between words into lines of at most `width` characters (a word longer than
/// that is cut); at least one line.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let last = lines.last_mut().expect("at least one line");
            let len = last.chars().count();
            let room = if len == 0 {
                width
            } else {
                width.saturating_sub(len + 1)
            };
            if word.len() <= room {
                if len > 0 {
                    last.push(' ');
                }
                last.extend(word);
                break;
            }
            if len == 0 {
                // A word longer than a line: cut it.
                last.extend(word.drain(..width));
            }
            lines.push(String::new());
        }
    }
    lines
}

/// One section in the table format, fitting `max` columns: cells wrapped to
/// [`WRAP_COLUMN`] when the table is too wide, then parts of the columns, each with the first.
fn table_section(out: &mut String, s: &Section, max: usize) {
    let gap = |w: &[usize]| w.iter().sum::<usize>() + 2 * w.len().saturating_sub(1);
    let mut widths = widths(s);
    let wrapped = gap(&widths) > max;
    if wrapped {
        for w in &mut widths {
            *w = (*w).min(WRAP_COLUMN);
        }
        // A column no cell fills to the cap is as wide as its widest wrapped cell.
        let cells = s.rows.iter().flat_map(|r| r.iter().enumerate());
        let heads = s.columns.iter().enumerate();
        let mut need = vec![0usize; widths.len()];
        let texts = heads
            .map(|(i, c)| (i, c.as_str()))
            .chain(cells.map(|(i, c)| (i, c.text.as_str())));
        for (i, t) in texts {
            if let Some(n) = need.get_mut(i) {
                let longest = wrap(t, widths[i]).iter().map(|l| l.chars().count()).max();
                *n = (*n).max(longest.unwrap_or(0));
            }
        }
        widths = need;
    }
    // A text column (no cell a number) reads left-aligned once wrapped; the first of them
    // names the row, and every part repeats it.
    let text: Vec<bool> = (0..widths.len())
        .map(|i| {
            wrapped
                && s.rows
                    .iter()
                    .all(|r| r.get(i).is_none_or(|c| c.value.is_none()))
        })
        .collect();
    let key = text.iter().position(|&t| t).unwrap_or(0);
    let mut parts: Vec<Vec<usize>> = Vec::new();
    for i in (0..widths.len()).filter(|&i| i != key) {
        let fits = |p: &Vec<usize>| {
            gap(&p.iter().map(|&j| widths[j]).collect::<Vec<_>>()) + 2 + widths[i] <= max
        };
        match parts.last_mut() {
            Some(p) if fits(p) => p.push(i),
            _ => parts.push(vec![key, i]),
        }
    }
    if parts.is_empty() {
        parts.push(vec![key]);
    }
    for p in &mut parts {
        p.sort_unstable();
    }
    let n = parts.len();
    for (k, part) in parts.iter().enumerate() {
        let name = match (n, k) {
            (1, _) => s.name.clone(),
            (_, 0) => format!("{} (part 1 of {n})", s.name),
            _ => format!("{} (part {} of {n}, continued)", s.name, k + 1),
        };
        let _ = writeln!(out, "\n{name}");
        let line = |cells: &[&str]| {
            let cols: Vec<Vec<String>> = part
                .iter()
                .map(|&i| match cells.get(i) {
                    Some(c) if wrapped => wrap(c, widths[i]),
                    Some(c) => vec![c.to_string()],
                    None => vec![String::new()],
                })
                .collect();
            let height = cols.iter().map(Vec::len).max().unwrap_or(1);
            let mut lines = String::new();
            for h in 0..height {
                let mut l = String::new();
                for (j, &i) in part.iter().enumerate() {
                    let wi = widths[i];
                    let c = cols[j].get(h).map_or("", String::as_str);
                    let sep = if j == 0 { "" } else { "  " };
                    if j == 0 || text[i] {
                        let _ = write!(l, "{sep}{c:<wi$}");
                    } else {
                        let _ = write!(l, "{sep}{c:>wi$}");
                    }
                }
                let _ = writeln!(lines, "{}", l.trim_end());
            }
            lines
        };
        let cols: Vec<&str> = s.columns.iter().map(String::as_str).collect();
        out.push_str(&line(&cols));
        let ws: Vec<usize> = part.iter().map(|&i| widths[i]).collect();
        let _ = writeln!(out, "{}", "-".repeat(gap(&ws)));
        for r in &s.rows {
            let cells: Vec<&str> = r.iter().map(|c| c.text.as_str()).collect();
            out.push_str(&line(&cells));
        }
    }
}

fn widths(s: &Section) -> Vec<usize> {
    let mut w: Vec<usize> = s.columns.iter().map(|c| c.chars().count()).collect();
    for r in &s.rows {
        for (i, c) in r.iter().enumerate() {
            let n = c.text.chars().count();
            if i < w.len() {
                w[i] = w[i].max(n);
            } else {
                w.push(n);
            }
        }
    }
    w
}

fn md(s: &str) -> String {
    s.replace('|', "\\|")
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
    if v.is_finite() {
        format!("{v:.d$}")
    } else {
        "n/a".into()
    }
}

/// How a run went (every game): its seed, starting seat (dice games), time, threads, shards
/// merged, and completeness.
#[derive(Clone, Debug, Default)]
pub struct RunMeta {
    pub seed: u64,
    /// 0-based; `None`: the starting seat rotated game by game.
    pub start_seat: Option<usize>,
    pub elapsed_s: f64,
    /// The set-up of the run's shared state before it (solves of Doom strategies, the
    /// blackjack pilot), not in `elapsed_s`; 0 for a merged run. A blackjack chart derived
    /// for the rules is made before the run is set up and is not in it.
    pub setup_s: f64,
    /// 0 for a merged run.
    pub threads: usize,
    /// Shard files a merged run was merged from (0: not merged).
    pub merged_from: usize,
    pub interrupted: bool,
    pub chunks_done: u64,
    /// Chunks of the whole run.
    pub chunks_planned: u64,
    /// The shard this run was (`None`: the whole run, or a merge of all shards).
    pub shard: Option<crate::shard::ShardSpec>,
    /// Global chunks covered `[start, end)`.
    pub chunk_range: [u64; 2],
    /// A run resumed from its shard file's checkpoint: the global chunk it went on from.
    pub resumed_from_chunk: Option<u64>,
    /// The shard file was already complete: the run was read from it, not recomputed.
    pub already_complete: bool,
    /// An interrupted run whose shard file was written: running it again resumes it.
    pub resumable: bool,
}

impl RunMeta {
    /// The meta of a finished (or interrupted) run of `out.chunks_planned` chunks.
    pub fn of<A>(seed: u64, out: &crate::engine::RunOutcome<A>) -> RunMeta {
        RunMeta {
            seed,
            elapsed_s: out.elapsed.as_secs_f64(),
            threads: out.threads,
            interrupted: out.interrupted,
            chunks_done: out.chunks_done,
            chunks_planned: out.chunks_planned,
            chunk_range: [0, out.chunks_planned],
            ..RunMeta::default()
        }
    }

    pub fn starting_seat(&self) -> String {
        self.start_seat
            .map_or("rotates game by game".into(), |s| (s + 1).to_string())
    }

    /// `setup_s` for a report's JSON: none for a merged run (its shards' set-ups are not
    /// kept).
    pub fn setup_json(&self) -> Option<f64> {
        (self.merged_from == 0).then_some(self.setup_s)
    }

    /// "INTERRUPTED: k of n chunks completed" for an interrupted run.
    pub fn marker(&self) -> Option<String> {
        self.interrupted.then(|| {
            format!(
                "INTERRUPTED: {} of {} chunks completed",
                self.chunks_done, self.chunks_planned
            )
        })
    }

    /// "12.34 s on 2 threads, 1,234 rounds/s" for `work` items of `unit` done, and the set-up
    /// before the run when it took a noticeable time (a solve can take minutes).
    pub fn elapsed_text(&self, work: u64, unit: &str) -> String {
        format!(
            "{}, {} {unit}/s{}",
            self.time_text(),
            count(self.per_second(work) as u64),
            self.setup_clause()
        )
    }

    /// "12.34 s on 2 threads" (or "merged from 4 shards").
    fn time_text(&self) -> String {
        format!(
            "{:.2} s {}",
            self.elapsed_s,
            where_run(self.threads, self.merged_from)
        )
    }

    /// `work` items per second of `elapsed_s`.
    pub fn per_second(&self, work: u64) -> f64 {
        work as f64 / self.elapsed_s.max(1e-9)
    }

    /// "; set-up before it 4.12 s, not in that time" when the set-up took a noticeable time
    /// (a twentieth of a second or more), else empty.
    pub fn setup_clause(&self) -> String {
        if self.setup_s >= 0.05 {
            format!("; set-up before it {:.2} s, not in that time", self.setup_s)
        } else {
            String::new()
        }
    }

    /// The report's "elapsed" line (with `work` items of `unit` done, e.g. turns or games)
    /// and, if the run was interrupted, its "status" line and the note saying what the figures
    /// cover.
    pub fn annotate(&self, r: &mut Report, work: u64, unit: &str) {
        self.annotate_with(r, self.elapsed_text(work, unit));
    }

    /// [`annotate`](Self::annotate) for a run without one count of work (a comparison): the
    /// elapsed line gives the time, threads and set-up, no pace.
    pub fn annotate_without_pace(&self, r: &mut Report) {
        self.annotate_with(r, self.time_text() + &self.setup_clause());
    }

    fn annotate_with(&self, r: &mut Report, elapsed: String) {
        r.meta.push(("elapsed".into(), elapsed));
        if let Some(m) = self.marker() {
            r.notes
                .push(format!("{m}; the figures cover the completed chunks only."));
            // In the metadata too, so that every file of --out-dir (CSV, SVG) carries it.
            r.meta.push(("status".into(), m));
        }
    }
}

/// The keys every simulation's JSON document has at its top level: the game, how the run went
/// (seed, starting seat, time, threads, completeness) and its pace. Each game's simulation
/// model flattens it (`#[serde(flatten)]`) beside its own figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunHeader {
    pub game: &'static str,
    pub seed: u64,
    /// Games played in seats: 1-based, or `Some(None)` (null) when the starting seat rotated
    /// game by game; `None` (no key): the game has no seats (or a run of single turns).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starting_seat: Option<Option<usize>>,
    pub elapsed_s: f64,
    /// The set-up before the run, not in `elapsed_s` (`RunMeta::setup_s`); none if merged.
    pub setup_s: Option<f64>,
    pub threads: usize,
    pub interrupted: bool,
    /// The run's pace, under the game's own key.
    #[serde(flatten)]
    pub pace: PerSecond,
}

impl RunHeader {
    /// The header of `run`, a run of `game` that did `work` items (rounds, coups, turns,
    /// games) in its time; `pace_key` names the pace (`rounds_per_s`, ...).
    pub fn of(game: &'static str, run: &RunMeta, work: u64, pace_key: &'static str) -> RunHeader {
        RunHeader {
            game,
            seed: run.seed,
            starting_seat: None,
            elapsed_s: run.elapsed_s,
            setup_s: run.setup_json(),
            threads: run.threads,
            interrupted: run.interrupted,
            pace: PerSecond {
                key: pace_key,
                value: run.per_second(work),
            },
        }
    }

    /// The same header for games played in seats: with `run`'s starting seat.
    pub fn with_seats(self, run: &RunMeta) -> RunHeader {
        RunHeader {
            starting_seat: Some(run.start_seat.map(|s| s + 1)),
            ..self
        }
    }
}

/// Work done per second of a run, written as one key, `key` (`rounds_per_s`, `coups_per_s`,
/// `turns_per_s`, `games_per_s`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerSecond {
    pub key: &'static str,
    pub value: f64,
}

impl Serialize for PerSecond {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(self.key, &self.value)?;
        m.end()
    }
}

/// Where a run ran, for the elapsed line: "on 1 thread", "on 2 threads", or for a merged
/// run (no single thread count) "merged from 4 shards".
pub fn where_run(threads: usize, merged_from: usize) -> String {
    if merged_from > 0 {
        format!("merged from {}", plural(merged_from as u64, "shard"))
    } else {
        format!("on {}", plural(threads as u64, "thread"))
    }
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
    crate::door::output::replace_dir(dir, |tmp| fill_out_dir(tmp, report, plots))
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
    use super::*;

    fn sample() -> Report {
        let mut s = Section::new("EV by up card", &["up", "EV", "SE"]);
        s.row(["2".to_string(), "0.1".into(), "0.01".into()]);
        s.row(["A|x".to_string(), "-0.3".into(), "0.02".into()]);
        Report {
            title: "Test".into(),
            meta: vec![("seed".into(), "1".into())],
            sections: vec![s],
            notes: vec!["a note".into()],
            json: serde_json::json!({"a": 1}),
        }
    }

    #[test]
    fn csv_text_cells_are_never_formulas() {
        assert_eq!(csv_text("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
        for t in ["+1+1", "@SUM(A1)", "\tx", "-2+3"] {
            assert_eq!(csv_text(t), format!("'{t}"));
        }
        for t in ["-", "-0.5", "day 1", "", "1e3"] {
            assert_eq!(csv_text(t), t);
        }
        let mut s = Section::new("Periods", &["period", "rounds"]);
        s.row([Cell::from("=1+1"), count_cell(3)]);
        assert_eq!(
            s.to_flat_csv(),
            "period,rounds,rounds unit\n'=1+1,3,count\n"
        );
        let r = Report {
            sections: vec![s],
            ..Default::default()
        };
        assert!(r
            .render(Format::Csv)
            .contains("Periods,'=1+1,rounds,3,count"));
    }

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

    #[test]
    fn table_snapshot() {
        let t = sample().render(Format::Table);
        assert_eq!(
            t,
            "Test\n====\nseed  1\n\nEV by up card\nup     EV    SE\n---------------\n2     0.1  0.01\nA|x  -0.3  0.02\n\n* a note\n"
        );
    }

    /// A table wider than 100 columns wraps its long cells and splits into parts that each
    /// repeat the first column; every line fits; metadata and notes wrap too.
    #[test]
    fn wide_tables_fit_100_columns() {
        let cols: Vec<String> = (0..14).map(|i| format!("column {i}")).collect();
        let cols: Vec<&str> = cols.iter().map(String::as_str).collect();
        let mut s = Section::new("Wide", &cols);
        let long = "a name far too long to sit in one narrow column of a table".to_string();
        s.row(std::iter::once(long).chain((1..14).map(|i| format!("{}", i * 1000))));
        let r = Report {
            title: "T".into(),
            meta: vec![("rules".into(), "word ".repeat(40))],
            sections: vec![s],
            notes: vec!["note ".repeat(40)],
            json: serde_json::Value::Null,
        };
        let t = r.render(Format::Table);
        for l in t.lines() {
            assert!(
                l.chars().count() <= TABLE_WIDTH,
                "{}: {l}",
                l.chars().count()
            );
        }
        assert!(t.contains("Wide (part 1 of 3)"), "{t}");
        assert!(t.contains("Wide (part 3 of 3, continued)"), "{t}");
        assert_eq!(t.matches("a name far too long").count(), 3, "{t}");
        assert!(t.contains("13000"));
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap("abcdefg", 3), ["abc", "def", "g"]);
        assert_eq!(wrap("", 3), [""]);
    }

    #[test]
    fn markdown_snapshot() {
        let t = sample().render(Format::Markdown);
        assert_eq!(
            t,
            "# Test\n\n| | |\n|---|---|\n| seed | 1 |\n\n## EV by up card\n\n| up | EV | SE |\n|---|---:|---:|\n| 2 | 0.1 | 0.01 |\n| A\\|x | -0.3 | 0.02 |\n\n- a note\n"
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
    fn csv_is_long_format() {
        let t = sample().render(Format::Csv);
        let mut r = csv::Reader::from_reader(t.as_bytes());
        let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
        assert_eq!(
            &rows[0],
            &csv::StringRecord::from(vec!["meta", "seed", "value", "1", ""])
        );
        assert_eq!(
            &rows[1],
            &csv::StringRecord::from(vec!["EV by up card", "2", "EV", "0.1", ""])
        );
        assert_eq!(rows.len(), 1 + 4 + 1);
    }

    #[test]
    fn csv_carries_numbers_and_units_while_tables_show_text() {
        let mut s = Section::new("Rates", &["event", "rate", "count", "95% CI"]);
        let e = crate::stats::Estimate::new(0.9927, 0.0001, 1_000_000);
        s.row([
            Cell::from("win"),
            pct_cell(0.9927, 2),
            count_cell(1234),
            ci_cell(e.ci95, 2),
        ]);
        let r = Report {
            title: "T".into(),
            sections: vec![s.clone()],
            ..Default::default()
        };
        let table = r.render(Format::Table);
        assert!(
            table.contains("99.27%") && table.contains("1,234"),
            "{table}"
        );
        let long = r.render(Format::Csv);
        assert!(long.contains("Rates,win,rate,0.9927,fraction\n"), "{long}");
        assert!(long.contains("Rates,win,count,1234,count\n"), "{long}");
        assert!(long.contains("Rates,win,95% CI low,"), "{long}");
        let flat = s.to_flat_csv();
        let mut lines = flat.lines();
        assert_eq!(
            lines.next().unwrap(),
            "event,rate,rate unit,count,count unit,95% CI low,95% CI high,95% CI unit"
        );
        let row = lines.next().unwrap();
        assert!(
            row.starts_with("win,0.9927,fraction,1234,count,0.99"),
            "{row}"
        );
        assert!(!row.contains('%') && !row.contains("1,234"), "{row}");
    }

    #[test]
    fn slugs_keep_the_whole_title() {
        assert_eq!(
            slug("Side bets and bet behind (RTP per stake of that bet)"),
            "side-bets-and-bet-behind-rtp-per-stake-of-that-bet"
        );
    }

    #[test]
    fn json_is_the_document() {
        let t = sample().render(Format::Json);
        let v: serde_json::Value = serde_json::from_str(&t).unwrap();
        assert_eq!(v["a"], 1);
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
            (1e20, "100000000000000000000"),
            (f64::NAN, "NaN"),
            // An integer goes through i64, so a negative zero is written as 0.
            (-0.0, "0"),
            (1e15, "1000000000000000"),
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
        let r = |lo, hi| Cell::range("r".into(), lo, hi, "fraction").value;
        assert_eq!(r(0.1, 0.2), Some(Num::Range(0.1, 0.2, "fraction")));
        assert_eq!(r(f64::NAN, 0.2), None);
        assert_eq!(r(0.1, f64::INFINITY), None);
        assert_eq!(count_cell(1234), Cell::num("1,234".into(), 1234.0, "count"));
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

    #[test]
    fn run_meta_lines_and_notes() {
        let out = crate::engine::RunOutcome {
            acc: (),
            chunks_done: 3,
            chunks_planned: 8,
            interrupted: true,
            elapsed: std::time::Duration::from_millis(2000),
            threads: 2,
        };
        let m = RunMeta {
            start_seat: Some(0),
            ..RunMeta::of(9, &out)
        };
        assert_eq!(
            (m.seed, m.threads, m.merged_from, m.elapsed_s),
            (9, 2, 0, 2.0)
        );
        assert_eq!(
            (m.chunks_done, m.chunks_planned, m.interrupted),
            (3, 8, true)
        );
        // A whole run's chunks (a shard's own range is set by the one that runs it).
        assert_eq!(m.chunk_range, [0, 8]);
        assert_eq!(m.starting_seat(), "1");
        let mut r = Report::default();
        m.annotate(&mut r, 3000, "games");
        assert_eq!(
            r.meta,
            vec![
                (
                    "elapsed".to_string(),
                    "2.00 s on 2 threads, 1,500 games/s".to_string()
                ),
                (
                    "status".to_string(),
                    "INTERRUPTED: 3 of 8 chunks completed".to_string()
                ),
            ]
        );
        assert_eq!(
            r.notes,
            ["INTERRUPTED: 3 of 8 chunks completed; the figures cover the completed chunks only."]
        );
        // A comparison's line: no pace; the same status and note.
        let mut c = Report::default();
        m.annotate_without_pace(&mut c);
        assert_eq!(c.meta[0].1, "2.00 s on 2 threads");
        assert_eq!((&c.meta[1], &c.notes), (&r.meta[1], &r.notes));
        assert_eq!(m.setup_json(), Some(m.setup_s));
        let whole = RunMeta {
            start_seat: None,
            interrupted: false,
            elapsed_s: 0.0,
            merged_from: 4,
            ..m
        };
        assert_eq!(whole.starting_seat(), "rotates game by game");
        assert_eq!(whole.marker(), None);
        assert_eq!(whole.setup_json(), None);
        let mut r = Report::default();
        whole.annotate(&mut r, 3, "turns");
        assert_eq!(
            r.meta,
            vec![(
                "elapsed".to_string(),
                "0.00 s merged from 4 shards, 3,000,000,000 turns/s".to_string()
            )]
        );
        assert!(r.notes.is_empty());
        // A setup of a twentieth of a second or more (a solve) is stated beside it, apart.
        let solved = RunMeta {
            setup_s: 146.0,
            ..whole.clone()
        };
        assert_eq!(
            solved.elapsed_text(3, "turns"),
            "0.00 s merged from 4 shards, 3,000,000,000 turns/s; set-up before it 146.00 s, not in that time"
        );
        let quick = RunMeta {
            setup_s: 0.049,
            ..whole
        };
        assert!(!quick.elapsed_text(3, "turns").contains("set-up"));
    }

    /// The header's keys: the pace under its own name, the starting seat only for games in
    /// seats (null when it rotated).
    #[test]
    fn run_headers_write_their_keys_flat() {
        let run = RunMeta {
            seed: 3,
            elapsed_s: 2.0,
            setup_s: 0.5,
            threads: 2,
            ..RunMeta::default()
        };
        let h = RunHeader::of("g", &run, 10, "turns_per_s");
        assert_eq!(
            serde_json::to_value(&h).unwrap(),
            serde_json::json!({"game": "g", "seed": 3, "elapsed_s": 2.0, "setup_s": 0.5,
                "threads": 2, "interrupted": false, "turns_per_s": 5.0})
        );
        let seats = serde_json::to_value(h.clone().with_seats(&run)).unwrap();
        assert!(seats["starting_seat"].is_null() && seats.get("starting_seat").is_some());
        let first = RunMeta {
            start_seat: Some(0),
            ..run
        };
        assert_eq!(
            serde_json::to_value(h.with_seats(&first)).unwrap()["starting_seat"],
            1
        );
    }

    /// A report with a CI column, a short and a long row, and two notes.
    fn wide() -> Report {
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
            json: serde_json::json!(null),
        }
    }

    #[test]
    fn renderers_pin_every_line() {
        let r = wide();
        assert_eq!(
            r.render(Format::Table),
            "Wide\n====\na         1\nlong key  v|w\n\nRates\nname         rate          ci   note\n\
             -------------------------------------------\n\
             x           50.0%  [40%, 60%]  hello\n\
             y             n/a           -\n\
             z     never taken         30%\n\
             w               1           2      3  extra\n\n* n0\n* n1\n"
        );
        assert_eq!(
            r.render(Format::Markdown),
            "# Wide\n\n| | |\n|---|---|\n| a | 1 |\n| long key | v\\|w |\n\n## Rates\n\n\
             | name | rate | ci | note |\n|---|---:|---:|---:|\n| x | 50.0% | [40%, 60%] | hello |\n\
             | y | n/a | - |  |\n| z | never taken | 30% |\n| w | 1 | 2 | 3 | extra |\n\n- n0\n- n1\n"
        );
        assert_eq!(
            r.render(Format::Csv),
            "section,row,column,value,unit\nmeta,a,value,1,\nmeta,long key,value,v|w,\n\
             Rates,x,rate,0.5,fraction\nRates,x,ci low,0.4,fraction\nRates,x,ci high,0.6,fraction\n\
             Rates,x,note,hello,\nRates,y,rate,n/a,\nRates,y,ci,-,\nRates,y,note,,\n\
             Rates,z,rate,never taken,\nRates,z,ci,0.3,fraction\n\
             Rates,w,rate,1,\nRates,w,ci,2,\nRates,w,note,3,\nnotes,0,text,n0,\nnotes,1,text,n1,\n"
        );
        assert_eq!(
            r.sections[0].to_flat_csv(),
            "name,rate,rate unit,ci low,ci high,ci unit,note\n\
             x,0.5,fraction,0.4,0.6,fraction,hello\n\
             y,,,,,,\n\
             z,never taken,,0.3,,fraction,\n\
             w,1,,2,,,3\n"
        );
        assert_eq!(r.render(Format::Json), "null\n");
        // A text column keeps "n/a" and "-" (only a numeric column empties them).
        let mut t = Section::new("T", &["key", "text"]);
        t.row(["n/a", "-"]);
        assert_eq!(t.to_flat_csv(), "key,text\nn/a,-\n");
        // No meta, no rows, no notes.
        let bare = Report {
            title: "T".into(),
            sections: vec![Section::new("S", &["a", "bb"])],
            ..Default::default()
        };
        assert_eq!(bare.render(Format::Table), "T\n=\n\nS\na  bb\n-----\n");
        assert_eq!(
            bare.render(Format::Markdown),
            "# T\n\n| | |\n|---|---|\n\n## S\n\n| a | bb |\n|---|---:|\n"
        );
        assert_eq!(bare.render(Format::Csv), "section,row,column,value,unit\n");
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
