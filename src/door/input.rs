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

/// Open the user file `path` (`what` names its kind in messages) for reading: a regular file
/// (not a directory, FIFO or device). Returns it with its size.
pub fn open_file(path: &Path, what: &str) -> Result<(std::fs::File, u64), InputError> {
    let what_s = what.to_string();
    let p = path.display().to_string();
    let io = |e: std::io::Error| InputError::Io {
        what: what_s.clone(),
        path: p.clone(),
        why: e.to_string(),
    };
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(InputError::Missing {
                what: what_s,
                path: p,
            })
        }
        Err(e) => return Err(io(e)),
    };
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
    Ok((std::fs::File::open(path).map_err(io)?, meta.len()))
}

/// Check an input before any work, the way it will be read: standard input (`-`), a folder
/// (`Folder`), or a regular file within its kind's size limit. Returns its identity (none for
/// standard input that is not a file).
pub fn check(
    path: &Path,
    kind: InputKind,
    what: &str,
) -> Result<Option<super::identity::Id>, InputError> {
    if path.as_os_str() == "-" {
        let fd = rustix::stdio::stdin();
        return Ok(rustix::fs::fstat(fd)
            .ok()
            .filter(|s| {
                rustix::fs::FileType::from_raw_mode(s.st_mode) == rustix::fs::FileType::RegularFile
            })
            .map(|s| super::identity::Id::Node(s.st_dev, s.st_ino)));
    }
    if kind == InputKind::Folder {
        return match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => Ok(Some(super::identity::Id::of(&m))),
            Ok(_) => Err(InputError::NotFolder {
                what: what.into(),
                path: path.display().to_string(),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(InputError::Missing {
                what: what.into(),
                path: path.display().to_string(),
            }),
            Err(e) => Err(InputError::Io {
                what: what.into(),
                path: path.display().to_string(),
                why: e.to_string(),
            }),
        };
    }
    let (file, len) = open_file(path, what)?;
    if len > kind.limit() {
        return Err(InputError::TooBig {
            what: what.into(),
            path: path.display().to_string(),
            size: len,
            limit: kind.limit(),
        });
    }
    Ok(file.metadata().ok().map(|m| super::identity::Id::of(&m)))
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
    let p = path.display().to_string();
    let (file, len) = open_file(path, what)?;
    let too_big = |size| InputError::TooBig {
        what: what.to_string(),
        path: p.clone(),
        size,
        limit,
    };
    if len > limit {
        return Err(too_big(len));
    }
    // The file may grow between the check and the read: never read more than the limit.
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::Io {
            what: what.to_string(),
            path: p.clone(),
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
