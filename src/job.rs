//! A command as the library runs it: a job is a validated request with the places its result
//! goes. Its files were checked and are held by the [`Door`] before the job was built;
//! [`execute`] runs the job, writes its report (or strategy file) through the door and says
//! how it ended; the binary only builds the job from its arguments and turns the [`Status`]
//! into an exit code.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use crate::door::{Door, DoorError};
use crate::report::{Format, PlotError, Plots, Report};

/// Where a report goes: standard output or `output` in `format`, and with `out_dir` every
/// format and the plots.
#[derive(Clone, Debug)]
pub struct Outputs {
    pub format: Format,
    /// A file (`None` or `-`: standard output).
    pub output: Option<PathBuf>,
    /// A report folder (replaced only with `force`).
    pub out_dir: Option<PathBuf>,
    pub force: bool,
    /// The table format in full: every table whole (without it, [`Report::brief`]).
    pub full: bool,
}

/// How a job ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// It ran to its end.
    Done,
    /// It ran, and what it checks failed (a baseline moved, a period out of its band).
    Failed,
    /// A signal stopped it; its report covers the work done.
    Interrupted,
}

impl Status {
    /// Done, or failed when what the job checks is not `ok`.
    pub fn checked(ok: bool) -> Status {
        if ok {
            Status::Done
        } else {
            Status::Failed
        }
    }

    /// Done, or interrupted by a signal.
    pub fn ran(interrupted: bool) -> Status {
        if interrupted {
            Status::Interrupted
        } else {
            Status::Done
        }
    }
}

/// What a job made.
pub enum Outcome {
    /// A report, its plots (drawn only for `--out-dir`) and how the job ended.
    Report {
        report: Report,
        plots: Plots,
        status: Status,
        /// An output written during the job that failed (a shard file): reported after the
        /// report is written, and the command fails.
        unsaved: Option<String>,
    },
    /// A strategy file's text.
    Text(String),
}

impl Outcome {
    /// A report without plots.
    pub fn report(report: Report, status: Status) -> Outcome {
        Outcome::Report {
            report,
            plots: Box::new(|| Ok(Vec::new())),
            status,
            unsaved: None,
        }
    }
}

/// What a job may use while it runs.
pub struct Ctx<'a> {
    /// Raised by a signal (Ctrl-C, SIGTERM): a simulation finishes its chunks in progress and
    /// reports the work done.
    pub stop: &'a AtomicBool,
    /// Called when a job whose first part has no partial result (the blackjack audit's exact
    /// part) reaches work a signal should stop gracefully, with a partial report.
    pub graceful: fn(),
    /// The command's files, checked and held: every output is written through it.
    pub door: &'a Door,
    /// Show progress on standard error (`progress::Progress`: on a terminal only); false
    /// under -q/--quiet.
    pub progress: bool,
}

/// What a first signal does while some work runs that stops its own way (a solve that saves
/// its progress), for the binary's message on a signal: what it does now, and what a second
/// signal, which aborts at once, leaves undone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stopping {
    pub now: String,
    pub abort: String,
}

static STOPPING: Mutex<Option<Stopping>> = Mutex::new(None);

/// What a first signal does now, if work under [`stopping`] runs (None: what the command does
/// by default, as the binary says it).
pub fn stopping_now() -> Option<Stopping> {
    STOPPING.lock().map(|s| s.clone()).unwrap_or(None)
}

/// Say what a first signal does (`now`) and what a second one leaves undone (`abort`) while
/// the guard lives.
pub fn stopping(now: &str, abort: &str) -> StoppingGuard {
    if let Ok(mut s) = STOPPING.lock() {
        *s = Some(Stopping {
            now: now.into(),
            abort: abort.into(),
        });
    }
    StoppingGuard
}

/// Clears what [`stopping`] said when dropped.
pub struct StoppingGuard;

impl Drop for StoppingGuard {
    fn drop(&mut self) {
        if let Ok(mut s) = STOPPING.lock() {
            *s = None;
        }
    }
}

/// A command's work.
pub trait Job {
    /// Where the report goes.
    fn outputs(&self) -> &Outputs;
    /// Do the work.
    fn run(self, ctx: &Ctx) -> Result<Outcome, Error>;
}

/// Run the job, write its result through the door; how it ended.
pub fn execute<J: Job>(job: J, ctx: &Ctx) -> Result<Status, Error> {
    let out = job.outputs().clone();
    match job.run(ctx)? {
        Outcome::Report {
            report,
            plots,
            status,
            unsaved,
        } => {
            let plots = match out.out_dir {
                Some(_) => plots().map_err(|e| Error::Plot(e.0))?,
                None => Vec::new(),
            };
            let written = emit(ctx.door, &report, &out, &plots);
            match (unsaved, written) {
                (None, w) => w.map(|_| status),
                (Some(lost), Ok(())) => Err(Error::Write(format!(
                    "{lost}; the report was written{}",
                    where_written(&out)
                ))),
                (Some(lost), Err(e)) => Err(Error::Write(format!("{lost}; {e}"))),
            }
        }
        Outcome::Text(text) => {
            ctx.door.write("--output", text.as_bytes()).map_err(|e| {
                Error::Write(format!(
                    "cannot write --output {}: {e}",
                    out.output.as_deref().unwrap_or(Path::new("-")).display()
                ))
            })?;
            Ok(Status::Done)
        }
    }
}

/// Where `emit` wrote a report: " to standard output", " to --output r.json and --out-dir od".
fn where_written(out: &Outputs) -> String {
    let file = out.output.as_deref().filter(|p| p.as_os_str() != "-");
    let mut places: Vec<String> = file
        .map(|p| format!("--output {}", p.display()))
        .into_iter()
        .chain(
            out.out_dir
                .as_ref()
                .map(|d| format!("--out-dir {}", d.display())),
        )
        .collect();
    if file.is_none() {
        places.insert(0, "standard output".into());
    }
    format!(" to {}", places.join(" and "))
}

/// Write the report in the chosen format (standard output or `--output`), and `--out-dir` if
/// given. A write that fails at the end does not lose the report: it goes to standard output,
/// and the error says so.
fn emit(
    door: &Door,
    report: &Report,
    out: &Outputs,
    plots: &[(String, String)],
) -> Result<(), Error> {
    let text = if out.format == Format::Table && !out.full {
        report.brief().render(Format::Table)
    } else {
        report.render(out.format)
    };
    let to_file = out.output.as_deref().filter(|p| p.as_os_str() != "-");
    let mut on_stdout = to_file.is_none();
    let mut failed = Vec::new();
    let stdout = |e: std::io::Error| {
        Error::Write(format!("cannot write the report to standard output: {e}"))
    };
    if let Err(e) = door.write("--output", text.as_bytes()) {
        match to_file {
            Some(p) => {
                failed.push(format!("cannot write --output {}: {e}", p.display()));
                crate::door::write_stdout(text.as_bytes()).map_err(stdout)?;
                on_stdout = true;
            }
            None => return Err(stdout(e)),
        }
    }
    if let Some(dir) = &out.out_dir {
        if let Err(e) = door.write_dir("--out-dir", |tmp| {
            crate::report::fill_out_dir(tmp, report, plots)
        }) {
            failed.push(format!("cannot write --out-dir {}: {e}", dir.display()));
            if !on_stdout {
                crate::door::write_stdout(text.as_bytes()).map_err(stdout)?;
            }
        }
    }
    if failed.is_empty() {
        return Ok(());
    }
    Err(Error::Write(format!(
        "{}; the report was printed on standard output instead",
        failed.join("; ")
    )))
}

/// A plot error as `what: why` (`what` names the plots).
pub fn plot_error<E: std::fmt::Display>(what: &'static str) -> impl Fn(E) -> PlotError {
    move |e| PlotError(format!("{what}: {e}"))
}

/// Every error a job can end with; each message says what to change. The command layer's own
/// errors are typed here; the errors of the layers above it (the run path, the commands'
/// modules, the games) are carried boxed, with their messages (nothing matches on them: the
/// binary prints the message and exits 2). Each such error type lets `?` carry it with
/// [`carried!`].
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Door(#[from] DoorError),
    #[error(transparent)]
    Output(#[from] crate::door::OutputError),
    #[error(transparent)]
    Input(#[from] crate::door::InputError),
    #[error(transparent)]
    Shard(#[from] crate::shard::ShardError),
    #[error(transparent)]
    Engine(#[from] crate::engine::EngineError),
    /// An error of a layer above (a game's, a command's), its message whole.
    #[error(transparent)]
    Task(Box<dyn std::error::Error + Send + Sync>),
    /// Plots that could not be drawn (the message says which).
    #[error("{0}")]
    Plot(String),
    #[error("{0}")]
    Write(String),
}

/// `impl From<E> for job::Error` for error types of the layers above the command layer (each
/// module that defines one says so beside it): `?` then carries them out of a job, boxed.
macro_rules! carried {
    ($($e:ty),+ $(,)?) => {
        $(impl From<$e> for $crate::job::Error {
            fn from(e: $e) -> Self {
                $crate::job::Error::Task(Box::new(e))
            }
        })+
    };
}
pub(crate) use carried;
