//! Solved tables kept between runs: a cache folder of entries, each named by what it holds
//! (its kind, its format version and a hash of everything it was computed from), written
//! whole or not at all through the folder's handle (a temporary file put at the entry's name
//! in one step; a link planted there is replaced, never followed) and read back through it.
//!
//! The folder is `$RTPLAB_CACHE` if set, else `$XDG_CACHE_HOME/rtplab`, else
//! `~/.cache/rtplab`. An entry is never trusted: its decoder checks it (a table's own
//! version, checksum and identity), and one that fails is reported in one line on standard
//! error and computed again (then replaced). A folder that cannot be one (a file at its
//! path) is an error that names it; a table that cannot be saved is a warning (the result is
//! computed all the same).
//!
//! Any solved table can be kept here: [`Cache::get_or_compute`] takes the entry's [`Key`],
//! how to compute the value, how to encode it and how to decode (and check) it. A table with
//! no format of its own is wrapped by [`seal`] and checked by [`unseal`] (kind, version,
//! identity in full, checksum). Kept here: Dice of Doom's two-player table
//! (`games::doom::win::kept`), blackjack's derived charts and count metrics' effects of
//! removal (`games::blackjack::kept`).

use std::path::{Path, PathBuf};

/// The environment variable that names the cache folder.
pub const ENV: &str = "RTPLAB_CACHE";

/// The ending of every entry's name (what `cache clear` removes).
pub const SUFFIX: &str = ".rtplab-table";

/// Why the cache folder cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CacheError {
    #[error("the cache folder {path} is {kind}, not a folder; remove it, set {ENV} to a folder, or run with --no-cache")]
    NotFolder { path: String, kind: String },
    #[error("no cache folder: none of {ENV}, XDG_CACHE_HOME and HOME is set; set {ENV} to a folder, or run with --no-cache")]
    NoHome,
    #[error("cannot use the cache folder {path}: {why}; set {ENV} to another folder, or run with --no-cache")]
    Io { path: String, why: String },
}

/// What an entry is: its kind (a short name: `doom-win`), the version of its format, and
/// the text of everything it was computed from (hashed into its name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    pub kind: String,
    pub version: u32,
    pub identity: String,
}

impl Key {
    /// The entry's file name: `KIND-vVERSION-HASH.rtplab-table`.
    pub fn file_name(&self) -> String {
        format!(
            "{}-v{}-{:016x}{SUFFIX}",
            self.kind,
            self.version,
            hash(self.identity.as_bytes())
        )
    }
}

/// A 64-bit FNV-1a hash (stable across builds and platforms).
pub fn hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The first line of an entry sealed by [`seal`].
const SEAL_MAGIC: &str = "rtplab solved table";

/// An entry's bytes for `key` holding `body`: a header naming the kind and version, the
/// identity in full (so that a hash collision of names is caught), the body, and a checksum
/// of everything before it. [`unseal`] checks all of it. Tables with a format of their own
/// (doom's) check themselves instead.
pub fn seal(key: &Key, body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "{SEAL_MAGIC}
{} v{}
{}
{}",
        key.kind,
        key.version,
        key.identity.len(),
        key.identity
    )
    .into_bytes();
    out.extend_from_slice(body);
    let sum = hash(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The body of an entry sealed for `key`, checked: its checksum (a damaged or cut entry), its
/// kind and version, its identity. The error says which, in a few words.
pub fn unseal<'a>(key: &Key, bytes: &'a [u8]) -> Result<&'a [u8], String> {
    let magic = format!("{SEAL_MAGIC}\n");
    if !bytes.starts_with(magic.as_bytes()) {
        return Err("it is not a sealed solved table".into());
    }
    if bytes.len() < magic.len() + 8 {
        return Err("it is damaged (cut short)".into());
    }
    let (sealed, sum) = bytes.split_at(bytes.len() - 8);
    if hash(sealed) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err("it is damaged (its checksum does not match)".into());
    }
    let start = header_len(sealed).ok_or("it is damaged (no header)")?;
    let header = String::from_utf8_lossy(&sealed[magic.len()..start]);
    let mut lines = header.lines();
    let what = format!("{} v{}", key.kind, key.version);
    let held = lines.next().unwrap_or_default();
    if held != what {
        return Err(format!("it holds {held} where {what} was expected"));
    }
    let len: usize = lines
        .next()
        .and_then(|l| l.parse().ok())
        .ok_or("it is damaged (no identity length)")?;
    let identity = sealed
        .get(start..start.saturating_add(len))
        .ok_or("it is damaged (cut short)")?;
    if identity != key.identity.as_bytes() {
        return Err("it was computed from something else (its identity differs)".into());
    }
    Ok(&sealed[start + len..])
}

/// Where what follows the first three lines of a sealed entry starts.
fn header_len(sealed: &[u8]) -> Option<usize> {
    let mut at = 0;
    for _ in 0..3 {
        at += sealed[at..].iter().position(|&b| b == b'\n')? + 1;
    }
    Some(at)
}

/// Where the cache folder is for these settings (`RTPLAB_CACHE`, `XDG_CACHE_HOME`, `HOME`;
/// an empty value counts as unset).
pub fn folder_from(
    rtplab_cache: Option<&str>,
    xdg_cache_home: Option<&str>,
    home: Option<&str>,
) -> Result<PathBuf, CacheError> {
    let set = |v: Option<&str>| v.filter(|s| !s.is_empty()).map(PathBuf::from);
    if let Some(p) = set(rtplab_cache) {
        return Ok(p);
    }
    if let Some(p) = set(xdg_cache_home) {
        return Ok(p.join("rtplab"));
    }
    set(home)
        .map(|h| h.join(".cache").join("rtplab"))
        .ok_or(CacheError::NoHome)
}

/// The cache folder of this process's environment.
pub fn folder() -> Result<PathBuf, CacheError> {
    let var = |k: &str| std::env::var(k).ok();
    folder_from(
        var(ENV).as_deref(),
        var("XDG_CACHE_HOME").as_deref(),
        var("HOME").as_deref(),
    )
}

/// Where a value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Read from this entry.
    Loaded(PathBuf),
    /// Computed, and saved at this entry (None: it could not be saved; a warning said why).
    Computed(Option<PathBuf>),
}

/// The cache folder, checked. It is this user's alone: made with mode 0700, refused when
/// another user owns it; a folder others may write to (a shared `RTPLAB_CACHE`) holds a
/// folder of this user's (`user-UID`), which is the cache. Every entry is read, written and
/// removed through the folder's handle, never following a link at an entry's name.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
}

/// Whether a folder's owner and mode make it this user's alone to write.
fn private(st: &rustix::fs::Stat) -> bool {
    st.st_uid == rustix::process::geteuid().as_raw() && st.st_mode & 0o022 == 0
}

impl Cache {
    /// The cache of this process's environment ([`folder`]), checked.
    pub fn open() -> Result<Cache, CacheError> {
        Cache::at(folder()?)
    }

    /// The cache in `dir`: refused when something other than a folder is there (a missing
    /// folder is made when the first entry is saved); inside a folder others may write to,
    /// this user's own folder in it.
    pub fn at(dir: PathBuf) -> Result<Cache, CacheError> {
        match std::fs::metadata(&dir) {
            Ok(m) if m.is_dir() => {
                let st = rustix::fs::stat(&dir).map_err(|e| CacheError::Io {
                    path: dir.display().to_string(),
                    why: e.to_string(),
                })?;
                if private(&st) {
                    Ok(Cache { dir })
                } else {
                    let uid = rustix::process::geteuid().as_raw();
                    Ok(Cache {
                        dir: dir.join(format!("user-{uid}")),
                    })
                }
            }
            Ok(m) => Err(CacheError::NotFolder {
                path: dir.display().to_string(),
                kind: super::identity::kind_name(&m).into(),
            }),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                // A file on the way (`a-file/rtplab`) is refused now, not at the save.
                let mut up = dir.parent();
                while let Some(p) = up.filter(|p| !p.as_os_str().is_empty()) {
                    match std::fs::metadata(p) {
                        Ok(m) if m.is_dir() => break,
                        Ok(m) => {
                            return Err(CacheError::NotFolder {
                                path: p.display().to_string(),
                                kind: super::identity::kind_name(&m).into(),
                            })
                        }
                        Err(_) => up = p.parent(),
                    }
                }
                Ok(Cache { dir })
            }
            Err(e) => Err(CacheError::Io {
                path: dir.display().to_string(),
                why: e.to_string(),
            }),
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of `key`'s entry.
    pub fn path(&self, key: &Key) -> PathBuf {
        self.dir.join(key.file_name())
    }

    /// The folder's handle (made, mode 0700, when `create`; `None` when missing), checked to be
    /// this user's to write alone.
    fn handle(&self, create: bool) -> std::io::Result<Option<super::at::Dirfd>> {
        use rustix::fs::{Mode, OFlags};
        let (parent, name) = super::at::split(&self.dir)
            .ok_or_else(|| std::io::Error::other("the cache folder has no name"))?;
        if create {
            std::fs::create_dir_all(&parent)?;
        }
        let up = super::at::open_dir(&parent);
        let up = match up {
            Ok(u) => u,
            Err(e) if !create && e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        if create {
            match rustix::fs::mkdirat(&*up, &*name, Mode::from_raw_mode(0o700)) {
                Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                Err(e) => return Err(e.into()),
            }
        }
        let fd = match rustix::fs::openat(
            &*up,
            &*name,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        ) {
            Ok(fd) => fd,
            Err(rustix::io::Errno::NOENT) if !create => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let st = rustix::fs::fstat(&fd)?;
        if st.st_uid != rustix::process::geteuid().as_raw() {
            return Err(std::io::Error::other(format!(
                "{} belongs to user id {}, not to this user; set {ENV} to a folder of yours",
                self.dir.display(),
                st.st_uid
            )));
        }
        // Made here with mode 0700; one that was there is used only when no one else may
        // write to it (`Cache::at` chose this user's own folder inside any other), and its
        // mode is left as the user set it.
        if st.st_mode & 0o022 != 0 {
            return Err(std::io::Error::other(format!(
                "others may write to {}; set {ENV} to a folder of yours",
                self.dir.display()
            )));
        }
        Ok(Some(std::sync::Arc::new(fd)))
    }

    /// The value of `key`'s entry, if there is one that `decode` accepts. An entry that cannot
    /// be read or is refused is said on standard error in one line (and not used).
    pub fn load<T>(&self, key: &Key, decode: impl FnOnce(&[u8]) -> Result<T, String>) -> Option<T> {
        let path = self.path(key);
        let bytes = match self.read(key) {
            Ok(Some(b)) => b,
            Ok(None) => return None,
            Err(e) => {
                crate::door::say(&format!(
                    "warning: cached table {}: {e}; ignored, computing it again",
                    path.display()
                ));
                return None;
            }
        };
        match decode(&bytes) {
            Ok(v) => Some(v),
            Err(e) => {
                crate::door::say(&format!(
                    "warning: cached table {} not used: {e}; computing it again",
                    path.display()
                ));
                None
            }
        }
    }

    /// The bytes of `key`'s entry (none when there is none), read through the folder's handle:
    /// a regular file within the limit of a solved table, never a link.
    fn read(&self, key: &Key) -> std::io::Result<Option<Vec<u8>>> {
        use rustix::fs::{Mode, OFlags};
        use std::io::Read as _;
        let Some(dir) = self.handle(false)? else {
            return Ok(None);
        };
        let fd = match rustix::fs::openat(
            &*dir,
            key.file_name().as_str(),
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        ) {
            Ok(fd) => fd,
            Err(rustix::io::Errno::NOENT) => return Ok(None),
            Err(rustix::io::Errno::LOOP) => {
                return Err(std::io::Error::other(
                    "it is a symbolic link, which rtplab never makes",
                ))
            }
            Err(e) => return Err(e.into()),
        };
        let f = std::fs::File::from(fd);
        let m = f.metadata()?;
        if !m.is_file() {
            return Err(std::io::Error::other("it is not a file"));
        }
        let limit = super::input::MAX_TABLE_BYTES;
        if m.len() > limit {
            return Err(std::io::Error::other(format!(
                "{} bytes, more than a solved table may have",
                m.len()
            )));
        }
        let mut bytes = Vec::with_capacity(m.len() as usize);
        f.take(limit + 1).read_to_end(&mut bytes)?;
        Ok(Some(bytes))
    }

    /// Save `bytes` as `key`'s entry (the folder made if missing), whole or not at all: a
    /// temporary file in the folder (held while written, so a later run can tell a dead run's
    /// from a live one's and remove it), put at the entry's name in one step; whatever was
    /// at the name (an older entry, a link planted there) is replaced, never followed.
    pub fn save(&self, key: &Key, bytes: &[u8]) -> std::io::Result<PathBuf> {
        let dir = self
            .handle(true)?
            .ok_or_else(|| std::io::Error::other("the cache folder could not be made"))?;
        let name = std::ffi::OsString::from(key.file_name());
        clean_dead(&dir, &name);
        let (tmp, _file, live) = super::at::write_temp(&dir, &name, 0o600, bytes)?;
        let there = match super::at::node_at(&dir, &name) {
            Some((_, rustix::fs::FileType::RegularFile | rustix::fs::FileType::Symlink)) => {
                super::at::ident_at(&dir, &name)
            }
            Some(_) => {
                let _ = super::at::remove_all(&dir, &tmp);
                return Err(std::io::Error::other(
                    "something other than a file is at the entry's name; it was left alone",
                ));
            }
            None => None,
        };
        let shown = || self.path(key).display().to_string();
        let r = super::at::put(&dir, &tmp, &name, there, &shown);
        match r {
            Ok(true) | Err(_) => {
                let _ = super::at::remove_all(&dir, &tmp);
            }
            Ok(false) => {}
        }
        drop(live);
        r?;
        super::at::sync_dir(&dir);
        Ok(self.path(key))
    }

    /// Remove `key`'s entry, if any.
    pub fn remove(&self, key: &Key) -> std::io::Result<()> {
        let Some(dir) = self.handle(false)? else {
            return Ok(());
        };
        match rustix::fs::unlinkat(
            &*dir,
            key.file_name().as_str(),
            rustix::fs::AtFlags::empty(),
        ) {
            Err(e) if e != rustix::io::Errno::NOENT => Err(e.into()),
            _ => Ok(()),
        }
    }

    /// `key`'s value: read from its entry when there is a good one, else computed by
    /// `compute` (given the path it will be saved at) and saved (a failed save is a warning).
    pub fn get_or_compute<T, E>(
        &self,
        key: &Key,
        compute: impl FnOnce(&Path) -> Result<T, E>,
        encode: impl FnOnce(&T) -> Vec<u8>,
        decode: impl FnOnce(&[u8]) -> Result<T, String>,
    ) -> Result<(T, Origin), E> {
        if let Some(v) = self.load(key, decode) {
            return Ok((v, Origin::Loaded(self.path(key))));
        }
        let path = self.path(key);
        let v = compute(&path)?;
        let saved = match self.save(key, &encode(&v)) {
            Ok(p) => Some(p),
            Err(e) => {
                crate::door::say(&format!(
                    "warning: the solved table could not be saved at {}: {e}",
                    path.display()
                ));
                None
            }
        };
        Ok((v, Origin::Computed(saved)))
    }

    /// The entries in the folder (name, bytes), by name; none when the folder is missing.
    pub fn entries(&self) -> std::io::Result<Vec<(String, u64)>> {
        let Some(dir) = self.handle(false)? else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for n in super::at::list(&dir)? {
            let Some(name) = n.to_str() else { continue };
            let Ok(st) = rustix::fs::statat(&*dir, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
            else {
                continue;
            };
            let file = rustix::fs::FileType::from_raw_mode(st.st_mode)
                == rustix::fs::FileType::RegularFile;
            if name.ends_with(SUFFIX) && file {
                out.push((name.to_string(), st.st_size as u64));
            }
        }
        out.sort();
        Ok(out)
    }

    /// Remove every entry (only files named as entries: nothing else in the folder is
    /// touched), and the temporary files of runs that died. Returns the entries removed and
    /// their bytes.
    pub fn clear(&self) -> std::io::Result<(usize, u64)> {
        let entries = self.entries()?;
        let bytes = entries.iter().map(|(_, b)| b).sum();
        if let Some(dir) = self.handle(false)? {
            for (name, _) in &entries {
                rustix::fs::unlinkat(&*dir, name.as_str(), rustix::fs::AtFlags::empty())?;
                clean_dead(&dir, std::ffi::OsStr::new(name));
            }
        }
        Ok((entries.len(), bytes))
    }
}

/// Remove the temporary files a dead run left beside the entry `name`: those no live run
/// holds (a run holds its temporary file locked while it writes it).
fn clean_dead(dir: &super::at::Dirfd, name: &std::ffi::OsStr) {
    use rustix::fs::{Mode, OFlags};
    let Ok(all) = super::at::list(dir) else {
        return;
    };
    for e in all {
        if !super::names::is_side(name, &e) {
            continue;
        }
        let Ok(fd) = rustix::fs::openat(
            &**dir,
            &*e,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        ) else {
            continue;
        };
        let f = std::fs::File::from(fd);
        if f.try_lock().is_ok() {
            let _ = rustix::fs::unlinkat(&**dir, &*e, rustix::fs::AtFlags::empty());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("rtplab-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    fn key(identity: &str) -> Key {
        Key {
            kind: "test".into(),
            version: 1,
            identity: identity.into(),
        }
    }

    #[test]
    fn the_folder_follows_the_environment() {
        assert_eq!(
            folder_from(Some("/c"), Some("/x"), Some("/h")).unwrap(),
            PathBuf::from("/c")
        );
        assert_eq!(
            folder_from(Some(""), Some("/x"), Some("/h")).unwrap(),
            PathBuf::from("/x/rtplab")
        );
        assert_eq!(
            folder_from(None, None, Some("/h")).unwrap(),
            PathBuf::from("/h/.cache/rtplab")
        );
        assert_eq!(folder_from(None, None, None), Err(CacheError::NoHome));
    }

    #[test]
    fn names_change_with_kind_version_and_identity() {
        let a = key("rules a");
        assert_ne!(a.file_name(), key("rules b").file_name());
        assert_ne!(
            a.file_name(),
            Key {
                version: 2,
                ..a.clone()
            }
            .file_name()
        );
        assert_ne!(
            a.file_name(),
            Key {
                kind: "other".into(),
                ..a.clone()
            }
            .file_name()
        );
        assert!(a.file_name().starts_with("test-v1-") && a.file_name().ends_with(SUFFIX));
    }

    #[test]
    fn an_entry_round_trips_and_a_bad_one_is_computed_again() {
        let d = scratch("round");
        let c = Cache::at(d.join("sub")).unwrap();
        let k = key("x");
        let decode = |b: &[u8]| {
            if b.starts_with(b"ok:") {
                Ok(b[3..].to_vec())
            } else {
                Err("not ok".to_string())
            }
        };
        let encode = |v: &Vec<u8>| [b"ok:".as_slice(), v].concat();
        let computed = std::cell::Cell::new(0);
        let compute = |_: &Path| -> Result<Vec<u8>, ()> {
            computed.set(computed.get() + 1);
            Ok(b"value".to_vec())
        };
        let (v, o) = c.get_or_compute(&k, compute, encode, decode).unwrap();
        assert_eq!(
            (v.as_slice(), &o),
            (&b"value"[..], &Origin::Computed(Some(c.path(&k))))
        );
        let (v, o) = c.get_or_compute(&k, compute, encode, decode).unwrap();
        assert_eq!(
            (v.as_slice(), &o),
            (&b"value"[..], &Origin::Loaded(c.path(&k)))
        );
        assert_eq!(computed.get(), 1);
        // Damaged: refused by the decoder, computed again and replaced.
        std::fs::write(c.path(&k), b"garbage").unwrap();
        let (_, o) = c.get_or_compute(&k, compute, encode, decode).unwrap();
        assert_eq!(o, Origin::Computed(Some(c.path(&k))));
        assert_eq!(computed.get(), 2);
        assert_eq!(std::fs::read(c.path(&k)).unwrap(), b"ok:value");
        // A folder where the entry should be: not read, not saved, computed all the same.
        std::fs::remove_file(c.path(&k)).unwrap();
        std::fs::create_dir(c.path(&k)).unwrap();
        let (_, o) = c.get_or_compute(&k, compute, encode, decode).unwrap();
        assert_eq!(o, Origin::Computed(None));
        std::fs::remove_dir(c.path(&k)).unwrap();
        // Listed and cleared: only entries, nothing else in the folder.
        c.save(&k, b"ok:1").unwrap();
        std::fs::write(c.dir().join("mine.txt"), "keep").unwrap();
        assert_eq!(c.entries().unwrap(), [(k.file_name(), 4)]);
        assert_eq!(c.clear().unwrap(), (1, 4));
        assert!(c.entries().unwrap().is_empty());
        assert!(c.dir().join("mine.txt").exists());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_sealed_entry_opens_only_whole_and_for_its_key() {
        let k = key("rules a\nwith lines");
        let sealed = seal(&k, b"body\nbytes");
        assert_eq!(unseal(&k, &sealed).unwrap(), b"body\nbytes");
        assert_eq!(unseal(&k, &seal(&k, b"")).unwrap(), b"");
        for n in 0..sealed.len() {
            assert!(unseal(&k, &sealed[..n]).is_err(), "cut at {n}");
            let mut flipped = sealed.clone();
            flipped[n] ^= 0x10;
            assert!(unseal(&k, &flipped).is_err(), "flipped at {n}");
        }
        let e = unseal(&key("rules b"), &sealed).unwrap_err();
        assert!(e.contains("identity"), "{e}");
        let v2 = Key {
            version: 2,
            ..k.clone()
        };
        let e = unseal(&v2, &sealed).unwrap_err();
        assert!(e.contains("test v1 where test v2"), "{e}");
    }

    #[test]
    fn a_file_where_the_folder_should_be_is_refused() {
        let d = scratch("file");
        std::fs::create_dir_all(&d).unwrap();
        let f = d.join("f");
        std::fs::write(&f, "").unwrap();
        let e = Cache::at(f.clone()).unwrap_err();
        assert!(matches!(e, CacheError::NotFolder { .. }), "{e}");
        let e = Cache::at(f.join("rtplab")).unwrap_err();
        assert!(e.to_string().contains("not a folder"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
