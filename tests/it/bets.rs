//! `strategies bets blackjack`: the sheet in money from the command line, the ramp file sim
//! plays, the formats, and every bad input refused naming its flag.

use crate::common::*;

use serde_json::Value;

/// The money of the seed-table example, with a bankroll the target can be met with (10,000
/// cannot: docs/counting.md).
const MONEY: [&str; 8] = [
    "--bankroll",
    "150000",
    "--table-min",
    "25",
    "--table-max",
    "1000",
    "--chip",
    "5",
];

fn bets(extra: &[&str]) -> Value {
    let mut args = vec!["strategies", "bets", "blackjack", "--format", "json", "-q"];
    args.extend(extra);
    json(&args)
}

fn sheet(m: &Value) -> Vec<f64> {
    m["sheet"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["bet"].as_f64().unwrap())
        .collect()
}

#[test]
fn the_sheet_meets_its_target_in_chips_and_sim_plays_its_file() {
    let dir = temp_dir("bets-sheet");
    let file = dir.join("bets.txt");
    let run = dir.join("run.json");
    let (f, r) = (file.to_str().unwrap(), run.to_str().unwrap());
    let table = ["--count", "hi-lo", "--rounds", "2M", "--seed", "3"];
    let mut args: Vec<&str> = table.to_vec();
    args.extend(MONEY);
    args.extend(["--target-ror", "5%", "--bets-out", f]);
    let m = bets(&args);
    let b = sheet(&m);
    assert!(b.windows(2).all(|w| w[0] <= w[1]), "{b:?}");
    assert!(b
        .iter()
        .all(|&x| (25.0..=1000.0).contains(&x) && x % 5.0 == 0.0));
    assert_eq!(m["target_met"], true, "{m}");
    let ror = m["ror"].as_f64().unwrap();
    assert!(ror <= 0.05 && ror > 0.04, "{ror}");
    assert!(m["next_sheet"]["ror"].as_f64().unwrap() > 0.05);
    // The figures agree with each other: hourly = per round × rounds, N0 = (SD/EV)².
    let (ev, sd) = (
        m["ev_per_round"].as_f64().unwrap(),
        m["sd_per_round"].as_f64().unwrap(),
    );
    assert!((m["ev_per_hour"].as_f64().unwrap() - 100.0 * ev).abs() < 1e-9);
    assert!(
        (m["n0_rounds"].as_f64().unwrap() - (sd / ev).powi(2)).abs() < 1e-6 * (sd / ev).powi(2)
    );
    assert!((m["ror"].as_f64().unwrap() - (-2.0 * ev * 150_000.0 / (sd * sd)).exp()).abs() < 1e-12);
    // The file is a ramp of chips that sim plays: the same bets.
    assert_eq!(m["ramp_unit"], 5.0);
    let spec = m["ramp"].as_str().unwrap();
    let played = json(&[
        "sim",
        "blackjack",
        "--format",
        "json",
        "-q",
        "--count",
        "hi-lo",
        "--rounds",
        "20k",
        "--ramp",
        f,
    ]);
    let count = played["count"].as_str().unwrap();
    assert!(count.contains(&format!("ramp {spec}")), "{count} / {spec}");
    // The same table from the run's report gives the same sheet.
    let mut sim_args = vec!["sim", "blackjack", "--quiet", "--format", "json", "-o", r];
    sim_args.extend(table);
    succeeds(rtplab().args(&sim_args));
    let mut from = vec!["--from", r];
    from.extend(MONEY);
    from.extend(["--target-ror", "5%"]);
    assert_eq!(sheet(&bets(&from)), b);
}

#[test]
fn kelly_bets_are_the_fraction_of_the_bankroll_times_ev_over_variance() {
    let mut args = vec!["--count", "hi-lo", "--rounds", "2M", "--seed", "3"];
    args.extend(MONEY);
    args.extend(["--kelly", "0.5"]);
    let m = bets(&args);
    assert_eq!(m["sizing"], "kelly");
    for row in m["sheet"].as_array().unwrap() {
        let k = row["kelly_bet"].as_f64().unwrap();
        let bet = row["bet"].as_f64().unwrap();
        let want = (((k - 25.0) / 5.0 + 0.5).floor() * 5.0 + 25.0).clamp(25.0, 1000.0);
        assert_eq!(bet, want, "{row}");
        // The table minimum where Kelly's shape is 0 (no positive EV at or below the count).
        if k == 0.0 {
            assert_eq!(bet, 25.0);
        }
    }
}

#[test]
fn a_trip_is_checked_by_simulated_trips_and_every_format_renders() {
    let mut args = vec!["--count", "hi-lo", "--rounds", "2M", "--seed", "3"];
    args.extend(MONEY);
    args.extend([
        "--target-ror",
        "5%",
        "--trip-rounds",
        "20000",
        "--trials",
        "2000",
    ]);
    let m = bets(&args);
    let trip = &m["trip"];
    let (f, s, se) = (
        trip["ror"].as_f64().unwrap(),
        trip["simulated"]["share"].as_f64().unwrap(),
        trip["simulated"]["se"].as_f64().unwrap(),
    );
    assert!(f < m["ror"].as_f64().unwrap());
    let sef = (f * (1.0 - f) / 2000.0).sqrt();
    assert!((s - f).abs() < 3.5 * sef.max(se), "{s} vs {f}");
    for (format, needle) in [
        ("table", "Bet sheet by true count"),
        ("markdown", "Bet sheet by true count"),
        ("csv", "Bet sheet by true count"),
    ] {
        let mut a = vec!["strategies", "bets", "blackjack", "-q", "--format", format];
        a.extend(&args);
        let out = succeeds(rtplab().args(&a));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(needle), "{format}: {text}");
    }
}

#[test]
fn bad_money_and_sizing_exit_2_naming_the_flag() {
    let base = [
        "strategies",
        "bets",
        "blackjack",
        "--count",
        "hi-lo",
        "--rounds",
        "1000",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let m = |min: &str, max: &str, chip: &str, bank: &str| {
        vec![
            "--bankroll",
            bank,
            "--table-min",
            min,
            "--table-max",
            max,
            "--chip",
            chip,
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>()
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            [
                m("0", "1000", "5", "10000"),
                vec!["--target-ror".into(), "5%".into()],
            ]
            .concat(),
            "--table-min",
        ),
        (
            [
                m("25", "10", "5", "10000"),
                vec!["--target-ror".into(), "5%".into()],
            ]
            .concat(),
            "--table-max",
        ),
        (
            [
                m("25", "1000", "0", "10000"),
                vec!["--target-ror".into(), "5%".into()],
            ]
            .concat(),
            "--chip",
        ),
        (
            [
                m("25", "1000", "5", "10"),
                vec!["--target-ror".into(), "5%".into()],
            ]
            .concat(),
            "--bankroll",
        ),
        (
            [
                m("25", "1000", "5", "abc"),
                vec!["--target-ror".into(), "5%".into()],
            ]
            .concat(),
            "--bankroll",
        ),
        (
            [
                m("25", "1000", "5", "10000"),
                vec!["--target-ror".into(), "150%".into()],
            ]
            .concat(),
            "--target-ror",
        ),
        (
            [
                m("25", "1000", "5", "10000"),
                vec!["--kelly".into(), "0".into()],
            ]
            .concat(),
            "--kelly",
        ),
        (m("25", "1000", "5", "10000"), "--target-ror"),
        (
            [
                m("25", "1000", "5", "10000"),
                vec![
                    "--kelly".into(),
                    "0.5".into(),
                    "--target-ror".into(),
                    "5%".into(),
                ],
            ]
            .concat(),
            "--kelly",
        ),
        (
            [
                m("25", "1000", "5", "10000"),
                vec![
                    "--kelly".into(),
                    "0.5".into(),
                    "--trip-rounds".into(),
                    "100".into(),
                    "--trials".into(),
                    "5".into(),
                ],
            ]
            .concat(),
            "--trials",
        ),
        (
            [
                m("25", "1000", "5", "10000"),
                vec![
                    "--kelly".into(),
                    "0.5".into(),
                    "--rounds-per-hour".into(),
                    "0".into(),
                ],
            ]
            .concat(),
            "--rounds-per-hour",
        ),
        (
            [
                m("25", "1000", "10", "10000"),
                vec![
                    "--kelly".into(),
                    "0.5".into(),
                    "--bets-out".into(),
                    "/tmp/never-written-bets.txt".into(),
                ],
            ]
            .concat(),
            "--bets-out",
        ),
    ];
    for (extra, flag) in cases {
        let args = with(&extra.iter().map(String::as_str).collect::<Vec<_>>());
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        fails_with(&a, flag);
    }
    assert!(!std::path::Path::new("/tmp/never-written-bets.txt").exists());
    fails_with(
        &[
            "strategies",
            "bets",
            "blackjack",
            "--bankroll",
            "1000",
            "--table-min",
            "5",
            "--table-max",
            "50",
            "--kelly",
            "1",
        ],
        "--count SYSTEM is needed",
    );
}
