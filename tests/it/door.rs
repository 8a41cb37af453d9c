//! The door's promise, proven by a matrix rather than a list of cases: every output flag ×
//! every kind of path, and every input flag × every kind of bad or unusual file. For each
//! case: the exit code's class, no file outside the declared outputs changed (a hash of the
//! whole scratch tree before and after), no temporary or lock file left, no hang (a time
//! limit), no panic.

use crate::common::*;

use std::collections::BTreeMap;
use std::io::{Read as _, Write as _};
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Longest a case may take before it counts as a hang.
const LIMIT: Duration = Duration::from_secs(60);

/// What a file flag writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// A report or strategy file: regular, or written in place.
    File,
    /// A report folder.
    Dir,
    /// A shard file: regular only (read back to resume).
    Regular,
}

/// The command a case runs: the flag's own cheap command (a short `sim blackjack`, or
/// `strategies ramp` for `--ramp-out`, `strategies bets` for `--bets-out`, `strategies derive`
/// from a table file for `--card`), or `risk` (its report outputs, reading a report).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cmd {
    OfFlag,
    Risk,
}

/// Every output flag, with a cheap command that writes it; the report outputs also through
/// `risk`.
const OUTPUTS: [(&str, Role, Cmd); 8] = [
    ("--output", Role::File, Cmd::OfFlag),
    ("--card", Role::File, Cmd::OfFlag),
    ("--out-dir", Role::Dir, Cmd::OfFlag),
    ("--shard-out", Role::Regular, Cmd::OfFlag),
    ("--ramp-out", Role::File, Cmd::OfFlag),
    ("--bets-out", Role::File, Cmd::OfFlag),
    ("--output", Role::File, Cmd::Risk),
    ("--out-dir", Role::Dir, Cmd::Risk),
];

/// Every kind of output path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    New,
    Existing,
    Symlink,
    Dangling,
    HardLinkToInput,
    SpellingOfInput,
    SpellingOfOtherOutput,
    InsideOutDir,
    DevStdoutRedirected,
    FifoWithReader,
    DevNull,
    Directory,
    ReadOnlyFolder,
    LinkAtLock,
    LinkAtTemp,
    TrailingSlash,
    ParentIsFile,
    LongName,
}

const KINDS: [Kind; 18] = [
    Kind::New,
    Kind::Existing,
    Kind::Symlink,
    Kind::Dangling,
    Kind::HardLinkToInput,
    Kind::SpellingOfInput,
    Kind::SpellingOfOtherOutput,
    Kind::InsideOutDir,
    Kind::DevStdoutRedirected,
    Kind::FifoWithReader,
    Kind::DevNull,
    Kind::Directory,
    Kind::ReadOnlyFolder,
    Kind::LinkAtLock,
    Kind::LinkAtTemp,
    Kind::TrailingSlash,
    Kind::ParentIsFile,
    Kind::LongName,
];

/// The exit code a case must end with.
fn expected(kind: Kind, role: Role) -> i32 {
    use Kind::*;
    match (kind, role) {
        (New | LinkAtTemp | LongName, _) => 0,
        // A folder's path may end with '/'; a file's may not.
        (TrailingSlash, Role::Dir) => 0,
        (TrailingSlash | ParentIsFile, _) => 2,
        // An existing shard file of another run is refused, untouched.
        (Existing | Symlink, Role::Regular) => 2,
        (Existing | Symlink, _) => 0,
        // Special files are written in place; a shard file must be a file, a folder a folder.
        (DevStdoutRedirected | FifoWithReader | DevNull, Role::File) => 0,
        (DevStdoutRedirected | FifoWithReader | DevNull, _) => 2,
        (Dangling | HardLinkToInput | SpellingOfInput | SpellingOfOtherOutput, _) => 2,
        (InsideOutDir | Directory | ReadOnlyFolder | LinkAtLock, _) => 2,
    }
}

/// One case's scratch folder and what it holds.
pub(crate) struct Scratch {
    pub(crate) root: PathBuf,
    pub(crate) chart: PathBuf,
    pub(crate) report: PathBuf,
    pub(crate) table: PathBuf,
    pub(crate) victim: PathBuf,
}

pub(crate) fn scratch(base: &Path, name: &str) -> Scratch {
    let root = base.join(name);
    std::fs::create_dir_all(root.join("sub")).unwrap();
    let chart = root.join("chart.csv");
    std::fs::copy("strategies/blackjack/seed.csv", &chart).unwrap();
    let report = root.join("count-report.json");
    std::fs::copy("reports/counting-hilo-50pct/report.json", &report).unwrap();
    let table = root.join("table.toml");
    std::fs::copy("tables/seed.toml", &table).unwrap();
    let victim = root.join("victim.txt");
    std::fs::write(&victim, "the user's file").unwrap();
    Scratch {
        root,
        chart,
        report,
        table,
        victim,
    }
}

/// The command writing `flag` (its path appended by the case), reading the scratch's inputs.
pub(crate) fn command(flag: &str, cmd: Cmd, s: &Scratch) -> Vec<String> {
    let v: Vec<&str> = match flag {
        _ if cmd == Cmd::Risk => vec![
            "risk",
            "--bankroll",
            "1000",
            "--trials",
            "1000",
            "-q",
            "--from",
            s.report.to_str().unwrap(),
        ],
        "--ramp-out" => vec![
            "strategies",
            "ramp",
            "blackjack",
            "--spread",
            "1-8",
            "-q",
            "--from",
            s.report.to_str().unwrap(),
        ],
        "--bets-out" => vec![
            "strategies",
            "bets",
            "blackjack",
            "--bankroll",
            "10000",
            "--table-min",
            "25",
            "--table-max",
            "500",
            "--chip",
            "5",
            "--kelly",
            "0.5",
            "-q",
            "--from",
            s.report.to_str().unwrap(),
        ],
        "--card" => vec![
            "strategies",
            "derive",
            "blackjack",
            "-q",
            "--table",
            s.table.to_str().unwrap(),
        ],
        "--shard-out" => vec![
            "sim",
            "blackjack",
            "--rounds",
            "20000",
            "-q",
            "--shard",
            "1/2",
            "--strategy",
            s.chart.to_str().unwrap(),
        ],
        _ => vec![
            "sim",
            "blackjack",
            "--rounds",
            "2000",
            "-q",
            "--strategy",
            s.chart.to_str().unwrap(),
        ],
    };
    v.into_iter().map(String::from).collect()
}

/// The input a flag's command reads (a hard link or another spelling of it is refused).
fn input_of(flag: &str, cmd: Cmd, s: &Scratch) -> PathBuf {
    if flag == "--ramp-out" || flag == "--bets-out" || cmd == Cmd::Risk {
        s.report.clone()
    } else if flag == "--card" {
        s.table.clone()
    } else {
        s.chart.clone()
    }
}

/// Every file, folder and link under `root`: its kind, mode and content (or link target).
pub(crate) fn snapshot(root: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            let t = m.file_type();
            let what = if t.is_symlink() {
                format!("link {}", std::fs::read_link(&p).unwrap().display())
            } else if t.is_dir() {
                todo.push(p.clone());
                format!("dir {:o}", m.mode())
            } else if t.is_file() && m.len() > 1 << 20 {
                // The oversized inputs (sparse, up to 4 GiB): a write would change the size or
                // the modification time; reading them whole would cost a minute.
                format!(
                    "large file {:o} {} {} {}.{}",
                    m.mode(),
                    m.len(),
                    m.ino(),
                    m.mtime(),
                    m.mtime_nsec()
                )
            } else if t.is_file() {
                let mut h: u64 = 0xcbf29ce484222325;
                for b in std::fs::read(&p).unwrap() {
                    h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
                }
                format!("file {:o} {} {h:016x}", m.mode(), m.len())
            } else {
                format!("special {:o}", m.mode())
            };
            out.insert(p, what);
        }
    }
    out
}

/// A side file the door makes (lock, temporary file or folder, probe) in a name.
fn is_side(p: &Path) -> bool {
    let n = p.file_name().unwrap().to_string_lossy();
    n.ends_with(".rtplab-lock") || n.ends_with(".rtplab-tmp") || n.ends_with(".rtplab-old")
}

/// Run `args` with `stdout`; its exit code (`None`: killed after the time limit) and standard
/// error.
fn run(args: &[String], stdout: Stdio, stdin: Stdio) -> (Option<i32>, String) {
    let child = process()
        .args(args)
        .stdin(stdin)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    finish(child, |_| {})
}

/// Read `child`'s standard error while it runs, call `meanwhile` with it, and wait for its
/// end: its exit code (`None`: killed after the time limit) and standard error.
pub(crate) fn finish(
    mut child: std::process::Child,
    meanwhile: impl FnOnce(&mut std::process::Child),
) -> (Option<i32>, String) {
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    meanwhile(&mut child);
    let start = Instant::now();
    let code = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st.code();
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    (code, reader.join().unwrap())
}

fn mkfifo(p: &Path) {
    assert!(std::process::Command::new("mkfifo")
        .arg(p)
        .status()
        .unwrap()
        .success());
}

/// Make `dir` refuse new files, also for root (immutable, where the filesystem allows);
/// returns how to undo it, or `None` when it cannot be done here.
fn read_only(dir: &Path) -> Option<Box<dyn Fn()>> {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    let probe = dir.join("probe");
    if std::fs::write(&probe, "x").is_err() {
        let d = dir.to_path_buf();
        return Some(Box::new(move || {
            let _ = std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755));
        }));
    }
    let _ = std::fs::remove_file(&probe);
    // Root: make it immutable.
    let ok = std::process::Command::new("chattr")
        .arg("+i")
        .arg(dir)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let d = dir.to_path_buf();
    ok.then(|| {
        Box::new(move || {
            let _ = std::process::Command::new("chattr")
                .arg("-i")
                .arg(&d)
                .status();
            let _ = std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755));
        }) as Box<dyn Fn()>
    })
}

/// One output case: set up, run, check. `Err` says what went wrong.
fn output_case(base: &Path, flag: &str, role: Role, cmd: Cmd, kind: Kind) -> Result<(), String> {
    let by = if cmd == Cmd::Risk { "-risk" } else { "" };
    let name = format!("{}{by}-{kind:?}", flag.trim_start_matches('-'));
    let s = scratch(base, &name);
    let mut args = command(flag, cmd, &s);
    let want = expected(kind, role);
    let out_name = if role == Role::Dir { "od" } else { "out.txt" };
    let plain = s.root.join(out_name);
    // Paths the run may change (prefixes), and what must hold after a success.
    let mut may_change: Vec<PathBuf> = vec![plain.clone()];
    let mut undo: Option<Box<dyn Fn()>> = None;
    let mut stdout_file: Option<std::fs::File> = None;
    let mut fifo_reader = None;
    let path: PathBuf = match kind {
        Kind::New => plain.clone(),
        Kind::Existing => {
            if role == Role::Dir {
                // An earlier report, replaced with --force.
                let mut first = command("--output", cmd, &s);
                first.extend(["--out-dir".into(), plain.to_string_lossy().into()]);
                let (c, e) = run(&first, Stdio::null(), Stdio::null());
                assert_eq!(c, Some(0), "{e}");
                args.push("--force".into());
            } else {
                std::fs::write(&plain, "an earlier file").unwrap();
            }
            plain.clone()
        }
        Kind::Symlink => {
            let target = s.root.join(if role == Role::Dir {
                "real-od"
            } else {
                "real.txt"
            });
            if role == Role::Dir {
                std::fs::create_dir(&target).unwrap();
            } else {
                std::fs::write(&target, "an earlier file").unwrap();
            }
            std::os::unix::fs::symlink(&target, &plain).unwrap();
            may_change.push(target);
            plain.clone()
        }
        Kind::Dangling => {
            std::os::unix::fs::symlink(s.root.join("nowhere/x"), &plain).unwrap();
            plain.clone()
        }
        Kind::HardLinkToInput => {
            if role == Role::Dir {
                // A folder cannot be hard-linked: the input's own folder.
                s.root.clone()
            } else {
                std::fs::hard_link(input_of(flag, cmd, &s), &plain).unwrap();
                plain.clone()
            }
        }
        Kind::SpellingOfInput => {
            let input = input_of(flag, cmd, &s);
            if role == Role::Dir {
                s.root.join("sub/..")
            } else {
                s.root.join("sub/../").join(input.file_name().unwrap())
            }
        }
        Kind::SpellingOfOtherOutput => {
            // The same file as another output of the command, spelled differently.
            let (other, p2) = match flag {
                // risk writes no shard file: its report folder on the same path.
                "--output" if cmd == Cmd::Risk => ("--out-dir", s.root.join("sub/../out.txt")),
                "--output" => ("--shard-out", s.root.join("sub/../out.txt")),
                "--out-dir" => ("--output", s.root.join("sub/../od")),
                _ => ("--output", s.root.join("sub/../out.txt")),
            };
            if flag == "--shard-out" {
                args.extend(["--output".into(), p2.to_string_lossy().into()]);
            } else if flag == "--out-dir" {
                std::fs::create_dir(&plain).unwrap();
                args.extend([
                    other.into(),
                    s.root.join("sub/../od").to_string_lossy().into(),
                ]);
            } else {
                args.extend([other.into(), p2.to_string_lossy().into()]);
            }
            if flag == "--output" && cmd == Cmd::OfFlag {
                args.extend(["--shard".into(), "1/2".into()]);
            }
            plain.clone()
        }
        Kind::InsideOutDir => {
            let od = s.root.join("od-other");
            if role == Role::Dir {
                args.extend([
                    "--output".into(),
                    plain.join("r.txt").to_string_lossy().into(),
                ]);
                std::fs::create_dir(&plain).unwrap();
                plain.clone()
            } else {
                std::fs::create_dir(&od).unwrap();
                args.extend(["--out-dir".into(), od.to_string_lossy().into()]);
                od.join("report.json")
            }
        }
        Kind::DevStdoutRedirected => {
            let cap = s.root.join("captured.txt");
            let mut f = std::fs::File::create(&cap).unwrap();
            f.write_all(b"head\n").unwrap();
            stdout_file = Some(f);
            may_change.push(cap);
            PathBuf::from("/dev/stdout")
        }
        Kind::FifoWithReader => {
            mkfifo(&plain);
            let p = plain.clone();
            fifo_reader = Some(std::thread::spawn(move || std::fs::read(&p).unwrap()));
            std::thread::sleep(Duration::from_millis(50));
            plain.clone()
        }
        Kind::DevNull => PathBuf::from("/dev/null"),
        Kind::Directory => {
            std::fs::create_dir(&plain).unwrap();
            std::fs::write(plain.join("mine.txt"), "mine").unwrap();
            plain.clone()
        }
        Kind::ReadOnlyFolder => {
            let ro = s.root.join("ro");
            std::fs::create_dir(&ro).unwrap();
            match read_only(&ro) {
                Some(u) => undo = Some(u),
                None => {
                    eprintln!(
                        "door matrix: {name}: no way to make a read-only folder here; skipped"
                    );
                    return Ok(());
                }
            }
            ro.join(out_name)
        }
        Kind::LinkAtLock => {
            let lock = s.root.join(format!(".{out_name}.rtplab-lock"));
            std::os::unix::fs::symlink(&s.victim, lock).unwrap();
            plain.clone()
        }
        Kind::TrailingSlash => plain.clone(),
        Kind::ParentIsFile => s.victim.join(out_name),
        Kind::LongName => {
            // The longest name the filesystem takes.
            let long = s.root.join("n".repeat(255));
            may_change.push(long.clone());
            long
        }
        Kind::LinkAtTemp => {
            let tmp = s.root.join(format!(".{out_name}.AbCd12.rtplab-tmp"));
            std::os::unix::fs::symlink(&s.victim, &tmp).unwrap();
            may_change.push(tmp);
            plain.clone()
        }
    };
    let mut arg = path.to_string_lossy().into_owned();
    if kind == Kind::TrailingSlash {
        arg.push('/');
    }
    args.extend([flag.to_string(), arg]);
    let before = snapshot(&s.root);
    let stdout = match &stdout_file {
        Some(f) => Stdio::from(f.try_clone().unwrap()),
        None => Stdio::null(),
    };
    let (code, err) = run(&args, stdout, Stdio::null());
    let after = snapshot(&s.root);
    if let Some(u) = &undo {
        u();
    }
    // Release a FIFO reader that no one wrote to.
    if let Some(r) = fifo_reader.take() {
        if !r.is_finished() {
            let _ = std::fs::OpenOptions::new().write(true).open(&plain);
        }
        let got = r.join().unwrap();
        if want == 0 && got.is_empty() {
            return Err(format!("{name}: the FIFO's reader got nothing"));
        }
    }
    if let Some(mut f) = stdout_file.take() {
        f.write_all(b"tail\n").unwrap();
        let text = std::fs::read_to_string(s.root.join("captured.txt")).unwrap();
        if !text.starts_with("head\n") || !text.ends_with("tail\n") {
            return Err(format!(
                "{name}: the redirected file lost its head or tail: {text:.200}"
            ));
        }
        if want == 0 && text.len() < 100 {
            return Err(format!("{name}: no report in the redirected file"));
        }
        if want != 0 && text != "head\ntail\n" {
            return Err(format!(
                "{name}: refused, yet the redirected file changed: {text:.200}"
            ));
        }
    }
    let ctx = || format!("{name}: {args:?}\nstderr: {err}");
    ended(code, &err, want, &ctx)?;
    let allowed = |p: &Path| {
        (want == 0 && may_change.iter().any(|m| p.starts_with(m))) || p.ends_with("captured.txt")
    };
    for (p, what) in before.iter() {
        let now = after.get(p);
        if now != Some(what) && !allowed(p) && !(is_side(p) && kind == Kind::LinkAtTemp) {
            return Err(format!(
                "{}\n{} changed: {what} -> {now:?}",
                ctx(),
                p.display()
            ));
        }
    }
    for (p, what) in after.iter() {
        if !before.contains_key(p) && !allowed(p) {
            return Err(format!("{}\n{} appeared: {what}", ctx(), p.display()));
        }
        let planted = kind == Kind::LinkAtLock && before.contains_key(p);
        if is_side(p) && !planted {
            return Err(format!("{}\nleft behind: {}", ctx(), p.display()));
        }
    }
    if std::fs::read_to_string(&s.victim).unwrap() != "the user's file" {
        return Err(format!("{}\nthe victim file was changed", ctx()));
    }
    if want == 0 {
        let written = match kind {
            Kind::Symlink
            | Kind::New
            | Kind::Existing
            | Kind::LinkAtTemp
            | Kind::LongName
            | Kind::TrailingSlash => {
                let p = std::fs::canonicalize(&path).unwrap();
                if role == Role::Dir {
                    p.join("report.json").is_file()
                } else {
                    std::fs::metadata(&p).is_ok_and(|m| m.len() > 20)
                }
            }
            _ => true,
        };
        if !written {
            return Err(format!("{}\nthe output was not written", ctx()));
        }
        if kind == Kind::Symlink && !std::fs::symlink_metadata(&plain).unwrap().is_symlink() {
            return Err(format!("{}\nthe link was replaced by a file", ctx()));
        }
    }
    Ok(())
}

/// How a case ended: within the time limit, without a panic, with the exit code wanted.
fn ended(code: Option<i32>, err: &str, want: i32, ctx: &dyn Fn() -> String) -> Result<(), String> {
    if code.is_none() {
        return Err(format!("{} hung (killed after {LIMIT:?})", ctx()));
    }
    if err.contains("panicked") || code == Some(101) {
        return Err(format!("{} panicked", ctx()));
    }
    if code != Some(want) {
        return Err(format!("{} exit {code:?}, expected {want}", ctx()));
    }
    Ok(())
}

/// Run `cases` on a few threads; every failure, not just the first.
pub(crate) fn run_all<T: Send + Sync>(cases: &[T], f: impl Fn(&T) -> Result<(), String> + Sync) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|sc| {
        for _ in 0..4 {
            sc.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(c) = cases.get(i) else { break };
                if let Err(e) = f(c) {
                    failures.lock().unwrap().push(e);
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_output_flag_on_every_kind_of_path() {
    let base = temp_dir("door-outputs");
    let cases: Vec<(&str, Role, Cmd, Kind)> = OUTPUTS
        .iter()
        .flat_map(|(f, r, c)| KINDS.iter().map(move |k| (*f, *r, *c, *k)))
        .collect();
    run_all(&cases, |(f, r, c, k)| output_case(&base, f, *r, *c, *k));
    let _ = std::fs::remove_dir_all(&base);
}

/// Every kind of input file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bad {
    Empty,
    Bom,
    Crlf,
    Directory,
    Fifo,
    DevZero,
    Oversized,
    LongLine,
}

const BADS: [Bad; 8] = [
    Bad::Empty,
    Bad::Bom,
    Bad::Crlf,
    Bad::Directory,
    Bad::Fifo,
    Bad::DevZero,
    Bad::Oversized,
    Bad::LongLine,
];

/// An input flag: its name, the command reading it (`{}` is the file), a good file's content
/// and its size limit.
struct InFlag {
    name: &'static str,
    args: &'static [&'static str],
    good: fn(&Path) -> Vec<u8>,
    limit: u64,
}

const MIB: u64 = 1 << 20;

fn read(p: &str) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

fn shard(shared: &Path) -> Vec<u8> {
    std::fs::read(shared.join("shard.json")).unwrap()
}

fn log(_: &Path) -> Vec<u8> {
    b"period,rounds,wagered,returned\n1,1000,1000,990\n2,1000,1000,1010\n".to_vec()
}

const EXPECTED: &str = "reports/baccarat-banker/report.json";

const INPUTS: [InFlag; 18] = [
    InFlag {
        name: "--table",
        args: &[
            "sim",
            "blackjack",
            "--rounds",
            "2000",
            "-q",
            "--table",
            "{}",
        ],
        good: |_| read("tables/6d-h17.toml"),
        limit: 64 << 10,
    },
    InFlag {
        name: "--side",
        args: &["exact", "blackjack", "-q", "--side", "{}"],
        good: |_| read("strategies/side-bets/21+3-wagerworks.toml"),
        limit: MIB,
    },
    InFlag {
        name: "--strategy (chart)",
        args: &[
            "sim",
            "blackjack",
            "--rounds",
            "2000",
            "-q",
            "--strategy",
            "{}",
        ],
        good: |_| read("strategies/blackjack/seed.csv"),
        limit: MIB,
    },
    InFlag {
        name: "--errors",
        args: &[
            "sim",
            "blackjack",
            "--rounds",
            "2000",
            "-q",
            "--errors",
            "{}",
        ],
        good: |_| read("strategies/blackjack/errors/casual.toml"),
        limit: 64 << 10,
    },
    InFlag {
        name: "--count",
        args: &[
            "sim",
            "blackjack",
            "--rounds",
            "2000",
            "-q",
            "--count",
            "{}",
        ],
        good: |_| read("strategies/counts/hi-lo.csv"),
        limit: MIB,
    },
    InFlag {
        name: "--count (strategies metrics)",
        args: &["strategies", "metrics", "blackjack", "-q", "--count", "{}"],
        good: |_| read("strategies/counts/hi-lo.csv"),
        limit: MIB,
    },
    InFlag {
        name: "--ramp",
        args: &[
            "sim",
            "blackjack",
            "--rounds",
            "2000",
            "-q",
            "--count",
            "hi-lo",
            "--ramp",
            "{}",
        ],
        good: |_| b"0:1,1:2,2:4\n".to_vec(),
        limit: MIB,
    },
    InFlag {
        name: "--indices",
        args: &[
            "sim",
            "blackjack",
            "--rounds",
            "2000",
            "-q",
            "--count",
            "hi-lo",
            "--indices",
            "{}",
        ],
        good: |_| read("strategies/blackjack/indices-fab4.csv"),
        limit: MIB,
    },
    InFlag {
        name: "--strategy (doom)",
        args: &["sim", "doom", "--turns", "1000", "-q", "--strategy", "{}"],
        good: |_| b"# a strategy file\nbank-at:300\n".to_vec(),
        limit: MIB,
    },
    InFlag {
        name: "--seat (twenty-one)",
        args: &[
            "sim",
            "twenty-one",
            "--games",
            "100",
            "-q",
            "--seat",
            "{}",
            "--seat",
            "greedy",
        ],
        good: |_| read("strategies/twenty-one/patient.txt"),
        limit: MIB,
    },
    InFlag {
        name: "--sheets",
        args: &[
            "sim",
            "twenty-one",
            "--games",
            "100",
            "-q",
            "--sheets",
            "{}",
        ],
        good: |_| read("strategies/twenty-one/sheets-standard.csv"),
        limit: MIB,
    },
    InFlag {
        name: "--from",
        args: &[
            "strategies",
            "ramp",
            "blackjack",
            "--spread",
            "1-8",
            "-q",
            "--from",
            "{}",
        ],
        good: |_| read("reports/counting-hilo-50pct/report.json"),
        limit: 256 * MIB,
    },
    InFlag {
        name: "--from (bets)",
        args: &[
            "strategies",
            "bets",
            "blackjack",
            "--bankroll",
            "10000",
            "--table-min",
            "25",
            "--table-max",
            "500",
            "--kelly",
            "0.5",
            "-q",
            "--from",
            "{}",
        ],
        good: |_| read("reports/counting-hilo-50pct/report.json"),
        limit: 256 * MIB,
    },
    InFlag {
        name: "--from (risk)",
        args: &[
            "risk",
            "--bankroll",
            "1000",
            "--trials",
            "1000",
            "-q",
            "--from",
            "{}",
        ],
        good: |_| read("reports/counting-hilo-50pct/report.json"),
        limit: 256 * MIB,
    },
    InFlag {
        name: "--expected",
        args: &["monitor", "--expected", "{}", "{log}"],
        good: |_| read(EXPECTED),
        limit: 256 * MIB,
    },
    InFlag {
        name: "LOG",
        args: &["monitor", "--expected", EXPECTED, "{}"],
        good: log,
        limit: 4 << 30,
    },
    InFlag {
        name: "FILES (merge)",
        args: &["merge", "{}"],
        good: shard,
        limit: 256 * MIB,
    },
    InFlag {
        name: "DIR (check)",
        args: &["check", "{}"],
        good: |_| read("reports/baselines/baccarat-banker-cut-card.json"),
        limit: MIB,
    },
];

/// One input case: `Err` says what went wrong.
fn input_case(base: &Path, shared: &Path, f: &InFlag, bad: Bad) -> Result<(), String> {
    let name = format!(
        "{}-{bad:?}",
        f.name.replace(|c: char| !c.is_ascii_alphanumeric(), "")
    );
    let root = base.join(&name);
    std::fs::create_dir_all(&root).unwrap();
    let good = (f.good)(shared);
    let log_file = root.join("log.csv");
    std::fs::write(&log_file, log(shared)).unwrap();
    let folder = f.name.starts_with("DIR");
    // For check, the file kinds are those of a baseline in the folder it reads.
    let dir = if folder {
        root.join("baselines")
    } else {
        root.clone()
    };
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("input.json");
    let mut arg = file.clone();
    match bad {
        Bad::Empty => std::fs::write(&file, b"").unwrap(),
        Bad::Bom => std::fs::write(&file, [&b"\xef\xbb\xbf"[..], &good].concat()).unwrap(),
        Bad::Crlf => {
            let text = String::from_utf8(good.clone())
                .unwrap()
                .replace('\n', "\r\n");
            std::fs::write(&file, text).unwrap();
        }
        Bad::Directory => std::fs::create_dir(&file).unwrap(),
        Bad::Fifo => mkfifo(&file),
        Bad::DevZero => arg = PathBuf::from("/dev/zero"),
        Bad::LongLine => {
            // A first line of 5,000 characters of garbage: a message quotes at most about 100.
            let junk = format!("{}\n", "x".repeat(5000));
            std::fs::write(&file, [junk.as_bytes(), &good].concat()).unwrap();
        }
        Bad::Oversized => {
            let mut w = std::fs::File::create(&file).unwrap();
            w.write_all(&good).unwrap();
            w.set_len(f.limit + 1).unwrap();
        }
    }
    if folder {
        match bad {
            // The folder itself: empty, or named as a device or FIFO.
            Bad::Empty => {
                std::fs::remove_file(&file).unwrap();
                arg = dir.clone();
            }
            Bad::Fifo | Bad::DevZero => {}
            Bad::Directory => arg = dir.clone(),
            _ => arg = dir.clone(),
        }
    }
    let want = match bad {
        Bad::Bom | Bad::Crlf => 0,
        // check of a folder holding a folder named *.json is refused too.
        _ => 2,
    };
    let args: Vec<String> = f
        .args
        .iter()
        .map(|a| match *a {
            "{}" => arg.to_string_lossy().into_owned(),
            "{log}" => log_file.to_string_lossy().into_owned(),
            a => a.to_string(),
        })
        .collect();
    let before = snapshot(&root);
    let (code, err) = run(&args, Stdio::null(), Stdio::null());
    let ctx = || format!("{} {bad:?}: {args:?}\nstderr: {err}", f.name);
    ended(code, &err, want, &ctx)?;
    if want == 2 && !err.starts_with("error: ") {
        return Err(format!("{} no error message", ctx()));
    }
    if err.contains(&"x".repeat(120)) {
        return Err(format!(
            "{} the message quotes more than about 100 characters of a line",
            ctx()
        ));
    }
    if snapshot(&root) != before {
        return Err(format!("{} the inputs' folder changed", ctx()));
    }
    Ok(())
}

#[test]
fn every_input_flag_on_every_kind_of_file() {
    let base = temp_dir("door-inputs");
    let shared = base.join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    succeeds(rtplab().args([
        "sim",
        "blackjack",
        "--rounds",
        "20000",
        "-q",
        "--shard-out",
        shared.join("shard.json").to_str().unwrap(),
    ]));
    let cases: Vec<(&InFlag, Bad)> = INPUTS
        .iter()
        .flat_map(|f| BADS.iter().map(move |b| (f, *b)))
        .collect();
    run_all(&cases, |(f, b)| input_case(&base, &shared, f, *b));
    let _ = std::fs::remove_dir_all(&base);
}

/// Standard input as the log: empty, with a byte-order mark, and an endless stream of zero
/// bytes (refused within its line limit, not read to the end of memory).
#[test]
fn standard_input_is_bounded_like_a_file() {
    let cases: [(&[u8], Option<&str>, i32); 3] = [
        (b"", None, 2),
        (
            b"\xef\xbb\xbfperiod,rounds,wagered,returned\n1,1000,1000,990\n",
            None,
            0,
        ),
        (b"", Some("/dev/zero"), 2),
    ];
    for (text, from, want) in cases {
        let stdin = match from {
            Some(p) => Stdio::from(std::fs::File::open(p).unwrap()),
            None => {
                let d = temp_dir("door-stdin");
                let f = d.join("in");
                std::fs::write(&f, text).unwrap();
                Stdio::from(std::fs::File::open(f).unwrap())
            }
        };
        let args: Vec<String> = ["monitor", "--expected", EXPECTED, "-"]
            .map(String::from)
            .to_vec();
        let (code, err) = run(&args, Stdio::null(), stdin);
        assert_eq!(code, Some(want), "{from:?}: {err}");
    }
}

/// The door's other promises, one by one: a dead run's temporary files are cleaned by the
/// next run on the output; another user's lock is reported with what to do; a `--force` that
/// fails halfway leaves the earlier report whole; a shard that would select no chunk is
/// refused before any work.
#[test]
fn dead_runs_other_users_and_limits() {
    let d = temp_dir("door-promises");
    let out = d.join("out.txt");
    let sim = |extra: &[&str]| -> Vec<String> {
        ["sim", "blackjack", "--rounds", "2000", "-q"]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    // A dead run's temporary file beside the output is removed by the next run on it.
    let dead = d.join(".out.txt.Xy12Ab.rtplab-tmp");
    std::fs::write(&dead, "half a report").unwrap();
    let (code, err) = run(
        &sim(&["-o", out.to_str().unwrap()]),
        Stdio::null(),
        Stdio::null(),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(!dead.exists(), "a dead run's temporary file is cleaned");
    // Another user's lock left by their run: reported, with what to do (root only can plant
    // one owned by someone else).
    if rustix::process::geteuid().is_root() {
        let lock = d.join(".out.txt.rtplab-lock");
        std::fs::write(&lock, "12345").unwrap();
        std::os::unix::fs::chown(&lock, Some(65534), Some(65534)).unwrap();
        let (code, err) = run(
            &sim(&["-o", out.to_str().unwrap()]),
            Stdio::null(),
            Stdio::null(),
        );
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("belongs to user id 65534") && err.contains("remove it"),
            "{err}"
        );
        std::fs::remove_file(&lock).unwrap();
    }
    // --force under a file-size limit: the new report cannot be written, the old one stays
    // whole and nothing is left beside it.
    let od = d.join("od");
    let (code, err) = run(
        &sim(&["--out-dir", od.to_str().unwrap()]),
        Stdio::null(),
        Stdio::null(),
    );
    assert_eq!(code, Some(0), "{err}");
    let before = snapshot(&d);
    let limited = std::process::Command::new("bash")
        .env("RTPLAB_CACHE", test_cache())
        .arg("-c")
        .arg(format!(
            "ulimit -f 8; exec {} sim blackjack --rounds 2000 -q --out-dir {} --force",
            bin(),
            od.display()
        ))
        .stdout(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&limited.stderr);
    assert_eq!(limited.status.code(), Some(2), "{err}");
    assert!(err.contains("File too large"), "{err}");
    assert_eq!(
        snapshot(&d),
        before,
        "the earlier report is whole, nothing left beside it"
    );
    // A shard that would select no chunk.
    let shard = d.join("s.json");
    let (code, err) = run(
        &sim(&[
            "--shard",
            "1/1000000",
            "--shard-out",
            shard.to_str().unwrap(),
        ]),
        Stdio::null(),
        Stdio::null(),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("would select no chunk"), "{err}");
    assert!(!shard.exists());
    let _ = std::fs::remove_dir_all(&d);
}

/// A signal while the report is being written lets the write finish: the reader of a FIFO
/// gets the whole report, and the exit code still says SIGTERM (143).
#[test]
fn a_signal_during_the_write_finishes_it_and_exits_143() {
    use std::os::fd::AsFd as _;
    let d = temp_dir("door-signal");
    let fifo = d.join("report.fifo");
    mkfifo(&fifo);
    // The reader end, opened first without blocking; a pipe of one page, so the ~10 kB report
    // blocks the writer until it is read.
    let reader = std::fs::File::from(
        rustix::fs::open(
            &fifo,
            rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::NONBLOCK,
            rustix::fs::Mode::empty(),
        )
        .unwrap(),
    );
    rustix::pipe::fcntl_setpipe_size(reader.as_fd(), 4096).unwrap();
    let mut child = process()
        .args([
            "sim",
            "blackjack",
            "--rounds",
            "2000",
            "-q",
            "--format",
            "html",
            "-o",
        ])
        .arg(&fifo)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while rustix::io::ioctl_fionread(reader.as_fd()).unwrap_or(0) < 4096 {
        assert!(start.elapsed() < LIMIT, "the report never reached the FIFO");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert!(child.try_wait().unwrap().is_none(), "the write goes on");
    let fl = rustix::fs::fcntl_getfl(&reader).unwrap();
    rustix::fs::fcntl_setfl(&reader, fl - rustix::fs::OFlags::NONBLOCK).unwrap();
    let mut text = String::new();
    (&reader).read_to_string(&mut text).unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{err}");
    assert!(err.contains("finishing the files being written"), "{err}");
    assert!(
        text.trim_end().ends_with("</html>"),
        "the whole report: {}",
        text.len()
    );
    let _ = std::fs::remove_dir_all(&d);
}
