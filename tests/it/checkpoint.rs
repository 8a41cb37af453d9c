//! Checkpoint and resume of shard files, on the real binary, for every game: a shard saved
//! every `--checkpoint` and killed (SIGKILL between checkpoints, SIGTERM) resumes with the
//! same command, its finished file is the uninterrupted run's file bit for bit (but for
//! `elapsed_s`), and the merge is the uninterrupted run's; a finished file is read, not
//! recomputed; files of another run, edited or truncated files are refused and left alone.

use crate::common::*;

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The shard file's chunks done, if it exists (it is always whole: written by a rename).
fn done_in(path: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["chunks_done"].as_u64()
}

fn spawn(args: &[String]) -> Child {
    process()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Wait until the shard file holds more than `after` chunks (a checkpoint was saved).
fn wait_for_checkpoint(child: &mut Child, path: &Path, after: u64) -> u64 {
    let start = Instant::now();
    loop {
        if let Some(n) = done_in(path).filter(|&n| n > after) {
            return n;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the run ended ({status}) before a checkpoint beyond {after} chunks");
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no checkpoint");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn kill(child: &Child, signal: &str) {
    let ok = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

/// A report without what depends on the machine (times, speeds, threads).
fn steady(mut v: serde_json::Value) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(o) => {
                o.retain(|k, _| {
                    !["elapsed_s", "setup_s", "threads"].contains(&k.as_str())
                        && !k.ends_with("_per_s")
                });
                o.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

/// A shard file without its time.
fn without_elapsed(path: &Path) -> serde_json::Value {
    let mut v = read_json(path);
    let e = v.as_object_mut().unwrap().remove("elapsed_s").unwrap();
    assert!(e.as_f64().unwrap() > 0.0);
    v
}

/// The command of shard `k`/3 of `game`'s run (`run`: its own arguments), written to `out`.
fn shard_cmd(run: &[&str], k: u64, out: &Path, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = ["sim"].iter().chain(run).map(|s| s.to_string()).collect();
    a.extend(
        [
            "--quiet",
            "--threads",
            "2",
            "--format",
            "json",
            "--shard",
            &format!("{k}/3"),
            "--shard-out",
            p(out),
        ]
        .iter()
        .chain(extra)
        .map(|s| s.to_string()),
    );
    a
}

fn run_json(args: &[String]) -> serde_json::Value {
    let out = succeeds(rtplab().args(args));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Shard 2/3 of `run`, checkpointed every 20 ms: killed with SIGKILL after a checkpoint,
/// resumed and stopped with SIGTERM, resumed to the end; then its file and the merge are the
/// uninterrupted ones, and running it once more reads the finished file.
fn killed_and_resumed(name: &str, run: &[&str]) {
    let d = temp_dir(&format!("checkpoint-{name}"));
    let files: Vec<PathBuf> = (1..=3).map(|k| d.join(format!("s{k}.json"))).collect();
    for (k, f) in (1..=3).zip(&files) {
        run_json(&shard_cmd(run, k, f, &[]));
    }
    let whole = succeeds(rtplab().args(["merge", "--format", "json"]).args(&files));
    let whole: serde_json::Value = serde_json::from_slice(&whole.stdout).unwrap();
    let start = read_json(&files[1])["range"][0].as_u64().unwrap();
    let len = read_json(&files[1])["range"][1].as_u64().unwrap() - start;

    let cp = d.join("cp.json");
    let cmd = shard_cmd(run, 2, &cp, &["--checkpoint", "20ms"]);
    // SIGKILL between checkpoints: the last checkpoint stays.
    let mut child = spawn(&cmd);
    wait_for_checkpoint(&mut child, &cp, 0);
    kill(&child, "KILL");
    let status = child.wait().unwrap();
    assert_eq!(status.code(), None, "{name}: killed by a signal");
    let first = done_in(&cp).unwrap();
    assert!(first > 0 && first < len, "{name}: {first} of {len}");
    // Resumed, then SIGTERM: the file holds what was done, the report says so (exit 143).
    let mut child = spawn(&cmd);
    wait_for_checkpoint(&mut child, &cp, first);
    kill(&child, "TERM");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{name}: {err}");
    let rep: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rep["interrupted"], true, "{name}");
    assert_eq!(rep["resumed_from_chunk"], start + first, "{name}");
    let second = done_in(&cp).unwrap();
    assert!(
        second > first && second < len,
        "{name}: {first}, {second} of {len}"
    );
    // merge refuses the unfinished file and says how to resume it.
    fails_with(
        &["merge", p(&files[0]), p(&cp), p(&files[2])],
        "resume shard 2/3 by re-running the same command",
    );
    // Resumed to the end.
    let rep = run_json(&cmd);
    assert_eq!(rep["interrupted"], false, "{name}");
    assert_eq!(rep["resumed_from_chunk"], start + second, "{name}");
    assert_eq!(rep["already_complete"], false, "{name}");
    assert_eq!(without_elapsed(&cp), without_elapsed(&files[1]), "{name}");
    let merged = succeeds(rtplab().args([
        "merge",
        "--format",
        "json",
        p(&files[0]),
        p(&cp),
        p(&files[2]),
    ]));
    let merged: serde_json::Value = serde_json::from_slice(&merged.stdout).unwrap();
    assert_eq!(steady(merged), steady(whole.clone()), "{name}");
    // Once more: the finished file is read, not recomputed nor rewritten.
    let bytes = std::fs::read(&cp).unwrap();
    let again = run_json(&cmd);
    assert_eq!(again["already_complete"], true, "{name}");
    assert_eq!(again["resumed_from_chunk"], start + len, "{name}");
    assert_eq!(std::fs::read(&cp).unwrap(), bytes, "{name}");
    // And without --checkpoint too.
    let plain = run_json(&shard_cmd(run, 2, &cp, &[]));
    assert_eq!(plain["already_complete"], true, "{name}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn blackjack_resumes_after_sigkill_and_sigterm() {
    killed_and_resumed(
        "blackjack",
        &["blackjack", "--rounds", "6M", "--chunk-shoes", "400"],
    );
}

#[test]
fn doom_resumes_after_sigkill_and_sigterm() {
    killed_and_resumed("doom", &["doom", "--games", "6k"]);
}

#[test]
fn twenty_one_resumes_after_sigkill_and_sigterm() {
    killed_and_resumed("twenty-one", &["twenty-one", "--games", "150k"]);
}

#[test]
fn baccarat_resumes_after_sigkill_and_sigterm() {
    killed_and_resumed(
        "baccarat",
        // 24M: at 8M a shard was 70 chunks, 0.15 s of work, and the chunks left after the
        // second checkpoint sometimes all finished before the SIGTERM was handled (the run
        // ended uninterrupted in 3 runs of 8).
        &["baccarat", "--coups", "24M", "--chunk-shoes", "500"],
    );
}

/// A file at `--shard-out` that is not an unfinished file of this run and shard is refused
/// (exit 2), says why and how to start over, and is left as it is.
#[test]
fn other_runs_edited_and_truncated_files_are_refused_and_left_alone() {
    let d = temp_dir("checkpoint-refusals");
    let run = ["baccarat", "--coups", "200k"];
    let f = d.join("s.json");
    let done = |extra: &[&str]| {
        let mut a = shard_cmd(&run, 1, &f, &["--checkpoint", "1s"]);
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    run_json(&done(&[]));
    let good = std::fs::read_to_string(&f).unwrap();
    let refused = |args: Vec<String>, needles: &[&str]| {
        let before = std::fs::read(&f).unwrap();
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        for n in needles {
            fails_with(&a, n);
        }
        fails_with(&a, "delete it to start this shard over");
        assert_eq!(std::fs::read(&f).unwrap(), before, "the file was touched");
    };
    // Another run (seed), another shard, another game.
    refused(
        done(&["--seed", "9"]),
        &[p(&f), "another run", "differ in seed"],
    );
    refused(
        shard_cmd(&run, 2, &f, &[]),
        &["shard 1/3 (chunks 0..", "this is shard 2/3"],
    );
    let doom: Vec<String> = [
        "sim",
        "doom",
        "--games",
        "1k",
        "--quiet",
        "--shard-out",
        p(&f),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    refused(doom, &["a baccarat run, and this is a doom run"]);
    // An edited checkpoint: the checksum.
    let mut edited: serde_json::Value = serde_json::from_str(&good).unwrap();
    edited["chunks_done"] = 1.into();
    std::fs::write(&f, edited.to_string()).unwrap();
    refused(
        done(&[]),
        &["cannot be resumed", "checksum", "edited or corrupted"],
    );
    // A negative time (outside the checksum) or a count beyond what the coups allow (the
    // checksum recomputed): each named.
    let mut edited: serde_json::Value = serde_json::from_str(&good).unwrap();
    edited["elapsed_s"] = (-1.0).into();
    std::fs::write(&f, edited.to_string()).unwrap();
    refused(
        done(&[]),
        &["cannot be resumed", "its elapsed_s = -1 is impossible"],
    );
    let mut forged: rtplab::shard::ShardFile<rtplab::games::baccarat::sim::BacAcc> =
        serde_json::from_str(&good).unwrap();
    forged.acc.counts.limit_hits = forged.acc.counts.coups + 1;
    forged.checksum = rtplab::shard::checksum(
        &forged.key,
        &forged.shard,
        &forged.range,
        forged.chunks_done,
        &forged.acc,
    );
    std::fs::write(&f, serde_json::to_string(&forged).unwrap()).unwrap();
    refused(done(&[]), &["cannot be resumed", "counts.limit_hits = "]);
    // A truncated one.
    std::fs::write(&f, &good[..good.len() / 2]).unwrap();
    refused(done(&[]), &["cannot be resumed", "truncated"]);
    // Not a shard file at all.
    std::fs::write(&f, "results\n").unwrap();
    refused(
        done(&[]),
        &["cannot be resumed", "not a complete rtplab shard file"],
    );
    // --checkpoint needs --shard-out and a positive interval.
    fails_with(
        &["sim", "baccarat", "--coups", "1k", "--checkpoint", "1s"],
        "--shard-out",
    );
    fails_with(
        &[
            "sim",
            "baccarat",
            "--coups",
            "1k",
            "--checkpoint",
            "0s",
            "--shard-out",
            p(&f),
        ],
        "interval",
    );
    fails_with(
        &[
            "sim",
            "baccarat",
            "--coups",
            "1k",
            "--checkpoint",
            "5 days",
            "--shard-out",
            p(&f),
        ],
        "30s, 5m, 1h or 500ms",
    );
    let _ = std::fs::remove_dir_all(&d);
}
