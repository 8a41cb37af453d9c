//! Every `rtplab ...` command of README.md and of the pages of docs/, run as written but for
//! its size: a stale example (a flag renamed, a file no longer shipped, an output folder two
//! examples share, a folder that does not exist) fails here.
//!
//! Sizes are cut so that the whole takes seconds: `--rounds`, `--games`, `--turns` and
//! `--coups` given are replaced by small counts, and added where the command's default is
//! large; the two-player Dice of Doom solves play to 1,000 instead of 10,000, and the exact
//! game of three to 200 with separate scoring and doom on one six. Each command runs
//! through `sh` in one scratch folder that sees the repository's `strategies/`, `reports/` and
//! `docs/`, so the files it writes (`--out-dir`, `-o`, `>`) land there, and a later example
//! that reuses an earlier one's output folder is refused as a user would be. `rtplab serve`,
//! which serves until stopped, runs with `--help` added: its flags are checked.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `rtplab` commands of the fenced blocks of `text`, comments removed.
fn commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let line = line.trim();
        if fenced && line.starts_with("rtplab ") {
            let cmd = line.split(" # ").next().unwrap_or(line).trim();
            out.push(cmd.to_string());
        }
    }
    out
}

/// `cmd` with its size cut (see the module's comment).
fn reduced(cmd: &str) -> String {
    let mut words: Vec<String> = cmd.split(' ').map(String::from).collect();
    let small = [
        ("--rounds", "20k"),
        ("--games", "200"),
        ("--turns", "20k"),
        ("--coups", "20k"),
        ("--target", "1000"),
        ("--score", "400"),
        ("--opponent", "500"),
        ("--trip-rounds", "2000"),
        ("--verify-shoes", "500"),
    ];
    for i in 1..words.len() {
        if let Some((_, v)) = small.iter().find(|(f, _)| *f == words[i - 1]) {
            words[i] = v.to_string();
        }
    }
    // The exact game of three: a smaller target, and turns short and simple enough for a
    // few seconds.
    let three = cmd.starts_with("rtplab exact doom ")
        && words.windows(2).any(|w| w[0] == "--players" && w[1] == "3");
    if three {
        for i in 1..words.len() {
            if words[i - 1] == "--target" {
                words[i] = "200".into();
            }
        }
    }
    let has = |flag: &str| words.iter().any(|w| w == flag);
    let head = words.iter().take(3).cloned().collect::<Vec<_>>().join(" ");
    let mut extra: Vec<&str> = Vec::new();
    match head.as_str() {
        "rtplab sim blackjack" | "rtplab compare blackjack" | "rtplab audit blackjack"
            if !has("--rounds") =>
        {
            extra.extend(["--rounds", "20k"])
        }
        "rtplab strategies ramp" | "rtplab strategies bets"
            if !has("--rounds") && !has("--from") =>
        {
            extra.extend(["--rounds", "20k"])
        }
        "rtplab sim doom" if !has("--games") && !has("--turns") => extra.extend(["--games", "200"]),
        _ if head.starts_with("rtplab study ") && !has("--rounds") => {
            extra.extend(["--rounds", "20k"])
        }
        "rtplab sim baccarat" | "rtplab compare baccarat" if !has("--coups") => {
            extra.extend(["--coups", "20k"])
        }
        "rtplab audit doom" => extra.extend(["--turns", "10k", "--games", "0"]),
        "rtplab exact doom" if three => extra.extend(["--held-dice", "separate", "--doom", "1"]),
        "rtplab sim twenty-one" if !has("--games") => extra.extend(["--games", "2000"]),
        _ => {}
    }
    // The page's server runs until stopped: its command line is checked, not served.
    if words.get(1).is_some_and(|w| w == "serve") {
        extra.push("--help");
    }
    // Before a redirection, if any.
    let at = words.iter().position(|w| w == ">").unwrap_or(words.len());
    for (k, e) in extra.into_iter().enumerate() {
        words.insert(at + k, e.to_string());
    }
    words.join(" ")
}

/// A scratch folder of its own (tests run side by side): `reports/`, `docs/`, `tables/` and
/// `studies/` seen through links (read only), `strategies/` copied (an example writes a
/// strategy file there).
fn scratch() -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let d = std::env::temp_dir().join(format!("rtplab-examples-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for sub in ["reports", "docs", "tables", "studies"] {
        std::os::unix::fs::symlink(root.join(sub), d.join(sub)).unwrap();
    }
    copy_dir(&root.join("strategies"), &d.join("strategies"));
    d
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// Run `cmd` (its `rtplab` the binary under test) in `dir`; its output and exit code.
fn run(cmd: &str, dir: &Path) -> (i32, String) {
    let bin = crate::common::bin();
    let line = format!("{bin}{}", cmd.strip_prefix("rtplab").unwrap_or(cmd));
    let out = Command::new("sh")
        .env("RTPLAB_CACHE", crate::common::test_cache())
        .arg("-c")
        .arg(&line)
        .current_dir(dir)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn the_readme_commands_are_found_and_cut_to_size() {
    let text =
        "```\nrtplab sim blackjack --rounds 200M   # big\nnot a command\n```\nrtplab outside\n";
    assert_eq!(commands(text), ["rtplab sim blackjack --rounds 200M"]);
    assert_eq!(
        reduced("rtplab sim blackjack --decks 6 --out-dir 6d"),
        "rtplab sim blackjack --decks 6 --out-dir 6d --rounds 20k"
    );
    assert_eq!(
        reduced("rtplab strategies indices blackjack --count hi-lo > my.csv"),
        "rtplab strategies indices blackjack --count hi-lo > my.csv"
    );
    assert_eq!(
        reduced("rtplab advise doom --score 4000 --opponent 5200 --target 10000"),
        "rtplab advise doom --score 400 --opponent 500 --target 1000"
    );
    assert_eq!(
        reduced("rtplab exact doom --players 3 --objective win --target 500"),
        "rtplab exact doom --players 3 --objective win --target 200 --held-dice separate --doom 1"
    );
}

/// Run every command of `cmds` (sizes cut) in one scratch folder, in order; the failures.
/// The sharded example runs its eight shards before the merge that reads them.
fn run_all(cmds: &[String]) -> Vec<String> {
    let dir = scratch();
    let mut failed = Vec::new();
    for cmd in cmds {
        let cmd = reduced(cmd);
        let runs: Vec<String> = if cmd.contains("--shard 3/8") {
            (1..=8)
                .map(|k| {
                    cmd.replace("--shard 3/8", &format!("--shard {k}/8"))
                        .replace("shard-3.json", &format!("shard-{k}.json"))
                })
                .collect()
        } else {
            vec![cmd.clone()]
        };
        for c in runs {
            let start = std::time::Instant::now();
            let (code, text) = run(&c, &dir);
            // Seen with --nocapture: where the group's time goes.
            eprintln!("{:7.2} s  {c}", start.elapsed().as_secs_f64());
            if code != 0 {
                let tail: String = text.lines().rev().take(6).collect::<Vec<_>>().join(" | ");
                failed.push(format!("{c}: exit {code}: {tail}"));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    failed
}

/// Every README command succeeds as written (sizes cut), in the order the README gives them.
#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn every_readme_command_runs() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let cmds = commands(&readme);
    assert!(cmds.len() >= 25, "{cmds:#?}");
    let failed = run_all(&cmds);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Commands of docs/ that cannot run on one machine, each with why: they are left out here
/// and checked where they can run.
const NOT_HERE: &[(&str, &str)] = &[(
    "rtplab merge /shared/run1/shard-*.json",
    "merges the shards a Slurm array wrote (deploy/slurm/local-cluster-check.sh runs it on a real Slurm)",
)];

/// Every command of every page of docs/ succeeds as written (sizes cut), each page's in order
/// in a scratch folder of its own (a page's later example may read an earlier one's output).
#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn every_docs_command_runs() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&docs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    let mut failed = Vec::new();
    let mut ran = 0;
    for page in &pages {
        let cmds: Vec<String> = commands(&std::fs::read_to_string(page).unwrap())
            .into_iter()
            .filter(|c| !NOT_HERE.iter().any(|(n, _)| n == c))
            .collect();
        ran += cmds.len();
        for f in run_all(&cmds) {
            failed.push(format!("{}: {f}", page.display()));
        }
    }
    assert!(ran >= 40, "only {ran} commands found in docs/");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
