//! Output paths checked before a run starts (so that hours of simulation are never lost to a
//! typo in `--output`, `--out-dir` or `--shard-out`), and report folders written through a
//! temporary folder inside the target, each file renamed into place when all are written.

use std::path::{Path, PathBuf};

use same_file::Handle;

/// Why an output path cannot be used; each message names the path and what to do.
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
    #[error("{flag} {path} exists and is not a folder; choose another path")]
    NotDir { flag: String, path: String },
    #[error("--out-dir {path} is not empty; add --force to replace the report in it, or choose another folder")]
    NotEmpty { path: String },
    #[error("--out-dir {path} holds files but no rtplab report (no report.json); --force replaces only an earlier report's files: choose an empty or new folder")]
    NotReport { path: String },
    #[error("--out-dir {path} holds a report without its list of files ({manifest}), so --force cannot tell its files from yours: remove the old report's files (or the folder) first, or choose another folder", manifest = MANIFEST)]
    NoManifest { path: String },
    #[error("{flag} {path} is in {fs}, the kernel's pseudo-filesystem: it may accept writing but does not keep a file; choose a path on a disk")]
    PseudoFs {
        flag: String,
        path: String,
        fs: String,
    },
    #[error("{flag} {path} is also this command's input ({input} is named on the command line): writing there would destroy it; choose another path")]
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
    #[error("--out-dir {path} holds {input}, which this command reads, and --force would replace the report beside it; write the report to another folder")]
    HoldsInput { path: String, input: String },
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
    #[error("{flag} {path} cannot be written ({why}); choose another path")]
    Unwritable {
        flag: String,
        path: String,
        why: String,
    },
}

/// `/proc` or `/sys` when `path` (resolved, or its folder for a new file) lies in one of the
/// kernel's pseudo-filesystems, whose files open for writing (as root) but keep nothing. A path
/// that does not resolve (`/dev/stdout` into a pipe) is left to the other checks.
fn pseudo_fs(path: &Path) -> Option<&'static str> {
    let real = if path.exists() {
        std::fs::canonicalize(path).ok()?
    } else {
        std::fs::canonicalize(parent_of(path)).ok()?
    };
    ["/proc", "/sys"]
        .into_iter()
        .find(|fs| real.starts_with(fs))
}

/// The folder a path lives in (`.` for a bare file name).
fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Check that the folder `parent` exists and accepts a new file (by creating and removing a
/// probe file: permissions alone do not say, e.g. for root or read-only mounts).
fn check_parent(flag: &str, path: &Path) -> Result<PathBuf, OutputError> {
    let parent = parent_of(path);
    let (f, p, d) = (
        flag.to_string(),
        path.display().to_string(),
        parent.display().to_string(),
    );
    match std::fs::metadata(&parent) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A path under a regular file (`file/x.json`) also ends here on some systems.
            return Err(if parent.ancestors().skip(1).any(|a| a.is_file()) {
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
            // ENOTDIR: a component of the folder is a file.
            return Err(OutputError::ParentNotDir {
                flag: f,
                path: p,
                parent: d,
            });
        }
        Err(e) => {
            return Err(OutputError::Unwritable {
                flag: f,
                path: p,
                why: e.to_string(),
            })
        }
        Ok(m) if !m.is_dir() => {
            return Err(OutputError::ParentNotDir {
                flag: f,
                path: p,
                parent: d,
            })
        }
        Ok(_) => {}
    }
    let probe = parent.join(format!(".rtplab-probe-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(parent)
        }
        Err(e) => Err(OutputError::Unwritable {
            flag: f,
            path: p,
            why: e.to_string(),
        }),
    }
}

/// Check an output file (`--output`, `--shard-out`) before the run: `-` (standard output) is
/// fine; otherwise the path must not be a folder, and it must be writable the way it will be
/// written: a new or regular file through a temporary file in its folder (so the folder must
/// take new files, and an existing file must accept writing), a device or pipe (`/dev/null`)
/// in place.
pub fn check_file(flag: &str, path: &Path) -> Result<(), OutputError> {
    if path.as_os_str() == "-" {
        return Ok(());
    }
    if path.is_dir() {
        return Err(OutputError::IsDir {
            flag: flag.to_string(),
            path: path.display().to_string(),
        });
    }
    if let Some(fs) = pseudo_fs(path) {
        return Err(OutputError::PseudoFs {
            flag: flag.to_string(),
            path: path.display().to_string(),
            fs: fs.to_string(),
        });
    }
    if path.exists() {
        // An existing file must accept writing (opened without truncating it).
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| OutputError::Unwritable {
                flag: flag.to_string(),
                path: path.display().to_string(),
                why: e.to_string(),
            })?;
        if !replaced_by_rename(path) {
            return Ok(());
        }
    }
    check_parent(flag, &resolved(path)).map(|_| ())
}

/// Whether an output at `path` is written through a temporary file renamed over it: a new
/// path or a regular file (through a link: the file it names). A device, pipe or terminal
/// (`/dev/null`, `/dev/stdout`) is written in place.
fn replaced_by_rename(path: &Path) -> bool {
    match std::fs::metadata(path) {
        Ok(m) => m.is_file(),
        Err(_) => true,
    }
}

/// The path a write to `path` lands on: the file a symbolic link names (so that writing
/// through a link replaces the file, not the link), else `path`.
fn resolved(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// Write `bytes` to the file `path` so that no failure (a full disk, a kill) ever leaves it
/// half written: into a temporary file in the same folder, flushed and synced to the disk, then
/// renamed over `path`. Until the rename the earlier file is untouched; on an error the
/// temporary file is removed. A device or pipe (`/dev/null`) is written in place. The new
/// file keeps an existing file's permissions.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    if !replaced_by_rename(path) {
        return std::fs::write(path, bytes);
    }
    let target = resolved(path);
    let dir = parent_of(&target);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    match std::fs::metadata(&target) {
        Ok(m) => {
            builder.permissions(m.permissions());
        }
        // A new file: read and write for all less the umask (the system applies it at
        // creation), as `std::fs::write` gives, not the temporary file's owner-only mode.
        #[cfg(unix)]
        Err(_) => {
            use std::os::unix::fs::PermissionsExt as _;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        #[cfg(not(unix))]
        Err(_) => {}
    }
    let mut tmp = builder.tempfile_in(&dir)?;
    tmp.write_all(bytes)?;
    tmp.flush()?;
    tmp.as_file().sync_all()?;
    tmp.persist(&target).map_err(|e| e.error)?;
    // The rename itself reaches the disk with the folder's entry (best effort: not every
    // filesystem syncs a folder).
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The outputs of a run, held exclusively from the check before the work until the run's
/// files are written: a second run naming any of them refuses at once (`OutputError::Busy`)
/// instead of overwriting the first run's result. Each output is held through a lock file
/// beside it (`.NAME.rtplab-lock`, holding the holder's process id) with an advisory lock of
/// the operating system, which ends with the process however it ends: a run that crashed or
/// was killed leaves no lock behind, so its resume is never refused. The lock files are
/// removed when the run is done.
#[derive(Debug, Default)]
pub struct Held {
    locks: Vec<(String, PathBuf, std::fs::File)>,
}

impl Held {
    /// Hold the output `path` of `flag` (`-`, a device or a pipe is not held: nothing is
    /// replaced there).
    pub fn hold(&mut self, flag: &str, path: &Path) -> Result<(), OutputError> {
        if path.as_os_str() == "-" || !(replaced_by_rename(path) || path.is_dir()) {
            return Ok(());
        }
        let lock = lock_path(path);
        let err = |why: String| OutputError::Unwritable {
            flag: flag.to_string(),
            path: path.display().to_string(),
            why,
        };
        if let Some((other, ..)) = self.locks.iter().find(|(_, p, _)| *p == lock) {
            return Err(OutputError::Twice {
                flag: flag.to_string(),
                path: path.display().to_string(),
                other: other.clone(),
            });
        }
        loop {
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&lock)
                .map_err(|e| err(format!("its lock file {}: {e}", lock.display())))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    let pid = std::fs::read_to_string(&lock).unwrap_or_default();
                    let pid = pid.trim();
                    return Err(OutputError::Busy {
                        flag: flag.to_string(),
                        path: path.display().to_string(),
                        holder: if pid.is_empty() {
                            String::new()
                        } else {
                            format!(" (process {pid})")
                        },
                    });
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    // A filesystem without advisory locks: run unheld rather than not at all.
                    eprintln!(
                        "warning: {flag} {} cannot be held against other runs ({e}); do not start two runs on it",
                        path.display()
                    );
                    let _ = std::fs::remove_file(&lock);
                    return Ok(());
                }
            }
            // The holder before us may have removed the lock file between our open and our
            // lock: then we hold a file no one else sees; open the path again.
            let ours =
                same_file::Handle::from_file(file.try_clone().map_err(|e| err(e.to_string()))?);
            if ours.ok() != same_file::Handle::from_path(&lock).ok() {
                continue;
            }
            use std::io::Write as _;
            let _ = file
                .set_len(0)
                .and_then(|_| write!(file, "{}", std::process::id()));
            self.locks.push((flag.to_string(), lock, file));
            return Ok(());
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        // Removed while still locked, then unlocked by closing (see `hold` for the race).
        for (_, path, file) in self.locks.drain(..) {
            let _ = std::fs::remove_file(&path);
            drop(file);
        }
    }
}

/// The lock file of an output: `.NAME.rtplab-lock` beside the file or folder it names (through
/// links, and by its real folder, so that two spellings of one output share a lock).
fn lock_path(path: &Path) -> PathBuf {
    let target = match std::fs::canonicalize(path) {
        Ok(real) => real,
        Err(_) => {
            let parent = parent_of(path);
            let parent = std::fs::canonicalize(&parent).unwrap_or(parent);
            match path.file_name() {
                Some(n) => parent.join(n),
                None => parent,
            }
        }
    };
    match (target.parent(), target.file_name()) {
        (Some(dir), Some(name)) => dir.join(format!(".{}.rtplab-lock", name.to_string_lossy())),
        _ => target.join(".rtplab-lock"),
    }
}

/// Every file named on the command line (after the program's name), with its identity (device
/// and inode, so that a hard link, a symbolic link or another spelling of one file is that
/// file): each argument, and the value part of `--flag=value` and `-oVALUE`, that names an
/// existing file. They are the command's possible input files (a chart, a log, a report,
/// shards); an output named there too is counted once per naming. Folders are not taken from
/// the command line (a subcommand word such as `blackjack` may name one): a command that reads
/// a folder passes it explicitly.
fn named_files(args: &[std::ffi::OsString]) -> Vec<(PathBuf, Handle)> {
    let mut out = Vec::new();
    for a in args.iter().skip(1) {
        let mut names = vec![PathBuf::from(a)];
        if let Some(s) = a.to_str() {
            if let Some((_, v)) = s.strip_prefix("--").and_then(|r| r.split_once('=')) {
                names.push(v.into());
            } else if let Some(v) = s.strip_prefix("-o").filter(|_| !s.starts_with("--")) {
                names.push(v.strip_prefix('=').unwrap_or(v).into());
            }
        }
        out.extend(
            names
                .into_iter()
                .filter(|n| n.is_file())
                .filter_map(|n| Handle::from_path(&n).ok().map(|h| (n, h))),
        );
    }
    out
}

/// Check that no output destroys an input, comparing files by identity, not by name. `args` is
/// the command line (program name first); `input_dirs` the folders the command reads
/// (`check`'s baselines, given or by default); `files` the output files (`--output`,
/// `--shard-out`) and `dir` the `--out-dir`, each named on the command line once as an output.
/// A file output named a second time, under any name, is also an input (`monitor log.csv -o
/// log.csv`, or `-o` a hard or symbolic link of the log); a file output may not go into a
/// folder the command reads (`check DIR -o DIR/x.json`, which the next check would read as a
/// baseline); an existing `--out-dir` may not hold an input file or be a folder the command
/// reads (with --force its report's files are replaced, and the new report's may take an
/// input's name).
pub fn check_not_inputs(
    args: &[std::ffi::OsString],
    input_dirs: &[&Path],
    files: &[(&str, &Path)],
    dir: Option<&Path>,
) -> Result<(), OutputError> {
    let named = named_files(args);
    let read_dirs: Vec<(&Path, Handle)> = input_dirs
        .iter()
        .filter_map(|d| Handle::from_path(d).ok().map(|h| (*d, h)))
        .collect();
    let read_dir = |h: &Handle| read_dirs.iter().find(|(_, r)| r == h).map(|(d, _)| *d);
    let mut outputs = Vec::new();
    for (flag, p) in files {
        if p.as_os_str() == "-" {
            continue;
        }
        if let Ok(h) = Handle::from_path(p) {
            let same: Vec<&PathBuf> = named
                .iter()
                .filter(|(_, n)| *n == h)
                .map(|(n, _)| n)
                .collect();
            if same.len() >= 2 {
                let input = same.iter().find(|n| n.as_path() != *p).unwrap_or(&same[0]);
                return Err(OutputError::IsInput {
                    flag: flag.to_string(),
                    path: p.display().to_string(),
                    input: input.display().to_string(),
                });
            }
            outputs.push(h);
        }
        if let Some(input) = Handle::from_path(parent_of(&resolved(p)))
            .ok()
            .and_then(|h| read_dir(&h))
        {
            return Err(OutputError::InInputFolder {
                flag: flag.to_string(),
                path: p.display().to_string(),
                input: input.display().to_string(),
            });
        }
    }
    let Some((d, here)) = dir.and_then(|d| Handle::from_path(d).ok().map(|h| (d, h))) else {
        return Ok(());
    };
    let input = match read_dir(&here) {
        Some(r) => Some(r.to_path_buf()),
        None => named
            .iter()
            .filter(|(_, h)| !outputs.contains(h))
            .find(|(n, _)| Handle::from_path(parent_of(&resolved(n))).is_ok_and(|h| h == here))
            .map(|(n, _)| n.clone()),
    };
    match input {
        Some(input) => Err(OutputError::HoldsInput {
            path: d.display().to_string(),
            input: input.display().to_string(),
        }),
        None => Ok(()),
    }
}

/// The file in a report folder that lists the files the report wrote (one name a line): the
/// only files a later `--force` run removes, so nothing else in the folder is ever touched.
pub const MANIFEST: &str = ".rtplab-files";

/// The files an earlier report in `dir` wrote, from its manifest (none without one). Names
/// that are not plain file names (a path, `..`) are ignored: the manifest is only trusted to
/// name files directly in `dir`.
fn report_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(text) = std::fs::read_to_string(dir.join(MANIFEST)) else {
        return Vec::new();
    };
    text.lines()
        .filter(|n| {
            !n.is_empty()
                && *n != "."
                && *n != ".."
                && Path::new(n).file_name() == Some(std::ffi::OsStr::new(n))
        })
        .map(|n| dir.join(n))
        .filter(|p| p.is_file())
        .collect()
}

/// Check `--out-dir` before the run: a missing folder needs a writable parent; an existing one
/// must be writable and empty, or (with `force`) hold an earlier rtplab report, whose files (those
/// its manifest lists) are then replaced; nothing else in the folder is touched.
pub fn check_dir(dir: &Path, force: bool) -> Result<(), OutputError> {
    let path = dir.display().to_string();
    match std::fs::metadata(dir) {
        Ok(m) if !m.is_dir() => Err(OutputError::NotDir {
            flag: "--out-dir".into(),
            path,
        }),
        Ok(_) => {
            let empty = std::fs::read_dir(dir)
                .map(|mut r| r.next().is_none())
                .unwrap_or(false);
            if !empty && !force {
                return Err(OutputError::NotEmpty { path });
            }
            if !empty && !dir.join("report.json").is_file() {
                return Err(OutputError::NotReport { path });
            }
            if !empty && !dir.join(MANIFEST).is_file() {
                return Err(OutputError::NoManifest { path });
            }
            // The folder itself must take new files (probed inside it).
            check_parent("--out-dir", &dir.join("report.json")).map(|_| ())
        }
        Err(_) => check_parent("--out-dir", dir).map(|_| ()),
    }
}

/// Write a report folder: `fill` writes the files into a temporary folder inside `dir`
/// (created if missing); when all are written, the files of an earlier report in `dir` (see
/// `check_dir`) are removed and each new file is renamed into place. `dir` itself is never
/// moved, so it may be `.`, a mount point or a folder in a read-only parent. Returns the final
/// paths of the files `fill` wrote.
pub fn write_dir_via_temp(
    dir: &Path,
    fill: impl FnOnce(&Path) -> std::io::Result<Vec<PathBuf>>,
) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".rtplab-tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir(&tmp)?;
    let written = match fill(&tmp).and_then(|w| {
        // The manifest: every file now in the temporary folder, itself included.
        let mut names = vec![MANIFEST.to_string()];
        for entry in std::fs::read_dir(&tmp)? {
            names.push(entry?.file_name().to_string_lossy().into_owned());
        }
        names.sort();
        std::fs::write(tmp.join(MANIFEST), names.join("\n") + "\n")?;
        // Every file on the disk before any is moved into place.
        for name in &names {
            std::fs::File::open(tmp.join(name))?.sync_all()?;
        }
        Ok(w)
    }) {
        Ok(w) => w,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    let result = (|| -> std::io::Result<()> {
        for old in report_files(dir) {
            std::fs::remove_file(old)?;
        }
        // The manifest first: if a move fails part way, the next --force still knows the files.
        std::fs::rename(tmp.join(MANIFEST), dir.join(MANIFEST))?;
        for entry in std::fs::read_dir(&tmp)? {
            let from = entry?.path();
            if let Some(name) = from.file_name() {
                std::fs::rename(&from, dir.join(name))?;
            }
        }
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&tmp);
    result?;
    Ok(written
        .into_iter()
        .map(|p| match p.strip_prefix(&tmp) {
            Ok(rel) => dir.join(rel),
            Err(_) => p,
        })
        .collect())
}

/// Where a file that could not be written at `path` is saved instead: the system's temporary
/// folder, under the same name with this process's id.
pub fn fallback_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    std::env::temp_dir().join(format!("rtplab-{}-{name}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_checked_and_report_folders_replaced() {
        let d = std::env::temp_dir().join(format!("rtplab-output-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let file = d.join("f.txt");
        std::fs::write(&file, "x").unwrap();
        {
            // The kernel's files open for writing as root but keep nothing: refused by place.
            for (p, fs) in [("/proc/version", "/proc"), ("/proc/new.json", "/proc")] {
                let e = check_file("--output", Path::new(p)).unwrap_err();
                assert!(
                    matches!(&e, OutputError::PseudoFs { fs: f, .. } if f == fs),
                    "{e}"
                );
                assert!(e.to_string().contains("choose a path on a disk"), "{e}");
            }
            if Path::new("/sys/kernel").is_dir() {
                assert!(matches!(
                    check_file("--output", Path::new("/sys/kernel/x.json")),
                    Err(OutputError::PseudoFs { .. })
                ));
            }
            // A link into a terminal or a file is judged by what it resolves to.
            assert!(pseudo_fs(Path::new("/dev/null")).is_none());
            assert!(check_file("--output", &d.join("r.json")).is_ok());
            assert!(check_file("--output", &file).is_ok());
            assert!(check_file("--output", Path::new("-")).is_ok());
            assert!(matches!(
                check_file("--output", &d),
                Err(OutputError::IsDir { .. })
            ));
            assert!(matches!(
                check_file("--output", &d.join("missing/r.json")),
                Err(OutputError::NoParent { .. })
            ));
            assert!(matches!(
                check_file("--output", &file.join("r.json")),
                Err(OutputError::ParentNotDir { .. })
            ));
        }
        // An existing file written in place needs no writable folder (/dev is one such).
        assert!(check_file("--output", Path::new("/dev/null")).is_ok());
        let out = d.join("out");
        assert!(check_dir(&out, false).is_ok());
        assert!(matches!(
            check_dir(&file, false),
            Err(OutputError::NotDir { .. })
        ));
        let w = write_dir_via_temp(&out, |t| {
            std::fs::write(t.join("report.json"), "{}")?;
            std::fs::write(t.join("report.html"), "<html>")?;
            std::fs::write(t.join("a.csv"), "1")?;
            Ok(vec![t.join("a.csv")])
        })
        .unwrap();
        assert_eq!(w, vec![out.join("a.csv")]);
        assert!(matches!(
            check_dir(&out, false),
            Err(OutputError::NotEmpty { .. })
        ));
        assert!(check_dir(&out, true).is_ok());
        assert_eq!(
            std::fs::read_to_string(out.join(MANIFEST)).unwrap(),
            ".rtplab-files\na.csv\nreport.html\nreport.json\n"
        );
        // A file that is not a report's survives a replacement, whatever its kind (a user's
        // CSV, JSON or page beside the report); the old report's files (its manifest's) go.
        std::fs::create_dir(out.join("keep")).unwrap();
        std::fs::write(out.join("notes.txt"), "mine").unwrap();
        std::fs::write(out.join("index.html"), "mine").unwrap();
        std::fs::write(out.join("daily.csv"), "mine").unwrap();
        std::fs::write(out.join("expected.json"), "mine").unwrap();
        write_dir_via_temp(&out, |t| {
            std::fs::write(t.join("report.json"), "{}")?;
            std::fs::write(t.join("b.csv"), "2")?;
            Ok(vec![])
        })
        .unwrap();
        assert!(!out.join("a.csv").exists() && out.join("b.csv").exists());
        assert!(
            !out.join("report.html").exists(),
            "the old report's page goes too"
        );
        assert!(out.join("notes.txt").exists() && out.join("keep").is_dir());
        assert!(
            out.join("index.html").exists(),
            "only report.html is the report's page"
        );
        let mut names: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                ".rtplab-files",
                "b.csv",
                "daily.csv",
                "expected.json",
                "index.html",
                "keep",
                "notes.txt",
                "report.json"
            ],
            "no temporary folder left"
        );
        // A manifest is trusted only for plain names in the folder: a path in it is ignored.
        std::fs::write(d.join("outside.csv"), "mine").unwrap();
        let absolute = d.join("absolute.csv");
        std::fs::write(&absolute, "mine").unwrap();
        std::fs::write(
            out.join(MANIFEST),
            format!("../outside.csv\n{}\nb.csv\n", absolute.display()),
        )
        .unwrap();
        write_dir_via_temp(&out, |t| {
            std::fs::write(t.join("report.json"), "{}")?;
            Ok(vec![])
        })
        .unwrap();
        assert!(d.join("outside.csv").exists() && absolute.exists() && !out.join("b.csv").exists());
        // No output may destroy an input named on the command line.
        let args = |v: &[&Path]| -> Vec<std::ffi::OsString> {
            v.iter().map(|p| p.as_os_str().to_owned()).collect()
        };
        let log = d.join("log.csv");
        std::fs::write(&log, "x").unwrap();
        let o = Path::new("-o");
        let cmd = [Path::new("monitor"), &log, o, &log];
        assert!(matches!(
            check_not_inputs(&args(&cmd), &[], &[("--output", &log)], None),
            Err(OutputError::IsInput { .. })
        ));
        // ... also written as --output=PATH or -oPATH, or through another spelling of it.
        let eq = format!("--output={}", log.display());
        let glued = format!("-o{}", log.display());
        let dotted = d.join(".").join("log.csv");
        for spelled in [eq.as_str(), glued.as_str(), dotted.to_str().unwrap()] {
            let cmd = [Path::new("monitor"), &log, Path::new(spelled)];
            assert!(
                matches!(
                    check_not_inputs(&args(&cmd), &[], &[("--output", &log)], None),
                    Err(OutputError::IsInput { .. })
                ),
                "{spelled}"
            );
        }
        // An existing output named once is an earlier output, not an input; `-` is never one
        // (even named twice); the program's name and folders named (a subcommand word may be
        // one: `strategies derive blackjack` beside a folder `blackjack`) are not inputs.
        let cmd = [Path::new("monitor"), &file, o, &log];
        assert!(check_not_inputs(&args(&cmd), &[], &[("--output", &log)], None).is_ok());
        let dash = Path::new("-");
        let cmd = [Path::new("monitor"), dash, o, dash];
        assert!(check_not_inputs(&args(&cmd), &[], &[("--output", dash)], None).is_ok());
        let cmd = [log.as_path(), o, &log];
        assert!(check_not_inputs(&args(&cmd), &[], &[("--output", &log)], None).is_ok());
        let sub = d.join("blackjack");
        std::fs::create_dir_all(&sub).unwrap();
        let cmd = [Path::new("rtplab"), &sub, o, &sub.join("6d.csv")];
        assert!(
            check_not_inputs(&args(&cmd), &[], &[("--output", &sub.join("6d.csv"))], None).is_ok()
        );
        // A file output inside a folder read as input (check's baselines) is refused.
        let cmd = [Path::new("check"), &d, o, &d.join("new.json")];
        assert!(matches!(
            check_not_inputs(
                &args(&cmd),
                &[&d],
                &[("--output", &d.join("new.json"))],
                None
            ),
            Err(OutputError::InInputFolder { .. })
        ));
        // An existing --out-dir that holds an input, or is one, is refused; a new one is fine,
        // and so is an --output file inside the out-dir.
        let od = Path::new("--out-dir");
        let cmd = [Path::new("rtplab"), Path::new("monitor"), &log, od, &d];
        assert!(matches!(
            check_not_inputs(&args(&cmd), &[], &[], Some(&d)),
            Err(OutputError::HoldsInput { .. })
        ));
        let cmd = [Path::new("check"), &out, od, &out];
        assert!(matches!(
            check_not_inputs(&args(&cmd), &[&out], &[], Some(&out)),
            Err(OutputError::HoldsInput { .. })
        ));
        let fresh = d.join("fresh");
        let cmd = [Path::new("monitor"), &log, od, &fresh];
        assert!(check_not_inputs(&args(&cmd), &[], &[], Some(&fresh)).is_ok());
        let txt = out.join("table.txt");
        std::fs::write(&txt, "old").unwrap();
        let cmd = [Path::new("sim"), o, &txt, od, &out];
        assert!(check_not_inputs(&args(&cmd), &[], &[("--output", &txt)], Some(&out)).is_ok());
        // An older report without its list of files: --force cannot tell its files apart.
        let old = d.join("old");
        std::fs::create_dir(&old).unwrap();
        std::fs::write(old.join("report.json"), "{}").unwrap();
        std::fs::write(old.join("mine.csv"), "mine").unwrap();
        let e = check_dir(&old, true).unwrap_err();
        assert!(matches!(e, OutputError::NoManifest { .. }), "{e}");
        assert!(e.to_string().contains(".rtplab-files"), "{e}");
        // --force never takes a folder that holds no report.
        let other = d.join("other");
        std::fs::create_dir(&other).unwrap();
        std::fs::write(other.join("x.csv"), "data").unwrap();
        assert!(matches!(
            check_dir(&other, true),
            Err(OutputError::NotReport { .. })
        ));
    }

    #[test]
    fn outputs_are_held_against_other_runs_until_released() {
        let d = std::env::temp_dir().join(format!("rtplab-held-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let out = d.join("r.json");
        let mut first = Held::default();
        first.hold("--output", &out).unwrap();
        let lock = d.join(".r.json.rtplab-lock");
        assert_eq!(
            std::fs::read_to_string(&lock).unwrap(),
            std::process::id().to_string()
        );
        // Another holder (another open of the lock file) is refused, naming the holder; so
        // is another spelling of the path.
        for path in [out.clone(), d.join(".").join("r.json")] {
            let e = Held::default().hold("--shard-out", &path).unwrap_err();
            assert_eq!(
                e,
                OutputError::Busy {
                    flag: "--shard-out".into(),
                    path: path.display().to_string(),
                    holder: format!(" (process {})", std::process::id()),
                }
            );
        }
        let e = first.hold("--shard-out", &out).unwrap_err();
        assert!(
            matches!(e, OutputError::Twice { ref other, .. } if other == "--output"),
            "{e}"
        );
        // Standard output and devices are not held.
        first.hold("--output", Path::new("-")).unwrap();
        first.hold("--output", Path::new("/dev/null")).unwrap();
        drop(first);
        assert!(!lock.exists());
        let mut again = Held::default();
        again.hold("--output", &out).unwrap();
        // A folder is held beside it.
        again.hold("--out-dir", &d.join("od")).unwrap();
        assert!(d.join(".od.rtplab-lock").exists());
        drop(again);
        // A lock file left by a killed run (no lock on it) does not hold anything.
        std::fs::write(&lock, "999999").unwrap();
        Held::default().hold("--output", &out).unwrap();
    }

    #[test]
    fn atomic_writes_replace_the_file_whole_or_not_at_all() {
        use std::os::unix::fs::PermissionsExt as _;
        let d = std::env::temp_dir().join(format!("rtplab-atomic-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let f = d.join("r.txt");
        write_atomic(&f, b"one").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"one");
        // A new file gets the usual mode (not the temporary file's owner-only one); an
        // existing file keeps its own.
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_ne!(mode(&f) & 0o044, 0, "readable by others: {:o}", mode(&f));
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&f, b"two").unwrap();
        assert_eq!(
            (std::fs::read(&f).unwrap(), mode(&f)),
            (b"two".to_vec(), 0o640)
        );
        // Through a symbolic link the file it names is replaced, and the link stays a link.
        let link = d.join("link.txt");
        std::os::unix::fs::symlink(&f, &link).unwrap();
        write_atomic(&link, b"three").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"three");
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        // A device is written in place.
        write_atomic(Path::new("/dev/null"), b"x").unwrap();
        // A failure leaves nothing behind.
        assert!(write_atomic(&d.join("missing/r.txt"), b"x").is_err());
        let mut names: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["link.txt", "r.txt"]);
    }

    #[test]
    fn inputs_are_recognised_through_hard_and_symbolic_links() {
        let d = std::env::temp_dir().join(format!("rtplab-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let input = d.join("in.json");
        std::fs::write(&input, "{}").unwrap();
        let hard = d.join("hard.json");
        std::fs::hard_link(&input, &hard).unwrap();
        let soft = d.join("soft.json");
        std::os::unix::fs::symlink(&input, &soft).unwrap();
        let other = d.join("other.json");
        std::fs::write(&other, "{}").unwrap();
        for out in [&hard, &soft] {
            let args: Vec<std::ffi::OsString> = vec![
                "rtplab".into(),
                input.clone().into(),
                "-o".into(),
                out.into(),
            ];
            let e = check_not_inputs(&args, &[], &[("--output", out)], None).unwrap_err();
            assert!(
                matches!(&e, OutputError::IsInput { input: i, .. } if *i == input.display().to_string()),
                "{e}"
            );
        }
        let args: Vec<std::ffi::OsString> = vec![
            "rtplab".into(),
            input.clone().into(),
            "-o".into(),
            other.clone().into(),
        ];
        assert!(check_not_inputs(&args, &[], &[("--output", &other)], None).is_ok());
        // An output folder reached through a link to a folder the command reads.
        let dlink = d.join("dlink");
        std::os::unix::fs::symlink(&d, &dlink).unwrap();
        let e = check_not_inputs(&args, &[&d], &[("--output", &dlink.join("x.json"))], None)
            .unwrap_err();
        assert!(matches!(e, OutputError::InInputFolder { .. }), "{e}");
    }
}
