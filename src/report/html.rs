//! One self-contained HTML page of a report: metadata, a table of contents, every table, the
//! plots inline (SVG), the notes. Inline CSS only: no scripts, fonts or images are fetched from
//! anywhere, so the file can be archived, mailed and printed as it is.

use std::fmt::Write;

use super::{slug, Report};

/// Escape text for HTML.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Escaped text with `code` spans (Markdown backticks) as `<code>`.
fn inline(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in s.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", esc(part));
        } else {
            out.push_str(&esc(part));
        }
    }
    out
}

/// An SVG ready to inline: no XML prolog, and a viewBox so that it scales to the page.
fn inline_svg(svg: &str) -> String {
    let start = svg.find("<svg").unwrap_or(0);
    let svg = &svg[start..];
    if svg.contains("viewBox") {
        return svg.to_string();
    }
    let attr = |name: &str| -> Option<String> {
        let head = &svg[..svg.find('>')?];
        let i = head.find(&format!(" {name}=\""))? + name.len() + 3;
        let j = head[i..].find('"')? + i;
        Some(head[i..j].to_string())
    };
    match (attr("width"), attr("height")) {
        (Some(w), Some(h)) => svg.replacen("<svg", &format!("<svg viewBox=\"0 0 {w} {h}\""), 1),
        _ => svg.to_string(),
    }
}

const STYLE: &str = "
body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;font-size:14px;line-height:1.45;color:#1a1a1a;max-width:1100px;margin:2em auto;padding:0 1.5em}
h1{font-size:1.6em;border-bottom:2px solid #1a1a1a;padding-bottom:.3em}
h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #bbb;padding-bottom:.2em}
table{border-collapse:collapse;margin:.6em 0;width:auto;max-width:100%}
th,td{border:1px solid #ccc;padding:.25em .55em;vertical-align:top}
th{background:#f0f0f0;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.meta th{width:16em}
nav ol{columns:2;font-size:.95em}
figure{margin:1.5em 0;page-break-inside:avoid}
figure svg{max-width:100%;height:auto;border:1px solid #ddd}
figcaption{font-size:.9em;color:#444}
ul.notes li{margin:.3em 0}
code{background:#f3f3f3;padding:0 .2em}
footer{margin-top:3em;font-size:.85em;color:#555;border-top:1px solid #ccc;padding-top:.5em}
@media print{body{max-width:none;margin:0;font-size:10.5px}nav{display:none}h2{page-break-after:avoid}table,figure{page-break-inside:avoid}}
";

/// The page: `plots` (file name, SVG) are drawn inline after the tables, in their order.
pub fn to_html(r: &Report, plots: &[(String, String)]) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        esc(&r.title),
        esc(&r.title)
    );
    o.push_str("<table class=\"meta\">\n");
    for (k, v) in &r.meta {
        let _ = writeln!(o, "<tr><th>{}</th><td>{}</td></tr>", esc(k), inline(v));
    }
    o.push_str("</table>\n<nav><h2>Contents</h2><ol>\n");
    for s in &r.sections {
        let _ = writeln!(
            o,
            "<li><a href=\"#{}\">{}</a></li>",
            slug(&s.name),
            esc(&s.name)
        );
    }
    if !plots.is_empty() {
        o.push_str("<li><a href=\"#plots\">Plots</a></li>\n");
    }
    if !r.notes.is_empty() {
        o.push_str("<li><a href=\"#notes\">Notes</a></li>\n");
    }
    o.push_str("</ol></nav>\n");
    for s in &r.sections {
        let _ = writeln!(
            o,
            "<h2 id=\"{}\">{}</h2>\n<table>",
            slug(&s.name),
            esc(&s.name)
        );
        o.push_str("<tr>");
        for c in &s.columns {
            let _ = write!(o, "<th>{}</th>", esc(c));
        }
        o.push_str("</tr>\n");
        for row in &s.rows {
            o.push_str("<tr>");
            for (i, c) in row.iter().enumerate() {
                let class = if i > 0 && c.value.is_some() {
                    " class=\"n\""
                } else {
                    ""
                };
                let _ = write!(o, "<td{class}>{}</td>", inline(&c.text));
            }
            o.push_str("</tr>\n");
        }
        o.push_str("</table>\n");
    }
    if !plots.is_empty() {
        o.push_str("<h2 id=\"plots\">Plots</h2>\n");
        for (name, svg) in plots {
            let _ = writeln!(
                o,
                "<figure>{}<figcaption>{}</figcaption></figure>",
                inline_svg(svg),
                esc(name)
            );
        }
    }
    if !r.notes.is_empty() {
        o.push_str("<h2 id=\"notes\">Notes</h2>\n<ul class=\"notes\">\n");
        for n in &r.notes {
            let _ = writeln!(o, "<li>{}</li>", inline(n));
        }
        o.push_str("</ul>\n");
    }
    let _ = write!(
        o,
        "<footer>Written by rtplab {}. The same numbers are in report.json (machine readable), report.md and one CSV per table.</footer>\n</body>\n</html>\n",
        esc(crate::VERSION)
    );
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Cell, Section};

    #[test]
    fn escapes_every_markup_character() {
        assert_eq!(
            esc("<a href=\"x\" title='y'>&</a>"),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
        );
        assert_eq!(inline("a `<b>` c"), "a <code>&lt;b&gt;</code> c");
    }

    #[test]
    fn a_page_is_self_contained_and_escaped() {
        let mut s = Section::new("EV <by> up", &["up", "EV"]);
        s.row([
            Cell::from("A & 2".to_string()),
            Cell::num("-0.5%".into(), -0.005, "fraction"),
        ]);
        s.row([
            Cell::num("7".into(), 7.0, "count"),
            Cell::from("x".to_string()),
        ]);
        let r = Report {
            title: "T <1>".into(),
            meta: vec![("seed".into(), "`1`".into())],
            sections: vec![s],
            notes: vec!["x < y".into()],
            notes_full_only: Vec::new(),
            json: serde_json::Value::Null,
        };
        let svg = "<?xml version=\"1.0\"?><svg width=\"900\" height=\"520\" xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>";
        let h = to_html(&r, &[("p.svg".into(), svg.into())]);
        assert!(h.starts_with("<!DOCTYPE html>"));
        assert!(h.contains("<h1>T &lt;1&gt;</h1>"));
        assert!(h.contains("<td>A &amp; 2</td><td class=\"n\">-0.5%</td>"));
        assert!(h.contains("<code>1</code>"));
        assert!(h.contains("<li>x &lt; y</li>"));
        // Numbers right-aligned, but never the row's label (the first column).
        assert!(h.contains("<tr><td>7</td><td>x</td></tr>"));
        // The contents link the plots and notes when there are any, and only then.
        assert!(h.contains("href=\"#plots\"") && h.contains("href=\"#notes\""));
        let bare = to_html(
            &Report {
                notes: Vec::new(),
                ..r.clone()
            },
            &[],
        );
        assert!(!bare.contains("#plots") && !bare.contains("#notes"));
        assert!(h.contains("<svg viewBox=\"0 0 900 520\" width=\"900\""));
        assert!(!h.contains("<?xml"));
        assert!(h.contains("href=\"#ev-by-up\"") && h.contains("id=\"ev-by-up\""));
        // Nothing is fetched: no scripts, no links to elsewhere but the SVG namespace.
        assert!(!h.contains("<script") && !h.contains("<link") && !h.contains("@import"));
        assert_eq!(h.matches("http").count(), 1, "only the SVG namespace");
    }
}
