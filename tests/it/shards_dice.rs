//! Dice of Doom and Twenty One shards: merged in any order they give the single run's
//! statistics exactly (means, SEs, intervals, win rates), and the merged report says it was
//! merged and from how many files.

use crate::common::*;

use serde_json::Value;
use std::path::PathBuf;

/// Run `sim GAME ARGS` as `n` shards (written in reverse order) and return the shard files.
fn shards(game: &str, args: &[&str], n: u64, tag: &str) -> Vec<PathBuf> {
    let d = temp_dir(&format!("shards-dice-{tag}"));
    (1..=n)
        .rev()
        .map(|k| {
            let f = d.join(format!("{k}of{n}.json"));
            let spec = format!("{k}/{n}");
            let mut a = vec!["sim", game];
            a.extend(args);
            a.extend([
                "--quiet",
                "--format",
                "json",
                "--shard",
                &spec,
                "--shard-out",
            ]);
            a.push(f.to_str().unwrap());
            succeeds(rtplab().args(&a));
            f
        })
        .collect()
}

fn merge(files: &[PathBuf], format: &str) -> std::process::Output {
    let mut a = vec!["merge".to_string(), "--format".into(), format.into()];
    a.extend(files.iter().map(|f| f.display().to_string()));
    succeeds(rtplab().args(&a))
}

fn single(game: &str, args: &[&str]) -> Value {
    let mut a = vec!["sim", game];
    a.extend(args);
    a.extend(["--quiet", "--format", "json"]);
    json(&a)
}

fn merged_json(files: &[PathBuf]) -> Value {
    serde_json::from_slice(&merge(files, "json").stdout).unwrap()
}

/// The merged table and Markdown carry the note naming the number of shard files.
fn has_merge_note(files: &[PathBuf]) {
    let want = format!("Merged from {} shard files", files.len());
    for format in ["table", "markdown", "csv"] {
        let text = String::from_utf8(merge(files, format).stdout).unwrap();
        assert!(text.contains(&want), "{format}: no '{want}' in:\n{text}");
    }
}

const SAME_DOOM: [&str; 12] = [
    "game",
    "rules",
    "seed",
    "mean_turn_score",
    "mean_turn_score_se",
    "mean_turn_score_ci95",
    "sd_turn",
    "p_bust",
    "p_doom",
    "p_farkle",
    "rolls_per_turn",
    "turn_score_histogram",
];

#[test]
fn doom_turn_shards_merge_to_the_single_run() {
    let args = [
        "--turns",
        "200k",
        "--strategy",
        "bank-at:300",
        "--seed",
        "4",
    ];
    let one = single("doom", &args);
    for n in [2, 3] {
        let files = shards("doom", &args, n, &format!("doom-turns-{n}"));
        let m = merged_json(&files);
        for k in SAME_DOOM
            .iter()
            .chain(&["turns", "exact_turn_ev", "z_vs_exact", "seat_turns"])
        {
            assert_eq!(m[k], one[k], "{n} shards: '{k}' differs");
        }
        assert!(m["mean_turn_score_se"].as_f64().unwrap() > 0.0);
        has_merge_note(&files);
    }
}

#[test]
fn doom_game_shards_merge_to_the_single_run() {
    let args = [
        "--games",
        "240",
        "--target",
        "4000",
        "--seat",
        "optimal",
        "--seat",
        "bank-at:400",
        "--seed",
        "8",
    ];
    let one = single("doom", &args);
    let files = shards("doom", &args, 3, "doom-games");
    let m = merged_json(&files);
    for k in SAME_DOOM.iter().chain(&[
        "games",
        "games_unfinished",
        "seats",
        "win_rate",
        "win_rate_by_position",
        "win_rate_by_strategy",
        "turns_per_game",
        "first_player_advantage",
        "final_score_histogram",
        "seat_turns",
    ]) {
        assert_eq!(m[k], one[k], "'{k}' differs");
    }
    assert_eq!(m["games"], 240);
    has_merge_note(&files);
}

#[test]
fn twentyone_shards_merge_to_the_single_run() {
    let args = ["--games", "12k", "--seed", "6"];
    let one = single("twenty-one", &args);
    let files = shards("twenty-one", &args, 4, "twentyone");
    let m = merged_json(&files);
    for k in [
        "game",
        "rules",
        "seed",
        "games",
        "seats",
        "win_rate",
        "score",
        "active_advantage",
        "hits_per_row",
        "rolls_per_game",
        "turns_per_game",
    ] {
        assert_eq!(m[k], one[k], "'{k}' differs");
    }
    assert_eq!(m["games"], 12000);
    has_merge_note(&files);
    // Fewer files than the run has shards: refused, naming the gap.
    let mut a = vec!["merge".to_string()];
    a.extend(files[1..].iter().map(|f| f.display().to_string()));
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    fails_with(&a, "missing");
}
