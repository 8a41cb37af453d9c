//! A study's result: the long table (a row per cell and figure) in CSV, JSON and Parquet, its
//! plots chosen by the grid's axes, the HTML index, and the summary printed.

use std::path::Path;

use serde::Serialize;

use super::{cell_labels, Cell, CellRun, StudyError, StudyFile};
use crate::report::svg::{self, Bar, BarChart, HeatMap, Line, YUnit};

/// One row of the long table: one figure of one cell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultRow {
    /// The cell's number (1-based, in the study's order) and label (what differs).
    pub cell: usize,
    pub label: String,
    /// The cell's value of each axis, in the table's `axes` order.
    pub settings: Vec<String>,
    pub figure: String,
    pub value: f64,
    pub se: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub seed: u64,
    /// Rounds the cell's run played.
    pub rounds_run: u64,
    /// The cell's key (its kept file: `cell-KEY.json`).
    pub cell_key: String,
}

/// A setting every cell shares.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shared {
    pub key: String,
    pub value: String,
}

/// The study's result: what it is, what every cell shares, what differs, and the rows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultTable {
    pub title: String,
    pub game: String,
    pub file: String,
    pub version: &'static str,
    pub cells: usize,
    /// The settings that differ between cells (a column each in CSV and Parquet).
    pub axes: Vec<String>,
    /// Which axes are numbers in every cell (Parquet writes them as doubles).
    pub numeric_axes: Vec<bool>,
    pub shared: Vec<Shared>,
    /// The figure the plots draw.
    pub plotted: String,
    pub rows: Vec<ResultRow>,
}

/// The long table of `runs` (one per cell of `study`, keyed by `keys`).
pub fn result_table(
    study: &StudyFile,
    cells: &[Cell],
    runs: &[CellRun],
    keys: &[String],
) -> ResultTable {
    let labels = cell_labels(cells);
    let numeric_axes = (0..labels.axes.len())
        .map(|a| {
            labels
                .values
                .iter()
                .all(|v| v[a].parse::<f64>().is_ok_and(f64::is_finite))
        })
        .collect();
    let mut rows = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        for f in &run.figures {
            rows.push(ResultRow {
                cell: cells[i].n,
                label: labels.labels[i].clone(),
                settings: labels.values[i].clone(),
                figure: f.name.clone(),
                value: f.value,
                se: f.se,
                ci_low: f.ci95.map(|c| c[0]),
                ci_high: f.ci95.map(|c| c[1]),
                seed: run.seed,
                rounds_run: run.rounds,
                cell_key: keys[i].clone(),
            });
        }
    }
    let every = |name: &str| {
        runs.iter().all(|r| {
            r.figures
                .iter()
                .any(|f| f.name == name && f.value.is_finite())
        })
    };
    let plotted = match &study.plot {
        Some(p) => p.clone(),
        None if every("score") => "score".into(),
        None => "ev".into(),
    };
    ResultTable {
        title: study.title.clone(),
        game: study.game.clone(),
        file: study.file.clone(),
        version: crate::VERSION,
        cells: cells.len(),
        axes: labels.axes,
        numeric_axes,
        shared: labels
            .shared
            .into_iter()
            .map(|(key, value)| Shared { key, value })
            .collect(),
        plotted,
        rows,
    }
}

/// The CSV columns before the axes' and after them.
const HEAD: [&str; 2] = ["cell", "label"];
const TAIL: [&str; 8] = [
    "figure",
    "value",
    "se",
    "ci_low",
    "ci_high",
    "seed",
    "rounds_run",
    "cell_key",
];

/// The table as CSV: a header, then a row per cell and figure (empty where a figure has no
/// SE or interval).
pub fn csv(t: &ResultTable) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let head: Vec<&str> = HEAD
        .iter()
        .copied()
        .chain(t.axes.iter().map(String::as_str))
        .chain(TAIL)
        .collect();
    w.write_record(&head).expect("writes to memory");
    let opt = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
    for r in &t.rows {
        let mut rec = vec![r.cell.to_string(), r.label.clone()];
        rec.extend(r.settings.iter().cloned());
        rec.extend([
            r.figure.clone(),
            r.value.to_string(),
            opt(r.se),
            opt(r.ci_low),
            opt(r.ci_high),
            r.seed.to_string(),
            r.rounds_run.to_string(),
            r.cell_key.clone(),
        ]);
        w.write_record(&rec).expect("writes to memory");
    }
    String::from_utf8(w.into_inner().expect("flushes to memory")).expect("UTF-8 in, UTF-8 out")
}

/// A cell's plotted figure: its index, value and 95% interval.
type Point = (usize, f64, Option<(f64, f64)>);

/// A line of the plot against a numeric axis: its name, points and band.
type Group = (String, Vec<(f64, f64)>, Vec<(f64, f64, f64)>);

/// The figure plotted of each cell, in cell order.
fn plotted(t: &ResultTable) -> Vec<Point> {
    let mut v: Vec<_> = t
        .rows
        .iter()
        .filter(|r| r.figure == t.plotted)
        .map(|r| {
            let ci = r.ci_low.zip(r.ci_high);
            (r.cell - 1, r.value, ci)
        })
        .collect();
    v.sort_by_key(|p| p.0);
    v
}

/// How the plotted figure is drawn: its name on the axis, its scale and unit.
fn figure_axis(name: &str) -> (String, f64, YUnit) {
    match name {
        "rtp" => ("RTP per initial bet".into(), 100.0, YUnit::Percent),
        "ev" => ("EV per initial bet".into(), 100.0, YUnit::Percent),
        "ev_per_round" => ("EV per round played".into(), 100.0, YUnit::Percent),
        "score" => ("SCORE".into(), 1.0, YUnit::Plain),
        other => (other.to_string(), 1.0, YUnit::Plain),
    }
}

/// The most characters of a plot's title (a longer one runs off the picture).
const TITLE_CHARS: usize = 90;

/// The plots the grid's axes call for, as (file name, caption, SVG): the plotted figure by
/// cell with its 95% intervals; against the first numeric axis, one line per value of the
/// other axes; and with two axes, a heat map.
pub fn plots(t: &ResultTable) -> Result<Vec<(String, String, String)>, String> {
    let points = plotted(t);
    if points.is_empty() {
        return Ok(Vec::new());
    }
    let (name, scale, unit) = figure_axis(&t.plotted);
    let shared = t
        .shared
        .iter()
        .filter(|s| s.key != "rounds")
        .map(|s| format!("{} {}", s.key, s.value))
        .collect::<Vec<_>>()
        .join(", ");
    // The shared settings in the title where they fit; the index states them always.
    let full = format!("{} ({shared})", t.title);
    let title = if !shared.is_empty() && full.chars().count() <= TITLE_CHARS {
        full
    } else {
        t.title.chars().take(TITLE_CHARS).collect()
    };
    let labels: Vec<String> = {
        let mut l = vec![String::new(); t.cells];
        for r in &t.rows {
            l[r.cell - 1] = r.label.clone();
        }
        l
    };
    let values = |cell: usize| -> Vec<String> {
        t.rows
            .iter()
            .find(|r| r.cell == cell + 1)
            .map(|r| r.settings.clone())
            .unwrap_or_default()
    };
    let mut out = Vec::new();
    // A bar's label is the values that differ, in one order for every bar: the axes whose
    // values are shortest first (the x axis names them), so a label longer than the picture's
    // room is cut at a long value (a ramp), never at a swept number (the tables and files
    // carry the whole label).
    let cell_values: Vec<Vec<String>> = (0..t.cells).map(values).collect();
    let widest = |a: usize| -> usize {
        let width = |v: &Vec<String>| v.get(a).map_or(0, |x| x.chars().count());
        cell_values.iter().map(width).max().unwrap_or(0)
    };
    let mut order: Vec<usize> = (0..t.axes.len()).collect();
    order.sort_by_key(|&a| widest(a));
    // A grid sets every axis in every cell; explicit rows that each change one setting (the
    // others unset) keep their own labels ("decks 6").
    let grid = !t.axes.is_empty()
        && cell_values
            .iter()
            .all(|v| v.len() == t.axes.len() && v.iter().all(|x| !x.is_empty() && x != "—"));
    let bar_label = |c: usize| -> String {
        if !grid {
            return labels[c].clone();
        }
        let vals = &cell_values[c];
        let parts: Vec<&str> = order.iter().map(|&a| vals[a].as_str()).collect();
        parts.join(" · ")
    };
    let bars: Vec<Bar> = points
        .iter()
        .map(|&(c, v, ci)| {
            let b = Bar::new(bar_label(c), v * scale);
            match ci {
                Some((lo, hi)) => b.with_ci(lo * scale, hi * scale),
                None => b,
            }
        })
        .collect();
    let by = match t.axes.len() {
        0 => "cell".to_string(),
        _ if grid => {
            let names: Vec<&str> = order.iter().map(|&a| t.axes[a].as_str()).collect();
            names.join(" · ")
        }
        1 | 2 => t.axes.join(", "),
        _ => "cell (what differs)".to_string(),
    };
    let svg = svg::bar_chart(&BarChart {
        title: &title,
        x_label: &by,
        y_label: &format!("{name} (95% CI)"),
        y_unit: unit,
        bars: &bars,
        hline: None,
        histogram: false,
    })?;
    out.push((
        format!("plot-{}-by-cell.svg", t.plotted),
        format!("{name} of each cell with its 95% interval"),
        svg,
    ));
    if let Some(x_axis) = t.numeric_axes.iter().position(|&n| n) {
        // One line per combination of the other axes' values.
        let mut groups: Vec<Group> = Vec::new();
        for &(c, v, ci) in &points {
            let vals = values(c);
            let x: f64 = vals[x_axis].parse().unwrap_or(f64::NAN);
            let rest = t
                .axes
                .iter()
                .zip(&vals)
                .enumerate()
                .filter(|(a, _)| *a != x_axis)
                .map(|(_, (k, v))| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ");
            let rest = if rest.is_empty() { name.clone() } else { rest };
            let g = match groups.iter().position(|g| g.0 == rest) {
                Some(g) => g,
                None => {
                    groups.push((rest, Vec::new(), Vec::new()));
                    groups.len() - 1
                }
            };
            groups[g].1.push((x, v * scale));
            if let Some((lo, hi)) = ci {
                groups[g].2.push((x, lo * scale, hi * scale));
            }
        }
        for g in &mut groups {
            g.1.sort_by(|a, b| a.0.total_cmp(&b.0));
            g.2.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        let lines: Vec<Line> = groups
            .iter()
            .map(|g| Line {
                name: &g.0,
                points: &g.1,
                band: (g.2.len() == g.1.len()).then_some(&g.2[..]),
                dots: false,
            })
            .collect();
        let x_name = &t.axes[x_axis];
        let svg = svg::line_chart(&title, x_name, &name, unit, &lines, None)?;
        out.push((
            format!("plot-{}-by-{x_name}.svg", t.plotted),
            format!(
                "{name} against {x_name}, a line for each of the other settings, with 95% bands"
            ),
            svg,
        ));
    }
    if t.axes.len() == 2 {
        let distinct = |a: usize| {
            let mut v: Vec<String> = Vec::new();
            for c in 0..t.cells {
                let x = values(c)[a].clone();
                if !v.contains(&x) {
                    v.push(x);
                }
            }
            v
        };
        let (columns, rows) = (distinct(1), distinct(0));
        let mut grid = vec![vec![None; columns.len()]; rows.len()];
        for &(c, v, _) in &points {
            let vals = values(c);
            let r = rows.iter().position(|x| *x == vals[0]);
            let k = columns.iter().position(|x| *x == vals[1]);
            if let (Some(r), Some(k)) = (r, k) {
                let text = match unit {
                    YUnit::Percent | YUnit::LogPercent(_) => format!("{:.3}%", v * scale),
                    YUnit::Plain => format!("{:.2}", v * scale),
                };
                grid[r][k] = Some((v * scale, text));
            }
        }
        let svg = svg::heat_map(&HeatMap {
            title: &title,
            x_label: &t.axes[1],
            y_label: &t.axes[0],
            columns: &columns,
            rows: &rows,
            cells: &grid,
        })?;
        out.push((
            format!("plot-{}-heat.svg", t.plotted),
            format!("{name} by {} and {}", t.axes[0], t.axes[1]),
            svg,
        ));
    }
    Ok(out)
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The study folder's index page: what the study is, what the cells share, the plotted
/// figure of each cell, the plots and the result files.
fn index_html(t: &ResultTable, plots: &[(String, String, String)]) -> String {
    let (name, scale, unit) = figure_axis(&t.plotted);
    let fmt = |v: f64| match unit {
        YUnit::Percent | YUnit::LogPercent(_) => format!("{:.4}%", v * scale),
        YUnit::Plain => format!("{:.3}", v * scale),
    };
    let mut h = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n<style>body{{font-family:sans-serif;max-width:1100px;margin:2em auto}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:3px 8px;text-align:right}}td:first-child,td:nth-child(2){{text-align:left}}img{{max-width:100%}}</style></head><body>\n<h1>{}</h1>\n<p>{} study of {} cells from <code>{}</code>, rtplab {}.</p>\n",
        html_escape(&t.title),
        html_escape(&t.title),
        html_escape(&t.game),
        t.cells,
        html_escape(&t.file),
        t.version
    );
    h.push_str("<p>Every cell: ");
    h.push_str(
        &t.shared
            .iter()
            .map(|s| {
                format!(
                    "<code>{} {}</code>",
                    html_escape(&s.key),
                    html_escape(&s.value)
                )
            })
            .collect::<Vec<_>>()
            .join(", "),
    );
    h.push_str(".</p>\n<p>Results: <a href=\"results.csv\">results.csv</a>, <a href=\"results.json\">results.json</a>, <a href=\"results.parquet\">results.parquet</a> (a row per cell and figure).</p>\n");
    h.push_str(&format!(
        "<table><tr><th>cell</th><th>what differs</th><th>{}</th><th>SE</th><th>95% CI</th><th>rounds</th><th>seed</th></tr>\n",
        html_escape(&name)
    ));
    for r in t.rows.iter().filter(|r| r.figure == t.plotted) {
        let ci = match (r.ci_low, r.ci_high) {
            (Some(a), Some(b)) => format!("[{}, {}]", fmt(a), fmt(b)),
            _ => String::new(),
        };
        h.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{ci}</td><td>{}</td><td>{}</td></tr>\n",
            r.cell,
            html_escape(&r.label),
            fmt(r.value),
            r.se.map(fmt).unwrap_or_default(),
            crate::report::count(r.rounds_run),
            r.seed
        ));
    }
    h.push_str("</table>\n");
    for (file, caption, _) in plots {
        h.push_str(&format!(
            "<figure><img src=\"{file}\" alt=\"{}\"><figcaption>{}</figcaption></figure>\n",
            html_escape(caption),
            html_escape(caption)
        ));
    }
    h.push_str("</body></html>\n");
    h
}

/// Write the result files into the study folder `dir`.
pub fn write_results(_study: &StudyFile, t: &ResultTable, dir: &Path) -> Result<(), StudyError> {
    let plots = plots(t).map_err(StudyError::Write)?;
    let json = serde_json::to_vec_pretty(t).expect("the table serializes");
    let parquet = super::parquet::write(t).map_err(StudyError::Write)?;
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("results.csv".into(), csv(t).into_bytes()),
        ("results.json".into(), json),
        ("results.parquet".into(), parquet),
        ("index.html".into(), index_html(t, &plots).into_bytes()),
    ];
    files.extend(plots.into_iter().map(|(f, _, svg)| (f, svg.into_bytes())));
    for (name, bytes) in files {
        crate::door::replace(&dir.join(&name), &bytes).map_err(|e| {
            StudyError::Write(format!("cannot write {}: {e}", dir.join(&name).display()))
        })?;
    }
    Ok(())
}

/// The summary printed: the study, what every cell shares, and the plotted figure of each
/// cell with its interval.
pub fn summary(study: &StudyFile, t: &ResultTable, ran: usize, kept: usize) -> String {
    let (name, scale, unit) = figure_axis(&t.plotted);
    let fmt = |v: f64| match unit {
        YUnit::Percent | YUnit::LogPercent(_) => format!("{:.4}%", v * scale),
        YUnit::Plain => format!("{:.3}", v * scale),
    };
    let mut s = format!(
        "study {} ({}): {} cells, {ran} run, {kept} kept\nevery cell: {}\n",
        t.title,
        study.file,
        t.cells,
        t.shared
            .iter()
            .map(|x| format!("{} {}", x.key, x.value))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let width = t
        .rows
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(0)
        .max(12);
    s.push_str(&format!(
        "{:>4}  {:<width$}  {:>10}  {:>9}  {:<24}  {:>12}\n",
        "cell", "what differs", name, "SE", "95% CI", "rounds"
    ));
    for r in t.rows.iter().filter(|r| r.figure == t.plotted) {
        let ci = match (r.ci_low, r.ci_high) {
            (Some(a), Some(b)) => format!("[{}, {}]", fmt(a), fmt(b)),
            _ => String::new(),
        };
        s.push_str(&format!(
            "{:>4}  {:<width$}  {:>10}  {:>9}  {:<24}  {:>12}\n",
            r.cell,
            r.label,
            fmt(r.value),
            r.se.map(fmt).unwrap_or_default(),
            ci,
            crate::report::count(r.rounds_run)
        ));
    }
    s
}
