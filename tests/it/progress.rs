//! The progress bar: drawn on stderr when stderr is a terminal, never with `--quiet`.
//! `script` (util-linux) gives the binary a pseudo-terminal.

use std::process::Command;

/// Run the binary on a pseudo-terminal and return everything it wrote there.
fn on_terminal(extra: &str) -> String {
    let cmd = format!(
        "{} sim doom --turns 3M --strategy bank-at:300 --threads 1 --format json {extra}",
        env!("CARGO_BIN_EXE_rtplab")
    );
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .expect("`script` (util-linux) runs the binary on a pseudo-terminal");
    assert!(out.status.success(), "{cmd}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn progress_bar_on_a_terminal_unless_quiet() {
    let shown = on_terminal("");
    assert!(shown.contains("chunks, eta"), "no progress bar in: {shown}");
    assert!(shown.contains("\"mean_turn_score\""));
    let quiet = on_terminal("--quiet");
    assert!(
        !quiet.contains("chunks, eta"),
        "a bar despite --quiet: {quiet}"
    );
    assert!(quiet.contains("\"mean_turn_score\""));
}
