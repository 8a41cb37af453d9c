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
    MetricsGame, RampGame, SimGame, StrategiesCmd, VerifyGame,
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
            | Command::Compare(_)
            | Command::Audit(AuditGame::Doom(_))
            | Command::Verify(_)
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
    fn run<J: Job>(job: J, ctx: &Ctx) -> anyhow::Result<Status> {
        Ok(execute(job, ctx)?)
    }
    use blackjack::Blackjack;
    match command {
        Command::Sim(SimGame::Blackjack(a)) if a.log_out.is_some() => {
            run(blackjack::log::write::LoggedSimJob::try_from(&a)?, ctx)
        }
        Command::Sim(SimGame::Blackjack(a)) => run(SimJob::<Blackjack>::try_from(&a)?, ctx),
        Command::Sim(SimGame::Doom(a)) => run(SimJob::<doom::Doom>::try_from(&a)?, ctx),
        Command::Sim(SimGame::TwentyOne(a)) if !a.sweep_c.is_empty() => {
            run(twentyone::jobs::SweepJob::try_from(&a)?, ctx)
        }
        Command::Sim(SimGame::TwentyOne(a)) => {
            run(SimJob::<twentyone::TwentyOne>::try_from(&a)?, ctx)
        }
        Command::Sim(SimGame::Baccarat(a)) if a.log_out.is_some() => {
            run(baccarat::jobs::SimLogJob::try_from(&a)?, ctx)
        }
        Command::Sim(SimGame::Baccarat(a)) => run(SimJob::<baccarat::Baccarat>::try_from(&a)?, ctx),
        Command::Exact(ExactGame::Blackjack(a)) => {
            run(blackjack::jobs::ExactJob::try_from(&a)?, ctx)
        }
        Command::Exact(ExactGame::Doom(a)) => run(doom::jobs::ExactJob::try_from(&a)?, ctx),
        Command::Exact(ExactGame::TwentyOne(a)) => {
            run(twentyone::jobs::ExactJob::try_from(&a)?, ctx)
        }
        Command::Exact(ExactGame::Baccarat(a)) => run(baccarat::jobs::ExactJob::try_from(&a)?, ctx),
        Command::Compare(CompareGame::Blackjack(a)) => {
            run(CompareJob::<Blackjack>::try_from(&a)?, ctx)
        }
        Command::Compare(CompareGame::Baccarat(a)) => {
            run(CompareJob::<baccarat::Baccarat>::try_from(&a)?, ctx)
        }
        Command::Compare(CompareGame::Doom(a)) => run(CompareJob::<doom::Doom>::try_from(&a)?, ctx),
        Command::Strategies(StrategiesCmd::Derive(DeriveGame::Blackjack(a))) => {
            run(blackjack::jobs::DeriveJob::try_from(&a)?, ctx)
        }
        Command::Strategies(StrategiesCmd::Indices(IndicesGame::Blackjack(a))) => {
            run(blackjack::jobs::IndicesJob::try_from(&a)?, ctx)
        }
        Command::Strategies(StrategiesCmd::Ramp(RampGame::Blackjack(a))) => {
            run(blackjack::jobs::RampJob::try_from(&a)?, ctx)
        }
        Command::Strategies(StrategiesCmd::Bets(BetsGame::Blackjack(a))) => {
            run(blackjack::jobs::BetsJob::try_from(&a)?, ctx)
        }
        Command::Strategies(StrategiesCmd::Metrics(MetricsGame::Blackjack(a))) => {
            run(blackjack::jobs::MetricsJob::try_from(&a)?, ctx)
        }
        Command::Advise(AdviseGame::Blackjack(a)) => {
            run(blackjack::jobs::AdviseJob::try_from(&a)?, ctx)
        }
        Command::Advise(AdviseGame::Doom(a)) => run(doom::jobs::AdviseJob::try_from(&a)?, ctx),
        Command::Advise(AdviseGame::TwentyOne(a)) => {
            run(twentyone::jobs::AdviseJob::try_from(&a)?, ctx)
        }
        Command::Audit(AuditGame::Blackjack(a)) => {
            run(blackjack::jobs::AuditJob::try_from(&a)?, ctx)
        }
        Command::Audit(AuditGame::Doom(a)) => run(doom::jobs::AuditJob::try_from(&a)?, ctx),
        Command::Verify(VerifyGame::Baccarat(a)) => run(baccarat::verify::VerifyJob::from(&a), ctx),
        Command::Merge(a) => run(rtplab::merge::MergeJob::from(&a), ctx),
        Command::Check(a) => run(rtplab::check::CheckJob::from(&a), ctx),
        Command::Monitor(a) => run(rtplab::monitor::MonitorJob::from(&a), ctx),
        Command::Verify(VerifyGame::Blackjack(a)) => {
            run(blackjack::verify::VerifyJob::from(&a), ctx)
        }
        Command::Risk(a) => run(rtplab::risk::RiskJob::from(&a), ctx),
        Command::Cache(c) => cli::cache_command(c).map(|_| Status::Done),
        Command::BenchServe(game) => bench_serve(game),
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
        SimGame::Blackjack(a) => go(SimJob::<blackjack::Blackjack>::try_from(&a)?),
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
