//! `rtplab monitor`: periods against the expected RTP, exit codes, errors.

use crate::common::*;

/// Expected RTP 99% per amount wagered, SD 1 per round, at most 12 returned per amount wagered.
const EXPECTED: &str = r#"{"monitoring": {"rtp_total_wagered": 0.99, "sd_per_round": 1.0, "max_return_per_wagered": 12}}"#;

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn periods_in_and_out_of_band_set_the_exit_code() {
    let d = temp_dir("monitor");
    let expected = write(&d, "expected.json", EXPECTED);
    // SE of a 10,000-round period: 1%; 99.5% is z = +0.5, 95% is z = −4.
    let good = write(
        &d,
        "good.csv",
        "period,rounds,wagered,returned\nmon,10000,10000,9950\n",
    );
    let bad = write(
        &d,
        "bad.csv",
        "period,rounds,wagered,returned\nmon,10000,10000,9950\ntue,10000,10000,9500\n",
    );
    let out = rtplab()
        .args([
            "monitor",
            "--expected",
            &expected,
            &good,
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = &v["periods"][0];
    for key in [
        "period", "rounds", "wagered", "returned", "rtp", "z", "in_band",
    ] {
        assert!(p.get(key).is_some(), "{key}");
    }
    assert_eq!(p["in_band"], true);
    let out = rtplab()
        .args(["monitor", "--expected", &expected, &bad, "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["out_of_band"], 1);
    assert_eq!(v["periods"][1]["in_band"], false);
    assert!((v["periods"][1]["z"].as_f64().unwrap() + 4.0).abs() < 1e-9);
    // At 99.9% (|z| <= 3.29) tuesday is still out; a wider level changes the band only.
    let out = rtplab()
        .args(["monitor", "--expected", &expected, &bad, "--level", "99.9"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    // A simulation report is an expectation too, and the funnel plot is written.
    let sim = d.join("sim");
    succeeds(rtplab().args([
        "sim",
        "blackjack",
        "--rounds",
        "200k",
        "--quiet",
        "--out-dir",
        sim.to_str().unwrap(),
    ]));
    let report = sim.join("report.json");
    let plots = d.join("plots");
    let out = rtplab()
        .args([
            "monitor",
            "--expected",
            report.to_str().unwrap(),
            &good,
            "--out-dir",
            plots.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(out.status.code().unwrap() <= 1, "{out:?}");
    let svg = std::fs::read_to_string(plots.join("funnel.svg")).unwrap();
    assert!(svg.contains("acceptance funnel"));
}

/// Before: a dossier whose simulation a signal stopped (`identity.interrupted`, its
/// `monitoring` object whole) was taken as the expectation; a simulation report of an
/// interrupted run was already refused. Now both are, saying what to do.
#[test]
fn an_interrupted_audit_is_no_expectation() {
    let d = temp_dir("monitor-interrupted-audit");
    let log = write(
        &d,
        "log.csv",
        "period,rounds,wagered,returned\nmon,1000,1000,990\n",
    );
    let dossier = std::fs::read_to_string("reports/audit-seed-table/report.json").unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&dossier).unwrap();
    succeeds(rtplab().args([
        "monitor",
        "--expected",
        "reports/audit-seed-table/report.json",
        &log,
    ]));
    v["identity"]["interrupted"] = true.into();
    let partial = write(&d, "partial.json", &v.to_string());
    fails_with(
        &["monitor", "--expected", &partial, &log],
        "the dossier is of an interrupted (partial) audit",
    );
    fails_with(&["monitor", "--expected", &partial, &log], "--rounds 0");
}

#[test]
fn bad_monitoring_input_exits_2_naming_what_is_wrong() {
    let d = temp_dir("monitor-bad");
    let expected = write(&d, "expected.json", EXPECTED);
    let log = write(
        &d,
        "log.csv",
        "period,rounds,wagered,returned\nmon,10,x,9\n",
    );
    let good = write(
        &d,
        "good.csv",
        "period,rounds,wagered,returned\nmon,10,10,9\n",
    );
    let not_json = write(&d, "x.json", "period,rounds\n");
    let no_rtp = write(&d, "y.json", r#"{"ev": 0.1}"#);
    let logp = log.clone();
    for (args, needle) in [
        (
            vec!["monitor", "--expected", &expected, &log],
            format!("{logp}:2:3:"),
        ),
        (
            vec!["monitor", "--expected", &not_json, &good],
            "not a JSON report".into(),
        ),
        (
            vec!["monitor", "--expected", &no_rtp, &good],
            "no expected RTP".into(),
        ),
        (
            vec!["monitor", "--expected", &expected, &good, "--level", "90"],
            "--level 90".into(),
        ),
        (
            vec!["monitor", "--expected", &expected, "no-such.csv"],
            "no such file".into(),
        ),
    ] {
        fails_with(&args, &needle);
    }
}

#[test]
fn a_flat_baccarat_report_is_an_expectation_and_a_staking_plan_is_not() {
    let d = temp_dir("monitor-baccarat");
    let root = env!("CARGO_MANIFEST_DIR");
    let banker = format!("{root}/reports/baccarat-banker/report.json");
    // SE of a 10,000-coup period: 0.927/100 = 0.93%; 98.9% is z = -0.05.
    let log = write(
        &d,
        "coups.csv",
        "period,rounds,wagered,returned\nshoe 1,10000,10000,9890\n",
    );
    let out = rtplab()
        .args(["monitor", "--expected", &banker, &log, "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["expected"]["rtp"], 0.989420942157528);
    assert_eq!(v["periods"][0]["in_band"], true);
    let martingale = format!("{root}/reports/baccarat-martingale/report.json");
    let out = rtplab()
        .args(["monitor", "--expected", &martingale, &log])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("whose bets vary"), "{err}");
}

#[test]
fn the_log_can_come_from_standard_input() {
    let d = temp_dir("monitor-stdin");
    let expected = write(&d, "expected.json", EXPECTED);
    let out = rtplab()
        .args(["monitor", "--expected", &expected, "-", "--format", "json"])
        .write_stdin("period,rounds,wagered,returned\nmon,10000,10000,9950\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["log"]["name"], "standard input");
    assert_eq!(v["periods"][0]["rtp"], 0.995);
    // Errors name standard input, line and column.
    let out = rtplab()
        .args(["monitor", "--expected", &expected, "-"])
        .write_stdin("period,rounds,wagered,returned\nmon,ten,10000,9950\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("standard input:2:"), "{err}");
}

/// Every committed report that monitor takes as an expectation states the most a round
/// returns: a period that returned 1000 times its stake is a data error (exit 2, its line),
/// never a verdict of "RTP 100000%".
#[test]
fn committed_expectations_refuse_a_period_no_round_can_return() {
    let d = temp_dir("monitor-bound");
    let root = env!("CARGO_MANIFEST_DIR");
    let log = write(
        &d,
        "forged.csv",
        "period,rounds,wagered,returned\nmon,1000,1000,1000000\n",
    );
    for (report, most) in [
        ("seed-table", "12"),
        ("seed-table-obo", "12"),
        ("seed-table-autoplay", "12"),
        ("audit-seed-table", "12"),
        ("baccarat-banker", "1.95"),
    ] {
        let expected = format!("{root}/reports/{report}/report.json");
        let out = rtplab()
            .args(["monitor", "--expected", &expected, &log])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{report}: {err}");
        assert!(
            err.contains(&format!(
                "{log}:2:4: returned 1000000 is more than {most} times the amount wagered 1000"
            )),
            "{report}: {err}"
        );
    }
}

/// A long log is read a row at a time: the report and its folder stay small (rows of merged
/// periods, at most 400 to a table), and every period is still judged on its own.
#[test]
fn a_long_log_gives_a_small_report() {
    use std::fmt::Write;
    let d = temp_dir("monitor-long");
    let expected = write(&d, "expected.json", EXPECTED);
    // 200,000 periods of 10,000 rounds at about the expected 99% (z within ±1.5), one at
    // 95% (z = -4).
    let mut log = String::from("period,rounds,wagered,returned\n");
    for i in 0..200_000u32 {
        let returned = if i == 123_456 {
            9500
        } else {
            9900 + (i * 7919 % 301) as i32 - 150
        };
        writeln!(log, "2025-{i:06},10000,10000,{returned}").unwrap();
    }
    let log = write(&d, "long.csv", &log);
    let out_dir = d.join("out");
    let out = rtplab()
        .args([
            "monitor",
            "--expected",
            &expected,
            &log,
            "--out-dir",
            out_dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let mut bytes = 0;
    for f in std::fs::read_dir(&out_dir).unwrap() {
        bytes += f.unwrap().metadata().unwrap().len();
    }
    assert!(bytes < 5 << 20, "the report's folder holds {bytes} bytes");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("report.json")).unwrap())
            .unwrap();
    assert_eq!(v["log_periods"], 200_000);
    assert_eq!(v["out_of_band"], 1);
    assert_eq!(v["out_of_band_periods"][0]["period"], "2025-123456");
    let rows = v["periods"].as_array().unwrap();
    assert!(rows.len() <= 400 && rows.len() > 200, "{} rows", rows.len());
    assert_eq!(v["cumulative"].as_array().unwrap().len(), rows.len());
    let shown: u64 = rows.iter().map(|r| r["periods"].as_u64().unwrap()).sum();
    assert_eq!(shown, 200_000);
}

/// A game that pays twice the stake with chance 0.495, else nothing: RTP 99%, SD of a round's
/// return per unit staked 2·√(0.495 × 0.505).
fn coin_expected() -> String {
    format!(
        r#"{{"monitoring": {{"rtp_total_wagered": 0.99, "sd_per_round": {}, "max_return_per_wagered": 2}}}}"#,
        2.0 * (0.495f64 * 0.505).sqrt()
    )
}

/// SplitMix64: a small deterministic stream for the tests' play.
struct Mix(u64);

impl Mix {
    /// Uniform on [0, 1).
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) as f64 / 2f64.powi(64)
    }
}

/// `n` periods (`day 1`, `day 2`, …) of `rounds` rounds of the coin game, each round's stake a
/// whole number from 1 to 100 spread evenly on a log scale (10^(2u) rounded), as
/// `monitor::PeriodLogRow` keeps them.
fn coin_periods(n: usize, rounds: u64, seed: u64) -> Vec<rtplab::monitor::PeriodLogRow> {
    let mut mix = Mix(seed);
    (1..=n)
        .map(|d| {
            let mut row = rtplab::monitor::PeriodLogRow::new(format!("day {d}"));
            for _ in 0..rounds {
                let stake = 100f64.powf(mix.unit()).round();
                let won = mix.unit() < 0.495;
                row.add_round(stake, if won { 2.0 * stake } else { 0.0 });
            }
            row
        })
        .collect()
}

/// The log of `rows` with the `stake_sq` column, and without it.
fn logs_of(rows: &[rtplab::monitor::PeriodLogRow]) -> (String, String) {
    use rtplab::monitor::PeriodLogRow;
    let mut with = format!("{}\n", PeriodLogRow::HEADER);
    let mut without = String::from("period,rounds,wagered,returned\n");
    for r in rows {
        let line = r.to_csv();
        with += &format!("{line}\n");
        without += &format!("{}\n", line.rsplit_once(',').unwrap().0);
    }
    (with, without)
}

/// Stakes from 1 to 100 in a round: with `stake_sq` about 1% of 2,000 periods fall outside the
/// 99% band, as they should; without it the band taken from equal stakes is about 1.5 times
/// too narrow, and about 9% do (false alarms), the report saying its band is a lower bound.
#[test]
fn stakes_that_vary_need_stake_sq_for_the_true_band() {
    let d = temp_dir("monitor-stakes");
    let expected = write(&d, "coin.json", &coin_expected());
    let rows = coin_periods(2000, 1000, 63);
    // The stakes' spread: the equal-stakes band is this much too narrow.
    let (r, w, sq) = rows.iter().fold((0.0, 0.0, 0.0), |a, p| {
        (a.0 + p.rounds as f64, a.1 + p.wagered, a.2 + p.stake_sq)
    });
    let spread = (r * sq).sqrt() / w;
    assert!((1.4..1.7).contains(&spread), "{spread}");
    let (with, without) = logs_of(&rows);
    let with = write(&d, "with.csv", &with);
    let without = write(&d, "without.csv", &without);
    let run = |log: &str, format: &str| {
        let out = rtplab()
            .args(["monitor", "--expected", &expected, log, "--format", format])
            .output()
            .unwrap();
        assert!(out.status.code().unwrap() <= 1, "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let v: serde_json::Value = serde_json::from_str(&run(&with, "json")).unwrap();
    assert_eq!(v["band_width"], "stakes");
    let out_with = v["out_of_band"].as_u64().unwrap();
    let n: serde_json::Value = serde_json::from_str(&run(&without, "json")).unwrap();
    assert_eq!(n["band_width"], "lower_bound");
    let out_without = n["out_of_band"].as_u64().unwrap();
    // Nominal 1%: 20 of 2,000 (SD 4.4). Without the column P(|z| > 2.576/spread): about 9%.
    eprintln!("spread {spread:.3}: {out_with} out of band with stake_sq, {out_without} without");
    assert!((8..=36).contains(&out_with), "{out_with}");
    assert!(out_without > 120, "{out_without}");
    // A row's SE with the column is the equal-stakes SE times its own stakes' spread (the log
    // is shown 8 periods to a row: their sums).
    let k = v["periods_per_row"].as_u64().unwrap() as usize;
    assert_eq!(k, 8);
    let (r, w, sq) = rows[..k].iter().fold((0.0, 0.0, 0.0), |a, p| {
        (a.0 + p.rounds as f64, a.1 + p.wagered, a.2 + p.stake_sq)
    });
    assert_eq!(v["periods"][0]["stake_sq"].as_f64(), Some(sq));
    let (se, se_eq) = (
        v["periods"][0]["se"].as_f64().unwrap(),
        n["periods"][0]["se"].as_f64().unwrap(),
    );
    let own = (r * sq).sqrt() / w;
    assert!((se / se_eq / own - 1.0).abs() < 1e-12, "{se} {se_eq} {own}");
    // Every format says when the band is a lower bound, and only then.
    for format in ["table", "markdown", "csv", "html"] {
        assert!(run(&without, format).contains("LOWER BOUND"), "{format}");
        assert!(!run(&with, format).contains("LOWER BOUND"), "{format}");
    }
}

/// The red names on a control chart (its out-of-band labels).
fn red_names(svg: &str) -> Vec<String> {
    svg.split("fill=\"#A00000\">\n")
        .skip(1)
        .map(|t| t.lines().next().unwrap().to_string())
        .collect()
}

#[test]
fn the_control_chart_names_the_periods_out_of_band() {
    let d = temp_dir("monitor-control");
    let expected = write(&d, "coin.json", &coin_expected());
    let sd = 2.0 * (0.495f64 * 0.505).sqrt();
    // Period `i` (from 0) moved to z = `z`.
    let plant = |rows: &mut [rtplab::monitor::PeriodLogRow], i: usize, z: f64| {
        let p = &mut rows[i];
        p.returned = p.wagered * (0.99 + z * sd * p.stake_sq.sqrt() / p.wagered);
    };
    // A week: wed and sat planted out, their names on the chart.
    let mut week = coin_periods(7, 1000, 7);
    let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
    for (r, day) in week.iter_mut().zip(days) {
        r.period = day.into();
    }
    plant(&mut week, 2, -4.0);
    plant(&mut week, 5, 3.5);
    let log = write(&d, "week.csv", &logs_of(&week).0);
    let out_dir = d.join("week");
    let out = rtplab()
        .args(["monitor", "--expected", &expected, &log, "--out-dir"])
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let svg = std::fs::read_to_string(out_dir.join("control-chart.svg")).unwrap();
    assert_eq!(red_names(&svg), ["wed", "sat"]);
    assert!(svg.contains("(2 of 7 out)"), "{svg}");
    // Every day's name on the axis.
    for day in days {
        assert!(svg.contains(&format!(">\n{day}\n</text>")), "{day}");
    }
    // 1,000 periods, shown in rows of 4: the 10 farthest of 12 planted are named.
    let mut rows = coin_periods(1000, 500, 1000);
    let planted: Vec<usize> = (0..12).map(|k| 40 + 80 * k).collect();
    for (k, &i) in planted.iter().enumerate() {
        let z = 5.0 + k as f64 / 4.0;
        plant(&mut rows, i, if k % 2 == 0 { z } else { -z });
    }
    let log = write(&d, "long.csv", &logs_of(&rows).0);
    let out_dir = d.join("long");
    let out = rtplab()
        .args(["monitor", "--expected", &expected, &log, "--out-dir"])
        .arg(&out_dir)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["periods_per_row"], 4);
    let svg = std::fs::read_to_string(out_dir.join("control-chart.svg")).unwrap();
    let want: Vec<String> = planted[2..]
        .iter()
        .map(|i| format!("day {}", i + 1))
        .collect();
    assert_eq!(red_names(&svg), want);
    let far: Vec<&str> = v["farthest_out_of_band"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["period"].as_str().unwrap())
        .collect();
    assert_eq!(far, want);
}

#[test]
fn a_stake_sq_no_stakes_can_have_exits_2_naming_line_and_field() {
    let d = temp_dir("monitor-bad-stakes");
    let expected = write(&d, "expected.json", EXPECTED);
    // 10 rounds wagering 100: Σb² at least 100²/10 = 1,000, at most 100² = 10,000.
    for (sq, why) in [
        ("999", "less than wagered²/rounds = 1000"),
        ("10001", "more than wagered² = 10000"),
        ("-1", "expected a positive amount"),
    ] {
        let log = write(
            &d,
            "log.csv",
            &format!(
                "period,rounds,wagered,returned,stake_sq\nmon,10,100,99,1000\ntue,10,100,99,{sq}\n"
            ),
        );
        fails_with(
            &["monitor", "--expected", &expected, &log],
            &format!("{log}:3:5: stake_sq"),
        );
        fails_with(&["monitor", "--expected", &expected, &log], why);
    }
}
