//! `sim baccarat --log-out` and `verify baccarat`: a simulated log verifies clean (exit 0) in
//! every compression and sampled by shoe; a defect planted in it fails (exit 1) naming its
//! coup; a log written by hand is read from standard input; a record that does not read is
//! refused (exit 2) naming its line and field.

use crate::common::*;

/// A small log written by hand in the schema of docs/round-log.md.
const BY_HAND: &str = r#"{"type":"header","format":"rtplab-round-log","version":1,"game":"baccarat","rules":{"decks":6,"burn":true},"currency":"EUR cents"}
{"type":"shoe","shoe":1,"cut":281,"burn":["5h","2d","8c","Kc","Jh","3s"]}
{"type":"coup","shoe":1,"coup":1,"player":["Ah","4c","Kd"],"banker":["7s","Td"],"bets":[{"bettor":3,"stake":{"banker":1000},"paid":{"banker":1950}}]}
{"type":"coup","shoe":1,"coup":2,"player":["9d","Qs"],"banker":["4c","4d"],"bets":[{"bettor":3,"stake":{"player":500,"banker_pair":100},"paid":{"player":1000,"banker_pair":1200}}]}
{"type":"end","coups":2,"complete":true}
"#;

fn verify(args: &[&str]) -> (i32, String, String) {
    let out = rtplab()
        .args(["verify", "baccarat"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn a_simulated_log_verifies_and_a_planted_defect_is_named() {
    let dir = temp_dir("verify-baccarat");
    let log = dir.join("table.jsonl");
    let report = dir.join("sim.json");
    succeeds(rtplab().args([
        "sim",
        "baccarat",
        "--coups",
        "100k",
        "--pairs",
        "1",
        "--claim",
        "98.94",
        "-q",
        "--format",
        "json",
        "-o",
        report.to_str().unwrap(),
        "--log-out",
        log.to_str().unwrap(),
    ]));
    let sim: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(sim["round_log"]["coups"], sim["coups"]);
    assert_eq!(sim["round_log"]["disagreements"], 0);
    let (code, out, err) = verify(&[log.to_str().unwrap(), "--format", "json", "-q"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["coups"], sim["coups"]);
    let claimed = v["return"]["bets"][0]["claimed"].as_f64().unwrap();
    assert!((claimed - 0.9894).abs() < 1e-12, "{claimed}");
    assert_eq!(v["return"]["bets"][0]["claim_ok"], true);
    // Every format renders.
    for f in ["table", "markdown", "csv", "html"] {
        let (code, out, _) = verify(&[log.to_str().unwrap(), "--format", f, "-q"]);
        assert_eq!(code, 0, "{f}");
        assert!(out.contains("settlement"), "{f}: {out}");
    }
    // A stake misreported: a banker bet of 1000 that won, logged as 2000.
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let i = lines
        .iter()
        .position(|l| l.contains(r#""stake":{"banker":1000,"#) && l.contains(r#""banker":1950"#))
        .unwrap();
    let coup: serde_json::Value = serde_json::from_str(&lines[i]).unwrap();
    lines[i] = lines[i].replacen(r#""banker":1000,"#, r#""banker":2000,"#, 1);
    let planted = dir.join("planted.jsonl");
    std::fs::write(&planted, lines.join("\n") + "\n").unwrap();
    let (code, out, _) = verify(&[planted.to_str().unwrap(), "--format", "json", "-q"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["settlement"]["deviations"], 1);
    let d = &v["settlement"]["listed"][0];
    assert_eq!(d["coup"], coup["coup"]);
    assert_eq!(d["line"], i as u64 + 1);
    assert_eq!(
        (&d["staked"], &d["paid"], &d["rules_pay"]),
        (&2000.into(), &1950.into(), &3900.into())
    );
    let failure = v["failures"][0].as_str().unwrap();
    assert!(
        failure.starts_with(&format!(
            "Settlement: 1 deviation (the first: coup {}, bettor 1, banker staked 2000: paid 1950, the rules pay 3900",
            coup["coup"]
        )),
        "{failure}"
    );
    let (code, out, _) = verify(&[planted.to_str().unwrap(), "-q"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("Settlement deviations (the first 1 of 1)"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compressed_and_sampled_logs_verify() {
    let dir = temp_dir("verify-baccarat-zst");
    for (name, every) in [("t.jsonl.zst", "1"), ("t.jsonl.gz", "3")] {
        let log = dir.join(name);
        succeeds(rtplab().args([
            "sim",
            "baccarat",
            "--coups",
            "30k",
            "--seed",
            "2",
            "--bet",
            "martingale:player",
            "--decks",
            "6",
            "--burn",
            "-q",
            "-o",
            dir.join("r.txt").to_str().unwrap(),
            "--log-out",
            log.to_str().unwrap(),
            "--log-every",
            every,
        ]));
        let head = std::fs::read(&log).unwrap();
        assert!(head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) || head.starts_with(&[0x1f, 0x8b]));
        let (code, out, err) = verify(&[log.to_str().unwrap(), "--format", "json", "-q"]);
        assert_eq!(code, 0, "{name}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["ok"], true, "{name}: {:?}", v["failures"]);
        let shoes = v["shoe"]["shoes"].as_u64().unwrap();
        let coups = v["coups"].as_u64().unwrap();
        // About 55 coups a shoe (6 decks dealt to 281 cards, a burn), every shoe or every third.
        let want = if every == "1" { 30_000 } else { 10_000 };
        assert!(coups.abs_diff(want) < want / 10, "{name}: {coups} coups");
        assert!((45..65).contains(&(coups / shoes)), "{name}: {shoes} shoes");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_log_written_by_hand_is_read_from_standard_input() {
    let out = rtplab()
        .args(["verify", "baccarat", "-", "--format", "json"])
        .write_stdin(BY_HAND)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true, "{:?}", v["failures"]);
    assert_eq!(v["log"]["name"], "standard input");
    assert_eq!(v["shoe"]["cards"], 15);
    // The player's natural 9 paid as a loss: named with the bettor and the rules' payment.
    let bad = BY_HAND.replace(r#""paid":{"player":1000,"#, r#""paid":{"#);
    let out = rtplab()
        .args(["verify", "baccarat", "-", "--format", "json"])
        .write_stdin(bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let failure = v["failures"][0].as_str().unwrap();
    assert!(
        failure.contains("coup 2, bettor 3, player staked 500: paid 0, the rules pay 1000"),
        "{failure}"
    );
}

#[test]
fn bad_input_exits_2_naming_the_line_and_field() {
    let dir = temp_dir("verify-baccarat-bad");
    let bad = dir.join("bad.jsonl");
    std::fs::write(
        &bad,
        BY_HAND.replace(r#""player":500"#, r#""player":"500""#),
    )
    .unwrap();
    fails_with(
        &["verify", "baccarat", bad.to_str().unwrap()],
        "bad.jsonl line 4, field bets[0].stake.player: invalid type: string \"500\", expected u64",
    );
    std::fs::write(&bad, BY_HAND.replace(r#""decks":6"#, r#""decks":60"#)).unwrap();
    fails_with(
        &["verify", "baccarat", bad.to_str().unwrap()],
        "bad.jsonl line 1, field rules: --decks 60: a baccarat shoe has 1 to 16 decks",
    );
    fails_with(
        &[
            "verify",
            "baccarat",
            dir.join("none.jsonl").to_str().unwrap(),
        ],
        "no such file",
    );
    fails_with(
        &["sim", "baccarat", "--coups", "1000", "--log-out", "-"],
        "--log-out -: the report goes to standard output too",
    );
    fails_with(
        &["sim", "baccarat", "--coups", "1000", "--log-every", "2"],
        "--log-out",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
