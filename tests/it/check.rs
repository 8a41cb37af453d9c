//! The regression check: the committed baselines pass; a perturbed one fails with exit 1 and
//! says what moved; a broken file is an input error (exit 2); --bless rewrites.

use crate::common::*;

use std::path::PathBuf;

fn copy_baselines(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rtplab-check-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let src = "reports/baselines/seed-autoplay-every-round.json";
    std::fs::copy(src, d.join("a.json")).unwrap();
    d
}

fn edit(d: &std::path::Path, f: impl Fn(&mut serde_json::Value)) {
    let p = d.join("a.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(&p, v.to_string()).unwrap();
}

#[test]
fn committed_baselines_pass() {
    let out = rtplab()
        .args(["check", "reports/baselines"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("seed-basic-every-round"));
    assert!(!text.contains("FAIL"));
}

#[test]
fn a_perturbed_baseline_fails_and_says_what_moved() {
    let d = copy_baselines("moved");
    edit(&d, |v| {
        let n = v["sums"]["net"].as_i64().unwrap();
        v["sums"]["net"] = (n + 1).into();
    });
    let out = rtplab().arg("check").arg(&d).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("MOVED") && text.contains("FAIL") && text.contains("moved: net"),
        "{text}"
    );
    // --bless rewrites it; then it passes.
    let out = rtplab()
        .arg("check")
        .arg(&d)
        .arg("--bless")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let out = rtplab().arg("check").arg(&d).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn an_estimate_far_from_its_expected_value_fails() {
    let d = copy_baselines("z");
    edit(&d, |v| v["expected"]["ev"] = (-0.05).into());
    let out = rtplab().arg("check").arg(&d).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL"), "{text}");
}

#[test]
fn a_broken_baseline_is_an_input_error() {
    let d = copy_baselines("broken");
    std::fs::write(d.join("a.json"), "{ \"name\": 3 ").unwrap();
    let out = rtplab().arg("check").arg(&d).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("a.json") && err.contains("not a baseline file"),
        "{err}"
    );
    let empty = d.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = rtplab().arg("check").arg(&empty).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    // A misspelt key (its default would be used silently) is an input error naming it, in the
    // rules or at the top.
    for (edit_to, key) in [("rules", "rules.dekcs"), ("top", "chunk_shoe")] {
        std::fs::copy(
            "reports/baselines/seed-autoplay-every-round.json",
            d.join("a.json"),
        )
        .unwrap();
        edit(&d, |v| match edit_to {
            "rules" => {
                v["rules"]["dekcs"] = 6.into();
            }
            _ => {
                v["chunk_shoe"] = 5.into();
            }
        });
        let out = rtplab().arg("check").arg(&d).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("unknown key '{key}'")), "{err}");
    }
}

#[test]
fn dice_baselines_catch_a_changed_game_and_reject_bad_files() {
    let d = std::env::temp_dir().join(format!("rtplab-check-{}-dice", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::copy(
        "reports/baselines/doom-s2-bank-at-350-turns.json",
        d.join("a.json"),
    )
    .unwrap();
    let out = rtplab().arg("check").arg(&d).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    // Another strategy on the same seed: the sums move and the exact EV no longer matches.
    edit(&d, |v| v["strategy"] = "bank-at:300".into());
    let out = rtplab().arg("check").arg(&d).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("MOVED") && text.contains("FAIL") && text.contains("moved: "),
        "{text}"
    );
    edit(&d, |v| v["preset"] = "yahtzee".into());
    fails_with(
        &["check", d.to_str().unwrap()],
        "unknown doom preset 'yahtzee'",
    );
    std::fs::copy(
        "reports/baselines/twenty-one-four-seats.json",
        d.join("a.json"),
    )
    .unwrap();
    edit(&d, |v| v["seats"] = serde_json::json!(vec!["greedy"; 7]));
    fails_with(&["check", d.to_str().unwrap()], "1 to 6 players");
}

#[test]
fn check_reports_json_and_raw_csv_and_refuses_bad_input_before_any_run() {
    let d = copy_baselines("formats");
    let v = json(&["check", d.to_str().unwrap(), "--format", "json"]);
    let b = &v["baselines"][0];
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["z_limit"], 4.0);
    assert_eq!(b["name"], "seed-autoplay-every-round", "{v}");
    assert_eq!(
        (b["unit"].as_str(), b["verdict"].as_str()),
        (Some("fraction"), Some("ok"))
    );
    let (ev, se, ex, z) = (
        b["ev"].as_f64().unwrap(),
        b["se"].as_f64().unwrap(),
        b["expected"].as_f64().unwrap(),
        b["z"].as_f64().unwrap(),
    );
    assert!(
        ev.abs() < 0.1 && se > 0.0 && ((ev - ex) / se - z).abs() < 1e-9,
        "{v}"
    );
    // CSV carries raw numbers and their units, not the table's text.
    let out = succeeds(rtplab().arg("check").arg(&d).args(["--format", "csv"]));
    let csv = String::from_utf8_lossy(&out.stdout);
    let row = |col: &str| {
        csv.lines()
            .find(|l| l.starts_with(&format!("Baselines,seed-autoplay-every-round,{col},")))
            .unwrap_or_else(|| panic!("no {col} in {csv}"))
            .to_string()
    };
    assert_eq!(
        row("estimate"),
        format!("Baselines,seed-autoplay-every-round,estimate,{ev},fraction")
    );
    assert_eq!(
        row("z"),
        format!("Baselines,seed-autoplay-every-round,z,{z},SE")
    );
    assert!(row("count").ends_with(",count"), "{csv}");
    // A tolerance that is no tolerance (every run passes at inf, fails at 0) is refused.
    for z in ["nan", "inf", "0", "-1"] {
        fails_with(&["check", d.to_str().unwrap(), "--z", z], "--z");
    }
    // A bad baseline is refused before any runs: with --bless the good one (sorted first,
    // its sums edited so a run would rewrite them) is left as it was.
    edit(&d, |v| v["sums"]["net"] = 1.into());
    let good = std::fs::read_to_string(d.join("a.json")).unwrap();
    let mut bad: serde_json::Value = serde_json::from_str(&good).unwrap();
    bad["rules"]["decks"] = 0.into();
    std::fs::write(d.join("z.json"), bad.to_string()).unwrap();
    fails_with(&["check", d.to_str().unwrap(), "--bless"], "z.json");
    assert_eq!(std::fs::read_to_string(d.join("a.json")).unwrap(), good);
}
