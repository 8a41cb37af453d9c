//! Dice of Doom as a [`Game`]: configuration, plan, simulation, report, baselines.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::model::Model;
use super::report::{exact_ev, plots, render_sim, sim_model, SimInfo, SimModel};
use super::rules::{DoomPreset, DoomRules};
use super::sim::{DoomSim, GameAcc, Mode, SolvedStrategy, MAX_ROUNDS};
use super::strategy::DoomStrategy;
use super::DoomError;
use crate::game::{three_decimals, BoxedSim, Expected, Game, Headline, HeadlineKind, Run};
use crate::report::{PlotError, Report, RunMeta};

/// Dice of Doom.
pub struct Doom;

/// A validated simulation request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DoomConfig {
    pub rules: DoomRules,
    /// One strategy spec (or strategy file path) per seat (one in turn mode).
    pub seats: Vec<String>,
    pub mode: Mode,
    /// 0-based; `None`: rotate the starting seat game by game.
    pub start_seat: Option<usize>,
    /// Where a win-seeking seat's solved table is kept (not part of what is simulated: the
    /// table is the same wherever it is kept).
    #[serde(skip)]
    pub table: super::win::TableStore,
}

/// How a Dice of Doom run maps onto chunks, and what the solve found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DoomPlan {
    /// Turns or games per chunk.
    pub per_chunk: u64,
    pub chunks: u64,
    /// Each seat's strategy spec (a file's spec line for a path): what the seat played.
    pub specs: Vec<String>,
    /// Each seat's name in reports (for a file, its path and spec).
    pub names: Vec<String>,
    /// Exact turn EV of each seat's policy (`None` for the end-game variant).
    pub exact_ev: Vec<Option<f64>>,
}

fn parse(s: &str) -> Result<DoomStrategy, DoomError> {
    DoomStrategy::parse(s).map_err(DoomError::Strategy)
}

impl Game for Doom {
    const NAME: &'static str = "doom";
    type Config = DoomConfig;
    type Plan = DoomPlan;
    type Acc = GameAcc;
    type Error = DoomError;
    type Baseline = DoomBaseline;

    fn label(cfg: &DoomConfig) -> crate::game::Label {
        crate::game::Label {
            name: cfg.seats.join(" | "),
            hash: None,
        }
    }

    fn chunk_unit(cfg: &DoomConfig) -> &'static str {
        match cfg.mode {
            super::sim::Mode::Turns(_) => "turns",
            super::sim::Mode::Games(_) => "games",
        }
    }
    fn rules_line(cfg: &DoomConfig) -> String {
        cfg.rules.summary()
    }

    fn headline_kind(_cfg: &DoomConfig) -> HeadlineKind {
        HeadlineKind {
            what: "mean turn score (points)",
            unit: "points",
            format: three_decimals,
            claims: false,
            score: false,
            scale: 1.0,
        }
    }

    fn headline(_cfg: &DoomConfig, acc: &GameAcc) -> Headline {
        let t = acc.turns.first().cloned().unwrap_or_default();
        Headline {
            ratio: t.score,
            count: t.turns(),
        }
    }

    fn validate(cfg: &DoomConfig) -> Result<(), DoomError> {
        cfg.rules.validate().map_err(DoomError::Rules)?;
        let (n, what) = match cfg.mode {
            Mode::Turns(n) => (n, "--turns"),
            Mode::Games(n) => (n, "--games"),
        };
        if n == 0 || n > crate::game::MAX_COUNT {
            return Err(DoomError::Count { what, n });
        }
        match cfg.mode {
            Mode::Turns(_) if cfg.seats.len() != 1 => {
                return Err(DoomError::Strategy(
                    "turns are played by one strategy; --seat is for games".into(),
                ))
            }
            Mode::Games(_) if !(2..=8).contains(&cfg.seats.len()) => {
                return Err(DoomError::Seats(cfg.seats.len()))
            }
            _ => {}
        }
        if let (Mode::Games(_), Some(s)) = (cfg.mode, cfg.start_seat) {
            if s >= cfg.seats.len() {
                return Err(DoomError::StartSeat {
                    seat: s + 1,
                    seats: cfg.seats.len(),
                });
            }
        }
        Ok(())
    }

    fn prepare(
        cfg: &DoomConfig,
        seed: u64,
        chunk: Option<u64>,
        shards: u64,
    ) -> Result<(DoomPlan, BoxedSim<GameAcc>), DoomError> {
        Self::prepare_until(cfg, seed, chunk, shards, &AtomicBool::new(false))
    }

    /// A signal stops the two-player solve a win-seeking seat needs at the end of a sum of
    /// scores, its progress kept to resume from (`win::kept`).
    fn prepare_until(
        cfg: &DoomConfig,
        _seed: u64,
        chunk: Option<u64>,
        _shards: u64,
        stop: &AtomicBool,
    ) -> Result<(DoomPlan, BoxedSim<GameAcc>), DoomError> {
        let model = Arc::new(Model::new(&cfg.rules));
        // Solve each distinct strategy once.
        let mut players: Vec<Arc<SolvedStrategy>> = Vec::new();
        for s in &cfg.seats {
            let s = parse(s)?;
            let p = match players.iter().find(|p| p.strategy == s) {
                Some(p) => p.clone(),
                None => Arc::new(SolvedStrategy::new(&model, s)),
            };
            players.push(p);
        }
        if let Mode::Games(_) = cfg.mode {
            check_target_reachable(&cfg.rules, &players)?;
        }
        // The two-player game solved once, for win-optimal seats.
        let win = if players.iter().any(|p| p.strategy.win) {
            let two_only = players
                .iter()
                .any(|p| p.strategy.win && p.strategy.multi.is_none());
            let n = players.len();
            if !matches!(cfg.mode, Mode::Games(_)) || (two_only && n != 2) || n > 6 {
                return Err(DoomError::Strategy(
                    "win-optimal plays games of two players: --games N with two --seat (win-leader and win-field play games of 2 to 6)".into(),
                ));
            }
            let opts = super::win::WinOptions {
                progress: true,
                ..super::win::WinOptions::fast()
            };
            let (sol, _) = super::win::kept::solve_kept(&model, &opts, &cfg.table, Some(stop))
                .map_err(|e| match e {
                    super::win::WinError::Stopped(_) => DoomError::Solve(e),
                    e => DoomError::Strategy(format!("win-optimal: {e}")),
                })?;
            Some(Arc::new(super::sim::WinPlay::new(sol)))
        } else {
            None
        };
        let per_chunk = match cfg.mode {
            Mode::Turns(n) => crate::game::chunk_size(n, chunk, 256, 1_000..=200_000),
            Mode::Games(n) => crate::game::chunk_size(n, chunk, 256, 1..=200),
        };
        let sim = DoomSim {
            model,
            players: players.clone(),
            win,
            mode: cfg.mode,
            start_seat: cfg.start_seat,
            per_chunk,
        };
        let plan = DoomPlan {
            per_chunk,
            chunks: sim.chunks(),
            specs: players.iter().map(|p| p.strategy.spec.clone()).collect(),
            names: players.iter().map(|p| p.strategy.name.clone()).collect(),
            exact_ev: players
                .iter()
                .map(|p| exact_ev(&p.strategy, &p.solution))
                .collect(),
        };
        Ok((plan, Box::new(sim)))
    }

    fn report(run: &Run<Doom>, _claim: Option<f64>) -> Result<Report, DoomError> {
        Ok(render_sim(&run_model(run)?))
    }

    fn plots(run: &Run<Doom>, _claim: Option<f64>) -> Result<Vec<(String, String)>, PlotError> {
        plots(&run.acc, &info(run)).map_err(PlotError)
    }
}

/// The report model of a run: what its report renders and its JSON serializes, and what
/// other reports (the audit) read a run's figures from.
pub fn run_model(run: &Run<Doom>) -> Result<SimModel, DoomError> {
    refuse_unfinished(&run.acc, run.config.rules.target)?;
    let model = Model::new(&run.config.rules);
    Ok(sim_model(&model, &run.acc, &info(run)))
}

fn info(run: &Run<Doom>) -> SimInfo {
    SimInfo {
        mode: run.config.mode,
        seats: run.plan.names.clone(),
        exact_ev: run.plan.exact_ev.clone(),
        run: RunMeta {
            start_seat: run.config.start_seat,
            ..run.meta.clone()
        },
    }
}

/// A Dice of Doom baseline of `check`: a small fixed run of turns of one strategy under a rule
/// preset; its expected value is the strategy's exact turn EV.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DoomBaseline {
    /// The rule preset (seed, s2-common, zilch).
    pub preset: String,
    /// The strategy of the turns.
    pub strategy: String,
    /// Turns.
    pub count: u64,
    pub per_chunk: u64,
}

/// Refuse, before running, a target that games cannot reach within `MAX_ROUNDS` rounds.
///
/// The best seat's exact turn EV `g` (the long-run average per turn with a farkle penalty) is
/// the most any seat's total grows per round on average, so a game needs about `target / g`
/// rounds at least (more when doom wipes the bank). Targets up to `g · MAX_ROUNDS / 2` are
/// accepted: reaching them takes half the limit on average, and a total after `MAX_ROUNDS`
/// turns falls short of that by hundreds of standard deviations, so no game is cut short.
pub fn check_target_reachable(
    rules: &DoomRules,
    players: &[Arc<SolvedStrategy>],
) -> Result<(), DoomError> {
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

impl crate::game::Chunks for DoomPlan {
    fn chunks(&self) -> u64 {
        self.chunks
    }
    fn chunk_size(&self) -> u64 {
        self.per_chunk
    }
}

impl crate::game::Baseline<Doom> for DoomBaseline {
    fn run(&self) -> Result<(DoomConfig, u64), DoomError> {
        let preset = match self.preset.as_str() {
            "seed" => DoomPreset::Seed,
            "s2-common" => DoomPreset::S2Common,
            "zilch" => DoomPreset::Zilch,
            p => {
                return Err(DoomError::Rules(format!(
                    "unknown doom preset '{p}' (seed, s2-common, zilch)"
                )))
            }
        };
        let cfg = DoomConfig {
            rules: DoomRules::preset(preset),
            seats: vec![self.strategy.clone()],
            mode: Mode::Turns(self.count),
            start_seat: Some(0),
            table: Default::default(),
        };
        Ok((cfg, self.per_chunk))
    }

    fn sums(acc: &GameAcc) -> serde_json::Value {
        let t = acc.turns.first().cloned().unwrap_or_default();
        serde_json::json!({
            "turns": t.turns(), "points": t.score.x, "points_squares": t.score.xx,
            "farkles": t.farkles, "dooms": t.dooms, "penalties": t.penalties, "rolls": t.rolls,
        })
    }

    fn expected(cfg: &DoomConfig) -> Result<Option<Expected>, DoomError> {
        if cfg.seats.len() != 1 || !matches!(cfg.mode, Mode::Turns(_)) {
            return Ok(None);
        }
        let model = Model::new(&cfg.rules);
        let p = SolvedStrategy::new(&model, parse(&cfg.seats[0])?);
        Ok(exact_ev(&p.strategy, &p.solution).map(|ev| Expected {
            ev,
            source: "exact turn EV of this strategy (dynamic programming)".into(),
        }))
    }
}
