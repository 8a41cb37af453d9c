//! The thin binary: parse, build the job from the arguments, run it in the library, exit.
//! Exit codes: 0 ok, 1 a check failed, 2 usage or input error, 130 interrupted (SIGINT,
//! Ctrl-C), 143 terminated (SIGTERM, as sent by Slurm and Kubernetes), 129 hung up (SIGHUP).

mod cli;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;

use cli::{
    AdviseGame, AuditGame, BetsGame, Cli, Command, CompareGame, DeriveGame, ExactGame, IndicesGame,
    MetricsGame, RampGame, SimGame, StrategiesCmd, TeamGame, VerifyGame,
};
use rtplab::compare::CompareJob;
use rtplab::game::SimJob;
use rtplab::games::{baccarat, blackjack, doom, twentyone};
use rtplab::job::{execute, Ctx, Job, Status};

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    let cli = match Cli::parse_args(args.clone()) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    // A simulation stops on a signal with a partial report; other work ends at once (the
    // blackjack audit becomes graceful when its simulation starts, through `Ctx::graceful`).
    let stop = Arc::new(AtomicBool::new(false));
    watch_signals(stop.clone());
    // The timer's server writes its answers on standard output and nothing else.
    if matches!(cli.command, Command::BenchServe(_)) {
        if let Some(o) = cli.files.outputs.first() {
            rtplab::say!(
                "error: {}: bench-serve plays chunks on request and writes only its answers on standard output; leave it out",
                o.flag
            );
            return ExitCode::from(2);
        }
    }
    // Every file the command reads or writes, checked together and held before any work.
    let door = match rtplab::door::Door::open(&cli.files) {
        Ok(d) => d,
        Err(e) => {
            rtplab::say!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // Rayon's pool (the exact analysis, the chart derived for the rules) at most as large as
    // the simulation's: --threads bounds the whole process. Threads the system cannot start
    // are an error that says how many it could.
    if let Err(e) = rtplab::engine::start_threads(cli.threads) {
        rtplab::say!("error: {e}");
        return ExitCode::from(2);
    }
    let graceful = matches!(
        cli.command,
        Command::Sim(_)
            | Command::Serve(_)
            | Command::Compare(_)
            | Command::Audit(AuditGame::Doom(_))
            | Command::Verify(_)
            | Command::Study(_)
    );
    GRACEFUL.store(graceful, Ordering::SeqCst);
    let ctx = Ctx {
        stop: &stop,
        graceful: || GRACEFUL.store(true, Ordering::SeqCst),
        door: &door,
        progress: !cli.quiet,
    };
    let result = dispatch(cli.command, &ctx);
    // The outputs released (their lock files removed) before the exit code is decided.
    drop(door);
    // A signal that came while the files were written let them finish: the exit code still
    // says it came. From here on a signal ends the process at once with its own code (the
    // handler sees FINAL), so one in the last milliseconds is never lost behind an exit 0.
    FINAL.store(true, Ordering::SeqCst);
    rtplab::door::pause("exit");
    let signal = match RECEIVED.load(Ordering::SeqCst) {
        s @ 1..=127 => Some(128 + s as u8),
        _ => None,
    };
    match result {
        Ok(Status::Done | Status::Interrupted) if signal.is_some() => {
            ExitCode::from(signal.unwrap_or(130))
        }
        Ok(Status::Done) => ExitCode::SUCCESS,
        Ok(Status::Failed) => ExitCode::from(1),
        Ok(Status::Interrupted) => ExitCode::from(130),
        // A solve a signal stopped, its progress kept: the exit code tells the signal.
        Err(e) if signal.is_some() => {
            rtplab::say!("{e:#}");
            ExitCode::from(signal.unwrap_or(130))
        }
        Err(e) => {
            rtplab::say!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Build the command's job from its arguments (its files already checked and held by the
/// door) and run it.
fn dispatch(command: Command, ctx: &Ctx) -> anyhow::Result<Status> {
    match command {
        Command::Cache(c) => cli::cache_command(c).map(|_| Status::Done),
        Command::BenchServe(game) => bench_serve(game),
        Command::Serve(a) => serve(&a, ctx),
        Command::Study(a) => Ok(rtplab::study::run_study(
            &(&a).into(),
            &[blackjack::report::STUDY],
            &CommandLine,
            ctx,
        )?),
        command => build(command, Execute(ctx))?,
    }
}

/// What is done with a command's job: run here ([`Execute`]) or handed to the page's server
/// ([`Page`]).
trait Runner {
    type Out;
    fn job<J: Job + 'static>(self, job: J) -> Self::Out;
}

/// Run the job and write its report (the command line).
struct Execute<'a, 'b>(&'a Ctx<'b>);

impl Runner for Execute<'_, '_> {
    type Out = anyhow::Result<Status>;
    fn job<J: Job + 'static>(self, job: J) -> Self::Out {
        Ok(execute(job, self.0)?)
    }
}

/// The job's work, for the page's server to run with its own context.
struct Page;

type PageRun = Box<dyn FnOnce(&Ctx) -> Result<rtplab::job::Outcome, rtplab::job::Error>>;

impl Runner for Page {
    type Out = PageRun;
    fn job<J: Job + 'static>(self, job: J) -> Self::Out {
        Box::new(move |ctx| job.run(ctx))
    }
}

/// Build the command's job from its arguments and give it to `r`: one arm per command.
fn build<R: Runner>(command: Command, r: R) -> anyhow::Result<R::Out> {
    use blackjack::Blackjack;
    Ok(match command {
        Command::Sim(SimGame::Blackjack(a)) if a.log_out.is_some() || a.rounds_out.is_some() => {
            r.job(blackjack::log::write::LoggedSimJob::try_from(&*a)?)
        }
        Command::Sim(SimGame::Blackjack(a)) => r.job(SimJob::<Blackjack>::try_from(&*a)?),
        Command::Sim(SimGame::Doom(a)) => r.job(SimJob::<doom::Doom>::try_from(&a)?),
        Command::Sim(SimGame::TwentyOne(a)) if !a.sweep_c.is_empty() => {
            r.job(twentyone::jobs::SweepJob::try_from(&a)?)
        }
        Command::Sim(SimGame::TwentyOne(a)) => r.job(SimJob::<twentyone::TwentyOne>::try_from(&a)?),
        Command::Sim(SimGame::Baccarat(a)) if a.log_out.is_some() => {
            r.job(baccarat::jobs::SimLogJob::try_from(&a)?)
        }
        Command::Sim(SimGame::Baccarat(a)) => r.job(SimJob::<baccarat::Baccarat>::try_from(&a)?),
        Command::Exact(ExactGame::Blackjack(a)) => r.job(blackjack::jobs::ExactJob::try_from(&a)?),
        Command::Exact(ExactGame::Doom(a)) => r.job(doom::jobs::ExactJob::try_from(&a)?),
        Command::Exact(ExactGame::TwentyOne(a)) => r.job(twentyone::jobs::ExactJob::try_from(&a)?),
        Command::Exact(ExactGame::Baccarat(a)) => r.job(baccarat::jobs::ExactJob::try_from(&a)?),
        Command::Compare(CompareGame::Blackjack(a)) => {
            r.job(CompareJob::<Blackjack>::try_from(&a)?)
        }
        Command::Compare(CompareGame::Baccarat(a)) => {
            r.job(CompareJob::<baccarat::Baccarat>::try_from(&a)?)
        }
        Command::Compare(CompareGame::Doom(a)) => r.job(CompareJob::<doom::Doom>::try_from(&a)?),
        Command::Strategies(StrategiesCmd::Derive(DeriveGame::Blackjack(a))) => {
            r.job(blackjack::jobs::DeriveJob::try_from(&a)?)
        }
        Command::Strategies(StrategiesCmd::Indices(IndicesGame::Blackjack(a))) => {
            r.job(blackjack::jobs::IndicesJob::try_from(&a)?)
        }
        Command::Strategies(StrategiesCmd::Ramp(RampGame::Blackjack(a))) => {
            r.job(blackjack::jobs::RampJob::try_from(&a)?)
        }
        Command::Strategies(StrategiesCmd::Bets(BetsGame::Blackjack(a))) => {
            r.job(blackjack::jobs::BetsJob::try_from(&a)?)
        }
        Command::Strategies(StrategiesCmd::Team(TeamGame::Blackjack(a))) => {
            r.job(blackjack::team::TeamJob::try_from(&a)?)
        }
        Command::Strategies(StrategiesCmd::Metrics(MetricsGame::Blackjack(a))) => {
            r.job(blackjack::jobs::MetricsJob::try_from(&a)?)
        }
        Command::Advise(AdviseGame::Blackjack(a)) => {
            r.job(blackjack::jobs::AdviseJob::try_from(&a)?)
        }
        Command::Advise(AdviseGame::Doom(a)) => r.job(doom::jobs::AdviseJob::try_from(&a)?),
        Command::Advise(AdviseGame::TwentyOne(a)) => {
            r.job(twentyone::jobs::AdviseJob::try_from(&a)?)
        }
        Command::Audit(AuditGame::Blackjack(a)) => r.job(blackjack::jobs::AuditJob::try_from(&a)?),
        Command::Audit(AuditGame::Doom(a)) => r.job(doom::jobs::AuditJob::try_from(&a)?),
        Command::Verify(VerifyGame::Baccarat(a)) => r.job(baccarat::verify::VerifyJob::from(&a)),
        Command::Merge(a) => r.job(rtplab::merge::MergeJob::from(&a)),
        Command::Check(a) => r.job(rtplab::check::CheckJob::from(&a)),
        Command::Monitor(a) => r.job(rtplab::monitor::MonitorJob::from(&a)),
        Command::Verify(VerifyGame::Blackjack(a)) => r.job(blackjack::verify::VerifyJob::from(&a)),
        Command::Risk(a) => r.job(rtplab::risk::RiskJob::from(&a)),
        Command::Cache(_) | Command::BenchServe(_) | Command::Serve(_) | Command::Study(_) => {
            anyhow::bail!("this command is not a job")
        }
    })
}

/// `rtplab serve`: the page's server, running the command line's own commands (parsed by
/// [`CommandLine`]) until Ctrl-C.
fn serve(a: &cli::serve::ServeArgs, ctx: &Ctx) -> anyhow::Result<Status> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    // The process's stop flag (a signal) stops the server's.
    let _said = rtplab::job::stopping(
        "stopping the server: each run from the page writes its partial report",
        "the runs' partial reports were not written",
    );
    std::thread::scope(|s| {
        s.spawn(|| {
            while !ctx.stop.load(Ordering::SeqCst) && !flag.load(Ordering::SeqCst) {
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            flag.store(true, Ordering::SeqCst);
        });
        let r = rtplab::web::serve(a.into(), Arc::new(CommandLine), stop.clone());
        stop.store(true, Ordering::SeqCst);
        r
    })?;
    Ok(Status::Done)
}

/// The command line's parser, for the page's server: the same arguments, argument rules and
/// jobs as the command line.
struct CommandLine;

impl rtplab::web::Commands for CommandLine {
    fn parse(&self, args: &[String]) -> Result<rtplab::web::Parsed, String> {
        let words = std::iter::once("rtplab".to_string())
            .chain(args.iter().cloned())
            .map(OsString::from);
        let cli = Cli::parse_args(words).map_err(|e| e.to_string().trim_end().to_string())?;
        if matches!(
            cli.command,
            Command::Cache(_) | Command::BenchServe(_) | Command::Serve(_) | Command::Study(_)
        ) {
            return Err("this command is not run from the page".into());
        }
        let command = cli.command;
        Ok(rtplab::web::Parsed {
            plan: cli.files,
            run: Box::new(move |ctx| {
                let job = build(command, Page).map_err(|e| format!("error: {e:#}"))?;
                job(ctx).map_err(|e| format!("error: {e}"))
            }),
        })
    }
}

/// `bench-serve GAME ...`: the run `sim GAME` would make of the same arguments, served chunk
/// by chunk to the interleaved timer on standard input and output
/// (`rtplab::game::serve`).
fn bench_serve(game: SimGame) -> anyhow::Result<Status> {
    use rtplab::game::{serve::serve, Game, SimJob};
    fn go<G: Game>(job: SimJob<G>) -> anyhow::Result<Status> {
        let (input, output) = (std::io::stdin().lock(), std::io::stdout().lock());
        serve::<G>(job.config, &job.spec, input, output)?;
        Ok(Status::Done)
    }
    match game {
        SimGame::Blackjack(a) => go(SimJob::<blackjack::Blackjack>::try_from(&*a)?),
        SimGame::Doom(a) => go(SimJob::<doom::Doom>::try_from(&a)?),
        SimGame::TwentyOne(a) if !a.sweep_c.is_empty() => {
            anyhow::bail!("--sweep-c runs several configurations: bench-serve serves one")
        }
        SimGame::TwentyOne(a) => go(SimJob::<twentyone::TwentyOne>::try_from(&a)?),
        SimGame::Baccarat(a) => go(SimJob::<baccarat::Baccarat>::try_from(&a)?),
    }
}

/// The signal that stopped the run (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The last signal received, recorded by the handler itself (not by the thread that acts on
/// it), so the exit code sees every signal delivered before it is decided.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// Set when the exit code is being decided: a signal after that exits with its own code.
static FINAL: AtomicBool = AtomicBool::new(false);

/// Whether a signal now stops the run gracefully with a partial report.
static GRACEFUL: AtomicBool = AtomicBool::new(false);

/// SIGINT (Ctrl-C) and SIGTERM (Slurm, Kubernetes) both stop a run cleanly once it is
/// graceful: the chunks in progress finish and the partial report, marked interrupted, goes
/// where the run was told to write it. A second signal aborts at once, and so does the first
/// for work that has no partial result. The exit code tells which signal came.
///
/// A signal that comes while an output is being written lets the write finish (the exit code
/// still tells the signal); a second one aborts it, removing its temporary files. A file too
/// large for the process's limit (SIGXFSZ) is a write error, handled as a full disk is.
fn watch_signals(stop: Arc<AtomicBool>) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGXFSZ};
    let _ = signal_hook::flag::register(SIGXFSZ, Arc::new(AtomicBool::new(false)));
    for sig in [SIGINT, SIGTERM, SIGHUP] {
        // SAFETY: the action only stores to atomics and calls `_exit`, all async-signal-safe.
        let _ = unsafe {
            signal_hook::low_level::register(sig, move || {
                RECEIVED.store(sig, Ordering::SeqCst);
                rtplab::door::signal();
                if FINAL.load(Ordering::SeqCst) {
                    signal_hook::low_level::exit(128 + sig);
                }
            })
        };
    }
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    // Messages ignore a standard error that is gone (a hang-up closes the terminal).
    let say = |text: String| {
        let _ = writeln!(std::io::stderr(), "{text}");
    };
    std::thread::spawn(move || {
        for sig in signals.forever() {
            let name = match sig {
                SIGTERM => "SIGTERM",
                SIGHUP => "SIGHUP",
                _ => "Ctrl-C",
            };
            // The signal is recorded before the stop flag is raised, so a run that sees the
            // flag always finds the signal.
            let graceful = GRACEFUL.load(Ordering::SeqCst);
            let first = SIGNAL.swap(sig, Ordering::SeqCst) == 0;
            if first && rtplab::door::writing() {
                stop.store(true, Ordering::SeqCst);
                say(format!("\ninterrupted ({name}): finishing the files being written (signal again to abort)"));
                continue;
            }
            // Work that stops its own way (a solve saving its progress) says what it does.
            let stopping = rtplab::job::stopping_now();
            if !graceful || !first {
                rtplab::door::abandon();
                // Said on standard error (ignoring a closed one), so that an exit code of 130
                // or 143 is never the only trace of the stop.
                let written = rtplab::door::written();
                let what = match (graceful, written.is_empty()) {
                    (true, true) => match stopping {
                        Some(s) => format!("aborted at once by a second signal: {}", s.abort),
                        None => {
                            "aborted at once by a second signal: the partial report was not written"
                                .to_string()
                        }
                    },
                    (false, true) => {
                        "the work was not finished and nothing was written".to_string()
                    }
                    (_, false) => format!(
                        "aborted at once: {} written, the rest not",
                        written.join(", ")
                    ),
                };
                say(format!("\nstopped ({name}): {what}"));
                std::process::exit(128 + sig);
            }
            stop.store(true, Ordering::SeqCst);
            let now = stopping.map_or_else(
                || "finishing the step under way, then reporting what is done".to_string(),
                |s| s.now,
            );
            say(format!(
                "\ninterrupted ({name}): {now} (signal again to abort)"
            ));
        }
    });
}
