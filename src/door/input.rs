//! The read side of the door: every user file (charts, sheets, strategy, count, index and
//! ramp files, baselines, reports, shard files, logs) is read here: regular files only (a
//! folder, FIFO, device or socket is named as such and refused), a size limit for each kind
//! checked before reading and while reading, UTF-8 text with an optional byte-order mark, and
//! messages that name the file. Standard input (`-` where a command takes it) is read with
//! the same limits and checks.

use std::io::Read;
use std::path::Path;

/// Size limit of charts, sheets, strategy, count, index and ramp files and baselines (they
/// are a few kB).
pub const MAX_TEXT_BYTES: u64 = 1 << 20;
/// Size limit of shard files and reports read back (their histograms can be large).
pub const MAX_SHARD_BYTES: u64 = 256 << 20;
/// Size limit of a monitor's log (10,000,000 periods take under 1 GB).
pub const MAX_LOG_BYTES: u64 = 4 << 30;
/// Size limit of a solved table (the two-player Dice of Doom table at 100,000 is 64 MB).
pub const MAX_TABLE_BYTES: u64 = 1 << 30;

/// The kinds of input, each with its size limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A chart, sheet, strategy, count, index or ramp file, a baseline: 1 MiB.
    Text,
    /// A report read back (`--expected`, `--from`): 256 MiB.
    Report,
    /// A shard file: 256 MiB.
    Shard,
    /// A monitor's log, read a row at a time: 4 GiB.
    Log,
    /// A folder the command reads (check's baselines).
    Folder,
    /// A solved table (binary, versioned and checksummed by its own reader): 1 GiB.
    Table,
}

impl InputKind {
    /// The largest file of this kind, in bytes.
    pub fn limit(self) -> u64 {
        match self {
            InputKind::Text | InputKind::Folder => MAX_TEXT_BYTES,
            InputKind::Report | InputKind::Shard => MAX_SHARD_BYTES,
            InputKind::Log => MAX_LOG_BYTES,
            InputKind::Table => MAX_TABLE_BYTES,
        }
    }
}

/// Why a user file could not be read; each message names the file and what to do.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum InputError {
    #[error("{what} {path}: no such file; check the path")]
    Missing { what: String, path: String },
    #[error("{what} {path} is a directory; give the path of a file")]
    Directory { what: String, path: String },
    #[error("{what} {path} is {kind}, not a file; give the path of a file (save what it gives to a file first)")]
    NotRegular {
        what: String,
        path: String,
        kind: String,
    },
    #[error("{what} {path} is not a folder; give the folder's path")]
    NotFolder { what: String, path: String },
    #[error("{what} {path} is {size} bytes, more than the {limit} bytes such a file may have; check that it is the right file")]
    TooBig {
        what: String,
        path: String,
        size: u64,
        limit: u64,
    },
    #[error("{what} ({path}) holds more than the {limit} bytes such a file may have; check that it is the right file")]
    TooBigStream {
        what: String,
        path: String,
        limit: u64,
    },
    #[error("{what} {path} is not UTF-8 text; save it as UTF-8")]
    NotUtf8 { what: String, path: String },
    #[error("cannot read {what} {path}: {why}")]
    Io {
        what: String,
        path: String,
        why: String,
    },
}

/// An input as the door holds it: the path it was given as, its identity, and the open file
/// (or folder) the check saw.
#[derive(Debug)]
pub struct Held {
    pub path: std::path::PathBuf,
    pub id: Option<super::identity::Id>,
    file: Option<std::fs::File>,
    folder: Option<super::at::Dirfd>,
}

impl Held {
    /// The identity of the file or folder (none for standard input that is not a file).
    pub fn node(&self) -> Option<super::at::Node> {
        match &self.id {
            Some(super::identity::Id::Node(d, i)) => Some((*d, *i)),
            _ => None,
        }
    }

    /// The held folder: the input's own (a folder input), or the one holding it (a file).
    pub fn folder(&self) -> Option<&super::at::Dirfd> {
        self.folder.as_ref()
    }

    /// An input held by its caller: `file`, opened already (a regular file; its identity
    /// taken from it), given on the command line as `path`, in the held `folder`. A server
    /// that opened it relative to a folder it holds ([`super::browse::Shown::hold`]) hands it
    /// to the door this way, so that nothing is opened by name again.
    pub fn opened(
        path: std::path::PathBuf,
        file: std::fs::File,
        folder: Option<super::at::Dirfd>,
    ) -> Held {
        let id = file.metadata().ok().map(|m| super::identity::Id::of(&m));
        Held {
            path,
            id,
            file: Some(file),
            folder,
        }
    }

    /// The held file opened anew for reading from its start (through this process's handle
    /// of it: the same file, whatever is at its name now).
    fn reopen(&self) -> std::io::Result<std::fs::File> {
        use std::os::fd::AsRawFd as _;
        let f = self
            .file
            .as_ref()
            .ok_or_else(|| std::io::Error::other("not a file"))?;
        std::fs::File::open(format!("/proc/self/fd/{}", f.as_raw_fd())).or_else(|_| {
            let mut c = f.try_clone()?;
            std::io::Seek::rewind(&mut c)?;
            Ok(c)
        })
    }
}

/// Open the user file `path` (`what` names its kind in messages) for reading: a regular file
/// (not a directory, FIFO or device), opened without blocking. Returns it with its size. A
/// file the door holds is the held file.
pub fn open_file(path: &Path, what: &str) -> Result<(std::fs::File, u64), InputError> {
    let what_s = what.to_string();
    let p = path.display().to_string();
    let io = |e: std::io::Error| InputError::Io {
        what: what_s.clone(),
        path: p.clone(),
        why: e.to_string(),
    };
    if let Some(h) = super::held_input(path) {
        if h.file.is_some() {
            let f = h.reopen().map_err(io)?;
            let len = f.metadata().map_err(io)?.len();
            return Ok((f, len));
        }
    }
    use rustix::fs::{Mode, OFlags};
    // An output the door holds and the command reads back (a shard file it resumes): read at
    // its held place, never through a link put there.
    let opened = match super::held_output_place(path) {
        Some(place) => rustix::fs::openat(
            &*place.dir,
            &*place.name,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
            Mode::empty(),
        ),
        None => rustix::fs::openat(
            rustix::fs::CWD,
            path,
            OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
            Mode::empty(),
        ),
    };
    let fd = match opened {
        Ok(fd) => fd,
        Err(rustix::io::Errno::NOENT) => {
            return Err(InputError::Missing {
                what: what_s,
                path: p,
            })
        }
        Err(e) => return Err(io(e.into())),
    };
    let file = std::fs::File::from(fd);
    let meta = file.metadata().map_err(io)?;
    if meta.is_dir() {
        return Err(InputError::Directory {
            what: what_s,
            path: p,
        });
    }
    if !meta.is_file() {
        return Err(InputError::NotRegular {
            what: what_s,
            path: p,
            kind: super::identity::kind_name(&meta).into(),
        });
    }
    // Reads block again (a regular file never waits).
    if let Ok(fl) = rustix::fs::fcntl_getfl(&file) {
        let _ = rustix::fs::fcntl_setfl(&file, fl - OFlags::NONBLOCK);
    }
    Ok((file, meta.len()))
}

/// Check an input before any work, the way it will be read, and hold it: standard input
/// (`-`), a folder (`Folder`, opened once), or a regular file within its kind's size limit
/// (opened once; its readers read this file).
pub fn hold(path: &Path, kind: InputKind, what: &str) -> Result<Held, InputError> {
    let held = |id, file, folder| Held {
        path: path.to_path_buf(),
        id,
        file,
        folder,
    };
    if path.as_os_str() == "-" {
        let fd = rustix::stdio::stdin();
        let id = rustix::fs::fstat(fd)
            .ok()
            .filter(|s| {
                rustix::fs::FileType::from_raw_mode(s.st_mode) == rustix::fs::FileType::RegularFile
            })
            .map(|s| super::identity::Id::Node(s.st_dev, s.st_ino));
        return Ok(held(id, None, None));
    }
    let shown = || path.display().to_string();
    if kind == InputKind::Folder {
        return match super::at::open_dir(path) {
            Ok(d) => {
                let st = rustix::fs::fstat(&*d).map_err(|e| InputError::Io {
                    what: what.into(),
                    path: shown(),
                    why: e.to_string(),
                })?;
                Ok(held(
                    Some(super::identity::Id::Node(st.st_dev, st.st_ino)),
                    None,
                    Some(d),
                ))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(InputError::Missing {
                what: what.into(),
                path: shown(),
            }),
            Err(e) if e.raw_os_error() == Some(20) => Err(InputError::NotFolder {
                what: what.into(),
                path: shown(),
            }),
            Err(e) => Err(InputError::Io {
                what: what.into(),
                path: shown(),
                why: e.to_string(),
            }),
        };
    }
    let (file, len) = open_file(path, what)?;
    if len > kind.limit() {
        return Err(InputError::TooBig {
            what: what.into(),
            path: shown(),
            size: len,
            limit: kind.limit(),
        });
    }
    let id = file.metadata().ok().map(|m| super::identity::Id::of(&m));
    // The folder holding it, for the checks of which folders an output lies in.
    let folder = super::at::split(path).and_then(|(p, _)| super::at::open_dir(&p).ok());
    Ok(held(id, Some(file), folder))
}

/// The files of a folder input whose names end with `suffix`, each opened through the folder
/// the door holds (or opened now): (name, file), by name. A folder or special file among them
/// is an error naming it.
pub fn folder_files(
    dir: &Path,
    suffix: &str,
    what: &str,
) -> Result<Vec<(std::ffi::OsString, std::fs::File)>, InputError> {
    use std::os::unix::ffi::OsStrExt as _;
    let io = |e: std::io::Error| InputError::Io {
        what: what.into(),
        path: dir.display().to_string(),
        why: e.to_string(),
    };
    let folder = match super::held_input(dir).and_then(|h| h.folder.clone()) {
        Some(f) => f,
        None => super::at::open_dir(dir).map_err(io)?,
    };
    let mut names: Vec<_> = super::at::list(&folder)
        .map_err(io)?
        .into_iter()
        .filter(|n| n.as_bytes().ends_with(suffix.as_bytes()))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for n in names {
        use rustix::fs::{Mode, OFlags};
        let shown = dir.join(&n).display().to_string();
        let fd = rustix::fs::openat(
            &*folder,
            &*n,
            OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| InputError::Io {
            what: what.into(),
            path: shown.clone(),
            why: std::io::Error::from(e).to_string(),
        })?;
        let f = std::fs::File::from(fd);
        let m = f.metadata().map_err(io)?;
        if m.is_dir() {
            return Err(InputError::Directory {
                what: what.into(),
                path: shown,
            });
        }
        if !m.is_file() {
            return Err(InputError::NotRegular {
                what: what.into(),
                path: shown,
                kind: super::identity::kind_name(&m).into(),
            });
        }
        out.push((n, f));
    }
    Ok(out)
}

/// Read an open file (`what` and `path` name it in messages) as text of at most `limit`
/// bytes, as [`read_text`] reads a file.
pub fn read_open(
    file: std::fs::File,
    path: &Path,
    what: &str,
    limit: u64,
) -> Result<String, InputError> {
    let p = path.display().to_string();
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let bytes = read_all(file, len, &p, what, limit)?;
    text_of(bytes, what, &p)
}

/// Read the user file `path` (`what` names its kind in messages, e.g. "chart file") as text of
/// at most `limit` bytes. A leading UTF-8 byte-order mark is dropped.
pub fn read_text(path: &Path, what: &str, limit: u64) -> Result<String, InputError> {
    let bytes = read_bytes(path, what, limit)?;
    text_of(bytes, what, &path.display().to_string())
}

/// Read the file `path` (`what` names its kind in messages, e.g. "solved table") as bytes, at
/// most `limit` of them: a regular file, checked as `read_text` checks one, not decoded.
pub fn read_bytes(path: &Path, what: &str, limit: u64) -> Result<Vec<u8>, InputError> {
    let (file, len) = open_file(path, what)?;
    read_all(file, len, &path.display().to_string(), what, limit)
}

/// Read an open regular file of `len` bytes (as it was when opened), at most `limit` of them:
/// the file may grow between the check and the read, so never more than the limit is read.
fn read_all(
    file: std::fs::File,
    len: u64,
    shown: &str,
    what: &str,
    limit: u64,
) -> Result<Vec<u8>, InputError> {
    let too_big = |size| InputError::TooBig {
        what: what.to_string(),
        path: shown.to_string(),
        size,
        limit,
    };
    if len > limit {
        return Err(too_big(len));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::Io {
            what: what.to_string(),
            path: shown.to_string(),
            why: e.to_string(),
        })?;
    if bytes.len() as u64 > limit {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Longest quote of a user's line or value in a message, in characters.
pub const QUOTE_CHARS: usize = 100;

/// `s` for a message: at most [`QUOTE_CHARS`] characters, the rest cut and counted (a binary
/// file's first "line" can be megabytes).
pub fn quote(s: &str) -> String {
    let n = s.chars().count();
    if n <= QUOTE_CHARS {
        s.to_string()
    } else {
        let head: String = s.chars().take(QUOTE_CHARS).collect();
        format!("{head}… ({n} characters)")
    }
}

/// What standard input is called in messages.
pub const STDIN: &str = "standard input";

/// Read standard input (`-` for a file argument) as `read_text` reads a file: at most `limit`
/// bytes of UTF-8 text, a byte-order mark dropped.
pub fn read_stdin(what: &str, limit: u64) -> Result<String, InputError> {
    read_stream(std::io::stdin().lock(), what, limit)
}

fn read_stream(r: impl Read, what: &str, limit: u64) -> Result<String, InputError> {
    let mut bytes = Vec::new();
    r.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::Io {
            what: what.into(),
            path: STDIN.into(),
            why: e.to_string(),
        })?;
    if bytes.len() as u64 > limit {
        return Err(InputError::TooBigStream {
            what: what.into(),
            path: STDIN.into(),
            limit,
        });
    }
    text_of(bytes, what, STDIN)
}

/// The bytes read (within their limit) as text: UTF-8, without a leading byte-order mark.
fn text_of(bytes: Vec<u8>, what: &str, path: &str) -> Result<String, InputError> {
    let mut text = String::from_utf8(bytes).map_err(|_| InputError::NotUtf8 {
        what: what.into(),
        path: path.into(),
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_is_checked_as_a_file_is() {
        let read = |b: &[u8]| read_stream(b, "the log", 10);
        assert_eq!(read("\u{feff}a,b\n".as_bytes()).unwrap(), "a,b\n");
        assert_eq!(read(&[b'x'; 10]).unwrap(), "x".repeat(10));
        let e = read(&[b'x'; 11]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the log (standard input) holds more than the 10 bytes such a file may have; check that it is the right file"
        );
        assert!(matches!(
            read(&[0xff, 0xfe]),
            Err(InputError::NotUtf8 { .. })
        ));
    }

    #[test]
    fn checks_kind_size_and_bom() {
        let d = std::env::temp_dir().join(format!("rtplab-input-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let f = d.join("a.txt");
        std::fs::write(&f, "\u{feff}hello\n").unwrap();
        assert_eq!(read_text(&f, "file", 100).unwrap(), "hello\n");
        std::fs::write(&f, "x".repeat(101)).unwrap();
        assert!(matches!(
            read_text(&f, "file", 100),
            Err(InputError::TooBig { size: 101, .. })
        ));
        assert!(matches!(
            read_text(&d, "file", 100),
            Err(InputError::Directory { .. })
        ));
        assert!(matches!(
            read_text(&d.join("none"), "file", 100),
            Err(InputError::Missing { .. })
        ));
        assert!(read_text(&d.join("none"), "chart file", 100)
            .unwrap_err()
            .to_string()
            .contains("chart file"));
        if Path::new("/dev/zero").exists() {
            assert!(matches!(
                read_text(Path::new("/dev/zero"), "file", 100),
                Err(InputError::NotRegular { .. })
            ));
        }
        std::fs::write(&f, [0xffu8, 0xfe, 0x41]).unwrap();
        assert!(matches!(
            read_text(&f, "file", 100),
            Err(InputError::NotUtf8 { .. })
        ));
        assert!(
            crate::door::is_path("my.csv")
                && crate::door::is_path("a/b")
                && !crate::door::is_path("basic")
        );
    }
}
