//! Dice of Doom through the real binary: exact values, simulation vs exact, determinism,
//! strategy files, bad input.

mod common;
use common::*;

fn r3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[test]
fn exact_reproduces_the_published_values_and_has_the_contract_keys() {
    let j = json(&["exact", "doom", "--rules", "s2-common", "--format", "json"]);
    assert_eq!(r3(j["turn_ev"].as_f64().unwrap()), 548.858);
    for k in [
        "bank_thresholds",
        "p_bust_by_dice",
        "bank_at_sweep",
        "rules",
        "method",
    ] {
        assert!(!j[k].is_null(), "missing {k}");
    }
    // V(150, 4) = 307.673 is row 150 (index 3), 4 dice (index 3).
    assert_eq!(r3(j["values"][3]["v"][3].as_f64().unwrap()), 307.673);
    let z = json(&[
        "exact",
        "doom",
        "--rules",
        "zilch",
        "--sweep-max",
        "400",
        "--format",
        "json",
    ]);
    assert_eq!(r3(z["turn_ev"].as_f64().unwrap()), 620.855);
    // P(farkle) with six dice under S2: 2.315%.
    let p6 = j["p_bust_by_dice"][5]["farkle"].as_f64().unwrap();
    assert!((p6 - 0.023148).abs() < 1e-6, "{p6}");
}

#[test]
fn simulated_turns_agree_with_exact_for_a_threshold_and_a_file_strategy() {
    for strategy in ["bank-at:300", "strategies/doom/by-dice-left.txt"] {
        let j = json(&[
            "sim",
            "doom",
            "--turns",
            "300k",
            "--strategy",
            strategy,
            "--format",
            "json",
            "-q",
        ]);
        let z = j["z_vs_exact"].as_f64().unwrap();
        assert!(z.abs() < 4.0, "{strategy}: z = {z}");
        for k in [
            "game",
            "rules",
            "strategy",
            "seed",
            "turns",
            "mean_turn_score",
            "mean_turn_score_se",
            "p_bust",
            "turn_score_histogram",
            "elapsed_s",
        ] {
            assert!(!j[k].is_null(), "missing {k}");
        }
        let hist: u64 = j["turn_score_histogram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["count"].as_u64().unwrap())
            .sum();
        assert_eq!(hist, 300_000);
    }
}

#[test]
fn games_are_identical_for_any_thread_count() {
    let run = |threads: &str| {
        let mut j = json(&[
            "sim",
            "doom",
            "--games",
            "400",
            "--seat",
            "optimal",
            "--seat",
            "bank-at:300",
            "--seat",
            "endgame:450",
            "--target",
            "10000",
            "--threads",
            threads,
            "--format",
            "json",
            "-q",
        ]);
        for k in ["elapsed_s", "turns_per_s", "threads"] {
            j[k] = serde_json::Value::Null;
        }
        j
    };
    let a = run("1");
    assert_eq!(a, run("2"));
    assert_eq!(a["games"], 400);
    let rates: f64 = a["win_rate"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["rate"].as_f64().unwrap())
        .sum();
    assert!((rates - 1.0).abs() < 1e-12, "{rates}");
    assert!(!a["first_player_advantage"].is_null());
}

#[test]
fn bad_doom_input_exits_2_with_a_clear_message() {
    fails_with(&["sim", "doom", "--doom", "9"], "from 1 to 6");
    fails_with(
        &["sim", "doom", "--strategy", "bank-at:lots"],
        "not a whole number",
    );
    fails_with(&["sim", "doom", "--players", "9"], "2 to 8 players");
    fails_with(&["sim", "doom", "--seat", "optimal"], "2 to 8 players");
    fails_with(&["sim", "doom", "--target", "0"], "expected a count");
    fails_with(&["sim", "doom", "--games", "1e15"], "expected a count");
    fails_with(
        &["exact", "doom", "--min-bank", "20000", "--target", "10000"],
        "--min-bank",
    );
    fails_with(&["sim", "doom", "--start-seat", "7"], "only 4 seats");
    let dir = temp_dir("doom-bad-strategy");
    let f = dir.join("bad.txt");
    std::fs::write(&f, "# comment\n\nthresholds:1,2,3\n").unwrap();
    fails_with(
        &["sim", "doom", "--strategy", f.to_str().unwrap()],
        "bad.txt:3: strategy 'thresholds:1,2,3': thresholds needs 6 values",
    );
}
