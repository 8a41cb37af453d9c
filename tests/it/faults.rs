//! Nothing is lost on faults: SIGTERM is handled like Ctrl-C (exit 143, the partial report
//! written where it was asked for), output paths are checked before any work, shard files
//! carry a checksum, input files are checked for kind and size, and messages say what to fix.

use crate::common::*;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn dir(name: &str) -> PathBuf {
    temp_dir(&format!("faults-{name}"))
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Run the binary with `args`, send `signal` once it has worked for a moment, and return its
/// exit code and standard error. Its cache folder is new and empty: a solve is always solved,
/// never read from a table another test kept.
fn run_and_signal(args: &[&str], signal: &str) -> (Option<i32>, String) {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let child = process()
        .env("RTPLAB_CACHE", dir(&format!("signal-cache-{n}")))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let status = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let start = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(120),
        "stopped in time"
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn sigterm_writes_the_interrupted_report_and_shard_and_exits_143() {
    let d = dir("sigterm-bj");
    let (out, shard, folder) = (d.join("r.json"), d.join("s.json"), d.join("out"));
    let (code, err) = run_and_signal(
        &[
            "sim",
            "blackjack",
            "--rounds",
            "1e11",
            "--threads",
            "1",
            "--quiet",
            "--format",
            "json",
            "--output",
            p(&out),
            "--out-dir",
            p(&folder),
            "--shard-out",
            p(&shard),
        ],
        "TERM",
    );
    assert_eq!(code, Some(143), "{err}");
    assert!(err.contains("SIGTERM"), "{err}");
    assert_eq!(read_json(&out)["interrupted"], true);
    assert_eq!(read_json(&folder.join("report.json"))["interrupted"], true);
    let s = read_json(&shard);
    assert!(s["chunks_done"].as_u64().unwrap() < s["range"][1].as_u64().unwrap());
    // merge refuses the interrupted shard.
    fails_with(&["merge", p(&shard)], "interrupted");
}

#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn sigterm_stops_a_dice_game_and_sigint_still_exits_130() {
    let d = dir("sigterm-dice");
    let folder = d.join("out");
    let (code, err) = run_and_signal(
        &[
            "sim",
            "doom",
            "--turns",
            "1e12",
            "--strategy",
            "bank-at:300",
            "--threads",
            "1",
            "--quiet",
            "--out-dir",
            p(&folder),
        ],
        "TERM",
    );
    assert_eq!(code, Some(143), "{err}");
    assert_eq!(read_json(&folder.join("report.json"))["interrupted"], true);

    let out = d.join("t.json");
    let (code, err) = run_and_signal(
        &[
            "sim",
            "twenty-one",
            "--games",
            "1e10",
            "--threads",
            "1",
            "--quiet",
            "--format",
            "json",
            "--output",
            p(&out),
        ],
        "INT",
    );
    assert_eq!(code, Some(130), "{err}");
    assert_eq!(read_json(&out)["interrupted"], true);

    // The cost sweep too.
    let (code, err) = run_and_signal(
        &[
            "sim",
            "twenty-one",
            "--sweep-c",
            "0,5",
            "--games",
            "1e10",
            "--threads",
            "1",
            "--quiet",
            "--format",
            "json",
            "--output",
            p(&out),
        ],
        "TERM",
    );
    assert_eq!(code, Some(143), "{err}");
    assert_eq!(read_json(&out)["interrupted"], true);
}

#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn an_interrupted_comparison_is_marked_and_exits_143_or_130() {
    let d = dir("sigterm-compare");
    let out = d.join("c.json");
    let args = |out: &str, format: &str| {
        [
            "compare",
            "blackjack",
            "--strategy",
            "basic",
            "--strategy",
            "autoplay",
            "--players",
            "2",
            "--rounds",
            "1e11",
            "--threads",
            "1",
            "--quiet",
            "--format",
            format,
            "--output",
            out,
        ]
        .map(String::from)
    };
    let a = args(p(&out), "json");
    let (code, err) = run_and_signal(&a.each_ref().map(String::as_str), "TERM");
    assert_eq!(code, Some(143), "{err}");
    let v = read_json(&out);
    assert_eq!(v["interrupted"], true, "{v}");
    assert!(v["chunks"]["done"].as_u64().unwrap() < v["chunks"]["planned"].as_u64().unwrap());
    // The shoes and bets completed: every strategy played the same shoes (chunks done × shoes
    // per chunk), a shoe of 8 decks cut at 75% holds from 1 to 312/4 rounds, and each round
    // has a bet for each of 2 seats.
    let shoes = v["chunks"]["done"].as_u64().unwrap() * v["chunks"]["size"].as_u64().unwrap();
    assert!(shoes > 0, "{v}");
    for s in v["strategies"].as_array().unwrap() {
        let bets = s["observations"].as_u64().unwrap();
        assert!(2 * shoes <= bets && bets <= 2 * shoes * 78, "{v}");
        assert_eq!(bets % 2, 0, "{v}");
    }

    let table = d.join("c.txt");
    let a = args(p(&table), "table");
    let (code, err) = run_and_signal(&a.each_ref().map(String::as_str), "INT");
    assert_eq!(code, Some(130), "{err}");
    let t = std::fs::read_to_string(&table).unwrap();
    assert!(t.contains("INTERRUPTED: "), "{t}");
    assert!(t.contains("Paired differences"), "{t}");
}

/// Before: a signal during `strategies ramp`'s simulation wrote the ramp file from the partial
/// table with nothing in it saying so (the report had a note in lower case only). Now the ramp
/// file, the report (its status line and note, every format and plot) say INTERRUPTED and the
/// exit code is 128 + the signal; sim still plays the file. A table read from the report of an
/// interrupted run marks the ramp and the bets made from it the same way, but that command
/// ran to its end: exit 0 (it was 130, with no signal).
#[test]
fn an_interrupted_ramp_says_so_in_its_file_and_report_and_exits_143() {
    let d = dir("sigterm-ramp");
    let (ramp, out, folder) = (d.join("ramp.txt"), d.join("r.txt"), d.join("out"));
    let (code, err) = run_and_signal(
        &[
            "strategies",
            "ramp",
            "blackjack",
            "--count",
            "hi-lo",
            "--rounds",
            "1e11",
            "--threads",
            "1",
            "--quiet",
            "--ramp-out",
            p(&ramp),
            "--output",
            p(&out),
            "--out-dir",
            p(&folder),
        ],
        "TERM",
    );
    assert_eq!(code, Some(143), "{err}");
    let marked = |text: &str| text.contains("INTERRUPTED: the table's run was stopped by a signal");
    let file = std::fs::read_to_string(&ramp).unwrap();
    assert!(
        file.lines().any(|l| l.starts_with("# INTERRUPTED: ")),
        "{file}"
    );
    let report = std::fs::read_to_string(&out).unwrap();
    assert!(marked(&report), "{report}");
    assert!(report.lines().any(|l| l.starts_with("status ")), "{report}");
    assert_eq!(read_json(&folder.join("report.json"))["interrupted"], true);
    for e in std::fs::read_dir(&folder).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".json") || name == rtplab::door::MANIFEST {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("INTERRUPTED"), "{name}: {text}");
    }
    // The partial ramp is still a ramp sim plays.
    succeeds(rtplab().args([
        "sim",
        "blackjack",
        "--count",
        "hi-lo",
        "--ramp",
        p(&ramp),
        "--rounds",
        "10k",
        "--quiet",
    ]));

    // The report of an interrupted counting run, read with --from: no signal here.
    let mut v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("reports/counting-hilo-75pct/report.json").unwrap(),
    )
    .unwrap();
    v["interrupted"] = true.into();
    let partial = d.join("partial.json");
    std::fs::write(&partial, v.to_string()).unwrap();
    let from_ramp = d.join("from-ramp.txt");
    let made = succeeds(rtplab().args([
        "strategies",
        "ramp",
        "blackjack",
        "--from",
        p(&partial),
        "--ramp-out",
        p(&from_ramp),
    ]));
    assert!(marked(&String::from_utf8_lossy(&made.stdout)));
    let file = std::fs::read_to_string(&from_ramp).unwrap();
    assert!(file.contains("# INTERRUPTED: "), "{file}");
    let bets_out = d.join("bets.txt");
    let made = succeeds(rtplab().args([
        "strategies",
        "bets",
        "blackjack",
        "--from",
        p(&partial),
        "--bankroll",
        "10000",
        "--table-min",
        "10",
        "--table-max",
        "500",
        "--chip",
        "5",
        "--kelly",
        "0.5",
        "--bets-out",
        p(&bets_out),
    ]));
    assert!(marked(&String::from_utf8_lossy(&made.stdout)));
    let file = std::fs::read_to_string(&bets_out).unwrap();
    assert!(file.contains("# INTERRUPTED: "), "{file}");
}

/// A run that would take hours: it must be refused before it starts.
const LONG: [&str; 4] = ["sim", "blackjack", "--rounds", "1e12"];

fn refused_at_once(extra: &[&str], needle: &str) {
    let start = Instant::now();
    let args: Vec<&str> = LONG.iter().copied().chain(extra.iter().copied()).collect();
    fails_with(&args, needle);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{extra:?} ran first"
    );
}

#[test]
fn output_paths_are_checked_before_the_run() {
    let d = dir("outputs");
    let file = d.join("file");
    std::fs::write(&file, "x").unwrap();
    let missing = d.join("missing/r.json");
    refused_at_once(&["--output", p(&missing)], "does not exist");
    refused_at_once(&["--output", p(&d)], "is a folder");
    let under_file = file.join("r.json");
    refused_at_once(&["--output", p(&under_file)], "is not a folder");
    refused_at_once(&["--shard-out", p(&missing)], "--shard-out");
    refused_at_once(&["--shard-out", p(&d)], "is a folder");
    refused_at_once(&["--out-dir", p(&d.join("missing/out"))], "does not exist");
    refused_at_once(&["--out-dir", p(&file)], "is not a folder");
    refused_at_once(&["--output", "/proc/rtplab-report.json"], "/proc");
    // An existing kernel file opens for writing as root but keeps nothing.
    refused_at_once(&["--output", "/proc/version"], "pseudo-filesystem");
    // A non-empty folder needs --force; the new report's files then replace the old ones.
    let folder = d.join("out");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("report.json"), "{}").unwrap();
    std::fs::write(folder.join("old.csv"), "old").unwrap();
    std::fs::write(folder.join(".rtplab-files"), "old.csv\nreport.json\n").unwrap();
    refused_at_once(&["--out-dir", p(&folder)], "--force");
    succeeds(rtplab().args([
        "sim",
        "blackjack",
        "--rounds",
        "20k",
        "--quiet",
        "--out-dir",
        p(&folder),
        "--force",
    ]));
    assert!(folder.join("report.json").exists() && !folder.join("old.csv").exists());
    let left: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "no temporary folders left: {left:?}");
    // Other verbs check their outputs too.
    fails_with(
        &["exact", "twenty-one", "--output", p(&missing)],
        "does not exist",
    );
}

fn bj_shard(d: &Path, k: u64, n: u64) -> PathBuf {
    let f = d.join(format!("bj{k}.json"));
    succeeds(rtplab().args([
        "sim",
        "blackjack",
        "--rounds",
        "100k",
        "--quiet",
        "--shard",
        &format!("{k}/{n}"),
        "--shard-out",
        p(&f),
    ]));
    f
}

#[test]
fn edited_corrupted_and_foreign_shards_are_refused() {
    let d = dir("checksum");
    let (a, b) = (bj_shard(&d, 1, 2), bj_shard(&d, 2, 2));
    let out = succeeds(rtplab().args(["merge", p(&a), p(&b)]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("merged from 2 shards"), "{text}");
    assert!(!text.contains("0 threads"), "{text}");

    // Edit one number: the checksum no longer matches.
    let s = std::fs::read_to_string(&b).unwrap();
    let i = s.find("\"rounds\":").unwrap() + "\"rounds\":".len();
    let j = i + s[i..].find(|c: char| !c.is_ascii_digit()).unwrap();
    let n: u64 = s[i..j].parse().unwrap();
    let edited = d.join("edited.json");
    std::fs::write(&edited, format!("{}{}{}", &s[..i], n + 1, &s[j..])).unwrap();
    fails_with(&["merge", p(&a), p(&edited)], "edited.json");
    fails_with(&["merge", p(&a), p(&edited)], "checksum");

    // A file without its checksum is refused.
    let mut v: serde_json::Value = serde_json::from_str(&s).unwrap();
    v["checksum"] = "".into();
    let bare = d.join("bare.json");
    std::fs::write(&bare, v.to_string()).unwrap();
    fails_with(&["merge", p(&a), p(&bare)], "carries no checksum");

    // A forged file (sums edited, checksum recomputed: FNV is no signature) whose sums do not
    // fit together is refused by the plausibility checks, each naming the sums.
    use rtplab::games::blackjack::sim::BjAcc;
    use rtplab::shard::{checksum, ShardFile};
    let forge = |name: &str, edit: &dyn Fn(&mut BjAcc), needle: &str| {
        let mut f: ShardFile<BjAcc> = serde_json::from_str(&s).unwrap();
        edit(&mut f.acc);
        f.checksum = checksum(&f.key, &f.shard, &f.range, f.chunks_done, &f.acc);
        let forged = d.join(name);
        std::fs::write(&forged, serde_json::to_string(&f).unwrap()).unwrap();
        fails_with(&["merge", p(&a), p(&forged)], needle);
        fails_with(&["merge", p(&a), p(&forged)], name);
    };
    forge(
        "pairs.json",
        &|acc| acc.pairs.x = 1_000_000_000_000,
        "pairs bet",
    );
    // A count beyond what the rounds allow: 10^12 player busts printed "player bust
    // 1957123%"; every count is bounded, and the message names the field.
    forge(
        "busts.json",
        &|acc| acc.counts.player_busts = 1_000_000_000_000,
        "counts.player_busts = 1000000000000 is more than the",
    );
    forge(
        "doubles.json",
        &|acc| acc.counts.doubles = acc.counts.hands_played + 1,
        "counts.doubles",
    );
    forge(
        "hands.json",
        &|acc| acc.counts.hands_played = 8 * acc.counts.seat_rounds + 1,
        "counts.hands_played",
    );
    // A negative time (not in the checksum) is refused on its own.
    let mut v: serde_json::Value = serde_json::from_str(&s).unwrap();
    v["elapsed_s"] = (-5.0).into();
    let time = d.join("time.json");
    std::fs::write(&time, v.to_string()).unwrap();
    fails_with(
        &["merge", p(&a), p(&time)],
        "time.json: its elapsed_s = -5 is impossible",
    );
    // The main bet's net alone moved (the EV changes, the histogram and up cards do not).
    forge("main.json", &|acc| acc.main.x -= 1000, "by up card");
    // ... and with the up cards moved along (by a little, so that each sum alone still looks
    // possible), the flat-betting histogram still disagrees.
    forge(
        "main-up.json",
        &|acc| {
            acc.main.x -= 2;
            acc.by_up[9].x -= 2;
        },
        "result histogram",
    );

    // A BOM before a shard file is accepted.
    let bom = d.join("bom.json");
    std::fs::write(&bom, format!("\u{feff}{s}")).unwrap();
    succeeds(rtplab().args(["merge", p(&a), p(&bom)]));

    // A shard of another game.
    let doom = d.join("doom.json");
    succeeds(rtplab().args([
        "sim",
        "doom",
        "--turns",
        "10k",
        "--strategy",
        "bank-at:300",
        "--quiet",
        "--shard-out",
        p(&doom),
    ]));
    fails_with(&["merge", p(&a), p(&doom)], "different game");
    fails_with(&["merge", p(&doom), p(&a)], "different game");
}

#[test]
fn input_files_are_checked_for_kind_and_size() {
    let d = dir("inputs");
    let big = d.join("big.csv");
    std::fs::write(&big, "#".repeat(2 << 20)).unwrap();
    let fifo = d.join("fifo.csv");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let sub = d.join("sub.csv");
    std::fs::create_dir_all(&sub).unwrap();
    let cases: [(&str, &str); 4] = [
        ("/dev/zero", "is a character device, not a file"),
        (p(&sub), "is a directory"),
        (p(&fifo), "is a FIFO (named pipe), not a file"),
        (p(&big), "bytes, more than"),
    ];
    for (path, needle) in cases {
        let start = Instant::now();
        fails_with(&["sim", "blackjack", "--strategy", path], needle);
        fails_with(
            &["sim", "doom", "--turns", "1k", "--strategy", path],
            needle,
        );
        fails_with(
            &[
                "sim",
                "twenty-one",
                "--games",
                "1k",
                "--seat",
                path,
                "--seat",
                "greedy",
            ],
            needle,
        );
        fails_with(&["sim", "twenty-one", "--sheets", path], needle);
        if path != p(&big) {
            // Shard files may be larger (up to 256 MB).
            fails_with(&["merge", path], needle);
        }
        assert!(start.elapsed() < Duration::from_secs(30), "{path}");
    }
    // Baselines go through the same reader.
    let base = d.join("base");
    std::fs::create_dir_all(base.join("x.json")).unwrap();
    fails_with(&["check", p(&base)], "is a directory");
}

#[test]
fn missing_strategy_files_say_no_such_file() {
    fails_with(
        &["sim", "blackjack", "--strategy", "nowhere/chart.csv"],
        "no such file",
    );
    fails_with(
        &["sim", "blackjack", "--strategy", "chart.csv"],
        "no such file",
    );
    fails_with(
        &["sim", "doom", "--strategy", "nowhere/s.txt"],
        "no such file",
    );
    fails_with(&["sim", "doom", "--strategy", "s.csv"], "no such file");
    fails_with(
        &[
            "sim",
            "twenty-one",
            "--seat",
            "nowhere/s.txt",
            "--seat",
            "greedy",
        ],
        "no such file",
    );
    // A name that is no path keeps the list of strategies.
    fails_with(
        &["sim", "blackjack", "--strategy", "bogus"],
        "unknown strategy",
    );
}

#[test]
fn byte_order_marks_are_accepted_in_every_input_file() {
    let d = dir("bom");
    let chart = d.join("chart.csv");
    let seed = std::fs::read_to_string("strategies/blackjack/seed.csv").unwrap();
    std::fs::write(&chart, format!("\u{feff}{seed}")).unwrap();
    succeeds(rtplab().args([
        "sim",
        "blackjack",
        "--rounds",
        "10k",
        "--quiet",
        "--strategy",
        p(&chart),
    ]));
    let s = d.join("s.txt");
    std::fs::write(&s, "\u{feff}bank-at:300\n").unwrap();
    succeeds(rtplab().args([
        "sim",
        "doom",
        "--turns",
        "1k",
        "--quiet",
        "--strategy",
        p(&s),
    ]));
    let t = d.join("t.txt");
    std::fs::write(&t, "\u{feff}greedy\n").unwrap();
    succeeds(rtplab().args([
        "sim",
        "twenty-one",
        "--games",
        "1k",
        "--quiet",
        "--seat",
        p(&t),
        "--seat",
        "greedy",
    ]));
    let sheets = std::fs::read_to_string("strategies/twenty-one/sheets-standard.csv").unwrap();
    let sh = d.join("sheets.csv");
    std::fs::write(&sh, format!("\u{feff}{sheets}")).unwrap();
    succeeds(rtplab().args([
        "sim",
        "twenty-one",
        "--games",
        "1k",
        "--quiet",
        "--sheets",
        p(&sh),
    ]));
}

#[test]
fn chart_errors_name_the_bad_row_not_the_comment_above_it() {
    let d = dir("chart-line");
    let seed = std::fs::read_to_string("strategies/blackjack/seed.csv").unwrap();
    let (i, line) = seed
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with("H12"))
        .unwrap();
    let bad: String = seed
        .lines()
        .enumerate()
        .map(|(j, l)| {
            if j == i {
                format!("# hard twelve\n{}\n", line.replacen(",", ",X", 1))
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let f = d.join("bad.csv");
    std::fs::write(&f, bad).unwrap();
    // The comment is on line i + 1, the row on line i + 2.
    fails_with(
        &["sim", "blackjack", "--strategy", p(&f)],
        &format!("bad.csv:{}:2", i + 2),
    );
}

#[test]
fn claims_given_as_fractions_are_refused_with_the_percent() {
    for verb in [
        vec!["sim", "blackjack"],
        vec!["exact", "blackjack"],
        vec!["merge", "x.json"],
    ] {
        let mut args = verb.clone();
        args.extend(["--claim", "0.9954"]);
        fails_with(&args, "did you mean 99.54?");
    }
}

#[test]
fn too_many_rounds_says_how_to_run_them_only_where_that_exists() {
    // sim can split a run into shards; the audits cannot, so they do not suggest --shard.
    fails_with(
        &["sim", "blackjack", "--rounds", "1e17"],
        "with --shard K/N)",
    );
    // Each audit's own limit, found before any work (the blackjack audit's simulation is one
    // run, at most 1e14 rounds a tier; Doom's at most 1e12 turns or games).
    for (args, needle) in [
        (
            ["audit", "blackjack", "--rounds", "2e14"],
            "2e14 is more than one audit can simulate (at most 1e14 rounds a tier)",
        ),
        (
            ["audit", "doom", "--turns", "1e13"],
            "1e13: expected a count from 0 (none) to 1e12",
        ),
        (
            ["audit", "doom", "--games", "1e13"],
            "1e13: expected a count from 0 (none) to 1e12",
        ),
    ] {
        fails_with(&args, needle);
        let out = rtplab().args(args).output().unwrap();
        assert!(!String::from_utf8_lossy(&out.stderr).contains("--shard"));
    }
}

#[test]
fn wording_and_post_split_names() {
    let out = succeeds(rtplab().args([
        "sim",
        "blackjack",
        "--rounds",
        "10k",
        "--threads",
        "1",
        "--max-hands",
        "1",
        "--quiet",
    ]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("on 1 thread,"), "{text}");
    assert!(text.contains("1 hand max"), "{text}");
    assert!(
        !text.contains("1 threads") && !text.contains("1 hands"),
        "{text}"
    );
    let out = succeeds(rtplab().args([
        "sim",
        "doom",
        "--turns",
        "1k",
        "--strategy",
        "bank-at:300",
        "--threads",
        "1",
        "--quiet",
    ]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("on 1 thread, "), "{text}");
    // The names docs/blackjack.md gives the post-split conventions are accepted.
    for v in ["cdz", "cdz-", "cdp"] {
        succeeds(rtplab().args([
            "exact",
            "blackjack",
            "--post-split",
            v,
            "--dealer-bj-takes",
            "all",
        ]));
    }
}

/// Commands with no partial result (check, exact, merge, derive) end at once on the first
/// signal, with 128 + its number, as a scheduler expects.
#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn commands_without_a_partial_result_end_at_once_on_a_signal() {
    let start = Instant::now();
    let (code, err) = run_and_signal(&["check", "reports/baselines"], "TERM");
    assert_eq!(code, Some(143), "{err}");
    assert!(!err.contains("finishing the chunks"), "{err}");
    // Said on standard error, not only in the exit code.
    let stopped = "stopped (SIGTERM): the work was not finished and nothing was written";
    assert!(err.contains(stopped), "{err}");
    assert!(
        start.elapsed() < Duration::from_secs(6),
        "check went on after SIGTERM"
    );
    // A blackjack audit's exact part (seconds to minutes; the claim's rule changes make it
    // long) has no partial result either: a signal during it ends the command at once, with
    // no dossier (the exact part alone, with --rounds 0, would write a complete-looking one).
    // With --rounds 0 there is no simulation, so the command is never graceful.
    let d = dir("audit-signal");
    let start = Instant::now();
    let (code, err) = run_and_signal(
        &[
            "audit",
            "blackjack",
            "--rounds",
            "0",
            "--claim",
            "99.54",
            "-q",
            "--out-dir",
            p(&d.join("a")),
        ],
        "TERM",
    );
    assert_eq!(code, Some(143), "{err}");
    assert!(err.contains(stopped), "{err}");
    assert!(!d.join("a").join("report.json").exists());
    assert!(
        start.elapsed() < Duration::from_secs(6),
        "the audit's exact part went on after SIGTERM"
    );
    // advise doom solving the win probabilities of a game (seconds) has a partial result of
    // its own: the solve's progress, saved to resume from (docs/cache.md), then it ends.
    let (code, err) = run_and_signal(
        &[
            "advise",
            "doom",
            "--roll",
            "1,5,2,2,3,4",
            "--score",
            "4000",
            "--opponent",
            "5200",
            "--target",
            "10000",
        ],
        "TERM",
    );
    assert_eq!(code, Some(143), "{err}");
    assert!(err.contains("saving the solve's progress"), "{err}");
    assert!(
        err.contains("run the same command again to resume"),
        "{err}"
    );
}

/// `--output` to an existing file in a folder that takes no new files (`/dev/null` in `/dev`)
/// works, since the report is written in place; a report folder is built beside the folder
/// and swapped in whole, and `--force` replaces only a folder that holds an earlier report and
/// nothing else (a user's file beside it is named, and nothing is touched).
#[test]
fn existing_outputs_and_report_folders_are_written_in_place() {
    succeeds(rtplab().args([
        "sim",
        "blackjack",
        "--rounds",
        "20k",
        "--quiet",
        "--output",
        "/dev/null",
    ]));
    let d = dir("in-place");
    let out = d.join("results");
    std::fs::create_dir_all(out.join("keep")).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let od = |force: bool| {
        let mut a = vec![
            "sim",
            "blackjack",
            "--rounds",
            "20k",
            "--quiet",
            "--out-dir",
        ];
        a.push(p(&out));
        if force {
            a.push("--force");
        }
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    fn strs(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }
    // A folder with other files and no report: refused even with --force.
    fails_with(&strs(&od(true)), "no rtplab report");
    std::fs::remove_file(out.join("notes.txt")).unwrap();
    std::fs::remove_dir(out.join("keep")).unwrap();
    // An empty folder is replaced by the report's folder.
    succeeds(rtplab().args(od(false)));
    assert!(out.join("report.json").exists());
    // A user's file beside the report: --force refuses the folder, naming the file.
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    fails_with(
        &strs(&od(true)),
        "holds notes.txt besides the earlier report",
    );
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine"
    );
    std::fs::remove_file(out.join("notes.txt")).unwrap();
    succeeds(rtplab().args([
        "sim",
        "twenty-one",
        "--games",
        "2k",
        "--quiet",
        "--out-dir",
        p(&out),
        "--force",
    ]));
    assert!(
        !out.join("ev-by-upcard.svg").exists(),
        "the old report's files are gone"
    );
    let names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["results"], "no temporary folder left beside it");
}

#[test]
fn outputs_never_overwrite_or_remove_inputs() {
    let d = dir("no-clobber");
    let chart = d.join("chart.csv");
    let seed_chart = std::fs::read_to_string("strategies/blackjack/seed.csv").unwrap();
    std::fs::write(&chart, &seed_chart).unwrap();
    // The chart read is not the report written, however the output is spelled.
    let strategy = ["--strategy", p(&chart)];
    refused_at_once(
        &[&strategy[..], &["--output", p(&chart)]].concat(),
        "also this command's input",
    );
    let glued = format!("-o{}", p(&chart));
    refused_at_once(
        &[&strategy[..], &[glued.as_str()]].concat(),
        "would destroy it",
    );
    assert_eq!(std::fs::read_to_string(&chart).unwrap(), seed_chart);
    // A report folder replaced with --force may not hold an input (nor be one).
    let folder = d.join("out");
    succeeds(rtplab().args([
        "sim",
        "blackjack",
        "--rounds",
        "20k",
        "-q",
        "--out-dir",
        p(&folder),
    ]));
    let inside = folder.join("chart.csv");
    std::fs::write(&inside, &seed_chart).unwrap();
    refused_at_once(
        &["--strategy", p(&inside), "--out-dir", p(&folder), "--force"],
        "holds chart.csv besides the earlier report",
    );
    assert!(inside.exists());
    // check reads every baseline in its folder: a report written into it is refused.
    fails_with(
        &["check", p(&d), "--output", p(&d.join("summary.json"))],
        "which this command reads",
    );
    // --force replaces an earlier report whole: a user's file beside it is refused by name.
    std::fs::remove_file(&inside).unwrap();
    std::fs::write(folder.join("daily.csv"), "mine").unwrap();
    fails_with(
        &[
            "sim",
            "baccarat",
            "--coups",
            "20k",
            "-q",
            "--out-dir",
            p(&folder),
            "--force",
        ],
        "holds daily.csv besides the earlier report",
    );
    assert_eq!(
        std::fs::read_to_string(folder.join("daily.csv")).unwrap(),
        "mine"
    );
}

/// A hang-up (the terminal or the session closed) stops a run as SIGTERM does: the partial
/// report written and marked, its lock removed, exit 129.
#[test]
fn sighup_keeps_the_partial_report_and_exits_129() {
    let d = dir("sighup");
    let out = d.join("r.json");
    let (code, err) = run_and_signal(
        &[
            "sim",
            "baccarat",
            "--coups",
            "1e12",
            "--threads",
            "1",
            "--quiet",
            "--format",
            "json",
            "--output",
            p(&out),
        ],
        "HUP",
    );
    assert_eq!(code, Some(129), "{err}");
    assert!(err.contains("SIGHUP"), "{err}");
    assert_eq!(read_json(&out)["interrupted"], true);
    let left: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["r.json"], "files left beside the report");
}
