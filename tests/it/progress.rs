//! Progress bars: drawn on stderr when stderr is a terminal and the work lasts (over
//! `rtplab::progress::SHOW_AFTER`), never with `--quiet`, never into a pipe. `script`
//! (util-linux) gives the binary a pseudo-terminal; `timeout` ends the longer jobs once the
//! bar had time to appear.

use std::process::Command;

/// Run `rtplab ARGS` on a pseudo-terminal for at most `secs` seconds; everything it wrote there.
fn on_terminal(args: &str, secs: u32) -> String {
    let cmd = format!("{} {args}", env!("CARGO_BIN_EXE_rtplab"));
    let out = Command::new("timeout")
        .args([&secs.to_string(), "script", "-qec", &cmd, "/dev/null"])
        .output()
        .expect(
            "`timeout` and `script` (coreutils, util-linux) run the binary on a pseudo-terminal",
        );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_simulation_shows_progress_on_a_terminal_unless_quiet() {
    let args = "sim doom --turns 20M --strategy bank-at:300 --threads 1 --format json";
    let shown = on_terminal(args, 60);
    assert!(shown.contains("chunks, eta"), "no progress bar in: {shown}");
    assert!(shown.contains("\"mean_turn_score\""));
    let quiet = on_terminal(&format!("{args} --quiet"), 60);
    assert!(
        !quiet.contains("chunks, eta"),
        "a bar despite --quiet: {quiet}"
    );
    assert!(quiet.contains("\"mean_turn_score\""));
}

/// Each long job that is not a simulation shows its own bar, labelled, with an ETA; ended
/// after 8 s (the bar appears 1.5 s into the work; each job takes longer than that), or 3 s
/// under -q.
#[test]
fn long_exact_work_shows_progress_unless_quiet() {
    for (args, label) in [
        (
            "audit blackjack --rounds 0 --format json",
            "audit: exact tiers",
        ),
        ("strategies indices blackjack --count hi-lo", "index plays"),
        (
            "exact doom --players 2 --objective win --target 3000",
            "solving",
        ),
    ] {
        let shown = on_terminal(args, 8);
        assert!(
            shown.contains(label) && shown.contains("eta"),
            "{args}: no progress bar in: {shown}"
        );
        let quiet = on_terminal(&format!("{args} -q"), 3);
        assert!(!quiet.contains("eta"), "{args} -q: a bar: {quiet}");
    }
}

#[test]
fn no_progress_into_a_pipe() {
    let out = Command::new(env!("CARGO_BIN_EXE_rtplab"))
        .args(["strategies", "indices", "blackjack", "--count", "hi-lo"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
