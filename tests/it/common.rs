//! Helpers shared by the CLI-level tests.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// The real binary, its cache folder of solved tables one of the test process's own (never
/// the user's).
pub fn rtplab() -> Command {
    let mut c = Command::cargo_bin("rtplab").unwrap();
    c.env("RTPLAB_CACHE", test_cache());
    c
}

/// The binary's path, for tests that run it through a shell (`sh -c`, `script`, `ulimit`):
/// they set `RTPLAB_CACHE` to [`test_cache`] themselves (see [`process`]).
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_rtplab")
}

/// The binary as a plain process (signals, pipes, pseudo-terminals), with the tests' own cache
/// folder like [`rtplab`]: no test reads or fills the user's cache, so no test finds a table
/// another test (or the user) solved.
pub fn process() -> std::process::Command {
    let mut c = std::process::Command::new(bin());
    c.env("RTPLAB_CACHE", test_cache());
    c
}

/// The cache folder the tests' commands use.
pub fn test_cache() -> PathBuf {
    std::env::temp_dir().join(format!("rtplab-it-cache-{}", std::process::id()))
}

/// Run a command and require exit code 0 (the failure shows its standard error).
pub fn succeeds(cmd: &mut Command) -> std::process::Output {
    let out = cmd.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Run the binary, require exit code 0, and parse its standard output as JSON.
pub fn json(args: &[&str]) -> serde_json::Value {
    let out = succeeds(rtplab().args(args));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every `.rs` file under `dir`, its subfolders included.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A fresh temporary folder for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rtplab-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Run the binary and require exit code 2 with `needle` in standard error, and no panic.
pub fn fails_with(args: &[&str], needle: &str) {
    let out = rtplab().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?}: exit {:?}, stderr {err}",
        out.status.code()
    );
    assert!(
        err.contains(needle),
        "{args:?}: expected '{needle}' in: {err}"
    );
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
}

/// JSON keys that differ between a run and the same run sharded and merged: timings, threads,
/// and the merge's own record.
pub const RUN_ONLY_KEYS: [&str; 8] = [
    "elapsed_s",
    "setup_s",
    "turns_per_s",
    "games_per_s",
    "coups_per_s",
    "threads",
    "interrupted",
    "merged_from",
];

/// Run `whole` (a `sim ... --format json -q` command line) once and as 3 shards written into
/// `dir` (named `name-K.json`), merge them, and check the merged JSON equals the single run's
/// but for `RUN_ONLY_KEYS`. Returns the shard files.
pub fn assert_shards_merge_to_the_single_run(
    dir: &std::path::Path,
    name: &str,
    whole: &[&str],
) -> Vec<PathBuf> {
    let strip = |mut j: serde_json::Value| {
        for k in RUN_ONLY_KEYS {
            j[k] = serde_json::Value::Null;
        }
        j
    };
    let single = strip(json(whole));
    let mut files = Vec::new();
    for k in 1..=3 {
        let f = dir.join(format!("{name}-{k}.json"));
        // A new run each time: an earlier run's shard file is refused, never overwritten.
        let _ = std::fs::remove_file(&f);
        let spec = format!("{k}/3");
        let mut a = whole.to_vec();
        a.extend(["--shard", &spec, "--shard-out", f.to_str().unwrap()]);
        json(&a);
        files.push(f);
    }
    let mut m = vec!["merge", "--format", "json"];
    m.extend(files.iter().map(|f| f.to_str().unwrap()));
    let merged = strip(json(&m));
    assert_eq!(single, merged, "{whole:?}");
    files
}
