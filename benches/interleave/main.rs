//! The interleaved timer: two builds (or two code paths of one build) timed chunk by chunk
//! inside their own processes, in turn, and compared pair by pair.
//!
//! Whole runs of two builds on a shared machine move by 5–10% from run to run. Here both
//! builds serve the same run (`rtplab bench-serve GAME ARGS`, `rtplab::game::serve`), started
//! afresh for each of a few sets of pairs; for every pair each is asked to play the next stretch of rounds, A then B
//! and B then A in turn (ABBA), each timing only its play. The two halves of a pair run
//! seconds apart on the same chunks, so the load of the machine falls on both alike, and the
//! median of the pairwise ratios B/A with its quartiles is the comparison.
//!
//! ```text
//! cargo run --release -p rtplab-interleave -- \
//!     --a OLD/rtplab --b target/release/rtplab --pairs 30 -- sim blackjack --seed 7
//! ```
//!
//! Options (docs/performance.md, "Timing the loop"):
//! - `--a PATH`, `--b PATH`: the two builds (`--b` defaults to `--a`: two code paths of one
//!   build, told apart by `--a-args`/`--b-args`);
//! - `--a-args "ARGS"`, `--b-args "ARGS"`: arguments added to A's or B's run (split on
//!   white space);
//! - `--chunk ROUNDS` (default 2M): the rounds of one request, in whole chunks of the run;
//! - `--pairs N` (default 30), `--warmup N` (default 2 requests each, not counted);
//! - `--sets N` (default 3): the pairs are split over N sets, each with both servers started
//!   afresh (a process's layout in memory moves its speed by a fraction of a percent, shared
//!   by the pairs of one set);
//! - `--allow-differ`: the results may differ (two code paths that play differently);
//!   otherwise a checksum that differs is an error (exit 1) after the report;
//! - `--timeout SECS` (default 600): the longest wait for one answer;
//! - after `--`: the run, as `sim GAME ARGS` (or `bench-serve GAME ARGS`).
//!
//! Exit codes: 0 done, 1 the two builds' results differed, 2 usage error or a build that
//! cannot serve (missing, not executable, without `bench-serve`, refusing the arguments).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rtplab::game::serve::{Answer, Hello, Spread, HELLO};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = match Opts::parse(&args) {
        Ok(Some(o)) => o,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&opts) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

const USAGE: &str = "\
usage: interleave --a PATH [--b PATH] [--a-args ARGS] [--b-args ARGS] [--chunk ROUNDS]
                  [--pairs N] [--warmup N] [--sets N] [--allow-differ] [--timeout SECS]
                  -- sim GAME ARGS...

Times two builds (or two code paths: --a-args/--b-args) chunk by chunk, each in its own
`rtplab bench-serve` process, in turn (ABBA); prints each build's median ns per round and the
median of the pairwise ratios B/A with its quartiles. Defaults: --b = --a, --chunk 2M,
--pairs 30, --warmup 2, --sets 3 (of fresh processes), --timeout 600. Exit 1 when the results differ (unless --allow-differ),
2 on a usage error or a build that cannot serve.
";

/// The timer's options.
#[derive(Clone, Debug, PartialEq)]
struct Opts {
    a: PathBuf,
    b: PathBuf,
    a_args: Vec<String>,
    b_args: Vec<String>,
    chunk: u64,
    pairs: usize,
    warmup: usize,
    /// Sets of fresh processes the pairs are split over.
    sets: usize,
    allow_differ: bool,
    timeout: Duration,
    /// The server's arguments: `bench-serve GAME ARGS`.
    run: Vec<String>,
}

impl Opts {
    /// The options of a command line (`None`: help was asked for).
    fn parse(args: &[String]) -> Result<Option<Opts>, String> {
        let (mut a, mut b) = (None, None);
        let (mut a_args, mut b_args) = (Vec::new(), Vec::new());
        let (mut chunk, mut pairs, mut warmup, mut timeout) = (2_000_000, 30, 2, 600);
        let mut sets = 3;
        let mut allow_differ = false;
        let mut run = None;
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let mut value = || {
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("{arg} needs a value"))
            };
            let count = |v: String, min: u64| -> Result<u64, String> {
                match rtplab::numparse::parse_count(&v) {
                    Ok(n) if n >= min => Ok(n),
                    Ok(_) => Err(format!("{arg} {v}: at least {min}")),
                    Err(e) => Err(format!("{arg} {v}: {e}")),
                }
            };
            match arg.as_str() {
                "-h" | "--help" => return Ok(None),
                "--a" => a = Some(PathBuf::from(value()?)),
                "--b" => b = Some(PathBuf::from(value()?)),
                "--a-args" => a_args = words(&value()?),
                "--b-args" => b_args = words(&value()?),
                "--chunk" => chunk = count(value()?, 1)?,
                "--pairs" => pairs = count(value()?, 1)? as usize,
                "--warmup" => warmup = count(value()?, 0)? as usize,
                "--sets" => sets = count(value()?, 1)? as usize,
                "--timeout" => timeout = count(value()?, 1)?,
                "--allow-differ" => allow_differ = true,
                "--" => {
                    run = Some(it.by_ref().cloned().collect::<Vec<_>>());
                    break;
                }
                other => return Err(format!("unknown argument '{other}'")),
            }
        }
        let a = a.ok_or("--a PATH is required (the build to time)")?;
        let mut run = run.ok_or("the run is missing: end with -- sim GAME ARGS...")?;
        match run.first().map(String::as_str) {
            Some("sim") | Some("bench-serve") if run.len() >= 2 => run[0] = "bench-serve".into(),
            _ => {
                return Err(format!(
                    "the run after -- must be `sim GAME ARGS...`, not '{}'",
                    run.join(" ")
                ))
            }
        }
        Ok(Some(Opts {
            b: b.unwrap_or_else(|| a.clone()),
            a,
            a_args,
            b_args,
            chunk,
            pairs,
            warmup,
            sets,
            allow_differ,
            timeout: Duration::from_secs(timeout),
            run,
        }))
    }
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// One build serving its run: the process, its pipes, and the lines it has written.
struct Served {
    name: &'static str,
    path: PathBuf,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    hello: Hello,
}

impl Served {
    /// Start `path` serving `args` and read its hello.
    fn start(
        name: &'static str,
        path: &PathBuf,
        args: &[String],
        timeout: Duration,
    ) -> Result<Served, String> {
        let mut child = Command::new(path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{name}: cannot start {}: {e}", path.display()))?;
        let stdout = child.stdout.take().ok_or("no standard output")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        // Standard error drained as it comes (a full pipe would stall the server), kept for
        // the message when the server stops.
        let stderr = Arc::new(Mutex::new(String::new()));
        if let Some(mut err) = child.stderr.take() {
            let keep = stderr.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = err.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut k) = keep.lock() {
                        if k.len() < 64 * 1024 {
                            k.push_str(&String::from_utf8_lossy(&buf[..n]));
                        }
                    }
                }
            });
        }
        let stdin = child.stdin.take();
        let mut served = Served {
            name,
            path: path.clone(),
            child,
            stdin,
            lines,
            stderr,
            hello: Hello {
                game: String::new(),
                seed: 0,
                chunks: 0,
                chunk_size: 0,
            },
        };
        let first = served.line(timeout)?;
        served.hello = Hello::parse(&first).ok_or_else(|| {
            let what = if first.starts_with("rtplab-serve ") {
                format!("it serves another version of the protocol ('{first}', this timer speaks '{HELLO}'): rebuild it with the current serve commits, `benches/interleave/base.sh COMMIT`")
            } else {
                format!("its first line is not a hello of bench-serve: '{first}'")
            };
            served.failure(&what)
        })?;
        Ok(served)
    }

    /// The next line the server writes, waiting at most `timeout`.
    fn line(&mut self, timeout: Duration) -> Result<String, String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                Err(format!(
                    "{} ({}) did not answer within {} s (--timeout); stopped it",
                    self.name,
                    self.path.display(),
                    timeout.as_secs()
                ))
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.failure("it stopped")),
        }
    }

    /// Why the server failed: its exit status and standard error, and what to do when the
    /// build has no serve mode.
    fn failure(&mut self, what: &str) -> String {
        let status = self.child.wait().ok();
        // The drain thread ends with the process; give it a moment to keep the last bytes.
        std::thread::sleep(Duration::from_millis(50));
        let err = self.stderr.lock().map(|e| e.clone()).unwrap_or_default();
        let err = err.trim();
        let no_serve = err.contains("bench-serve")
            && (err.contains("unrecognized subcommand") || err.contains("invalid subcommand"));
        let mut msg = format!("{} ({}): {what}", self.name, self.path.display());
        if let Some(s) = status {
            msg += &format!(" ({s})");
        }
        if no_serve {
            msg += "; this build has no serve mode (`rtplab bench-serve`): build its commit \
                    with the serve commit cherry-picked, `benches/interleave/base.sh COMMIT`";
        }
        if !err.is_empty() {
            let shown: Vec<&str> = err.lines().take(8).collect();
            msg += &format!("\n  its standard error: {}", shown.join("\n  "));
        }
        msg
    }

    /// Ask for a request and read its answer.
    fn ask(&mut self, request: &str, timeout: Duration) -> Result<Answer, String> {
        let sent = match self.stdin.as_mut() {
            Some(s) => writeln!(s, "{request}").and_then(|_| s.flush()),
            None => Err(std::io::Error::other("closed")),
        };
        if sent.is_err() {
            return Err(self.failure("its input is closed"));
        }
        let line = self.line(timeout)?;
        Answer::parse(&line).ok_or_else(|| self.failure(&format!("answered '{line}'")))
    }

    /// End the server: `quit`, then wait for it.
    fn quit(mut self) {
        if let Some(mut s) = self.stdin.take() {
            let _ = writeln!(s, "quit");
        }
        let _ = self.child.wait();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        // A server still running when the timer stops early (an error) is stopped with it.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// One pair's figures: each build's nanoseconds per round by the serving thread's CPU time
/// and by the wall clock, and whether the two checksums agreed.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pair {
    /// A's and B's CPU nanoseconds per round.
    cpu: [f64; 2],
    /// A's and B's wall-clock nanoseconds per round.
    wall: [f64; 2],
    same: bool,
    /// The set of processes that played it.
    set: usize,
}

impl Pair {
    fn of(a: &Answer, b: &Answer, set: usize) -> Pair {
        Pair {
            set,
            cpu: [a.cpu_ns_per_unit(), b.cpu_ns_per_unit()],
            wall: [a.ns_per_unit(), b.ns_per_unit()],
            same: a.sum == b.sum && a.units == b.units,
        }
    }
}

/// Whether A goes first in pair `i` (ABBA: A B, B A, A B, ...).
fn a_first(i: usize) -> bool {
    i.is_multiple_of(2)
}

/// The lines of one clock: each build's median ns per round and the pairwise ratios B/A.
fn clock_lines(title: &str, times: &[[f64; 2]]) -> String {
    let of = |f: &dyn Fn(&[f64; 2]) -> f64| Spread::of(&times.iter().map(f).collect::<Vec<_>>());
    let (Some(a), Some(b), Some(r)) = (of(&|t| t[0]), of(&|t| t[1]), of(&|t| t[1] / t[0])) else {
        return format!("{title}: no pairs timed\n");
    };
    let mut t = format!("{title}\n");
    t += &format!(
        "  A     {:.2} ns per round (quartiles {:.2}-{:.2})\n",
        a.median, a.q1, a.q3
    );
    t += &format!(
        "  B     {:.2} ns per round (quartiles {:.2}-{:.2})\n",
        b.median, b.q1, b.q3
    );
    t += &format!(
        "  B/A   median {:.4}, quartiles {:.4}-{:.4}, range {:.4}-{:.4} ({} pairs)\n",
        r.median,
        r.q1,
        r.q3,
        r.min,
        r.max,
        times.len()
    );
    let pct = (1.0 - r.median) * 100.0;
    t += &format!(
        "        B takes {:.1}% {} time per round than A (quartiles {:+.1}% to {:+.1}%)\n",
        pct.abs(),
        if pct >= 0.0 { "less" } else { "more" },
        (1.0 - r.q3) * 100.0,
        (1.0 - r.q1) * 100.0
    );
    t
}

/// The report of the pairs (and whether to say the results differed).
fn summary(pairs: &[Pair], allow_differ: bool) -> (String, bool) {
    let cpu: Vec<[f64; 2]> = pairs.iter().map(|p| p.cpu).collect();
    let wall: Vec<[f64; 2]> = pairs.iter().map(|p| p.wall).collect();
    let mut t = clock_lines("by the serving thread's CPU time (the comparison):", &cpu);
    let sets = pairs.iter().map(|p| p.set + 1).max().unwrap_or(0);
    if sets > 1 {
        let medians: Vec<String> = (0..sets)
            .filter_map(|k| {
                let r: Vec<f64> = pairs
                    .iter()
                    .filter(|p| p.set == k)
                    .map(|p| p.cpu[1] / p.cpu[0])
                    .collect();
                Spread::of(&r).map(|s| format!("{:.4}", s.median))
            })
            .collect();
        t += &format!(
            "        B/A of each set of fresh processes: median {}\n",
            medians.join(", ")
        );
    }
    t += &clock_lines(
        "by the wall clock (with the time a server waited for a core):",
        &wall,
    );
    let differ = pairs.iter().filter(|p| !p.same).count();
    let ok = differ == 0 || allow_differ;
    if differ == 0 {
        t += "results: the same in every pair (checksums agree)\n";
    } else if allow_differ {
        t += &format!(
            "results: differ in {differ} of {} pairs (--allow-differ)\n",
            pairs.len()
        );
    } else {
        t += &format!(
            "RESULTS DIFFER: the checksums of A and B disagree in {differ} of {} pairs; the two builds do not play the same rounds the same way (--allow-differ if they are not meant to)\n",
            pairs.len()
        );
    }
    (t, ok)
}

/// The pairs of each set of fresh processes: `pairs` split as evenly as can be over `sets`
/// (at most one set a pair).
fn set_sizes(pairs: usize, sets: usize) -> Vec<usize> {
    let sets = sets.clamp(1, pairs.max(1));
    (0..sets)
        .map(|k| pairs / sets + usize::from(k < pairs % sets))
        .collect()
}

/// Time the pairs; `Ok(false)`: the results differed.
fn run(o: &Opts) -> Result<bool, String> {
    let args = |extra: &[String]| -> Vec<String> { o.run.iter().chain(extra).cloned().collect() };
    let hello = Duration::from_secs(120).max(o.timeout.min(Duration::from_secs(600)));
    let request = format!("play {}", o.chunk);
    let sizes = set_sizes(o.pairs, o.sets);
    eprintln!(
        "A: {} {}\nB: {} {}\n{} pairs of {} rounds in {} set(s) of fresh processes, {} warm-up request(s) each per set, ABBA order",
        o.a.display(),
        args(&o.a_args).join(" "),
        o.b.display(),
        args(&o.b_args).join(" "),
        o.pairs,
        o.chunk,
        sizes.len(),
        o.warmup
    );
    let mut early_differ = false;
    let mut pairs = Vec::with_capacity(o.pairs);
    for (set, &n) in sizes.iter().enumerate() {
        // Each set starts both servers afresh (which first, in turn): a process's own layout
        // in memory moves its speed by a fraction of a percent, which the pairs of one set
        // share and the sets do not.
        let start = |who: &'static str| {
            let (path, extra) = match who {
                "A" => (&o.a, &o.a_args),
                _ => (&o.b, &o.b_args),
            };
            Served::start(who, path, &args(extra), hello)
        };
        let (mut a, mut b) = if set % 2 == 0 {
            let a = start("A")?;
            (a, start("B")?)
        } else {
            let b = start("B")?;
            (start("A")?, b)
        };
        if set == 0 {
            eprintln!(
                "chunks of {} {}",
                a.hello.chunk_size,
                if a.hello.game == "blackjack" {
                    "shoes (rounds when shuffled every round)"
                } else {
                    "in the game's unit"
                }
            );
            if a.hello.chunk_size != b.hello.chunk_size || a.hello.game != b.hello.game {
                eprintln!(
                    "warning: A and B plan different runs: A '{}', B '{}'",
                    a.hello, b.hello
                );
            }
        }
        for _ in 0..o.warmup {
            let (x, y) = (a.ask(&request, o.timeout)?, b.ask(&request, o.timeout)?);
            early_differ |= !Pair::of(&x, &y, set).same;
        }
        for _ in 0..n {
            let i = pairs.len();
            let (x, y) = if a_first(i) {
                let x = a.ask(&request, o.timeout)?;
                (x, b.ask(&request, o.timeout)?)
            } else {
                let y = b.ask(&request, o.timeout)?;
                (a.ask(&request, o.timeout)?, y)
            };
            let p = Pair::of(&x, &y, set);
            eprintln!(
                "pair {:>3}/{} (set {}): CPU A {:.2} B {:.2} ns/round, B/A {:.4}; wall B/A {:.4}{}",
                i + 1,
                o.pairs,
                set + 1,
                p.cpu[0],
                p.cpu[1],
                p.cpu[1] / p.cpu[0],
                p.wall[1] / p.wall[0],
                if p.same { "" } else { "  RESULTS DIFFER" }
            );
            pairs.push(p);
        }
        a.quit();
        b.quit();
    }
    let (text, mut ok) = summary(&pairs, o.allow_differ);
    print!("{text}");
    if early_differ && !o.allow_differ {
        println!("RESULTS DIFFER already in the warm-up");
        ok = false;
    }
    Ok(ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(line: &str) -> Result<Option<Opts>, String> {
        Opts::parse(&words(line))
    }

    #[test]
    fn options_parse_with_their_defaults() {
        let o = opts("--a x/rtplab -- sim blackjack --seed 7")
            .unwrap()
            .unwrap();
        assert_eq!(
            (o.a.clone(), o.b.clone()),
            ("x/rtplab".into(), "x/rtplab".into())
        );
        assert_eq!((o.chunk, o.pairs, o.warmup, o.sets), (2_000_000, 30, 2, 3));
        assert_eq!(o.run, words("bench-serve blackjack --seed 7"));
        assert!(!o.allow_differ);
        let o = opts(
            "--a a --b b --chunk 500k --pairs 7 --warmup 0 --sets 1 --allow-differ --timeout 5 \
             -- bench-serve doom --turns 1M",
        )
        .unwrap()
        .unwrap();
        assert_eq!((o.chunk, o.pairs, o.warmup, o.sets), (500_000, 7, 0, 1));
        assert_eq!(o.b, PathBuf::from("b"));
        assert_eq!(o.timeout, Duration::from_secs(5));
        assert!(o.allow_differ);
        assert_eq!(o.run[0], "bench-serve");
        let o = Opts::parse(&[
            "--a".into(),
            "r".into(),
            "--b-args".into(),
            "--count hi-lo".into(),
            "--".into(),
            "sim".into(),
            "blackjack".into(),
        ])
        .unwrap()
        .unwrap();
        assert_eq!((o.a_args.len(), o.b_args), (0, words("--count hi-lo")));
        assert_eq!(opts("--help").unwrap(), None);
    }

    #[test]
    fn bad_options_say_what_is_wrong() {
        for (line, needle) in [
            ("-- sim blackjack", "--a PATH is required"),
            ("--a r", "the run is missing"),
            ("--a r -- exact blackjack", "must be `sim GAME"),
            ("--a r -- sim", "must be `sim GAME"),
            ("--a r --pairs 0 -- sim blackjack", "--pairs 0: at least 1"),
            ("--a r --sets 0 -- sim blackjack", "--sets 0: at least 1"),
            ("--a r --chunk lots -- sim blackjack", "--chunk lots"),
            (
                "--a r --frobnicate -- sim blackjack",
                "unknown argument '--frobnicate'",
            ),
            ("--a", "--a needs a value"),
        ] {
            let e = opts(line).unwrap_err();
            assert!(e.contains(needle), "{line}: {e}");
        }
    }

    #[test]
    fn pairs_alternate_and_the_summary_is_of_the_ratios() {
        assert_eq!(
            (0..4).map(a_first).collect::<Vec<_>>(),
            [true, false, true, false]
        );
        // CPU times as given; the wall clock of B twice its CPU time (a server that waited).
        let p = |a: f64, b: f64| Pair {
            cpu: [a, b],
            wall: [a, 2.0 * b],
            same: true,
            set: 0,
        };
        // A fast pair and a slow one (the host's load) give the same ratio: the median of
        // the ratios is 0.9 although the times move by 2x.
        let pairs = [
            p(100.0, 90.0),
            p(200.0, 180.0),
            p(100.0, 91.0),
            p(100.0, 89.0),
        ];
        let (text, ok) = summary(&pairs, false);
        assert!(ok, "{text}");
        let (cpu, wall) = text.split_once("by the wall clock").unwrap();
        assert!(
            cpu.contains("B/A   median 0.9000, quartiles 0.8975-0.9025"),
            "{text}"
        );
        assert!(cpu.contains("B takes 10.0% less time per round"), "{text}");
        assert!(
            cpu.contains("A     100.00 ns per round (quartiles 100.00-125.00)"),
            "{text}"
        );
        assert!(wall.contains("B/A   median 1.8000"), "{text}");
        assert!(wall.contains("B takes 80.0% more time per round"), "{text}");
        assert!(text.contains("checksums agree"), "{text}");
        let mut differ = pairs;
        differ[2].same = false;
        let (text, ok) = summary(&differ, false);
        assert!(
            !ok && text.contains("RESULTS DIFFER") && text.contains("1 of 4"),
            "{text}"
        );
        let (text, ok) = summary(&differ, true);
        assert!(ok && text.contains("--allow-differ"), "{text}");
        assert!(summary(&[p(90.0, 100.0)], false)
            .0
            .contains("11.1% more time"));
        assert!(summary(&[], false).0.contains("no pairs timed"));
        assert!(!text.contains("each set"), "{text}");
        // Two sets: each one's median ratio.
        let mut sets = [
            p(100.0, 90.0),
            p(100.0, 92.0),
            p(100.0, 101.0),
            p(100.0, 103.0),
        ];
        sets[2].set = 1;
        sets[3].set = 1;
        let (text, _) = summary(&sets, false);
        assert!(
            text.contains("each set of fresh processes: median 0.9100, 1.0200"),
            "{text}"
        );
    }

    #[test]
    fn pairs_are_split_evenly_over_the_sets() {
        assert_eq!(set_sizes(30, 3), [10, 10, 10]);
        assert_eq!(set_sizes(31, 3), [11, 10, 10]);
        assert_eq!(set_sizes(7, 3), [3, 2, 2]);
        assert_eq!(set_sizes(2, 3), [1, 1]);
        assert_eq!(set_sizes(5, 1), [5]);
        assert_eq!(set_sizes(5, 0), [5]);
    }

    #[test]
    fn a_build_that_cannot_serve_is_an_error_not_a_hang() {
        let t = Duration::from_secs(20);
        let run = words("bench-serve blackjack");
        let missing = PathBuf::from("/nonexistent/rtplab");
        let e = Served::start("A", &missing, &run, t).err().unwrap();
        assert!(e.contains("A: cannot start /nonexistent/rtplab"), "{e}");
        // A program that exits without a hello (as a build without bench-serve does).
        let e = Served::start("B", &PathBuf::from("true"), &run, t)
            .err()
            .unwrap();
        assert!(e.starts_with("B (true): it stopped"), "{e}");
        // One that writes something else first.
        let e = Served::start("B", &PathBuf::from("echo"), &run, t)
            .err()
            .unwrap();
        assert!(
            e.contains("not a hello of bench-serve: 'bench-serve blackjack'"),
            "{e}"
        );
        // A build of another version of the protocol.
        let old = words("rtplab-serve 1 game=blackjack seed=1 chunks=1 chunk_size=1");
        let e = Served::start("A", &PathBuf::from("echo"), &old, t)
            .err()
            .unwrap();
        assert!(e.contains("another version of the protocol"), "{e}");
        // One that never answers: stopped at the timeout.
        let sleep = ["10".to_string()];
        let e = Served::start(
            "A",
            &PathBuf::from("sleep"),
            &sleep,
            Duration::from_millis(200),
        )
        .err()
        .unwrap();
        assert!(e.contains("did not answer within"), "{e}");
    }
}
