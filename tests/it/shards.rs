//! Sharded runs: shards 1..N merged equal the single run bit for bit; bad shard sets are
//! refused with a clear message (exit 2); the schedulers' environment variables select shards.

use crate::common::*;

use std::path::{Path, PathBuf};

fn dir(name: &str) -> PathBuf {
    temp_dir(&format!("shards-{name}"))
}

const RUN: [&str; 6] = ["sim", "blackjack", "--rounds", "300k", "--pairs", "1"];

fn shard(d: &Path, k: u64, n: u64, extra: &[&str]) -> PathBuf {
    let f = d.join(format!("s{k}of{n}.json"));
    let seed = if extra.is_empty() {
        &["--seed", "11"][..]
    } else {
        extra
    };
    succeeds(rtplab().args(RUN).args(seed).args([
        "--shard",
        &format!("{k}/{n}"),
        "--shard-out",
        f.to_str().unwrap(),
        "--quiet",
        "--format",
        "json",
    ]));
    f
}

const SAME: [&str; 16] = [
    "game",
    "rules",
    "strategy",
    "seed",
    "rounds",
    "initial_bets",
    "ev",
    "ev_se",
    "rtp",
    "rtp_ci95",
    "rtp_total_wagered",
    "sd_round",
    "ev_by_upcard",
    "frequencies",
    "side_bets",
    "net_distribution",
];

#[test]
fn merged_shards_equal_the_single_run() {
    let mut single_args: Vec<&str> = RUN.to_vec();
    single_args.extend(["--seed", "11", "--format", "json", "--quiet"]);
    let single = json(&single_args);
    for n in [1u64, 3, 4] {
        let d = dir(&format!("ok{n}"));
        let files: Vec<PathBuf> = (1..=n).rev().map(|k| shard(&d, k, n, &[])).collect();
        let mut args = vec!["merge".to_string()];
        args.extend(files.iter().map(|f| f.display().to_string()));
        args.extend(["--format".into(), "json".into()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let merged = json(&args);
        for key in SAME {
            assert_eq!(merged[key], single[key], "{n} shards: '{key}' differs");
        }
        assert_eq!(merged["merged_from"], n, "the JSON says it was merged");
        assert!(single.get("merged_from").is_none());
        assert_eq!(merged["dealer_outcomes"], single["dealer_outcomes"]);
    }
}

fn merge_fails(files: &[&Path], needle: &str) {
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    fails_with(&args, needle);
}

#[test]
fn bad_shard_sets_are_refused() {
    let d = dir("bad");
    let s1 = shard(&d, 1, 3, &[]);
    let s2 = shard(&d, 2, 3, &[]);
    let s3 = shard(&d, 3, 3, &[]);
    merge_fails(&[&s1, &s3], "are missing");
    merge_fails(&[&s1, &s2], "are missing");
    merge_fails(&[&s1, &s2, &s2, &s3], "overlaps");
    // A shard of another run (another seed).
    let other = dir("other");
    let foreign = shard(&other, 2, 3, &["--seed", "12"]);
    merge_fails(&[&s1, &foreign, &s3], "different runs");
    merge_fails(&[&s1, &foreign, &s3], "seed");
    // Shards of a different split of the same run overlap.
    let half = shard(&other, 1, 2, &["--seed", "11"]);
    merge_fails(&[&half, &s2, &s3], "overlaps");
    // A truncated file.
    let text = std::fs::read_to_string(&s2).unwrap();
    let cut = d.join("cut.json");
    std::fs::write(&cut, &text[..text.len() / 2]).unwrap();
    merge_fails(&[&s1, &cut, &s3], "truncated");
    merge_fails(&[&cut, &s1, &s3], "truncated");
    // Files that are no shards at all are called that, not truncated or of another game.
    let report = d.join("report.json");
    let csv = d.join("report.csv");
    std::fs::write(
        &report,
        r#"{"game": "blackjack", "rtp": 0.99, "key": {"game": "x"}}"#,
    )
    .unwrap();
    std::fs::write(&csv, "section,row,column,value,unit\n").unwrap();
    for f in [&report, &csv] {
        merge_fails(&[&s1, f, &s3], "not an rtplab shard file");
        merge_fails(&[f, &s1, &s3], "--shard-out");
    }
    // A shard edited to look interrupted (fewer chunks done than its range): its checksum no
    // longer matches (a really interrupted shard is refused as incomplete: tests/it/faults.rs).
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let done = v["chunks_done"].as_u64().unwrap();
    v["chunks_done"] = (done - 1).into();
    let partial = d.join("partial.json");
    std::fs::write(&partial, v.to_string()).unwrap();
    merge_fails(&[&s1, &partial, &s3], "checksum");
    // Not a file at all.
    merge_fails(&[&d.join("nope.json")], "no such file");
}

#[test]
fn scheduler_environment_selects_the_shard() {
    let d = dir("env");
    let by_flag = shard(&d, 2, 4, &[]);
    let via = |vars: &[(&str, &str)], extra: &[&str], name: &str| -> serde_json::Value {
        let f = d.join(name);
        let mut cmd = rtplab();
        cmd.args(RUN).args(["--seed", "11"]).args(extra).args([
            "--shard-out",
            f.to_str().unwrap(),
            "--quiet",
            "--format",
            "json",
        ]);
        for (k, v) in vars {
            cmd.env(k, v);
        }
        succeeds(&mut cmd);
        serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap()
    };
    let want: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(by_flag).unwrap()).unwrap();
    let slurm = via(
        &[
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ],
        &[],
        "slurm.json",
    );
    assert_eq!(slurm["range"], want["range"]);
    assert_eq!(slurm["acc"], want["acc"]);
    let k8s = via(
        &[("JOB_COMPLETION_INDEX", "1")],
        &["--shards", "4"],
        "k8s.json",
    );
    assert_eq!(k8s["range"], want["range"]);
    assert_eq!(k8s["acc"], want["acc"]);
    let out = rtplab()
        .args(RUN)
        .env("JOB_COMPLETION_INDEX", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--shards"));
    let out = rtplab()
        .args(RUN)
        .args(["--shard", "5/4"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("K/N"));
    // Explicit flags that disagree with the array are refused, saying both (they used to be
    // overruled: --shards 64 in task 2 of a 4-task array ran shard 2/4 of another run).
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "2"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_MAX", "4"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ];
    let f = d.join("refused.json");
    for extra in [&["--shards", "64"][..], &["--shard", "3/4"][..]] {
        let mut cmd = rtplab();
        cmd.args(RUN)
            .args(extra)
            .args(["--shard-out", f.to_str().unwrap(), "--quiet"]);
        for (k, v) in slurm {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert!(
            err.contains(&format!(
                "{} {} disagrees with this Slurm array task (SLURM_ARRAY_TASK_ID=2,",
                extra[0], extra[1]
            )),
            "{err}"
        );
        assert!(!f.exists(), "{extra:?} wrote a shard");
    }
}

/// The dice games shard and merge exactly too.
#[test]
fn dice_game_shards_merge_to_the_single_run() {
    let d = temp_dir("dice-shards");
    for (game, extra) in [
        ("doom", vec!["--turns", "300k", "--strategy", "bank-at:350"]),
        (
            "doom",
            vec!["--games", "300", "--target", "5000", "--players", "3"],
        ),
        ("twenty-one", vec!["--games", "20k"]),
    ] {
        let mut whole = vec!["sim", game, "--format", "json", "-q"];
        whole.extend(&extra);
        let files = assert_shards_merge_to_the_single_run(&d, game, &whole);
        // A shard file of another run is refused.
        let other = d.join(format!("{game}-other.json"));
        let _ = std::fs::remove_file(&other);
        let mut a = whole.clone();
        a.extend([
            "--seed",
            "99",
            "--shard",
            "1/3",
            "--shard-out",
            other.to_str().unwrap(),
        ]);
        json(&a);
        fails_with(
            &[
                "merge",
                other.to_str().unwrap(),
                files[1].to_str().unwrap(),
                files[2].to_str().unwrap(),
            ],
            "different runs",
        );
        // A claimed RTP means nothing for a dice game: refused, not silently ignored.
        let mut m = vec!["merge", "--claim", "99.5"];
        m.extend(files.iter().map(|f| f.to_str().unwrap()));
        fails_with(
            &m,
            &format!("--claim: {game} has no return to player to test a claim against"),
        );
    }
}

/// Shards of one run are keyed by the chart's content: the same chart read from two paths,
/// one with CRLF line endings and other comments, merges; a chart with one cell changed does
/// not.
#[test]
fn shards_are_keyed_by_the_charts_content_not_its_path() {
    let d = dir("chart-content");
    let seed_chart = std::fs::read_to_string("strategies/blackjack/seed.csv").unwrap();
    let a = d.join("a.csv");
    let b = d.join("b-copy.csv");
    let c = d.join("c-edited.csv");
    std::fs::write(&a, &seed_chart).unwrap();
    let crlf = format!("# another comment\r\n{}", seed_chart.replace('\n', "\r\n"));
    std::fs::write(&b, crlf).unwrap();
    // Hard 16 v 10: surrender (the seed chart's Rh) becomes stand.
    let edited: String = seed_chart
        .lines()
        .map(|l| {
            if l.starts_with("H16,") {
                let mut cells: Vec<&str> = l.split(',').collect();
                cells[9] = "S";
                cells.join(",")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(edited.trim(), seed_chart.trim());
    std::fs::write(&c, edited).unwrap();
    let run = |chart: &Path, k: u64, name: &str| {
        let f = d.join(name);
        shard(
            &d,
            k,
            2,
            &["--seed", "5", "--strategy", chart.to_str().unwrap()],
        );
        std::fs::rename(d.join(format!("s{k}of2.json")), &f).unwrap();
        f
    };
    let s1 = run(&a, 1, "a1.json");
    let s2 = run(&b, 2, "b2.json");
    let merged = json(&[
        "merge",
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let single = json(&[
        "sim",
        "blackjack",
        "--rounds",
        "300k",
        "--pairs",
        "1",
        "--seed",
        "5",
        "--strategy",
        b.to_str().unwrap(),
        "--format",
        "json",
        "--quiet",
    ]);
    assert_eq!(merged["ev"], single["ev"]);
    assert_eq!(merged["strategy"]["hash"], single["strategy"]["hash"]);
    let s3 = run(&c, 2, "c2.json");
    fails_with(
        &["merge", s1.to_str().unwrap(), s3.to_str().unwrap()],
        "come from different runs (they differ in",
    );
    let out = rtplab()
        .args(["merge", s1.to_str().unwrap(), s3.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("strategy"));
}

/// A shard whose histogram was padded (which would loosen the plausibility bounds), with a
/// recomputed checksum, is refused: the histogram's room must be the rules' own.
#[test]
fn a_padded_histogram_with_a_valid_checksum_is_refused() {
    let d = dir("padded");
    let f = shard(&d, 1, 1, &[]);
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
    let sum = |v: &serde_json::Value| {
        rtplab::shard::checksum(
            &v["key"],
            &serde_json::from_value::<rtplab::shard::ShardSpec>(v["shard"].clone()).unwrap(),
            &serde_json::from_value::<[u64; 2]>(v["range"].clone()).unwrap(),
            v["chunks_done"].as_u64().unwrap(),
            &serde_json::from_value::<rtplab::games::blackjack::sim::BjAcc>(v["acc"].clone())
                .unwrap(),
        )
    };
    assert_eq!(
        sum(&v),
        v["checksum"],
        "the test recomputes the checksum as merge does"
    );
    v["acc"]["hist"]["counts"]
        .as_array_mut()
        .unwrap()
        .extend([serde_json::json!(0), serde_json::json!(0)]);
    v["checksum"] = serde_json::json!(sum(&v));
    std::fs::write(&f, serde_json::to_string(&v).unwrap()).unwrap();
    fails_with(&["merge", f.to_str().unwrap()], "histogram");
}

/// A shard without --shard-out would lose its sums (its report cannot be merged): refused
/// before the run, whether the shard comes from --shard or from the scheduler's environment.
#[test]
fn a_shard_without_a_shard_file_is_refused() {
    for game in [
        vec!["sim", "blackjack", "--rounds", "10k"],
        vec!["sim", "baccarat", "--coups", "10k"],
        vec!["sim", "doom", "--turns", "10k"],
    ] {
        let mut a = game.clone();
        a.extend(["--shard", "1/2"]);
        fails_with(
            &a,
            "shard 1/2 without --shard-out: its sums would be lost (a shard's report cannot be merged); add --shard-out FILE",
        );
    }
    let out = rtplab()
        .args(["sim", "blackjack", "--rounds", "10k", "-q"])
        .env("JOB_COMPLETION_INDEX", "0")
        .args(["--shards", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("shard 1/3 without --shard-out"));
}
