//! The names of the files the door makes beside an output: its lock (`.NAME.rtplab-lock`),
//! its temporary files and folders (`.NAME.XXXXXX.rtplab-tmp`) and an out-dir's old copy
//! while it is swapped (`.NAME.XXXXXX.rtplab-old`). A name too long for the filesystem with
//! these around it is shortened to a prefix and a hash of the whole name, so outputs with
//! names up to the filesystem's limit work.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt as _;

/// The longest file name (bytes) of the filesystems rtplab writes to (ext4, xfs, btrfs, tmpfs).
pub const NAME_MAX: usize = 255;

/// The lock file's suffix.
pub const LOCK: &str = ".rtplab-lock";
/// A temporary file's or folder's suffix.
pub const TMP: &str = ".rtplab-tmp";
/// An out-dir's old copy's suffix (between the swap and its removal).
pub const OLD: &str = ".rtplab-old";
/// Random characters in a temporary name.
pub const RAND: usize = 6;

/// The stem every side file of the output named `name` starts with: `.NAME.`, or when that
/// would leave no room for the longest suffix, `.PREFIX~HASH.` within the limit.
pub fn stem(name: &OsStr) -> OsString {
    let bytes = name.as_bytes();
    // The longest side name: stem + RAND + the longest suffix.
    let room = NAME_MAX - RAND - 1 - LOCK.len().max(TMP.len()).max(OLD.len()) - 2;
    let mut out = OsString::from(".");
    if bytes.len() <= room {
        out.push(name);
    } else {
        let hash = format!("~{:016x}", fnv1a64(bytes));
        let keep = room - hash.len();
        // Cut on a character boundary where the name is UTF-8 (any byte boundary otherwise).
        let cut = match std::str::from_utf8(bytes) {
            Ok(s) => (0..=keep)
                .rev()
                .find(|&i| s.is_char_boundary(i))
                .unwrap_or(0),
            Err(_) => keep,
        };
        out.push(OsStr::from_bytes(&bytes[..cut]));
        out.push(hash);
    }
    out.push(".");
    out
}

/// The lock file's name of the output named `name`.
pub fn lock(name: &OsStr) -> OsString {
    let mut s = stem(name);
    // `.NAME.` + `rtplab-lock`: the stem's dot is the suffix's.
    s.push(&LOCK[1..]);
    s
}

/// Whether `entry` (a name in the output's folder) is a temporary file or folder, or an old
/// copy, of the output named `name` (left by a run that died).
pub fn is_side(name: &OsStr, entry: &OsStr) -> bool {
    let stem = stem(name);
    let (s, e) = (stem.as_bytes(), entry.as_bytes());
    if !e.starts_with(s) {
        return false;
    }
    let rest = &e[s.len()..];
    [TMP, OLD].iter().any(|suffix| {
        rest.len() == RAND + suffix.len()
            && rest.ends_with(suffix.as_bytes())
            && rest[..RAND].iter().all(u8::is_ascii_alphanumeric)
    })
}

/// Whether a name is one the door gives a result it kept beside an output whose name changed
/// during the run (`NAME.rtplab-kept-XXXXXX`).
pub fn is_kept(name: &[u8]) -> bool {
    const KEPT: &[u8] = b".rtplab-kept-";
    name.len() > KEPT.len() + RAND
        && name[..name.len() - RAND].ends_with(KEPT)
        && name[name.len() - RAND..]
            .iter()
            .all(u8::is_ascii_alphanumeric)
}

fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_names_fit_the_filesystem_and_are_recognised() {
        assert_eq!(lock(OsStr::new("r.json")), ".r.json.rtplab-lock");
        let tmp = OsString::from(".r.json.Ab12Cd.rtplab-tmp");
        assert!(is_side(OsStr::new("r.json"), &tmp));
        assert!(is_side(
            OsStr::new("r.json"),
            OsStr::new(".r.json.zzzzzz.rtplab-old")
        ));
        // Not another output's, not a lock, not a user's file.
        assert!(!is_side(OsStr::new("r"), &tmp));
        assert!(!is_side(
            OsStr::new("r.json"),
            OsStr::new(".r.json.rtplab-lock")
        ));
        assert!(!is_side(
            OsStr::new("r.json"),
            OsStr::new(".r.json.a/b..c.rtplab-tmp")
        ));
        // The longest name a filesystem takes still has side names within its limit, one per
        // name (two long names that share a prefix differ).
        for n in [200, 240, 255] {
            let a = "é".repeat(n / 2) + &"a".repeat(n % 2);
            let b = "é".repeat(n / 2) + &"b".repeat(n % 2 + 1);
            let a = &a[..a.len().min(255)];
            for name in [a, &b[..b.len().min(255)]] {
                let longest = stem(OsStr::new(name)).len() + RAND + OLD.len().max(TMP.len());
                assert!(longest <= NAME_MAX, "{n}: {longest}");
                assert!(lock(OsStr::new(name)).len() <= NAME_MAX);
                assert!(std::str::from_utf8(stem(OsStr::new(name)).as_bytes()).is_ok());
            }
            if a.len() > 200 {
                assert_ne!(
                    stem(OsStr::new(a)),
                    stem(OsStr::new(&b[..b.len().min(255)]))
                );
            }
        }
    }
}
