//! Dice of Doom entry points used by the binary: configuration → run → report.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::model::Model;
use super::report::{exact_ev, plots, sim_report, SimInfo};
use super::rules::DoomRules;
use super::sim::{DoomSim, GameAcc, Mode, Player, MAX_ROUNDS};
use super::strategy::DoomStrategy;
use super::DoomError;
use crate::report::{PlotError, Plots, Report, RunMeta};
use crate::shard::{merge_files, run_sharded, RunPlan, ShardSpec};
use std::path::PathBuf;

/// A validated simulation request.
pub struct DoomConfig {
    pub rules: DoomRules,
    /// One strategy per seat (one in turn mode).
    pub seats: Vec<DoomStrategy>,
    pub mode: Mode,
    pub seed: u64,
    /// 0-based; `None`: rotate the starting seat game by game.
    pub start_seat: Option<usize>,
    pub threads: Option<usize>,
    pub progress: bool,
    /// Run only this shard of the run's chunks.
    pub shard: Option<ShardSpec>,
    /// Write the run's (or shard's) sums here for `rtplab merge`.
    pub shard_out: Option<PathBuf>,
}

/// Upper limit of a run's turns or games (an absurd count is refused, not attempted).
pub const MAX_COUNT: u64 = 1_000_000_000_000;

/// Run the simulation: the report, its plots, and whether it was interrupted (the report
/// covers what ran).
pub fn simulate(cfg: &DoomConfig, stop: &AtomicBool) -> Result<(Report, Plots, bool), DoomError> {
    cfg.rules.validate().map_err(DoomError::Rules)?;
    let (n, what) = match cfg.mode {
        Mode::Turns(n) => (n, "--turns"),
        Mode::Games(n) => (n, "--games"),
    };
    if n == 0 || n > MAX_COUNT {
        return Err(DoomError::Count { what, n });
    }
    if let Mode::Games(_) = cfg.mode {
        if !(2..=8).contains(&cfg.seats.len()) {
            return Err(DoomError::Seats(cfg.seats.len()));
        }
        if let Some(s) = cfg.start_seat.filter(|&s| s >= cfg.seats.len()) {
            return Err(DoomError::StartSeat {
                seat: s + 1,
                seats: cfg.seats.len(),
            });
        }
    }
    let model = Arc::new(Model::new(&cfg.rules));
    // Solve each distinct strategy once.
    let mut players: Vec<Arc<Player>> = Vec::new();
    for s in &cfg.seats {
        let p = match players.iter().find(|p| p.strategy == *s) {
            Some(p) => p.clone(),
            None => Arc::new(Player::new(&model, s.clone())),
        };
        players.push(p);
    }
    if let Mode::Games(_) = cfg.mode {
        check_target_reachable(&cfg.rules, &players)?;
    }
    let per_chunk = match cfg.mode {
        Mode::Turns(n) => (n / 256).clamp(1_000, 200_000),
        Mode::Games(n) => (n / 256).clamp(1, 200),
    };
    let sim = DoomSim {
        model: model.clone(),
        players: players.clone(),
        mode: cfg.mode,
        start_seat: cfg.start_seat,
        per_chunk,
    };
    let total = sim.chunks();
    let plan = RunPlan {
        seed: cfg.seed,
        threads: cfg.threads,
        progress: cfg.progress,
        label: "doom",
        shard: cfg.shard,
        shard_out: cfg.shard_out.as_deref(),
    };
    let (out, chunks) = run_sharded(&sim, total, &plan, || run_key(cfg, per_chunk, total), stop)?;
    let info = SimInfo {
        mode: cfg.mode,
        seats: cfg.seats.iter().map(|s| s.name.clone()).collect(),
        exact_ev: players
            .iter()
            .map(|p| exact_ev(&p.strategy, &p.solution))
            .collect(),
        run: RunMeta::of(cfg.seed, cfg.start_seat, &out),
    };
    // (A shard's file is already written; `merge` refuses it too.)
    refuse_unfinished(&out.acc, cfg.rules.target)?;
    let mut report = sim_report(&model, &out.acc, &info);
    if let Some(sh) = cfg.shard {
        report.notes.push(format!(
            "Shard {}/{}: chunks {}..{} of {total}; merge the shard files for the run's report.",
            sh.k, sh.n, chunks.start, chunks.end
        ));
    }
    let acc: GameAcc = out.acc;
    let interrupted = out.interrupted;
    Ok((
        report,
        Box::new(move || plots(&acc, &info).map_err(PlotError)),
        interrupted,
    ))
}

/// Refuse, before running, a target that games cannot reach within `MAX_ROUNDS` rounds.
///
/// The best seat's exact turn EV `g` (the long-run average per turn with a farkle penalty) is
/// the most any seat's total grows per round on average, so a game needs about `target / g`
/// rounds at least (more when doom wipes the bank). Targets up to `g · MAX_ROUNDS / 2` are
/// accepted: reaching them takes half the limit on average, and a total after `MAX_ROUNDS`
/// turns falls short of that by hundreds of standard deviations, so no game is cut short.
pub fn check_target_reachable(rules: &DoomRules, players: &[Arc<Player>]) -> Result<(), DoomError> {
    let Some(best) = players
        .iter()
        .max_by(|a, b| a.solution.turn_ev.total_cmp(&b.solution.turn_ev))
    else {
        return Ok(());
    };
    let g = best.solution.turn_ev;
    let limit = (g * MAX_ROUNDS as f64 / 2.0).max(0.0);
    let target = rules.target as f64;
    if g > 0.0 && target <= limit {
        return Ok(());
    }
    let need = if g > 0.0 {
        format!(
            "so reaching {} takes about {:.0} rounds",
            rules.target,
            (target / g).ceil()
        )
    } else {
        "so no one's total grows".into()
    };
    Err(DoomError::Unreachable {
        target: rules.target,
        best: best.strategy.name.clone(),
        g,
        need,
        largest: (limit / 50.0).floor() * 50.0,
    })
}

/// A run in which some game was abandoned at `MAX_ROUNDS` has no win rates or final scores:
/// refuse it as a whole.
fn refuse_unfinished(acc: &GameAcc, target: u64) -> Result<(), DoomError> {
    if acc.unfinished == 0 {
        return Ok(());
    }
    Err(DoomError::Unfinished {
        unfinished: acc.unfinished,
        games: acc.unfinished + acc.games,
        target,
    })
}

/// Everything that determines a run's numbers; equal for all its shards.
fn run_key(cfg: &DoomConfig, per_chunk: u64, chunks: u64) -> serde_json::Value {
    let (mode, count) = match cfg.mode {
        Mode::Turns(n) => ("turns", n),
        Mode::Games(n) => ("games", n),
    };
    serde_json::json!({
        "game": "doom",
        "version": crate::VERSION,
        "rules": cfg.rules,
        "specs": cfg.seats.iter().map(|s| s.spec.clone()).collect::<Vec<_>>(),
        "names": cfg.seats.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
        "mode": mode,
        "count": count,
        "per_chunk": per_chunk,
        "chunks": chunks,
        "seed": cfg.seed,
        "start_seat": cfg.start_seat,
    })
}

/// Merge the shard files of one Dice of Doom run into its report.
pub fn merge_report(paths: &[PathBuf]) -> Result<Report, DoomError> {
    let m = merge_files::<GameAcc>(paths)?;
    let rules: DoomRules = m.field("rules")?;
    let specs: Vec<String> = m.field("specs")?;
    let names: Vec<String> = m.field("names")?;
    let count: u64 = m.field("count")?;
    let mode = if m.field::<String>("mode")? == "turns" {
        Mode::Turns(count)
    } else {
        Mode::Games(count)
    };
    let model = Model::new(&rules);
    let mut exact = Vec::new();
    for s in &specs {
        let st = DoomStrategy::parse(s).map_err(DoomError::Strategy)?;
        let pl = Player::new(&model, st);
        exact.push(exact_ev(&pl.strategy, &pl.solution));
    }
    let info = SimInfo {
        mode,
        seats: names,
        exact_ev: exact,
        run: m.run_meta()?,
    };
    refuse_unfinished(&m.acc, rules.target)?;
    let mut report = sim_report(&model, &m.acc, &info);
    report.notes.push(m.note());
    Ok(report)
}
