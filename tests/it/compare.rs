//! Strategy comparison with common random numbers.

use crate::common::*;

fn compare(args: &[&str]) -> serde_json::Value {
    let mut all = vec![
        "compare",
        "blackjack",
        "--rounds",
        "400k",
        "--quiet",
        "--format",
        "json",
    ];
    all.extend_from_slice(args);
    json(&all)
}

#[test]
fn a_strategy_against_itself_differs_by_exactly_zero() {
    let v = compare(&["--strategy", "basic", "--strategy", "basic"]);
    let p = &v["pairs"][0];
    assert_eq!(p["diff"].as_f64().unwrap(), 0.0);
    assert_eq!(p["se"].as_f64().unwrap(), 0.0);
    assert_eq!(v["strategies"][0]["rank"], 1);
    assert_eq!(v["strategies"][1]["rank"], 1);
}

#[test]
fn paired_standard_errors_beat_independent_ones_for_correlated_strategies() {
    // A chart differing from basic in one cell: nearly every round is played the same.
    let dir = std::env::temp_dir().join(format!("rtplab-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let basic = std::fs::read_to_string("strategies/blackjack/seed.csv").unwrap();
    let variant = basic.replace("H16,S,S,S,S,S,H,H,Rh,H,H", "H16,S,S,S,S,S,H,H,H,H,H");
    assert_ne!(basic, variant);
    let path = dir.join("no-surrender.csv");
    std::fs::write(&path, variant).unwrap();
    let v = compare(&["--strategy", "basic", "--strategy", path.to_str().unwrap()]);
    let p = &v["pairs"][0];
    let (se, ind) = (
        p["se"].as_f64().unwrap(),
        p["se_independent"].as_f64().unwrap(),
    );
    assert!(
        se > 0.0 && se * 3.0 < ind,
        "paired {se} vs independent {ind}"
    );
    assert!(p["variance_reduction"].as_f64().unwrap() > 9.0);
    // Every round shuffled: autoplay and never-bust see the same cards round by round.
    let v = compare(&[
        "--strategy",
        "autoplay",
        "--strategy",
        "never-bust",
        "--shuffle-every-round",
    ]);
    let p = &v["pairs"][0];
    assert!(p["se"].as_f64().unwrap() * 2.0 < p["se_independent"].as_f64().unwrap());
    // A large, clear difference ranks the better strategy first.
    let v = compare(&["--strategy", "autoplay", "--strategy", "basic"]);
    let first = &v["strategies"][0];
    assert_eq!(first["rank"], 1);
    assert!(first["strategy"]["name"]
        .as_str()
        .unwrap()
        .starts_with("basic (the chart derived for these rules)"));
    assert_eq!(v["strategies"][1]["rank"], 2);
}

#[test]
fn counts_compare_by_ev_per_round_and_score_on_the_same_shoes() {
    let ramp = "0:1,1:2,2:4,3:8,4:12";
    let v = compare(&[
        "--count", "hi-lo", "--count", "halves", "--count", "hi-lo", "--ramp", ramp,
    ]);
    assert!(v["estimate"]
        .as_str()
        .unwrap()
        .starts_with("EV per round played"));
    let rows = v["strategies"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for r in rows {
        let (score, se) = (
            r["score"].as_f64().unwrap(),
            r["score_se"].as_f64().unwrap(),
        );
        assert!(score.is_finite() && se > 0.0, "{r}");
        // EV per round in table minimums is not a return per amount bet: no RTP.
        assert!(r["rtp"].is_null(), "{r}");
        assert!(r["strategy"]["name"]
            .as_str()
            .unwrap()
            .contains("ramp 0:1,1:2"));
    }
    let pairs = v["pairs"].as_array().unwrap();
    let f = |p: &serde_json::Value, k: &str| p[k].as_f64().unwrap();
    // Hi-Lo against itself: exactly zero, SCORE too.
    let same = pairs
        .iter()
        .find(|p| {
            p["a"].as_str().unwrap().starts_with("Hi-Lo")
                && p["b"].as_str().unwrap().starts_with("Hi-Lo")
        })
        .unwrap();
    assert_eq!((f(same, "diff"), f(same, "se")), (0.0, 0.0));
    assert_eq!((f(same, "score_diff"), f(same, "score_se")), (0.0, 0.0));
    // Two counts on the same shoes: the pairing gains, for EV and SCORE alike.
    let other = pairs
        .iter()
        .find(|p| {
            p["b"].as_str().unwrap().starts_with("Wong Halves")
                || p["a"].as_str().unwrap().starts_with("Wong Halves")
        })
        .unwrap();
    assert!(f(other, "se") * 2.0 < f(other, "se_independent"), "{other}");
    assert!(f(other, "score_se") > 0.0);
    // A penetration sweep: one configuration per cut card, deeper plays more rounds.
    let v = compare(&[
        "--count",
        "hi-lo",
        "--ramp",
        ramp,
        "--penetrations",
        "0.5,0.8",
    ]);
    // The header's rules line is the first configuration's and says the rows differ.
    assert!(v["rules"]
        .as_str()
        .unwrap()
        .ends_with("(the first configuration's; the rows differ, see their labels; all play the same shoes, so a deeper cut deals more rounds)"));
    let rows = v["strategies"].as_array().unwrap();
    let obs = |cut: &str| {
        rows.iter()
            .find(|r| r["strategy"]["name"].as_str().unwrap().ends_with(cut))
            .unwrap()["observations"]
            .as_u64()
            .unwrap()
    };
    assert!(obs("cut card at 80%") > obs("cut card at 50%"));
    fails_with(
        &[
            "compare",
            "blackjack",
            "--strategy",
            "basic",
            "--strategy",
            "autoplay",
            "--ramp",
            "0:1",
        ],
        "--ramp needs --count",
    );
    fails_with(
        &[
            "compare",
            "blackjack",
            "--count",
            "hi-lo",
            "--penetrations",
            "1.5",
        ],
        "--penetration",
    );
}

#[test]
fn compare_needs_two_strategies() {
    let out = rtplab()
        .args(["compare", "blackjack", "--strategy", "basic"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least two"));
}

/// Baccarat bets compared on the same shoes: the same seed gives each bet exactly the numbers
/// of its own `sim baccarat` run (the shoes do not depend on the bets), and a bet compared with
/// itself differs by exactly zero.
#[test]
fn baccarat_bets_compare_on_the_same_shoes() {
    let v = json(&[
        "compare", "baccarat", "--bet", "banker", "--bet", "player", "--bet", "banker", "--coups",
        "200k", "--seed", "4", "--format", "json", "-q",
    ]);
    assert_eq!(v["game"], "baccarat");
    let rows = v["strategies"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let banker = rows
        .iter()
        .find(|r| r["strategy"]["name"] == "banker (#1)")
        .unwrap();
    let sim = json(&[
        "sim", "baccarat", "--bet", "banker", "--coups", "200k", "--seed", "4", "--format", "json",
        "-q",
    ]);
    assert_eq!(
        banker["ev"].as_f64().unwrap() + 1.0,
        banker["rtp"].as_f64().unwrap()
    );
    let r = sim["rtp"].as_f64().unwrap();
    assert!(
        (r - banker["rtp"].as_f64().unwrap()).abs() < 1e-12,
        "{r} {banker}"
    );
    let same = v["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["a"] == "banker (#1)" && p["b"] == "banker (#3)")
        .unwrap();
    assert_eq!(
        (same["diff"].as_f64(), same["se"].as_f64()),
        (Some(0.0), Some(0.0))
    );
    // Banker and player results are negatively correlated on the same coups: the paired SE
    // is larger than two independent runs', and the report says so (factor below 1).
    let bp = v["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["b"] == "player")
        .unwrap();
    assert!(bp["variance_reduction"].as_f64().unwrap() < 1.0, "{bp}");
    // Sharding a comparison is refused.
    let out = std::env::temp_dir().join(format!("rtplab-compare-{}.json", std::process::id()));
    fails_with(
        &[
            "compare",
            "baccarat",
            "--bet",
            "banker",
            "--bet",
            "player",
            "--shard",
            "1/2",
            "--shard-out",
            out.to_str().unwrap(),
        ],
        "cannot be sharded",
    );
    // Every sharding flag is refused in those words (not clap's nearest other flag), and
    // none is offered in the help.
    for flag in ["--shard=1/2", "--shards", "--shard-out", "--checkpoint"] {
        let mut args = vec!["compare", "doom", "--strategy", "optimal", "--strategy"];
        args.extend(["bank-at:300", flag]);
        if !flag.contains('=') {
            args.push("2");
        }
        fails_with(
            &args,
            "compare runs every strategy on the same streams in one process",
        );
    }
    for game in ["blackjack", "baccarat", "doom"] {
        let out = succeeds(rtplab().args(["compare", game, "--help"]));
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(
            !help.contains("--shard") && !help.contains("--checkpoint"),
            "{help}"
        );
    }
    // Inside an array job (or a Kubernetes indexed job) every task would run all of it.
    for var in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"] {
        let out = rtplab()
            .env(var, "3")
            .args(["compare", "baccarat", "--bet", "banker", "--bet", "player"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!("{var}=3 is set")) && err.contains("run compare as a single job"),
            "{err}"
        );
    }
}

/// Dice of Doom turn strategies compared on the same streams: the first strategy's estimate is
/// its own `sim doom --turns` run (same seed, same chunks), the optimal policy ranks first
/// within 4 SE of its exact turn EV, and the pairing reduces the variance (the dice of a turn
/// start from the same stream).
#[test]
fn doom_strategies_compare_on_the_same_streams() {
    let v = json(&[
        "compare",
        "doom",
        "--strategy",
        "optimal",
        "--strategy",
        "bank-at:300",
        "--turns",
        "200k",
        "--seed",
        "3",
        "--format",
        "json",
        "-q",
    ]);
    let sim = json(&[
        "sim",
        "doom",
        "--turns",
        "200k",
        "--strategy",
        "optimal",
        "--seed",
        "3",
        "--format",
        "json",
        "-q",
    ]);
    let first = &v["strategies"][0];
    assert_eq!(first["strategy"]["name"], "optimal");
    assert_eq!(first["rank"], 1);
    // The strategies' solves before the run are timed apart from it, as in sim.
    assert!(
        v["setup_s"].as_f64().is_some_and(|t| t > 0.0),
        "{}",
        v["setup_s"]
    );
    assert!(v["elapsed_s"].as_f64().is_some());
    assert_eq!(first["ev"], sim["mean_turn_score"]);
    assert_eq!(first["ev_se"], sim["mean_turn_score_se"]);
    assert!(
        first.get("rtp").is_none(),
        "a dice game has no RTP: {first}"
    );
    let exact = sim["exact_turn_ev"].as_f64().unwrap();
    let z = (first["ev"].as_f64().unwrap() - exact) / first["ev_se"].as_f64().unwrap();
    assert!(z.abs() < 4.0, "z = {z}");
    assert!(
        v["pairs"][0]["variance_reduction"].as_f64().unwrap() > 1.0,
        "{v}"
    );
}
