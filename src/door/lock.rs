//! Holding an output for the run: a lock file beside it (`.NAME.rtplab-lock`, holding the
//! holder's process id) with an advisory lock of the operating system, which ends with the
//! process however it ends, so a run that crashed or was killed leaves nothing held.
//!
//! The lock file is opened so that nothing is followed: not a symbolic link planted at its
//! name (refused), not a hard link to another file (refused: a lock file has one name), not
//! another user's file (reported, with what to do). Only a file that is a lock file of this
//! user is ever truncated.

use std::io::{Read as _, Write as _};
use std::os::unix::fs::MetadataExt as _;
use std::path::Path;
use std::sync::Mutex;

use rustix::fs::{AtFlags, Mode, OFlags};

use super::at::{self, Node, Place};
use super::output::OutputError;

/// The lock files of this process (their place and identity): removed by [`abandon`] when the
/// process must end at once, by [`Held`]'s drop otherwise.
static LOCKS: Mutex<Vec<(Place, Node)>> = Mutex::new(Vec::new());

/// The outputs held by this process, released (lock files removed) when dropped.
#[derive(Debug, Default)]
pub struct Held {
    locks: Vec<(Place, std::fs::File)>,
}

/// Remove a lock file at `p` if it is still ours (nothing put in its place is removed).
fn remove_ours(p: &Place, ours: Node) {
    if at::node_at(&p.dir, &p.name).map(|n| n.0) == Some(ours) {
        let _ = rustix::fs::unlinkat(&*p.dir, &*p.name, AtFlags::empty());
    }
}

/// Remove every lock file of this process (it is ending at once).
pub fn abandon() {
    if let Ok(l) = LOCKS.try_lock() {
        for (p, n) in l.iter() {
            remove_ours(p, *n);
        }
    }
}

impl Held {
    /// Hold the output of `flag` whose lock file is at `lock`.
    pub fn hold(&mut self, flag: &str, shown: &Path, lock: Place) -> Result<(), OutputError> {
        let lock_shown = {
            let beside = at::split(shown)
                .map(|(p, _)| p)
                .filter(|p| p != Path::new("."));
            match beside {
                Some(p) => p.join(&lock.name).display().to_string(),
                None => Path::new(&lock.name).display().to_string(),
            }
        };
        let err = |why: String| OutputError::Lock {
            flag: flag.to_string(),
            path: shown.display().to_string(),
            lock: lock_shown.clone(),
            why,
        };
        loop {
            let fd = match rustix::fs::openat(
                &*lock.dir,
                &*lock.name,
                OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::from_raw_mode(0o644),
            ) {
                Ok(fd) => fd,
                Err(rustix::io::Errno::LOOP) => {
                    return Err(err(
                        "it is a symbolic link, which rtplab never makes; remove it".into(),
                    ))
                }
                Err(rustix::io::Errno::ACCESS) => return Err(other_user(&lock, err)),
                Err(e) => return Err(err(std::io::Error::from(e).to_string())),
            };
            let mut file = std::fs::File::from(fd);
            let meta = file.metadata().map_err(|e| err(e.to_string()))?;
            if !meta.is_file() || meta.nlink() != 1 {
                return Err(err(
                    "it is not a lock file rtplab made (another kind of file, or a file with other names); remove it".into(),
                ));
            }
            let mine = meta.uid() == rustix::process::geteuid().as_raw();
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    let mut pid = String::new();
                    let _ = (&file).take(32).read_to_string(&mut pid);
                    let pid = pid.trim();
                    return Err(OutputError::Busy {
                        flag: flag.to_string(),
                        path: shown.display().to_string(),
                        holder: if pid.is_empty() {
                            String::new()
                        } else {
                            format!(" (process {pid})")
                        },
                    });
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    // A filesystem without advisory locks: run unheld rather than not at all.
                    crate::door::say(&format!(
                        "warning: {flag} {} cannot be held against other runs ({e}); do not start two runs on it",
                        shown.display()
                    ));
                    if mine {
                        let _ = rustix::fs::unlinkat(&*lock.dir, &*lock.name, AtFlags::empty());
                    }
                    return Ok(());
                }
            }
            if !mine {
                return Err(other_user(&lock, err));
            }
            // The holder before us may have removed the lock file between our open and our
            // lock: then we hold a file no one else sees; open the path again.
            let node = (meta.dev(), meta.ino());
            if at::node_at(&lock.dir, &lock.name).map(|n| n.0) != Some(node) {
                continue;
            }
            let _ = file
                .set_len(0)
                .and_then(|_| write!(file, "{}", std::process::id()));
            if let Ok(mut l) = LOCKS.lock() {
                l.push((lock.clone(), node));
            }
            self.locks.push((lock, file));
            return Ok(());
        }
    }
}

/// The error for a lock file of another user's run that is not running (or that this user
/// cannot open): what to do about it.
fn other_user(lock: &Place, err: impl Fn(String) -> OutputError) -> OutputError {
    let owner = rustix::fs::statat(&*lock.dir, &*lock.name, AtFlags::SYMLINK_NOFOLLOW)
        .map(|m| format!("user id {}", m.st_uid))
        .unwrap_or_else(|_| "another user".into());
    err(format!(
        "it belongs to {owner}, left by their run; if no run of theirs is writing this output, remove it (or ask them to), or choose another path"
    ))
}

impl Drop for Held {
    fn drop(&mut self) {
        // Removed while still locked, then unlocked by closing (see `hold` for the race); only
        // if the name is still our lock file (nothing put in its place is removed).
        for (place, file) in self.locks.drain(..) {
            if let Ok(m) = file.metadata() {
                let node = (m.dev(), m.ino());
                remove_ours(&place, node);
                if let Ok(mut l) = LOCKS.lock() {
                    l.retain(|(_, n)| *n != node);
                }
            }
            drop(file);
        }
    }
}
