//! Every SVG and CSV the program writes, checked as files: bars with a positive width, tick
//! labels that do not overlap, numbers (not formatted strings) in CSV, and the INTERRUPTED
//! marker on every file of an interrupted run.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rtplab-plots-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let i = tag.find(&key)? + key.len();
    let j = tag[i..].find('"')? + i;
    Some(tag[i..j].to_string())
}

fn num(tag: &str, name: &str) -> Option<f64> {
    attr(tag, name)?.parse().ok()
}

/// A text element: its box, estimated as 0.5 × font size per character (a conservative
/// width: real glyphs of a sans-serif font are wider), and its baseline position.
#[derive(Debug)]
struct TextBox {
    text: String,
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
    x: f64,
    y: f64,
    upright: bool,
}

fn texts(svg: &str) -> Vec<TextBox> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find("<text") {
        let after = &rest[i..];
        let Some(close) = after.find('>') else { break };
        let tag = &after[..close];
        let Some(end) = after.find("</text>") else {
            break;
        };
        let text = after[close + 1..end].trim().to_string();
        rest = &after[end..];
        let (Some(x), Some(y)) = (num(tag, "x"), num(tag, "y")) else {
            continue;
        };
        let fs = num(tag, "font-size").unwrap_or(10.0);
        let w = text.chars().count() as f64 * 0.5 * fs;
        let upright = attr(tag, "transform").is_some_and(|t| t.contains("rotate"));
        let (along, across) = if upright { (fs, w) } else { (w, fs) };
        let (x0, x1) = match attr(tag, "text-anchor").as_deref() {
            Some("middle") => (x - along / 2.0, x + along / 2.0),
            Some("end") => (x - along, x),
            _ => (x, x + along),
        };
        out.push(TextBox {
            text,
            x0,
            x1,
            y0: y,
            y1: y + across,
            x,
            y,
            upright,
        });
    }
    out
}

/// What is wrong with a plot: bars of zero or negative width, any rect of negative size,
/// tick labels on one axis that overlap.
fn plot_problems(name: &str, svg: &str) -> Vec<String> {
    let mut bad = Vec::new();
    for tag in svg.split("<rect").skip(1) {
        let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
        let w = num(tag, "width").unwrap_or(0.0);
        let h = num(tag, "height").unwrap_or(0.0);
        let is_bar = attr(tag, "fill").as_deref() == Some("#0000FF");
        if w < 0.0 || h < 0.0 || (is_bar && w <= 0.0) || !w.is_finite() || !h.is_finite() {
            bad.push(format!("{name}: rect of width {w}, height {h}"));
        }
    }
    let t = texts(svg);
    // Every label inside the canvas (upright labels run down from their anchor).
    let root = &svg[..svg.find('>').unwrap_or(0)];
    let (w, h) = (
        num(root, "width").unwrap_or(f64::MAX),
        num(root, "height").unwrap_or(f64::MAX),
    );
    for b in &t {
        if b.x0 < 0.0 || b.x1 > w || (b.upright && b.y1 > h) {
            bad.push(format!("{name}: label '{}' runs off the canvas", b.text));
        }
    }
    // Labels along the x axis share a baseline; labels along the y axis share an x.
    for (i, a) in t.iter().enumerate() {
        for b in &t[i + 1..] {
            let same_row = a.y == b.y && !a.upright && !b.upright;
            let same_col = a.x == b.x && !a.upright && !b.upright;
            let upright_row = a.upright && b.upright && a.y == b.y;
            let overlap_x = a.x0 < b.x1 && b.x0 < a.x1;
            let overlap_y = a.y0 < b.y1 && b.y0 < a.y1;
            if (same_row || upright_row) && overlap_x || same_col && overlap_y && overlap_x {
                bad.push(format!(
                    "{name}: labels '{}' and '{}' overlap",
                    a.text, b.text
                ));
            }
        }
    }
    bad
}

fn svgs(dir: &Path) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "svg").then(|| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read_to_string(&p).unwrap(),
                )
            })
        })
        .collect();
    v.sort();
    v
}

fn run(args: &[&str], dir: &Path) {
    let out = crate::common::process()
        .args(args)
        .args(["--quiet", "--threads", "2", "--out-dir"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_plot_has_proper_bars_and_readable_labels() {
    let cases: [(&str, &[&str], usize); 8] = [
        (
            "bj",
            &["sim", "blackjack", "--rounds", "200k", "--claim", "99.54"],
            3,
        ),
        (
            "bj-count",
            &[
                "sim",
                "blackjack",
                "--rounds",
                "300k",
                "--count",
                "hi-lo",
                "--ramp",
                "0:1,1:2,2:4,3:8,4:12",
                "--bankroll",
                "100",
                "--trip-rounds",
                "2000",
            ],
            6,
        ),
        ("doom-turns", &["sim", "doom", "--turns", "200k"], 1),
        (
            "baccarat",
            &["sim", "baccarat", "--coups", "300k", "--pairs", "1"],
            3,
        ),
        (
            "baccarat-martingale",
            &[
                "sim",
                "baccarat",
                "--coups",
                "300k",
                "--bet",
                "martingale:banker",
                "--claim",
                "98.9",
            ],
            3,
        ),
        (
            "doom-games",
            &[
                "sim",
                "doom",
                "--games",
                "2k",
                "--target",
                "5000",
                "--seat",
                "optimal",
                "--seat",
                "bank-at:450",
                "--seat",
                "endgame:450",
                "--seat",
                "thresholds:1000,600,400,350,300,300",
                "--seat",
                "optimal+keep-all",
                "--seat",
                "bank-at:300",
                "--seat",
                "bank-at:350",
                "--seat",
                "strategies/doom/by-dice-left.txt",
            ],
            3,
        ),
        ("t21", &["sim", "twenty-one", "--games", "5k"], 2),
        (
            "t21-six",
            &[
                "sim",
                "twenty-one",
                "--games",
                "3k",
                "--seat",
                "hits-only+unless-usable:3",
                "--seat",
                "slack:1+unless-hit",
                "--seat",
                "greedy+never",
                "--seat",
                "row-optimal:1+optimal",
                "--seat",
                "row-optimal:5",
                "--seat",
                "slack:2",
            ],
            2,
        ),
    ];
    let mut problems = Vec::new();
    for (name, args, expected) in cases {
        let dir = temp_dir(name);
        run(args, &dir);
        let plots = svgs(&dir);
        assert_eq!(plots.len(), expected, "{name}: {plots:?}");
        for (file, svg) in &plots {
            problems.extend(plot_problems(&format!("{name}/{file}"), svg));
            if file.starts_with("win-rate") {
                assert!(
                    svg.contains("fair share 1/"),
                    "{name}/{file}: no fair share"
                );
                assert!(svg.contains("95% CI"), "{name}/{file}: no error bars");
            }
            assert!(!svg.contains("probability"), "{name}/{file}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The pictures of the commands whose tables compare: each is written with --out-dir, is a
/// whole SVG with its title, passes the bar and label checks, and draws what it compares.
#[test]
fn every_comparison_has_its_picture() {
    // (name, command, the SVG files and a text each must hold)
    type Case<'a> = (&'a str, &'a [&'a str], &'a [(&'a str, &'a str)]);
    let cases: [Case; 5] = [
        (
            "compare",
            &[
                "compare",
                "blackjack",
                "--strategy",
                "basic",
                "--strategy",
                "autoplay",
                "--strategy",
                "mimic-dealer",
                "--rounds",
                "100k",
            ],
            &[
                ("estimates.svg", "1. basic"),
                ("paired-differences.svg", "no difference"),
            ],
        ),
        (
            "sensitivity",
            &["exact", "blackjack", "--sensitivity"],
            &[("sensitivity.svg", "needed for the claimed 99.54%")],
        ),
        (
            "doom-exact",
            &["exact", "doom"],
            &[
                ("bank-thresholds.svg", "banks from"),
                ("bank-at-sweep.svg", "optimal play"),
            ],
        ),
        (
            "sweep",
            &[
                "sim",
                "twenty-one",
                "--sweep-c",
                "0,2,5",
                "--games",
                "2k",
                "--seat",
                "greedy",
            ],
            &[("sweep-c.svg", "fair share")],
        ),
        (
            "ramp",
            &[
                "strategies",
                "ramp",
                "blackjack",
                "--from",
                "reports/counting-hilo-i18-75pct/report.json",
                "--spread",
                "1-12",
            ],
            &[
                ("ramp.svg", "optimal 1-12 (SCORE"),
                ("ev-by-count.svg", "+10"),
            ],
        ),
    ];
    let mut problems = Vec::new();
    for (name, args, expected) in cases {
        let dir = temp_dir(name);
        let out = crate::common::process()
            .args(args)
            .args(["--quiet", "--out-dir"])
            .arg(&dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {err}");
        let plots = svgs(&dir);
        let files: Vec<&str> = plots.iter().map(|p| p.0.as_str()).collect();
        for (file, needle) in expected {
            let Some((_, svg)) = plots.iter().find(|p| p.0 == *file) else {
                panic!("{name}: no {file} among {files:?}");
            };
            assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
            assert!(svg.contains(needle), "{name}/{file}: no '{needle}'");
            problems.extend(plot_problems(&format!("{name}/{file}"), svg));
        }
        assert_eq!(plots.len(), expected.len(), "{name}: {files:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_checker_finds_collisions_and_bad_bars() {
    let svg = r##"<svg><rect x="1" y="2" width="-1" height="3" fill="#0000FF"/>
<text x="100" y="400" text-anchor="middle" font-size="10">1000</text>
<text x="105" y="400" text-anchor="middle" font-size="10">1050</text></svg>"##;
    assert_eq!(plot_problems("t", svg).len(), 2);
    let svg = r##"<svg width="900" height="520"><text x="193" y="228" text-anchor="end" font-size="10" transform="rotate(270, 193, 228)">4 strategies/doom/by-dice-left.txt (thresholds:350,450,600,1000,1500,2000)</text></svg>"##;
    assert_eq!(plot_problems("t", svg).len(), 1, "a label off the canvas");
}

#[test]
fn csv_files_carry_numbers_with_units_and_whole_names() {
    let dir = temp_dir("csv");
    run(
        &["sim", "blackjack", "--rounds", "100k", "--seed", "3"],
        &dir,
    );
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    // Before: names were cut at 48 characters ("...-rtp-per-stake-of-that-b.csv").
    assert!(
        names.contains(&"side-bets-and-bet-behind-rtp-per-stake-of-that-bet.csv".to_string()),
        "{names:?}"
    );
    let text = std::fs::read_to_string(dir.join("ev-by-dealer-up-card.csv")).unwrap();
    let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        body[0],
        "up,share,share unit,EV,EV unit,SE,SE unit,95% CI low,95% CI high,95% CI unit"
    );
    let first: Vec<&str> = body[1].split(',').collect();
    assert_eq!(first[0], "2");
    assert_eq!(first[2], "fraction");
    for i in [1, 3, 5, 7, 8] {
        let v: f64 = first[i].parse().unwrap_or_else(|_| panic!("{}", body[1]));
        assert!(v.abs() < 1.0, "{}", body[1]);
    }
    for file in &names {
        if !file.ends_with(".csv") {
            continue;
        }
        let t = std::fs::read_to_string(dir.join(file)).unwrap();
        for l in t.lines().filter(|l| !l.starts_with('#')) {
            assert!(!l.contains('%') || l.contains("% CI"), "{file}: {l}");
            assert!(!l.contains('±'), "{file}: {l}");
        }
    }
    // The long format: section,row,column,value,unit with raw numbers.
    let out = crate::common::process()
        .args([
            "sim",
            "blackjack",
            "--rounds",
            "100k",
            "--seed",
            "3",
            "--quiet",
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(csv.starts_with("section,row,column,value,unit\n"), "{csv}");
    let freq = csv
        .lines()
        .find(|l| l.starts_with("Frequencies,blackjack,count,"))
        .unwrap();
    assert!(freq.ends_with(",count") && !freq.contains('"'), "{freq}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_run_marks_its_csv_and_svg_files() {
    use rtplab::games::twentyone::game::{TwentyOne, TwentyOneConfig, DEFAULT_SEATS};
    let cfg = TwentyOneConfig::new(&DEFAULT_SEATS, 50_000_000);
    let spec = rtplab::game::RunSpec {
        seed: 1,
        threads: Some(1),
        ..Default::default()
    };
    // Stop after a few chunks (Ctrl-C does the same through this flag). A stop before the
    // first chunk finishes is tested in tests/it/interrupted.rs.
    let stop = AtomicBool::new(false);
    let (report, plots, interrupted) = std::thread::scope(|sc| {
        sc.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(400));
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
        });
        let r = rtplab::game::sim_rendered::<TwentyOne>(cfg, &spec, None, &stop).unwrap();
        (r.report, r.plots, r.interrupted)
    });
    assert!(interrupted);
    let plots = plots().unwrap();
    let dir = temp_dir("interrupted");
    rtplab::report::write_out_dir(&dir, &report, &plots).unwrap();
    let mut files = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let t = std::fs::read_to_string(&p).unwrap();
        let ext = p
            .extension()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if ext == "csv" || ext == "svg" {
            files += 1;
            assert!(t.contains("INTERRUPTED"), "{} has no marker", p.display());
        }
        if ext == "svg" {
            // Visible on the plot, not only in the metadata.
            assert!(t.contains(">INTERRUPTED: "), "{}", p.display());
            let problems = plot_problems(&p.display().to_string(), &t);
            assert!(problems.is_empty(), "{problems:?}");
        }
    }
    assert!(files >= 4, "{files}");
    let long = report.render(rtplab::report::Format::Csv);
    assert!(long.contains("INTERRUPTED"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The long CSV of a command: every value of a table cell is a raw number with a unit, or
/// text with no unit; never a formatted number ("99.27%", "1,234", "±0.0035%").
fn assert_csv_cells_are_raw(args: &[&str]) {
    let out = crate::common::process()
        .args(args)
        .args(["--format", "csv"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    assert_eq!(
        r.headers().unwrap(),
        vec!["section", "row", "column", "value", "unit"]
    );
    let mut numbers = 0;
    for rec in r.records() {
        let rec = rec.unwrap();
        let (section, column, value, unit) = (&rec[0], &rec[2], &rec[3], &rec[4]);
        if section == "meta" || section == "notes" {
            continue;
        }
        let at = format!(
            "{args:?}: {section} / {} / {column} = {value:?} ({unit:?})",
            &rec[1]
        );
        assert!(
            !value.contains('%') && !value.contains('±'),
            "formatted number {at}"
        );
        let plain = value.replace(',', "");
        if value.contains(',') {
            assert!(
                plain.trim().parse::<f64>().is_err(),
                "thousands separators {at}"
            );
        }
        match value.parse::<f64>() {
            Ok(_) => {
                assert!(!unit.is_empty(), "a number without a unit {at}");
                numbers += 1;
            }
            Err(_) => assert!(unit.is_empty(), "text with a unit {at}"),
        }
        // Text cells of numeric-looking content ("+0.123", "12x") would be formatted numbers.
        if unit.is_empty() {
            let t = value.trim_start_matches(['+', '-']).trim_end_matches('x');
            assert!(
                t.is_empty() || t.parse::<f64>().is_err(),
                "a number kept as text {at}"
            );
        }
    }
    assert!(numbers > 10, "{args:?}: {numbers} numbers");
}

#[test]
fn exact_and_compare_csv_cells_are_numbers_with_units() {
    assert_csv_cells_are_raw(&[
        "exact",
        "blackjack",
        "--strategy",
        "autoplay",
        "--claim",
        "99.54",
        "--sensitivity",
    ]);
    assert_csv_cells_are_raw(&[
        "compare",
        "blackjack",
        "--strategy",
        "basic",
        "--strategy",
        "basic",
        "--strategy",
        "autoplay",
        "--rounds",
        "100k",
        "--quiet",
    ]);
    assert_csv_cells_are_raw(&["exact", "doom", "--strategy", "bank-at:300"]);
    assert_csv_cells_are_raw(&["exact", "doom", "--rules", "s2-common"]);
    assert_csv_cells_are_raw(&["exact", "twenty-one", "--row-policy", "--c", "5"]);
    assert_csv_cells_are_raw(&[
        "sim",
        "twenty-one",
        "--sweep-c",
        "0,5",
        "--games",
        "2k",
        "--quiet",
    ]);
}
