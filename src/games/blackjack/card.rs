//! The strategy card: a chart (and its index plays) as one printable page, the thing a player
//! takes to the table. An A4 page in SVG (or the same SVG in a self-contained HTML page):
//! the title and the rules, the hard, soft and pair tables coloured by action with a legend,
//! and the index plays.

use std::fmt::Write;

use super::indices::{Deviation, Play, INSURANCE};
use super::strategy::{row_name, Chart, Code, ROWS};

/// The page: A4 at 96 dots an inch.
const PAGE: (f64, f64) = (794.0, 1123.0);
const MARGIN: f64 = 36.0;
/// A chart cell, and the row name's column.
const CELL: (f64, f64) = (30.0, 19.0);
const NAME_W: f64 = 44.0;
/// The dealer's up cards in the order a card shows them.
const UPS: [u8; 10] = [2, 3, 4, 5, 6, 7, 8, 9, 10, 1];

/// What the card shows.
pub struct Card<'a> {
    /// What the card is ("Basic strategy", "Hi-Lo index plays").
    pub title: &'a str,
    /// The rules, as `Rules` writes them.
    pub rules: &'a str,
    pub chart: &'a Chart,
    /// Index plays (none: a chart alone).
    pub plays: &'a [Deviation],
    /// What the index plays' numbers are ("true count", "running count").
    pub count_key: &'a str,
}

/// The fill of a code's cells and its meaning in the legend.
pub fn code_style(c: Code) -> (&'static str, &'static str) {
    match c {
        Code::H => ("#f6b3b3", "hit"),
        Code::S => ("#fde68a", "stand"),
        Code::Dh => ("#8fd6a2", "double, else hit"),
        Code::Ds => ("#48a866", "double, else stand"),
        Code::P => ("#93b7f0", "split"),
        Code::Rh => ("#dccbf2", "surrender, else hit"),
        Code::Rs => ("#bfa5e0", "surrender, else stand"),
        Code::Rp => ("#a185cf", "surrender, else split"),
    }
}

const CODES: [Code; 8] = [
    Code::H,
    Code::S,
    Code::Dh,
    Code::Ds,
    Code::P,
    Code::Rh,
    Code::Rs,
    Code::Rp,
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Words of `s` in lines of at most `width` characters.
fn wrap(s: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for w in s.split_whitespace() {
        let last = lines.last_mut().expect("one line");
        if !last.is_empty() && last.chars().count() + 1 + w.chars().count() > width {
            lines.push(w.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(w);
        }
    }
    lines
}

/// A hand as a player reads it: hard 16, soft 18, 8,8, A,A.
fn hand_words(row: usize) -> String {
    let name = row_name(row);
    let (kind, rest) = name.split_at(1);
    match kind {
        "H" => format!("hard {rest}"),
        "S" => format!("soft {rest}"),
        _ => format!("{rest},{rest}"),
    }
}

/// One index play as a line of the card: "hard 16 v T: S at ≥ +0".
pub fn play_line(d: &Deviation) -> String {
    let up = crate::cards::value_char(d.up);
    let when = format!(
        "{} {:+}",
        if d.when.at_least { "≥" } else { "<" },
        d.when.index
    );
    if d.row == INSURANCE {
        return format!("insurance: take at {when}");
    }
    let play = match d.play {
        Play::Code(c) => c.as_str(),
        Play::Surrender => "R",
        Play::Insure => "I",
    };
    format!("{} v {up}: {play} at {when}", hand_words(d.row as usize))
}

/// One table of the chart (rows `rows`) at `(x, y)`, headed `head`; its height.
fn table(
    out: &mut String,
    c: &Card,
    head: &str,
    rows: std::ops::Range<usize>,
    x: f64,
    y: f64,
) -> f64 {
    let _ = writeln!(
        out,
        r#"<text x="{x}" y="{}" font-size="15" font-weight="bold">{}</text>"#,
        y + 14.0,
        esc(head)
    );
    let top = y + 22.0;
    let _ = writeln!(
        out,
        r##"<text x="{}" y="{}" font-size="10" text-anchor="middle" fill="#555">dealer</text>"##,
        x + NAME_W / 2.0,
        top + 13.0
    );
    for (k, up) in UPS.iter().enumerate() {
        let cx = x + NAME_W + CELL.0 * (k as f64 + 0.5);
        let _ = writeln!(
            out,
            r#"<text x="{cx}" y="{}" font-size="12" font-weight="bold" text-anchor="middle">{}</text>"#,
            top + 13.0,
            crate::cards::value_char(*up)
        );
    }
    let indexed = |row: usize, up: u8| c.plays.iter().any(|d| d.row as usize == row && d.up == up);
    for (r, row) in rows.clone().enumerate() {
        let ry = top + CELL.1 * (r as f64 + 1.0);
        let name = row_name(row);
        let shown = hand_words(row);
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="11" text-anchor="end">{}</text>"#,
            x + NAME_W - 5.0,
            ry + 13.5,
            esc(&shown)
        );
        for (k, &up) in UPS.iter().enumerate() {
            let code = c.chart.codes[row][(up - 1) as usize];
            let (fill, _) = code_style(code);
            let cx = x + NAME_W + CELL.0 * k as f64;
            let _ = writeln!(
                out,
                r##"<g class="cell" data-hand="{name}" data-up="{}" data-code="{}"><rect x="{cx}" y="{ry}" width="{}" height="{}" fill="{fill}" stroke="#fff" stroke-width="1"/><text x="{}" y="{}" font-size="11" text-anchor="middle">{}</text>{}</g>"##,
                crate::cards::value_char(up),
                code.as_str(),
                CELL.0,
                CELL.1,
                cx + CELL.0 / 2.0,
                ry + 13.5,
                code.as_str(),
                if indexed(row, up) {
                    format!(
                        r##"<path d="M{} {ry} h-8 l8 8 z" fill="#111"/>"##,
                        cx + CELL.0
                    )
                } else {
                    String::new()
                }
            );
        }
    }
    22.0 + CELL.1 * (rows.len() as f64 + 1.0)
}

/// The card as one SVG page.
pub fn card_svg(c: &Card) -> String {
    let (w, h) = PAGE;
    let mut out = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="210mm" height="297mm" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Arial, sans-serif">
<rect width="{w}" height="{h}" fill="#fff"/>
"##
    );
    let _ = writeln!(
        out,
        r#"<text x="{MARGIN}" y="{}" font-size="24" font-weight="bold">{}</text>"#,
        MARGIN + 18.0,
        esc(c.title)
    );
    let mut y = MARGIN + 40.0;
    for l in wrap(&format!("Rules: {}", c.rules), 118) {
        let _ = writeln!(
            out,
            r##"<text x="{MARGIN}" y="{y}" font-size="11" fill="#333">{}</text>"##,
            esc(&l)
        );
        y += 14.0;
    }
    let _ = writeln!(
        out,
        r##"<text x="{MARGIN}" y="{y}" font-size="11" fill="#333">Chart: {} (fnv1a {:016x}). Find your hand's row and the dealer's up card's column.</text>"##,
        esc(&c.chart.name),
        c.chart.hash
    );
    let top = y + 14.0;
    let right = MARGIN + NAME_W + 10.0 * CELL.0 + 34.0;
    let hard = table(&mut out, c, "Hard totals", 0..18, MARGIN, top);
    let soft = table(
        &mut out,
        c,
        "Soft totals (an ace counted 11)",
        18..28,
        right,
        top,
    );
    let pairs = table(
        &mut out,
        c,
        "Pairs (split?)",
        28..ROWS,
        right,
        top + soft + 12.0,
    );
    let mut y = top + hard.max(soft + 12.0 + pairs) + 24.0;
    // The legend: a swatch per code.
    let _ = writeln!(
        out,
        r#"<text x="{MARGIN}" y="{y}" font-size="15" font-weight="bold">Legend</text>"#
    );
    y += 10.0;
    for (i, code) in CODES.iter().enumerate() {
        let (fill, words) = code_style(*code);
        let x = MARGIN + (i % 4) as f64 * 180.0;
        let ly = y + (i / 4) as f64 * 24.0;
        let _ = writeln!(
            out,
            r##"<rect x="{x}" y="{ly}" width="{}" height="{}" fill="{fill}"/><text x="{}" y="{}" font-size="11" text-anchor="middle">{}</text><text x="{}" y="{}" font-size="11">{}</text>"##,
            CELL.0,
            CELL.1,
            x + CELL.0 / 2.0,
            ly + 13.5,
            code.as_str(),
            x + CELL.0 + 6.0,
            ly + 13.5,
            words
        );
    }
    y += 2.0 * 24.0 + 6.0;
    let mut said = vec![
        "Surrender and double only as first decisions on two cards; a split pair's hands are played by their totals.",
    ];
    if !c.plays.is_empty() {
        said.push("A black corner: an index play below changes that cell.");
    }
    for (i, l) in said.iter().enumerate() {
        let _ = writeln!(
            out,
            r##"<text x="{MARGIN}" y="{}" font-size="11" fill="#333">{}</text>"##,
            y + 8.0 + 14.0 * i as f64,
            esc(l)
        );
    }
    y += 20.0 + 14.0 * said.len() as f64;
    if c.plays.is_empty() {
        let _ = writeln!(
            out,
            r##"<text x="{MARGIN}" y="{y}" font-size="12" fill="#333">No index plays: the chart alone (rtplab strategies indices blackjack --count SYSTEM --card FILE adds them).</text>"##
        );
    } else {
        let _ = writeln!(
            out,
            r#"<text x="{MARGIN}" y="{y}" font-size="15" font-weight="bold">Index plays ({}): play this instead when the count is as said</text>"#,
            esc(c.count_key)
        );
        y += 8.0;
        let cols = 4usize;
        let lines = c.plays.len().div_ceil(cols);
        let room = PAGE.1 - MARGIN - y;
        let step = (room / lines as f64).min(16.0);
        let font = (step * 0.72).clamp(6.0, 11.0);
        for (i, d) in c.plays.iter().enumerate() {
            let x = MARGIN + (i / lines) as f64 * 182.0;
            let ly = y + step * ((i % lines) as f64 + 1.0);
            let _ = writeln!(
                out,
                r#"<text class="play" x="{x}" y="{ly:.1}" font-size="{font:.1}">{}</text>"#,
                esc(&play_line(d))
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

/// The card as a self-contained HTML page that prints on one A4 sheet.
pub fn card_html(c: &Card) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n<style>@page{{size:A4;margin:0}}html,body{{margin:0}}svg{{display:block;width:210mm;height:297mm}}</style></head><body>\n{}</body></html>\n",
        esc(c.title),
        card_svg(c)
    )
}

/// The card in the format its file's name asks for: HTML for `.html`/`.htm`, else SVG.
pub fn card_for(path: &std::path::Path, c: &Card) -> String {
    let html = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
    if html {
        card_html(c)
    } else {
        card_svg(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed_chart() -> Chart {
        Chart::parse(
            include_str!("../../../strategies/blackjack/seed.csv"),
            "seed.csv",
        )
        .unwrap()
    }

    /// The cells of a card: (hand, up, code, fill) read back from the SVG.
    fn cells(svg: &str) -> Vec<(String, String, String, String)> {
        let attr = |s: &str, name: &str| {
            let k = format!("{name}=\"");
            let at = s.find(&k).unwrap() + k.len();
            s[at..at + s[at..].find('"').unwrap()].to_string()
        };
        svg.lines()
            .filter(|l| l.starts_with("<g class=\"cell\""))
            .map(|l| {
                (
                    attr(l, "data-hand"),
                    attr(l, "data-up"),
                    attr(l, "data-code"),
                    attr(l, "fill"),
                )
            })
            .collect()
    }

    /// Every cell of the chart is on the card once, with the chart's code, written in the
    /// cell and coloured as the legend says; the legend names every code; the title and the
    /// rules are there; a card without index plays says so.
    #[test]
    fn the_card_holds_every_cell_of_the_chart() {
        let chart = seed_chart();
        let rules = "8 decks, S17, BJ 3:2";
        let c = Card {
            title: "Basic strategy",
            rules,
            chart: &chart,
            plays: &[],
            count_key: "",
        };
        let svg = card_svg(&c);
        let got = cells(&svg);
        assert_eq!(got.len(), ROWS * 10);
        for row in 0..ROWS {
            for up in 1..=10u8 {
                let want = chart.codes[row][(up - 1) as usize];
                let at: Vec<_> = got
                    .iter()
                    .filter(|x| {
                        x.0 == row_name(row) && x.1 == crate::cards::value_char(up).to_string()
                    })
                    .collect();
                assert_eq!(at.len(), 1, "{} v {up}", row_name(row));
                assert_eq!(at[0].2, want.as_str(), "{} v {up}", row_name(row));
                assert_eq!(at[0].3, code_style(want).0, "{} v {up}", row_name(row));
            }
        }
        // Different codes, different colours.
        let fills: std::collections::HashSet<_> = CODES.iter().map(|c| code_style(*c).0).collect();
        assert_eq!(fills.len(), CODES.len());
        for code in CODES {
            assert!(
                svg.contains(code_style(code).1),
                "legend: {}",
                code.as_str()
            );
        }
        assert!(svg.contains(">Basic strategy<") && svg.contains(rules));
        assert!(svg.contains("No index plays"));
        // The HTML page holds the same SVG, one A4 page.
        let html = card_for(std::path::Path::new("card.HTML"), &c);
        assert!(html.starts_with("<!DOCTYPE html>") && html.contains(&svg));
        assert!(html.contains("size:A4"));
        assert_eq!(card_for(std::path::Path::new("card.svg"), &c), svg);
    }

    /// Index plays are listed each on its line as a player reads them, and their cells marked.
    #[test]
    fn the_card_lists_the_index_plays() {
        let chart = seed_chart();
        let plays: Vec<Deviation> = [
            "H16,T,S,>=0",
            "PT,5,P,>=5",
            "insurance,A,I,>=3",
            "H12,4,H,<0",
        ]
        .iter()
        .map(|l| Deviation::parse(l).unwrap())
        .collect();
        let c = Card {
            title: "Hi-Lo index plays",
            rules: "8 decks",
            chart: &chart,
            plays: &plays,
            count_key: "Hi-Lo, true count",
        };
        let svg = card_svg(&c);
        let lines: Vec<&str> = svg
            .lines()
            .filter(|l| l.contains("class=\"play\""))
            .collect();
        assert_eq!(lines.len(), 4);
        for want in [
            "hard 16 v T: S at ≥ +0",
            "T,T v 5: P at ≥ +5",
            "insurance: take at ≥ +3",
            "hard 12 v 4: H at &lt; +0",
        ] {
            assert!(lines.iter().any(|l| l.contains(want)), "{want}");
        }
        let marked = svg
            .lines()
            .filter(|l| l.starts_with("<g class=\"cell\"") && l.contains("<path"))
            .count();
        assert_eq!(marked, 3, "H16 v T, PT v 5, H12 v 4");
        assert!(!svg.contains("No index plays"));
    }
}
