//! The regression check: the committed baselines pass; a perturbed one fails with exit 1 and
//! says what moved; a broken file is an input error (exit 2); --bless rewrites.

mod common;
use common::*;

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
