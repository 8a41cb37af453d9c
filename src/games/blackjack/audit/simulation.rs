//! The simulation cross-check: each simulated tier's run, from its own report model, beside
//! its exact figures.

use std::sync::atomic::AtomicBool;

use super::super::report::{BehindFollows, SideBets};
use super::super::rules::Shuffle;
use super::super::strategy::StrategySpec;
use super::super::{BjConfig, BjError, Blackjack};
use super::{AuditConfig, HistRow, SimWager, Simulation, Tier, TierName, Wager};
use crate::audit::{interval, sim_chunk, ChiSquare};
use crate::stats::p_value;

/// The simulation of each tier in `specs`, until a stop; none without rounds.
pub(super) fn simulations(
    cfg: &AuditConfig,
    specs: &[(TierName, StrategySpec)],
    tiers: &[Tier],
    wagers: &[Wager],
    stop: &AtomicBool,
) -> Result<Vec<Simulation>, BjError> {
    let mut simulation = Vec::new();
    if cfg.rounds == 0 {
        return Ok(simulation);
    }
    if let Some(f) = cfg.on_simulation {
        f();
    }
    for (name, spec) in specs {
        let tier = tiers.iter().find(|t| t.tier == *name).expect("tier");
        let behind_exact = wagers
            .iter()
            .find(|w| w.tier == Some(*name) && w.wager.contains("declining"))
            .map_or(f64::NAN, |w| w.rtp_exact);
        // A run stopped before its first chunk has nothing to compare: it is left out, and
        // the dossier is marked interrupted.
        if let Some(sim) = simulate(cfg, tier, spec, behind_exact, wagers, stop)? {
            simulation.push(sim);
        }
        if stop.load(std::sync::atomic::Ordering::SeqCst) {
            break;
        }
    }
    Ok(simulation)
}

/// The run that simulates the tier `spec` plays: every round from a fresh shoe, the exact
/// analysis's setting, with the pairs bet, insurance and a declining bet behind placed on
/// every round to check them too.
pub(super) fn simulation_run(
    cfg: &AuditConfig,
    spec: &StrategySpec,
) -> (BjConfig, crate::game::RunSpec) {
    // One seat from a fresh shoe every round: the exact analysis's setting, and independent
    // rounds for the chi-square (seats at one table share the dealer's hand).
    let mut rules = cfg.rules.clone();
    rules.shuffle = Shuffle::EveryRound;
    rules.players = 1;
    let mut bc = BjConfig::new(rules, spec.clone(), cfg.rounds);
    bc.tables = cfg.tables.clone();
    bc.sides = cfg.sides.clone();
    bc.bets = SideBets {
        pairs: 1.0,
        behind: 1.0,
        behind_follows: BehindFollows::None,
        insure: true,
    };
    let spec_run = crate::game::RunSpec {
        seed: cfg.seed,
        threads: cfg.threads,
        progress: cfg.progress,
        // A round is a shoe here (shuffled every round), so this is rounds per chunk.
        chunk: Some(sim_chunk(cfg.rounds)),
        label: Some(format!("audit: simulating {}", spec.info().name)),
        ..Default::default()
    };
    (bc, spec_run)
}

/// The simulated histogram of one round's net beside the tier's exact distribution: every
/// net value either side has. Also the rounds counted.
fn histogram(tier: &Tier, sim: &super::super::report::SimModel) -> (Vec<HistRow>, u64) {
    let counts: Vec<(f64, u64)> = sim
        .net_distribution
        .iter()
        .map(|r| (r.net, r.count))
        .collect();
    let n: u64 = counts.iter().map(|c| c.1).sum();
    let mut nets: Vec<f64> = tier.distribution.iter().map(|d| d.net).collect();
    for c in &counts {
        if !nets.contains(&c.0) {
            nets.push(c.0);
        }
    }
    nets.sort_by(f64::total_cmp);
    let mut histogram = Vec::new();
    for net in nets {
        let count = counts.iter().find(|c| c.0 == net).map_or(0, |c| c.1);
        let p_exact = tier
            .distribution
            .iter()
            .find(|d| d.net == net)
            .map_or(0.0, |d| d.p);
        histogram.push(HistRow {
            net,
            count,
            p_sim: crate::report::rate(count, n),
            p_exact,
        });
    }
    (histogram, n)
}

/// The side wagers and the declining bet behind as simulated (over `n` rounds), each against
/// its exact RTP.
fn sim_wagers(
    sim: &super::super::report::SimModel,
    wagers: &[Wager],
    behind_exact: f64,
    n: u64,
) -> Vec<SimWager> {
    let exact_of = |name: &str| {
        wagers
            .iter()
            .find(|w| w.wager.starts_with(name))
            .map_or(f64::NAN, |w| w.rtp_exact)
    };
    let side = &sim.side_bets;
    let behind = &sim.bet_behind;
    let sim_wager = |wager: &str, rtp: f64, se: f64, bets: u64, exact: f64| SimWager {
        wager: wager.into(),
        bets,
        rtp,
        se,
        rtp_exact: exact,
        z_vs_exact: (rtp - exact) / se,
    };
    vec![
        sim_wager(
            "pairs side bet",
            side.pairs.rtp,
            side.pairs.se,
            side.pairs.bets,
            exact_of("pairs"),
        ),
        sim_wager(
            "insurance",
            side.insurance.rtp,
            side.insurance.se,
            side.insurance.taken,
            exact_of("insurance"),
        ),
        sim_wager(
            "bet behind, declining doubles and splits",
            behind.rtp,
            behind.se,
            n,
            behind_exact,
        ),
    ]
    .into_iter()
    .chain(sim.side_wagers.iter().map(|w| {
        sim_wager(
            &format!("side bet {}", w.name),
            w.rtp,
            w.se,
            w.bets,
            w.exact_rtp,
        )
    }))
    .collect()
}

/// One simulated tier (see [`simulation_run`]) beside its exact figures.
fn simulate(
    cfg: &AuditConfig,
    tier: &Tier,
    spec: &StrategySpec,
    behind_exact: f64,
    wagers: &[Wager],
    stop: &AtomicBool,
) -> Result<Option<Simulation>, BjError> {
    let (bc, spec_run) = simulation_run(cfg, spec);
    let run = crate::game::simulate::<Blackjack>(bc, &spec_run, stop)?;
    if run.acc.counts.seat_rounds == 0 {
        return Ok(None);
    }
    // The figures the run's own report gives, from its model (not read back from its JSON).
    let sim = super::super::game::run_model(&run, None)?;
    let (ev, se) = (sim.ev, sim.ev_se);
    let batches = run.acc.main.batches;
    let ci = |level: f64| interval(ev, se, batches.saturating_sub(1), level);
    let z_vs_exact = (ev - tier.ev_exact) / se;
    let (histogram, n) = histogram(tier, &sim);
    // With resplits the exact distribution leaves out three- and four-hand results, which the
    // simulation has: no goodness-of-fit test then (the EV's z still holds: the EV is exact).
    let chi_square = (tier.approximation.resplit_mass == 0.0)
        .then(|| ChiSquare::of(histogram.iter().map(|h| (h.count, h.p_exact * n as f64))));
    Ok(Some(Simulation {
        tier: tier.tier,
        rounds: n,
        seed: cfg.seed,
        shuffle: "every round, one seat (as the exact analysis)",
        interrupted: run.meta.interrupted,
        ev,
        se,
        batches,
        ci95: ci(0.95),
        ci99: ci(0.99),
        rtp: 1.0 + ev,
        z_vs_exact,
        p_vs_exact: p_value(z_vs_exact),
        z_vs_claim: cfg.claim.map(|c| (1.0 + ev - c) / se),
        chi_square,
        histogram,
        wagers: sim_wagers(&sim, wagers, behind_exact, n),
    }))
}
