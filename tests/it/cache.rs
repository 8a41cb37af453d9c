//! The cache of solved tables through the command line: kept once, read after, never trusted
//! when damaged, refused when its folder cannot be one; `--no-cache`, `--win-table FILE`,
//! `rtplab cache`; and the seats for games of three or more that read the table.

use super::common::{rtplab, temp_dir};

/// The advice at a small target (the solve takes a second or so), in a cache folder `dir`.
fn advise(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    rtplab()
        .env("RTPLAB_CACHE", dir)
        .args([
            "advise",
            "doom",
            "--roll",
            "1,5,2,2,3,4",
            "--score",
            "300",
            "--opponent",
            "500",
            "--target",
            "800",
            "--format",
            "json",
        ])
        .args(extra)
        .output()
        .unwrap()
}

fn entries(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| rd.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn a_table_is_solved_once_kept_and_read_after() {
    let d = temp_dir("cache-once");
    let cache = d.join("cache");
    let first = advise(&cache, &[]);
    assert_eq!(first.status.code(), Some(0));
    let err = String::from_utf8_lossy(&first.stderr);
    assert!(err.contains("Solving the two-player game"), "{err}");
    assert!(err.contains(&cache.display().to_string()), "{err}");
    let kept = entries(&cache);
    assert_eq!(kept.len(), 1, "{kept:?}");
    // Read, not solved: the same advice, nothing said about solving.
    let second = advise(&cache, &[]);
    assert_eq!(second.status.code(), Some(0));
    assert_eq!(second.stdout, first.stdout);
    assert!(!String::from_utf8_lossy(&second.stderr).contains("Solving"));
    // The advice from a fresh solve is the same.
    let fresh = advise(&d.join("unused"), &["--no-cache"]);
    assert_eq!(fresh.stdout, first.stdout);
    assert!(!d.join("unused").exists(), "--no-cache made the folder");
    // Listed and cleared by `rtplab cache`.
    let list = rtplab()
        .env("RTPLAB_CACHE", &cache)
        .args(["cache", "list"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&list.stdout);
    assert!(
        text.contains("1 solved table") && text.contains("doom-win-v"),
        "{text}"
    );
    let path = rtplab()
        .env("RTPLAB_CACHE", &cache)
        .args(["cache", "path"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&path.stdout).trim(),
        cache.display().to_string()
    );
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
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn a_damaged_or_foreign_entry_is_solved_again() {
    let d = temp_dir("cache-bad");
    let cache = d.join("cache");
    let good = advise(&cache, &[]);
    let entry = entries(&cache).pop().unwrap();
    let bytes = std::fs::read(&entry).unwrap();
    for bad in [
        {
            let mut b = bytes.clone();
            let n = b.len();
            b[n / 2] ^= 0x40;
            b
        },
        b"not a table".to_vec(),
        bytes[..bytes.len() / 3].to_vec(),
    ] {
        std::fs::write(&entry, &bad).unwrap();
        let again = advise(&cache, &[]);
        assert_eq!(again.status.code(), Some(0));
        let err = String::from_utf8_lossy(&again.stderr);
        assert!(err.contains("warning") && err.contains("Solving"), "{err}");
        assert_eq!(again.stdout, good.stdout);
        assert_eq!(std::fs::read(&entry).unwrap(), bytes, "not replaced whole");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_cache_folder_that_is_a_file_is_refused_with_exit_2() {
    let d = temp_dir("cache-file");
    let f = d.join("file");
    std::fs::write(&f, "x").unwrap();
    for dir in [f.clone(), f.join("rtplab")] {
        let out = advise(&dir, &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("not a folder") && !err.contains("panicked"),
            "{err}"
        );
    }
    // --no-cache does not need the folder.
    assert_eq!(advise(&f, &["--no-cache"]).status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_table_file_is_written_when_absent_and_read_when_present() {
    let d = temp_dir("cache-table-file");
    let t = d.join("seed-800.table");
    let cache = d.join("cache");
    let a = advise(&cache, &["--win-table", t.to_str().unwrap()]);
    assert_eq!(a.status.code(), Some(0));
    assert!(t.exists());
    assert!(entries(&cache).is_empty(), "the cache was written too");
    let b = advise(&cache, &["--win-table", t.to_str().unwrap()]);
    assert_eq!(b.stdout, a.stdout);
    assert!(!String::from_utf8_lossy(&b.stderr).contains("Solving"));
    // A table for another target, a damaged one, a folder: refused, exit 2, no panic.
    let other = rtplab()
        .env("RTPLAB_CACHE", &cache)
        .args([
            "advise",
            "doom",
            "--roll",
            "1,5,2,2,3,4",
            "--score",
            "300",
            "--opponent",
            "500",
            "--target",
            "900",
            "--win-table",
        ])
        .arg(&t)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&other.stderr);
    assert_eq!(other.status.code(), Some(2), "{err}");
    assert!(err.contains("another target"), "{err}");
    std::fs::write(&t, b"junk").unwrap();
    let bad = advise(&cache, &["--win-table", t.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    let bad = advise(&cache, &["--win-table", d.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The seats for games of three to six: every game finishes, the rules of a turn are kept
/// (a turn's score is a multiple of the unit, never negative), and against three `optimal`
/// seats they win at least their share at a small target.
#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn win_seeking_seats_for_several_players_play_legal_finished_games() {
    let d = temp_dir("cache-multi");
    for seat in ["win-leader", "win-field"] {
        let out = rtplab()
            .env("RTPLAB_CACHE", d.join("cache"))
            .args(["sim", "doom", "--seat", seat])
            .args([
                "--seat",
                "optimal",
                "--seat",
                "optimal",
                "--seat",
                "endgame:450",
            ])
            .args(["--target", "2000", "--games", "3000", "--seed", "5"])
            .args(["--format", "json", "-q"])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let x: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(x["unfinished_games"], 0, "{seat}");
        assert_eq!(x["games"], 3000, "{seat}");
        let w = &x["win_rate"][0];
        let (rate, se) = (w["rate"].as_f64().unwrap(), w["se"].as_f64().unwrap());
        assert!(rate > 0.25 - 3.0 * se, "{seat}: {rate} ± {se}");
        let hist = x["turn_score_histogram"].as_array().unwrap();
        assert!(!hist.is_empty());
    }
    // More than six, or turns outside a game: refused.
    let out = rtplab()
        .args(["sim", "doom", "--strategy", "win-field", "--players", "7"])
        .args(["--target", "2000", "--games", "10"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&d);
}

/// A solve stopped by Ctrl-C keeps its progress in the cache and exits 130; the same command
/// resumes from it and gives the report an uninterrupted solve gives.
#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn a_stopped_exact_solve_resumes_from_the_cache() {
    use std::io::BufRead;
    let d = temp_dir("cache-resume");
    let cache = d.join("cache");
    let args = [
        "exact",
        "doom",
        "--players",
        "2",
        "--objective",
        "win",
        "--target",
        "1500",
        "--win-solve",
        "exact",
        "--format",
        "json",
    ];
    let mut child = super::common::process()
        .env("RTPLAB_CACHE", &cache)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Signalled once the solve has started (its announcement is on standard error).
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    while !said.contains("will be kept at") {
        let mut line = String::new();
        if err.read_line(&mut line).unwrap() == 0 {
            break;
        }
        said.push_str(&line);
    }
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let ok = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    let status = child.wait().unwrap();
    if status.code() == Some(0) {
        // The solve finished before the signal came (a fast machine): nothing to resume.
        let _ = std::fs::remove_dir_all(&d);
        return;
    }
    assert_eq!(status.code(), Some(130), "{said}{rest}");
    assert!(
        rest.contains("run the same command again to resume"),
        "{rest}"
    );
    assert!(
        entries(&cache)
            .iter()
            .any(|p| p.to_string_lossy().contains("doom-win-partial")),
        "{:?}",
        entries(&cache)
    );
    let resumed = rtplab()
        .env("RTPLAB_CACHE", &cache)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(resumed.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("resuming the solve"));
    let whole = rtplab().args(args).arg("--no-cache").output().unwrap();
    let a: serde_json::Value = serde_json::from_slice(&resumed.stdout).unwrap();
    let b: serde_json::Value = serde_json::from_slice(&whole.stdout).unwrap();
    for k in ["p_first", "win_table", "handicaps", "thresholds", "solve"] {
        assert_eq!(a[k], b[k], "{k}");
    }
    // The progress is removed once the table is whole.
    let left: Vec<_> = entries(&cache);
    assert_eq!(left.len(), 1, "{left:?}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Run `args` in the cache folder `cache`, send `signal` as soon as standard error says
/// `when` (the solve has started or resumed), and give back the exit code and all standard
/// error said.
fn signalled(cache: &std::path::Path, args: &[&str], when: &str, signal: &str) -> (i32, String) {
    signalled_after(cache, args, when, std::time::Duration::ZERO, signal)
}

/// [`signalled`], the signal sent `delay` after `when` is said.
fn signalled_after(
    cache: &std::path::Path,
    args: &[&str],
    when: &str,
    delay: std::time::Duration,
    signal: &str,
) -> (i32, String) {
    use std::io::{BufRead, Read};
    let mut child = super::common::process()
        .env("RTPLAB_CACHE", cache)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    while !said.contains(when) {
        let mut line = String::new();
        if err.read_line(&mut line).unwrap() == 0 {
            break;
        }
        said.push_str(&line);
    }
    std::thread::sleep(delay);
    let ok = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    err.read_to_string(&mut said).unwrap();
    let code = child.wait().unwrap().code().unwrap_or(-1);
    (code, said)
}

/// The sums of scores a stopped solve's message says are left ("(N of M sums of scores left)").
fn sums_left(said: &str) -> u64 {
    let at = said.rfind(" sums of scores left").expect(said);
    let n = said[..at].rsplit('(').next().unwrap();
    let n = n.split(" of ").next().unwrap().replace(',', "");
    n.parse().expect(said)
}

/// Every command that solves the two-player table keeps a stopped solve and resumes one any
/// of them stopped: `advise doom` stopped by Ctrl-C saves its progress (exit 130); `sim doom`
/// with a win-optimal seat resumes it in its set-up, says on the first SIGTERM that it saves
/// the solve's progress, and saves more of it (exit 143); `exact doom` resumes it to the end,
/// with the table an uninterrupted solve makes, and removes the progress. Every line said is
/// at most 100 columns.
#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn a_stopped_solve_is_kept_and_resumed_by_every_command_that_solves() {
    let d = temp_dir("cache-stop-every");
    let cache = d.join("cache");
    let target = ["--target", "1000"];
    let advise: Vec<&str> = [
        "advise",
        "doom",
        "--roll",
        "1,5,2,2,3,4",
        "--score",
        "300",
        "--opponent",
        "500",
    ]
    .into_iter()
    .chain(target)
    .collect();
    let (code, said) = signalled(&cache, &advise, "will be kept at", "INT");
    assert_eq!(code, 130, "{said}");
    assert!(
        said.contains("interrupted (Ctrl-C): saving the solve's progress"),
        "{said}"
    );
    assert!(
        said.contains("run the same command again to resume"),
        "{said}"
    );
    let partial = |dir: &std::path::Path| {
        entries(dir)
            .into_iter()
            .find(|p| p.to_string_lossy().contains("doom-win-partial"))
    };
    let first = std::fs::read(partial(&cache).expect(&said)).unwrap();
    let left = sums_left(&said);
    for line in said.lines() {
        assert!(
            line.chars().count() <= 100,
            "wider than 100 columns: {line}"
        );
    }

    let sim: Vec<&str> = [
        "sim",
        "doom",
        "--games",
        "10",
        "--seat",
        "win-optimal",
        "--seat",
        "optimal",
    ]
    .into_iter()
    .chain(target)
    .collect();
    let (code, said) = signalled(&cache, &sim, "resuming the solve", "TERM");
    assert_eq!(code, 143, "{said}");
    assert!(
        said.contains("interrupted (SIGTERM): saving the solve's progress"),
        "{said}"
    );
    assert!(!said.contains("finishing the chunks"), "{said}");
    assert!(sums_left(&said) < left, "{said}");
    assert_ne!(std::fs::read(partial(&cache).unwrap()).unwrap(), first);
    for line in said.lines() {
        assert!(
            line.chars().count() <= 100,
            "wider than 100 columns: {line}"
        );
    }

    let exact: Vec<&str> = [
        "exact",
        "doom",
        "--players",
        "2",
        "--objective",
        "win",
        "--format",
        "json",
    ]
    .into_iter()
    .chain(target)
    .collect();
    let resumed = rtplab()
        .env("RTPLAB_CACHE", &cache)
        .args(&exact)
        .output()
        .unwrap();
    assert_eq!(resumed.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("resuming the solve"));
    assert!(partial(&cache).is_none(), "{:?}", entries(&cache));
    let whole = rtplab().args(&exact).arg("--no-cache").output().unwrap();
    let a: serde_json::Value = serde_json::from_slice(&resumed.stdout).unwrap();
    let b: serde_json::Value = serde_json::from_slice(&whole.stdout).unwrap();
    for k in ["p_first", "win_table", "handicaps", "thresholds", "solve"] {
        assert_eq!(a[k], b[k], "{k}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// The exact game of three stopped by Ctrl-C part way keeps its progress in the cache (exit
/// 130, "saved at"), whether the solve or an evaluation was under way; the same command
/// resumes it ("resuming the game of three ... saved at"), reports what a run without a stop
/// reports (all but the time) and removes the progress; `--no-cache` keeps nothing.
#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn a_stopped_game_of_three_is_kept_and_resumed_to_the_same_report() {
    let d = temp_dir("cache-three");
    let cache = d.join("cache");
    let args = [
        "exact",
        "doom",
        "--players",
        "3",
        "--objective",
        "win",
        "--target",
        "200",
        "--held-dice",
        "separate",
        "--doom",
        "1",
        "--strategy",
        "optimal",
        "--strategy",
        "bank-at:300",
        "--format",
        "json",
    ];
    let wait = std::time::Duration::from_millis(700);
    let (code, said) = signalled_after(&cache, &args, "a stopped solve is kept at", wait, "INT");
    assert_eq!(code, 130, "{said}");
    assert!(
        said.contains("interrupted (Ctrl-C): saving the progress of the game"),
        "{said}"
    );
    assert!(
        said.contains("run the same command again to resume"),
        "{said}"
    );
    for line in said.lines() {
        assert!(
            line.chars().count() <= 100,
            "wider than 100 columns: {line}"
        );
    }
    let partial = |dir: &std::path::Path| {
        entries(dir)
            .into_iter()
            .find(|p| p.to_string_lossy().contains("doom-small-partial"))
    };
    assert!(partial(&cache).is_some(), "{said}");
    let resumed = rtplab()
        .env("RTPLAB_CACHE", &cache)
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&resumed.stderr);
    assert_eq!(resumed.status.code(), Some(0), "{err}");
    assert!(err.contains("resuming the game of three"), "{err}");
    assert!(partial(&cache).is_none(), "{:?}", entries(&cache));
    let unused = d.join("unused");
    let whole = rtplab()
        .env("RTPLAB_CACHE", &unused)
        .args(args)
        .arg("--no-cache")
        .output()
        .unwrap();
    assert_eq!(whole.status.code(), Some(0));
    assert!(!unused.exists(), "--no-cache made the folder");
    let mut a: serde_json::Value = serde_json::from_slice(&resumed.stdout).unwrap();
    let mut b: serde_json::Value = serde_json::from_slice(&whole.stdout).unwrap();
    for j in [&mut a, &mut b] {
        j.as_object_mut().unwrap().remove("solve_s");
    }
    assert_eq!(a, b);
    assert_eq!(a["interrupted"], false);
    let _ = std::fs::remove_dir_all(&d);
}

/// No test runs the binary past the helpers that give it the tests' own cache folder
/// (`common::rtplab`, `common::process`, `common::bin` with `RTPLAB_CACHE` set): a test that
/// read the user's cache, or one another test filled, would pass or fail on what ran before it.
#[test]
fn every_test_runs_the_binary_with_the_tests_cache() {
    let mut files = Vec::new();
    super::common::rust_files(std::path::Path::new("tests"), &mut files);
    let needles = [
        concat!("CARGO_BIN_", "EXE_rtplab"),
        concat!("cargo_", "bin("),
    ];
    for f in files {
        if f.ends_with("common.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for n in needles {
            assert!(!text.contains(n), "{} runs the binary by {n}", f.display());
        }
        if text.contains("common::bin()") || text.contains(" bin()") {
            assert!(
                text.contains("RTPLAB_CACHE"),
                "{} runs the binary through a shell without RTPLAB_CACHE",
                f.display()
            );
        }
    }
}
