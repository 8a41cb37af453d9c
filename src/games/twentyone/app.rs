//! Twenty One entry points used by the binary.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use super::report::{plots, sim_report, sweep_report, RunInfo, SweepPoint};
use super::rules::TwentyOneRules;
use super::sim::{TwentyOneAcc, TwentyOneSim};
use super::strategy::SeatStrategy;
use super::TwentyOneError;
use crate::report::{PlotError, Plots, Report, RunMeta};
use crate::shard::{merge_files, run_sharded, RunPlan, ShardSpec};
use std::path::PathBuf;

/// Default seats, cycled for any player count.
pub const DEFAULT_SEATS: [&str; 4] = ["hits-only", "slack:1", "greedy", "row-optimal:1"];

pub struct TwentyOneConfig {
    pub rules: TwentyOneRules,
    pub seats: Vec<String>,
    pub games: u64,
    pub seed: u64,
    pub start_seat: Option<usize>,
    pub threads: Option<usize>,
    pub progress: bool,
    /// Run only this shard of the run's chunks.
    pub shard: Option<ShardSpec>,
    /// Write the run's (or shard's) sums here for `rtplab merge`.
    pub shard_out: Option<PathBuf>,
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

fn validate(cfg: &TwentyOneConfig) -> Result<(), TwentyOneError> {
    cfg.rules
        .validate(cfg.seats.len())
        .map_err(TwentyOneError::Rules)?;
    if cfg.games == 0 || cfg.games > 1_000_000_000_000 {
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

fn run_games(
    cfg: &TwentyOneConfig,
    seats: Vec<Arc<SeatStrategy>>,
    stop: &AtomicBool,
) -> Result<(TwentyOneAcc, RunInfo), TwentyOneError> {
    let names: Vec<String> = seats.iter().map(|s| s.name.clone()).collect();
    let specs: Vec<String> = seats.iter().map(|s| s.spec.clone()).collect();
    let per_chunk = (cfg.games / 256).clamp(100, 20_000);
    let sim = TwentyOneSim {
        rules: Arc::new(cfg.rules.clone()),
        seats,
        games: cfg.games,
        per_chunk,
        start_seat: cfg.start_seat,
        record_events: false,
    };
    let total = sim.chunks();
    let plan = RunPlan {
        seed: cfg.seed,
        threads: cfg.threads,
        progress: cfg.progress,
        label: "twenty-one",
        shard: cfg.shard,
        shard_out: cfg.shard_out.as_deref(),
    };
    let key = || {
        serde_json::json!({
            "game": "twenty-one",
            "version": crate::VERSION,
            "rules": cfg.rules,
            "specs": specs,
            "names": names,
            "games": cfg.games,
            "per_chunk": per_chunk,
            "chunks": total,
            "seed": cfg.seed,
            "start_seat": cfg.start_seat,
        })
    };
    let (out, _) = run_sharded(&sim, total, &plan, key, stop)?;
    let info = RunInfo {
        seats: names,
        run: RunMeta::of(cfg.seed, cfg.start_seat, &out),
    };
    Ok((out.acc, info))
}

/// Simulate games: the report, its plots, and whether the run was interrupted.
pub fn simulate(
    cfg: &TwentyOneConfig,
    stop: &AtomicBool,
) -> Result<(Report, Plots, bool), TwentyOneError> {
    validate(cfg)?;
    let seats = parse_seats(&cfg.rules, &cfg.seats)?;
    let (acc, info) = run_games(cfg, seats, stop)?;
    let mut report = sim_report(&cfg.rules, &acc, &info);
    if let Some(sh) = cfg.shard {
        report.notes.push(format!(
            "Shard {}/{} of the run; merge the shard files for the run's report.",
            sh.k, sh.n
        ));
    }
    let interrupted = info.run.interrupted;
    Ok((
        report,
        Box::new(move || plots(&acc, &info).map_err(PlotError)),
        interrupted,
    ))
}

/// Seat 1 plays row-optimal:c for each c against `cfg.seats` (the other seats); the same
/// seed, hence the same dice streams, for every c.
/// Sweep the cost per roll: the report, and whether the sweep was interrupted.
pub fn sweep(
    cfg: &TwentyOneConfig,
    cs: &[f64],
    stop: &AtomicBool,
) -> Result<(Report, bool), TwentyOneError> {
    if cs.is_empty() {
        return Err(TwentyOneError::SweepEmpty);
    }
    let t0 = Instant::now();
    let mut points = Vec::new();
    let mut stopped_at = None;
    for &c in cs {
        let mut seats = vec![format!("row-optimal:{c}")];
        seats.extend(cfg.seats.iter().cloned());
        let one = TwentyOneConfig {
            seats,
            rules: cfg.rules.clone(),
            shard: None,
            shard_out: None,
            ..*cfg
        };
        validate(&one)?;
        let parsed = parse_seats(&one.rules, &one.seats)?;
        let (acc, info) = run_games(&one, parsed, stop)?;
        if info.run.interrupted {
            stopped_at = Some(c);
            break;
        }
        points.push(SweepPoint { c, acc });
    }
    let mut r = sweep_report(
        &cfg.rules,
        &cfg.seats,
        &points,
        cfg.seed,
        t0.elapsed().as_secs_f64(),
    );
    if let Some(c) = stopped_at {
        r.notes.insert(
            0,
            format!("INTERRUPTED at c = {c}: the costs before it are complete, the rest not run."),
        );
        r.json["interrupted_at_c"] = serde_json::json!(c);
        r.meta
            .push(("Status".into(), format!("INTERRUPTED at c = {c}")));
    }
    r.json["interrupted"] = serde_json::json!(stopped_at.is_some());
    Ok((r, stopped_at.is_some()))
}

/// Merge the shard files of one Twenty One run into its report.
pub fn merge_report(paths: &[PathBuf]) -> Result<Report, TwentyOneError> {
    let m = merge_files::<TwentyOneAcc>(paths)?;
    let rules: TwentyOneRules = m.field("rules")?;
    let info = RunInfo {
        seats: m.field("names")?,
        run: m.run_meta()?,
    };
    let mut report = sim_report(&rules, &m.acc, &info);
    report.notes.push(m.note());
    Ok(report)
}
