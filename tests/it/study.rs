//! Tables in files (`--table`) and studies (`rtplab study`): a table file gives the same run
//! as its flags, flags override it, reports name it; a study's cells are the command line's
//! runs, cached, resumed, sharded and merged to the same table.

use crate::common::{fails_with, json, rtplab, succeeds, temp_dir};

/// The seed table's file is the seed table: the same figures bit for bit as no file, and the
/// report names the file and its hash.
#[test]
fn a_table_file_is_its_rules_and_the_report_names_it() {
    let base = [
        "sim",
        "blackjack",
        "--rounds",
        "20000",
        "--format",
        "json",
        "-q",
    ];
    let plain = json(&base);
    let with = |extra: &[&str]| json(&[&base[..], extra].concat());
    let filed = with(&["--table", "tables/seed.toml"]);
    assert_eq!(plain["rtp"], filed["rtp"]);
    assert_eq!(plain["ev_se"], filed["ev_se"]);
    let label = &filed["rules"]["label"];
    assert_eq!(label["file"], "tables/seed.toml");
    assert_eq!(label["name"], "seed table");
    assert_eq!(label["hash"].as_str().unwrap().len(), 16);
    assert!(plain["rules"].get("label").is_none());
    // A 6-deck H17 shoe by its file and by its flags: the same run.
    let by_file = with(&["--table", "tables/6d-h17.toml"]);
    let by_flags = with(&[
        "--decks",
        "6",
        "--h17",
        "--peek",
        "--surrender",
        "late",
        "--das",
        "--max-hands",
        "4",
    ]);
    assert_eq!(by_file["rtp"], by_flags["rtp"]);
    assert_ne!(by_file["rtp"], plain["rtp"], "the file's rules are played");
    // A flag overrides the file.
    let over = with(&["--table", "tables/6d-h17.toml", "--decks", "2"]);
    assert_eq!(over["rules"]["decks"], 2);
    assert_eq!(over["rules"]["h17"], true);
    // The text report names the table.
    let out = succeeds(rtplab().args([
        "exact",
        "blackjack",
        "-q",
        "--table",
        "tables/single-deck.toml",
    ]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("table single deck (tables/single-deck.toml, "),
        "{text}"
    );
}

/// Every shipped table reads and plays.
#[test]
fn the_shipped_tables_read() {
    for entry in std::fs::read_dir("tables").unwrap() {
        let p = entry.unwrap().path();
        let p = p.to_str().unwrap();
        if p.ends_with(".toml")
            && std::fs::read_to_string(p)
                .unwrap()
                .contains("\"blackjack\"")
        {
            succeeds(rtplab().args(["sim", "blackjack", "--rounds", "2000", "-q", "--table", p]));
        }
    }
}

/// A bad table file: exit 2, the file, line and field named, what to write instead.
#[test]
fn a_bad_table_names_line_and_field() {
    let d = temp_dir("study-bad-table");
    let cases: [(&str, &str); 6] = [
        (
            "game = \"blackjack\"\ndecks = 99\n",
            ":2: decks: expected a whole number from 1 to 64",
        ),
        (
            "game = \"blackjack\"\nsurender = \"late\"\n",
            ":2: surender: unknown rule 'surender'",
        ),
        (
            "game = \"blackjack\"\nh17 = \"yes\"\n",
            ":2: h17: expected true or false",
        ),
        ("decks = 6\n", ":1: no game = \"blackjack\" line"),
        (
            "game = \"baccarat\"\n",
            ":1: game = \"baccarat\": this is a blackjack command",
        ),
        (
            "game = \"blackjack\"\n[rules]\n",
            ":2: a table file has no sections",
        ),
    ];
    for (i, (text, needle)) in cases.iter().enumerate() {
        let f = d.join(format!("t{i}.toml"));
        std::fs::write(&f, text).unwrap();
        fails_with(
            &["sim", "blackjack", "-q", "--table", f.to_str().unwrap()],
            needle,
        );
    }
    fails_with(
        &[
            "sim",
            "blackjack",
            "-q",
            "--table",
            "tables/seed.toml",
            "--rules",
            "seed",
        ],
        "cannot be used with",
    );
}

const EXAMPLE: &str = "game = \"blackjack\"\n[grid]\npenetration = [0.65, 0.8]\ncount = [\"hi-lo\", \"ko\"]\n[run]\nrounds = 200000\n";

fn study(args: &[&str]) -> String {
    let out = succeeds(rtplab().arg("study").args(args));
    String::from_utf8(out.stdout).unwrap()
}

fn read(p: &std::path::Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

/// The cells' files in a study folder, with their modification times.
fn cells(dir: &std::path::Path) -> Vec<(String, std::time::SystemTime)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_string_lossy().starts_with("cell-"))
        .map(|e| {
            let t = e.metadata().unwrap().modified().unwrap();
            (e.file_name().to_string_lossy().to_string(), t)
        })
        .collect();
    v.sort();
    v
}

/// The issue's study file runs as written; each cell's figures are those of the same command
/// line bit for bit; a second run runs nothing and writes the same table.
#[test]
fn the_example_runs_its_cells_are_the_command_lines_and_a_second_run_does_no_work() {
    let d = temp_dir("study-example");
    let file = d.join("mine.toml");
    std::fs::write(&file, EXAMPLE).unwrap();
    let out = d.join("out");
    let (f, o) = (file.to_str().unwrap(), out.to_str().unwrap());
    let text = study(&[f, "--out-dir", o, "-q"]);
    assert!(text.contains("4 cells, 4 run, 0 kept"), "{text}");
    assert!(text.contains("every cell: rounds 200000"), "{text}");
    assert!(text.contains("penetration 0.8, count ko"), "{text}");
    let table: serde_json::Value = serde_json::from_str(&read(&out.join("results.json"))).unwrap();
    assert_eq!(table["axes"], serde_json::json!(["penetration", "count"]));
    let cli = json(&[
        "sim",
        "blackjack",
        "--rounds",
        "200000",
        "--penetration",
        "0.8",
        "--count",
        "ko",
        "--format",
        "json",
        "-q",
    ]);
    let row = |figure: &str| {
        table["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["cell"] == 4 && r["figure"] == figure)
            .unwrap()
            .clone()
    };
    for (figure, key) in [
        ("rtp", "rtp"),
        ("score", "score"),
        ("ev_per_round", "ev_per_round"),
    ] {
        assert_eq!(row(figure)["value"].as_f64(), cli[key].as_f64(), "{figure}");
    }
    assert_eq!(row("rtp")["ci_low"], cli["rtp_ci95"][0]);
    assert_eq!(row("score")["se"], cli["score_se"]);
    assert_eq!(row("rtp")["rounds_run"], cli["rounds"]);
    let csv = read(&out.join("results.csv"));
    assert!(csv.starts_with(
        "cell,label,penetration,count,figure,value,se,ci_low,ci_high,seed,rounds_run,cell_key\n"
    ));
    for f in [
        "index.html",
        "results.parquet",
        "plot-score-by-cell.svg",
        "plot-score-by-penetration.svg",
        "plot-score-heat.svg",
    ] {
        assert!(out.join(f).is_file(), "{f}");
    }
    // The bars name what differs, one order for every bar (the shortest values first), and
    // the x axis names that order.
    let bars = read(&out.join("plot-score-by-cell.svg"));
    for needle in ["0.65 · hi-lo", "0.8 · ko", "penetration · count"] {
        assert!(bars.contains(needle), "no '{needle}' in the by-cell plot");
    }
    // Run again: nothing runs, no cell is rewritten, the same table.
    let before = cells(&out);
    assert_eq!(before.len(), 4);
    let again = study(&[f, "--out-dir", o, "-q"]);
    assert!(again.contains("4 cells, 0 run, 4 kept"), "{again}");
    assert_eq!(cells(&out), before);
    assert_eq!(read(&out.join("results.csv")), csv);
    // A changed setting runs only the cells it changes.
    std::fs::write(&file, EXAMPLE.replace("[0.65, 0.8]", "[0.65, 0.7]")).unwrap();
    let changed = study(&[f, "--out-dir", o, "-q"]);
    assert!(changed.contains("4 cells, 2 run, 2 kept"), "{changed}");
    // The dry run counts the kept cells and runs no other.
    let dry = study(&[f, "--out-dir", o, "--dry-run", "-q"]);
    assert!(dry.contains("4 cells, 4 kept, 0 to run"), "{dry}");
    assert!(dry.contains("every cell is kept"), "{dry}");
}

/// A dry run of a new study times a pilot and writes nothing.
#[test]
fn a_dry_run_estimates_and_writes_nothing() {
    let d = temp_dir("study-dry");
    let file = d.join("mine.toml");
    std::fs::write(&file, EXAMPLE).unwrap();
    let out = d.join("out");
    let dry = study(&[
        file.to_str().unwrap(),
        "--out-dir",
        out.to_str().unwrap(),
        "--dry-run",
    ]);
    assert!(dry.contains("4 cells, 0 kept, 4 to run"), "{dry}");
    assert!(
        dry.contains("estimated time: ") && dry.contains("for 800,000 rounds"),
        "{dry}"
    );
    assert!(!out.exists(), "a dry run makes no folder");
}

/// A study killed between cells keeps the cells done; the same command resumes it to the
/// table of an uninterrupted run.
#[test]
fn a_killed_study_resumes_to_the_same_result() {
    let d = temp_dir("study-killed");
    let file = d.join("s.toml");
    std::fs::write(
        &file,
        "game = \"blackjack\"\n[run]\nrounds = 1_500_000\n[grid]\ndecks = [2, 3, 4, 6, 8]\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let whole = d.join("whole");
    study(&[f, "--out-dir", whole.to_str().unwrap(), "-q"]);
    let part = d.join("part");
    let mut child = crate::common::process()
        .args(["study", f, "--out-dir", part.to_str().unwrap(), "-q"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t = std::time::Instant::now();
    while (!part.exists() || cells(&part).is_empty()) && t.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    let kept = cells(&part).len();
    if status.code() == Some(0) {
        eprintln!("the study ended before the signal; nothing to resume");
    } else {
        assert_eq!(status.code(), Some(143));
        assert!((1..5).contains(&kept), "{kept} cells kept");
    }
    let resumed = study(&[f, "--out-dir", part.to_str().unwrap(), "-q"]);
    assert!(
        resumed.contains(&format!("{} run, {kept} kept", 5 - kept)),
        "{resumed}"
    );
    assert_eq!(
        read(&part.join("results.csv")),
        read(&whole.join("results.csv"))
    );
}

/// Shards run their cells in folders of their own; the last run takes them all, runs
/// nothing, and writes the single run's table.
#[test]
fn a_sharded_study_merges_to_the_same_table() {
    let d = temp_dir("study-shards");
    let file = d.join("mine.toml");
    std::fs::write(&file, EXAMPLE.replace("200000", "20000")).unwrap();
    let f = file.to_str().unwrap();
    let plan = study(&[f, "--out-dir", "r", "--shards", "2"]);
    assert!(plan.contains("--out-dir r.shard-K --shard K/2"), "{plan}");
    assert!(plan.contains("--cells-from r.shard-*"), "{plan}");
    let single = d.join("single");
    study(&[f, "--out-dir", single.to_str().unwrap(), "-q"]);
    let mut from = Vec::new();
    for k in 1..=2 {
        let s = d.join(format!("r.shard-{k}"));
        study(&[
            f,
            "--out-dir",
            s.to_str().unwrap(),
            "--shard",
            &format!("{k}/2"),
            "-q",
        ]);
        assert_eq!(cells(&s).len(), 2);
        assert!(!s.join("results.csv").exists(), "a shard writes no table");
        from.push(s.to_str().unwrap().to_string());
    }
    let merged = d.join("merged");
    let mut args = vec![
        f,
        "--out-dir",
        merged.to_str().unwrap(),
        "-q",
        "--cells-from",
    ];
    args.extend(from.iter().map(String::as_str));
    let text = study(&args);
    assert!(text.contains("4 cells, 0 run, 4 kept"), "{text}");
    assert_eq!(
        read(&merged.join("results.csv")),
        read(&single.join("results.csv"))
    );
    assert_eq!(
        std::fs::read(merged.join("results.parquet")).unwrap(),
        std::fs::read(single.join("results.parquet")).unwrap()
    );
}

/// A bad study file stops before any work: exit 2, the file, the line, what to change.
#[test]
fn a_bad_study_names_the_cell_and_the_line() {
    let d = temp_dir("study-bad");
    let cases: [(&str, &str); 5] = [
        (
            "game = \"blackjack\"\n[run]\nrounds = 1000\n[grid]\nsurender = [\"late\"]\n",
            "(line 5: surender)",
        ),
        (
            "game = \"blackjack\"\n[run]\nrounds = 1000\nout-dir = \"x\"\n",
            ":4: out-dir: not a setting of a cell",
        ),
        (
            "game = \"blackjack\"\n[grid]\ndecks = 6\n",
            ":3: decks: a grid axis is a list",
        ),
        (
            "game = \"poker\"\n[run]\nrounds = 1000\n",
            "studies run blackjack",
        ),
        (
            "game = \"blackjack\"\n[run]\nrounds = 1000\ndecks = 99\n",
            "cell 1",
        ),
    ];
    for (i, (text, needle)) in cases.iter().enumerate() {
        let f = d.join(format!("s{i}.toml"));
        std::fs::write(&f, text).unwrap();
        let out = d.join(format!("out{i}"));
        fails_with(
            &[
                "study",
                f.to_str().unwrap(),
                "--out-dir",
                out.to_str().unwrap(),
                "-q",
            ],
            needle,
        );
        assert!(cells(&out).is_empty(), "no cell ran");
    }
}

/// The shipped studies' results are committed whole: every cell of each is kept in its folder
/// (a changed table or study file would have other keys), and its table and index are there.
#[test]
fn the_shipped_studies_are_kept_whole() {
    for name in [
        "single-rule-changes",
        "counts-by-penetration",
        "tables-ranked",
    ] {
        let file = format!("studies/{name}.toml");
        let dir = format!("studies/{name}");
        let dry = study(&[&file, "--out-dir", &dir, "--dry-run", "-q"]);
        assert!(dry.contains("every cell is kept"), "{name}: {dry}");
        for f in [
            "results.csv",
            "results.json",
            "results.parquet",
            "index.html",
        ] {
            assert!(std::path::Path::new(&dir).join(f).is_file(), "{name}: {f}");
        }
    }
}

/// The Parquet file reads in polars and pandas with the documented columns, where python3
/// has them.
#[test]
fn the_parquet_file_reads_in_polars_and_pandas() {
    let python = std::env::var("RTPLAB_PYTHON").unwrap_or_else(|_| "python3".into());
    let has = |m: &str| {
        std::process::Command::new(&python)
            .args(["-c", &format!("import {m}")])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let file = "studies/tables-ranked/results.parquet";
    let mut ran = 0;
    if has("polars") {
        let script = format!(
            "import polars as pl\n\
             df = pl.read_parquet('{file}')\n\
             assert df.columns == ['cell', 'label', 'table', 'figure', 'value', 'se', 'ci_low', 'ci_high', 'seed', 'rounds_run', 'cell_key'], df.columns\n\
             s = df.filter(pl.col('figure') == 'score').sort('value', descending=True)\n\
             assert s.height == 4 and s['se'].null_count() == 0\n\
             assert df['value'].dtype == pl.Float64 and df['cell'].dtype == pl.Int64\n\
             print(s['table'].to_list())\n"
        );
        let out = std::process::Command::new(&python)
            .args(["-c", &script])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    if has("pandas") && (has("pyarrow") || has("fastparquet")) {
        let script = format!(
            "import pandas as pd\n\
             d = pd.read_parquet('{file}')\n\
             s = d[d.figure == 'score']\n\
             assert len(s) == 4 and s['value'].notna().all()\n\
             assert list(s.cell) == [1, 2, 3, 4]\n"
        );
        let out = std::process::Command::new(&python)
            .args(["-c", &script])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    if ran == 0 {
        eprintln!("skipped: {python} has neither polars nor pandas with pyarrow (RTPLAB_PYTHON names another)");
    }
}
