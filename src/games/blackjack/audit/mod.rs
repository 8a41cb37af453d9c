//! `rtplab audit blackjack`: the RTP verification dossier. Everything a testing lab needs to
//! certify (or refuse) a claimed RTP and then monitor it: the identity of the run, the rules
//! as dealt, definitions, every strategy tier's exact EV and exact distribution of one
//! round's result, every wager, the simulation cross-check, the rounds needed, acceptance
//! bands, the rule changes that would make the claim true, and the assumptions.

use std::sync::atomic::AtomicBool;

use serde::Serialize;

use super::exact_report::claim_verdict;
use super::resolve::basic_chart;
use super::rules::Rules;
use super::strategy::StrategySpec;
use super::BjError;
use crate::audit::{needed, ChiSquare, Identity, Needed, Z90, Z95, Z98, Z99, Z999};

mod changes;
mod players;
mod plots;
mod sections;
mod simulation;
mod terms;
mod tiers;

pub use changes::claim_changes;
pub use players::{player_rounds, PlayerTier, PLAYER_ROUNDS_SHARE};
pub use plots::plots;
pub use sections::render;
use simulation::simulations;
pub use terms::rules_as_dealt;
use terms::{assumptions, definitions};
use tiers::exact_tiers;

/// What to audit.
#[derive(Clone, Debug)]
pub struct AuditConfig {
    pub rules: Rules,
    /// The claimed RTP per initial bet (a fraction).
    pub claim: Option<f64>,
    /// Simulated rounds per tier that can be simulated (0: none).
    pub rounds: u64,
    pub seed: u64,
    pub threads: Option<usize>,
    pub progress: bool,
    /// The tier whose figures go into the `monitoring` object.
    pub monitor_tier: TierName,
    /// Called when the exact part is done and the simulation starts. The exact part has no
    /// partial result: the CLI ends the command at once on a signal before this, and lets the
    /// simulation stop with a partial dossier after it.
    pub on_simulation: Option<fn()>,
    /// Where the charts derived for the rules (and for each rule change) are kept.
    pub tables: super::kept::Kept,
    /// Side bets from paytables (`--side`): each gets its event table, a wager row, and its
    /// simulation against its exact RTP.
    pub sides: Vec<crate::sidebet::SideBet>,
}

/// The strategy tiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TierName {
    /// Composition-dependent optimal play: the most any player can get.
    Optimal,
    /// The best total-dependent chart for these rules.
    Basic,
    /// The table's auto-play: what a player who never acts gets.
    Autoplay,
}

impl TierName {
    pub const ALL: [TierName; 3] = [TierName::Optimal, TierName::Basic, TierName::Autoplay];
    pub fn as_str(self) -> &'static str {
        match self {
            TierName::Optimal => "optimal",
            TierName::Basic => "basic",
            TierName::Autoplay => "autoplay",
        }
    }
    fn describe(self) -> &'static str {
        match self {
            TierName::Optimal => "composition-dependent optimal play (the most a player can get; not a chart, so not simulated)",
            TierName::Basic => "basic: the best total-dependent chart for these rules",
            TierName::Autoplay => "the table's auto-play (hit to 12 or more, then stand)",
        }
    }
}

/// One net result and its probability.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct NetP {
    pub net: f64,
    pub p: f64,
}

fn netp(d: &[(f64, f64)]) -> Vec<NetP> {
    d.iter().map(|&(net, p)| NetP { net, p }).collect()
}

/// z·SD of one round at 90%, 95% and 99%.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Volatility {
    pub p90: f64,
    pub p95: f64,
    pub p99: f64,
}

/// What is approximated in a distribution and its bound.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Approximation {
    /// Rounds played as if resplitting were not allowed (probability).
    pub resplit_mass: f64,
    /// Split rounds below 1e-13 each whose dealer draws from the shoe less the first hand.
    pub tiny_mass: f64,
    /// The distribution's mean less the analysis's EV.
    pub mean_minus_ev: f64,
}

/// One strategy tier, exact.
#[derive(Clone, Debug, Serialize)]
pub struct Tier {
    pub tier: TierName,
    pub description: &'static str,
    pub strategy: String,
    pub strategy_hash: Option<String>,
    pub ev_exact: f64,
    pub rtp_exact: f64,
    pub rtp_total_wagered_exact: f64,
    /// Expected amount wagered per round, in initial bets.
    pub wagered_per_round: f64,
    pub distribution: Vec<NetP>,
    pub sd: f64,
    pub variance: f64,
    pub volatility_index: Volatility,
    pub hit_frequency: f64,
    pub push_frequency: f64,
    pub largest_win: f64,
    pub largest_win_p: f64,
    pub largest_loss: f64,
    /// SD of one round's return per amount wagered (the monitoring SD).
    pub sd_per_round_total_wagered: f64,
    pub approximation: Approximation,
}

/// One wager under one tier.
#[derive(Clone, Debug, Serialize)]
pub struct Wager {
    pub wager: String,
    /// The tier whose play it follows (none for bets that do not depend on play).
    pub tier: Option<TierName>,
    pub rtp_exact: f64,
    pub sd: f64,
    pub distribution: Vec<NetP>,
    pub method: String,
}

/// One bin of the simulated histogram beside the exact distribution.
#[derive(Clone, Debug, Serialize)]
pub struct HistRow {
    pub net: f64,
    pub count: u64,
    pub p_sim: f64,
    pub p_exact: f64,
}

/// A simulated wager beside its exact RTP.
#[derive(Clone, Debug, Serialize)]
pub struct SimWager {
    pub wager: String,
    pub bets: u64,
    pub rtp: f64,
    pub se: f64,
    pub rtp_exact: f64,
    pub z_vs_exact: f64,
}

/// The simulation of one tier.
#[derive(Clone, Debug, Serialize)]
pub struct Simulation {
    pub tier: TierName,
    pub rounds: u64,
    pub seed: u64,
    pub shuffle: &'static str,
    pub interrupted: bool,
    pub ev: f64,
    /// Batch-means standard error over `batches` chunks; the intervals use Student's t with
    /// `batches − 1` degrees of freedom.
    pub se: f64,
    pub batches: u64,
    pub ci95: [f64; 2],
    pub ci99: [f64; 2],
    pub rtp: f64,
    pub z_vs_exact: f64,
    pub p_vs_exact: f64,
    pub z_vs_claim: Option<f64>,
    /// Not computed where the distribution is approximate (resplit rounds).
    pub chi_square: Option<ChiSquare>,
    pub histogram: Vec<HistRow>,
    pub wagers: Vec<SimWager>,
}

/// Rounds after which a two-sided test at `level` rejects the claim with probability `level`
/// when the tier's exact RTP is the truth.
#[derive(Clone, Debug, Serialize)]
pub struct Separation {
    pub tier: TierName,
    pub level: f64,
    pub rounds: f64,
}

/// The band the observed RTP per amount wagered stays in after `rounds` rounds.
#[derive(Clone, Debug, Serialize)]
pub struct Band {
    pub rounds: u64,
    pub level: f64,
    pub lo: f64,
    pub hi: f64,
}

/// A rule change (one or two) and what it does to the RTP.
#[derive(Clone, Debug, Serialize)]
pub struct ChangeRow {
    pub changes: Vec<String>,
    pub rtp_optimal: f64,
    /// Computed where optimal play reaches the claim.
    pub rtp_basic: Option<f64>,
    pub reaches_claim: bool,
    /// The lowest tier that reaches it: "basic" or "optimal" (none: not reached).
    pub tier: Option<TierName>,
    /// Why the changed rules were analysed with the shoe shuffled every round (a cut card
    /// the changed shoe cannot hold), if they were.
    pub note: Option<String>,
}

/// The claim and what it can refer to.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimLine {
    pub claimed: f64,
    pub wager: &'static str,
    pub per: &'static str,
    /// The tier it can refer to: a "maximum RTP" is optimal play's.
    pub tier: TierName,
    pub rtp_exact: f64,
    pub reachable: bool,
    pub verdict: String,
}

/// What `monitor --expected` reads.
#[derive(Clone, Debug, Serialize)]
pub struct Monitoring {
    pub tier: TierName,
    pub rtp_total_wagered: f64,
    pub sd_per_round: f64,
    /// The most a round returns per amount wagered (a period above it is a data error).
    pub max_return_per_wagered: f64,
    pub note: String,
}

/// The dossier; its JSON is this struct.
#[derive(Clone, Debug, Serialize)]
pub struct AuditModel {
    pub game: &'static str,
    pub identity: Identity,
    pub rules: Rules,
    pub rules_as_dealt: Vec<(String, String)>,
    pub definitions: Vec<(String, String)>,
    pub claim: Option<ClaimLine>,
    /// Why no claim is tested, when none is (written only then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_claim: Option<String>,
    pub tiers: Vec<Tier>,
    pub wagers: Vec<Wager>,
    pub simulation: Vec<Simulation>,
    /// Basic strategy played with the mistakes of typical players (docs/mistakes.md'
    /// presets), simulated: what a table returns beside its advertised maximum.
    pub typical_players: Vec<PlayerTier>,
    /// Rounds needed to resolve each tier's RTP to ±0.01/0.05/0.1%.
    pub rounds_needed: Vec<Needed>,
    pub separation: Vec<Separation>,
    pub acceptance_bands: Vec<Band>,
    pub what_would_make_claim_true: Vec<ChangeRow>,
    pub assumptions: Vec<String>,
    pub monitoring: Monitoring,
    /// Each side bet's exact event table (`--side`; written only when given).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub side_bets: Vec<crate::sidebet::SideExact>,
}

/// The tiers the simulation cross-checks (basic and auto-play; optimal play is exact only).
const SIMULATED_TIERS: usize = 2;

/// The tiers and the strategy each is simulated with (optimal play is exact only; its spec is
/// not run).
type Specs = [(TierName, StrategySpec); 3];

/// Run the exact part and the simulations; the dossier.
pub fn audit(cfg: &AuditConfig, stop: &AtomicBool) -> Result<AuditModel, BjError> {
    let rules = &cfg.rules;
    rules.validate()?;
    super::exact::check_exact(rules)?;
    let t0 = std::time::Instant::now();
    let progress = crate::progress::Progress::new(cfg.progress, 3, "audit: exact tiers", "tiers");
    let chart = basic_chart(rules, &cfg.tables);
    let specs: Specs = [
        (TierName::Optimal, StrategySpec::AutoPlay),
        (
            TierName::Basic,
            StrategySpec::Chart(Box::new(chart.clone())),
        ),
        (TierName::Autoplay, StrategySpec::AutoPlay),
    ];
    let (tiers, mut wagers) = exact_tiers(rules, &chart, &specs, &progress);
    let side_bets: Vec<crate::sidebet::SideExact> = cfg
        .sides
        .iter()
        .map(|b| {
            crate::sidebet::SideExact::of(
                b,
                super::sidebets::exact(&b.table, rules.decks, rules.h17),
            )
        })
        .collect();
    wagers.extend(side_bets.iter().map(side_wager));
    let claim = cfg.claim.map(|c| judge_claim(c, tiers[0].rtp_exact));
    let tiers_seconds = t0.elapsed().as_secs_f64();
    let what = cfg
        .claim
        .map(|c| claim_changes(rules, c, &progress, &cfg.tables))
        .unwrap_or_default();
    progress.finish();
    let exact_seconds = t0.elapsed().as_secs_f64();
    let t1 = std::time::Instant::now();
    let simulation = simulations(cfg, &specs[1..], &tiers, &wagers, stop)?;
    let typical_players = players::player_tiers(cfg, &specs[1].1, &tiers, stop)?;
    let simulation_seconds = t1.elapsed().as_secs_f64();
    let rounds_needed = tiers
        .iter()
        .flat_map(|t| needed(t.tier.as_str(), t.sd, &[0.0001, 0.0005, 0.001]))
        .collect();
    let separation = cfg.claim.map(|c| separation(&tiers, c)).unwrap_or_default();
    let mt = tiers
        .iter()
        .find(|t| t.tier == cfg.monitor_tier)
        .expect("tier");
    let acceptance_bands = acceptance_bands(mt);
    let monitoring = monitoring(mt, rules);
    let interrupted = cfg.rounds > 0 && stop.load(std::sync::atomic::Ordering::SeqCst);
    debug_assert_eq!(specs[1..].len(), SIMULATED_TIERS);
    Ok(AuditModel {
        game: "blackjack",
        identity: Identity {
            strategies: strategies(&specs),
            interrupted,
            exact_seconds,
            tiers_seconds,
            simulation_seconds,
            ..Identity::new(rules, cfg.seed, cfg.rounds)
        },
        rules: rules.clone(),
        rules_as_dealt: rules_as_dealt(rules),
        definitions: definitions(),
        no_claim: claim.is_none().then(|| rules.no_claim_reason(false)),
        claim,
        assumptions: assumptions(rules, &tiers),
        tiers,
        wagers,
        simulation,
        typical_players,
        rounds_needed,
        separation,
        acceptance_bands,
        what_would_make_claim_true: what,
        monitoring,
        side_bets,
    })
}

/// A side bet's row among the wagers: its exact RTP, SD and distribution per unit staked.
fn side_wager(s: &crate::sidebet::SideExact) -> Wager {
    let mut dist: Vec<(f64, f64)> = Vec::new();
    for r in &s.exact.rows {
        match dist.iter_mut().find(|d| d.0 == r.pays_value) {
            Some(d) => d.1 += r.probability,
            None => dist.push((r.pays_value, r.probability)),
        }
    }
    dist.sort_by(|a, b| a.0.total_cmp(&b.0));
    Wager {
        wager: format!("side bet {}", s.name),
        tier: None,
        rtp_exact: s.exact.rtp,
        sd: s.exact.sd,
        distribution: netp(&dist),
        method: format!(
            "enumeration of the {} of a full shoe, by card with its suit (event table below)",
            s.exact.counted
        ),
    }
}

/// The claim `c` on the main bet against `best`, the optimal tier's exact RTP.
fn judge_claim(c: f64, best: f64) -> ClaimLine {
    let reachable = best >= c;
    ClaimLine {
        claimed: c,
        wager: "main bet",
        per: "initial bet",
        tier: TierName::Optimal,
        rtp_exact: best,
        reachable,
        verdict: claim_verdict(c, best, ["holds as a maximum", "does not hold"]),
    }
}

/// The rounds a test needs to tell the claim from each tier's exact RTP.
fn separation(tiers: &[Tier], claim: f64) -> Vec<Separation> {
    // A two-sided test at level L rejects the claim with probability L (power) after
    // n = ((z_L + z'_L)·SD / |claim − RTP|)² rounds, z'_L the one-sided quantile.
    tiers
        .iter()
        .flat_map(|t| {
            [(0.95, Z95, Z90), (0.99, Z99, Z98)].map(|(level, z, power)| Separation {
                tier: t.tier,
                level,
                rounds: ((z + power) * t.sd / (claim - t.rtp_exact)).powi(2).ceil(),
            })
        })
        .collect()
}

/// The monitored tier's acceptance bands after 10³ to 10⁹ rounds.
fn acceptance_bands(mt: &Tier) -> Vec<Band> {
    let mut bands = Vec::new();
    for k in 3..=9 {
        let n = 10u64.pow(k);
        for (level, z) in [(0.95, Z95), (0.99, Z99), (0.999, Z999)] {
            let h = z * mt.sd_per_round_total_wagered / (n as f64).sqrt();
            bands.push(Band {
                rounds: n,
                level,
                lo: mt.rtp_total_wagered_exact - h,
                hi: mt.rtp_total_wagered_exact + h,
            });
        }
    }
    bands
}

/// What `rtplab monitor --expected` reads: the monitored tier's figures per amount wagered.
fn monitoring(mt: &Tier, rules: &Rules) -> Monitoring {
    Monitoring {
        tier: mt.tier,
        rtp_total_wagered: mt.rtp_total_wagered_exact,
        sd_per_round: mt.sd_per_round_total_wagered,
        max_return_per_wagered: super::max_return_per_wagered(rules),
        note: format!(
            "the {} tier's exact RTP per amount wagered and the SD of one round's return per amount wagered (rounds of equal initial bets); `rtplab monitor --expected` reads this object",
            mt.tier.as_str()
        ),
    }
}

/// (tier, strategy, chart hash) of each tier, for the identity.
fn strategies(specs: &Specs) -> Vec<(String, String, Option<String>)> {
    specs
        .iter()
        .map(|(n, s)| match n {
            TierName::Optimal => (
                n.as_str().to_string(),
                "optimal (composition-dependent)".into(),
                None,
            ),
            _ => (n.as_str().to_string(), s.name(), s.info().hash),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::Blackjack;
    use super::simulation::simulation_run;
    use super::*;

    /// The simulated figures of a small dossier are its runs' report models' (and so the
    /// runs' reports' own figures), bit for bit; none is NaN.
    #[test]
    fn simulated_figures_are_the_run_models() {
        let cfg = AuditConfig {
            rules: Rules::seed(),
            claim: None,
            rounds: 20_000,
            seed: 1,
            threads: Some(1),
            progress: false,
            monitor_tier: TierName::Basic,
            on_simulation: None,
            tables: Default::default(),
            sides: Vec::new(),
        };
        let go = AtomicBool::new(false);
        let m = audit(&cfg, &go).unwrap();
        assert_eq!(m.simulation.len(), SIMULATED_TIERS);
        let basic = StrategySpec::Chart(Box::new(basic_chart(&cfg.rules, &cfg.tables)));
        for (sim, spec) in m.simulation.iter().zip([basic, StrategySpec::AutoPlay]) {
            let (bc, spec_run) = simulation_run(&cfg, &spec);
            let run = crate::game::simulate::<Blackjack>(bc, &spec_run, &go).unwrap();
            let model = super::super::game::run_model(&run, None).unwrap();
            let json = crate::game::report::<Blackjack>(&run, None).unwrap().json;
            assert_eq!(json["ev"].as_f64(), Some(model.ev));
            assert_eq!(json["ev_se"].as_f64(), Some(model.ev_se));
            assert_eq!((sim.ev, sim.se), (model.ev, model.ev_se));
            assert_eq!(sim.rtp, 1.0 + model.ev);
            assert_eq!(sim.rounds, model.seat_rounds);
            let wager = |name: &str| {
                let w = sim.wagers.iter().find(|w| w.wager.starts_with(name));
                w.map(|w| (w.rtp, w.se, w.bets)).unwrap()
            };
            let (pairs, ins, behind) = (
                &model.side_bets.pairs,
                &model.side_bets.insurance,
                &model.bet_behind,
            );
            assert_eq!(wager("pairs"), (pairs.rtp, pairs.se, pairs.bets));
            assert_eq!(wager("insurance"), (ins.rtp, ins.se, ins.taken));
            assert_eq!(
                wager("bet behind"),
                (behind.rtp, behind.se, model.seat_rounds)
            );
            for r in &model.net_distribution {
                let h = sim.histogram.iter().find(|h| h.net == r.net).unwrap();
                assert_eq!(h.count, r.count, "net {}", r.net);
            }
            let counted: u64 = sim.histogram.iter().map(|h| h.count).sum();
            assert_eq!(counted, model.seat_rounds);
            let z = sim.wagers.iter().map(|w| w.z_vs_exact);
            let figures = [sim.ev, sim.se, sim.ci95[0], sim.ci99[1], sim.z_vs_exact];
            assert!(figures.into_iter().chain(z).all(f64::is_finite), "{sim:?}");
        }
        // Without a claim: no claim and no z against it; the optimal and auto-play tiers have
        // no chart hash; the pairs bet and insurance follow no tier.
        let optional = |p: &str| {
            let last = p.rsplit('.').next().unwrap_or(p);
            matches!(last, "claim" | "z_vs_claim" | "strategy_hash" | "tier")
                || (p.starts_with("identity.strategies.") && last == "2")
        };
        let json = serde_json::to_value(&m).unwrap();
        let nulls = crate::audit::unexpected_nulls(&json, optional);
        assert!(nulls.is_empty(), "not computed: {nulls:?}");
    }
}
