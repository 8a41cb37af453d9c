//! The write side of the door: what kind of place each output is, checked before any work,
//! and how each kind is written.
//!
//! - A regular file, new or existing (through symbolic links, the file they name): written to
//!   a temporary file beside it (created exclusively: nothing is followed), synced, and
//!   renamed over it, so a full disk, a file-size limit or a kill leaves the earlier file
//!   whole and no temporary file.
//! - A report folder (`--out-dir`): built whole beside it, then swapped in by one rename
//!   (`renameat2` with `RENAME_EXCHANGE`); the old folder is kept until the new one is
//!   complete, then removed.
//! - A special file (a FIFO, a socket, a device such as `/dev/null`, and any open descriptor:
//!   `/dev/stdout`, `/dev/fd/N`, process substitution `>(gzip > r.gz)`): opened once at the
//!   check, without blocking, held open and written in place; never renamed over.

use std::io::Write as _;
use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags};

use super::identity::{kind_name, Id};
use super::names;

/// Why an output cannot be used; each message names the output and what to do.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum OutputError {
    #[error(
        "{flag} {path}: the folder {parent} does not exist; create it first or choose another path"
    )]
    NoParent {
        flag: String,
        path: String,
        parent: String,
    },
    #[error("{flag} {path}: {parent} is not a folder; choose another path")]
    ParentNotDir {
        flag: String,
        path: String,
        parent: String,
    },
    #[error("{flag} {path} is a folder; give the path of a file")]
    IsDir { flag: String, path: String },
    #[error("{flag} {path} ends with '/', the mark of a folder; give the path of a file (without the '/')")]
    TrailingSlash { flag: String, path: String },
    #[error("{flag} {path} exists and is not a folder; choose another path")]
    NotDir { flag: String, path: String },
    #[error("{flag} {path} is {what}: {why}")]
    Special {
        flag: String,
        path: String,
        what: String,
        why: String,
    },
    #[error("{flag} {path} is a symbolic link to {target}, which does not exist: create the file it names, remove the link, or choose another path")]
    DanglingLink {
        flag: String,
        path: String,
        target: String,
    },
    #[error("--out-dir {path} is not empty; add --force to replace the report in it, or choose another folder")]
    NotEmpty { path: String },
    #[error("--out-dir {path} holds files but no rtplab report (no report.json); --force replaces only an earlier report: choose an empty or new folder")]
    NotReport { path: String },
    #[error("--out-dir {path} holds a report without its list of files ({manifest}), so --force cannot tell its files from yours: remove the old report's files (or the folder) first, or choose another folder", manifest = MANIFEST)]
    NoManifest { path: String },
    #[error("--out-dir {path} holds {others} besides the earlier report; --force replaces the folder whole, so move them out first, or choose another folder")]
    Foreign { path: String, others: String },
    #[error("--out-dir {path} is a mount point (or the root): the report is built beside the folder and swapped in, which cannot cross filesystems; give a folder inside it")]
    MountPoint { path: String },
    #[error("--out-dir {path} is the current folder or holds it: the report folder is swapped in whole, which would leave your shell in a removed folder; give a folder inside it")]
    HoldsCwd { path: String },
    #[error("{flag} {path}: names ending in .rtplab-lock or .rtplab-tmp are rtplab's own lock and temporary files; choose another name")]
    SideName { flag: String, path: String },
    #[error("{flag} {path} is in {fs}, the kernel's pseudo-filesystem: it may accept writing but does not keep a file; choose a path on a disk")]
    PseudoFs {
        flag: String,
        path: String,
        fs: String,
    },
    #[error("{flag} {path} is also this command's input ({input}): writing there would destroy it; choose another path")]
    IsInput {
        flag: String,
        path: String,
        input: String,
    },
    #[error("{flag} {path} is in the folder {input}, which this command reads; choose a path outside it")]
    InInputFolder {
        flag: String,
        path: String,
        input: String,
    },
    #[error("--out-dir {path} holds {input}, which this command reads, and --force would replace the folder; write the report to another folder")]
    HoldsInput { path: String, input: String },
    #[error("{flag} {path} is inside --out-dir {dir}, which is replaced whole; choose a path outside it")]
    InOutDir {
        flag: String,
        path: String,
        dir: String,
    },
    #[error("{flag} {path} is in use by another rtplab run{holder}: two runs writing one output would leave only one of them; wait for it to end, or choose another path")]
    Busy {
        flag: String,
        path: String,
        /// " (process 1234)" when the holder is known.
        holder: String,
    },
    #[error("{flag} {path} is also {other} of this command: one of the two would be lost; choose two paths")]
    Twice {
        flag: String,
        path: String,
        other: String,
    },
    #[error("{flag} {path}: its lock file {lock} cannot be used: {why}")]
    Lock {
        flag: String,
        path: String,
        lock: String,
        why: String,
    },
    #[error("{flag} {path} cannot be written ({why}); choose another path")]
    Unwritable {
        flag: String,
        path: String,
        why: String,
    },
}

/// The file in a report folder that lists the files the report wrote (one name a line).
pub const MANIFEST: &str = ".rtplab-files";

/// What an output flag writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputKind {
    /// A report or strategy file: a regular file, or written in place to a special file.
    File,
    /// A file that is read back (a shard file resumes from it): a regular file only.
    Regular,
    /// A report folder; `force` replaces an earlier report in it.
    Dir { force: bool },
    /// An existing folder whose files the command rewrites one by one, each replaced whole
    /// (`check --bless`): held against other runs, never replaced itself.
    Files,
}

/// Where an output goes, as found by the check.
#[derive(Debug)]
pub enum Target {
    /// Standard output (`-`).
    Stdout,
    /// A special file or an open descriptor, held open since the check and written in place.
    InPlace(std::fs::File),
    /// A regular file, new or existing: `path` is the file written (a link's target).
    File(PathBuf),
    /// A report folder: `path` is the folder (its real path), `exists` whether it did.
    Dir { path: PathBuf, exists: bool },
    /// A folder whose files are rewritten one by one (its real path).
    Files(PathBuf),
}

/// An output checked: its target, identity, and the lock file that holds it (none for
/// standard output and special files, where nothing is replaced).
#[derive(Debug)]
pub struct Checked {
    pub target: Target,
    pub id: Option<Id>,
    pub lock: Option<PathBuf>,
    /// The folder it lives in and its name (for cleaning a dead run's temporary files).
    pub home: Option<(PathBuf, std::ffi::OsString)>,
    /// Whether the target is a character device that discards or shows (`/dev/null`, a
    /// terminal): two outputs there lose nothing.
    pub sink: bool,
}

/// A path named as output must not be one of the side files the door writes beside an output
/// (lock, temporary, old), nor end in a slash.
fn check_name(flag: &str, path: &Path) -> Result<(), OutputError> {
    let shown = path.display().to_string();
    let own = [names::LOCK, names::TMP, names::OLD];
    if let Some(n) = path.file_name().and_then(|n| n.to_str()) {
        if own.iter().any(|s| n.ends_with(s)) {
            return Err(OutputError::SideName {
                flag: flag.into(),
                path: shown,
            });
        }
    }
    if path.as_os_str().as_encoded_bytes().ends_with(b"/") {
        return Err(OutputError::TrailingSlash {
            flag: flag.into(),
            path: shown,
        });
    }
    Ok(())
}

/// What `path` is: its real path (a link's target) and, if it exists, the target's metadata;
/// an error for a dangling link, a path under a file, or a pseudo file system.
fn resolve(flag: &str, path: &Path) -> Result<(PathBuf, Option<std::fs::Metadata>), OutputError> {
    let shown = path.display().to_string();
    let err = |why: String| OutputError::Unwritable {
        flag: flag.into(),
        path: shown.clone(),
        why,
    };
    let meta = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) if e.raw_os_error() == Some(20) => {
            return Err(OutputError::ParentNotDir {
                flag: flag.into(),
                path: shown,
                parent: parent_of(path).display().to_string(),
            })
        }
        Err(e) => return Err(err(e.to_string())),
        Ok(m) => Some(m),
    };
    let real = match &meta {
        Some(m) if m.file_type().is_symlink() => match std::fs::canonicalize(path) {
            Ok(r) => r,
            Err(_) => {
                return Err(OutputError::DanglingLink {
                    flag: flag.into(),
                    path: shown,
                    target: std::fs::read_link(path)
                        .map(|t| t.display().to_string())
                        .unwrap_or_default(),
                })
            }
        },
        _ => path.to_path_buf(),
    };
    if let Some(fs) = pseudo_fs(&real) {
        return Err(OutputError::PseudoFs {
            flag: flag.into(),
            path: shown,
            fs: fs.into(),
        });
    }
    let meta = match meta {
        None => None,
        Some(_) => Some(std::fs::metadata(&real).map_err(|e| err(e.to_string()))?),
    };
    Ok((real, meta))
}

/// Check the output `path` of `flag` before any work, the way it will be written.
pub fn check(flag: &str, path: &Path, kind: OutputKind) -> Result<Checked, OutputError> {
    let shown = path.display().to_string();
    let err = |why: String| OutputError::Unwritable {
        flag: flag.into(),
        path: shown.clone(),
        why,
    };
    if path.as_os_str() == "-" {
        if kind == OutputKind::Regular {
            return Err(special(flag, path, "standard output", READ_BACK));
        }
        return Ok(Checked {
            target: Target::Stdout,
            id: stdout_id(),
            lock: None,
            home: None,
            sink: false,
        });
    }
    if let OutputKind::Dir { force } = kind {
        return check_dir(path, force);
    }
    if kind == OutputKind::Files {
        return check_files(flag, path);
    }
    check_name(flag, path)?;
    if let Some(fd) = descriptor(path) {
        if kind == OutputKind::Regular {
            return Err(special(flag, path, "an open descriptor", READ_BACK));
        }
        return in_place_fd(flag, path, fd);
    }
    let (real, meta) = resolve(flag, path)?;
    match meta {
        Some(m) if m.is_dir() => Err(OutputError::IsDir {
            flag: flag.into(),
            path: shown,
        }),
        Some(m) if !m.is_file() => {
            if kind == OutputKind::Regular {
                return Err(special(flag, path, kind_name(&m), READ_BACK));
            }
            in_place_special(flag, path, &real, &m)
        }
        Some(m) => {
            // An existing file must accept writing (opened without truncating it).
            std::fs::OpenOptions::new()
                .write(true)
                .open(&real)
                .map_err(|e| err(e.to_string()))?;
            let (dir, name) = probe_parent(flag, path, &real)?;
            Ok(Checked {
                target: Target::File(real),
                id: Some(Id::of(&m)),
                lock: Some(dir.join(names::lock(&name))),
                home: Some((dir, name)),
                sink: false,
            })
        }
        None => {
            let (dir, name) = probe_parent(flag, path, &real)?;
            let d = std::fs::metadata(&dir).map_err(|e| err(e.to_string()))?;
            Ok(Checked {
                target: Target::File(dir.join(&name)),
                id: Some(Id::New(d.dev(), d.ino(), name.clone())),
                lock: Some(dir.join(names::lock(&name))),
                home: Some((dir, name)),
                sink: false,
            })
        }
    }
}

const READ_BACK: &str =
    "a shard file is read back to resume the run, so it must be a file on a disk; give the path of a file";

fn special(flag: &str, path: &Path, what: &str, why: &str) -> OutputError {
    OutputError::Special {
        flag: flag.into(),
        path: path.display().to_string(),
        what: what.into(),
        why: why.into(),
    }
}

/// Standard output's identity when it is a file, for the checks (a report printed into an
/// input would destroy it).
pub fn stdout_id() -> Option<Id> {
    let fd = rustix::stdio::stdout();
    rustix::fs::fstat(fd)
        .ok()
        .map(|s| Id::Node(s.st_dev, s.st_ino))
}

/// The descriptor a path names: `/dev/stdout`, `/dev/stderr`, `/dev/stdin`, `/dev/fd/N`,
/// `/proc/self/fd/N` (and a link to one of them). Writing such a path by name would open
/// the file anew (from its start) or replace it; it is written through the descriptor.
fn descriptor(path: &Path) -> Option<i32> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        if let Some(n) = fd_number(&p) {
            return Some(n);
        }
        let next = std::fs::read_link(&p).ok()?;
        p = if next.is_absolute() {
            next
        } else {
            parent_of(&p).join(next)
        };
    }
    None
}

fn fd_number(p: &Path) -> Option<i32> {
    let s = p.to_str()?;
    match s {
        "/dev/stdin" => return Some(0),
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let pid = format!("/proc/{}/fd/", std::process::id());
    ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", &pid]
        .iter()
        .find_map(|pre| s.strip_prefix(pre))
        .and_then(|n| n.parse().ok())
}

/// Descriptor `fd` as an output, duplicated and held: it must be open for writing.
fn in_place_fd(flag: &str, path: &Path, fd: i32) -> Result<Checked, OutputError> {
    if fd == 0 {
        return Err(special(
            flag,
            path,
            "standard input",
            "it is read, not written; give the path of a file, or - for standard output",
        ));
    }
    // SAFETY: the descriptor is only borrowed for the duration of the calls below, which fail
    // with EBADF if it is not open.
    let borrowed = unsafe { rustix::fd::BorrowedFd::borrow_raw(fd) };
    let bad = |why: &str| special(flag, path, &format!("descriptor {fd}"), why);
    let flags = rustix::fs::fcntl_getfl(borrowed)
        .map_err(|_| bad("it is not open in this process; give the path of a file"))?;
    if !(flags.contains(OFlags::WRONLY) || flags.contains(OFlags::RDWR)) {
        return Err(bad("it is not open for writing"));
    }
    let dup = rustix::io::fcntl_dupfd_cloexec(borrowed, 3)
        .map_err(|e| bad(&std::io::Error::from(e).to_string()))?;
    let file = std::fs::File::from(dup);
    let id = file.metadata().ok().map(|m| Id::of(&m));
    let sink = file
        .metadata()
        .is_ok_and(|m| m.file_type().is_char_device());
    Ok(Checked {
        target: Target::InPlace(file),
        id,
        lock: None,
        home: None,
        sink,
    })
}

/// A FIFO, socket or device as an output, opened now without blocking and held open.
fn in_place_special(
    flag: &str,
    path: &Path,
    real: &Path,
    m: &std::fs::Metadata,
) -> Result<Checked, OutputError> {
    let what = kind_name(m);
    let t = m.file_type();
    let file = if t.is_block_device() {
        return Err(special(
            flag,
            path,
            what,
            "rtplab does not write to disks directly; give the path of a file",
        ));
    } else if t.is_socket() {
        let s = std::os::unix::net::UnixStream::connect(real).map_err(|e| {
            special(
                flag,
                path,
                what,
                &format!("no program accepts a connection on it ({e}); start the reader first"),
            )
        })?;
        std::fs::File::from(std::os::fd::OwnedFd::from(s))
    } else {
        let fd = rustix::fs::open(
            real,
            OFlags::WRONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| match e {
            rustix::io::Errno::NXIO => special(
                flag,
                path,
                what,
                "no program is reading it; start the reader first (e.g. `cat` on it in another terminal)",
            ),
            e => special(flag, path, what, &std::io::Error::from(e).to_string()),
        })?;
        // Written with blocking writes from here: a reader that is slow is waited for.
        let fl = rustix::fs::fcntl_getfl(&fd).unwrap_or(OFlags::WRONLY);
        let _ = rustix::fs::fcntl_setfl(&fd, fl - OFlags::NONBLOCK);
        std::fs::File::from(fd)
    };
    Ok(Checked {
        target: Target::InPlace(file),
        id: Some(Id::of(m)),
        lock: None,
        home: None,
        sink: t.is_char_device(),
    })
}

/// `/proc` or `/sys` when `real` (or its folder for a new file) lies in one of the kernel's
/// pseudo-filesystems, whose files open for writing (as root) but keep nothing.
fn pseudo_fs(real: &Path) -> Option<&'static str> {
    let real = std::fs::canonicalize(real)
        .or_else(|_| std::fs::canonicalize(parent_of(real)))
        .ok()?;
    ["/proc", "/sys"]
        .into_iter()
        .find(|fs| real.starts_with(fs))
}

/// The folder a path lives in (`.` for a bare file name).
pub fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Check that the folder of the file `real` (a path's target) exists and takes new files, by
/// creating and removing a temporary file there exclusively (permissions alone do not say,
/// e.g. for root or read-only mounts). Returns the folder (its real path) and the file name.
fn probe_parent(
    flag: &str,
    shown: &Path,
    real: &Path,
) -> Result<(PathBuf, std::ffi::OsString), OutputError> {
    let parent = parent_of(real);
    let (f, p, d) = (
        flag.to_string(),
        shown.display().to_string(),
        parent.display().to_string(),
    );
    let Some(name) = real.file_name().map(|n| n.to_os_string()) else {
        return Err(OutputError::IsDir { flag: f, path: p });
    };
    let dir = match std::fs::canonicalize(&parent) {
        Ok(dir) => dir,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let under_file = parent.ancestors().skip(1).any(|a| a.is_file());
            return Err(if under_file {
                OutputError::ParentNotDir {
                    flag: f,
                    path: p,
                    parent: d,
                }
            } else {
                OutputError::NoParent {
                    flag: f,
                    path: p,
                    parent: d,
                }
            });
        }
        Err(e) if e.raw_os_error() == Some(20) => {
            return Err(OutputError::ParentNotDir {
                flag: f,
                path: p,
                parent: d,
            })
        }
        Err(e) => {
            return Err(OutputError::Unwritable {
                flag: f,
                path: p,
                why: e.to_string(),
            })
        }
    };
    if !dir.is_dir() {
        return Err(OutputError::ParentNotDir {
            flag: f,
            path: p,
            parent: d,
        });
    }
    with_temp(&name, |b| b.tempfile_in(&dir))
        .map(drop)
        .map_err(|e| OutputError::Unwritable {
            flag: f,
            path: p,
            why: e.to_string(),
        })?;
    Ok((dir, name))
}

/// Run `f` with a builder of temporary files and folders for the output named `name`:
/// `.NAME.XXXXXX.rtplab-tmp`, created exclusively (never following a link planted there).
fn with_temp<R>(name: &std::ffi::OsStr, f: impl FnOnce(&mut tempfile::Builder) -> R) -> R {
    let stem = names::stem(name);
    let mut b = tempfile::Builder::new();
    b.prefix(&stem).suffix(names::TMP).rand_bytes(names::RAND);
    f(&mut b)
}

/// Check `--out-dir` before the run: a new folder needs a parent that takes new files; an
/// existing one must be empty, or (with `force`) hold an earlier rtplab report and nothing
/// else; it must not be a mount point (it is swapped with a folder built beside it).
fn check_dir(dir: &Path, force: bool) -> Result<Checked, OutputError> {
    let path = dir.display().to_string();
    let flag = "--out-dir";
    let exists = match std::fs::metadata(dir) {
        Ok(m) if !m.is_dir() => {
            return Err(OutputError::NotDir {
                flag: flag.into(),
                path,
            })
        }
        Ok(_) => true,
        Err(_) => {
            if let Ok(target) = std::fs::read_link(dir) {
                return Err(OutputError::DanglingLink {
                    flag: flag.into(),
                    path,
                    target: target.display().to_string(),
                });
            }
            false
        }
    };
    // The folder's real path: through links and `.` or `..`.
    let real = if exists {
        std::fs::canonicalize(dir).map_err(|e| OutputError::Unwritable {
            flag: flag.into(),
            path: path.clone(),
            why: e.to_string(),
        })?
    } else {
        dir.to_path_buf()
    };
    if let Some(fs) = pseudo_fs(&real) {
        return Err(OutputError::PseudoFs {
            flag: flag.into(),
            path,
            fs: fs.into(),
        });
    }
    if exists {
        let m = std::fs::metadata(&real).map_err(|e| OutputError::Unwritable {
            flag: flag.into(),
            path: path.clone(),
            why: e.to_string(),
        })?;
        let parent_dev = real.parent().and_then(|p| std::fs::metadata(p).ok());
        if parent_dev.is_none_or(|p| p.dev() != m.dev() || p.ino() == m.ino()) {
            return Err(OutputError::MountPoint { path });
        }
        if std::env::current_dir()
            .and_then(std::fs::canonicalize)
            .is_ok_and(|cwd| cwd.starts_with(&real))
        {
            return Err(OutputError::HoldsCwd { path });
        }
        check_contents(&real, &path, force)?;
    }
    let (parent, name) = probe_parent(flag, dir, &real)?;
    let p = std::fs::metadata(&parent).map_err(|e| OutputError::Unwritable {
        flag: flag.into(),
        path: path.clone(),
        why: e.to_string(),
    })?;
    let id = match std::fs::metadata(parent.join(&name)) {
        Ok(m) => Id::of(&m),
        Err(_) => Id::New(p.dev(), p.ino(), name.clone()),
    };
    Ok(Checked {
        target: Target::Dir {
            path: parent.join(&name),
            exists,
        },
        id: Some(id),
        lock: Some(parent.join(names::lock(&name))),
        home: Some((parent, name)),
        sink: false,
    })
}

/// A folder whose files the command rewrites: it must exist, and take new files (each file
/// is replaced through a temporary file beside it).
fn check_files(flag: &str, path: &Path) -> Result<Checked, OutputError> {
    let shown = path.display().to_string();
    let real = match std::fs::canonicalize(path) {
        Ok(r) if r.is_dir() => r,
        _ => {
            return Err(OutputError::NotDir {
                flag: flag.into(),
                path: shown,
            })
        }
    };
    probe_parent(flag, path, &real.join("probe"))?;
    let (parent, name) = match (real.parent(), real.file_name()) {
        (Some(p), Some(n)) => (p.to_path_buf(), n.to_os_string()),
        _ => {
            return Err(OutputError::MountPoint { path: shown });
        }
    };
    let m = std::fs::metadata(&real).map_err(|e| OutputError::Unwritable {
        flag: flag.into(),
        path: shown,
        why: e.to_string(),
    })?;
    Ok(Checked {
        target: Target::Files(real),
        id: Some(Id::of(&m)),
        lock: Some(parent.join(names::lock(&name))),
        home: None,
        sink: false,
    })
}

/// An existing out-dir's contents: empty, or with `force` an earlier report and nothing else.
fn check_contents(real: &Path, path: &str, force: bool) -> Result<(), OutputError> {
    let entries: Vec<String> = std::fs::read_dir(real)
        .map_err(|e| OutputError::Unwritable {
            flag: "--out-dir".into(),
            path: path.into(),
            why: e.to_string(),
        })?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    if entries.is_empty() {
        return Ok(());
    }
    let path = path.to_string();
    if !force {
        return Err(OutputError::NotEmpty { path });
    }
    if !real.join("report.json").is_file() {
        return Err(OutputError::NotReport { path });
    }
    let Some(listed) = report_files(real) else {
        return Err(OutputError::NoManifest { path });
    };
    let mut others: Vec<String> = entries
        .into_iter()
        .filter(|e| e != MANIFEST && !listed.contains(e))
        .collect();
    if others.is_empty() {
        return Ok(());
    }
    others.sort();
    let n = others.len();
    others.truncate(3);
    let mut list = others.join(", ");
    if n > 3 {
        list += &format!(" and {} more", n - 3);
    }
    Err(OutputError::Foreign { path, others: list })
}

/// The files an earlier report in `dir` wrote, from its manifest (`None` without one). Only
/// plain names of files directly in the folder count.
fn report_files(dir: &Path) -> Option<Vec<String>> {
    let text = super::input::read_text(
        &dir.join(MANIFEST),
        "report folder's list of files",
        super::input::InputKind::Text.limit(),
    )
    .ok()?;
    Some(
        text.lines()
            .filter(|n| {
                !n.is_empty()
                    && *n != "."
                    && *n != ".."
                    && Path::new(n).file_name() == Some(std::ffi::OsStr::new(n))
            })
            .map(String::from)
            .collect(),
    )
}

/// Remove what a run that died left beside the output named `name` in `dir` (its temporary
/// files and folders, an out-dir's old copy): called while the output is held, so no live
/// run is writing them. Only this user's are removed.
pub fn clean_stale(dir: &Path, name: &std::ffi::OsStr) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let me = rustix::process::geteuid().as_raw();
    for e in entries.flatten() {
        if !names::is_side(name, &e.file_name()) {
            continue;
        }
        let Ok(m) = std::fs::symlink_metadata(e.path()) else {
            continue;
        };
        if m.uid() != me {
            continue;
        }
        let _ = if m.is_dir() {
            std::fs::remove_dir_all(e.path())
        } else {
            std::fs::remove_file(e.path())
        };
    }
}

/// Replace the regular file `path` (already resolved: the file itself, not a link to it) with
/// `bytes`: a temporary file beside it, synced, renamed over it. A new file gets the usual
/// mode (read and write for all less the umask), an existing one keeps its own.
pub fn replace_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = parent_of(path);
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("the path names no file"))?;
    let mode = match std::fs::metadata(path) {
        Ok(m) => m.permissions(),
        Err(_) => std::fs::Permissions::from_mode(0o666),
    };
    let mut tmp = with_temp(name, |b| b.permissions(mode).tempfile_in(&dir))?;
    let live = super::Live::new(tmp.path().to_path_buf());
    tmp.write_all(bytes)?;
    tmp.flush()?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    drop(live);
    sync_dir(&dir);
    Ok(())
}

/// The rename reaches the disk with the folder's entry (best effort: not every filesystem
/// syncs a folder).
fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Write a report folder at `dir` (its real path): `fill` writes the files into a folder
/// built beside it; with its list of files ([`MANIFEST`]) and every file synced, it is
/// swapped with the old folder in one rename, and the old one removed. Returns the final
/// paths of the files `fill` wrote.
pub fn replace_dir(
    dir: &Path,
    fill: impl FnOnce(&Path) -> std::io::Result<Vec<PathBuf>>,
) -> std::io::Result<Vec<PathBuf>> {
    let parent = parent_of(dir);
    let name = dir
        .file_name()
        .ok_or_else(|| std::io::Error::other("the path names no folder"))?;
    let tmp = with_temp(name, |b| {
        b.permissions(std::fs::Permissions::from_mode(0o777))
            .tempdir_in(&parent)
    })?
    .keep();
    let live = super::Live::new(tmp.clone());
    let written = fill(&tmp).and_then(|w| {
        let mut names = vec![MANIFEST.to_string()];
        for entry in std::fs::read_dir(&tmp)? {
            names.push(entry?.file_name().to_string_lossy().into_owned());
        }
        names.sort();
        std::fs::write(tmp.join(MANIFEST), names.join("\n") + "\n")?;
        for name in &names {
            std::fs::File::open(tmp.join(name))?.sync_all()?;
        }
        sync_dir(&tmp);
        Ok(w)
    });
    let written = match written {
        Ok(w) => w,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    let swapped = swap_in(&tmp, dir, name);
    if let Err(e) = swapped {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    drop(live);
    sync_dir(&parent);
    Ok(written
        .into_iter()
        .map(|p| match p.strip_prefix(&tmp) {
            Ok(rel) => dir.join(rel),
            Err(_) => p,
        })
        .collect())
}

/// Put the complete folder `new` at `dir`: exchanged with the old folder in one rename (the
/// old one then removed), or renamed to a new name. Where the filesystem cannot exchange, the
/// old folder is renamed aside first and removed after.
fn swap_in(new: &Path, dir: &Path, name: &std::ffi::OsStr) -> std::io::Result<()> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    let exists = std::fs::symlink_metadata(dir).is_ok();
    if !exists {
        return match renameat_with(CWD, new, CWD, dir, RenameFlags::NOREPLACE) {
            Ok(()) => Ok(()),
            Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => std::fs::rename(new, dir),
            Err(e) => Err(e.into()),
        };
    }
    match renameat_with(CWD, new, CWD, dir, RenameFlags::EXCHANGE) {
        Ok(()) => {
            // `new` now names the old folder.
            let _live = super::Live::new(new.to_path_buf());
            keep_foreign(new, dir);
            std::fs::remove_dir_all(new)
        }
        Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => {
            let old = with_temp(name, |b| b.tempdir_in(parent_of(dir)))?.keep();
            let _live = super::Live::new(old.clone());
            std::fs::rename(dir, &old)?;
            if let Err(e) = std::fs::rename(new, dir) {
                let _ = std::fs::rename(&old, dir);
                return Err(e);
            }
            keep_foreign(&old, dir);
            std::fs::remove_dir_all(&old)
        }
        Err(e) => Err(e.into()),
    }
}

/// Files put into an out-dir during the run that are not the old report's (the check refused
/// a folder with any): moved into the new folder rather than removed with the old one.
fn keep_foreign(old: &Path, new: &Path) {
    let listed = report_files(old).unwrap_or_default();
    let Ok(entries) = std::fs::read_dir(old) else {
        return;
    };
    for e in entries.flatten() {
        let n = e.file_name();
        if n == MANIFEST || listed.iter().any(|l| std::ffi::OsStr::new(l) == n) {
            continue;
        }
        let to = new.join(&n);
        if std::fs::symlink_metadata(&to).is_err() && std::fs::rename(e.path(), &to).is_ok() {
            eprintln!(
                "note: {} appeared in the report folder during the run; it was kept",
                to.display()
            );
        }
    }
}

/// Save `bytes`, which could not be written where asked, under the system's temporary folder
/// (created exclusively: nothing planted there is followed). Returns where.
pub fn save_fallback(name_of: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let name = name_of
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!("rtplab-{}-", std::process::id()))
        .suffix(&format!("-{name}"))
        .permissions(std::fs::Permissions::from_mode(0o644))
        .tempfile_in(std::env::temp_dir())?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    let (_, path) = tmp.keep().map_err(|e| e.error)?;
    Ok(path)
}
