//! `rtplab risk`: the figures from flags and from reports, the simulated check, the formats,
//! and every bad input refused with exit code 2, naming the flag.

use crate::common::*;

/// Hall's example: wph 0.0151, asw 3.887 (so SD √(3.887 − 0.0151²)), 300 units, doubling.
const HALL: [&str; 8] = [
    "risk",
    "--ev",
    "0.0151",
    "--sd",
    "1.97149",
    "--bankroll",
    "300",
    "-q",
];

#[test]
fn halls_example_gives_8_86_percent_and_agrees_with_its_walks() {
    let mut args = HALL.to_vec();
    args.extend(["--goal", "300", "--format", "json", "--trials", "2000"]);
    let j = json(&args);
    let ruin = j["goal"]["ruin_first"].as_f64().unwrap();
    assert!((100.0 * ruin - 8.86).abs() < 0.01, "{ruin}");
    assert_eq!(j["command"], "risk");
    assert_eq!(j["check"]["seed"], 1);
    assert_eq!(j["check"]["trials"], 2000);
    assert_eq!(j["check"]["agree"], true);
    let rows = j["check"]["rows"].as_array().unwrap();
    let goal = rows.iter().find(|r| r["check"] == "goal").unwrap();
    assert_eq!(goal["formula"].as_f64(), Some(ruin));
    assert!(goal["z"].as_f64().unwrap().abs() <= 4.0);
    assert!(goal["se"].as_f64().unwrap() > 0.0);
    // The percent form of EV is the same game.
    let mut pct = args.clone();
    pct[2] = "1.51%";
    assert_eq!(json(&pct)["goal"], j["goal"]);
}

#[test]
fn a_counting_report_gives_its_per_round_figures() {
    let j = json(&[
        "risk",
        "--from",
        "reports/counting-hilo-75pct/report.json",
        "--bankroll",
        "1000",
        "--rounds",
        "20000",
        "--target-ror",
        "5%",
        "--trials",
        "2000",
        "--format",
        "json",
        "-q",
    ]);
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("reports/counting-hilo-75pct/report.json").unwrap(),
    )
    .unwrap();
    assert_eq!(j["input"]["ev"], report["ev_per_round"]);
    assert_eq!(j["input"]["sd"], report["sd_per_round"]);
    assert_eq!(
        j["input"]["rounds_per_hour"],
        report["hourly"]["rounds_played_per_hour"]
    );
    // The figures docs/counting.md quotes from the same report.
    let life = j["lifetime"]["ror"].as_f64().unwrap();
    let trip = j["trip"]["ror"].as_f64().unwrap();
    let bank = j["target"]["bankroll"].as_f64().unwrap();
    assert!((100.0 * life - 77.13).abs() < 0.01, "{life}");
    assert!((100.0 * trip - 2.67).abs() < 0.01, "{trip}");
    assert_eq!(bank.round(), 11_536.0);
    assert_eq!(j["check"]["agree"], true);
}

#[test]
fn every_format_renders_and_the_seed_is_stated() {
    let mut args = HALL.to_vec();
    args.extend(["--trials", "1000", "--seed", "9"]);
    for (format, needle) in [
        ("table", "Simulated check"),
        ("markdown", "| check |"),
        ("csv", "simulated"),
        ("json", "\"seed\": 9"),
    ] {
        let mut a = args.clone();
        a.extend(["--format", format]);
        let out = succeeds(rtplab().args(&a));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(needle), "{format}: {text}");
    }
    let out = succeeds(rtplab().args(&args));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("1,000 walks per check (seed 9)"), "{text}");
    assert!(text.contains("lifetime risk of ruin, 300 units"), "{text}");
}

#[test]
fn out_dir_writes_the_report_files() {
    let d = temp_dir("risk-out");
    let od = d.join("od");
    let mut args = HALL.to_vec();
    args.extend(["--trials", "1000", "--out-dir", od.to_str().unwrap()]);
    succeeds(rtplab().args(&args));
    for f in ["report.md", "report.json", "report.html"] {
        assert!(od.join(f).is_file(), "{f}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// The longest run of digits in `t`.
fn longest_digits(t: &str) -> usize {
    t.split(|c: char| !c.is_ascii_digit())
        .map(str::len)
        .max()
        .unwrap_or(0)
}

/// Before: --sd 1e300 was taken, and the report printed its EV, SD and bounds in full decimal
/// (309 digits) beside an infinite variance; the CSV printed any raw number past 1e15 so too.
/// Now a figure beyond 1e15 units is refused, its message writes it as typed in short form,
/// and the largest figures taken print in scientific notation.
#[test]
fn figures_past_1e15_units_are_refused_and_large_ones_print_short() {
    for (args, needle) in [
        (
            &["--ev", "1e300", "--sd", "1e300", "--bankroll", "1"][..],
            "--sd 1e300: the SD per round must be a positive number of units of at most 1e15",
        ),
        (
            &["--ev", "-1e300", "--sd", "1", "--bankroll", "1"],
            "--ev -1e300: the EV per round must be a number of units from -1e15 to 1e15",
        ),
        (
            &["--ev", "0.01", "--sd", "1", "--bankroll", "1.7976931348623157e308"],
            "--bankroll 1.7976931348623157e308: the bankroll must be a positive number of units of at most 1e15",
        ),
        (
            &["--ev", "0.01", "--sd", "1", "--bankroll", "1", "--goal", "1e300"],
            "--goal 1e300:",
        ),
    ] {
        let out = rtplab().arg("risk").args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(longest_digits(&err) < 20, "{args:?}: {err}");
    }
    for format in ["table", "csv", "markdown", "json"] {
        let out = succeeds(rtplab().args([
            "risk",
            "--ev",
            "0.01",
            "--sd",
            "1e15",
            "--bankroll",
            "1e15",
            "--goal",
            "1e15",
            "--trials",
            "0",
            "--format",
            format,
        ]));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(longest_digits(&text) < 20, "{format}:\n{text}");
        assert!(!text.contains("inf"), "{format}:\n{text}");
    }
}

#[test]
fn bad_values_are_refused_with_exit_2_naming_the_flag() {
    let base = ["risk", "--ev", "0.01", "--sd", "1.1", "--bankroll", "100"];
    let with = |extra: &[&'static str]| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend(extra);
        a
    };
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["risk", "--ev", "0.01", "--sd", "-1", "--bankroll", "100"],
            "--sd -1: the SD per round must be a positive",
        ),
        (
            vec!["risk", "--ev", "0.01", "--sd", "0", "--bankroll", "100"],
            "--sd 0:",
        ),
        (
            vec!["risk", "--ev", "0.01", "--sd", "1", "--bankroll", "0"],
            "--bankroll 0: the bankroll must be a positive",
        ),
        (
            vec!["risk", "--ev", "0.01", "--sd", "1", "--bankroll", "-50"],
            "--bankroll -50:",
        ),
        (with(&["--goal", "0"]), "--goal 0: the win goal must be"),
        (with(&["--goal", "-3"]), "--goal -3:"),
        (with(&["--target-ror", "1.5"]), "--target-ror"),
        (with(&["--target-ror", "0"]), "a risk of ruin is above 0"),
        (with(&["--target-ror", "100%"]), "a risk of ruin is above 0"),
        (with(&["--rounds", "0"]), "--rounds"),
        (with(&["--trials", "10"]), "--trials 10:"),
        (with(&["--rounds-per-hour", "0"]), "--rounds-per-hour 0:"),
        (
            vec!["risk", "--ev", "abc", "--sd", "1", "--bankroll", "1"],
            "--ev",
        ),
        // Flags that go together, and the source of EV and SD.
        (vec!["risk", "--ev", "0.01", "--bankroll", "100"], "--sd"),
        (vec!["risk", "--bankroll", "100"], "--ev"),
        (vec!["risk", "--ev", "0.01", "--sd", "1"], "--bankroll"),
        (
            vec![
                "risk",
                "--ev",
                "0.01",
                "--sd",
                "1",
                "--goal",
                "5",
                "--target-ror",
                "5%",
            ],
            "--bankroll",
        ),
        (
            vec![
                "risk",
                "--ev",
                "0.01",
                "--sd",
                "1",
                "--from",
                "reports/counting-hilo-75pct/report.json",
                "--bankroll",
                "1",
            ],
            "cannot be used with",
        ),
    ];
    for (args, needle) in cases {
        fails_with(&args, needle);
    }
}

#[test]
fn reports_without_ev_and_sd_are_refused() {
    let d = temp_dir("risk-reports");
    let write = |name: &str, text: &str| {
        let p = d.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let run = |file: &str, needle: &str| {
        fails_with(&["risk", "--from", file, "--bankroll", "100"], needle);
    };
    // A non-blackjack report: Dice of Doom states no EV per round in units.
    let doom = write(
        "doom.json",
        r#"{"game": "doom", "mean_turn_score": 450.5, "turns": 1000}"#,
    );
    run(&doom, "a doom report states no EV and SD per round");
    run(&doom, "give --ev and --sd");
    // A blackjack report without them: the exact analysis's.
    run(
        "reports/seed-table-exact.json",
        "a blackjack report without its EV and SD per round",
    );
    let edited = write("edited.json", r#"{"game": "blackjack", "ev": -0.007}"#);
    run(&edited, "missing field");
    // No game at all, and not JSON.
    run(&write("none.json", r#"{"ev": 0.01}"#), "names no \"game\"");
    run(&write("text.json", "ev,sd\n0.01,1.1\n"), "not JSON");
    // A missing file: the door refuses it before any work.
    run(d.join("missing.json").to_str().unwrap(), "--from");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_losing_game_has_no_lifetime_check_but_its_trip_and_goal_are_checked() {
    let j = json(&[
        "risk",
        "--from",
        "reports/seed-table/report.json",
        "--bankroll",
        "100",
        "--rounds",
        "5000",
        "--goal",
        "50",
        "--trials",
        "2000",
        "--format",
        "json",
        "-q",
    ]);
    assert_eq!(j["lifetime"]["ror"], 1.0);
    assert_eq!(j["score"], serde_json::Value::Null);
    assert_eq!(j["double"]["mean_rounds"], serde_json::Value::Null);
    let checks: Vec<&str> = j["check"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["check"].as_str().unwrap())
        .collect();
    assert_eq!(checks, ["trip", "goal"]);
    assert_eq!(j["check"]["agree"], true);
}
