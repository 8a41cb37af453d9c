//! Blackjack runs from a configuration: strategy selection (one `match`, then generic code)
//! and the report.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use std::path::PathBuf;

use serde_json::json;

use super::report::{build, RunInfo, SideBets};
use super::rules::Rules;
use super::sim::{plan, BjAcc, BjSim, Plan};
use super::strategy::StrategyInfo;
use super::strategy::{
    AlwaysInsure, AutoPlay, Chart, MimicDealer, NeverBust, Strategy, StrategySpec,
};
use super::BjError;
use crate::engine::{run, RunOptions};
use crate::report::Report;
use crate::shard::{self, ShardSpec};

/// The chart for the seed rules, compiled in (the file is `strategies/blackjack/seed.csv`).
pub const SEED_CHART: &str = include_str!("../../../strategies/blackjack/seed.csv");
/// Its name in reports.
pub const SEED_CHART_NAME: &str = "strategies/blackjack/seed.csv";

/// Everything a blackjack simulation needs.
#[derive(Clone, Debug)]
pub struct BjConfig {
    pub rules: Rules,
    pub strategy: StrategySpec,
    pub bets: SideBets,
    pub seed: u64,
    pub rounds: u64,
    pub chunk_shoes: Option<u64>,
    pub threads: Option<usize>,
    pub progress: bool,
    /// Run only this shard of the chunks.
    pub shard: Option<ShardSpec>,
}

/// The result of a (possibly sharded) run.
#[derive(Debug)]
pub struct BjRun {
    pub acc: BjAcc,
    pub info: RunInfo,
    /// What defines the run; equal for all its shards.
    pub key: serde_json::Value,
}

/// The run key: everything that determines the numbers of a run. A chart is identified by
/// its content (its hash), not by its name or path; the name is a label for reports.
pub fn run_key(cfg: &BjConfig, plan: &Plan) -> serde_json::Value {
    let info = cfg.strategy.info();
    let identity = match &cfg.strategy {
        StrategySpec::Chart(_) => "chart".to_string(),
        _ => info.name.clone(),
    };
    json!({
        "game": "blackjack",
        "version": crate::VERSION,
        "rules": cfg.rules,
        "strategy": {"kind": identity, "hash": info.hash},
        "labels": {"strategy": info},
        "bets": cfg.bets,
        "seed": cfg.seed,
        "rounds": cfg.rounds,
        "shoes_per_chunk": plan.shoes_per_chunk,
        "chunks": plan.chunks,
        "pilot_rounds_per_shoe": plan.pilot_rounds_per_shoe,
    })
}

/// The name `basic` resolves to: the chart derived for the rules given.
pub const BASIC_NAME: &str = "basic (the chart derived for these rules)";

/// Turn a strategy name or chart path into a strategy. `basic` is the best total-dependent
/// chart for `rules` (derived at start-up; the committed seed chart when the rules are the
/// seed table's, which a test proves equal to the derivation).
pub fn resolve_strategy(name: &str, rules: &Rules) -> Result<StrategySpec, BjError> {
    Ok(match name {
        "basic" => StrategySpec::Chart(Box::new(basic_chart(rules))),
        "autoplay" | "auto-play" => StrategySpec::AutoPlay,
        "mimic-dealer" | "mimic" => StrategySpec::MimicDealer,
        "never-bust" => StrategySpec::NeverBust,
        path if Path::new(path).exists() || crate::input::looks_like_path(path) => {
            let mut chart = Chart::load(Path::new(path))?;
            chart.name = format!("chart {path}");
            StrategySpec::Chart(Box::new(chart))
        }
        other => return Err(BjError::UnknownStrategy(other.to_string())),
    })
}

/// The best total-dependent chart for these rules, named [`BASIC_NAME`].
pub fn basic_chart(rules: &Rules) -> Chart {
    let mut chart = if chart_rules(rules) == chart_rules(&Rules::seed()) {
        seed_chart()
    } else {
        super::derive::derive_chart(rules)
    };
    chart.name = BASIC_NAME.to_string();
    chart
}

/// The rules with what cannot change a derived chart (how the shoe ends, the number of
/// seats: the derivation is for a full shoe) set to the seed's.
fn chart_rules(r: &Rules) -> Rules {
    let seed = Rules::seed();
    Rules {
        shuffle: seed.shuffle,
        players: seed.players,
        ..r.clone()
    }
}

/// `spec` for other rules: `basic` becomes the chart derived for `rules`; any other strategy
/// is played as it is.
pub fn rederive_basic(spec: &StrategySpec, rules: &Rules) -> StrategySpec {
    match spec {
        StrategySpec::Chart(c) if c.name == BASIC_NAME => {
            StrategySpec::Chart(Box::new(basic_chart(rules)))
        }
        other => other.clone(),
    }
}

/// The built-in chart for the seed rules (`strategies/blackjack/seed.csv`, compiled in).
pub fn seed_chart() -> Chart {
    let mut chart =
        Chart::parse(SEED_CHART, SEED_CHART_NAME).expect("the built-in seed chart parses (tested)");
    chart.name = format!("chart {SEED_CHART_NAME}");
    chart
}

/// For a chart that is not `basic`: in how many cells it differs from the chart derived for
/// these rules (`None` for other strategies and for `basic` itself).
pub fn cells_off_basic(spec: &StrategySpec, rules: &Rules) -> Option<usize> {
    match spec {
        StrategySpec::Chart(c) if c.name != BASIC_NAME => {
            let basic = basic_chart(rules);
            Some(
                c.codes
                    .iter()
                    .flatten()
                    .zip(basic.codes.iter().flatten())
                    .filter(|(a, b)| a != b)
                    .count(),
            )
        }
        _ => None,
    }
}

/// Run the simulation (or the configured shard of it).
pub fn simulate(cfg: &BjConfig, stop: &AtomicBool) -> Result<BjRun, BjError> {
    let h17 = cfg.rules.h17;
    let mimic = MimicDealer { h17 };
    match (&cfg.strategy, cfg.bets.insure) {
        (StrategySpec::Chart(c), false) => simulate_with(cfg, &**c, stop),
        (StrategySpec::Chart(c), true) => simulate_with(cfg, &AlwaysInsure((**c).clone()), stop),
        (StrategySpec::AutoPlay, false) => simulate_with(cfg, &AutoPlay, stop),
        (StrategySpec::AutoPlay, true) => simulate_with(cfg, &AlwaysInsure(AutoPlay), stop),
        (StrategySpec::MimicDealer, false) => simulate_with(cfg, &mimic, stop),
        (StrategySpec::MimicDealer, true) => simulate_with(cfg, &AlwaysInsure(mimic), stop),
        (StrategySpec::NeverBust, false) => simulate_with(cfg, &NeverBust, stop),
        (StrategySpec::NeverBust, true) => simulate_with(cfg, &AlwaysInsure(NeverBust), stop),
    }
}

/// The generic run for one concrete strategy type.
pub fn simulate_with<S: Strategy>(
    cfg: &BjConfig,
    strategy: &S,
    stop: &AtomicBool,
) -> Result<BjRun, BjError> {
    cfg.rules.validate()?;
    let p = plan(&cfg.rules, strategy, cfg.seed, cfg.rounds, cfg.chunk_shoes);
    p.check(cfg.rounds, cfg.chunk_shoes, cfg.shard.map_or(1, |s| s.n))?;
    let chunks = match cfg.shard {
        Some(sh) => sh.range(p.chunks),
        None => 0..p.chunks,
    };
    let sim = BjSim {
        rules: &cfg.rules,
        strategy,
        shoes_per_chunk: p.shoes_per_chunk,
    };
    let opts = RunOptions {
        seed: cfg.seed,
        chunks: chunks.clone(),
        threads: cfg.threads,
        progress: cfg.progress,
        label: "blackjack".into(),
    };
    let out = run(&sim, &opts, stop)?;
    let info = RunInfo {
        meta: crate::report::RunMeta::of(cfg.seed, None, &out),
        shard: cfg.shard,
        chunk_range: [chunks.start, chunks.end],
        rounds_requested: cfg.rounds,
        plan: p,
    };
    Ok(BjRun {
        acc: out.acc,
        info,
        key: run_key(cfg, &p),
    })
}

/// Write a run's shard file (atomically).
pub fn write_shard(run: &BjRun, path: &Path) -> Result<(), shard::ShardError> {
    let [start, end] = run.info.chunk_range;
    shard::write_shard_file(
        path,
        &run.key,
        run.info.shard,
        &(start..end),
        run.info.meta.chunks_done,
        run.info.meta.elapsed_s,
        &run.acc,
    )
}

/// Merge the shard files of one blackjack run into its report.
pub fn merge_report(paths: &[PathBuf], claim: Option<f64>) -> Result<Report, BjError> {
    let files = shard::read_all::<BjAcc>(paths)?;
    let key = files[0].1.key.clone();
    let rules: Rules = shard::key_field(&key, "rules")?;
    let labels: serde_json::Value = shard::key_field(&key, "labels")?;
    let strategy: StrategyInfo = shard::key_field(&labels, "strategy")?;
    let bets: SideBets = shard::key_field(&key, "bets")?;
    let plan = Plan {
        shoes_per_chunk: shard::key_field(&key, "shoes_per_chunk")?,
        chunks: shard::key_field(&key, "chunks")?,
        pilot_rounds_per_shoe: shard::key_field(&key, "pilot_rounds_per_shoe")?,
    };
    // The plausibility bounds come from the histogram's length: it must be the rules' own.
    let bins = 2 * super::sim::hist_offset(&rules) as usize + 1;
    if let Some((p, f)) = files
        .iter()
        .find(|(_, f)| f.chunks_done > 0 && f.acc.hist.len() != bins)
    {
        return Err(BjError::HistogramLength {
            file: p.display().to_string(),
            len: f.acc.hist.len(),
            bins,
        });
    }
    let mut acc = BjAcc::default();
    let mut elapsed = 0.0;
    let mut done = 0;
    for (_, f) in &files {
        crate::engine::Merge::merge(&mut acc, &f.acc);
        elapsed += f.elapsed_s;
        done += f.chunks_done;
    }
    let info = RunInfo {
        meta: crate::report::RunMeta {
            seed: shard::key_field(&key, "seed")?,
            start_seat: None,
            elapsed_s: elapsed,
            threads: 0,
            merged_from: files.len(),
            interrupted: false,
            chunks_done: done,
            chunks_planned: plan.chunks,
        },
        shard: None,
        chunk_range: [0, plan.chunks],
        rounds_requested: shard::key_field(&key, "rounds")?,
        plan,
    };
    let mut report = build(&rules, &strategy, &bets, &acc, &info, claim);
    report.notes.push(format!(
        "Merged from {} shard files; elapsed is the sum of the shards' times.",
        files.len()
    ));
    Ok(report)
}

/// Simulate and build the report.
pub fn simulate_report(
    cfg: &BjConfig,
    claim: Option<f64>,
    stop: &AtomicBool,
) -> Result<(Report, BjRun), BjError> {
    let run = simulate(cfg, stop)?;
    let mut report = build(
        &cfg.rules,
        &cfg.strategy.info(),
        &cfg.bets,
        &run.acc,
        &run.info,
        claim,
    );
    if let Some(n) = cells_off_basic(&cfg.strategy, &cfg.rules).filter(|&n| n > 0) {
        report.notes.push(format!(
            "This chart differs from the chart derived for these rules (`--strategy basic`) in {n} of {} cells.",
            super::strategy::ROWS * 10
        ));
    }
    Ok((report, run))
}
