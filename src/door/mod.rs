//! The one door every file of a command goes through.
//!
//! A command declares what it reads and writes as a [`Plan`]: each input (a flag, a path, a
//! kind with its size limit) and each output (a flag, a path, a kind). [`Door::open`] checks
//! them all together before any work, and *holds* them: every file and folder is opened once,
//! here, and from then on read, written, renamed and removed through that handle ([`at`]),
//! never by its name again, so whatever is swapped in at a name during the run is not
//! followed.
//!
//! - every input is opened the way it will be read (a regular file within its kind's limit,
//!   a folder where the kind is one, standard input for `-`) and held open: its readers
//!   ([`input`]) read the file the check saw;
//! - every output is writable the way it will be written ([`output`]: a regular file through
//!   a temporary file in its held folder, put at its name in one step; a report folder built
//!   beside and exchanged; a special file or descriptor, known by identity, opened now without
//!   blocking and written in place);
//! - outputs are distinct from each other and from every input by file identity (device and
//!   inode, or folder and name for a file not yet made), standard input and output included,
//!   and no output lies inside an `--out-dir` (which is replaced whole) or a folder read
//!   (known by walking up from the held folder, not by comparing spellings);
//! - each output is held against other runs for the whole run ([`lock`]), and what a dead
//!   run left beside it (temporary files) is removed.
//!
//! The door then writes the outputs ([`Door::write`], [`Door::write_dir`]); files a command
//! writes while it runs (shard checkpoints, blessed baselines, solved tables) go through
//! [`replace`], which finds the held place of the path. A signal during a write lets the write
//! finish ([`writing`]); an abort removes every temporary and lock file ([`abandon`]).

pub mod at;
pub mod browse;
pub mod cache;
pub mod identity;
pub mod input;
mod lock;
pub mod names;
pub mod output;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

pub use at::Place;
pub use identity::Id;
pub use input::{InputError, InputKind};
pub use output::{OutputError, OutputKind, Target, MANIFEST};

/// What a command reads and writes.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub inputs: Vec<Input>,
    pub outputs: Vec<Output>,
}

/// An input of a command: the flag that names it (or what it is, for an argument), its path
/// (`-`: standard input), its kind.
#[derive(Clone, Debug)]
pub struct Input {
    pub flag: String,
    pub path: PathBuf,
    pub kind: InputKind,
}

/// An output of a command: the flag that names it, its path (`-`: standard output), its kind.
#[derive(Clone, Debug)]
pub struct Output {
    pub flag: String,
    pub path: PathBuf,
    pub kind: OutputKind,
}

impl Plan {
    /// The input `path` of `flag`.
    pub fn input(&mut self, flag: &str, path: impl Into<PathBuf>, kind: InputKind) -> &mut Self {
        self.inputs.push(Input {
            flag: flag.into(),
            path: path.into(),
            kind,
        });
        self
    }

    /// A value of `flag` that names either a built-in (a strategy, a count) or a file: an
    /// input when [`names_file`] says it names a file (`builtin`: whether the command knows
    /// the value as one of its built-in names).
    pub fn maybe_input(
        &mut self,
        flag: &str,
        value: &std::ffi::OsStr,
        kind: InputKind,
        builtin: bool,
    ) -> &mut Self {
        if names_file(value, builtin) {
            self.input(flag, value, kind);
        }
        self
    }

    /// The output `path` of `flag`, if given.
    pub fn output(&mut self, flag: &str, path: Option<&Path>, kind: OutputKind) -> &mut Self {
        if let Some(p) = path {
            self.outputs.push(Output {
                flag: flag.into(),
                path: p.to_path_buf(),
                kind,
            });
        }
        self
    }
}

/// Whether a value names a file rather than a built-in: it contains a `/` or ends with
/// `.csv`, `.txt` or `.json`.
pub fn is_path(value: &str) -> bool {
    value.contains('/')
        || value.ends_with(".csv")
        || value.ends_with(".txt")
        || value.ends_with(".json")
        || value.ends_with(".toml")
}

/// The one rule for a value that may name a built-in or a file (every command's resolver and
/// the door use it): a value with a `/` is a file; else a built-in name is the built-in,
/// whatever the working folder holds; else it is a file when it looks like one
/// ([`is_path`]) or something of that name exists.
pub fn names_file(value: &std::ffi::OsStr, builtin: bool) -> bool {
    use std::os::unix::ffi::OsStrExt as _;
    if value.as_bytes().contains(&b'/') {
        return true;
    }
    if builtin {
        return false;
    }
    value.to_str().is_some_and(is_path) || std::fs::symlink_metadata(value).is_ok()
}

/// Why a command's files cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DoorError {
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error(transparent)]
    Input(#[from] InputError),
}

/// A command's files, checked and held: released (lock files removed) when dropped.
#[derive(Debug)]
pub struct Door {
    outputs: Vec<(String, Arc<Target>)>,
    inputs: Vec<Arc<input::Held>>,
    _held: lock::Held,
}

/// The files held by the open doors of this process, by the path they were given as: the
/// readers and [`replace`] find their handles here.
#[derive(Default)]
struct Registry {
    outputs: Vec<(PathBuf, Arc<Target>)>,
    inputs: Vec<Arc<input::Held>>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    outputs: Vec::new(),
    inputs: Vec::new(),
});

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// The held input given as `path`, if a door holds one.
pub(crate) fn held_input(path: &Path) -> Option<Arc<input::Held>> {
    registry()
        .inputs
        .iter()
        .find(|h| h.path.as_os_str() == path.as_os_str())
        .cloned()
}

/// The held output given as `path` (or the held folder of files `path` lies in).
fn held_output(path: &Path) -> Option<(Arc<Target>, Option<std::ffi::OsString>)> {
    let r = registry();
    if let Some((_, t)) = r
        .outputs
        .iter()
        .find(|(p, _)| p.as_os_str() == path.as_os_str())
    {
        return Some((t.clone(), None));
    }
    let (parent, name) = at::split(path)?;
    r.outputs
        .iter()
        .find(|(p, t)| matches!(**t, Target::Files(..)) && *p == parent)
        .map(|(_, t)| (t.clone(), Some(name)))
}

/// The held place of the regular-file output given as `path`, if a door holds one.
pub(crate) fn held_output_place(path: &Path) -> Option<Place> {
    match held_output(path) {
        Some((t, None)) => match &*t {
            Target::File(f) => Some(f.place.clone()),
            _ => None,
        },
        Some((t, Some(name))) => match &*t {
            Target::Files(dir, _) => Some(Place {
                dir: dir.clone(),
                name,
            }),
            _ => None,
        },
        None => None,
    }
}

/// Whether something is at `path`: at its held place where a door holds it as an output (a
/// shard file resumed), else by name.
pub fn exists(path: &Path) -> bool {
    match held_output_place(path) {
        Some(p) => at::node_at(&p.dir, &p.name).is_some(),
        None => std::fs::symlink_metadata(path).is_ok(),
    }
}

impl Door {
    /// A door with no files (a library caller that writes nothing).
    pub fn none() -> Door {
        Door {
            outputs: Vec::new(),
            inputs: Vec::new(),
            _held: lock::Held::default(),
        }
    }

    /// Check every input and output of `plan` together and hold them.
    pub fn open(plan: &Plan) -> Result<Door, DoorError> {
        Door::open_holding(plan, Vec::new())
    }

    /// [`Door::open`], with inputs its caller holds already (each known by the path the plan
    /// gives it; see [`input::Held::opened`]): those are not opened by name again.
    pub fn open_holding(plan: &Plan, mut held: Vec<input::Held>) -> Result<Door, DoorError> {
        let mut ins = Vec::new();
        for i in &plan.inputs {
            let given = held
                .iter()
                .position(|h| h.path.as_os_str() == i.path.as_os_str())
                .map(|k| held.swap_remove(k));
            let held = match given {
                Some(h) => h,
                None => input::hold(&i.path, i.kind, &i.flag)?,
            };
            ins.push((i, held));
        }
        let mut outs = Vec::new();
        for o in &plan.outputs {
            outs.push((o, output::check(&o.flag, &o.path, o.kind)?));
        }
        relate(&ins, &outs)?;
        let mut held = lock::Held::default();
        let mut targets = Vec::new();
        for (o, c) in outs {
            if let Some(lock) = c.lock {
                held.hold(&o.flag, &o.path, lock)?;
            }
            if let Some(home) = &c.home {
                output::clean_stale(home);
            }
            targets.push((o.flag.clone(), o.path.clone(), Arc::new(c.target)));
        }
        let inputs: Vec<Arc<input::Held>> = ins.into_iter().map(|(_, h)| Arc::new(h)).collect();
        let mut r = registry();
        r.inputs.extend(inputs.iter().cloned());
        r.outputs
            .extend(targets.iter().map(|(_, p, t)| (p.clone(), t.clone())));
        drop(r);
        Ok(Door {
            outputs: targets.into_iter().map(|(f, _, t)| (f, t)).collect(),
            inputs,
            _held: held,
        })
    }

    /// The target of output `flag`, if the command has it.
    pub fn target(&self, flag: &str) -> Option<&Target> {
        self.outputs
            .iter()
            .find(|(f, _)| f == flag)
            .map(|(_, t)| &**t)
    }

    /// Write `bytes` to output `flag` (standard output when the command has no such output):
    /// a regular file replaced whole, a special file or standard output written in place. A
    /// pipe closed by its reader (a broken pipe) is not an error.
    pub fn write(&self, flag: &str, bytes: &[u8]) -> std::io::Result<()> {
        pause_once();
        let _w = Writing::start();
        let r = match self.target(flag) {
            Some(Target::File(t)) => output::replace_file(t, bytes),
            Some(Target::InPlace(f)) => output::write_in_place(f, bytes),
            Some(Target::Dir(_) | Target::Files(..)) => {
                Err(std::io::Error::other(format!("{flag} is a folder")))
            }
            Some(Target::Stdout) | None => write_stdout(bytes),
        };
        if r.is_ok() {
            record(flag);
        }
        r
    }

    /// Write `bytes` to output `flag` (as [`Door::write`]); if that fails, keep them under the
    /// system's temporary folder. The error, if any, says what failed and where the bytes are.
    pub fn write_or_keep(&self, flag: &str, shown: &Path, bytes: &[u8]) -> Result<(), String> {
        self.write(flag, bytes).map_err(|e| {
            let what = format!("cannot write {flag} {}: {e}", shown.display());
            if output::is_kept(&e) {
                return what;
            }
            match output::save_fallback(shown, bytes) {
                Ok(p) => format!("{what}; it was saved to {} instead", p.display()),
                Err(e2) => format!("{what}; saving it elsewhere failed too ({e2})"),
            }
        })
    }

    /// Write output `flag` (as [`Door::write`]) from what `fill` writes, streamed: a result
    /// too large to hold (a round log). A regular file gets it through a temporary file put at
    /// its name once `fill` ends, whether `fill` ran to the end or stopped early (a signal:
    /// the writer marks such a file as partial itself); an error of `fill` leaves nothing.
    pub fn write_stream(
        &self,
        flag: &str,
        fill: &mut dyn FnMut(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        pause_once();
        let r = match self.target(flag) {
            Some(Target::File(t)) => output::replace_file_with(t, fill),
            Some(Target::InPlace(f)) => {
                let mut w = std::io::BufWriter::with_capacity(1 << 16, output::InPlaceWriter(f));
                fill(&mut w).and_then(|_| std::io::Write::flush(&mut w))
            }
            Some(Target::Dir(_) | Target::Files(..)) => {
                Err(std::io::Error::other(format!("{flag} is a folder")))
            }
            Some(Target::Stdout) | None => {
                let mut w =
                    std::io::BufWriter::with_capacity(1 << 16, output::InPlaceWriter(out_fd()));
                match fill(&mut w).and_then(|_| std::io::Write::flush(&mut w)) {
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                    r => r,
                }
            }
        };
        if r.is_ok() {
            record(flag);
        }
        r
    }

    /// Write the report folder of output `flag` (see [`output::replace_dir`]).
    pub fn write_dir(
        &self,
        flag: &str,
        fill: impl FnOnce(&Path) -> std::io::Result<Vec<PathBuf>>,
    ) -> std::io::Result<Vec<PathBuf>> {
        pause_once();
        let _w = Writing::start();
        let r = match self.target(flag) {
            Some(Target::Dir(t)) => output::replace_dir(t, fill),
            _ => Err(std::io::Error::other(format!("{flag} is not a folder"))),
        };
        if r.is_ok() {
            record(flag);
        }
        r
    }
}

impl Drop for Door {
    fn drop(&mut self) {
        let mut r = registry();
        r.inputs
            .retain(|h| !self.inputs.iter().any(|m| Arc::ptr_eq(h, m)));
        r.outputs
            .retain(|(_, t)| !self.outputs.iter().any(|(_, m)| Arc::ptr_eq(t, m)));
    }
}

/// Write to standard output (in place, as a held special file is); a closed one (a broken
/// pipe) is not an error.
pub fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    out.flush().ok();
    let r = output::write_in_place(out_fd(), bytes);
    match r {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

fn out_fd() -> rustix::fd::BorrowedFd<'static> {
    rustix::stdio::stdout()
}

/// Say `text` on standard error, as one line; a standard error that cannot be written (closed,
/// a full disk, a file-size limit) is ignored: a message never stops a run.
pub fn say(text: &str) {
    use std::io::Write as _;
    let mut e = std::io::stderr().lock();
    let _ = e
        .write_all(text.as_bytes())
        .and_then(|_| e.write_all(b"\n"));
}

/// Every output distinct from every input and from every other output it could lose (one
/// replaced by a rename), standard output included when the report goes there.
fn distinct(
    ins: &[(&Input, input::Held)],
    outs: &[(&Output, output::Checked)],
) -> Result<(), OutputError> {
    let shown = |o: &Output| o.path.display().to_string();
    // Standard output, when the report goes there, is an output too.
    let to_stdout = !outs
        .iter()
        .any(|(o, _)| o.flag == "--output" && o.path.as_os_str() != "-");
    let stdout = to_stdout.then(output::stdout_id).flatten();
    // The report printed into a file the command reads (`monitor log.csv >> log.csv`).
    if let Some(s) = &stdout {
        if let Some((inp, _)) = ins
            .iter()
            .find(|(i, h)| h.id.as_ref() == Some(s) && i.path.as_os_str() != "-")
        {
            return Err(OutputError::IsInput {
                flag: "standard output".into(),
                path: "(where the report goes)".into(),
                input: named(inp),
            });
        }
    }
    for (i, (o, c)) in outs.iter().enumerate() {
        let Some(id) = &c.id else { continue };
        for (inp, h) in ins {
            // The folder `check --bless` reads is the one it rewrites: that is what it is for.
            let rewritten = inp.kind == InputKind::Folder && matches!(c.target, Target::Files(..));
            if h.id.as_ref() == Some(id) && !rewritten {
                return Err(OutputError::IsInput {
                    flag: o.flag.clone(),
                    path: shown(o),
                    input: named(inp),
                });
            }
        }
        // Two outputs on one file lose one of them only where one is replaced by a rename;
        // written in place one after the other (a report and a ramp both to a redirected
        // standard output, or into a pipe) both arrive.
        let renamed = |c: &output::Checked| matches!(c.target, Target::File(_) | Target::Dir(_));
        if let (Some(s), true) = (&stdout, renamed(c)) {
            if s == id {
                return Err(OutputError::Twice {
                    flag: o.flag.clone(),
                    path: shown(o),
                    other: "standard output (where the report goes)".into(),
                });
            }
        }
        for (o2, c2) in &outs[..i] {
            if c2.id.as_ref() == Some(id) && (renamed(c) || renamed(c2)) {
                return Err(OutputError::Twice {
                    flag: o.flag.clone(),
                    path: shown(o),
                    other: o2.flag.clone(),
                });
            }
        }
    }
    Ok(())
}

/// The identity of an existing report folder among `outs`, with its output.
fn out_dirs<'a>(outs: &'a [(&Output, output::Checked)]) -> Vec<(&'a Output, at::Node)> {
    outs.iter()
        .filter_map(|(o, c)| match &c.target {
            Target::Dir(t) => t.old.map(|old| (*o, old.node)),
            _ => None,
        })
        .collect()
}

/// No output inside (or named as) an input folder, nor inside a report folder: known by
/// walking up from each output's held folder.
fn outside_folders(
    ins: &[(&Input, input::Held)],
    outs: &[(&Output, output::Checked)],
) -> Result<(), OutputError> {
    let shown = |o: &Output| o.path.display().to_string();
    let folders: Vec<(&Input, at::Node)> = ins
        .iter()
        .filter(|(i, _)| i.kind == InputKind::Folder)
        .filter_map(|(i, h)| h.node().map(|n| (*i, n)))
        .collect();
    let dirs = out_dirs(outs);
    for (o, c) in outs {
        let Some(home) = &c.home else { continue };
        let own = match &c.target {
            Target::Dir(t) => t.old.map(|x| x.node),
            _ => None,
        };
        if let Some((i, _)) = folders
            .iter()
            .find(|(_, n)| at::within(&home.dir, *n) || own == Some(*n))
        {
            return Err(OutputError::InInputFolder {
                flag: o.flag.clone(),
                path: shown(o),
                input: i.path.display().to_string(),
            });
        }
        if let Some((d, _)) = dirs
            .iter()
            .find(|(_, n)| own != Some(*n) && at::within(&home.dir, *n))
        {
            return Err(OutputError::InOutDir {
                flag: o.flag.clone(),
                path: shown(o),
                dir: d.path.display().to_string(),
            });
        }
    }
    Ok(())
}

/// A report folder that exists (and is replaced) holds no input, nor lies inside an input
/// folder.
fn replaced_dirs_hold_no_input(
    ins: &[(&Input, input::Held)],
    outs: &[(&Output, output::Checked)],
) -> Result<(), OutputError> {
    for (d, node) in out_dirs(outs) {
        let home = outs.iter().find_map(|(o, c)| match (&c.target, *o) {
            (Target::Dir(t), o) if std::ptr::eq(o, d) => Some(t.place.dir.clone()),
            _ => None,
        });
        for (inp, h) in ins {
            if inp.path.as_os_str() == "-" {
                continue;
            }
            let inside = h.folder().is_some_and(|f| at::within(f, node));
            let holds = inp.kind == InputKind::Folder
                && h.node()
                    .is_some_and(|n| home.as_ref().is_some_and(|hd| at::within(hd, n)));
            if inside || holds {
                return Err(OutputError::HoldsInput {
                    path: d.path.display().to_string(),
                    input: inp.path.display().to_string(),
                });
            }
        }
    }
    Ok(())
}

/// The checks between a command's files: every output distinct from every other output and
/// from every input, none inside an input folder or inside the `--out-dir`, and an out-dir
/// that is replaced holds no input.
fn relate(
    ins: &[(&Input, input::Held)],
    outs: &[(&Output, output::Checked)],
) -> Result<(), OutputError> {
    distinct(ins, outs)?;
    outside_folders(ins, outs)?;
    replaced_dirs_hold_no_input(ins, outs)
}

/// How an input is named in messages: `--flag PATH`, or the path of an argument.
fn named(i: &Input) -> String {
    if i.path.as_os_str() == "-" {
        format!("{} (standard input)", i.flag)
    } else if i.flag.starts_with('-') {
        format!("{} {}", i.flag, i.path.display())
    } else {
        i.path.display().to_string()
    }
}

/// Temporary files and folders being written now (their held folder and name): removed by
/// [`abandon`] if the process must end at once.
static LIVE: Mutex<Vec<(u64, Place)>> = Mutex::new(Vec::new());

/// A temporary file or folder registered while it exists (removed from the list when
/// dropped).
pub(crate) struct Live(u64);

impl Live {
    pub(crate) fn new(p: Place) -> Live {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let id = NEXT.fetch_add(1, Ordering::SeqCst);
        if let Ok(mut l) = LIVE.lock() {
            l.push((id, p));
        }
        Live(id)
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        if let Ok(mut l) = LIVE.lock() {
            l.retain(|(id, _)| *id != self.0);
        }
    }
}

/// Remove every temporary file and folder being written, and every lock file (the process
/// is ending at once).
pub fn abandon() {
    if let Ok(l) = LIVE.try_lock() {
        for (_, p) in l.iter() {
            let _ = at::remove_all(&p.dir, &p.name);
        }
    }
    lock::abandon();
}

/// Whether a signal (Ctrl-C, SIGTERM) has come: a write in place that a reader no longer
/// takes then ends.
static SIGNALLED: AtomicBool = AtomicBool::new(false);

/// Record that a signal came (the binary's signal handler calls this).
pub fn signal() {
    SIGNALLED.store(true, Ordering::SeqCst);
}

/// Whether a signal has come.
pub fn signalled() -> bool {
    SIGNALLED.load(Ordering::SeqCst)
}

/// Writes in progress.
static WRITING: AtomicUsize = AtomicUsize::new(0);

/// A write in progress, counted while it lives.
struct Writing;

impl Writing {
    fn start() -> Writing {
        WRITING.fetch_add(1, Ordering::SeqCst);
        Writing
    }
}

impl Drop for Writing {
    fn drop(&mut self) {
        WRITING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Whether an output is being written now: a signal then lets it finish.
pub fn writing() -> bool {
    WRITING.load(Ordering::SeqCst) > 0
}

/// The outputs written so far (their flags).
static WRITTEN: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn record(flag: &str) {
    if let Ok(mut w) = WRITTEN.lock() {
        w.push(flag.to_string());
    }
}

/// The flags of the outputs written so far by this process, for a message on a stop.
pub fn written() -> Vec<String> {
    WRITTEN.try_lock().map(|w| w.clone()).unwrap_or_default()
}

/// A test hook (compiled only into the test builds): where `RTPLAB_TEST_PAUSE` names a path,
/// the command stops at `point` (`write`: between its check and its first write; `exit`: when
/// its exit code is being decided; `read`: a command of `serve`'s page, between holding its
/// files and reading them) until the test lets it go: it makes `PATH.POINT.ready` and
/// waits for `PATH.POINT.go`. The door's tests change what is
/// at a name while the command waits there.
#[cfg(rtplab_test_hooks)]
pub fn pause(point: &str) {
    let Some(base) = std::env::var_os("RTPLAB_TEST_PAUSE") else {
        return;
    };
    // The points it stops at: `RTPLAB_TEST_PAUSE_POINTS` (comma-separated), else `write`.
    let points = std::env::var("RTPLAB_TEST_PAUSE_POINTS").unwrap_or_else(|_| "write".into());
    if !points.split(',').any(|p| p == point) {
        return;
    }
    let mut ready = base.clone();
    ready.push(format!(".{point}.ready"));
    let mut go = base;
    go.push(format!(".{point}.go"));
    let _ = std::fs::write(&ready, b"");
    let start = std::time::Instant::now();
    while std::fs::symlink_metadata(&go).is_err() && start.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// The test hook at the first write of the process (after the check and the work, before
/// anything is written).
fn pause_once() {
    static FIRST: std::sync::Once = std::sync::Once::new();
    FIRST.call_once(|| pause("write"));
}

/// The test hook, absent from the builds people run.
#[cfg(not(rtplab_test_hooks))]
#[inline(always)]
pub fn pause(_point: &str) {}

/// Replace the regular file given as `path` with `bytes`, whole or not at all; for files a
/// command writes while it runs (a shard file and its checkpoints, a blessed baseline, a
/// solved table), which the door checked and holds: written through the held folder (and over
/// the file the door last saw there). A path no door holds (a library caller's) is resolved
/// now, once.
pub fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    pause_once();
    let _w = Writing::start();
    match held_output(path) {
        Some((t, None)) => match &*t {
            Target::File(f) => output::replace_file(f, bytes),
            _ => Err(std::io::Error::other("not a file output")),
        },
        Some((t, Some(name))) => match &*t {
            Target::Files(dir, _) => {
                let f = output::FileTarget::at(dir.clone(), name, path)?;
                output::replace_file(&f, bytes)
            }
            _ => Err(std::io::Error::other("not a folder of files")),
        },
        None => {
            let f = output::FileTarget::resolve(path)?;
            output::replace_file(&f, bytes)
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("rtplab-door-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn open(
        inputs: &[(&str, &Path, InputKind)],
        outputs: &[(&str, &Path, OutputKind)],
    ) -> Result<Door, DoorError> {
        let mut plan = Plan::default();
        for (f, p, k) in inputs {
            plan.input(f, *p, *k);
        }
        for (f, p, k) in outputs {
            plan.output(f, Some(p), *k);
        }
        Door::open(&plan)
    }

    #[test]
    fn outputs_are_distinct_from_each_other_and_from_inputs() {
        let d = scratch("relate");
        let input = d.join("in.csv");
        std::fs::write(&input, "x").unwrap();
        let a = d.join("a.json");
        let spelled = d.join(".").join("a.json");
        // One file for two outputs, however spelled: refused, naming the other flag.
        let e = open(
            &[],
            &[
                ("--output", &a, OutputKind::File),
                ("--shard-out", &spelled, OutputKind::Regular),
            ],
        )
        .unwrap_err();
        assert!(
            matches!(&e, DoorError::Output(OutputError::Twice { other, .. }) if other == "--output"),
            "{e}"
        );
        // An output on an input, through another spelling or a hard link.
        let hard = d.join("hard.csv");
        std::fs::hard_link(&input, &hard).unwrap();
        for out in [d.join("x/../in.csv"), hard.clone()] {
            std::fs::create_dir_all(d.join("x")).unwrap();
            let e = open(
                &[("--strategy", &input, InputKind::Text)],
                &[("--output", &out, OutputKind::File)],
            )
            .unwrap_err();
            assert!(
                matches!(e, DoorError::Output(OutputError::IsInput { .. })),
                "{e}"
            );
        }
        // Two in-place writes to one sink lose nothing.
        let null = Path::new("/dev/null");
        assert!(open(
            &[],
            &[
                ("--output", null, OutputKind::File),
                ("--ramp-out", null, OutputKind::File)
            ]
        )
        .is_ok());
        // A file inside the out-dir (replaced whole), or inside a folder read.
        let od = d.join("od");
        std::fs::create_dir(&od).unwrap();
        let e = open(
            &[],
            &[
                ("--out-dir", &od, OutputKind::Dir { force: false }),
                ("--output", &od.join("r.json"), OutputKind::File),
            ],
        )
        .unwrap_err();
        assert!(
            matches!(e, DoorError::Output(OutputError::InOutDir { .. })),
            "{e}"
        );
        let e = open(
            &[("DIR", &od, InputKind::Folder)],
            &[("--output", &od.join("r.json"), OutputKind::File)],
        )
        .unwrap_err();
        assert!(
            matches!(e, DoorError::Output(OutputError::InInputFolder { .. })),
            "{e}"
        );
        // The folder check --bless rewrites is the folder it reads.
        assert!(open(
            &[("DIR", &od, InputKind::Folder)],
            &[("--bless", &od, OutputKind::Files)]
        )
        .is_ok());
        // An out-dir replaced with --force may not hold an input.
        std::fs::write(od.join("report.json"), "{}").unwrap();
        std::fs::write(od.join(MANIFEST), ".rtplab-files\nreport.json\n").unwrap();
        let e = open(
            &[("--expected", &od.join("report.json"), InputKind::Report)],
            &[("--out-dir", &od, OutputKind::Dir { force: true })],
        )
        .unwrap_err();
        assert!(
            matches!(e, DoorError::Output(OutputError::HoldsInput { .. })),
            "{e}"
        );
        // Held: a second door on the same output is refused while the first is open.
        let first = open(&[], &[("--output", &a, OutputKind::File)]).unwrap();
        let e = open(&[], &[("--output", &spelled, OutputKind::File)]).unwrap_err();
        assert!(
            matches!(e, DoorError::Output(OutputError::Busy { .. })),
            "{e}"
        );
        drop(first);
        assert!(open(&[], &[("--output", &a, OutputKind::File)]).is_ok());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn each_kind_of_place_is_checked_the_way_it_is_written() {
        let d = scratch("kinds");
        let check = |p: &Path, k| output::check("--output", p, k);
        let dangling = d.join("dangling");
        std::os::unix::fs::symlink(d.join("nowhere"), &dangling).unwrap();
        assert!(matches!(
            check(&dangling, OutputKind::File),
            Err(OutputError::DanglingLink { .. })
        ));
        assert!(matches!(
            check(
                Path::new(&format!("{}/", d.join("new").display())),
                OutputKind::File
            ),
            Err(OutputError::TrailingSlash { .. })
        ));
        assert!(matches!(
            check(Path::new("/dev/stdin"), OutputKind::File),
            Err(OutputError::Special { .. })
        ));
        assert!(matches!(
            check(Path::new("/dev/null"), OutputKind::Regular),
            Err(OutputError::Special { .. })
        ));
        assert!(matches!(
            check(Path::new("/dev/null"), OutputKind::File).map(|c| c.target),
            Ok(Target::InPlace(_))
        ));
        let fifo = d.join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let e = check(&fifo, OutputKind::File).unwrap_err();
        assert!(e.to_string().contains("no program is reading it"), "{e}");
        assert!(matches!(
            check(&d, OutputKind::File),
            Err(OutputError::IsDir { .. })
        ));
        assert!(matches!(
            check(&d.join("f/x"), OutputKind::File),
            Err(OutputError::NoParent { .. })
        ));
        std::fs::write(d.join("f"), "").unwrap();
        assert!(matches!(
            check(&d.join("f/x"), OutputKind::File),
            Err(OutputError::ParentNotDir { .. })
        ));
        assert!(matches!(
            check(Path::new("/proc/x.json"), OutputKind::File),
            Err(OutputError::PseudoFs { .. })
        ));
        // A folder: new, empty, or an earlier report and nothing else with --force.
        let od = d.join("od");
        assert!(check(&od, OutputKind::Dir { force: false }).is_ok());
        std::fs::create_dir(&od).unwrap();
        std::fs::write(od.join("report.json"), "{}").unwrap();
        assert!(matches!(
            check(&od, OutputKind::Dir { force: false }),
            Err(OutputError::NotEmpty { .. })
        ));
        assert!(matches!(
            check(&od, OutputKind::Dir { force: true }),
            Err(OutputError::NoManifest { .. })
        ));
        std::fs::write(od.join(MANIFEST), "report.json\n").unwrap();
        assert!(check(&od, OutputKind::Dir { force: true }).is_ok());
        std::fs::write(od.join("mine.txt"), "").unwrap();
        let e = check(&od, OutputKind::Dir { force: true }).unwrap_err();
        assert!(
            matches!(&e, OutputError::Foreign { others, .. } if others == "mine.txt"),
            "{e}"
        );
        assert!(matches!(
            check(Path::new("/"), OutputKind::Dir { force: true }),
            Err(OutputError::MountPoint { .. })
                | Err(OutputError::NotEmpty { .. })
                | Err(OutputError::NotReport { .. })
        ));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn files_and_folders_are_replaced_whole() {
        let d = scratch("replace");
        let f = d.join("r.txt");
        replace(&f, b"one").unwrap();
        let link = d.join("link.txt");
        std::os::unix::fs::symlink(&f, &link).unwrap();
        replace(&link, b"two").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"two");
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        let od = d.join("od");
        let dt = |p: &Path| output::DirTarget::resolve(p).unwrap();
        let w = output::replace_dir(&dt(&od), |t| {
            std::fs::write(t.join("report.json"), "1")?;
            Ok(vec![t.join("report.json")])
        })
        .unwrap();
        assert_eq!(w, [od.join("report.json")]);
        // A failing fill leaves the earlier folder whole and nothing beside it.
        assert!(output::replace_dir(&dt(&od), |_| Err(std::io::Error::other("full"))).is_err());
        assert_eq!(
            std::fs::read_to_string(od.join("report.json")).unwrap(),
            "1"
        );
        output::replace_dir(&dt(&od), |t| {
            std::fs::write(t.join("report.json"), "2").map(|_| vec![])
        })
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(od.join(MANIFEST)).unwrap(),
            ".rtplab-files\nreport.json\n"
        );
        let mut names: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["link.txt", "od", "r.txt"]);
        let _ = std::fs::remove_dir_all(&d);
    }
}
