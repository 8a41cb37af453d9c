//! The one door every file of a command goes through.
//!
//! A command declares what it reads and writes as a [`Plan`]: each input (a flag, a path, a
//! kind with its size limit) and each output (a flag, a path, a kind). [`Door::open`] checks
//! them all together before any work:
//!
//! - every input is readable the way it will be read (a regular file within its kind's limit,
//!   a folder where the kind is one, standard input for `-`);
//! - every output is writable the way it will be written ([`output`]: a regular file through
//!   a temporary file and a rename, a report folder built beside and swapped in, a special
//!   file or descriptor opened now without blocking and written in place);
//! - outputs are distinct from each other and from every input by file identity (device and
//!   inode, or folder and name for a file not yet made), standard input and output included,
//!   and no output lies inside an `--out-dir` (which is replaced whole) or a folder read;
//! - each output is held against other runs for the whole run ([`lock`]), and what a dead
//!   run left beside it (temporary files) is removed.
//!
//! The door then writes the outputs ([`Door::write`], [`Door::write_dir`]); the readers of
//! each kind of input are in [`input`]. A signal during a write lets the write finish
//! ([`writing`]); an abort removes every temporary file in progress ([`abandon`]).

pub mod cache;
pub mod identity;
pub mod input;
mod lock;
pub mod names;
pub mod output;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

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
    /// input when it names anything on the disk or looks like a path ([`is_path`]).
    pub fn maybe_input(&mut self, flag: &str, value: &str, kind: InputKind) -> &mut Self {
        if is_path(value) || std::fs::symlink_metadata(value).is_ok() {
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
    outputs: Vec<(String, Target)>,
    _held: lock::Held,
}

impl Door {
    /// A door with no files (a library caller that writes nothing).
    pub fn none() -> Door {
        Door {
            outputs: Vec::new(),
            _held: lock::Held::default(),
        }
    }

    /// Check every input and output of `plan` together and hold the outputs.
    pub fn open(plan: &Plan) -> Result<Door, DoorError> {
        let mut ins = Vec::new();
        for i in &plan.inputs {
            let id = input::check(&i.path, i.kind, &i.flag)?;
            ins.push((i, id));
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
            if let Some((dir, name)) = &c.home {
                output::clean_stale(dir, name);
            }
            targets.push((o.flag.clone(), c.target));
        }
        Ok(Door {
            outputs: targets,
            _held: held,
        })
    }

    /// The target of output `flag`, if the command has it.
    pub fn target(&self, flag: &str) -> Option<&Target> {
        self.outputs.iter().find(|(f, _)| f == flag).map(|(_, t)| t)
    }

    /// Write `bytes` to output `flag` (standard output when the command has no such output):
    /// a regular file replaced whole, a special file or standard output written in place. A
    /// pipe closed by its reader (a broken pipe) is not an error.
    pub fn write(&self, flag: &str, bytes: &[u8]) -> std::io::Result<()> {
        let _w = Writing::start();
        let r = match self.target(flag) {
            Some(Target::File(p)) => output::replace_file(p, bytes),
            Some(Target::InPlace(f)) => {
                let mut f: &std::fs::File = f;
                // A reader that closed early (`head`) took what it wanted: as on standard output,
                // a broken pipe is not an error.
                match std::io::Write::write_all(&mut f, bytes) {
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                    r => r,
                }
            }
            Some(Target::Dir { .. } | Target::Files(_)) => {
                Err(std::io::Error::other(format!("{flag} is a folder")))
            }
            Some(Target::Stdout) | None => write_stdout(bytes),
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
        let _w = Writing::start();
        let r = match self.target(flag) {
            Some(Target::Dir { path, .. }) => output::replace_dir(path, fill),
            _ => Err(std::io::Error::other(format!("{flag} is not a folder"))),
        };
        if r.is_ok() {
            record(flag);
        }
        r
    }
}

/// Write to standard output; a closed one (a broken pipe) is not an error.
pub fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

/// Every output distinct from every input and from every other output it could lose (one
/// replaced by a rename), standard output included when the report goes there.
fn distinct(
    ins: &[(&Input, Option<Id>)],
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
            .find(|(i, id)| id.as_ref() == Some(s) && i.path.as_os_str() != "-")
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
        for (inp, iid) in ins {
            // The folder `check --bless` reads is the one it rewrites: that is what it is for.
            let rewritten = inp.kind == InputKind::Folder && matches!(c.target, Target::Files(_));
            if iid.as_ref() == Some(id) && !rewritten {
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
        let renamed =
            |c: &output::Checked| matches!(c.target, Target::File(_) | Target::Dir { .. });
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

/// The report folders (`--out-dir`) among `outs`: each output, its real path and whether it
/// existed.
fn out_dirs<'a>(outs: &'a [(&Output, output::Checked)]) -> Vec<(&'a Output, &'a PathBuf, bool)> {
    outs.iter()
        .filter_map(|(o, c)| match &c.target {
            Target::Dir { path, exists } => Some((*o, path, *exists)),
            _ => None,
        })
        .collect()
}

/// No output inside (or named as) an input folder, nor inside a report folder.
fn outside_folders(
    ins: &[(&Input, Option<Id>)],
    outs: &[(&Output, output::Checked)],
) -> Result<(), OutputError> {
    let shown = |o: &Output| o.path.display().to_string();
    let folders: Vec<(&Input, PathBuf)> = ins
        .iter()
        .filter(|(i, _)| i.kind == InputKind::Folder)
        .filter_map(|(i, _)| std::fs::canonicalize(&i.path).ok().map(|p| (*i, p)))
        .collect();
    let dirs = out_dirs(outs);
    for (o, c) in outs {
        let Some((home, _)) = &c.home else { continue };
        let inside = |d: &Path| {
            home.starts_with(d) && !matches!(c.target, Target::Dir{ ref path, ..} if path == d)
        };
        if let Some((i, _)) = folders.iter().find(|(_, d)| inside(d) || home == d) {
            return Err(OutputError::InInputFolder {
                flag: o.flag.clone(),
                path: shown(o),
                input: i.path.display().to_string(),
            });
        }
        if let Some((d, _, _)) = dirs.iter().find(|(_, d, _)| inside(d)) {
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
    ins: &[(&Input, Option<Id>)],
    outs: &[(&Output, output::Checked)],
) -> Result<(), OutputError> {
    for (d, real, exists) in out_dirs(outs) {
        if !exists {
            continue;
        }
        for (inp, _) in ins {
            if inp.path.as_os_str() == "-" {
                continue;
            }
            let held = std::fs::canonicalize(&inp.path).is_ok_and(|p| p.starts_with(real))
                || (inp.kind == InputKind::Folder
                    && std::fs::canonicalize(&inp.path).is_ok_and(|p| real.starts_with(p)));
            if held {
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
    ins: &[(&Input, Option<Id>)],
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

/// Temporary files and folders being written now: removed by [`abandon`] if the process must
/// end at once.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A temporary path registered while it exists (removed from the list when dropped).
pub(crate) struct Live(PathBuf);

impl Live {
    pub(crate) fn new(p: PathBuf) -> Live {
        if let Ok(mut l) = LIVE.lock() {
            l.push(p.clone());
        }
        Live(p)
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        if let Ok(mut l) = LIVE.lock() {
            l.retain(|p| *p != self.0);
        }
    }
}

/// Remove every temporary file and folder being written (the process is ending at once).
pub fn abandon() {
    let live = match LIVE.try_lock() {
        Ok(l) => l.clone(),
        Err(_) => return,
    };
    for p in live {
        let _ = std::fs::remove_file(&p).or_else(|_| std::fs::remove_dir_all(&p));
    }
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

/// Replace the regular file at `path` (through a symbolic link: the file it names) with
/// `bytes`, whole or not at all; for files a command writes while it runs (a shard file and
/// its checkpoints, a blessed baseline), which the door checked and holds.
pub fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let _w = Writing::start();
    let real = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path)?,
        _ => path.to_path_buf(),
    };
    output::replace_file(&real, bytes)
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
        let w = output::replace_dir(&od, |t| {
            std::fs::write(t.join("report.json"), "1")?;
            Ok(vec![t.join("report.json")])
        })
        .unwrap();
        assert_eq!(w, [od.join("report.json")]);
        // A failing fill leaves the earlier folder whole and nothing beside it.
        assert!(output::replace_dir(&od, |_| Err(std::io::Error::other("full"))).is_err());
        assert_eq!(
            std::fs::read_to_string(od.join("report.json")).unwrap(),
            "1"
        );
        output::replace_dir(&od, |t| {
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
