//! The real binary: help, bad input (exit 2, a clear message, no panic), report formats.

use crate::common::*;

#[test]
fn help_works_everywhere() {
    for args in [
        vec!["--help"],
        vec!["sim", "--help"],
        vec!["sim", "blackjack", "--help"],
    ] {
        let out = rtplab().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Usage"), "{text}");
    }
    let out = rtplab()
        .args(["sim", "blackjack", "--help"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--decks",
        "--h17",
        "--bj-pays",
        "--peek",
        "--dealer-bj-takes",
        "--surrender",
        "--double",
        "--das",
        "--max-hands",
        "--resplit-aces",
        "--hit-split-aces",
        "--split-by",
        "--penetration",
        "--shuffle-every-round",
        "--shuffle",
        "--players",
        "--pairs",
        "--bet-behind",
        "--behind-follows",
        "--claim",
        "--format",
        "--output",
        "--threads",
        "--seed",
        "--rounds",
        "--quiet",
        "Examples",
    ] {
        assert!(text.contains(flag), "help lacks {flag}");
    }
}

#[test]
fn run_sizes_that_cannot_be_honoured_exit_2() {
    // One chunk of 100k shoes (millions of rounds) for a run of 1,000 rounds.
    fails_with(
        &[
            "sim",
            "blackjack",
            "--rounds",
            "1000",
            "--chunk-shoes",
            "100000",
        ],
        "more than --rounds 1000: use --chunk-shoes",
    );
    // 1e15 rounds is a run for shards, not one process; the message names the shard count.
    fails_with(
        &[
            "sim",
            "blackjack",
            "--rounds",
            "1e15",
            "--shard",
            "1/2",
            "--shard-out",
            std::env::temp_dir()
                .join(format!("rtplab-cli-{}-big.json", std::process::id()))
                .to_str()
                .unwrap(),
        ],
        "use --shard K/N with N at least 10",
    );
    fails_with(
        &["sim", "blackjack", "--rounds", "1e17"],
        "at most 1e16 rounds, in shards of at most 1e14",
    );
}

#[test]
fn bad_numbers_and_rules_exit_2() {
    fails_with(&["sim", "blackjack", "--rounds", "0"], "at least 1");
    fails_with(
        &["sim", "blackjack", "--rounds", "lots"],
        "expected a number",
    );
    fails_with(
        &["sim", "blackjack", "--rounds", "1e16"],
        "use --shard K/N with N at least 100",
    );
    fails_with(&["sim", "blackjack", "--rounds", "1e30"], "too large");
    fails_with(&["sim", "blackjack", "--rounds", "1.5"], "whole number");
    fails_with(&["sim", "blackjack", "--decks", "0"], "--decks");
    fails_with(&["sim", "blackjack", "--decks", "eight"], "invalid value");
    fails_with(
        &["sim", "blackjack", "--bj-pays", "2:1"],
        "expected 3:2, 6:5 or 1:1",
    );
    fails_with(
        &["sim", "blackjack", "--surrender", "sometimes"],
        "expected none, 2-9, late or early",
    );
    fails_with(
        &["sim", "blackjack", "--double", "12"],
        "expected any, 9-11 or 10-11",
    );
    fails_with(
        &["sim", "blackjack", "--penetration", "1.5"],
        "--penetration",
    );
    fails_with(&["sim", "blackjack", "--players", "9"], "--players");
    fails_with(&["sim", "blackjack", "--resplit-aces"], "--max-hands");
    fails_with(
        &[
            "sim",
            "blackjack",
            "--peek",
            "--dealer-bj-takes",
            "original",
        ],
        "no-hole-card",
    );
    fails_with(
        &[
            "sim",
            "blackjack",
            "--shuffle-every-round",
            "--penetration",
            "0.5",
        ],
        "cut card",
    );
    fails_with(&["sim", "blackjack", "--threads", "0"], "thread count");
    fails_with(&["sim", "blackjack", "--claim", "abc"], "RTP in percent");
    fails_with(&["sim", "blackjack", "--pairs=-1"], "stake");
    fails_with(
        &["sim", "blackjack", "--strategy", "nonsense"],
        "unknown strategy 'nonsense'",
    );
    fails_with(&["sim", "poker"], "unrecognized subcommand");
    // A negative number is the option's value, refused by the option's own check (it was
    // read as an unknown flag '-5').
    fails_with(
        &["sim", "blackjack", "--rounds", "-5"],
        "invalid value '-5' for '--rounds",
    );
    fails_with(&["sim", "doom", "--threads", "-1"], "thread count");
    fails_with(&["sim", "blackjack", "--pairs", "-1"], "stake");
    // An unknown subcommand's error lists the ones there are, at every level.
    fails_with(
        &["sim", "poker"],
        "'rtplab sim' has: blackjack, doom, twenty-one, baccarat",
    );
    fails_with(
        &["strategies", "make"],
        "'rtplab strategies' has: derive, indices, ramp",
    );
    fails_with(&["dance"], "'rtplab' has: sim, exact,");
    fails_with(&["help", "poker"], "'rtplab' has: sim, exact,");
    fails_with(
        &["help", "sim", "poker"],
        "'rtplab sim' has: blackjack, doom, twenty-one, baccarat",
    );
}

#[test]
fn a_malformed_chart_is_rejected_with_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("rtplab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = std::fs::read_to_string("strategies/blackjack/seed.csv").unwrap();
    let bad = good.replacen("H12,H,H,S", "H12,H,Q,S", 1);
    assert_ne!(good, bad);
    let path = dir.join("bad.csv");
    std::fs::write(&path, &bad).unwrap();
    let line = bad.lines().position(|l| l.starts_with("H12,")).unwrap() + 1;
    let p = path.to_str().unwrap();
    fails_with(
        &["sim", "blackjack", "--strategy", p, "--rounds", "1000"],
        &format!("bad.csv:{line}:3: expected one of H"),
    );
    std::fs::write(&path, "hand,2,3\n").unwrap();
    fails_with(
        &["sim", "blackjack", "--strategy", p],
        "expected the header",
    );
}

#[test]
fn json_report_carries_the_contract_keys() {
    let v = json(&[
        "sim",
        "blackjack",
        "--rounds",
        "20k",
        "--format",
        "json",
        "--claim",
        "99.54",
        "--pairs",
        "1",
        "--seed",
        "7",
    ]);
    for key in [
        "game",
        "rules",
        "strategy",
        "seed",
        "rounds",
        "ev",
        "ev_se",
        "rtp",
        "rtp_ci95",
        "rtp_total_wagered",
        "sd_round",
        "ev_by_upcard",
        "frequencies",
        "side_bets",
        "bet_behind",
        "claim",
        "elapsed_s",
        "rounds_per_s",
    ] {
        assert!(v.get(key).is_some(), "missing key {key}");
    }
    assert_eq!(v["game"], "blackjack");
    assert_eq!(v["seed"], 7);
    assert_eq!(v["rtp_ci95"].as_array().unwrap().len(), 2);
    let rtp = v["rtp"].as_f64().unwrap();
    assert!((rtp - (1.0 + v["ev"].as_f64().unwrap())).abs() < 1e-12);
    assert!(rtp > 0.5 && rtp < 1.5, "RTP is a fraction: {rtp}");
    assert!(v["side_bets"]["pairs"]["rtp"].is_number());
    assert!(v["side_bets"]["insurance"].get("se").is_some());
    assert!(v["claim"]["verdict"].is_string());
    assert_eq!(v["ev_by_upcard"].as_object().unwrap().len(), 10);
}

/// The seed table's own rules test the table's published 99.54% without `--claim`; another
/// `--claim` or any other rule set overrides it (seats do not change the table's rules).
#[test]
fn the_seed_table_tests_its_published_rtp_by_default() {
    let claimed = |extra: &[&str]| {
        let mut args = vec![
            "sim",
            "blackjack",
            "--rounds",
            "20k",
            "-q",
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        json(&args)["claim"]["claimed"].as_f64()
    };
    assert_eq!(claimed(&[]), Some(0.9954));
    assert_eq!(claimed(&["--players", "3"]), Some(0.9954));
    assert_eq!(claimed(&["--strategy", "autoplay"]), Some(0.9954));
    assert_eq!(claimed(&["--claim", "99"]), Some(0.99));
    assert_eq!(claimed(&["--decks", "6"]), None);
    assert_eq!(claimed(&["--penetration", "0.5"]), None);
    // A card counter's run is not the flat-bet play the table advertises.
    assert_eq!(claimed(&["--count", "hi-lo"]), None);
    assert_eq!(
        claimed(&["--count", "hi-lo", "--claim", "99.54"]),
        Some(0.9954)
    );
    let table = rtplab()
        .args(["sim", "blackjack", "--rounds", "20k", "-q"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.contains("99.54"), "{text}");
}

#[test]
fn every_format_renders_and_output_goes_to_a_file() {
    for (fmt, needle) in [
        ("table", "RTP = 1 + EV"),
        ("markdown", "## EV by dealer up card"),
        ("csv", "section,row,column,value"),
    ] {
        let out = rtplab()
            .args(["sim", "blackjack", "--rounds", "5k", "--format", fmt])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert!(
            String::from_utf8_lossy(&out.stdout).contains(needle),
            "{fmt}"
        );
    }
    let path = std::env::temp_dir().join(format!("rtplab-out-{}.json", std::process::id()));
    let out = rtplab()
        .args([
            "sim",
            "blackjack",
            "--rounds",
            "5k",
            "--format",
            "json",
            "--output",
            path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["game"], "blackjack");
}

#[test]
fn same_seed_same_report_numbers() {
    let run = |threads: &str| {
        let v = json(&[
            "sim",
            "blackjack",
            "--rounds",
            "50k",
            "--format",
            "json",
            "--threads",
            threads,
            "--strategy",
            "autoplay",
        ]);
        (v["ev"].clone(), v["ev_se"].clone(), v["rounds"].clone())
    };
    assert_eq!(run("1"), run("2"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_still_reports_the_rounds_completed() {
    use std::process::Stdio;
    let child = crate::common::process()
        .args([
            "sim",
            "blackjack",
            "--rounds",
            "1e13",
            "--format",
            "json",
            "--quiet",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["interrupted"], true);
    assert!(v["rounds"].as_u64().unwrap() > 0);
    assert!(v["ev_se"].as_f64().unwrap() > 0.0);
}

#[test]
fn out_dir_writes_every_format_and_plots_with_metadata() {
    let dir = std::env::temp_dir().join(format!("rtplab-outdir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    succeeds(rtplab().args([
        "sim",
        "blackjack",
        "--rounds",
        "200k",
        "--quiet",
        "--claim",
        "99.54",
        "--out-dir",
        dir.to_str().unwrap(),
    ]));
    for f in [
        "report.md",
        "report.json",
        "ev-by-dealer-up-card.csv",
        "convergence.svg",
        "ev-by-upcard.svg",
        "results-histogram.svg",
    ] {
        let text = std::fs::read_to_string(dir.join(f)).unwrap_or_else(|_| panic!("{f} missing"));
        assert!(
            text.contains("seed") || text.contains("\"seed\""),
            "{f} lacks the run's metadata"
        );
        if f.ends_with(".svg") {
            assert!(
                text.starts_with("<svg")
                    && text.trim_end().ends_with("</svg>")
                    && text.contains("<desc>"),
                "{f}"
            );
        }
    }
    let csv =
        std::fs::read_to_string(dir.join("distribution-of-one-round-s-net-result-main-bet.csv"))
            .unwrap();
    let rows = csv.lines().filter(|l| !l.starts_with('#')).count();
    assert!(
        rows >= 6,
        "one row per histogram bin plus the header: {csv}"
    );
}

/// The repository stands alone: its docs (the README, every page in docs/, the changelog and
/// the READMEs beside the files they describe) never send a reader to files it does not hold;
/// every relative link resolves to a file, and every `#anchor` to a heading of its page; every
/// strategy file they name exists; and the README stays a front page (at most 200 lines).
#[test]
fn docs_stand_alone_and_their_links_resolve() {
    use std::path::{Path, PathBuf};
    // The anchors of a Markdown page's headings as GitHub makes them: lower case, letters,
    // digits, '-' and '_' kept, spaces made '-', the rest dropped; a repeated one gets -1, -2.
    fn anchors(text: &str) -> Vec<String> {
        let (mut slugs, mut anchors) = (Vec::<String>::new(), Vec::new());
        let mut fenced = false;
        for line in text.lines() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
            }
            let Some(title) = line.strip_prefix('#').filter(|_| !fenced) else {
                continue;
            };
            let slug: String = title
                .trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter_map(|c| match c {
                    ' ' => Some('-'),
                    c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                    _ => None,
                })
                .collect();
            match slugs.iter().filter(|s| **s == slug).count() {
                0 => anchors.push(slug.clone()),
                n => anchors.push(format!("{slug}-{n}")),
            }
            slugs.push(slug);
        }
        anchors
    }
    let mut docs: Vec<PathBuf> = [
        "README.md",
        "CHANGELOG.md",
        "ARCHITECTURE.md",
        "strategies/README.md",
        "reports/README.md",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    let mut pages: Vec<PathBuf> = std::fs::read_dir("docs")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    for page in ["docs/rules.md", "docs/references.md"] {
        assert!(pages.contains(&PathBuf::from(page)), "{page} is missing");
    }
    docs.extend(pages);
    for file in &docs {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let doc = file.display();
        assert!(
            !text.contains("../shared"),
            "{doc} points outside the repository"
        );
        assert!(
            !text.contains("RULES.md") && !text.contains("REFERENCE.md"),
            "{doc}"
        );
        for link in text.split("](").skip(1) {
            let target = link.split(')').next().unwrap();
            if target.starts_with("http") {
                continue;
            }
            let (to, anchor) = target.split_once('#').unwrap_or((target, ""));
            let path = if to.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(to)
            };
            assert!(path.exists(), "{doc}: link to missing {target}");
            if !anchor.is_empty() {
                let page = std::fs::read_to_string(&path).unwrap();
                assert!(
                    anchors(&page).iter().any(|a| a == anchor),
                    "{doc}: link to {target}, but {} has no heading #{anchor}: {:?}",
                    path.display(),
                    anchors(&page)
                );
            }
        }
        for path in text
            .split(|c: char| c.is_whitespace() || c == '`' || c == '(' || c == ')')
            .filter(|w| {
                w.starts_with("strategies/")
                    && !w.contains('*')
                    && (w.ends_with(".csv") || w.ends_with(".txt"))
            })
        {
            assert!(Path::new(path).exists(), "{doc} names missing {path}");
        }
    }
    let readme = std::fs::read_to_string("README.md").unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 200,
        "README.md has {lines} lines: it is the front page; move detail into docs/"
    );
}

/// `reports/regenerate.sh` can run on a fresh checkout: each folder it writes with
/// `--out-dir ... --force` is committed with its file list (`.rtplab-files`) naming exactly the
/// files in it, without which `--force` refuses the folder (it cannot tell the report's files
/// from others). The lists were once left out of the commits, and the script failed at its
/// first line.
#[test]
fn committed_report_folders_can_be_regenerated() {
    let script = std::fs::read_to_string("reports/regenerate.sh").unwrap();
    let dirs: Vec<&str> = script
        .split("--out-dir ")
        .skip(1)
        .map(|s| s.split_whitespace().next().unwrap())
        .collect();
    assert!(dirs.len() >= 20, "{dirs:?}");
    for d in dirs {
        let dir = std::path::Path::new(d);
        let listed = std::fs::read_to_string(dir.join(".rtplab-files"))
            .unwrap_or_else(|e| panic!("{d}/.rtplab-files: {e}"));
        let mut present: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        present.sort();
        let listed: Vec<&str> = listed.lines().collect();
        assert_eq!(listed, present, "{d}: its file list against its files");
        assert!(dir.join("report.json").is_file(), "{d}");
    }
}

/// A reader that goes away (`rtplab ... | head -c1`) is no error: exit 0, nothing on stderr.
#[test]
fn a_closed_stdout_is_not_an_error() {
    for args in [
        &["sim", "blackjack", "--rounds", "50k", "--quiet"][..],
        &["exact", "twenty-one"][..],
    ] {
        let mut child = crate::common::process()
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Close the read end before the report is written: the write meets a broken pipe.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.trim().is_empty(), "{args:?}: {err}");
    }
}

/// Messages say what is possible: a single deck needs no cut card where no shoe is dealt
/// (advise, exact), a table too full for its shoe is told to add decks or drop players (not
/// "--penetration 0 or less"), a ramp's bet too large is out of range (not "not a whole
/// number"), and an audit of a few rounds is refused (it printed SE 0 and z = -inf).
#[test]
fn messages_say_what_is_possible() {
    let v = json(&[
        "advise",
        "blackjack",
        "--decks",
        "1",
        "--hand",
        "T,6",
        "--up",
        "T",
        "--format",
        "json",
    ]);
    assert_eq!(v["best"], v["options"][0]["action"]);
    succeeds(rtplab().args(["exact", "blackjack", "--decks", "1", "--format", "json"]));
    fails_with(
        &["sim", "blackjack", "--decks", "1", "--rounds", "10k"],
        "use --penetration 0.69 or less",
    );
    fails_with(
        &[
            "sim", "blackjack", "--players", "7", "--decks", "1", "--penetration", "0.1",
        ],
        "a round with 7 players needs up to 64 cards behind the cut card, and a shoe of 1 deck has 52: no cut card leaves that room; use --decks 2 or more, or --players 5 or fewer",
    );
    fails_with(
        &[
            "sim",
            "blackjack",
            "--count",
            "hi-lo",
            "--ramp",
            "0:1,1:4294967296",
        ],
        "4294967296 units at 1: a bet is 0 (sit out) to 1000000 units",
    );
    for rounds in ["3", "9999"] {
        fails_with(
            &["audit", "blackjack", "--rounds", rounds],
            &format!("{rounds} rounds are too few to test the simulation against the exact values"),
        );
    }
    fails_with(
        &["audit", "doom", "--turns", "3"],
        "3 turns are too few to test the simulation against the exact values",
    );
}

/// Where no claim is tested, every report of a game with an RTP says why in one line (and its
/// JSON as `no_claim`); `exact` and `audit` of the seed table's rules test the advertised
/// 99.54% as `sim` does.
#[test]
fn claims_are_applied_on_purpose_and_their_absence_explained() {
    let sim = |extra: &[&str]| {
        let mut args = vec![
            "sim",
            "blackjack",
            "--rounds",
            "20k",
            "-q",
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        json(&args)
    };
    let counter = sim(&["--count", "hi-lo", "--ramp", "0:1,2:4"]);
    assert!(counter["claim"].is_null());
    assert!(counter["no_claim"].as_str().unwrap().contains("flat-bet"));
    let obo = sim(&["--dealer-bj-takes", "original"]);
    assert!(obo["claim"].is_null());
    assert!(obo["no_claim"].as_str().unwrap().contains("its own rules"));
    assert!(sim(&[]).get("no_claim").is_none());
    let exact = json(&["exact", "blackjack", "-q", "--format", "json"]);
    assert_eq!(exact["claim"]["claimed"].as_f64(), Some(0.9954));
    let exact6 = json(&["exact", "blackjack", "--decks", "6", "--format", "json"]);
    assert!(exact6["claim"].is_null());
    assert!(exact6["no_claim"].is_string());
    let compare = json(&[
        "compare",
        "blackjack",
        "--strategy",
        "basic",
        "--strategy",
        "autoplay",
        "--rounds",
        "20k",
        "-q",
        "--format",
        "json",
    ]);
    assert!(compare["no_claim"]
        .as_str()
        .unwrap()
        .starts_with("No claim tested"));
    let table = rtplab()
        .args([
            "sim",
            "blackjack",
            "--rounds",
            "20k",
            "-q",
            "--count",
            "hi-lo",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.contains("No claim tested"), "{text}");
}

#[test]
fn shufflers_are_named_in_reports_and_impossible_combinations_exit_2() {
    fails_with(
        &["sim", "blackjack", "--shuffle", "riffle:0"],
        "expected uniform, riffle:K (K riffles, 1 to 32) or machine",
    );
    fails_with(&["sim", "baccarat", "--shuffle", "csm"], "riffle:K");
    fails_with(
        &[
            "sim",
            "blackjack",
            "--shuffle",
            "machine",
            "--penetration",
            "0.5",
        ],
        "no cut card: drop --penetration",
    );
    fails_with(
        &[
            "sim",
            "blackjack",
            "--shuffle",
            "machine",
            "--shuffle-every-round",
        ],
        "drop --shuffle-every-round",
    );
    fails_with(
        &[
            "compare",
            "blackjack",
            "--shuffle",
            "machine",
            "--penetrations",
            "0.5,0.75",
        ],
        "drop --penetration",
    );
    for (args, what) in [
        (&["exact", "blackjack"][..], "this analysis"),
        (
            &["advise", "blackjack", "--hand", "T6", "--up", "T"][..],
            "this analysis",
        ),
        (&["audit", "blackjack"][..], "the audit"),
        (
            &["strategies", "metrics", "blackjack"][..],
            "strategies metrics",
        ),
    ] {
        let mut a = args.to_vec();
        a.extend(["--shuffle", "riffle:7"]);
        fails_with(
            &a,
            &format!("--shuffle riffle:7 changes how a dealt shoe is shuffled, and {what}"),
        );
    }
    for flag in ["--penetration", "--shuffle-every-round", "--burn"] {
        let mut a = vec!["sim", "baccarat", "--shuffle", "machine", flag];
        if flag == "--penetration" {
            a.push("0.8");
        }
        fails_with(&a, &format!("drop {flag}"));
    }
    fails_with(
        &["exact", "baccarat", "--shuffle", "machine"],
        "drop --shuffle",
    );
    // The rules name the shuffler when it is not uniform, in JSON and in words; a uniform
    // run's rules are as they were (no shuffler written).
    let run = |game: &str, extra: &[&str]| {
        let count = if game == "blackjack" {
            "--rounds"
        } else {
            "--coups"
        };
        let mut a = vec!["sim", game, count, "20000", "--format", "json", "-q"];
        a.extend(extra);
        json(&a)
    };
    let riffle = run("blackjack", &["--shuffle", "riffle:4"]);
    assert_eq!(
        riffle["rules"]["shuffler"],
        serde_json::json!({"riffle": 4})
    );
    let machine = run("blackjack", &["--shuffle", "machine"]);
    assert_eq!(machine["rules"]["shuffler"], "machine");
    assert_eq!(machine["rules"]["shuffle"], "every_round");
    assert!(run("blackjack", &[])["rules"].get("shuffler").is_none());
    assert!(run("blackjack", &["--shuffle", "uniform"])["rules"]
        .get("shuffler")
        .is_none());
    let bac = run("baccarat", &["--shuffle", "riffle:7"]);
    assert_eq!(bac["rules"]["shuffler"], serde_json::json!({"riffle": 7}));
    assert!(run("baccarat", &[])["rules"].get("shuffler").is_none());
    let text = |args: &[&str]| {
        let out = succeeds(rtplab().args(args));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let words = text(&[
        "sim",
        "blackjack",
        "--rounds",
        "20000",
        "-q",
        "--shuffle",
        "machine",
    ]);
    assert!(
        words.contains("continuous shuffling machine (10-card buffer)"),
        "{words}"
    );
    let words = text(&[
        "sim",
        "baccarat",
        "--coups",
        "20000",
        "-q",
        "--shuffle",
        "riffle:3",
    ]);
    assert!(words.contains("riffled 3 times"), "{words}");
}
