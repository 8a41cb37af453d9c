//! Progress bars: drawn on stderr when stderr is a terminal and the work lasts (over
//! `rtplab::progress::SHOW_AFTER`), never with `--quiet`, never into a pipe. `script`
//! (util-linux) gives the binary a pseudo-terminal; `timeout` ends the longer jobs once the
//! bar had time to appear.

use std::process::Command;

/// Run `rtplab ARGS` on a pseudo-terminal for at most `secs` seconds, on one core (`taskset`:
/// the jobs take twice as long as on two, well past the bar's delay however fast the machine);
/// everything it wrote there.
fn on_terminal(args: &str, secs: u32) -> String {
    on_terminal_until(args, secs, |_| false)
}

/// [`on_terminal`], ended as soon as what it wrote satisfies `seen` (the bar is there: no
/// need to wait out the job).
fn on_terminal_until(args: &str, secs: u32, seen: impl Fn(&str) -> bool) -> String {
    use std::io::Read;
    let cmd = format!("{} {args}", crate::common::bin());
    let mut child = Command::new("timeout")
        .env("RTPLAB_CACHE", crate::common::test_cache())
        .args([
            &secs.to_string(),
            "taskset",
            "-c",
            "0",
            "script",
            "-qec",
            &cmd,
            "/dev/null",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect(
            "`timeout` and `script` (coreutils, util-linux) run the binary on a pseudo-terminal",
        );
    let mut out = child.stdout.take().expect("piped");
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n @ 1..) = out.read(&mut buf) {
            if tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut text = Vec::new();
    // Until the output is seen, the stream ends (the job or `timeout` ended it) or
    // `timeout` is late.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs as u64 + 5);
    loop {
        match rx.recv_timeout(std::time::Duration::from_millis(50)) {
            Ok(chunk) => {
                text.extend(chunk);
                if seen(&String::from_utf8_lossy(&text)) {
                    // `timeout` passes the signal on, as at its own end.
                    let _ = Command::new("kill")
                        .args(["-TERM", &child.id().to_string()])
                        .status();
                    break;
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout)
                if std::time::Instant::now() < deadline => {}
            Err(_) => break,
        }
    }
    let _ = child.wait();
    let _ = reader.join();
    text.extend(rx.try_iter().flatten());
    String::from_utf8_lossy(&text).into_owned()
}

#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
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
/// once the bar is seen or after 8 s (the bar appears 1.5 s into the work; on one core each
/// job takes 4 s or more, the Dice of Doom solve half a minute, never read from a cache), or
/// after 3 s under -q, where nothing at all is said on standard error.
#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn long_exact_work_shows_progress_unless_quiet() {
    for (args, label) in [
        (
            "audit blackjack --rounds 0 --format json",
            // Whichever stage is under way when the bar appears (exact tiers, rule changes).
            "audit: ",
        ),
        (
            "strategies indices blackjack --count hi-lo --range -20..20",
            "index plays",
        ),
        (
            "exact doom --players 2 --objective win --target 10000 --no-cache",
            "solving",
        ),
        // Many short runs under one bar.
        ("audit doom --format json", "audit doom: "),
        ("check reports/baselines", "checking the baselines"),
        (
            "strategies bets blackjack --count hi-lo --rounds 300k --bankroll 10000 \
             --table-min 25 --table-max 1000 --target-ror 5% --trip-rounds 100000",
            "bankroll trips",
        ),
    ] {
        let shown = on_terminal_until(args, 8, |t| t.contains(label) && t.contains("eta"));
        assert!(
            shown.contains(label) && shown.contains("eta"),
            "{args}: no progress bar in: {shown}"
        );
        let quiet = on_terminal(&format!("{args} -q"), 3);
        assert!(!quiet.contains("eta"), "{args} -q: a bar: {quiet}");
        assert!(
            !quiet.contains("Solving"),
            "{args} -q: said it is solving: {quiet}"
        );
    }
}

#[test]
fn no_progress_into_a_pipe() {
    let out = crate::common::process()
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
