//! A report in each format: a table for the terminal (wrapped to fit 100 columns), Markdown,
//! CSV (long format: numbers raw, with units) and JSON.

use std::fmt::Write;

use super::{html, num_text, Format, Num, Report, Section};

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
                        Some(Num::Count(n)) => {
                            let _ = w.write_record([&s.name, &key, c, &n.to_string(), "count"]);
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
pub(super) fn csv_text(t: &str) -> String {
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

pub(super) fn md(s: &str) -> String {
    s.replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use super::super::tests::wide;
    use super::super::{ci_cell, count_cell, pct_cell, Cell};
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
            notes_full_only: Vec::new(),
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
            notes_full_only: Vec::new(),
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
    fn json_is_the_document() {
        let t = sample().render(Format::Json);
        let v: serde_json::Value = serde_json::from_str(&t).unwrap();
        assert_eq!(v["a"], 1);
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
}
