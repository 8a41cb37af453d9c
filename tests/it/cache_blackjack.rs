//! Blackjack's solved tables in the cache folder: the chart derived for the rules and the
//! count metrics' effects of removal, kept once and read after with the same report bit for
//! bit, never trusted when damaged, one entry per rule set, nothing written under
//! `--no-cache`, removed by `rtplab cache clear`.

use super::common::{rtplab, temp_dir};
use std::path::{Path, PathBuf};

/// Non-seed rules (H17, 6 decks): `basic` is derived for them.
const RULES: [&str; 3] = ["--decks", "6", "--h17"];

/// A short run's JSON report in cache folder `dir`, without its timings; and its standard
/// error.
fn sim(dir: &Path, extra: &[&str]) -> (serde_json::Value, String) {
    let out = rtplab()
        .env("RTPLAB_CACHE", dir)
        .args(["sim", "blackjack"])
        .args(RULES)
        .args(["--rounds", "20k", "--seed", "7", "--format", "json", "-q"])
        .args(extra)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{err}");
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for k in ["elapsed_s", "setup_s", "rounds_per_s"] {
        v.as_object_mut().unwrap().remove(k);
    }
    (v, err)
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| rd.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

fn named(dir: &Path, kind: &str) -> Vec<PathBuf> {
    entries(dir)
        .into_iter()
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(kind))
        .collect()
}

#[test]
fn a_derived_chart_is_kept_once_and_the_report_is_the_same() {
    let d = temp_dir("bj-cache-once");
    let cache = d.join("cache");
    let (first, err) = sim(&cache, &[]);
    assert!(err.is_empty(), "{err}");
    assert_eq!(
        named(&cache, "bj-chart-v").len(),
        1,
        "{:?}",
        entries(&cache)
    );
    let kept = std::fs::read(&named(&cache, "bj-chart-v")[0]).unwrap();
    let (second, err) = sim(&cache, &[]);
    assert!(err.is_empty(), "{err}");
    assert_eq!(second, first);
    assert_eq!(
        std::fs::read(&named(&cache, "bj-chart-v")[0]).unwrap(),
        kept
    );
    // Computed for the run alone: the same report, and the folder is never made.
    let (fresh, _) = sim(&d.join("unused"), &["--no-cache"]);
    assert_eq!(fresh, first);
    assert!(!d.join("unused").exists(), "--no-cache made the folder");
    // Other rules: another entry.
    sim(&cache, &["--das"]);
    assert_eq!(named(&cache, "bj-chart-v").len(), 2);
    // The seed's rules play the compiled chart: nothing kept.
    let seed = d.join("seed");
    let out = rtplab()
        .env("RTPLAB_CACHE", &seed)
        .args([
            "sim",
            "blackjack",
            "--rounds",
            "2k",
            "-q",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(entries(&seed).is_empty());
    // `cache clear` removes them.
    let clear = rtplab()
        .env("RTPLAB_CACHE", &cache)
        .args(["cache", "clear"])
        .output()
        .unwrap();
    assert_eq!(clear.status.code(), Some(0));
    assert!(entries(&cache).is_empty());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_damaged_chart_entry_is_said_in_one_line_and_derived_again() {
    let d = temp_dir("bj-cache-bad");
    let cache = d.join("cache");
    let (good, _) = sim(&cache, &[]);
    let entry = named(&cache, "bj-chart-v").pop().unwrap();
    let bytes = std::fs::read(&entry).unwrap();
    let mut flipped = bytes.clone();
    let n = flipped.len();
    flipped[n / 2] ^= 0x04;
    for bad in [flipped, bytes[..n / 2].to_vec(), Vec::new()] {
        std::fs::write(&entry, &bad).unwrap();
        let (again, err) = sim(&cache, &[]);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("warning:") && err.contains(&entry.display().to_string()),
            "{err}"
        );
        assert_eq!(again, good);
        assert_eq!(std::fs::read(&entry).unwrap(), bytes, "not replaced whole");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// The count metrics' effects of removal (seconds of set-up) are kept too, and the counting
/// report from them is the computed one.
#[test]
fn the_count_metrics_tables_are_kept_and_the_report_is_the_same() {
    let d = temp_dir("bj-cache-count");
    let cache = d.join("cache");
    let count = ["--count", "hi-lo"];
    let (first, _) = sim(&cache, &count);
    assert_eq!(
        named(&cache, "bj-effects-v").len(),
        1,
        "{:?}",
        entries(&cache)
    );
    assert!(first["metrics"]["playing_efficiency"].is_f64(), "{first}");
    let (second, err) = sim(&cache, &count);
    assert!(err.is_empty(), "{err}");
    assert_eq!(second, first);
    let (fresh, _) = sim(&d.join("unused"), &[&count[..], &["--no-cache"]].concat());
    assert_eq!(fresh, first);
    assert!(!d.join("unused").exists());
    let _ = std::fs::remove_dir_all(&d);
}

/// Every blackjack command that derives a chart takes `--no-cache`, and with it needs no
/// cache folder; without it a folder that cannot be used is said in one warning and the run
/// goes on (the tables take under a second).
#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn every_command_that_derives_a_chart_takes_no_cache() {
    let d = temp_dir("bj-cache-flag");
    let file = d.join("file");
    std::fs::write(&file, "x").unwrap();
    let commands: [&[&str]; 5] = [
        &["sim", "blackjack", "--rounds", "2k"],
        &["advise", "blackjack", "--hand", "T,6", "--up", "T"],
        &["exact", "blackjack", "--strategy", "basic"],
        &[
            "compare",
            "blackjack",
            "--rounds",
            "2k",
            "--strategy",
            "basic",
            "--strategy",
            "autoplay",
        ],
        &["audit", "blackjack", "--rounds", "0"],
    ];
    for c in commands {
        let run = |extra: &[&str]| {
            rtplab()
                .env("RTPLAB_CACHE", &file)
                .args(c)
                .args(RULES)
                .args(["-q", "--format", "json"])
                .args(extra)
                .output()
                .unwrap()
        };
        let kept = run(&[]);
        let err = String::from_utf8_lossy(&kept.stderr);
        assert_eq!(kept.status.code(), Some(0), "{c:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{c:?}: {err}");
        assert!(
            err.starts_with("warning:") && err.contains("not a folder"),
            "{err}"
        );
        let fresh = run(&["--no-cache"]);
        let err = String::from_utf8_lossy(&fresh.stderr);
        assert_eq!(fresh.status.code(), Some(0), "{c:?}: {err}");
        assert!(err.is_empty(), "{c:?}: {err}");
    }
    assert_eq!(std::fs::read(&file).unwrap(), b"x");
    // No cache folder at all (no HOME, as in a container): the same.
    let out = rtplab()
        .env_remove("RTPLAB_CACHE")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("HOME")
        .args(["sim", "blackjack", "--rounds", "2k", "-q"])
        .args(RULES)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("no cache folder"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}
