//! Files relative to held folders: the door opens each folder once, when it checks a
//! command's files, and from then on creates, writes, renames and removes *relative to that
//! handle* (`openat`, `renameat2`, `unlinkat`), never by a name resolved again. What is
//! swapped in at a name during the run (a folder replaced by a link, a file appearing) is
//! therefore never followed: the write either lands where the check looked, or sees that the
//! name changed and keeps the result under another name, said in the message.
//!
//! Symbolic links the user gave (an output that is a link to a file, a parent that is a link
//! to a folder) are resolved once, at the check, link by link relative to the folder that
//! holds each ([`follow`]); no absolute path is ever built, so a working folder deeper than
//! `PATH_MAX` works.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rustix::fs::{AtFlags, FileType, Mode, OFlags, RenameFlags, CWD};
use rustix::io::Errno;

use super::names;

/// A held folder.
pub type Dirfd = Arc<OwnedFd>;

/// A name in a held folder.
#[derive(Clone, Debug)]
pub struct Place {
    pub dir: Dirfd,
    pub name: OsString,
}

/// A file's identity: device and inode.
pub type Node = (u64, u64);

/// What the check saw at a name, to know it again: its identity, its kind, and when it was
/// made (its birth time where the filesystem keeps one; else, for a file, when its metadata
/// last changed), so that a file removed and another made in its place, which may be given
/// the same inode number, is not taken for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ident {
    pub node: Node,
    pub kind: u32,
    pub made: (i64, u32),
}

/// What is at `name` in `dir` now (not following a link), if anything.
pub fn ident_at(dir: &Dirfd, name: &OsStr) -> Option<Ident> {
    use rustix::fs::StatxFlags;
    let st = rustix::fs::statx(
        &**dir,
        name,
        AtFlags::SYMLINK_NOFOLLOW,
        StatxFlags::BASIC_STATS | StatxFlags::BTIME,
    )
    .ok()?;
    let kind = u32::from(st.stx_mode) & 0o170000;
    let made = if st.stx_mask & StatxFlags::BTIME.bits() != 0 {
        (st.stx_btime.tv_sec, st.stx_btime.tv_nsec)
    } else if kind == 0o100000 {
        (st.stx_ctime.tv_sec, st.stx_ctime.tv_nsec)
    } else {
        (0, 0)
    };
    let dev = rustix::fs::makedev(st.stx_dev_major, st.stx_dev_minor);
    Some(Ident {
        node: (dev, st.stx_ino),
        kind,
        made,
    })
}

/// The identity of a stat.
pub fn node(st: &rustix::fs::Stat) -> Node {
    (st.st_dev, st.st_ino)
}

/// The folder a path names and the last component: `a/b/c` → (`a/b`, `c`), `c` → (`.`, `c`).
/// `None` for a path without a last name (`/`, `.`, `..`, `a/..`).
pub fn split(path: &Path) -> Option<(PathBuf, OsString)> {
    let bytes = path.as_os_str().as_bytes();
    let trimmed = {
        let mut end = bytes.len();
        while end > 1 && bytes[end - 1] == b'/' {
            end -= 1;
        }
        &bytes[..end]
    };
    let (parent, name) = match trimmed.iter().rposition(|b| *b == b'/') {
        Some(0) => (&b"/"[..], &trimmed[1..]),
        Some(i) => (&trimmed[..i], &trimmed[i + 1..]),
        None => (&b"."[..], trimmed),
    };
    if name.is_empty() || name == b"." || name == b".." {
        return None;
    }
    Some((
        PathBuf::from(OsStr::from_bytes(parent)),
        OsStr::from_bytes(name).to_os_string(),
    ))
}

/// Open the folder `path` (relative to `at`, or the working folder): once, as a handle.
pub fn open_dir_at(at: impl AsFd, path: &Path) -> std::io::Result<Dirfd> {
    let fd = rustix::fs::openat(
        at,
        path,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    Ok(Arc::new(fd))
}

/// Open the folder `path` (relative to the working folder).
pub fn open_dir(path: &Path) -> std::io::Result<Dirfd> {
    open_dir_at(CWD, path)
}

/// What a name resolved to.
#[derive(Debug)]
pub enum Found {
    /// Nothing: a new file would be made here. `link` is the link that led here, if any.
    Absent { link: Option<OsString> },
    /// A file of any kind (not a link).
    Node(rustix::fs::Stat),
    /// One of the kernel's links to an open descriptor (`/proc/self/fd/N`, and whatever leads
    /// there: `/dev/stdout`, `/dev/fd/N`): its file is known by identity, not followed.
    Descriptor,
}

/// Resolve the name `name` in `dir` once: links are followed one by one relative to the
/// folder holding each (at most 40), the kernel's descriptor links are recognised by the
/// filesystem they live in, not by how they are spelled.
pub fn follow(dir: Dirfd, name: OsString) -> std::io::Result<(Place, Found)> {
    let (mut dir, mut name) = (dir, name);
    let mut link = None;
    for _ in 0..40 {
        match rustix::fs::statat(&*dir, &*name, AtFlags::SYMLINK_NOFOLLOW) {
            Err(Errno::NOENT) => return Ok((Place { dir, name }, Found::Absent { link })),
            Err(e) => return Err(e.into()),
            Ok(st) if FileType::from_raw_mode(st.st_mode) == FileType::Symlink => {
                if on_procfs(&dir) {
                    return Ok((Place { dir, name }, Found::Descriptor));
                }
                let target = rustix::fs::readlinkat(&*dir, &*name, Vec::new())?;
                let target = PathBuf::from(OsStr::from_bytes(target.as_bytes()));
                let Some((p, n)) = split(&target) else {
                    // A link to `/`, `.` or `..`: a folder.
                    let d = open_dir_at(&*dir, &target)?;
                    let st = rustix::fs::fstat(&*d)?;
                    return Ok((Place { dir, name }, Found::Node(st)));
                };
                dir = open_dir_at(&*dir, &p)?;
                name = n;
                link = Some(target.into_os_string());
            }
            Ok(st) => return Ok((Place { dir, name }, Found::Node(st))),
        }
    }
    Err(Errno::LOOP.into())
}

/// Whether the held folder lies in the kernel's `/proc`.
pub fn on_procfs(dir: &Dirfd) -> bool {
    rustix::fs::fstatfs(&**dir).is_ok_and(|s| s.f_type == rustix::fs::PROC_SUPER_MAGIC)
}

/// `/proc` or `/sys` when the held folder lies in one of the kernel's pseudo-filesystems.
pub fn pseudo_fs(dir: &Dirfd) -> Option<&'static str> {
    const SYSFS_MAGIC: i64 = 0x6265_6572;
    let s = rustix::fs::fstatfs(&**dir).ok()?;
    if s.f_type == rustix::fs::PROC_SUPER_MAGIC {
        Some("/proc")
    } else if s.f_type as i64 == SYSFS_MAGIC {
        Some("/sys")
    } else {
        None
    }
}

/// The identity of what is at `name` in `dir` now (not following a link), if anything.
pub fn node_at(dir: &Dirfd, name: &OsStr) -> Option<(Node, FileType)> {
    rustix::fs::statat(&**dir, name, AtFlags::SYMLINK_NOFOLLOW)
        .ok()
        .map(|st| (node(&st), FileType::from_raw_mode(st.st_mode)))
}

/// Whether the folder `dir` is `ancestor` or lies inside it (walking up by `..`, across
/// mounts, to the root).
pub fn within(dir: &Dirfd, ancestor: Node) -> bool {
    let Ok(mut st) = rustix::fs::fstat(&**dir) else {
        return false;
    };
    let mut cur: OwnedFd = match rustix::io::fcntl_dupfd_cloexec(&**dir, 3) {
        Ok(fd) => fd,
        Err(_) => return false,
    };
    for _ in 0..4096 {
        if node(&st) == ancestor {
            return true;
        }
        let Ok(up) = rustix::fs::openat(
            &cur,
            "..",
            OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        ) else {
            return false;
        };
        let Ok(ust) = rustix::fs::fstat(&up) else {
            return false;
        };
        if node(&ust) == node(&st) {
            return false;
        }
        cur = up;
        st = ust;
    }
    false
}

/// Random characters for a temporary name (created exclusively, so they need only differ).
pub(crate) fn rand_chars() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let mut x = t
        ^ (u64::from(std::process::id()) << 32)
        ^ COUNTER
            .fetch_add(1, Ordering::Relaxed)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    const ALPHA: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    (0..names::RAND)
        .map(|_| {
            x ^= x >> 33;
            x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
            x ^= x >> 29;
            ALPHA[(x % ALPHA.len() as u64) as usize] as char
        })
        .collect()
}

/// A temporary name beside the output named `name`: `.NAME.XXXXXX.rtplab-tmp`.
fn temp_name(name: &OsStr) -> OsString {
    let mut t = names::stem(name);
    t.push(rand_chars());
    t.push(names::TMP);
    t
}

/// Create a temporary file beside `name` in `dir`, exclusively (nothing at its name is
/// followed), with `mode`: its name and the open file.
pub fn create_temp(
    dir: &Dirfd,
    name: &OsStr,
    mode: u32,
) -> std::io::Result<(OsString, std::fs::File)> {
    loop {
        let t = temp_name(name);
        match rustix::fs::openat(
            &**dir,
            &*t,
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(mode),
        ) {
            Ok(fd) => {
                // The mode as asked, whatever the umask (an existing file's own mode).
                let _ = rustix::fs::fchmod(&fd, Mode::from_raw_mode(mode));
                return Ok((t, std::fs::File::from(fd)));
            }
            Err(Errno::EXIST) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

/// A temporary file beside `name` in `dir` holding `bytes`, synced, registered for removal on
/// an abort ([`super::Live`]) and held locked while open (so a dead run's can be told from a
/// live one's). Removed again if the write fails. Returns its name, the open file (keep it
/// until the temporary file is put in place) and its registration.
pub(crate) fn write_temp(
    dir: &Dirfd,
    name: &OsStr,
    mode: u32,
    bytes: &[u8],
) -> std::io::Result<(OsString, std::fs::File, super::Live)> {
    write_temp_with(dir, name, mode, &mut |w| w.write_all(bytes))
}

/// [`write_temp`] of what `fill` writes (through a buffer), for a result too large to hold.
pub(crate) fn write_temp_with(
    dir: &Dirfd,
    name: &OsStr,
    mode: u32,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<(OsString, std::fs::File, super::Live)> {
    let (tmp, f) = create_temp(dir, name, mode)?;
    let _ = f.try_lock();
    let live = super::Live::new(Place {
        dir: dir.clone(),
        name: tmp.clone(),
    });
    let mut w = std::io::BufWriter::with_capacity(1 << 16, f);
    let written = fill(&mut w).and_then(|_| w.flush());
    let f = match w.into_inner() {
        Ok(f) => f,
        Err(e) => {
            let _ = rustix::fs::unlinkat(&**dir, &*tmp, AtFlags::empty());
            return Err(e.into_error());
        }
    };
    let written = written.and_then(|_| f.sync_all());
    if let Err(e) = written {
        let _ = rustix::fs::unlinkat(&**dir, &*tmp, AtFlags::empty());
        return Err(e);
    }
    Ok((tmp, f, live))
}

/// Create a temporary folder beside `name` in `dir`, exclusively: its name and handle.
pub fn make_temp_dir(dir: &Dirfd, name: &OsStr) -> std::io::Result<(OsString, Dirfd)> {
    loop {
        let t = temp_name(name);
        match rustix::fs::mkdirat(&**dir, &*t, Mode::from_raw_mode(0o700)) {
            Ok(()) => {
                let fd = rustix::fs::openat(
                    &**dir,
                    &*t,
                    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                    Mode::empty(),
                )?;
                return Ok((t, Arc::new(fd)));
            }
            Err(Errno::EXIST) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

/// Write `bytes` as the new file `name` in the held folder `dir` (exclusively, never
/// following a link), synced.
pub fn write_new(dir: &Dirfd, name: &OsStr, bytes: &[u8]) -> std::io::Result<()> {
    let fd = rustix::fs::openat(
        &**dir,
        name,
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o666),
    )?;
    let mut f = std::fs::File::from(fd);
    f.write_all(bytes)?;
    f.sync_all()
}

/// Sync a held folder (its entries reach the disk; best effort).
pub fn sync_dir(dir: &Dirfd) {
    let _ = rustix::fs::fsync(&**dir);
}

/// Remove `name` in `dir` (a file, or a folder with everything in it), never following a
/// link.
pub fn remove_all(dir: &Dirfd, name: &OsStr) -> std::io::Result<()> {
    match rustix::fs::unlinkat(&**dir, name, AtFlags::empty()) {
        Ok(()) => return Ok(()),
        Err(Errno::ISDIR | Errno::PERM) => {}
        Err(Errno::NOENT) => return Ok(()),
        Err(e) => return Err(e.into()),
    }
    let sub = rustix::fs::openat(
        &**dir,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let sub = Arc::new(sub);
    for entry in list(&sub)? {
        remove_all(&sub, &entry)?;
    }
    rustix::fs::unlinkat(&**dir, name, AtFlags::REMOVEDIR).map_err(Into::into)
}

/// The names in a held folder (without `.` and `..`).
pub fn list(dir: &Dirfd) -> std::io::Result<Vec<OsString>> {
    let mut d = rustix::fs::Dir::read_from(&**dir)?;
    d.rewind();
    let mut out = Vec::new();
    for e in d {
        let e = e?;
        let n = e.file_name().to_bytes();
        if n != b"." && n != b".." {
            out.push(OsStr::from_bytes(n).to_os_string());
        }
    }
    Ok(out)
}

/// Why the result could not be put at its name: the name changed since the check.
pub fn changed(what: String) -> std::io::Error {
    std::io::Error::other(what)
}

/// Put the complete temporary `tmp` (a file or a folder) at `name` in `dir`, in one step:
/// where nothing was there at the check (`expected` None), only if nothing is there now;
/// otherwise exchanged with what is there, which must be what the check saw (else exchanged
/// back). Returns whether something was replaced (now at `tmp`'s name, for the caller to
/// remove).
pub fn put(
    dir: &Dirfd,
    tmp: &OsStr,
    name: &OsStr,
    expected: Option<Ident>,
    shown: &dyn Fn() -> String,
) -> std::io::Result<bool> {
    let replaced_by_other = || {
        changed(format!(
            "{} was replaced by something else during the run, so it was not overwritten",
            shown()
        ))
    };
    match expected {
        None => match rustix::fs::renameat_with(
            &**dir,
            tmp,
            &**dir,
            name,
            RenameFlags::NOREPLACE,
        ) {
            Ok(()) => Ok(false),
            Err(Errno::EXIST) => Err(changed(format!(
                "{} appeared during the run (it was not there when the command started), so it was not replaced",
                shown()
            ))),
            Err(Errno::INVAL | Errno::NOSYS) => {
                // A filesystem without renameat2: as close as it allows.
                if node_at(dir, name).is_some() {
                    return Err(changed(format!(
                        "{} appeared during the run, so it was not replaced",
                        shown()
                    )));
                }
                rustix::fs::renameat(&**dir, tmp, &**dir, name)?;
                Ok(false)
            }
            Err(e) => Err(e.into()),
        },
        Some(old) => {
            match ident_at(dir, name) {
                None => {
                    return Err(changed(format!(
                        "{} was removed during the run, so nothing was put in its place",
                        shown()
                    )))
                }
                Some(now) if now != old => return Err(replaced_by_other()),
                Some(_) => {}
            }
            match rustix::fs::renameat_with(&**dir, tmp, &**dir, name, RenameFlags::EXCHANGE) {
                Ok(()) => {
                    let back = ident_at(dir, tmp);
                    if back.is_some_and(|b| b.node == old.node && b.kind == old.kind) {
                        return Ok(true);
                    }
                    // Something else was put at the name in the meantime: give it back.
                    rustix::fs::renameat_with(&**dir, tmp, &**dir, name, RenameFlags::EXCHANGE)?;
                    Err(replaced_by_other())
                }
                Err(Errno::NOENT) => Err(changed(format!(
                    "{} was removed during the run, so nothing was put in its place",
                    shown()
                ))),
                Err(Errno::INVAL | Errno::NOSYS) => {
                    rustix::fs::renameat(&**dir, tmp, &**dir, name)?;
                    Ok(false)
                }
                Err(e) => Err(e.into()),
            }
        }
    }
}

/// Keep the temporary `tmp` (a result that could not be put at `name`) under a name of its
/// own beside it: `NAME.rtplab-kept-XXXXXX`. Returns the name.
pub fn keep(dir: &Dirfd, tmp: &OsStr, name: &OsStr) -> std::io::Result<OsString> {
    loop {
        let mut k = name.to_os_string();
        k.push(".rtplab-kept-");
        k.push(rand_chars());
        match rustix::fs::renameat_with(&**dir, tmp, &**dir, &*k, RenameFlags::NOREPLACE) {
            Ok(()) => return Ok(k),
            Err(Errno::EXIST) => continue,
            Err(Errno::INVAL | Errno::NOSYS) if node_at(dir, &k).is_none() => {
                rustix::fs::renameat(&**dir, tmp, &**dir, &*k)?;
                return Ok(k);
            }
            Err(e) => return Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_splits_into_its_folder_and_name() {
        let s = |p: &str| split(Path::new(p)).map(|(a, b)| (a, b.into_string().unwrap()));
        assert_eq!(s("a/b/c"), Some((PathBuf::from("a/b"), "c".into())));
        assert_eq!(s("c"), Some((PathBuf::from("."), "c".into())));
        assert_eq!(s("/c"), Some((PathBuf::from("/"), "c".into())));
        assert_eq!(s("od/"), Some((PathBuf::from("."), "od".into())));
        assert_eq!(s("a/./b"), Some((PathBuf::from("a/."), "b".into())));
        for none in ["/", ".", "..", "a/..", "a/."] {
            assert_eq!(s(none), None, "{none}");
        }
        // Bytes that are not UTF-8 stay as they are.
        let raw = OsStr::from_bytes(b"x/\xff.json");
        assert_eq!(
            split(Path::new(raw)).unwrap().1.as_bytes(),
            b"\xff.json".as_slice()
        );
    }

    #[test]
    fn what_is_put_at_a_name_is_what_the_check_saw() {
        let d = std::env::temp_dir().join(format!("rtplab-at-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let dir = open_dir(&d).unwrap();
        let name = OsStr::new("r.txt");
        let shown = || "r.txt".to_string();
        // New: put only while nothing is there.
        let (t, mut f) = create_temp(&dir, name, 0o644).unwrap();
        f.write_all(b"one").unwrap();
        assert!(!put(&dir, &t, name, None, &shown).unwrap());
        let first = ident_at(&dir, name).unwrap();
        let (t, _) = create_temp(&dir, name, 0o644).unwrap();
        let e = put(&dir, &t, name, None, &shown).unwrap_err();
        assert!(e.to_string().contains("appeared"), "{e}");
        let k = keep(&dir, &t, name).unwrap();
        assert!(k.to_str().unwrap().starts_with("r.txt.rtplab-kept-"));
        // Existing: exchanged, and the old one handed back for removal.
        let (t, _) = create_temp(&dir, name, 0o644).unwrap();
        assert!(put(&dir, &t, name, Some(first), &shown).unwrap());
        assert_eq!(node_at(&dir, &t).unwrap().0, first.node);
        let first = ident_at(&dir, name).unwrap();
        remove_all(&dir, &t).unwrap();
        // Replaced during the run (even by a file given the same inode number): given back,
        // not overwritten.
        std::fs::remove_file(d.join("r.txt")).unwrap();
        std::fs::write(d.join("r.txt"), "another").unwrap();
        let (t, _) = create_temp(&dir, name, 0o644).unwrap();
        let e = put(&dir, &t, name, Some(first), &shown).unwrap_err();
        assert!(e.to_string().contains("replaced"), "{e}");
        assert!(node_at(&dir, &t).is_some());
        let _ = std::fs::remove_dir_all(&d);
    }
}
