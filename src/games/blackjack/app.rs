//! Blackjack runs from a configuration: strategy selection (one `match`, then generic code)
//! and the report.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::report::{build, RunInfo, SideBets};
use super::rules::Rules;
use super::sim::{plan, BjAcc, BjSim};
use super::strategy::{
    AlwaysInsure, AutoPlay, Chart, MimicDealer, NeverBust, Strategy, StrategySpec,
};
use crate::engine::{run, RunOptions};
use crate::report::Report;

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
}

/// Turn a strategy name or chart path into a strategy.
pub fn resolve_strategy(name: &str, _rules: &Rules) -> anyhow::Result<StrategySpec> {
    Ok(match name {
        "basic" => StrategySpec::Chart(Box::new(seed_chart())),
        "autoplay" | "auto-play" => StrategySpec::AutoPlay,
        "mimic-dealer" | "mimic" => StrategySpec::MimicDealer,
        "never-bust" => StrategySpec::NeverBust,
        path if Path::new(path).exists() => StrategySpec::Chart(Box::new(Chart::load(Path::new(path))?)),
        other => anyhow::bail!(
            "unknown strategy '{other}': expected basic, autoplay, mimic-dealer, never-bust, or the path of a chart file (see strategies/README.md)"
        ),
    })
}

/// The built-in chart for the seed rules.
pub fn seed_chart() -> Chart {
    Chart::parse(SEED_CHART, SEED_CHART_NAME).expect("the built-in seed chart parses (tested)")
}

/// Run the simulation; returns the accumulators and the facts of the run.
pub fn simulate(cfg: &BjConfig, stop: &AtomicBool) -> anyhow::Result<(BjAcc, RunInfo)> {
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
) -> anyhow::Result<(BjAcc, RunInfo)> {
    cfg.rules.validate()?;
    let p = plan(&cfg.rules, strategy, cfg.seed, cfg.rounds, cfg.chunk_shoes);
    let sim = BjSim {
        rules: &cfg.rules,
        strategy,
        shoes_per_chunk: p.shoes_per_chunk,
    };
    let opts = RunOptions {
        seed: cfg.seed,
        chunks: 0..p.chunks,
        threads: cfg.threads,
        progress: cfg.progress,
        label: "blackjack".into(),
    };
    let out = run(&sim, &opts, stop)?;
    let info = RunInfo {
        seed: cfg.seed,
        rounds_requested: cfg.rounds,
        plan: p,
        chunks_done: out.chunks_done,
        interrupted: out.interrupted,
        elapsed_s: out.elapsed.as_secs_f64(),
        threads: out.threads,
    };
    Ok((out.acc, info))
}

/// Simulate and build the report; the flag says whether the run was interrupted.
pub fn simulate_report(
    cfg: &BjConfig,
    claim: Option<f64>,
    stop: &AtomicBool,
) -> anyhow::Result<(Report, bool)> {
    let (acc, info) = simulate(cfg, stop)?;
    let mut report = build(&cfg.rules, &cfg.strategy, &cfg.bets, &acc, &info, claim);
    if matches!(&cfg.strategy, StrategySpec::Chart(c) if c.name == SEED_CHART_NAME)
        && !same_chart_rules(&cfg.rules)
    {
        report.notes.push(
            "The basic chart was made for the seed rules; under other rules it is not the best play.".into(),
        );
    }
    Ok((report, info.interrupted))
}

fn same_chart_rules(r: &Rules) -> bool {
    let s = Rules::seed();
    r.decks == s.decks
        && r.h17 == s.h17
        && r.peek == s.peek
        && r.dealer_bj_takes == s.dealer_bj_takes
        && r.surrender == s.surrender
        && r.double == s.double
        && r.das == s.das
        && r.max_hands == s.max_hands
}
