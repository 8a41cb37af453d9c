//! What a file is, for the checks between a command's files: its identity (device and
//! inode, or a name in a folder) and its kind in words.

use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _};

/// What a file is, for the checks that compare outputs and inputs: a file that exists (its
/// device and inode), or a name in a folder (the folder's device and inode).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Id {
    Node(u64, u64),
    New(u64, u64, std::ffi::OsString),
}

impl Id {
    pub fn of(m: &std::fs::Metadata) -> Id {
        Id::Node(m.dev(), m.ino())
    }
}

/// What kind of special file `m` is, in words.
pub fn kind_name(m: &std::fs::Metadata) -> &'static str {
    let t = m.file_type();
    if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device (a disk)"
    } else if t.is_dir() {
        "a folder"
    } else {
        "a file"
    }
}
