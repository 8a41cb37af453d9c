//! Dice of Doom entry points used by the binary: configuration → run → report.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::model::Model;
use super::report::{exact_ev, plots, sim_report, SimInfo};
use super::rules::DoomRules;
use super::sim::{DoomSim, GameAcc, Mode, Player};
use super::strategy::DoomStrategy;
use crate::engine::{run, RunOptions};
use crate::report::{Plots, Report};

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
}

/// Upper limit of a run's turns or games (an absurd count is refused, not attempted).
pub const MAX_COUNT: u64 = 1_000_000_000_000;

/// Run the simulation: the report, its plots, and whether it was interrupted (the report
/// covers what ran).
pub fn simulate(cfg: &DoomConfig, stop: &AtomicBool) -> anyhow::Result<(Report, Plots, bool)> {
    cfg.rules.validate().map_err(anyhow::Error::msg)?;
    let (n, what) = match cfg.mode {
        Mode::Turns(n) => (n, "--turns"),
        Mode::Games(n) => (n, "--games"),
    };
    if n == 0 || n > MAX_COUNT {
        anyhow::bail!("{what} {n}: must be between 1 and 10^12");
    }
    if let Mode::Games(_) = cfg.mode {
        if !(2..=8).contains(&cfg.seats.len()) {
            anyhow::bail!(
                "{} seats: a game needs 2 to 8 players (--players N or one --seat per player)",
                cfg.seats.len()
            );
        }
        if let Some(s) = cfg.start_seat.filter(|&s| s >= cfg.seats.len()) {
            anyhow::bail!(
                "--start-seat {}: there are only {} seats",
                s + 1,
                cfg.seats.len()
            );
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
    let opts = RunOptions {
        seed: cfg.seed,
        chunks: 0..sim.chunks(),
        threads: cfg.threads,
        progress: cfg.progress,
        label: "doom".into(),
    };
    let out = run(&sim, &opts, stop)?;
    let info = SimInfo {
        mode: cfg.mode,
        seats: cfg.seats.iter().map(|s| s.name.clone()).collect(),
        exact_ev: players
            .iter()
            .map(|p| exact_ev(&p.strategy, &p.solution))
            .collect(),
        seed: cfg.seed,
        start_seat: cfg.start_seat,
        elapsed_s: out.elapsed.as_secs_f64(),
        threads: out.threads,
        interrupted: out.interrupted,
        chunks_done: out.chunks_done,
        chunks_planned: out.chunks_planned,
    };
    let report = sim_report(&model, &out.acc, &info);
    let acc: GameAcc = out.acc;
    let interrupted = out.interrupted;
    Ok((report, Box::new(move || plots(&acc, &info)), interrupted))
}
