//! The door's promise over time, proven by a matrix: every output flag × how the name starts
//! (new, or an earlier file) × how it is spelled (UTF-8 or not) × what changes at the name
//! while the command runs (nothing, its folder swapped for a link to another, a link planted
//! at the name, a file or folder appearing there, the file replaced). The command is paused
//! deterministically between its check and its first write (the test hook
//! `door::pause`, compiled into the test builds only: `RTPLAB_TEST_PAUSE`); the change is made
//! there, then it goes on. Each case asserts the exit code, that nothing outside the held
//! output changed (the other folder, the link's target, what appeared), that a result that
//! could not be put at its name was kept beside it and said, and that no lock or temporary
//! file is left. Beside the matrix: every spelling of a descriptor, standard error that cannot
//! be written, built-in names beside files of the same name, a working folder deeper than
//! PATH_MAX, and a link planted at a cache entry's name.

use crate::common::*;
use crate::door::{run_all, scratch, snapshot, Cmd, Scratch};

use std::ffi::{OsStr, OsString};
use std::io::Read as _;
use std::os::unix::ffi::{OsStrExt as _, OsStringExt as _};
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Longest a case may take before it counts as a hang.
const LIMIT: Duration = Duration::from_secs(60);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    File,
    Dir,
    Regular,
}

/// Every output flag.
const FLAGS: [(&str, Role); 6] = [
    ("--output", Role::File),
    ("--card", Role::File),
    ("--out-dir", Role::Dir),
    ("--shard-out", Role::Regular),
    ("--ramp-out", Role::File),
    ("--bets-out", Role::File),
];

/// How the output's name starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    New,
    Existing,
}

/// What changes at the name while the command runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    Nothing,
    /// The output's folder renamed away and a link to another folder put at its name.
    ParentSwapped,
    /// A link to the user's file planted at the output's name.
    LinkAtName,
    /// A file appears at the name (nothing was there).
    FileAppears,
    /// A folder appears at the name (nothing was there).
    FolderAppears,
    /// The earlier file (or folder) replaced by another.
    Replaced,
}

const CHANGES: [Change; 6] = [
    Change::Nothing,
    Change::ParentSwapped,
    Change::LinkAtName,
    Change::FileAppears,
    Change::FolderAppears,
    Change::Replaced,
];

/// Whether a change applies to a start.
fn applies(start: Start, change: Change, role: Role) -> bool {
    // An existing shard file is another run's: refused before any work.
    if role == Role::Regular && start == Start::Existing {
        return false;
    }
    match change {
        Change::FileAppears | Change::FolderAppears => start == Start::New,
        Change::Replaced => start == Start::Existing,
        _ => true,
    }
}

/// The command writing `flag` (the door matrix's), its path appended by the case.
fn command(flag: &str, s: &Scratch) -> Vec<OsString> {
    crate::door::command(flag, Cmd::OfFlag, s)
        .into_iter()
        .map(OsString::from)
        .collect()
}

/// A side file the door makes (lock, temporary file or folder).
fn is_side(p: &Path) -> bool {
    let n = p.file_name().unwrap().as_bytes();
    [&b".rtplab-lock"[..], b".rtplab-tmp", b".rtplab-old"]
        .iter()
        .any(|s| n.ends_with(s))
}

/// A result the door kept beside a name that changed during the run.
fn is_kept(p: &Path) -> bool {
    p.components().any(|c| {
        let b = c.as_os_str().as_bytes();
        b.windows(13).any(|w| w == b".rtplab-kept-")
    })
}

/// Wait for `p` to exist, or for the child to end; whether it appeared.
fn wait_for(p: &Path, child: &mut std::process::Child) -> bool {
    let start = Instant::now();
    while start.elapsed() < LIMIT {
        if p.exists() {
            return true;
        }
        if child.try_wait().unwrap().is_some() {
            return p.exists();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

/// A command's output must show exit code `want` (its standard error shown otherwise).
fn exits(o: &std::process::Output, want: i32) {
    assert_eq!(
        o.status.code(),
        Some(want),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Send SIGTERM to `child`.
fn terminate(child: &std::process::Child) {
    assert!(std::process::Command::new("kill")
        .arg("-TERM")
        .arg(child.id().to_string())
        .status()
        .unwrap()
        .success());
}

/// Run `args` in `root`'s pause hook; `at_pause` is called while the command waits between its
/// check and its first write. Its exit code (`None`: killed after the time limit) and standard
/// error.
fn run_paused(root: &Path, args: &[OsString], at_pause: impl FnOnce()) -> (Option<i32>, String) {
    let hook = root.join("pause");
    let child = process()
        .args(args)
        .env("RTPLAB_TEST_PAUSE", &hook)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    crate::door::finish(child, |child| {
        if wait_for(&root.join("pause.write.ready"), child) {
            at_pause();
        }
        std::fs::write(root.join("pause.write.go"), b"").unwrap();
    })
}

/// One case of the matrix. `Err` says what went wrong.
fn case(
    base: &Path,
    flag: &str,
    role: Role,
    start: Start,
    utf8: bool,
    change: Change,
) -> Result<(), String> {
    let label = format!(
        "{}-{start:?}-{}-{change:?}",
        flag.trim_start_matches('-'),
        if utf8 { "utf8" } else { "bytes" }
    );
    let s = scratch(base, &label);
    let (root, victim) = (s.root.clone(), s.victim.clone());
    let sub = root.join("sub");
    let other = root.join("other");
    std::fs::create_dir_all(&other).unwrap();
    let stem = if role == Role::Dir { "od" } else { "out.txt" };
    let name = if utf8 {
        OsString::from(stem)
    } else {
        let mut b = vec![0xff];
        b.extend_from_slice(stem.as_bytes());
        OsString::from_vec(b)
    };
    let out = sub.join(&name);
    // The other folder holds a file of the output's name: a swap must not reach it.
    if role == Role::Dir {
        std::fs::create_dir(other.join(&name)).unwrap();
        std::fs::write(other.join(&name).join("theirs.txt"), "theirs").unwrap();
    } else {
        std::fs::write(other.join(&name), "theirs").unwrap();
    }
    let mut args = command(flag, &s);
    if start == Start::Existing {
        if role == Role::Dir {
            let mut first = command("--output", &s);
            first.extend([OsString::from("--out-dir"), out.clone().into_os_string()]);
            let o = process().args(&first).output().unwrap();
            exits(&o, 0);
            args.push("--force".into());
        } else {
            std::fs::write(&out, "an earlier file").unwrap();
        }
    }
    args.extend([OsString::from(flag), out.clone().into_os_string()]);
    let before = snapshot(&root);
    let moved = root.join("sub.moved");
    let (code, err) = run_paused(&root, &args, || match change {
        Change::Nothing => {}
        Change::ParentSwapped => {
            std::fs::rename(&sub, &moved).unwrap();
            std::os::unix::fs::symlink(&other, &sub).unwrap();
        }
        Change::LinkAtName => {
            if start == Start::Existing {
                if role == Role::Dir {
                    std::fs::remove_dir_all(&out).unwrap();
                } else {
                    std::fs::remove_file(&out).unwrap();
                }
            }
            std::os::unix::fs::symlink(&victim, &out).unwrap();
        }
        Change::FileAppears => std::fs::write(&out, "appeared").unwrap(),
        Change::FolderAppears => {
            std::fs::create_dir(&out).unwrap();
            std::fs::write(out.join("mine.txt"), "mine").unwrap();
        }
        Change::Replaced => {
            let new = root.join("replacement");
            if role == Role::Dir {
                std::fs::create_dir(&new).unwrap();
                std::fs::write(new.join("mine.txt"), "mine").unwrap();
                std::fs::remove_dir_all(&out).unwrap();
            } else {
                std::fs::write(&new, "a replacement").unwrap();
            }
            std::fs::rename(&new, &out).unwrap();
        }
    });
    let after = snapshot(&root);
    let ctx = || format!("{label}: {args:?}\nstderr: {err}");
    if code.is_none() {
        return Err(format!("{} hung", ctx()));
    }
    if err.contains("panicked") || code == Some(101) {
        return Err(format!("{} panicked", ctx()));
    }
    let lands = matches!(change, Change::Nothing | Change::ParentSwapped);
    let want = if lands { 0 } else { 2 };
    if code != Some(want) {
        return Err(format!("{} exit {code:?}, expected {want}", ctx()));
    }
    if !lands && !err.contains("during the run") {
        return Err(format!(
            "{}\nthe message does not say the name changed",
            ctx()
        ));
    }
    // Where the output may land: its name in the held folder (which a swap moved).
    let held = if change == Change::ParentSwapped {
        moved.join(&name)
    } else {
        out.clone()
    };
    let pause = |p: &Path| {
        p.file_name()
            .is_some_and(|n| n.as_bytes().starts_with(b"pause"))
    };
    let may_change = |p: &Path| {
        pause(p)
            || (lands && p.starts_with(&held))
            || (change == Change::ParentSwapped && (p.starts_with(&sub) || p.starts_with(&moved)))
            || (!lands && is_kept(p) && (p.starts_with(&sub) || p.starts_with(&moved)))
    };
    // What the change itself made (checked below against what the change left).
    let changed_by_test = |p: &Path| {
        !lands && (p == out || p.starts_with(&out) || p.starts_with(root.join("replacement")))
    };
    for (p, what) in &before {
        let now = after.get(p);
        if now != Some(what) && !may_change(p) && !changed_by_test(p) {
            return Err(format!(
                "{}\n{} changed: {what} -> {now:?}",
                ctx(),
                p.display()
            ));
        }
    }
    for (p, what) in &after {
        if !before.contains_key(p) && !may_change(p) && !changed_by_test(p) {
            return Err(format!("{}\n{} appeared: {what}", ctx(), p.display()));
        }
        if is_side(p) {
            return Err(format!("{}\nleft behind: {}", ctx(), p.display()));
        }
    }
    if std::fs::read_to_string(&victim).unwrap() != "the user's file" {
        return Err(format!("{}\nthe user's file was changed", ctx()));
    }
    let theirs = if role == Role::Dir {
        other.join(&name).join("theirs.txt")
    } else {
        other.join(&name)
    };
    if std::fs::read_to_string(&theirs).ok().as_deref() != Some("theirs")
        || (role == Role::Dir && std::fs::read_dir(other.join(&name)).unwrap().count() != 1)
    {
        return Err(format!("{}\nthe other folder's file was changed", ctx()));
    }
    match change {
        Change::Nothing | Change::ParentSwapped => {
            let ok = if role == Role::Dir {
                held.join("report.json").is_file()
            } else {
                std::fs::metadata(&held).is_ok_and(|m| m.is_file() && m.len() > 20)
            };
            if !ok {
                return Err(format!(
                    "{}\nthe output was not written at {}",
                    ctx(),
                    held.display()
                ));
            }
        }
        Change::LinkAtName => {
            if std::fs::read_link(&out).ok().as_deref() != Some(victim.as_path()) {
                return Err(format!("{}\nthe planted link was changed", ctx()));
            }
        }
        Change::FileAppears => {
            if std::fs::read_to_string(&out).ok().as_deref() != Some("appeared") {
                return Err(format!("{}\nthe file that appeared was changed", ctx()));
            }
        }
        Change::FolderAppears => {
            if std::fs::read_dir(&out).unwrap().count() != 1 {
                return Err(format!("{}\nthe folder that appeared was changed", ctx()));
            }
        }
        Change::Replaced => {
            let ok = if role == Role::Dir {
                std::fs::read_dir(&out).unwrap().count() == 1
            } else {
                std::fs::read_to_string(&out).ok().as_deref() == Some("a replacement")
            };
            if !ok {
                return Err(format!("{}\nthe replacement was changed", ctx()));
            }
        }
    }
    // A result that could not be put at its name is kept beside it (a shard also under the
    // system's temporary folder), and the message says where.
    if !lands && role != Role::Regular && !after.keys().any(|p| is_kept(p)) {
        return Err(format!(
            "{}\nthe result was not kept beside the name",
            ctx()
        ));
    }
    if !lands && !err.contains("rtplab-kept-") && !err.contains("saved to") {
        return Err(format!(
            "{}\nthe message does not say where the result is",
            ctx()
        ));
    }
    Ok(())
}

#[test]
fn every_output_flag_holds_its_name_while_the_run_runs() {
    let base = temp_dir("door-when");
    let mut cases = Vec::new();
    for (flag, role) in FLAGS {
        for start in [Start::New, Start::Existing] {
            for utf8 in [true, false] {
                for change in CHANGES {
                    if applies(start, change, role) {
                        cases.push((flag, role, start, utf8, change));
                    }
                }
            }
        }
    }
    run_all(&cases, |(f, r, s, u, c)| case(&base, f, *r, *s, *u, *c));
    let _ = std::fs::remove_dir_all(&base);
}

/// Every spelling of standard output as a path writes in place, after what the file held:
/// the descriptor is known by what it is, not by how it is written.
#[test]
fn every_spelling_of_a_descriptor_writes_in_place() {
    let base = temp_dir("door-spellings");
    std::fs::create_dir_all(&base).unwrap();
    let link = base.join("to-stdout");
    std::os::unix::fs::symlink("/dev/stdout", &link).unwrap();
    let spellings = [
        "/dev/stdout".to_string(),
        "/dev/./fd/1".into(),
        "/dev/fd/../fd/1".into(),
        "/dev/fd/1".into(),
        "/proc/self/./fd/1".into(),
        "/proc/self/fd/1".into(),
        "/proc/thread-self/fd/1".into(),
        format!("/proc/{}/fd/1", "self"),
        link.display().to_string(),
    ];
    for (i, s) in spellings.iter().enumerate() {
        let log = base.join(format!("app-{i}.log"));
        std::fs::write(&log, "earlier lines\n").unwrap();
        let f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        let o = process()
            .args(["sim", "blackjack", "--rounds", "2000", "-q", "-o", s])
            .stdout(Stdio::from(f))
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{s}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(
            text.starts_with("earlier lines\n"),
            "{s}: the earlier lines were lost"
        );
        assert!(text.contains("RTP"), "{s}: no report: {text:.200}");
    }
    // Standard input is read, not written, however spelled; another process's descriptor is
    // not this process's.
    for s in ["/dev/./stdin", "/proc/self/fd/0", "/proc/1/fd/1"] {
        let o = process()
            .args(["sim", "blackjack", "--rounds", "2000", "-q", "-o", s])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(2),
            "{s}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// An output name that is not UTF-8 is created byte for byte (not as U+FFFD), and a file of
/// the lossy name is left alone.
#[test]
fn a_name_that_is_not_utf8_is_written_as_given() {
    let base = temp_dir("door-bytes");
    std::fs::create_dir_all(&base).unwrap();
    let lossy = base.join("\u{fffd}.json");
    std::fs::write(&lossy, "mine").unwrap();
    let raw = base.join(OsStr::from_bytes(b"\xff.json"));
    for flag in ["-o", "--out-dir"] {
        let target = if flag == "-o" {
            raw.clone()
        } else {
            base.join(OsStr::from_bytes(b"\xfe-od"))
        };
        let o = process()
            .args([
                "sim",
                "blackjack",
                "--rounds",
                "2000",
                "-q",
                "--format",
                "json",
            ])
            .arg(flag)
            .arg(&target)
            .output()
            .unwrap();
        exits(&o, 0);
        assert!(
            std::fs::symlink_metadata(&target).is_ok(),
            "{flag}: not made as named"
        );
    }
    assert_eq!(std::fs::read_to_string(&lossy).unwrap(), "mine");
    let _ = std::fs::remove_dir_all(&base);
}

/// A standard error that cannot be written (closed by its reader, or a full device) never
/// crashes the run: the exit code is the command's own.
#[test]
fn a_standard_error_that_cannot_be_written_does_not_crash_the_run() {
    let bad = [
        "sim",
        "blackjack",
        "--rounds",
        "2000",
        "-o",
        "/nonexistent-folder/r.json",
    ];
    // A full device.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = process()
        .args(bad)
        .stderr(Stdio::from(full))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    // A pipe whose reader has gone.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let o = process()
        .args(bad)
        .stderr(Stdio::from(writer))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// A file or folder in the working folder named as a built-in (`basic`, `hi-lo`, `i18`) does
/// not shadow it; `./basic` names the file.
#[test]
fn built_in_names_are_not_shadowed_by_files() {
    let base = temp_dir("door-builtins");
    std::fs::create_dir_all(base.join("basic")).unwrap();
    std::fs::write(base.join("hi-lo"), "not a count").unwrap();
    std::fs::create_dir_all(base.join("i18")).unwrap();
    let run = |args: &[&str]| process().current_dir(&base).args(args).output().unwrap();
    let o = run(&["sim", "blackjack", "--rounds", "2000", "-q"]);
    exits(&o, 0);
    let o = run(&[
        "sim",
        "blackjack",
        "--rounds",
        "2000",
        "-q",
        "--count",
        "hi-lo",
        "--indices",
        "i18",
    ]);
    exits(&o, 0);
    // Spelled as a path, it is the file: a folder, refused as one.
    let o = run(&[
        "sim",
        "blackjack",
        "--rounds",
        "2000",
        "-q",
        "--strategy",
        "./basic",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&base);
}

/// A working folder deeper than PATH_MAX: every output works, as nothing needs its absolute
/// path.
#[test]
fn a_working_folder_deeper_than_path_max_works() {
    use rustix::fs::{Mode, OFlags};
    let base = temp_dir("door-deep");
    let seg = "d".repeat(200);
    // 25 folders of 200 characters: 5,000 bytes below the base, past PATH_MAX (4,096).
    let mut fd =
        rustix::fs::open(&base, OFlags::RDONLY | OFlags::DIRECTORY, Mode::empty()).unwrap();
    for _ in 0..25 {
        rustix::fs::mkdirat(&fd, seg.as_str(), Mode::from_raw_mode(0o755)).unwrap();
        fd = rustix::fs::openat(
            &fd,
            seg.as_str(),
            OFlags::RDONLY | OFlags::DIRECTORY,
            Mode::empty(),
        )
        .unwrap();
    }
    let deep = std::sync::Arc::new(fd);
    let in_child = deep.clone();
    let mut cmd = process();
    cmd.args([
        "sim",
        "blackjack",
        "--rounds",
        "2000",
        "-q",
        "-o",
        "r.json",
        "--out-dir",
        "od",
    ]);
    // SAFETY: fchdir is async-signal-safe; the descriptor outlives the child's start.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut cmd, move || {
            rustix::process::fchdir(&*in_child).map_err(Into::into)
        });
    }
    let o = cmd.output().unwrap();
    exits(&o, 0);
    let size = |name: &str| {
        rustix::fs::statat(&*deep, name, rustix::fs::AtFlags::empty()).map(|s| s.st_size)
    };
    assert!(size("r.json").unwrap() > 100);
    assert!(size("od/report.json").unwrap() > 100);
    let _ = std::process::Command::new("rm")
        .arg("-rf")
        .arg(&base)
        .status();
}

/// A link planted at a cache entry's name is never followed: the entry is not read through
/// it, and saving the entry replaces the link, not the file it names.
#[test]
fn a_link_at_a_cache_entry_is_not_followed() {
    let base = temp_dir("door-cache-link");
    let cache = base.join("cache");
    std::fs::create_dir_all(&cache).unwrap();
    let victim = base.join("victim.txt");
    std::fs::write(&victim, "the user's file").unwrap();
    // Rules other than the seed table's: their chart is derived and kept in the cache.
    let args = ["sim", "blackjack", "--decks", "2", "--rounds", "2000", "-q"];
    let o = process()
        .env("RTPLAB_CACHE", &cache)
        .args(args)
        .output()
        .unwrap();
    exits(&o, 0);
    let entries: Vec<PathBuf> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!entries.is_empty(), "nothing cached");
    for e in &entries {
        std::fs::remove_file(e).unwrap();
        std::os::unix::fs::symlink(&victim, e).unwrap();
    }
    let o = process()
        .env("RTPLAB_CACHE", &cache)
        .args(args)
        .output()
        .unwrap();
    exits(&o, 0);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "the user's file");
    for e in &entries {
        assert!(
            std::fs::symlink_metadata(e).unwrap().is_file(),
            "the link was not replaced"
        );
    }
    // The folder is this user's alone.
    let mode = std::fs::metadata(&cache).unwrap().mode() & 0o777;
    assert_eq!(mode & 0o022, 0, "{mode:o}");
    let _ = std::fs::remove_dir_all(&base);
}

/// A reader that opened a FIFO and stopped reading cannot hold the run: the first SIGTERM
/// ends the blocked write, the message says the output is partial, and the exit code is the
/// signal's.
#[test]
fn a_stuck_reader_does_not_hold_the_run_past_a_signal() {
    use rustix::fs::{Mode, OFlags};
    let base = temp_dir("door-stuck-fifo");
    let fifo = base.join("fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    // The reader: opened, its pipe made small (one page), never read.
    let reader = rustix::fs::open(&fifo, OFlags::RDONLY | OFlags::NONBLOCK, Mode::empty()).unwrap();
    let _ = rustix::pipe::fcntl_setpipe_size(&reader, 4096);
    let hook = base.join("pause");
    let mut child = process()
        .args([
            "sim",
            "blackjack",
            "--rounds",
            "2000",
            "-q",
            "--format",
            "json",
            "-o",
        ])
        .arg(&fifo)
        .env("RTPLAB_TEST_PAUSE", &hook)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(
        wait_for(&base.join("pause.write.ready"), &mut child),
        "never reached its write"
    );
    std::fs::write(base.join("pause.write.go"), b"").unwrap();
    // The write fills the pipe and waits for the reader.
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the write did not wait for the reader"
    );
    terminate(&child);
    let start = Instant::now();
    let code = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st.code();
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the signal did not end the write"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(code, Some(143), "{err}");
    assert!(err.contains("partial"), "{err}");
    drop(reader);
    let _ = std::fs::remove_dir_all(&base);
}

/// A signal that comes when the work is done and the exit code is being decided still ends
/// the process with the signal's code, never 0.
#[test]
fn a_signal_in_the_last_moment_keeps_its_exit_code() {
    let base = temp_dir("door-last-signal");
    let hook = base.join("pause");
    let mut child = process()
        .args(["sim", "blackjack", "--rounds", "2000", "-q", "-o"])
        .arg(base.join("r.txt"))
        .env("RTPLAB_TEST_PAUSE", &hook)
        .env("RTPLAB_TEST_PAUSE_POINTS", "exit")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    assert!(
        wait_for(&base.join("pause.exit.ready"), &mut child),
        "never reached its exit"
    );
    terminate(&child);
    let st = child.wait().unwrap();
    assert_eq!(st.code(), Some(143));
    assert!(base.join("r.txt").is_file());
    let leftovers: Vec<_> = std::fs::read_dir(&base)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.as_bytes().starts_with(b".r.txt"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let _ = std::fs::remove_dir_all(&base);
}

/// A replaced report folder keeps the old one's mode and setgid bit (and, where this user may
/// set them, its group).
#[test]
fn a_replaced_report_folder_keeps_its_mode_and_group() {
    use std::os::unix::fs::PermissionsExt as _;
    let base = temp_dir("door-od-mode");
    let od = base.join("od");
    let run = |force: bool| {
        let mut c = process();
        c.args(["sim", "blackjack", "--rounds", "2000", "-q", "--out-dir"])
            .arg(&od);
        if force {
            c.arg("--force");
        }
        let o = c.output().unwrap();
        exits(&o, 0);
    };
    run(false);
    std::fs::set_permissions(&od, std::fs::Permissions::from_mode(0o2750)).unwrap();
    // Another group, where this user may give it one (root may).
    let group = rustix::fs::chown(&od, None, Some(rustix::process::Gid::from_raw(1))).is_ok();
    let before = std::fs::metadata(&od).unwrap();
    run(true);
    let after = std::fs::metadata(&od).unwrap();
    assert_ne!(before.ino(), after.ino(), "not replaced");
    assert_eq!(after.mode() & 0o7777, 0o2750);
    if group {
        assert_eq!(after.gid(), 1);
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// A ramp that cannot be put at its name (a link planted there during the run) is kept beside
/// it, and the report still goes where it was asked.
#[test]
fn a_ramp_that_cannot_be_written_does_not_cost_the_report() {
    let base = temp_dir("door-ramp-lost");
    std::fs::create_dir_all(base.join("sub")).unwrap();
    let report = base.join("count-report.json");
    std::fs::copy("reports/counting-hilo-50pct/report.json", &report).unwrap();
    let victim = base.join("victim.txt");
    std::fs::write(&victim, "the user's file").unwrap();
    let ramp = base.join("sub/ramp.txt");
    let args: Vec<OsString> = [
        "strategies",
        "ramp",
        "blackjack",
        "--spread",
        "1-8",
        "-q",
        "--from",
    ]
    .iter()
    .map(OsString::from)
    .chain([report.into_os_string()])
    .chain(["--ramp-out".into(), ramp.clone().into_os_string()])
    .chain(["-o".into(), base.join("rep.txt").into_os_string()])
    .collect();
    let (code, err) = run_paused(&base, &args, || {
        std::os::unix::fs::symlink(&victim, &ramp).unwrap();
    });
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--ramp-out") && err.contains("rtplab-kept-"),
        "{err}"
    );
    assert!(
        std::fs::metadata(base.join("rep.txt")).is_ok_and(|m| m.len() > 100),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "the user's file");
    let _ = std::fs::remove_dir_all(&base);
}

/// A report folder that is a mount point (a bind mount of a folder of the same filesystem
/// too, known by the mount it lies in) cannot be exchanged: refused before any work, not
/// after the run. Skipped where this user cannot mount.
#[test]
fn a_mounted_report_folder_is_refused_before_the_run() {
    let base = temp_dir("door-mounted-od");
    let (src, od) = (base.join("src"), base.join("od"));
    std::fs::create_dir_all(&src).unwrap();
    std::fs::create_dir_all(&od).unwrap();
    let mounted = std::process::Command::new("mount")
        .arg("--bind")
        .arg(&src)
        .arg(&od)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("door: no bind mount here (not root, or no mount namespace): skipped");
        let _ = std::fs::remove_dir_all(&base);
        return;
    }
    let start = Instant::now();
    let o = process()
        .args(["sim", "blackjack", "--rounds", "100M", "-q", "--out-dir"])
        .arg(&od)
        .output()
        .unwrap();
    let took = start.elapsed();
    let _ = std::process::Command::new("umount").arg(&od).status();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("mount point"), "{err}");
    assert!(
        took < Duration::from_secs(10),
        "refused only after {took:?}"
    );
    let _ = std::fs::remove_dir_all(&base);
}
