//! The thin binary: parse, validate, call the library, render, exit.
//! Exit codes: 0 ok, 1 a check failed, 2 usage or input error, 130 interrupted (SIGINT,
//! Ctrl-C), 143 terminated (SIGTERM, as sent by Slurm and Kubernetes).

mod cli;

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;

use cli::{
    BlackjackCompare, BlackjackExact, BlackjackSim, CheckArgs, Cli, Command, CompareGame,
    DeriveBlackjack, DeriveGame, ExactGame, IndicesBlackjack, IndicesGame, MergeArgs, SimGame,
    StrategiesCmd, TcRounding,
};
use rtplab::game::{Game, RunSpec};
use rtplab::games::blackjack::{self, BjConfig, Blackjack};
use rtplab::report::write_output;

fn main() -> ExitCode {
    let cli = match Cli::parse_args(std::env::args_os()) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let stop = Arc::new(AtomicBool::new(false));
    // Only simulations stop cleanly with a partial report; any other command ends at once.
    // A blackjack audit becomes graceful when its simulation starts (its exact part has no
    // partial result); the Doom audit's exact part takes a moment, so it is graceful throughout.
    let graceful = matches!(
        cli.command,
        Command::Sim(_) | Command::Compare(_) | Command::Audit(cli::AuditGame::Doom(_))
    );
    GRACEFUL.store(graceful, Ordering::SeqCst);
    watch_signals(stop.clone());
    let result = match cli.command {
        Command::Sim(SimGame::Blackjack(args)) => sim_blackjack(&args, &stop),
        Command::Sim(SimGame::Doom(args)) => sim_doom(&args, &stop),
        Command::Exact(ExactGame::Doom(args)) => exact_doom(&args),
        Command::Sim(SimGame::TwentyOne(args)) => sim_twenty_one(&args, &stop),
        Command::Exact(ExactGame::TwentyOne(args)) => exact_twenty_one(&args),
        Command::Sim(SimGame::Baccarat(args)) => sim_baccarat(&args, &stop),
        Command::Exact(ExactGame::Baccarat(args)) => exact_baccarat(&args),
        Command::Merge(args) => merge(&args),
        Command::Check(args) => check(&args),
        Command::Monitor(args) => monitor(&args),
        Command::Audit(cli::AuditGame::Blackjack(args)) => audit_blackjack(&args, &stop),
        Command::Audit(cli::AuditGame::Doom(args)) => audit_doom(&args, &stop),
        Command::Advise(cli::AdviseGame::Blackjack(args)) => advise_blackjack(&args),
        Command::Advise(cli::AdviseGame::Doom(args)) => advise_doom(&args),
        Command::Advise(cli::AdviseGame::TwentyOne(args)) => advise_twenty_one(&args),
        Command::Compare(CompareGame::Blackjack(args)) => compare_blackjack(&args, &stop),
        Command::Compare(CompareGame::Baccarat(args)) => compare_baccarat(&args, &stop),
        Command::Compare(CompareGame::Doom(args)) => check_outputs(&args.output, None)
            .and_then(|_| args.configs())
            .and_then(|c| {
                compare::<rtplab::games::doom::Doom>(c, &args.run.spec()?, &args.output, &stop)
            }),
        Command::Exact(ExactGame::Blackjack(args)) => exact_blackjack(&args),
        Command::Strategies(StrategiesCmd::Derive(DeriveGame::Blackjack(args))) => {
            derive_blackjack(&args)
        }
        Command::Strategies(StrategiesCmd::Indices(IndicesGame::Blackjack(args))) => {
            indices_blackjack(&args)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// The signal that stopped the run (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Whether a signal now stops the run gracefully with a partial report (see `watch_signals`).
static GRACEFUL: AtomicBool = AtomicBool::new(false);

/// SIGINT (Ctrl-C) and SIGTERM (Slurm, Kubernetes) both stop a run cleanly (`graceful`): the
/// chunks in progress finish and the partial report, marked interrupted, goes where the run was
/// told to write it. A second signal aborts at once, and so does the first for commands that
/// have no partial result (`GRACEFUL` false). The exit code tells which signal came.
fn watch_signals(stop: Arc<AtomicBool>) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        for sig in signals.forever() {
            // The signal is recorded before the stop flag is raised, so a run that sees the
            // flag always finds the signal.
            if !GRACEFUL.load(Ordering::SeqCst) || SIGNAL.swap(sig, Ordering::SeqCst) != 0 {
                std::process::exit(128 + sig);
            }
            stop.store(true, Ordering::SeqCst);
            let name = if sig == SIGTERM { "SIGTERM" } else { "Ctrl-C" };
            eprintln!("\ninterrupted ({name}): finishing the chunks in progress, then reporting (signal again to abort)");
        }
    });
}

/// The exit code of an interrupted run: 128 + the signal (130 for SIGINT, 143 for SIGTERM).
fn interrupted_code() -> ExitCode {
    match SIGNAL.load(Ordering::SeqCst) {
        s @ 1..=127 => ExitCode::from(128 + s as u8),
        _ => ExitCode::from(130),
    }
}

/// Check the run's output paths before any work: a typo must not cost the run.
fn check_outputs(out: &cli::OutputArgs, shard_out: Option<&Path>) -> anyhow::Result<()> {
    check_outputs_reading(out, shard_out, &[])
}

/// That no output destroys an input named on the command line or a folder in `input_dirs`.
fn no_input_destroyed(
    input_dirs: &[&Path],
    files: &[(&str, &Path)],
    dir: Option<&Path>,
) -> anyhow::Result<()> {
    let args: Vec<_> = std::env::args_os().collect();
    Ok(rtplab::output::check_not_inputs(
        &args, input_dirs, files, dir,
    )?)
}

/// `check_outputs` for a command that reads the folders `input_dirs`.
fn check_outputs_reading(
    out: &cli::OutputArgs,
    shard_out: Option<&Path>,
    input_dirs: &[&Path],
) -> anyhow::Result<()> {
    if let Some(p) = &out.output {
        rtplab::output::check_file("--output", p, rtplab::output::Write::InPlace)?;
    }
    if let Some(d) = &out.out_dir {
        rtplab::output::check_dir(d, out.force)?;
    }
    if let Some(p) = shard_out {
        rtplab::output::check_file("--shard-out", p, rtplab::output::Write::Rename)?;
    }
    let files: Vec<(&str, &Path)> = [
        ("--output", out.output.as_deref()),
        ("--shard-out", shard_out),
    ]
    .into_iter()
    .filter_map(|(f, p)| p.map(|p| (f, p)))
    .collect();
    no_input_destroyed(input_dirs, &files, out.out_dir.as_deref())
}

/// `sim GAME` for every game: check the outputs, run, report, exit code.
fn sim<G: Game>(
    cfg: G::Config,
    spec: &RunSpec,
    claim: Option<f64>,
    output: &cli::OutputArgs,
    stop: &AtomicBool,
) -> anyhow::Result<ExitCode> {
    let r = rtplab::game::sim_rendered::<G>(cfg, spec, claim, stop)?;
    emit_run(&r.report, r.plots, r.interrupted, output)
}

fn sim_blackjack(args: &BlackjackSim, stop: &AtomicBool) -> anyhow::Result<ExitCode> {
    check_outputs(&args.output, args.run.base.shard_out.as_deref())?;
    let cfg = BjConfig::try_from(args)?;
    let spec = args.run.base.spec(args.chunk_shoes)?;
    sim::<Blackjack>(cfg, &spec, args.claim, &args.output, stop)
}

fn sim_doom(args: &cli::doom::DoomSim, stop: &AtomicBool) -> anyhow::Result<ExitCode> {
    use rtplab::games::doom::{game::DoomConfig, Doom};
    check_outputs(&args.output, args.run.shard_out.as_deref())?;
    let cfg = DoomConfig::try_from(args)?;
    sim::<Doom>(cfg, &args.run.spec(None)?, None, &args.output, stop)
}

fn exact_doom(args: &cli::doom::DoomExact) -> anyhow::Result<ExitCode> {
    check_outputs(&args.output, None)?;
    use rtplab::games::doom::{model::Model, report, strategy::DoomStrategy, DoomError};
    let rules = args.rules.to_rules()?;
    if args.objective == cli::doom::Objective::Win || args.players != 1 {
        if args.objective != cli::doom::Objective::Win || args.players != 2 {
            let objective = match args.objective {
                cli::doom::Objective::Win => "win",
                cli::doom::Objective::Points => "points",
            };
            anyhow::bail!(
                "--players {} --objective {objective}: the exact analysis solves one turn (--players 1 --objective points) or a game of two played to win (--players 2 --objective win)",
                args.players,
            );
        }
        if !args.strategies.is_empty() {
            anyhow::bail!(
                "--strategy is for the single-turn analysis; the win objective solves its own policy (compare strategies with sim doom --seat win-optimal --seat STRATEGY)"
            );
        }
        let model = Model::new(&rules);
        let x = report::win_model(&model)?;
        let rep = report::render_win(&x);
        let plots = if args.output.out_dir.is_some() {
            report::win_plots(&x).map_err(|e| anyhow::anyhow!("cannot draw the plots: {e}"))?
        } else {
            Vec::new()
        };
        emit(&rep, &args.output, &plots)?;
        return Ok(ExitCode::SUCCESS);
    }
    let strategies = args
        .strategies
        .iter()
        .map(|s| DoomStrategy::parse(s).map_err(DoomError::Strategy))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(s) = strategies.iter().find(|s| s.win) {
        anyhow::bail!(
            "--strategy {}: the win-optimal policy is solved by --players 2 --objective win",
            s.spec
        );
    }
    if args.sweep_max > rtplab::games::doom::exact::CAP_POINTS {
        anyhow::bail!(
            "--sweep-max {}: at most {} points",
            args.sweep_max,
            rtplab::games::doom::exact::CAP_POINTS
        );
    }
    let model = Model::new(&rules);
    let rep = report::exact_report(
        &model,
        &report::ExactOptions {
            strategies,
            sweep_max: args.sweep_max,
        },
    );
    emit(&rep, &args.output, &[])?;
    Ok(ExitCode::SUCCESS)
}

fn sim_twenty_one(
    args: &cli::twentyone::TwentyOneSim,
    stop: &AtomicBool,
) -> anyhow::Result<ExitCode> {
    use rtplab::games::twentyone::{game, TwentyOne};
    check_outputs(&args.output, args.run.shard_out.as_deref())?;
    let cfg = game::TwentyOneConfig::try_from(args)?;
    let spec = args.run.spec(None)?;
    if args.sweep_c.is_empty() {
        return sim::<TwentyOne>(cfg, &spec, None, &args.output, stop);
    }
    if let Some(c) = args.sweep_c.iter().find(|c| !(0.0..=100.0).contains(*c)) {
        anyhow::bail!("--sweep-c {c}: costs per roll must be from 0 to 100");
    }
    let (report, interrupted) = game::sweep(&cfg, &args.sweep_c, &spec, stop)?;
    emit(&report, &args.output, &[])?;
    Ok(if interrupted {
        interrupted_code()
    } else {
        ExitCode::SUCCESS
    })
}

fn exact_twenty_one(args: &cli::twentyone::TwentyOneExact) -> anyhow::Result<ExitCode> {
    check_outputs(&args.output, None)?;
    let rules = args.rules.to_rules()?;
    rules
        .validate(1)
        .map_err(rtplab::games::twentyone::TwentyOneError::Rules)?;
    if !(0.0..=100.0).contains(&args.c) {
        anyhow::bail!("--c {}: the cost per roll must be from 0 to 100", args.c);
    }
    let report =
        rtplab::games::twentyone::report::exact_report(&rules, args.row_policy.then_some(args.c));
    emit(&report, &args.output, &[])?;
    Ok(ExitCode::SUCCESS)
}

fn sim_baccarat(args: &cli::baccarat::BaccaratSim, stop: &AtomicBool) -> anyhow::Result<ExitCode> {
    use rtplab::games::baccarat::{BacConfig, Baccarat};
    check_outputs(&args.output, args.run.shard_out.as_deref())?;
    let cfg = BacConfig::try_from(args)?;
    let spec = args.run.spec(args.chunk_shoes)?;
    sim::<Baccarat>(cfg, &spec, args.claim, &args.output, stop)
}

fn exact_baccarat(args: &cli::baccarat::BaccaratExact) -> anyhow::Result<ExitCode> {
    check_outputs(&args.output, None)?;
    let rules = args.rules.to_rules()?;
    use rtplab::games::baccarat::exact_report::{exact_model, render};
    let report = render(&exact_model(&rules));
    emit(&report, &args.output, &[])?;
    Ok(ExitCode::SUCCESS)
}

fn merge(args: &MergeArgs) -> anyhow::Result<ExitCode> {
    check_outputs(&args.output, None)?;
    let r = rtplab::games::merge(&args.files, args.claim)?;
    emit_run(&r.report, r.plots, false, &args.output)
}

fn exact_blackjack(args: &BlackjackExact) -> anyhow::Result<ExitCode> {
    check_outputs(&args.output, None)?;
    let rules = args.rules.to_rules()?;
    blackjack::exact::check_exact(&rules)?;
    let strategy = match &args.strategy {
        Some(s) => Some(blackjack::resolve::resolve_strategy(s, &rules)?),
        None => None,
    };
    let cfg = blackjack::exact_report::ExactConfig {
        both_settlements: !args.rules.settlement_given(),
        rules,
        strategy,
        claim: args.claim,
        sensitivity: args.sensitivity,
        post_split: args.post_split.into(),
    };
    let report = blackjack::exact_report::render(&blackjack::exact_report::exact_model(&cfg));
    emit(&report, &args.output, &[])?;
    Ok(ExitCode::SUCCESS)
}

/// A strategy file's --output, checked before the work starts.
fn check_strategy_output(output: Option<&Path>) -> anyhow::Result<()> {
    if let Some(p) = output {
        rtplab::output::check_file("--output", p, rtplab::output::Write::InPlace)?;
        no_input_destroyed(&[], &[("--output", p)], None)?;
    }
    Ok(())
}

/// Write a strategy file to --output (standard output without one).
fn write_strategy_file(text: &str, output: Option<&Path>) -> anyhow::Result<ExitCode> {
    write_output(text, output).map_err(|e| {
        anyhow::anyhow!(
            "cannot write --output {}: {e}",
            output.unwrap_or(Path::new("-")).display()
        )
    })?;
    Ok(ExitCode::SUCCESS)
}

fn derive_blackjack(args: &DeriveBlackjack) -> anyhow::Result<ExitCode> {
    check_strategy_output(args.output.as_deref())?;
    let rules = args.rules.to_rules()?;
    let chart = blackjack::derive::derive_chart(&rules);
    let text = chart.to_csv(&blackjack::derive::chart_header(&rules));
    write_strategy_file(&text, args.output.as_deref())
}

fn indices_blackjack(args: &IndicesBlackjack) -> anyhow::Result<ExitCode> {
    use blackjack::count::CountSystem;
    use blackjack::derive::{derive_indices, IndexRequest};
    use blackjack::strategy::StrategySpec;
    check_strategy_output(args.output.as_deref())?;
    let rules = args.rules.to_rules()?;
    let system = CountSystem::resolve(&args.count)?;
    let StrategySpec::Chart(chart) = blackjack::resolve::resolve_strategy(&args.strategy, &rules)?
    else {
        anyhow::bail!(
            "--strategy {}: index plays deviate from a chart (basic or a chart file)",
            args.strategy
        );
    };
    let range = args
        .range
        .split_once("..")
        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
    let Some((lo, hi)) = range else {
        anyhow::bail!("--range {}: expected LO..HI, e.g. -10..10", args.range);
    };
    let rounding = match args.tc_rounding {
        TcRounding::Floor => blackjack::count::TcRounding::Floor,
        TcRounding::Truncate => blackjack::count::TcRounding::Truncate,
        TcRounding::Nearest => blackjack::count::TcRounding::Nearest,
    };
    let decks_left = args.decks_left.unwrap_or(rules.decks as f64 / 2.0);
    let req = IndexRequest {
        rules: &rules,
        system: &system,
        chart: &chart,
        decks_left,
        rounding,
        lo,
        hi,
    };
    let found = derive_indices(&req)?;
    let key = if system.balanced() {
        "true count"
    } else {
        "running count"
    };
    let mut text = format!(
        "# rtplab index plays (format: strategies/README.md, 'Index plays')\n\
         # Computed by `rtplab strategies indices blackjack` from the exact analysis for:\n\
         # {rules}\n\
         # count {} ({key}, {} rounding), chart {}, shoes depleted to each count with {decks_left} decks left\n\
         # (composition tilted to the count, composition-dependent play after the first decision).\n\
         # Each comment gives the real-valued {key} where the two plays' EVs cross.\n\
         hand,up,play,when\n",
        system.label,
        args.tc_rounding.as_str(),
        chart.name,
    );
    for g in &found {
        text += &format!(
            "{:<20} # crossing {:+.2}\n",
            g.entry.to_string(),
            g.crossing
        );
    }
    write_strategy_file(&text, args.output.as_deref())
}

fn advise_blackjack(args: &cli::AdviseBlackjack) -> anyhow::Result<ExitCode> {
    use blackjack::advise::{advise, parse_card, parse_cards, render, AdviseRequest};
    check_outputs(&args.output, None)?;
    let rules = args.rules.to_rules()?;
    let spec = blackjack::resolve::resolve_strategy(&args.strategy, &rules)?;
    let req = AdviseRequest {
        rules: &rules,
        hand: parse_cards(&args.hand)?,
        up: parse_card(&args.up)?,
        removed: parse_cards(&args.removed)?,
    };
    let model = rtplab::with_strategy!(&spec, rules.h17, |s| advise(&req, s))?;
    emit(&render(&model, &rules, &spec.name()), &args.output, &[])?;
    Ok(ExitCode::SUCCESS)
}

fn advise_doom(args: &cli::AdviseDoom) -> anyhow::Result<ExitCode> {
    use rtplab::games::doom::advise::{advise, parse_dice, render, DoomAdviseRequest, GameScores};
    use rtplab::games::doom::model::Model;
    check_outputs(&args.output, None)?;
    let rules = args.rules.to_rules()?;
    let req = DoomAdviseRequest {
        roll: parse_dice(&args.roll)?,
        held: parse_dice(&args.held)?,
        turn_points: args.turn_points,
        game: match (args.score, args.opponent) {
            (Some(score), Some(opponent)) => Some(GameScores {
                score,
                opponent,
                seat: (args.seat == Some(cli::SeatOrder::Second)) as usize,
            }),
            _ => None,
        },
    };
    let model = Model::new(&rules);
    // The advice to win solves the whole game first: minutes at large targets.
    let note = |target: u64| {
        if std::io::stderr().is_terminal() {
            eprintln!(
                "Solving the two-player game to {} first (at 10,000: about 2-3 minutes on 2 cores)...",
                rtplab::report::count(target)
            );
        }
    };
    let solved = rtplab::games::doom::advise::Solved {
        before_win_solve: Some(&note),
        ..Default::default()
    };
    let a = advise(&model, &req, solved)?;
    emit(&render(&a, &rules.summary()), &args.output, &[])?;
    Ok(ExitCode::SUCCESS)
}

fn advise_twenty_one(args: &cli::AdviseTwentyOne) -> anyhow::Result<ExitCode> {
    use rtplab::games::twentyone::{advise, strategy::RowTable};
    check_outputs(&args.output, None)?;
    let rules = args.rules.to_rules()?;
    if !(0.0..=100.0).contains(&args.c) {
        anyhow::bail!("--c {}: the cost per roll must be from 0 to 100", args.c);
    }
    let req = advise::parse(
        &args.row,
        &args.filled,
        args.hits,
        &args.roll,
        args.rerolls_left,
    )?;
    let table = RowTable::new(args.c, rules.rerolls);
    let a = advise::advise(&table, &req)?;
    emit(&advise::render(&a, &req), &args.output, &[])?;
    Ok(ExitCode::SUCCESS)
}

fn audit_blackjack(args: &cli::BlackjackAudit, stop: &AtomicBool) -> anyhow::Result<ExitCode> {
    use blackjack::audit;
    check_outputs(&args.output, None)?;
    let cfg = audit::AuditConfig {
        rules: args.rules.to_rules()?,
        claim: args.claim,
        rounds: args.rounds,
        seed: args.seed,
        threads: args.threads,
        progress: !args.quiet,
        monitor_tier: args.monitor_tier.into(),
        // The exact part has no partial result: a signal during it ends the command at once.
        on_simulation: Some(|| GRACEFUL.store(true, Ordering::SeqCst)),
    };
    let model = audit::audit(&cfg, stop)?;
    let plots = if args.output.out_dir.is_some() {
        audit::plots(&model).map_err(|e| anyhow::anyhow!("the dossier's plots: {e}"))?
    } else {
        Vec::new()
    };
    emit(&audit::render(&model), &args.output, &plots)?;
    Ok(if model.identity.interrupted {
        interrupted_code()
    } else {
        ExitCode::SUCCESS
    })
}

fn audit_doom(args: &cli::doom::DoomAudit, stop: &AtomicBool) -> anyhow::Result<ExitCode> {
    use rtplab::games::doom::audit;
    check_outputs(&args.output, None)?;
    let cfg = audit::DoomAuditConfig {
        rules: args.rules.to_rules()?,
        bank_at: args.bank_at.clone(),
        turns: args.turns,
        games: args.games,
        seed: args.seed,
        threads: args.threads,
        progress: !args.quiet,
    };
    let model = audit::audit(&cfg, stop)?;
    let plots = if args.output.out_dir.is_some() {
        audit::plots(&model).map_err(|e| anyhow::anyhow!("the dossier's plots: {e}"))?
    } else {
        Vec::new()
    };
    emit(&audit::render(&model), &args.output, &plots)?;
    Ok(if model.identity.interrupted {
        interrupted_code()
    } else {
        ExitCode::SUCCESS
    })
}

fn monitor(args: &cli::MonitorArgs) -> anyhow::Result<ExitCode> {
    use rtplab::input::{read_stdin, read_text, MAX_SHARD_BYTES, MAX_TEXT_BYTES, STDIN};
    use rtplab::monitor as m;
    const MAX_LOG_BYTES: u64 = MAX_TEXT_BYTES * 64;
    check_outputs(&args.output, None)?;
    // The level first: a bad one is refused before any file is read.
    m::z_of_level(args.level)?;
    let text = read_text(&args.expected, "--expected", MAX_SHARD_BYTES)?;
    let expected = m::Expectation::from_json(&text, &args.expected.display().to_string())?;
    // `-` reads the log from standard input (an export piped in).
    let (log_name, log) = if args.log.as_os_str() == "-" {
        let log = read_stdin("the log", MAX_LOG_BYTES)?;
        (STDIN.to_string(), log)
    } else {
        let log = read_text(&args.log, "the log", MAX_LOG_BYTES)?;
        (args.log.display().to_string(), log)
    };
    let periods = m::parse_log(&log, &log_name)?;
    let model = m::monitor(
        &expected,
        &periods,
        args.level,
        &m::LogFile::new(&log_name, &log),
    )?;
    let plots = if args.output.out_dir.is_some() {
        vec![(
            "funnel.svg".to_string(),
            m::plot(&model).map_err(|e| anyhow::anyhow!("the funnel plot: {e}"))?,
        )]
    } else {
        Vec::new()
    };
    emit(&m::render(&model), &args.output, &plots)?;
    Ok(if model.all_in_band() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn check(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    check_outputs_reading(&args.output, None, &[&args.dir])?;
    let outcomes = rtplab::check::check_dir(&args.dir, args.z, args.bless)?;
    let report = rtplab::check::report(&outcomes, args.z, args.bless);
    emit(&report, &args.output, &[])?;
    Ok(if outcomes.iter().all(|o| o.ok) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `compare GAME` for every game: check the output, compare, report, exit code.
fn compare<G: Game>(
    configs: Vec<G::Config>,
    spec: &RunSpec,
    output: &cli::OutputArgs,
    stop: &AtomicBool,
) -> anyhow::Result<ExitCode> {
    let (report, interrupted) = rtplab::compare::compare_report::<G>(configs, spec, stop)?;
    emit(&report, output, &[])?;
    Ok(if interrupted {
        interrupted_code()
    } else {
        ExitCode::SUCCESS
    })
}

fn compare_blackjack(args: &BlackjackCompare, stop: &AtomicBool) -> anyhow::Result<ExitCode> {
    check_outputs(&args.output, None)?;
    let base = args.rules.to_rules()?;
    // Every combination of the lists given; a list not given is one default entry.
    let or = |v: &[String], d: &str| -> Vec<Option<String>> {
        if v.is_empty() {
            vec![(!d.is_empty()).then(|| d.to_string())]
        } else {
            v.iter().map(|s| Some(s.clone())).collect()
        }
    };
    let counting = !args.counts.is_empty();
    if !counting {
        let given = [
            ("--ramp", !args.ramps.is_empty()),
            ("--indices", !args.indices.is_empty()),
            (args.play.given().unwrap_or(""), args.play.given().is_some()),
        ];
        if let Some((flag, _)) = given.iter().find(|g| g.1) {
            anyhow::bail!("{flag} needs --count SYSTEM (the count it bets or plays on)");
        }
    }
    let penetrations: Vec<Option<f64>> = if args.penetrations.is_empty() {
        vec![None]
    } else {
        args.penetrations.iter().map(|&p| Some(p)).collect()
    };
    let mut configs = Vec::new();
    for strategy in or(&args.strategies, "basic").into_iter().flatten() {
        for &pen in &penetrations {
            let mut rules = base.clone();
            if let Some(p) = pen {
                rules.shuffle = blackjack::rules::Shuffle::CutCard { penetration: p };
                rules.validate()?;
            }
            let spec = blackjack::resolve::resolve_strategy(&strategy, &rules)?;
            for count in or(&args.counts, "") {
                for ramp in or(&args.ramps, "") {
                    for ix in or(&args.indices, "") {
                        let mut cfg = BjConfig::new(rules.clone(), spec.clone(), args.rounds);
                        if count.is_some() {
                            let c = cli::CountArgs {
                                count: count.clone(),
                                ramp: ramp.clone(),
                                play: args.play.clone(),
                                indices: ix.clone().filter(|s| s != "none"),
                                ..Default::default()
                            };
                            cfg.count = c.spec()?;
                        }
                        configs.push(cfg);
                    }
                }
            }
        }
    }
    compare::<Blackjack>(configs, &args.run.spec()?, &args.output, stop)
}

fn compare_baccarat(
    args: &cli::baccarat::BaccaratCompare,
    stop: &AtomicBool,
) -> anyhow::Result<ExitCode> {
    use rtplab::games::baccarat::Baccarat;
    check_outputs(&args.output, None)?;
    let configs = args
        .bets
        .iter()
        .map(|b| args.stakes.config(b))
        .collect::<anyhow::Result<Vec<_>>>()?;
    compare::<Baccarat>(configs, &args.run.spec()?, &args.output, stop)
}

/// Emit a simulation's report (plots only with --out-dir); exit 130 if it was interrupted.
fn emit_run(
    report: &rtplab::report::Report,
    plots: rtplab::report::Plots,
    interrupted: bool,
    out: &cli::OutputArgs,
) -> anyhow::Result<ExitCode> {
    let plots = if out.out_dir.is_some() {
        plots()?
    } else {
        Vec::new()
    };
    emit(report, out, &plots)?;
    Ok(if interrupted {
        interrupted_code()
    } else {
        ExitCode::SUCCESS
    })
}

/// Print the report in the chosen format (or to --output), and write --out-dir if given. A
/// write that fails at the end does not lose the report: it goes to standard output, and
/// standard error says so (exit code 2).
fn emit(
    report: &rtplab::report::Report,
    out: &cli::OutputArgs,
    plots: &[(String, String)],
) -> anyhow::Result<()> {
    let text = report.render(out.format.into());
    let to_file = out.output.as_deref().filter(|p| p.as_os_str() != "-");
    let mut on_stdout = to_file.is_none();
    let mut failed = Vec::new();
    if let Err(e) = write_output(&text, out.output.as_deref()) {
        match to_file {
            Some(p) => {
                failed.push(format!("cannot write --output {}: {e}", p.display()));
                write_output(&text, None)?;
                on_stdout = true;
            }
            None => anyhow::bail!("cannot write the report to standard output: {e}"),
        }
    }
    if let Some(dir) = &out.out_dir {
        if let Err(e) = rtplab::report::write_out_dir(dir, report, plots) {
            failed.push(format!("cannot write --out-dir {}: {e}", dir.display()));
            if !on_stdout {
                write_output(&text, None)?;
                on_stdout = true;
            }
        }
    }
    if failed.is_empty() {
        return Ok(());
    }
    debug_assert!(on_stdout);
    anyhow::bail!(
        "{}; the report was printed on standard output instead",
        failed.join("; ")
    )
}
