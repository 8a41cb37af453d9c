//! Nothing lost when runs collide, links alias or disks fill: a second run on an output another
//! run holds is refused at once (naming the holder), a run killed outright can still be
//! resumed, an output that is an input under another name (hard or symbolic link) is refused,
//! and a write that fails on a full disk leaves the earlier file whole, no temporary file, and
//! a message saying where the result went.

use crate::common::*;

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Start the binary in the background.
fn spawn(args: &[&str]) -> Child {
    process()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Wait (at most a minute) until `path` exists.
fn wait_for(path: &Path) {
    let start = Instant::now();
    while !path.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The lock file that holds `name` in `dir` while a run writes it.
fn lock_of(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!(".{name}.rtplab-lock"))
}

fn kill(child: &mut Child, signal: &str) -> Option<i32> {
    std::process::Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    child.wait().unwrap().code()
}

/// A long simulation writing `flag path` (stopped by the test).
fn long_sim<'a>(seed: &'a str, flag: &'a str, path: &'a str) -> Vec<&'a str> {
    vec![
        "sim",
        "blackjack",
        "--rounds",
        "20G",
        "--seed",
        seed,
        "-q",
        flag,
        path,
    ]
}

#[test]
fn a_second_run_on_an_output_in_use_is_refused_at_once() {
    let d = temp_dir("collide");
    let out_dir = d.join("od");
    for (flag, path, name) in [
        ("--shard-out", d.join("c.json"), "c.json"),
        ("--output", d.join("r.json"), "r.json"),
        ("--out-dir", out_dir.clone(), "od"),
    ] {
        let mut first = spawn(&long_sim("1", flag, p(&path)));
        wait_for(&lock_of(&d, name));
        let start = Instant::now();
        let out = rtplab()
            .args(long_sim("2", flag, p(&path)))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag}: {err}");
        assert!(
            err.contains("in use by another rtplab run")
                && err.contains(&format!("process {}", first.id()))
                && err.contains(p(&path)),
            "{flag}: {err}"
        );
        assert!(start.elapsed() < Duration::from_secs(30), "refused at once");
        // Another spelling of the same output is the same output.
        let spelled = d.join(".").join(name);
        fails_with(
            &long_sim("3", flag, p(&spelled)),
            "in use by another rtplab run",
        );
        assert_eq!(kill(&mut first, "TERM"), Some(143));
        assert!(
            path.exists(),
            "{flag}: the first run's partial result was written"
        );
        assert!(!lock_of(&d, name).exists(), "{flag}: lock file removed");
    }
    // One command naming one file twice is refused too.
    let both = d.join("both.json");
    fails_with(
        &[
            "sim",
            "blackjack",
            "--rounds",
            "20k",
            "-q",
            "--output",
            p(&both),
            "--shard-out",
            p(&both),
        ],
        "also --output of this command",
    );
}

#[test]
fn a_run_killed_outright_resumes_from_its_checkpoint() {
    let d = temp_dir("collide-kill");
    let shard = d.join("s.json");
    let args = [
        "sim",
        "blackjack",
        "--rounds",
        "20G",
        "-q",
        "--shard-out",
        p(&shard),
        "--checkpoint",
        "200ms",
    ];
    let mut first = spawn(&args);
    wait_for(&shard);
    // SIGKILL: no handler runs, the lock file stays behind, but the lock dies with the process.
    kill(&mut first, "KILL");
    assert!(lock_of(&d, "s.json").exists());
    let mut again = spawn(&args);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(kill(&mut again, "TERM"), Some(143));
    let mut err = String::new();
    std::io::Read::read_to_string(again.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert!(!err.contains("in use"), "{err}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&shard).unwrap()).unwrap();
    assert!(
        v["chunks_done"].as_u64().unwrap() > 0,
        "resumed and went on"
    );
}

#[test]
fn an_output_that_is_an_input_by_another_name_is_refused() {
    let d = temp_dir("collide-links");
    let shards: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let f = d.join(format!("h{k}.json"));
            succeeds(rtplab().args([
                "sim",
                "blackjack",
                "--rounds",
                "40k",
                "-q",
                "--shard",
                &format!("{k}/2"),
                "--shard-out",
                p(&f),
            ]));
            f
        })
        .collect();
    let before = std::fs::read(&shards[0]).unwrap();
    let hard = d.join("h1hard.json");
    std::fs::hard_link(&shards[0], &hard).unwrap();
    let soft = d.join("h1soft.json");
    std::os::unix::fs::symlink(&shards[0], &soft).unwrap();
    for link in [&hard, &soft] {
        fails_with(
            &["merge", p(&shards[0]), p(&shards[1]), "-o", p(link)],
            "also this command's input",
        );
    }
    assert_eq!(std::fs::read(&shards[0]).unwrap(), before);
    // The monitor's log likewise.
    let log = d.join("g.csv");
    let text = "period,rounds,wagered,returned\nmon,10000,10000,9950\n";
    std::fs::write(&log, text).unwrap();
    let ghard = d.join("ghard.csv");
    std::fs::hard_link(&log, &ghard).unwrap();
    fails_with(
        &[
            "monitor",
            "--expected",
            "reports/seed-table/report.json",
            p(&log),
            "-o",
            p(&ghard),
        ],
        "also this command's input",
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), text);
}

/// A small tmpfs mounted at a fresh folder (as root; `None` with a message otherwise).
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(name: &str, size: &str) -> Option<Tmpfs> {
        let d = temp_dir(name);
        let ok = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs", p(&d)])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("skipped: a tmpfs cannot be mounted here (needs root)");
            return None;
        }
        Some(Tmpfs(d))
    }

    /// Fill the filesystem until fewer than `left` bytes are free.
    fn fill(&self, left: usize) {
        use std::io::Write as _;
        let mut f = std::fs::File::create(self.0.join("filler")).unwrap();
        let block = vec![0u8; 1024];
        while f.write_all(&block).and_then(|_| f.sync_all()).is_ok() {}
        // Free what the test needs for its own small files, below what a report needs.
        let len = f.metadata().unwrap().len();
        f.set_len(len.saturating_sub(left as u64)).unwrap();
    }

    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_keeps_the_earlier_file_and_says_where_the_result_went() {
    let Some(fs) = Tmpfs::mount("full-disk", "512k") else {
        return;
    };
    let report = fs.0.join("r.json");
    std::fs::write(&report, "the earlier report").unwrap();
    fs.fill(2048);
    let out = rtplab()
        .args([
            "sim",
            "blackjack",
            "--rounds",
            "20k",
            "-q",
            "--format",
            "json",
            "--output",
            p(&report),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("cannot write --output {}", report.display()))
            && err.contains("standard output"),
        "{err}"
    );
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        printed["ev"].is_number(),
        "the report is on standard output"
    );
    assert_eq!(
        std::fs::read_to_string(&report).unwrap(),
        "the earlier report"
    );
    assert_eq!(fs.names(), ["filler", "r.json"], "no temporary file left");

    // A shard file that cannot be written: the report still goes where it was asked, and the
    // message says where the shard's sums were saved instead.
    let elsewhere = temp_dir("full-disk-report");
    let kept = elsewhere.join("r.md");
    let shard = fs.0.join("s.json");
    let out = rtplab()
        .args([
            "sim",
            "blackjack",
            "--rounds",
            "20k",
            "-q",
            "--shard-out",
            p(&shard),
            "--output",
            p(&kept),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(kept.exists(), "the report was written: {err}");
    assert!(
        err.contains(p(&shard))
            && err.contains("saved to")
            && err.contains(&format!(
                "the report was written to --output {}",
                kept.display()
            )),
        "{err}"
    );
    assert_eq!(fs.names(), ["filler", "r.json"], "no temporary file left");
}
