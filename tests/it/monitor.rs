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
