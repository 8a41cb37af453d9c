//! Output paths checked before a run starts (so that hours of simulation are never lost to a
//! typo in `--output`, `--out-dir` or `--shard-out`), and folders written whole: into a
//! temporary folder beside the target, renamed into place.

use std::path::{Path, PathBuf};

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
    #[error("--out-dir {path} is not empty; add --force to replace it, or choose another folder")]
    NotEmpty { path: String },
    #[error("{flag} {path} cannot be written ({why}); choose another path")]
    Unwritable {
        flag: String,
        path: String,
        why: String,
    },
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
/// fine; otherwise its folder must exist and be writable, and the path must not be a folder.
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
    check_parent(flag, path)?;
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
    }
    Ok(())
}

/// Check `--out-dir` before the run: its parent folder must exist and be writable; the folder
/// itself may be missing or empty, and is replaced only with `force`.
pub fn check_dir(dir: &Path, force: bool) -> Result<(), OutputError> {
    let path = dir.display().to_string();
    match std::fs::metadata(dir) {
        Ok(m) if !m.is_dir() => {
            return Err(OutputError::NotDir {
                flag: "--out-dir".into(),
                path,
            })
        }
        Ok(_) => {
            let empty = std::fs::read_dir(dir)
                .map(|mut r| r.next().is_none())
                .unwrap_or(false);
            if !empty && !force {
                return Err(OutputError::NotEmpty { path });
            }
        }
        Err(_) => {}
    }
    check_parent("--out-dir", dir).map(|_| ())
}

/// Write a folder whole: `fill` writes the files into a temporary folder beside `dir`, which
/// then replaces `dir` (an existing `dir` is moved aside first and removed after). Returns the
/// final paths of the files `fill` wrote.
pub fn write_dir_via_temp(
    dir: &Path,
    fill: impl FnOnce(&Path) -> std::io::Result<Vec<PathBuf>>,
) -> std::io::Result<Vec<PathBuf>> {
    let parent = parent_of(dir);
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let pid = std::process::id();
    let tmp = parent.join(format!(".{name}.tmp-{pid}"));
    let old = parent.join(format!(".{name}.old-{pid}"));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir(&tmp)?;
    let written = match fill(&tmp) {
        Ok(w) => w,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    let existed = dir.exists();
    if existed {
        if let Err(e) = std::fs::rename(dir, &old) {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    }
    if let Err(e) = std::fs::rename(&tmp, dir) {
        if existed {
            let _ = std::fs::rename(&old, dir);
        }
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    if existed {
        let _ = std::fs::remove_dir_all(&old);
    }
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
    fn paths_are_checked_and_folders_replaced_whole() {
        let d = std::env::temp_dir().join(format!("rtplab-output-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let file = d.join("f.txt");
        std::fs::write(&file, "x").unwrap();
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
        let out = d.join("out");
        assert!(check_dir(&out, false).is_ok());
        assert!(matches!(
            check_dir(&file, false),
            Err(OutputError::NotDir { .. })
        ));
        let w = write_dir_via_temp(&out, |t| {
            std::fs::write(t.join("a"), "1")?;
            Ok(vec![t.join("a")])
        })
        .unwrap();
        assert_eq!(w, vec![out.join("a")]);
        assert!(matches!(
            check_dir(&out, false),
            Err(OutputError::NotEmpty { .. })
        ));
        assert!(check_dir(&out, true).is_ok());
        write_dir_via_temp(&out, |t| {
            std::fs::write(t.join("b"), "2")?;
            Ok(vec![])
        })
        .unwrap();
        assert!(!out.join("a").exists() && out.join("b").exists());
        let names: Vec<_> = std::fs::read_dir(&d).unwrap().collect();
        assert_eq!(names.len(), 2, "no temporary folders are left: {names:?}");
    }
}
