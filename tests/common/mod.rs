//! Helpers shared by the CLI-level tests.
#![allow(dead_code)]

use assert_cmd::Command;
use std::path::PathBuf;

/// The real binary.
pub fn rtplab() -> Command {
    Command::cargo_bin("rtplab").unwrap()
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
