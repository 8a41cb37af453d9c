//! The write side of the door: what kind of place each output is, checked before any work,
//! and how each kind is written. Every place is held from the check on: its folder is opened
//! once ([`at`]) and everything after is relative to that handle.
//!
//! - A regular file, new or existing (through symbolic links, the file they named at the
//!   check): written to a temporary file beside it in the held folder (created exclusively:
//!   nothing is followed), synced, and put at its name in one step ([`at::put`]): over the
//!   file the check saw, or where nothing was. A full disk, a file-size limit or a kill leaves
//!   the earlier file whole and no temporary file; a name changed during the run (a file
//!   appeared, the file was replaced) is left alone and the result kept beside it.
//! - A report folder (`--out-dir`): built whole beside it, with the old folder's mode, owner,
//!   group and setgid bit, then exchanged with it in one rename; the old folder is removed.
//! - A special file (a FIFO, a socket, a device such as `/dev/null`, and any open descriptor,
//!   known by identity whatever the spelling: `/dev/stdout`, `/dev/./fd/1`,
//!   `/proc/self/fd/N`, process substitution `>(gzip > r.gz)`): opened once at the check,
//!   without blocking, held open and written in place, a signal ending a write that a reader
//!   no longer takes; never renamed over.

use std::ffi::{OsStr, OsString};
use std::io::Write as _;
use std::os::fd::{AsFd, AsRawFd as _, OwnedFd};
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::FileTypeExt as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rustix::fs::{FileType, Mode, OFlags};
use rustix::io::Errno;

use super::at::{self, Dirfd, Found, Ident, Node, Place};
use super::identity::Id;
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

/// A regular file output: its name in its held folder, and the file there now (what the
/// check saw, then what the last write put there; none when nothing is there).
#[derive(Debug)]
pub struct FileTarget {
    pub place: Place,
    pub shown: PathBuf,
    there: Mutex<Option<Ident>>,
}

impl FileTarget {
    /// The file `name` in the held folder `dir` as it is now (a file rewritten in a held
    /// folder: a blessed baseline); a link there is refused, not followed.
    pub fn at(dir: Dirfd, name: OsString, shown: &Path) -> std::io::Result<FileTarget> {
        let there = match at::node_at(&dir, &name) {
            Some((_, FileType::Symlink)) => {
                return Err(std::io::Error::other(format!(
                    "{} is a symbolic link, which is not followed; replace it with the file",
                    shown.display()
                )))
            }
            Some(_) => at::ident_at(&dir, &name),
            None => None,
        };
        Ok(FileTarget {
            place: Place { dir, name },
            shown: shown.to_path_buf(),
            there: Mutex::new(there),
        })
    }

    /// The file at `path` for a library caller no door holds: resolved now, once (through
    /// links, as the door's check does).
    pub fn resolve(path: &Path) -> std::io::Result<FileTarget> {
        let (parent, name) =
            at::split(path).ok_or_else(|| std::io::Error::other("the path names no file"))?;
        let dir = at::open_dir(&parent)?;
        let (place, found) = at::follow(dir, name)?;
        let there = match found {
            Found::Node(st) if FileType::from_raw_mode(st.st_mode) == FileType::RegularFile => {
                at::ident_at(&place.dir, &place.name)
            }
            Found::Absent { .. } => None,
            _ => return Err(std::io::Error::other("not a regular file")),
        };
        Ok(FileTarget {
            place,
            shown: path.to_path_buf(),
            there: Mutex::new(there),
        })
    }
}

/// A report folder output: its name in its held folder and what was there at the check.
#[derive(Debug)]
pub struct DirTarget {
    pub place: Place,
    pub shown: PathBuf,
    pub old: Option<OldDir>,
}

/// The folder an `--out-dir` replaces: its identity and what the new one keeps of it.
#[derive(Clone, Copy, Debug)]
pub struct OldDir {
    pub node: Node,
    pub ident: Ident,
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
}

/// Where an output goes, as found by the check.
#[derive(Debug)]
pub enum Target {
    /// Standard output (`-`).
    Stdout,
    /// A special file or an open descriptor, held open since the check and written in place.
    InPlace(std::fs::File),
    /// A regular file, new or existing.
    File(FileTarget),
    /// A report folder.
    Dir(DirTarget),
    /// A folder whose files are rewritten one by one (held), shown as given.
    Files(Dirfd, PathBuf),
}

/// An output checked: its target, identity, and the lock file that holds it (none for
/// standard output and special files, where nothing is replaced).
#[derive(Debug)]
pub struct Checked {
    pub target: Target,
    pub id: Option<Id>,
    pub lock: Option<Place>,
    /// Its name in its held folder (for cleaning a dead run's temporary files, and for
    /// which folders it lies in).
    pub home: Option<Place>,
    /// Whether the target is a character device that discards or shows (`/dev/null`, a
    /// terminal): two outputs there lose nothing.
    pub sink: bool,
}

/// A path named as output must not be one of the side files the door writes beside an output
/// (lock, temporary, old, kept), nor end in a slash.
fn check_name(flag: &str, path: &Path) -> Result<(), OutputError> {
    let shown = path.display().to_string();
    let own = [names::LOCK, names::TMP, names::OLD];
    if let Some((_, n)) = at::split(path) {
        let n = n.as_bytes();
        if own.iter().any(|s| n.ends_with(s.as_bytes())) || names::is_kept(n) {
            return Err(OutputError::SideName {
                flag: flag.into(),
                path: shown,
            });
        }
    }
    if path.as_os_str().as_bytes().ends_with(b"/") {
        return Err(OutputError::TrailingSlash {
            flag: flag.into(),
            path: shown,
        });
    }
    Ok(())
}

/// Open the folder `parent` of the output `path` once: its handle, or the error that says
/// what is wrong with the way to it.
fn open_parent(flag: &str, path: &Path, parent: &Path) -> Result<Dirfd, OutputError> {
    let (f, p, d) = (
        flag.to_string(),
        path.display().to_string(),
        parent.display().to_string(),
    );
    at::open_dir(parent).map_err(|e| match Errno::from_io_error(&e) {
        Some(Errno::NOENT) => {
            let under_file = Path::new(parent)
                .ancestors()
                .skip(1)
                .any(|a| !a.as_os_str().is_empty() && a.is_file());
            if under_file {
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
            }
        }
        Some(Errno::NOTDIR) => OutputError::ParentNotDir {
            flag: f,
            path: p,
            parent: d,
        },
        _ => OutputError::Unwritable {
            flag: f,
            path: p,
            why: e.to_string(),
        },
    })
}

/// Resolve the output `path` once: its held folder and name, and what is there.
fn resolve(flag: &str, path: &Path) -> Result<(Place, Found), OutputError> {
    let shown = path.display().to_string();
    let Some((parent, name)) = at::split(path) else {
        return Err(OutputError::IsDir {
            flag: flag.into(),
            path: shown,
        });
    };
    let dir = open_parent(flag, path, &parent)?;
    let link = at::node_at(&dir, &name).is_some_and(|(_, t)| t == FileType::Symlink);
    let target = || {
        rustix::fs::readlinkat(&*dir, &*name, Vec::new())
            .map(|t| {
                Path::new(OsStr::from_bytes(t.as_bytes()))
                    .display()
                    .to_string()
            })
            .unwrap_or_default()
    };
    let dangling = || OutputError::DanglingLink {
        flag: flag.into(),
        path: shown.clone(),
        target: target(),
    };
    match at::follow(dir.clone(), name.clone()) {
        Ok((_, Found::Absent { link: Some(_) })) => Err(dangling()),
        Ok(found) => Ok(found),
        Err(_) if link => Err(dangling()),
        Err(e) => Err(OutputError::Unwritable {
            flag: flag.into(),
            path: shown,
            why: e.to_string(),
        }),
    }
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
    let (place, found) = resolve(flag, path)?;
    if let Found::Descriptor = found {
        let fd = descriptor(&place).ok_or_else(|| {
            special(
                flag,
                path,
                "a descriptor of another process",
                "rtplab writes only to its own descriptors; give the path of a file",
            )
        })?;
        if kind == OutputKind::Regular {
            return Err(special(flag, path, "an open descriptor", READ_BACK));
        }
        return in_place_fd(flag, path, fd);
    }
    if let Some(fs) = at::pseudo_fs(&place.dir) {
        return Err(OutputError::PseudoFs {
            flag: flag.into(),
            path: shown,
            fs: fs.into(),
        });
    }
    match found {
        Found::Node(st) => {
            let t = FileType::from_raw_mode(st.st_mode);
            if t == FileType::Directory {
                return Err(OutputError::IsDir {
                    flag: flag.into(),
                    path: shown,
                });
            }
            if t != FileType::RegularFile {
                if kind == OutputKind::Regular {
                    return Err(special(flag, path, type_name(t), READ_BACK));
                }
                return in_place_special(flag, path, &place, t, at::node(&st));
            }
            // An existing file must accept writing (opened without truncating it).
            rustix::fs::openat(
                &*place.dir,
                &*place.name,
                OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .map_err(|e| err(std::io::Error::from(e).to_string()))?;
            probe(flag, path, &place)?;
            let seen = at::ident_at(&place.dir, &place.name);
            Ok(Checked {
                id: Some(Id::Node(st.st_dev, st.st_ino)),
                lock: Some(lock_place(&place)),
                home: Some(place.clone()),
                target: Target::File(FileTarget {
                    place,
                    shown: path.to_path_buf(),
                    there: Mutex::new(seen),
                }),
                sink: false,
            })
        }
        _ => {
            probe(flag, path, &place)?;
            let d = rustix::fs::fstat(&*place.dir).map_err(|e| err(e.to_string()))?;
            Ok(Checked {
                id: Some(Id::New(d.st_dev, d.st_ino, place.name.clone())),
                lock: Some(lock_place(&place)),
                home: Some(place.clone()),
                target: Target::File(FileTarget {
                    place,
                    shown: path.to_path_buf(),
                    there: Mutex::new(None),
                }),
                sink: false,
            })
        }
    }
}

/// The lock file's place beside an output.
fn lock_place(p: &Place) -> Place {
    Place {
        dir: p.dir.clone(),
        name: names::lock(&p.name),
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

fn type_name(t: FileType) -> &'static str {
    match t {
        FileType::Fifo => "a FIFO (named pipe)",
        FileType::Socket => "a socket",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device (a disk)",
        FileType::Directory => "a folder",
        _ => "a file",
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

/// The descriptor of this process a kernel descriptor link names (`/proc/self/fd/N` however
/// it was reached): known by the identity of the folder it lies in (this process's, or this
/// thread's, table of descriptors), not by the spelling of the path.
fn descriptor(p: &Place) -> Option<i32> {
    let here = rustix::fs::fstat(&*p.dir).ok().map(|s| at::node(&s))?;
    let own = ["/proc/self/fd", "/proc/thread-self/fd"]
        .iter()
        .filter_map(|d| at::open_dir(Path::new(d)).ok())
        .filter_map(|d| rustix::fs::fstat(&*d).ok().map(|s| at::node(&s)))
        .any(|n| n == here);
    if !own {
        return None;
    }
    p.name.to_str()?.parse().ok()
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
    place: &Place,
    t: FileType,
    node: Node,
) -> Result<Checked, OutputError> {
    let what = type_name(t);
    let file = if t == FileType::BlockDevice {
        return Err(special(
            flag,
            path,
            what,
            "rtplab does not write to disks directly; give the path of a file",
        ));
    } else if t == FileType::Socket {
        // A socket is connected to by path: the held folder's, through this process's table.
        let mut p = PathBuf::from(format!("/proc/self/fd/{}", place.dir.as_raw_fd()));
        p.push(&place.name);
        let s = std::os::unix::net::UnixStream::connect(&p).map_err(|e| {
            special(
                flag,
                path,
                what,
                &format!("no program accepts a connection on it ({e}); start the reader first"),
            )
        })?;
        std::fs::File::from(OwnedFd::from(s))
    } else {
        let fd = rustix::fs::openat(
            &*place.dir,
            &*place.name,
            OFlags::WRONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| match e {
            Errno::NXIO => special(
                flag,
                path,
                what,
                "no program is reading it; start the reader first (e.g. `cat` on it in another terminal)",
            ),
            e => special(flag, path, what, &std::io::Error::from(e).to_string()),
        })?;
        // Left without blocking: the writes wait for the reader themselves, and a signal
        // ends a write the reader no longer takes (`write_in_place`).
        std::fs::File::from(fd)
    };
    Ok(Checked {
        target: Target::InPlace(file),
        id: Some(Id::Node(node.0, node.1)),
        lock: None,
        home: None,
        sink: t == FileType::CharacterDevice,
    })
}

/// Check that the held folder of `place` takes new files, by creating and removing a
/// temporary file there exclusively (permissions alone do not say, e.g. for root or
/// read-only mounts).
fn probe(flag: &str, shown: &Path, place: &Place) -> Result<(), OutputError> {
    let (name, _f) =
        at::create_temp(&place.dir, &place.name, 0o600).map_err(|e| OutputError::Unwritable {
            flag: flag.into(),
            path: shown.display().to_string(),
            why: e.to_string(),
        })?;
    let _ = rustix::fs::unlinkat(&*place.dir, &*name, rustix::fs::AtFlags::empty());
    Ok(())
}

/// Check `--out-dir` before the run: a new folder needs a parent that takes new files; an
/// existing one must be empty, or (with `force`) hold an earlier rtplab report and nothing
/// else; it must not be a mount point (it is swapped with a folder built beside it) nor hold
/// the working folder.
fn check_dir(dir: &Path, force: bool) -> Result<Checked, OutputError> {
    let path = dir.display().to_string();
    let flag = "--out-dir";
    let unwritable = |why: String| OutputError::Unwritable {
        flag: flag.into(),
        path: path.clone(),
        why,
    };
    if let Some((_, n)) = at::split(dir) {
        let n = n.as_bytes();
        let own = [names::LOCK, names::TMP, names::OLD];
        if own.iter().any(|s| n.ends_with(s.as_bytes())) || names::is_kept(n) {
            return Err(OutputError::SideName {
                flag: flag.into(),
                path,
            });
        }
    }
    let Some((parent, name)) = at::split(dir) else {
        let root = dir.as_os_str().as_bytes().iter().all(|b| *b == b'/');
        return Err(if root {
            OutputError::MountPoint { path }
        } else {
            OutputError::HoldsCwd { path }
        });
    };
    let held = open_parent(flag, dir, &parent)?;
    let link = at::node_at(&held, &name).is_some_and(|(_, t)| t == FileType::Symlink);
    let (place, found) = match at::follow(held.clone(), name.clone()) {
        Ok((_, Found::Absent { link: Some(l) })) => {
            return Err(OutputError::DanglingLink {
                flag: flag.into(),
                path,
                target: Path::new(&l).display().to_string(),
            })
        }
        Ok(f) => f,
        Err(e) if link => {
            return Err(OutputError::DanglingLink {
                flag: flag.into(),
                path,
                target: e.to_string(),
            })
        }
        Err(e) => return Err(unwritable(e.to_string())),
    };
    if let Some(fs) = at::pseudo_fs(&place.dir) {
        return Err(OutputError::PseudoFs {
            flag: flag.into(),
            path,
            fs: fs.into(),
        });
    }
    let old = match found {
        Found::Node(st) if FileType::from_raw_mode(st.st_mode) != FileType::Directory => {
            return Err(OutputError::NotDir {
                flag: flag.into(),
                path,
            })
        }
        Found::Descriptor => {
            return Err(OutputError::NotDir {
                flag: flag.into(),
                path,
            })
        }
        Found::Node(st) => {
            let folder = rustix::fs::openat(
                &*place.dir,
                &*place.name,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .map_err(|e| unwritable(std::io::Error::from(e).to_string()))?;
            let folder: Dirfd = Arc::new(folder);
            if mount_point(&place.dir, &folder) {
                return Err(OutputError::MountPoint { path });
            }
            if at::open_dir(Path::new(".")).is_ok_and(|cwd| at::within(&cwd, at::node(&st))) {
                return Err(OutputError::HoldsCwd { path });
            }
            check_contents(&folder, &path, force)?;
            let ident = at::ident_at(&place.dir, &place.name)
                .ok_or_else(|| unwritable("it went away during the check".into()))?;
            Some(OldDir {
                ident,
                node: at::node(&st),
                mode: st.st_mode & 0o7777,
                uid: st.st_uid,
                gid: st.st_gid,
            })
        }
        Found::Absent { .. } => None,
    };
    probe(flag, dir, &place)?;
    let p = rustix::fs::fstat(&*place.dir).map_err(|e| unwritable(e.to_string()))?;
    let id = match old {
        Some(o) => Id::Node(o.node.0, o.node.1),
        None => Id::New(p.st_dev, p.st_ino, place.name.clone()),
    };
    Ok(Checked {
        id: Some(id),
        lock: Some(lock_place(&place)),
        home: Some(place.clone()),
        target: Target::Dir(DirTarget {
            place,
            shown: dir.to_path_buf(),
            old,
        }),
        sink: false,
    })
}

/// Whether the held `folder` is the root of a mount (`parent` is the folder holding it): a
/// rename cannot swap it. Known by the mount each lies in, so bind mounts count too.
fn mount_point(parent: &Dirfd, folder: &Dirfd) -> bool {
    use rustix::fs::{AtFlags, StatxFlags};
    let mnt = |fd: &Dirfd| {
        rustix::fs::statx(&**fd, "", AtFlags::EMPTY_PATH, StatxFlags::MNT_ID)
            .ok()
            .filter(|s| s.stx_mask & StatxFlags::MNT_ID.bits() != 0)
            .map(|s| s.stx_mnt_id)
    };
    let dev = |fd: &Dirfd| rustix::fs::fstat(&**fd).ok().map(|s| (s.st_dev, s.st_ino));
    match (mnt(parent), mnt(folder)) {
        (Some(a), Some(b)) if a != b => return true,
        _ => {}
    }
    match (dev(parent), dev(folder)) {
        (Some(a), Some(b)) => a.0 != b.0 || a == b,
        _ => true,
    }
}

/// A folder whose files the command rewrites (blessed baselines, a study's cells and
/// results): made when nothing is at its name and its parent is a folder, and it must take new
/// files (each file is replaced through a temporary file beside it). Held by a lock file
/// inside it.
fn check_files(flag: &str, path: &Path) -> Result<Checked, OutputError> {
    let shown = path.display().to_string();
    if std::fs::symlink_metadata(path).is_err() {
        let _ = std::fs::create_dir(path);
    }
    let dir = at::open_dir(path).map_err(|_| OutputError::NotDir {
        flag: flag.into(),
        path: shown.clone(),
    })?;
    let inside = Place {
        dir: dir.clone(),
        name: OsString::from(".rtplab-bless"),
    };
    probe(flag, path, &inside)?;
    let m = rustix::fs::fstat(&*dir).map_err(|e| OutputError::Unwritable {
        flag: flag.into(),
        path: shown,
        why: e.to_string(),
    })?;
    Ok(Checked {
        target: Target::Files(dir, path.to_path_buf()),
        id: Some(Id::Node(m.st_dev, m.st_ino)),
        lock: Some(lock_place(&inside)),
        home: None,
        sink: false,
    })
}

/// An existing out-dir's contents: empty, or with `force` an earlier report and nothing else.
fn check_contents(folder: &Dirfd, path: &str, force: bool) -> Result<(), OutputError> {
    let entries: Vec<OsString> = at::list(folder).map_err(|e| OutputError::Unwritable {
        flag: "--out-dir".into(),
        path: path.into(),
        why: e.to_string(),
    })?;
    if entries.is_empty() {
        return Ok(());
    }
    let path = path.to_string();
    if !force {
        return Err(OutputError::NotEmpty { path });
    }
    let report = at::node_at(folder, OsStr::new("report.json"));
    if report.is_none_or(|(_, t)| t != FileType::RegularFile) {
        return Err(OutputError::NotReport { path });
    }
    let Some(listed) = report_files(folder) else {
        return Err(OutputError::NoManifest { path });
    };
    let mut others: Vec<String> = entries
        .into_iter()
        .filter(|e| e != MANIFEST && !listed.iter().any(|l| OsStr::new(l) == e))
        .map(|e| Path::new(&e).display().to_string())
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

/// The files an earlier report in the held `folder` wrote, from its manifest (`None` without
/// one). Only plain names of files directly in the folder count.
fn report_files(folder: &Dirfd) -> Option<Vec<String>> {
    let fd = rustix::fs::openat(
        &**folder,
        MANIFEST,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .ok()?;
    let f = std::fs::File::from(fd);
    if !f.metadata().ok()?.is_file() {
        return None;
    }
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut std::io::Read::take(&f, super::input::MAX_TEXT_BYTES),
        &mut text,
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

/// Remove what a run that died left beside the output at `place` (its temporary files and
/// folders, an out-dir's old copy): called while the output is held, so no live run is
/// writing them. Only this user's are removed.
pub fn clean_stale(place: &Place) {
    let Ok(entries) = at::list(&place.dir) else {
        return;
    };
    let me = rustix::process::geteuid().as_raw();
    for e in entries {
        if !names::is_side(&place.name, &e) {
            continue;
        }
        let Ok(st) = rustix::fs::statat(&*place.dir, &*e, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
        else {
            continue;
        };
        if st.st_uid == me {
            let _ = at::remove_all(&place.dir, &e);
        }
    }
}

/// Replace the regular file of `t` with `bytes`: a temporary file beside it in its held
/// folder, synced, put at its name over the file the check saw (or the last write made). A new
/// file gets the usual mode (read and write for all less the umask), an existing one keeps
/// its own. A name changed during the run is left alone: the result is kept beside it and the
/// error says where.
pub fn replace_file(t: &FileTarget, bytes: &[u8]) -> std::io::Result<()> {
    replace_file_with(t, &mut |w| w.write_all(bytes))
}

/// [`replace_file`] with what `fill` writes, streamed to the temporary file (a result too large
/// to hold in memory: a round log).
pub fn replace_file_with(
    t: &FileTarget,
    fill: &mut dyn FnMut(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut there = t.there.lock().unwrap_or_else(|e| e.into_inner());
    let dir = &t.place.dir;
    let name = &t.place.name;
    let mode = match *there {
        Some(_) => rustix::fs::statat(&**dir, &**name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
            .map(|s| s.st_mode & 0o7777)
            .unwrap_or(0o644),
        None => 0o666 & !umask(),
    };
    let (tmp, _file, live) = at::write_temp_with(dir, name, mode, fill)?;
    let shown = || t.shown.display().to_string();
    match at::put(dir, &tmp, name, *there, &shown) {
        Ok(replaced) => {
            if replaced {
                let _ = rustix::fs::unlinkat(&**dir, &*tmp, rustix::fs::AtFlags::empty());
            }
            *there = at::ident_at(dir, name);
            drop(live);
            at::sync_dir(dir);
            Ok(())
        }
        Err(e) => {
            let kept = at::keep(dir, &tmp, name);
            drop(live);
            Err(match kept {
                Ok(k) => kept_error(format!(
                    "{e}; the result was kept beside it as {}",
                    beside(&t.shown, &k)
                )),
                Err(_) => e,
            })
        }
    }
}

/// The error of a result that was not put at its name but kept beside it (the message says
/// where): nothing more need be saved elsewhere ([`is_kept`]).
fn kept_error(msg: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::AlreadyExists, msg)
}

/// Whether a write's error says the result was kept beside its name.
pub fn is_kept(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::AlreadyExists
}

/// The path shown for the name `k` beside the output shown as `shown`.
fn beside(shown: &Path, k: &OsStr) -> String {
    match at::split(shown) {
        Some((p, _)) if p != Path::new(".") => p.join(k).display().to_string(),
        _ => Path::new(k).display().to_string(),
    }
}

/// The process's umask: read from the kernel's account of the process (`Umask:` in
/// `/proc/self/status`), so that no other thread ever creates a file under a changed one; set
/// and restored at once only where that is missing.
fn umask() -> u32 {
    static UMASK: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *UMASK.get_or_init(|| {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let read = status
            .lines()
            .find_map(|l| l.strip_prefix("Umask:"))
            .and_then(|v| u32::from_str_radix(v.trim(), 8).ok());
        read.unwrap_or_else(|| {
            let old = rustix::process::umask(Mode::from_raw_mode(0o022));
            rustix::process::umask(old);
            old.as_raw_mode()
        })
    })
}

impl DirTarget {
    /// The folder at `path` for a library caller no door holds: resolved now, once; what is
    /// there now is replaced.
    pub fn resolve(path: &Path) -> std::io::Result<DirTarget> {
        let (parent, name) =
            at::split(path).ok_or_else(|| std::io::Error::other("the path names no folder"))?;
        let dir = at::open_dir(&parent)?;
        let (place, found) = at::follow(dir, name)?;
        let old = match found {
            Found::Node(st) if FileType::from_raw_mode(st.st_mode) == FileType::Directory => {
                Some(OldDir {
                    node: at::node(&st),
                    ident: at::ident_at(&place.dir, &place.name)
                        .ok_or_else(|| std::io::Error::other("the folder went away"))?,
                    mode: st.st_mode & 0o7777,
                    uid: st.st_uid,
                    gid: st.st_gid,
                })
            }
            Found::Absent { .. } => None,
            _ => return Err(std::io::Error::other("not a folder")),
        };
        Ok(DirTarget {
            place,
            shown: path.to_path_buf(),
            old,
        })
    }
}

/// Write the report folder of `t`: `fill` writes the files into a folder built beside it
/// (given to `fill` as a path through this process's handle of it, never by its name), with
/// the old folder's mode, owner, group and setgid bit; with its list of files ([`MANIFEST`])
/// and every file synced, it is exchanged with the old folder in one rename (which must still
/// be the one the check saw), and the old one removed. Returns the final paths of the files
/// `fill` wrote.
pub fn replace_dir(
    t: &DirTarget,
    fill: impl FnOnce(&Path) -> std::io::Result<Vec<PathBuf>>,
) -> std::io::Result<Vec<PathBuf>> {
    let dir = &t.place.dir;
    let name = &t.place.name;
    let (tmp, folder) = at::make_temp_dir(dir, name)?;
    let live = super::Live::new(Place {
        dir: dir.clone(),
        name: tmp.clone(),
    });
    let via = PathBuf::from(format!("/proc/self/fd/{}", folder.as_raw_fd()));
    let built = (|| {
        match &t.old {
            Some(o) => {
                let _ = rustix::fs::fchown(
                    &*folder,
                    Some(rustix::process::Uid::from_raw(o.uid)),
                    Some(rustix::process::Gid::from_raw(o.gid)),
                );
                rustix::fs::fchmod(&*folder, Mode::from_raw_mode(o.mode))?;
            }
            None => rustix::fs::fchmod(&*folder, Mode::from_raw_mode(0o777 & !umask()))?,
        }
        let w = fill(&via)?;
        let mut names: Vec<OsString> = at::list(&folder)?;
        names.push(OsString::from(MANIFEST));
        names.sort();
        let listing: Vec<u8> = names
            .iter()
            .flat_map(|n| n.as_bytes().iter().copied().chain([b'\n']))
            .collect();
        at::write_new(&folder, OsStr::new(MANIFEST), &listing)?;
        for n in &names {
            let fd = rustix::fs::openat(
                &*folder,
                &**n,
                OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::empty(),
            )?;
            rustix::fs::fsync(&fd)?;
        }
        at::sync_dir(&folder);
        Ok::<_, std::io::Error>(w)
    })();
    let written = match built {
        Ok(w) => w,
        Err(e) => {
            let _ = at::remove_all(dir, &tmp);
            return Err(e);
        }
    };
    let shown = || format!("--out-dir {}", t.shown.display());
    match at::put(dir, &tmp, name, t.old.map(|o| o.ident), &shown) {
        Ok(replaced) => {
            if replaced {
                // `tmp` now names the old folder.
                keep_foreign(dir, &tmp, &folder);
                let _ = at::remove_all(dir, &tmp);
            }
        }
        Err(e) => {
            let kept = at::keep(dir, &tmp, name);
            drop(live);
            return Err(match kept {
                Ok(k) => kept_error(format!(
                    "{e}; the report folder was kept beside it as {}",
                    beside(&t.shown, &k)
                )),
                Err(_) => e,
            });
        }
    }
    drop(live);
    at::sync_dir(dir);
    Ok(written
        .into_iter()
        .map(|p| match p.strip_prefix(&via) {
            Ok(rel) => t.shown.join(rel),
            Err(_) => p,
        })
        .collect())
}

/// Files put into an out-dir during the run that are not the old report's (the check refused
/// a folder with any): moved into the new folder rather than removed with the old one.
fn keep_foreign(dir: &Dirfd, old: &OsStr, new: &Dirfd) {
    let Ok(oldfd) = rustix::fs::openat(
        &**dir,
        old,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    ) else {
        return;
    };
    let oldfd: Dirfd = Arc::new(oldfd);
    let listed = report_files(&oldfd).unwrap_or_default();
    let Ok(entries) = at::list(&oldfd) else {
        return;
    };
    for n in entries {
        if n == MANIFEST || listed.iter().any(|l| OsStr::new(l) == n) {
            continue;
        }
        if rustix::fs::renameat_with(
            &*oldfd,
            &*n,
            &**new,
            &*n,
            rustix::fs::RenameFlags::NOREPLACE,
        )
        .is_ok()
        {
            super::say(&format!(
                "note: {} appeared in the report folder during the run; it was kept",
                Path::new(&n).display()
            ));
        }
    }
}

/// Write `bytes` in place to a held special file or descriptor: in pieces a pipe takes whole,
/// each when the reader is ready, so that a reader that stopped reading cannot hold the run:
/// once a signal has come (Ctrl-C, SIGTERM), a write that makes no progress for a second ends
/// with an error saying the output is partial. A reader that closed (a broken pipe) took what
/// it wanted: not an error.
pub fn write_in_place(f: impl AsFd, bytes: &[u8]) -> std::io::Result<()> {
    use rustix::event::{poll, PollFd, PollFlags};
    let fd = f.as_fd();
    let mut rest = bytes;
    let mut stalled = std::time::Instant::now();
    while !rest.is_empty() {
        let mut fds = [PollFd::new(&fd, PollFlags::OUT)];
        let ready = match poll(
            &mut fds,
            Some(&rustix::time::Timespec {
                tv_sec: 0,
                tv_nsec: 200_000_000,
            }),
        ) {
            Ok(n) => n > 0,
            Err(Errno::INTR) => false,
            Err(e) => return Err(e.into()),
        };
        if !ready {
            if super::signalled() && stalled.elapsed() > std::time::Duration::from_secs(1) {
                return Err(std::io::Error::other(format!(
                    "the reader stopped taking the output and a signal came: the output is partial ({} of {} bytes written)",
                    bytes.len() - rest.len(),
                    bytes.len()
                )));
            }
            continue;
        }
        let piece = &rest[..rest.len().min(4096)];
        match rustix::io::write(fd, piece) {
            Ok(n) => {
                rest = &rest[n..];
                stalled = std::time::Instant::now();
            }
            Err(Errno::AGAIN | Errno::INTR) => {}
            Err(Errno::PIPE) => return Ok(()),
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// A writer in place to a held special file or descriptor ([`write_in_place`] of each
/// buffer it is given).
pub struct InPlaceWriter<F: AsFd>(pub F);

impl<F: AsFd> std::io::Write for InPlaceWriter<F> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        write_in_place(&self.0, buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Save `bytes`, which could not be written where asked, under the system's temporary folder
/// (created exclusively, readable by this user only: nothing planted there is followed).
/// Returns where.
pub fn save_fallback(name_of: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let tmpdir = std::env::temp_dir();
    let dir = at::open_dir(&tmpdir)?;
    let base = at::split(name_of)
        .map(|(_, n)| n)
        .unwrap_or_else(|| OsString::from("output"));
    // Within the filesystem's limit for a name.
    let keep = base.as_bytes().len().min(200);
    let mut name = OsString::from(format!("rtplab-{}-", std::process::id()));
    name.push(OsStr::from_bytes(&base.as_bytes()[..keep]));
    name.push("-");
    name.push(OsStr::from_bytes(&base.as_bytes()[..keep]));
    loop {
        let mut n = OsString::from(format!(
            "rtplab-{}-{}-",
            std::process::id(),
            at::rand_chars()
        ));
        n.push(OsStr::from_bytes(&base.as_bytes()[..keep]));
        match rustix::fs::openat(
            &*dir,
            &*n,
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        ) {
            Ok(fd) => {
                let mut f = std::fs::File::from(fd);
                f.write_all(bytes)?;
                f.sync_all()?;
                return Ok(tmpdir.join(n));
            }
            Err(Errno::EXIST) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}
