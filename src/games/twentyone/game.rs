//! Twenty One as a [`Game`], and the cost-per-roll sweep on top of it.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::report::{plots, sim_report, sweep_model, RunInfo, SweepModel, SweepPoint};
use super::rules::TwentyOneRules;
use super::sim::{TwentyOneAcc, TwentyOneSim};
use super::strategy::SeatStrategy;
use super::TwentyOneError;
use crate::game::{
    simulate, three_decimals, BoxedSim, Expected, Game, Headline, HeadlineKind, Run, RunSpec,
};
use crate::report::{PlotError, Report, RunMeta};

/// Twenty One, the roll-and-write dice game.
pub struct TwentyOne;

/// Default seats, cycled for any player count.
pub const DEFAULT_SEATS: [&str; 4] = ["hits-only", "slack:1", "greedy", "row-optimal:1"];

/// A validated simulation request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TwentyOneConfig {
    pub rules: TwentyOneRules,
    /// One strategy spec (or strategy file path) per seat.
    pub seats: Vec<String>,
    pub games: u64,
    /// 0-based; `None`: rotate the starting seat game by game.
    pub start_seat: Option<usize>,
}

impl TwentyOneConfig {
    /// The standard rules with `seats`, `games` games, the starting seat rotating.
    pub fn new(seats: &[&str], games: u64) -> TwentyOneConfig {
        TwentyOneConfig {
            rules: TwentyOneRules::standard(),
            seats: seats.iter().map(|s| s.to_string()).collect(),
            games,
            start_seat: None,
        }
    }
}

/// How a Twenty One run maps onto chunks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TwentyOnePlan {
    pub per_chunk: u64,
    pub chunks: u64,
    /// Each seat's strategy spec (a file's spec line for a path): what the seat played.
    pub specs: Vec<String>,
    /// Each seat's name in reports (for a file, its path and spec).
    pub names: Vec<String>,
}

fn parse_seats(
    rules: &TwentyOneRules,
    seats: &[String],
) -> Result<Vec<Arc<SeatStrategy>>, TwentyOneError> {
    let mut out: Vec<Arc<SeatStrategy>> = Vec::new();
    for s in seats {
        let p = SeatStrategy::parse(s, rules.rerolls).map_err(TwentyOneError::Strategy)?;
        // Share the (row-optimal) tables of identical strategies.
        match out.iter().find(|q| ***q == p) {
            Some(q) => out.push(q.clone()),
            None => out.push(Arc::new(p)),
        }
    }
    Ok(out)
}

impl Game for TwentyOne {
    const NAME: &'static str = "twenty-one";
    type Config = TwentyOneConfig;
    type Plan = TwentyOnePlan;
    type Acc = TwentyOneAcc;
    type Error = TwentyOneError;
    type Baseline = TwentyOneBaseline;

    fn label(cfg: &TwentyOneConfig) -> crate::game::Label {
        crate::game::Label {
            name: cfg.seats.join(" | "),
            hash: None,
        }
    }

    fn chunk_unit(_cfg: &TwentyOneConfig) -> &'static str {
        "games"
    }
    fn rules_line(cfg: &TwentyOneConfig) -> String {
        cfg.rules.summary()
    }

    fn headline_kind(_cfg: &TwentyOneConfig) -> HeadlineKind {
        HeadlineKind {
            what: "seat 1's mean final score",
            unit: "points",
            format: three_decimals,
            claims: false,
            score: false,
            scale: 1.0,
        }
    }

    fn headline(_cfg: &TwentyOneConfig, acc: &TwentyOneAcc) -> Headline {
        Headline {
            ratio: acc.score.first().cloned().unwrap_or_default(),
            count: acc.games,
        }
    }

    fn validate(cfg: &TwentyOneConfig) -> Result<(), TwentyOneError> {
        cfg.rules
            .validate(cfg.seats.len())
            .map_err(TwentyOneError::Rules)?;
        if cfg.games == 0 || cfg.games > crate::game::MAX_COUNT {
            return Err(TwentyOneError::Games(cfg.games));
        }
        if let Some(s) = cfg.start_seat.filter(|&s| s >= cfg.seats.len()) {
            return Err(TwentyOneError::StartSeat {
                seat: s + 1,
                seats: cfg.seats.len(),
            });
        }
        Ok(())
    }

    fn prepare(
        cfg: &TwentyOneConfig,
        _seed: u64,
        chunk: Option<u64>,
        _shards: u64,
    ) -> Result<(TwentyOnePlan, BoxedSim<TwentyOneAcc>), TwentyOneError> {
        let seats = parse_seats(&cfg.rules, &cfg.seats)?;
        let per_chunk = crate::game::chunk_size(cfg.games, chunk, 256, 100..=20_000);
        let specs = seats.iter().map(|s| s.spec.clone()).collect();
        let names = seats.iter().map(|s| s.name.clone()).collect();
        let sim = TwentyOneSim {
            rules: Arc::new(cfg.rules.clone()),
            seats,
            games: cfg.games,
            per_chunk,
            start_seat: cfg.start_seat,
            record_events: false,
        };
        let plan = TwentyOnePlan {
            per_chunk,
            chunks: sim.chunks(),
            specs,
            names,
        };
        Ok((plan, Box::new(sim)))
    }

    fn report(run: &Run<TwentyOne>, _claim: Option<f64>) -> Result<Report, TwentyOneError> {
        Ok(sim_report(&run.config.rules, &run.acc, &info(run)))
    }

    fn plots(
        run: &Run<TwentyOne>,
        _claim: Option<f64>,
    ) -> Result<Vec<(String, String)>, PlotError> {
        plots(&run.acc, &info(run)).map_err(PlotError)
    }
}

fn info(run: &Run<TwentyOne>) -> RunInfo {
    RunInfo {
        seats: run.plan.names.clone(),
        run: RunMeta {
            start_seat: run.config.start_seat,
            ..run.meta.clone()
        },
    }
}

/// A Twenty One baseline of `check`: a small fixed run of games (sums only; no exact value).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TwentyOneBaseline {
    /// One strategy per seat.
    pub seats: Vec<String>,
    pub rerolls: u8,
    /// Games.
    pub count: u64,
    pub per_chunk: u64,
}

/// Seat 1 plays row-optimal:c for each c against `cfg.seats` (the other seats); the same
/// seed, hence the same dice streams, for every c. The report, and whether the sweep was
/// interrupted.
pub fn sweep(
    cfg: &TwentyOneConfig,
    cs: &[f64],
    spec: &RunSpec,
    stop: &AtomicBool,
) -> Result<SweepModel, TwentyOneError> {
    if cs.is_empty() {
        return Err(TwentyOneError::SweepEmpty);
    }
    if spec.shard.is_some() || spec.shard_out.is_some() {
        return Err(TwentyOneError::SweepSharded);
    }
    let t0 = Instant::now();
    let mut points = Vec::new();
    let mut stopped_at = None;
    for &c in cs {
        let mut seats = vec![format!("row-optimal:{c}")];
        seats.extend(cfg.seats.iter().cloned());
        let one = TwentyOneConfig {
            seats,
            ..cfg.clone()
        };
        let run = simulate::<TwentyOne>(one, spec, stop)?;
        if run.meta.interrupted {
            stopped_at = Some(c);
            break;
        }
        points.push(SweepPoint { c, acc: run.acc });
    }
    Ok(sweep_model(
        &cfg.rules,
        &cfg.seats,
        &points,
        spec.seed,
        t0.elapsed().as_secs_f64(),
        stopped_at,
    ))
}

impl crate::game::Chunks for TwentyOnePlan {
    fn chunks(&self) -> u64 {
        self.chunks
    }
    fn chunk_size(&self) -> u64 {
        self.per_chunk
    }
}

impl crate::game::Baseline<TwentyOne> for TwentyOneBaseline {
    fn run(&self) -> Result<(TwentyOneConfig, u64), TwentyOneError> {
        let mut rules = TwentyOneRules::standard();
        rules.rerolls = self.rerolls;
        let cfg = TwentyOneConfig {
            rules,
            seats: self.seats.clone(),
            games: self.count,
            start_seat: None,
        };
        Ok((cfg, self.per_chunk))
    }

    fn sums(acc: &TwentyOneAcc) -> serde_json::Value {
        serde_json::json!({
            "games": acc.games,
            "scores": acc.score.iter().map(|r| r.x).collect::<Vec<_>>(),
            "score_squares": acc.score.iter().map(|r| r.xx).collect::<Vec<_>>(),
            "wins": acc.wins.iter().map(|r| r.x).collect::<Vec<_>>(),
            "crossings": acc.crossings,
            "rolls": acc.rolls,
        })
    }

    fn expected(_cfg: &TwentyOneConfig) -> Result<Option<Expected>, TwentyOneError> {
        Ok(None)
    }
}
