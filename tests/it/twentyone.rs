//! Twenty One through the real binary: report contract, determinism, sweep, exact pieces,
//! sheet and strategy files, bad input.

use crate::common::*;

#[test]
fn games_report_the_contract_keys_and_are_identical_for_any_thread_count() {
    let run = |threads: &str| {
        let mut j = json(&[
            "sim",
            "twenty-one",
            "--games",
            "5000",
            "--threads",
            threads,
            "--format",
            "json",
            "-q",
        ]);
        for k in RUN_ONLY_KEYS {
            j[k] = serde_json::Value::Null;
        }
        j
    };
    let a = run("1");
    assert_eq!(a, run("2"));
    for k in [
        "game",
        "rules",
        "seats",
        "seed",
        "games",
        "score",
        "win_rate",
        "rolls_per_game",
        "hits_per_row",
        "active_advantage",
    ] {
        assert!(!a[k].is_null(), "missing {k}");
    }
    assert_eq!(a["seats"].as_array().unwrap().len(), 4);
    let s0 = &a["score"][0];
    for k in ["mean", "sd", "quantiles", "histogram"] {
        assert!(!s0[k].is_null(), "score missing {k}");
    }
    let wins: f64 = a["win_rate"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["rate"].as_f64().unwrap())
        .sum();
    assert!(
        (wins - 1.0).abs() < 1e-9,
        "ties shared: rates sum to 1, got {wins}"
    );
    assert!(a["win_rate"][0]["se"].as_f64().unwrap() > 0.0);
}

#[test]
fn sheet_and_strategy_files_are_read() {
    let j = json(&[
        "sim",
        "twenty-one",
        "--games",
        "2000",
        "--sheets",
        "strategies/twenty-one/sheets-standard.csv",
        "--seat",
        "strategies/twenty-one/racer.txt",
        "--seat",
        "strategies/twenty-one/patient.txt",
        "--format",
        "json",
        "-q",
    ]);
    // The committed file holds the standard sheets: the same games as without it.
    let k = json(&[
        "sim",
        "twenty-one",
        "--games",
        "2000",
        "--seat",
        "row-optimal:5",
        "--seat",
        "hits-only+unless-hit",
        "--format",
        "json",
        "-q",
    ]);
    for seat in 0..2 {
        assert_eq!(j["score"][seat]["mean"], k["score"][seat]["mean"]);
        assert_eq!(j["win_rate"][seat]["rate"], k["win_rate"][seat]["rate"]);
    }
    assert!(j["seats"][0]["strategy"]
        .as_str()
        .unwrap()
        .contains("racer.txt (row-optimal:5)"));
}

#[test]
fn the_sweep_and_the_exact_pieces_run() {
    let j = json(&[
        "sim",
        "twenty-one",
        "--sweep-c",
        "0,4",
        "--games",
        "3000",
        "--format",
        "json",
        "-q",
    ]);
    assert_eq!(j["sweep"].as_array().unwrap().len(), 2);
    assert!(j["best_c"].is_number());
    let e = json(&[
        "exact",
        "twenty-one",
        "--row-policy",
        "--c",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(e["row_events"].as_array().unwrap().len(), 63);
    assert_eq!(e["row_events"][0]["p_any_legal"], 1.0);
    let states = e["row_policy"]["states"].as_array().unwrap();
    assert!(states.len() > 63);
    let whole = &states[0];
    let v = whole["value"].as_f64().unwrap();
    let p = whole["points"].as_f64().unwrap();
    let r = whole["rolls"].as_f64().unwrap();
    assert!((v - (p - 2.0 * r)).abs() < 1e-3, "{v} {p} {r}");
}

#[test]
fn bad_twenty_one_input_exits_2_with_a_clear_message() {
    fails_with(&["sim", "twenty-one", "--players", "7"], "1 to 6 players");
    fails_with(&["sim", "twenty-one", "--players", "0"], "1 to 6 players");
    fails_with(
        &["sim", "twenty-one", "--seat", "lucky", "--seat", "greedy"],
        "unknown twenty-one strategy 'lucky'",
    );
    fails_with(&["sim", "twenty-one", "--rerolls", "9"], "--rerolls 9");
    fails_with(&["sim", "twenty-one", "--games", "0"], "expected a count");
    let dir = temp_dir("t21-bad-sheet");
    let f = dir.join("sheets.csv");
    std::fs::write(&f, "A,1,W,K,R,B,Y,Y\n").unwrap();
    fails_with(
        &["sim", "twenty-one", "--sheets", f.to_str().unwrap()],
        "sheets.csv:1:8: colour yellow appears twice",
    );
    let mut two = String::new();
    for s in ["A", "B"] {
        for r in 1..=5 {
            two.push_str(&format!("{s},{r},W,K,R,B,Y,G\n"));
        }
    }
    std::fs::write(&f, two).unwrap();
    fails_with(
        &["sim", "twenty-one", "--sheets", f.to_str().unwrap()],
        "4 players need 4 different sheets",
    );
    fails_with(
        &[
            "sim",
            "twenty-one",
            "--seat",
            "no/such.txt",
            "--seat",
            "greedy",
        ],
        "--seat no/such.txt: no such file",
    );
}

#[test]
fn players_must_agree_with_the_seats() {
    fails_with(
        &[
            "sim",
            "twenty-one",
            "--players",
            "3",
            "--seat",
            "greedy",
            "--seat",
            "hits-only",
        ],
        "--players 3 disagrees with the 2 --seat given",
    );
    // With --sweep-c the table is the swept seat plus the --seat strategies (default three).
    fails_with(
        &["sim", "twenty-one", "--sweep-c", "1", "--players", "3"],
        "--players 3 disagrees with the sweep's table of 4",
    );
    // Agreeing, and --seat alone: both play with two seats.
    for extra in [&["--players", "2"][..], &[][..]] {
        let mut args = vec![
            "sim",
            "twenty-one",
            "--seat",
            "greedy",
            "--seat",
            "hits-only",
            "--games",
            "200",
            "--format",
            "json",
            "-q",
        ];
        args.extend_from_slice(extra);
        let j = json(&args);
        assert_eq!(j["win_rate"].as_array().unwrap().len(), 2);
    }
}

#[test]
fn advise_twenty_one_lists_writes_cross_out_and_reroll_best_first() {
    let j = json(&[
        "advise",
        "twenty-one",
        "--row",
        "W6 K5 R4 B3 Y2 G1",
        "--roll",
        "W3 K5 R1 B6 Y2 G4",
        "--rerolls-left",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(j["best"], 0);
    let opts = j["options"].as_array().unwrap();
    let evs: Vec<f64> = opts.iter().map(|o| o["ev"].as_f64().unwrap()).collect();
    assert!(evs.windows(2).all(|w| w[0] >= w[1]));
    // The two exact hits (K5 = 5, Y2 = 2) are worth 7 points and 3 of bonus now.
    let hits = opts
        .iter()
        .find(|o| o["action"] == "write K5=5 Y2=2")
        .unwrap();
    assert_eq!(hits["points_now"], 10);
    assert!(opts.iter().any(|o| o["action"] == "cross out W6"));
    assert!(opts.iter().any(|o| o["action"] == "re-roll the non-1 dice"));
    // B6 cannot go in B3 (above the printed value): no write names it.
    assert!(opts
        .iter()
        .all(|o| !o["action"].as_str().unwrap().contains("B3=")));
    fails_with(
        &[
            "advise",
            "twenty-one",
            "--row",
            "W6 K5 R4 B3 Y2 G1",
            "--filled",
            "W,W",
            "--roll",
            "W3 K5 R1 B6 Y2 G4",
        ],
        "--filled W,W",
    );
    // The box printed 1 filled in a row that is not full was written with a 1: a hit.
    fails_with(
        &[
            "advise",
            "twenty-one",
            "--row",
            "W6 K5 R4 B3 Y2 G1",
            "--filled",
            "W,G",
            "--roll",
            "W3 K5 R1 B6 Y2 G4",
        ],
        "--hits 0: box G1 (printed 1) is filled",
    );
    fails_with(
        &[
            "advise",
            "twenty-one",
            "--row",
            "W6 K5 R4",
            "--roll",
            "W3 K5 R1 B6 Y2 G4",
        ],
        "six boxes",
    );
    fails_with(
        &[
            "advise",
            "twenty-one",
            "--row",
            "W6 K5 R4 B3 Y2 G1",
            "--roll",
            "W3 K5 R1 B6 Y2 G9",
        ],
        "six dice",
    );
}
