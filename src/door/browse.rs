//! A folder shown read-only (`rtplab serve`'s reports and runs): held once as a handle, its
//! files and sub-folders listed and read by names below it, one name at a time, relative to
//! the folder that holds it. `..`, hidden names and links are refused: nothing outside the
//! folder is ever read, whatever is put at a name while the server runs.

use std::ffi::{OsStr, OsString};
use std::io::Read as _;
use std::path::{Path, PathBuf};

use rustix::fs::{FileType, Mode, OFlags};

use super::at::{list, open_dir, Dirfd};

/// Why a name in a shown folder cannot be listed or read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BrowseError {
    #[error("{0}: not a name in the folder (no `..`, no hidden names, no links)")]
    BadName(String),
    #[error("{0}: no such file or folder")]
    Missing(String),
    #[error("{0}: not a regular file")]
    NotFile(String),
    #[error("{0}: larger than {1} bytes")]
    TooLarge(String, u64),
    #[error("{0}: {1}")]
    Io(String, String),
}

/// One name in a listing.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Entry {
    pub name: String,
    pub folder: bool,
    pub bytes: u64,
}

/// A folder shown read-only.
#[derive(Debug)]
pub struct Shown {
    dir: Dirfd,
    path: PathBuf,
}

/// Make the folder `path` (and those above it) if it is not there.
pub fn make_folder(path: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(path)
}

impl Shown {
    /// Hold the folder `path`.
    pub fn open(path: &Path) -> std::io::Result<Shown> {
        Ok(Shown {
            dir: open_dir(path)?,
            path: path.to_path_buf(),
        })
    }

    /// The path it was opened as.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The names of `rel` ("" the folder itself; `a/b` a sub-folder), folders first, each
    /// group by name; hidden names left out.
    pub fn list(&self, rel: &str) -> Result<Vec<Entry>, BrowseError> {
        let dir = self.walk(rel, &names(rel)?)?;
        let io = |e: std::io::Error| BrowseError::Io(rel.into(), e.to_string());
        let mut out = Vec::new();
        for name in list(&dir).map_err(io)? {
            let Some(n) = name.to_str().filter(|n| !n.starts_with('.')) else {
                continue;
            };
            let Ok(st) = rustix::fs::statat(&*dir, &*name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
            else {
                continue;
            };
            let kind = FileType::from_raw_mode(st.st_mode);
            if kind != FileType::Directory && kind != FileType::RegularFile {
                continue;
            }
            out.push(Entry {
                name: n.to_string(),
                folder: kind == FileType::Directory,
                bytes: st.st_size as u64,
            });
        }
        out.sort_by(|a, b| b.folder.cmp(&a.folder).then(a.name.cmp(&b.name)));
        Ok(out)
    }

    /// The bytes of the file `rel` (at most `limit`).
    pub fn read(&self, rel: &str, limit: u64) -> Result<Vec<u8>, BrowseError> {
        let (f, _, len) = self.open_file(rel, limit)?;
        let io = |e: std::io::Error| BrowseError::Io(rel.into(), e.to_string());
        let mut bytes = Vec::with_capacity(len as usize);
        f.take(limit + 1).read_to_end(&mut bytes).map_err(io)?;
        if bytes.len() as u64 > limit {
            return Err(BrowseError::TooLarge(rel.into(), limit));
        }
        Ok(bytes)
    }

    /// Hold the file `rel` below this folder as a command's input of `kind`, named `given` on
    /// its command line: each name opened relative to the folder before it, no link
    /// followed, a regular file within the kind's size limit. The door takes the open file
    /// ([`crate::door::Door::open_holding`]) and the command reads it, not what is at the
    /// name by then.
    pub fn hold(
        &self,
        rel: &str,
        given: &Path,
        kind: super::InputKind,
    ) -> Result<super::input::Held, BrowseError> {
        let (f, dir, _) = self.open_file(rel, kind.limit())?;
        // Reads block again (a regular file never waits).
        if let Ok(fl) = rustix::fs::fcntl_getfl(&f) {
            let _ = rustix::fs::fcntl_setfl(&f, fl - OFlags::NONBLOCK);
        }
        Ok(super::input::Held::opened(
            given.to_path_buf(),
            f,
            Some(dir),
        ))
    }

    /// The regular file `rel` below this folder, each name opened relative to the folder
    /// before it, no link followed, at most `limit` bytes: the file, its folder, its length.
    fn open_file(&self, rel: &str, limit: u64) -> Result<(std::fs::File, Dirfd, u64), BrowseError> {
        let mut parts = names(rel)?;
        let Some(file) = parts.pop() else {
            return Err(BrowseError::NotFile(rel.into()));
        };
        let dir = self.walk(rel, &parts)?;
        let fd = rustix::fs::openat(
            &*dir,
            &*file,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| refused(rel, e))?;
        let f = std::fs::File::from(fd);
        let meta = f
            .metadata()
            .map_err(|e| BrowseError::Io(rel.into(), e.to_string()))?;
        if !meta.is_file() {
            return Err(BrowseError::NotFile(rel.into()));
        }
        if meta.len() > limit {
            return Err(BrowseError::TooLarge(rel.into(), limit));
        }
        Ok((f, dir, meta.len()))
    }

    /// The folder of the names `parts` below this one, each opened relative to the one
    /// before, links not followed.
    fn walk(&self, rel: &str, parts: &[OsString]) -> Result<Dirfd, BrowseError> {
        let mut dir = self.dir.clone();
        for p in parts {
            let fd = rustix::fs::openat(
                &*dir,
                &**p,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .map_err(|e| refused(rel, e))?;
            dir = std::sync::Arc::new(fd);
        }
        Ok(dir)
    }
}

/// A name's refusal: missing, a link (`ELOOP` under `O_NOFOLLOW`), or another error.
fn refused(rel: &str, e: rustix::io::Errno) -> BrowseError {
    match e {
        rustix::io::Errno::NOENT => BrowseError::Missing(rel.into()),
        rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR => BrowseError::BadName(rel.into()),
        e => BrowseError::Io(rel.into(), std::io::Error::from(e).to_string()),
    }
}

/// The names of a path below a shown folder: plain names only.
fn names(rel: &str) -> Result<Vec<OsString>, BrowseError> {
    let bad = || BrowseError::BadName(rel.into());
    if rel.len() > 4096 {
        return Err(bad());
    }
    let mut out = Vec::new();
    for part in rel.split('/').filter(|p| !p.is_empty()) {
        if part.starts_with('.') || part.contains('\0') || part.contains('\\') {
            return Err(bad());
        }
        out.push(OsStr::new(part).to_os_string());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_outside_the_folder_or_hidden_are_refused_and_files_within_are_read() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir(t.path().join("a")).unwrap();
        std::fs::write(t.path().join("a/r.md"), "# hi").unwrap();
        std::fs::write(t.path().join(".secret"), "x").unwrap();
        std::os::unix::fs::symlink("/etc", t.path().join("etc")).unwrap();
        let s = Shown::open(t.path()).unwrap();
        assert_eq!(s.read("a/r.md", 100).unwrap(), b"# hi");
        assert_eq!(
            s.read("a/r.md", 2),
            Err(BrowseError::TooLarge("a/r.md".into(), 2))
        );
        for bad in ["../x", "a/../../x", ".secret", "etc/passwd", "etc"] {
            assert!(
                matches!(
                    s.read(bad, 100),
                    Err(BrowseError::BadName(_) | BrowseError::NotFile(_))
                ),
                "{bad}: {:?}",
                s.read(bad, 100)
            );
        }
        let names: Vec<String> = s.list("").unwrap().into_iter().map(|e| e.name).collect();
        assert_eq!(names, ["a"]);
        assert!(s.list("etc").is_err());
    }

    #[test]
    fn an_input_held_below_the_folder_is_the_file_seen_whatever_is_put_at_its_name() {
        use crate::door::{Door, InputKind, Plan};
        let t = tempfile::tempdir().unwrap();
        let other = tempfile::tempdir().unwrap();
        std::fs::create_dir(t.path().join("a")).unwrap();
        std::fs::write(t.path().join("a/r.json"), "held").unwrap();
        std::fs::write(other.path().join("r.json"), "planted").unwrap();
        let s = Shown::open(t.path()).unwrap();
        let given = t.path().join("a/r.json");
        let held = s.hold("a/r.json", &given, InputKind::Report).unwrap();
        // The folder swapped for a link to another folder after the hold.
        std::fs::rename(t.path().join("a"), t.path().join("a-old")).unwrap();
        std::os::unix::fs::symlink(other.path(), t.path().join("a")).unwrap();
        assert_eq!(std::fs::read_to_string(&given).unwrap(), "planted");
        let mut plan = Plan::default();
        plan.input("--from", &given, InputKind::Report);
        let door = Door::open_holding(&plan, vec![held]).unwrap();
        assert_eq!(
            crate::door::input::read_text(&given, "--from", 100).unwrap(),
            "held"
        );
        drop(door);
        // Held again now: the link is not followed.
        assert!(matches!(
            s.hold("a/r.json", &given, InputKind::Report),
            Err(BrowseError::BadName(_))
        ));
        // A link at the file's own name, and a file too large for its kind.
        std::fs::remove_file(t.path().join("a")).unwrap();
        std::fs::rename(t.path().join("a-old"), t.path().join("a")).unwrap();
        std::fs::remove_file(t.path().join("a/r.json")).unwrap();
        std::os::unix::fs::symlink(other.path().join("r.json"), t.path().join("a/r.json")).unwrap();
        assert!(matches!(
            s.hold("a/r.json", &given, InputKind::Report),
            Err(BrowseError::BadName(_))
        ));
        std::fs::write(t.path().join("a/big.txt"), vec![b'x'; 2 << 20]).unwrap();
        assert!(matches!(
            s.hold("a/big.txt", &given, InputKind::Text),
            Err(BrowseError::TooLarge(..))
        ));
        assert!(matches!(
            s.hold("a", &given, InputKind::Text),
            Err(BrowseError::NotFile(_))
        ));
    }
}
