//! A command as the library runs it: a job is a validated request with the places its result
//! goes. [`execute`] checks those places before any work, runs the job, writes its report
//! (or strategy file) and says how it ended; the binary only builds the job from its
//! arguments and turns the [`Status`] into an exit code.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use crate::game::Rendered;
use crate::output::{self, OutputError};
use crate::report::{write_out_dir, write_output, Format, PlotError, Plots, Report};

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

impl From<Rendered> for Outcome {
    fn from(r: Rendered) -> Outcome {
        Outcome::Report {
            report: r.report,
            plots: r.plots,
            status: Status::ran(r.interrupted),
            unsaved: r.unsaved,
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
    /// The command line, program name first: an output that is also named on it as a file
    /// would destroy an input.
    pub args: &'a [OsString],
}

/// A command's work.
pub trait Job {
    /// Where the report goes.
    fn outputs(&self) -> &Outputs;
    /// A shard file the job writes (renamed into place), if any.
    fn shard_out(&self) -> Option<&Path> {
        None
    }
    /// Folders the job reads (no output may go into them).
    fn reads(&self) -> Vec<&Path> {
        Vec::new()
    }
    /// Do the work.
    fn run(self, ctx: &Ctx) -> Result<Outcome, Error>;
}

/// Check the outputs, run the job, write its result; how it ended.
pub fn execute<J: Job>(job: J, ctx: &Ctx) -> Result<Status, Error> {
    // Held until the files are written (dropped on return).
    let _held = check_outputs(&job, ctx.args)?;
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
            let written = emit(&report, &out, &plots);
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
            write_output(&text, out.output.as_deref()).map_err(|e| {
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

/// Check a job's output paths before any work (a typo must not cost the run), that none of
/// them destroys an input, and hold them against other runs until the job's files are written.
fn check_outputs<J: Job>(job: &J, args: &[OsString]) -> Result<output::Held, OutputError> {
    let out = job.outputs();
    if let Some(p) = &out.output {
        output::check_file("--output", p)?;
    }
    if let Some(d) = &out.out_dir {
        output::check_dir(d, out.force)?;
    }
    if let Some(p) = job.shard_out() {
        output::check_file("--shard-out", p)?;
    }
    let files: Vec<(&str, &Path)> = [
        ("--output", out.output.as_deref()),
        ("--shard-out", job.shard_out()),
    ]
    .into_iter()
    .filter_map(|(f, p)| p.map(|p| (f, p)))
    .collect();
    output::check_not_inputs(args, &job.reads(), &files, out.out_dir.as_deref())?;
    let mut held = output::Held::default();
    for (flag, p) in files {
        held.hold(flag, p)?;
    }
    if let Some(d) = &out.out_dir {
        held.hold("--out-dir", d)?;
    }
    Ok(held)
}

/// Write the report in the chosen format (standard output or `--output`), and `--out-dir` if
/// given. A write that fails at the end does not lose the report: it goes to standard output,
/// and the error says so.
fn emit(report: &Report, out: &Outputs, plots: &[(String, String)]) -> Result<(), Error> {
    let text = report.render(out.format);
    let to_file = out.output.as_deref().filter(|p| p.as_os_str() != "-");
    let mut on_stdout = to_file.is_none();
    let mut failed = Vec::new();
    let stdout = |e: std::io::Error| {
        Error::Write(format!("cannot write the report to standard output: {e}"))
    };
    if let Err(e) = write_output(&text, out.output.as_deref()) {
        match to_file {
            Some(p) => {
                failed.push(format!("cannot write --output {}: {e}", p.display()));
                write_output(&text, None).map_err(stdout)?;
                on_stdout = true;
            }
            None => return Err(stdout(e)),
        }
    }
    if let Some(dir) = &out.out_dir {
        if let Err(e) = write_out_dir(dir, report, plots) {
            failed.push(format!("cannot write --out-dir {}: {e}", dir.display()));
            if !on_stdout {
                write_output(&text, None).map_err(stdout)?;
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

/// Every error a job can end with; each message says what to change.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error(transparent)]
    Input(#[from] crate::input::InputError),
    #[error(transparent)]
    Run(#[from] crate::game::RunError),
    #[error(transparent)]
    Shard(#[from] crate::shard::ShardError),
    #[error(transparent)]
    Engine(#[from] crate::engine::EngineError),
    #[error(transparent)]
    Merge(#[from] crate::games::MergeError),
    #[error(transparent)]
    Check(#[from] crate::check::CheckError),
    #[error(transparent)]
    Monitor(#[from] crate::monitor::MonitorError),
    #[error(transparent)]
    Blackjack(#[from] crate::games::blackjack::BjError),
    #[error(transparent)]
    Doom(#[from] crate::games::doom::DoomError),
    #[error(transparent)]
    TwentyOne(#[from] crate::games::twentyone::TwentyOneError),
    #[error(transparent)]
    Baccarat(#[from] crate::games::baccarat::BacError),
    #[error(transparent)]
    BlackjackAdvise(#[from] crate::games::blackjack::advise::AdviseError),
    #[error(transparent)]
    DoomAdvise(#[from] crate::games::doom::advise::DoomAdviseError),
    #[error(transparent)]
    TwentyOneAdvise(#[from] crate::games::twentyone::advise::TwentyOneAdviseError),
    #[error(transparent)]
    Indices(#[from] crate::games::blackjack::derive::IndexGenError),
    #[error(transparent)]
    Win(#[from] crate::games::doom::win::WinError),
    /// Plots that could not be drawn (the message says which).
    #[error("{0}")]
    Plot(String),
    #[error("{0}")]
    Write(String),
}
