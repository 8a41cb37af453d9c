//! `rtplab audit blackjack`: the RTP verification dossier. Everything a testing lab needs to
//! certify (or refuse) a claimed RTP and then monitor it: the identity of the run, the rules
//! as dealt, definitions, every strategy tier's exact EV and exact distribution of one
//! round's result, every wager, the simulation cross-check, the rounds needed, acceptance
//! bands, the rule changes that would make the claim true, and the assumptions.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use serde::Serialize;

use super::distribution::{round_distribution, RoundDistribution, Shape, TINY};
use super::exact::{analyze, DealerTable, Decider, Follow, Optimal};
use super::exact_report::{claim_verdict, rule_changes, RuleChange};
use super::report::{BehindFollows, SideBets};
use super::resolve::basic_chart;
use super::rules::{DealerBjTakes, Rules, Shuffle, Surrender};
use super::strategy::{AutoPlay, Chart, StrategySpec};
use super::{BjConfig, BjError, Blackjack};
use crate::audit::{
    interval, interval_cell, needed, needed_section, sim_chunk, text_section, ChiSquare, Identity,
    Needed, Z90, Z95, Z98, Z99, Z999,
};
use crate::progress::Progress;
use crate::report::svg::{bar_chart, line_chart, Bar, BarChart, Line, YUnit};
use crate::report::{fixed, pct, pct_cell, Cell, Report, Section};
use crate::stats::{format_p, p_value};

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
    /// Rounds needed to resolve each tier's RTP to ±0.01/0.05/0.1%.
    pub rounds_needed: Vec<Needed>,
    pub separation: Vec<Separation>,
    pub acceptance_bands: Vec<Band>,
    pub what_would_make_claim_true: Vec<ChangeRow>,
    pub assumptions: Vec<String>,
    pub monitoring: Monitoring,
}

/// A tier's exact figures, and the distribution of the bet behind that declines under it.
fn tier_exact<P: Decider>(
    rules: &Rules,
    name: TierName,
    p: &P,
    spec: &StrategySpec,
) -> (Tier, Vec<(f64, f64)>) {
    let d: RoundDistribution = round_distribution(rules, p, DealerTable::shared(rules.h17));
    let ev = d.ev;
    let net = d.net();
    let s = Shape::of(&net);
    let info = spec.info();
    let tier = Tier {
        tier: name,
        description: name.describe(),
        strategy: if name == TierName::Optimal {
            "optimal (composition-dependent)".into()
        } else {
            info.name
        },
        strategy_hash: info.hash,
        ev_exact: ev,
        rtp_exact: 1.0 + ev,
        rtp_total_wagered_exact: d.rtp_total_wagered(),
        wagered_per_round: d.mean_wagered(),
        distribution: netp(&net),
        sd: s.sd,
        variance: s.variance,
        volatility_index: Volatility {
            p90: Z90 * s.sd,
            p95: Z95 * s.sd,
            p99: Z99 * s.sd,
        },
        hit_frequency: s.hit_frequency,
        push_frequency: s.push_frequency,
        largest_win: s.largest_win,
        largest_win_p: s.largest_win_p,
        largest_loss: s.largest_loss,
        sd_per_round_total_wagered: d.sd_per_round_total_wagered(),
        approximation: Approximation {
            resplit_mass: d.resplit_mass,
            tiny_mass: d.tiny_mass,
            mean_minus_ev: s.mean - ev,
        },
    };
    (tier, d.behind_none())
}

/// The pairs side bet (same rank, 11:1) on the first two cards of a full shoe.
fn pairs_wager(decks: u32) -> Wager {
    let n = 52.0 * decks as f64;
    let q = (4.0 * decks as f64 - 1.0) / (n - 1.0);
    let dist = vec![(-1.0, 1.0 - q), (11.0, q)];
    Wager {
        wager: "pairs side bet (same rank, 11:1)".into(),
        tier: None,
        rtp_exact: 12.0 * q,
        sd: Shape::of(&dist).sd,
        distribution: netp(&dist),
        method: format!(
            "closed form: P(pair) = (4·decks − 1)/(52·decks − 1) = {:.0}/{:.0}; RTP = 12·P",
            4.0 * decks as f64 - 1.0,
            n - 1.0
        ),
    }
}

/// Insurance (2:1 on a dealer blackjack, ace up), per insurance stake, whatever the hand.
fn insurance_wager(decks: u32, peek: bool) -> Wager {
    let n = 52.0 * decks as f64;
    let q = 16.0 * decks as f64 / (n - 1.0);
    let dist = vec![(-1.0, 1.0 - q), (2.0, q)];
    Wager {
        wager: "insurance (2:1, per insurance stake)".into(),
        tier: None,
        rtp_exact: 3.0 * q,
        sd: Shape::of(&dist).sd,
        distribution: netp(&dist),
        method: format!(
            "closed form: P(ten | ace up) = 16·decks/(52·decks − 1) = {:.0}/{:.0}; RTP = 3·P. {}",
            16.0 * decks as f64,
            n - 1.0,
            if peek {
                "The hole card is any card but the up card, averaged over the player's cards."
            } else {
                "Without a hole card the dealer's second card comes after the players' draws; the share of tens left is a martingale, so its chance of being a ten is still this, whatever the players draw."
            }
        ),
    }
}

/// The deal as this table makes it: the shoe, the dealer, a dealer blackjack, a player's.
fn deal_rules(r: &Rules) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = Vec::new();
    let mut put = |k: &str, s: String| v.push((k.into(), s));
    put(
        "shoe",
        format!(
            "{} standard 52-card decks; {}",
            r.decks,
            match r.shuffle {
                Shuffle::CutCard { penetration } => format!(
                    "dealt to a cut card after {:.0}% of the shoe, then shuffled",
                    penetration * 100.0
                ),
                Shuffle::EveryRound => "shuffled before every round".into(),
            }
        ),
    );
    put(
        "dealer",
        format!(
            "{}; {} soft 17; always completes the hand",
            if r.peek {
                "hole card: the dealer checks for blackjack with an ace or ten up before anyone acts"
            } else {
                "no hole card (ENHC): the dealer's second card comes after every player has acted"
            },
            if r.h17 { "hits" } else { "stands on" }
        ),
    );
    put(
        "dealer blackjack",
        if r.peek {
            "found at once (peek): every player loses the original bet only; a player blackjack pushes".into()
        } else {
            match r.dealer_bj_takes {
                DealerBjTakes::All => "takes every wager, doubled and split ones included (European convention); a player blackjack pushes".into(),
                DealerBjTakes::Original => "takes the original bet only (OBO): doubles and splits are returned; a player blackjack pushes".into(),
            }
        },
    );
    put(
        "blackjack pays",
        match r.bj_pays {
            super::rules::BjPays::ThreeToTwo => "3:2".into(),
            super::rules::BjPays::SixToFive => "6:5".into(),
            super::rules::BjPays::OneToOne => "1:1".into(),
        },
    );
    v
}

/// The player's choices: surrender, double, split.
fn play_rules(r: &Rules) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = Vec::new();
    let mut put = |k: &str, s: String| v.push((k.into(), s));
    put(
        "surrender",
        match r.surrender {
            Surrender::None => "not offered".into(),
            Surrender::TwoToNine => "after the first two cards, only against an up card of 2 to 9; loses half the bet".into(),
            Surrender::Late => "late: after the first two cards against any up card; without a hole card it does not escape a dealer blackjack (the whole bet is lost)".into(),
            Surrender::Early => "early: against any up card, before the dealer's blackjack is known; half the bet".into(),
        },
    );
    put(
        "double",
        format!(
            "on {} first two cards, exactly one more card; {}",
            match r.double {
                super::rules::Double::Any => "any",
                super::rules::Double::NineToEleven => "9, 10 or 11 as the",
                super::rules::Double::TenToEleven => "10 or 11 as the",
            },
            if r.das {
                "also after a split"
            } else {
                "not after a split"
            }
        ),
    );
    put(
        "split",
        format!(
            "two cards of equal {} ; up to {} hand{}; split aces {}{}; A + ten after a split is 21, not blackjack (pays 1:1)",
            match r.split_by {
                super::rules::SplitBy::Value => "value (K-Q is a pair)",
                super::rules::SplitBy::Rank => "rank (K-K only)",
            },
            r.max_hands,
            if r.max_hands == 1 { " (no splitting)" } else { "s" },
            if r.hit_split_aces {
                "may be played on"
            } else {
                "get exactly one card each"
            },
            if r.resplit_aces { ", and may be resplit" } else { "" }
        ),
    );
    v
}

/// Every rule and ruling as this table deals it.
pub fn rules_as_dealt(r: &Rules) -> Vec<(String, String)> {
    let mut v = deal_rules(r);
    v.extend(play_rules(r));
    let mut put = |k: &str, s: String| v.push((k.into(), s));
    put(
        "insurance",
        "offered with an ace up; costs half the main bet; pays 2:1 if the dealer makes blackjack"
            .into(),
    );
    put(
        "pairs side bet",
        "the first two cards are a pair of the same rank (K-K, not K-Q); pays 11:1".into(),
    );
    put(
        "bet behind",
        "a wager on a seated player's hand, following the seated player's decisions; on a double or split the bettor behind matches the extra wager or declines (then it stays on the first hand, settled undoubled)".into(),
    );
    put(
        "auto-play",
        "a player who does not act: hit until the total is over 11, then stand; an ace counts 11 whenever that does not bust".into(),
    );
    put("seats", format!("{} at the table", r.players));
    v
}

fn definitions() -> Vec<(String, String)> {
    [
        ("EV", "expected net result of one round per initial main bet (a loss is negative)"),
        ("RTP per initial bet", "1 + EV: what is returned per unit of initial bet, the convention behind published figures such as \"99.54%\""),
        ("RTP per total wagered", "(expected amount wagered + EV) / expected amount wagered, doubles and splits included in the amount wagered; what a live log of wagered and returned amounts measures"),
        ("theoretical RTP", "the exact value for the rules and a way of playing (combinatorial analysis, no sampling error)"),
        ("observed RTP", "returned / wagered over rounds actually played (or simulated); it scatters around the theoretical value with SD σ/√N"),
        ("SD", "standard deviation of one round's net result, in initial bets"),
        ("volatility index", "z·SD: 90%, 95%, 99% two-sided z of the normal (1.645, 1.960, 2.576)"),
        ("hit frequency", "P(net > 0): rounds that win money"),
        ("acceptance band", "expected RTP ± z·σ/√N after N rounds: where the observed RTP of a fair game lies with the stated probability"),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect()
}

fn assumptions(rules: &Rules, tiers: &[Tier]) -> Vec<String> {
    let mut v = vec![
        format!("Exact values are for the first round of a full, well-shuffled {}-deck shoe (every round from a freshly shuffled shoe). A shoe dealt to a cut card returns slightly less (the cut-card effect: rounds are more often dealt from shoes rich in small cards); `rtplab sim blackjack` measures the game as dealt.", rules.decks),
        format!("Every figure is per seat and round. With {} at the table each seat's round has the same distribution (the cards are exchangeable); the simulation counts seat-rounds. Other seats' cards change the composition a composition-dependent player would see, which optimal play here does not use.", crate::report::plural(rules.players as u64, "seat")),
        "Optimal play is composition dependent on the player's own cards and the up card, and post-split play decides as the same cards would before the split (CDZ-), the convention of published combinatorial analyzers. It is not a chart a person can follow, so it is not simulated; basic and auto-play are.".into(),
        "Payouts are settled per the rules as dealt above, including the no-hole-card settlement of a dealer blackjack.".into(),
        "The simulation cross-check deals every round from a freshly shuffled shoe, the setting of the exact analysis, so both estimate the same number.".into(),
        format!("Simulated standard errors are batch means over the run's chunks ({} of them, or one per round in shorter runs); the intervals use Student's t with chunks − 1 degrees of freedom, z-scores the normal.", crate::audit::SIM_BATCHES),
    ];
    let resplit = tiers
        .iter()
        .map(|t| t.approximation.resplit_mass)
        .fold(0.0, f64::max);
    if resplit > 0.0 {
        v.push(format!("Resplits: the EVs are exact (E. Farmer's algorithm), but the distributions play rounds where a third or fourth hand would be split as if the cap were two hands; those rounds have probability at most {resplit:.3e}, which bounds the distributions' error (total variation)."));
    }
    let tiny = tiers
        .iter()
        .map(|t| t.approximation.tiny_mass)
        .fold(0.0, f64::max);
    v.push(format!("Split rounds: each ordered pair of split hands is enumerated with the dealer drawing from what both hands left, except pairs of probability below {TINY:e} each, where the dealer draws from the shoe the first hand left; their total probability is at most {tiny:.2e} (the bound on that approximation's effect on any probability)."));
    if rules.split_by == super::rules::SplitBy::Rank {
        v.push("Split by rank is analysed as split by value (cards are tracked by value).".into());
    }
    if !rules.peek && rules.dealer_bj_takes == DealerBjTakes::Original {
        v.push("Original-bets-only settlement: in rounds where the dealer has blackjack the amount wagered is counted as the initial bet (extra wagers are returned).".into());
    }
    v
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
    let chart = basic_chart(rules);
    let specs: Specs = [
        (TierName::Optimal, StrategySpec::AutoPlay),
        (
            TierName::Basic,
            StrategySpec::Chart(Box::new(chart.clone())),
        ),
        (TierName::Autoplay, StrategySpec::AutoPlay),
    ];
    let (tiers, wagers) = exact_tiers(rules, &chart, &specs, &progress);
    let claim = cfg.claim.map(|c| judge_claim(c, tiers[0].rtp_exact));
    let tiers_seconds = t0.elapsed().as_secs_f64();
    let what = cfg
        .claim
        .map(|c| claim_changes(rules, c, &progress))
        .unwrap_or_default();
    progress.finish();
    let exact_seconds = t0.elapsed().as_secs_f64();
    let t1 = std::time::Instant::now();
    let simulation = simulations(cfg, &specs[1..], &tiers, &wagers, stop)?;
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
        rounds_needed,
        separation,
        acceptance_bands,
        what_would_make_claim_true: what,
        monitoring,
    })
}

/// Each tier's exact analysis, and every wager's exact figures: per tier the main bet and
/// the bet behind both ways, then the pairs side bet and insurance.
fn exact_tiers(
    rules: &Rules,
    chart: &Chart,
    specs: &Specs,
    progress: &Progress,
) -> (Vec<Tier>, Vec<Wager>) {
    let tiers_b: Vec<(Tier, Vec<(f64, f64)>)> = specs
        .iter()
        .map(|(name, spec)| {
            let tier = match name {
                TierName::Optimal => tier_exact(rules, *name, &Optimal, spec),
                TierName::Basic => tier_exact(rules, *name, &Follow(chart), spec),
                TierName::Autoplay => tier_exact(rules, *name, &Follow(&AutoPlay), spec),
            };
            progress.advance(1);
            tier
        })
        .collect();
    let mut tiers = Vec::new();
    let mut wagers = Vec::new();
    for (t, behind) in tiers_b {
        wagers.extend(tier_wagers(&t, &behind));
        tiers.push(t);
    }
    wagers.push(pairs_wager(rules.decks));
    wagers.push(insurance_wager(rules.decks, rules.peek));
    (tiers, wagers)
}

/// A tier's main bet, and its bet behind matching doubles and splits (the main bet's
/// distribution) and declining them (`behind`: the first hand at one undoubled bet).
fn tier_wagers(t: &Tier, behind: &[(f64, f64)]) -> [Wager; 3] {
    let s = Shape::of(behind);
    [
        Wager {
            wager: "main bet".into(),
            tier: Some(t.tier),
            rtp_exact: t.rtp_exact,
            sd: t.sd,
            distribution: t.distribution.clone(),
            method: "exact: combinatorial analysis and round enumeration (see tiers)".into(),
        },
        Wager {
            wager: "bet behind, matching doubles and splits".into(),
            tier: Some(t.tier),
            rtp_exact: t.rtp_exact,
            sd: t.sd,
            distribution: t.distribution.clone(),
            method: "the seated player's result per its stake: the main bet's distribution".into(),
        },
        Wager {
            wager: "bet behind, declining doubles and splits".into(),
            tier: Some(t.tier),
            rtp_exact: 1.0 + s.mean,
            sd: s.sd,
            distribution: netp(behind),
            method:
                "exact: the first hand's result at one undoubled bet, from the same enumeration"
                    .into(),
        },
    ]
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

/// The simulation of each tier in `specs`, until a stop; none without rounds.
fn simulations(
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

/// Changes (indices into `rule_changes`), the rules they make, and why those were analysed
/// from a fresh shoe if they were.
type Changed = (Vec<usize>, (Rules, Option<String>));

/// `base` with the changes `ix` (indices into `changes`) applied; None when they change
/// nothing or make rules that cannot be dealt. The exact analysis is of a full shoe: how deep
/// the cut card lies does not enter it, so a change that the cut card alone makes impossible
/// (one deck at 75%) is analysed with the shoe shuffled every round, and the row says so.
fn apply_changes(
    base: &Rules,
    changes: &[RuleChange],
    ix: &[usize],
) -> Option<(Rules, Option<String>)> {
    let mut r = base.clone();
    for &i in ix {
        (changes[i].apply)(&mut r);
    }
    if r == *base {
        return None;
    }
    match r.validate() {
        Ok(()) => Some((r, None)),
        Err(_) => {
            // The cut card leaves too few cards for a round: only a fresh shoe works.
            let mut fresh = r.clone();
            fresh.shuffle = Shuffle::EveryRound;
            fresh.validate().ok()?;
            Some((
                fresh,
                Some("dealt from a fresh shoe: the cut card leaves too few cards".into()),
            ))
        }
    }
}

/// The EV of optimal play under each changed rule set, a stage of `progress` named `stage`.
fn optimal_evs(sets: &[Changed], progress: &Progress, stage: &str) -> Vec<f64> {
    progress.stage(stage, sets.len() as u64, "rule sets");
    sets.par_iter()
        .map(|(_, (r, _))| {
            let ev = analyze(r, &Optimal, DealerTable::shared(r.h17)).ev;
            progress.advance(1);
            ev
        })
        .collect()
}

/// Pairs of changes that each raise the RTP above `ev0` but do not reach the claim alone (a
/// pair with a change that reaches it alone reaches it by that change), of different groups.
fn change_pairs(
    base: &Rules,
    changes: &[RuleChange],
    singles: &[Changed],
    single_ev: &[f64],
    ev0: f64,
    claim: f64,
) -> Vec<Changed> {
    let up: Vec<usize> = singles
        .iter()
        .zip(single_ev)
        .filter(|(_, &e)| e > ev0 && 1.0 + e < claim)
        .map(|((ix, _), _)| ix[0])
        .collect();
    let mut pairs: Vec<Changed> = Vec::new();
    for (a, &i) in up.iter().enumerate() {
        for &j in &up[a + 1..] {
            if changes[i].group == changes[j].group {
                continue;
            }
            if let Some(r) = apply_changes(base, changes, &[i, j]) {
                pairs.push((vec![i, j], r));
            }
        }
    }
    pairs
}

/// The row of a change (`ev`: optimal play's EV under it): whether it reaches the claim,
/// and if it does, the RTP of the basic chart derived for the changed rules.
fn change_row(changes: &[RuleChange], (ix, (r, note)): Changed, ev: f64, claim: f64) -> ChangeRow {
    let reaches = 1.0 + ev >= claim;
    let rtp_basic = reaches.then(|| {
        let chart = basic_chart(&r);
        1.0 + analyze(&r, &Follow(&chart), DealerTable::shared(r.h17)).ev
    });
    ChangeRow {
        changes: ix.iter().map(|&i| changes[i].name.clone()).collect(),
        note,
        rtp_optimal: 1.0 + ev,
        rtp_basic,
        reaches_claim: reaches,
        tier: match rtp_basic {
            Some(b) if b >= claim => Some(TierName::Basic),
            Some(_) => Some(TierName::Optimal),
            None => None,
        },
    }
}

/// The single rule changes, and the pairs of changes that each raise the RTP without reaching
/// the claim alone, under optimal play; for those that reach the claim, the basic chart
/// derived for the changed rules too.
/// Sorted: those that reach the claim first, then by RTP.
pub fn claim_changes(base: &Rules, claim: f64, progress: &Progress) -> Vec<ChangeRow> {
    let changes = rule_changes(base);
    let ev0 = analyze(base, &Optimal, DealerTable::shared(base.h17)).ev;
    let singles: Vec<Changed> = (0..changes.len())
        .filter_map(|i| apply_changes(base, &changes, &[i]).map(|r| (vec![i], r)))
        .collect();
    let single_ev = optimal_evs(&singles, progress, "audit: single rule changes");
    let pairs = change_pairs(base, &changes, &singles, &single_ev, ev0, claim);
    let pair_ev = optimal_evs(&pairs, progress, "audit: pairs of rule changes");
    let mut rows: Vec<ChangeRow> = singles
        .into_iter()
        .zip(single_ev)
        .chain(pairs.into_iter().zip(pair_ev))
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|(changed, ev)| change_row(&changes, changed, ev, claim))
        .collect();
    rows.sort_by(|a, b| {
        b.reaches_claim
            .cmp(&a.reaches_claim)
            .then(a.changes.len().cmp(&b.changes.len()))
            .then(b.rtp_optimal.total_cmp(&a.rtp_optimal))
    });
    rows
}

/// The run that simulates the tier `spec` plays: every round from a fresh shoe, the exact
/// analysis's setting, with the pairs bet, insurance and a declining bet behind placed on
/// every round to check them too.
fn simulation_run(cfg: &AuditConfig, spec: &StrategySpec) -> (BjConfig, crate::game::RunSpec) {
    // One seat from a fresh shoe every round: the exact analysis's setting, and independent
    // rounds for the chi-square (seats at one table share the dealer's hand).
    let mut rules = cfg.rules.clone();
    rules.shuffle = Shuffle::EveryRound;
    rules.players = 1;
    let mut bc = BjConfig::new(rules, spec.clone(), cfg.rounds);
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
        ..Default::default()
    };
    (bc, spec_run)
}

/// The simulated histogram of one round's net beside the tier's exact distribution: every
/// net value either side has. Also the rounds counted.
fn histogram(tier: &Tier, sim: &super::report::SimModel) -> (Vec<HistRow>, u64) {
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
    sim: &super::report::SimModel,
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
    let sim = super::game::run_model(&run, None)?;
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

fn net_label(x: f64) -> String {
    if x == x.round() {
        format!("{x:+.0}")
    } else {
        format!("{x:+}")
    }
}

/// How far an interrupted dossier's simulation got: "1 of 2 tiers simulated, 1 in part".
fn tiers_simulated(m: &AuditModel) -> String {
    let whole = m.simulation.iter().filter(|s| !s.interrupted).count();
    let part = m.simulation.len() - whole;
    let mut t = format!("{whole} of {SIMULATED_TIERS} tiers simulated");
    if part > 0 {
        t += &format!(", {part} in part");
    }
    t
}

/// The dossier as tables and notes (Markdown, table, CSV, HTML); the JSON is the model.
pub fn render(m: &AuditModel) -> Report {
    let mut r = Report {
        title: title(m),
        meta: meta_lines(m),
        ..Default::default()
    };
    r.sections.extend([
        text_section("Rules as dealt", ["rule", "as dealt"], &m.rules_as_dealt),
        text_section("Definitions", ["term", "meaning"], &m.definitions),
        tiers_section(m),
        distribution_section(m),
        wagers_section(m),
    ]);
    if !m.simulation.is_empty() {
        r.sections.extend([
            cross_check_section(m),
            simulated_wagers_section(m),
            histogram_section(m),
        ]);
    }
    r.sections.push(needed_section(
        "Rounds needed to resolve the RTP",
        "± precision",
        "rounds",
        &m.rounds_needed,
        |p| Cell::num(pct(p, 2), p, "fraction"),
    ));
    if let Some(c) = &m.claim {
        r.sections.push(separation_section(m, c));
    }
    r.sections.push(bands_section(m));
    if m.claim.is_some() {
        r.sections.push(changes_section(m));
    }
    r.notes = notes(m);
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

/// The title; an interrupted dossier says how far its simulation got.
fn title(m: &AuditModel) -> String {
    if m.identity.interrupted {
        format!(
            "rtplab RTP verification dossier: blackjack (INTERRUPTED: {})",
            tiers_simulated(m)
        )
    } else {
        "rtplab RTP verification dossier: blackjack".into()
    }
}

/// The identity of the run: tool, rules, strategies, seed, rounds, time, the claim's verdict.
fn meta_lines(m: &AuditModel) -> Vec<(String, String)> {
    let id = &m.identity;
    let mut meta = vec![
        ("tool".into(), format!("{} {}", id.tool, id.version)),
        ("git commit".into(), id.git_commit.into()),
        ("build profile".into(), id.build_profile.into()),
        ("rules".into(), m.rules.to_string()),
        (
            "rules hash (FNV-1a of the rules' JSON)".into(),
            id.rules_hash.clone(),
        ),
    ];
    meta.extend(id.strategies.iter().map(|(t, name, hash)| {
        (
            format!("strategy, {t} tier"),
            match hash {
                Some(h) => format!("{name} (chart hash {h})"),
                None => name.clone(),
            },
        )
    }));
    meta.extend([
        ("seed".into(), id.seed.to_string()),
        ("RNG".into(), id.rng.into()),
        ("simulated rounds per tier".into(), rounds_line(m)),
        ("shards merged".into(), id.shards_merged.to_string()),
        (
            "time".into(),
            format!(
                "exact {:.2} s (strategy tiers {:.2} s, rule changes {:.2} s), simulation {:.1} s",
                id.exact_seconds,
                id.tiers_seconds,
                id.exact_seconds - id.tiers_seconds,
                id.simulation_seconds
            ),
        ),
    ]);
    meta.extend(m.claim.as_ref().map(|c| ("claim".into(), claim_line(c))));
    meta.extend(m.no_claim.clone().map(|n| ("claim".into(), n)));
    meta
}

/// The simulated rounds per tier, or none, or how far an interrupted simulation got.
fn rounds_line(m: &AuditModel) -> String {
    let id = &m.identity;
    if id.rounds_per_tier == 0 {
        "none (exact analysis only)".into()
    } else if id.interrupted {
        format!(
            "{} requested; interrupted: {} (see Simulation cross-check)",
            crate::report::count(id.rounds_per_tier),
            tiers_simulated(m)
        )
    } else {
        crate::report::count(id.rounds_per_tier)
    }
}

/// The claim, what it is per, and its verdict.
fn claim_line(c: &ClaimLine) -> String {
    format!(
        "{} RTP per {} on the {} ({} tier): {}",
        pct(c.claimed, 2),
        c.per,
        c.wager,
        c.tier.as_str(),
        c.verdict
    )
}

/// Each tier's exact EV, RTPs, SD, volatility indices, frequencies and largest win.
fn tiers_section(m: &AuditModel) -> Section {
    let mut s = Section::new(
        "Strategy tiers (exact)",
        &[
            "tier",
            "strategy",
            "EV",
            "RTP per initial bet",
            "RTP per total wagered",
            "SD",
            "VI 90%",
            "VI 95%",
            "VI 99%",
            "hit freq.",
            "push freq.",
            "largest win (P)",
        ],
    );
    for t in &m.tiers {
        let vi = &t.volatility_index;
        let mut row = vec![
            Cell::from(t.tier.as_str().to_string()),
            t.strategy.clone().into(),
            pct_cell(t.ev_exact, 4),
            pct_cell(t.rtp_exact, 4),
            pct_cell(t.rtp_total_wagered_exact, 4),
            Cell::num(fixed(t.sd, 4), t.sd, "bets"),
        ];
        row.extend([vi.p90, vi.p95, vi.p99].map(|v| Cell::num(fixed(v, 3), v, "bets")));
        row.extend([
            pct_cell(t.hit_frequency, 3),
            pct_cell(t.push_frequency, 3),
            Cell::num(
                format!("{} ({:.3e})", net_label(t.largest_win), t.largest_win_p),
                t.largest_win,
                "bets",
            ),
        ]);
        s.row(row);
    }
    s
}

/// One round's net result: each tier's exact probability of every value any tier can take.
fn distribution_section(m: &AuditModel) -> Section {
    let mut nets: Vec<f64> = m
        .tiers
        .iter()
        .flat_map(|t| t.distribution.iter().map(|d| d.net))
        .collect();
    nets.sort_by(f64::total_cmp);
    nets.dedup();
    let cols: Vec<String> = std::iter::once("net (bets)".to_string())
        .chain(m.tiers.iter().map(|t| format!("P, {}", t.tier.as_str())))
        .collect();
    let cols: Vec<&str> = cols.iter().map(String::as_str).collect();
    let mut s = Section::new("Distribution of one round's net result (exact)", &cols);
    for &x in &nets {
        let mut row = vec![Cell::num(net_label(x), x, "bets")];
        for t in &m.tiers {
            let p = t
                .distribution
                .iter()
                .find(|d| d.net == x)
                .map_or(0.0, |d| d.p);
            row.push(Cell::num(format!("{p:.8}"), p, "probability"));
        }
        s.row(row);
    }
    s
}

/// Every wager's exact RTP and SD, and how it was found.
fn wagers_section(m: &AuditModel) -> Section {
    let mut s = Section::new(
        "Every wager (exact)",
        &["wager", "tier", "RTP", "SD", "method"],
    );
    for w in &m.wagers {
        s.row([
            Cell::from(w.wager.clone()),
            w.tier
                .map_or("any".to_string(), |t| t.as_str().into())
                .into(),
            pct_cell(w.rtp_exact, 4),
            Cell::num(fixed(w.sd, 4), w.sd, "bets"),
            w.method.clone().into(),
        ]);
    }
    s
}

/// Each simulated tier's EV with its intervals, against the exact EV and the claim.
fn cross_check_section(m: &AuditModel) -> Section {
    let mut s = Section::new(
        "Simulation cross-check",
        &[
            "tier",
            "rounds",
            "EV",
            "SE",
            "95% CI",
            "99% CI",
            "z vs exact",
            "chi-square (df, p)",
            "z vs claim",
        ],
    );
    for x in &m.simulation {
        s.row([
            Cell::from(x.tier.as_str().to_string()),
            crate::report::count_cell(x.rounds),
            pct_cell(x.ev, 4),
            pct_cell(x.se, 4),
            interval_cell(x.ci95, |v| pct(v, 4), "fraction"),
            interval_cell(x.ci99, |v| pct(v, 4), "fraction"),
            Cell::num(format!("{:+.2}", x.z_vs_exact), x.z_vs_exact, "z"),
            match &x.chi_square {
                Some(c) => Cell::num(
                    format!("{:.2} ({}, {})", c.statistic, c.df, format_p(c.p)),
                    c.statistic,
                    "chi-square",
                ),
                None => Cell::from("n/a (resplits approximated)".to_string()),
            },
            x.z_vs_claim.map_or(Cell::from("-".to_string()), |z| {
                Cell::num(format!("{z:+.1}"), z, "z")
            }),
        ]);
    }
    s
}

/// The side wagers and the bet behind as simulated, against their exact RTP.
fn simulated_wagers_section(m: &AuditModel) -> Section {
    let mut s = Section::new(
        "Simulated wagers against their exact RTP",
        &[
            "tier",
            "wager",
            "bets",
            "RTP simulated",
            "SE",
            "RTP exact",
            "z",
        ],
    );
    for x in &m.simulation {
        for w in &x.wagers {
            s.row([
                Cell::from(x.tier.as_str().to_string()),
                w.wager.clone().into(),
                crate::report::count_cell(w.bets),
                pct_cell(w.rtp, 3),
                pct_cell(w.se, 3),
                pct_cell(w.rtp_exact, 4),
                Cell::num(format!("{:+.2}", w.z_vs_exact), w.z_vs_exact, "z"),
            ]);
        }
    }
    s
}

/// Each simulated tier's histogram of one round's net beside the exact probabilities.
fn histogram_section(m: &AuditModel) -> Section {
    let mut s = Section::new(
        "Simulated histogram beside the exact distribution",
        &["tier", "net (bets)", "rounds", "P simulated", "P exact"],
    );
    for x in &m.simulation {
        for h in &x.histogram {
            s.row([
                Cell::from(x.tier.as_str().to_string()),
                Cell::num(net_label(h.net), h.net, "bets"),
                crate::report::count_cell(h.count),
                Cell::num(format!("{:.6}", h.p_sim), h.p_sim, "probability"),
                Cell::num(format!("{:.6}", h.p_exact), h.p_exact, "probability"),
            ]);
        }
    }
    s
}

/// The rounds a test needs to tell the claim from each tier's exact RTP.
fn separation_section(m: &AuditModel, c: &ClaimLine) -> Section {
    let mut s = Section::new(
        "Rounds to tell the claim from the exact RTP (a test at level L rejecting it with probability L)",
        &["tier", "exact RTP", "claim − exact", "95%", "99%"],
    );
    for t in &m.tiers {
        let at = |level: f64| {
            m.separation
                .iter()
                .find(|x| x.tier == t.tier && x.level == level)
                .map_or(f64::NAN, |x| x.rounds)
        };
        s.row([
            Cell::from(t.tier.as_str().to_string()),
            pct_cell(t.rtp_exact, 4),
            pct_cell(c.claimed - t.rtp_exact, 4),
            Cell::num(crate::audit::count_text(at(0.95)), at(0.95), "rounds"),
            Cell::num(crate::audit::count_text(at(0.99)), at(0.99), "rounds"),
        ]);
    }
    s
}

/// Where the observed RTP per total wagered of a fair game lies after 10³ to 10⁹ rounds.
fn bands_section(m: &AuditModel) -> Section {
    let mut s = Section::new(
        "Acceptance bands of the observed RTP per total wagered",
        &["rounds", "expected", "95%", "99%", "99.9%"],
    );
    for k in 3..=9u32 {
        let n = 10u64.pow(k);
        let mut row = vec![
            crate::report::count_cell(n),
            Cell::from(format!(
                "{} ({} tier)",
                pct(m.monitoring.rtp_total_wagered, 4),
                m.monitoring.tier.as_str()
            )),
        ];
        for level in [0.95, 0.99, 0.999] {
            if let Some(b) = m
                .acceptance_bands
                .iter()
                .find(|b| b.rounds == n && b.level == level)
            {
                row.push(Cell::range(
                    format!("[{}, {}]", pct(b.lo, 3), pct(b.hi, 3)),
                    b.lo,
                    b.hi,
                    "fraction",
                ));
            }
        }
        s.row(row);
    }
    s
}

/// The rule changes that would make the claim true, and the single changes that would not.
fn changes_section(m: &AuditModel) -> Section {
    let mut s = Section::new(
        "What would make the claim true",
        &[
            "rule change(s)",
            "RTP optimal",
            "RTP basic",
            "reaches the claim",
            "tier",
        ],
    );
    // Every change that reaches the claim, and the single changes that do not (the pairs
    // that do not are in the JSON).
    for x in m
        .what_would_make_claim_true
        .iter()
        .filter(|x| x.reaches_claim || x.changes.len() == 1)
    {
        s.row([
            Cell::from(match &x.note {
                Some(n) => format!("{} ({n})", x.changes.join(" + ")),
                None => x.changes.join(" + "),
            }),
            pct_cell(x.rtp_optimal, 4),
            x.rtp_basic
                .map_or(Cell::from("-".to_string()), |b| pct_cell(b, 4)),
            Cell::from(if x.reaches_claim { "yes" } else { "no" }.to_string()),
            Cell::from(x.tier.map_or("-".to_string(), |t| t.as_str().into())),
        ]);
    }
    s
}

/// The notes: each tier's approximation, the assumptions, the rule changes, monitoring.
fn notes(m: &AuditModel) -> Vec<String> {
    let mut notes: Vec<String> = m.tiers.iter().filter_map(approximation_note).collect();
    notes.extend(m.assumptions.iter().map(|a| format!("Assumption: {a}")));
    if let Some(c) = &m.claim {
        let n = m
            .what_would_make_claim_true
            .iter()
            .filter(|x| x.reaches_claim)
            .count();
        notes.push(format!(
            "What would make the claimed {} true: {n} of {} rule changes reach it under optimal play: single changes, and pairs of changes that each raise the RTP but fall short alone (exact analysis of each changed rule set; the basic chart derived for the changed rules where optimal play reaches it).",
            pct(c.claimed, 2),
            m.what_would_make_claim_true.len()
        ));
    }
    notes.push(format!(
        "Monitoring: {}; `rtplab monitor --expected report.json LOG.csv` checks live periods against it.",
        m.monitoring.note
    ));
    notes
}

/// How far a tier's distribution is from its exact EV, and why; none if it is not.
fn approximation_note(t: &Tier) -> Option<String> {
    let a = &t.approximation;
    let mut parts = Vec::new();
    if a.resplit_mass > 0.0 {
        parts.push(format!(
            "resplit rounds not enumerated: P ≤ {:.2e}",
            a.resplit_mass
        ));
    }
    if a.tiny_mass > 0.0 {
        parts.push(format!(
            "split rounds below {TINY:e} with the dealer approximated: P ≤ {:.2e}",
            a.tiny_mass
        ));
    }
    (!parts.is_empty()).then(|| {
        format!(
            "{} tier: the distribution's mean differs from the exact EV by {:.1e} ({}).",
            t.tier.as_str(),
            a.mean_minus_ev,
            parts.join("; ")
        )
    })
}

/// The plots: each tier's exact distribution (with the simulation's 95% intervals where
/// simulated), the acceptance funnel with the claim drawn, and the RTP of the rule changes.
pub fn plots(m: &AuditModel) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for t in &m.tiers {
        out.push((
            format!("distribution-{}.svg", t.tier.as_str()),
            distribution_plot(m, t)?,
        ));
    }
    out.push(("acceptance-funnel.svg".into(), funnel_plot(m)?));
    if let Some(c) = &m.claim {
        out.push(("rule-changes.svg".into(), changes_plot(m, c)?));
    }
    Ok(out)
}

/// A tier's exact distribution of one round's net (bars), with the simulation's 95%
/// intervals (error bars) where the tier was simulated.
fn distribution_plot(m: &AuditModel, t: &Tier) -> Result<String, String> {
    let sim = m.simulation.iter().find(|s| s.tier == t.tier);
    let bars: Vec<Bar> = t
        .distribution
        .iter()
        .map(|d| {
            let b = Bar::new(net_label(d.net), 100.0 * d.p);
            match sim.and_then(|s| s.histogram.iter().find(|h| h.net == d.net)) {
                Some(h) if h.count > 0 || d.p > 0.0 => {
                    let n = sim.map_or(0, |s| s.rounds) as f64;
                    let se = (h.p_sim * (1.0 - h.p_sim) / n).sqrt();
                    b.with_ci(100.0 * (h.p_sim - Z95 * se), 100.0 * (h.p_sim + Z95 * se))
                }
                _ => b,
            }
        })
        .collect();
    let title = if sim.is_some() {
        format!(
            "One round's net, {} tier: exact P (bars), simulated 95% CI (error bars)",
            t.tier.as_str()
        )
    } else {
        format!("One round's net, {} tier: exact P", t.tier.as_str())
    };
    bar_chart(&BarChart {
        title: &title,
        x_label: "net result (initial bets)",
        y_label: "probability (%)",
        y_unit: YUnit::Percent,
        bars: &bars,
        histogram: false,
        hline: None,
    })
}

/// The acceptance funnel: the monitored tier's 95%, 99% and 99.9% bands of the observed RTP
/// per amount wagered against the rounds played (log10), with the claim drawn.
fn funnel_plot(m: &AuditModel) -> Result<String, String> {
    let mt = &m.monitoring;
    let grid: Vec<f64> = (0..=120).map(|i| 5.0 + 4.0 * i as f64 / 120.0).collect();
    let edge = |z: f64, sign: f64| -> Vec<(f64, f64)> {
        grid.iter()
            .map(|&x| {
                let n = 10f64.powf(x);
                (
                    x,
                    100.0 * (mt.rtp_total_wagered + sign * z * mt.sd_per_round / n.sqrt()),
                )
            })
            .collect()
    };
    // Each band's upper edge carries its name, the lower edge none.
    let edges: Vec<(&str, Vec<(f64, f64)>)> =
        [("95% band", Z95), ("99% band", Z99), ("99.9% band", Z999)]
            .into_iter()
            .flat_map(|(name, z)| [(name, edge(z, 1.0)), ("", edge(z, -1.0))])
            .collect();
    let lines: Vec<Line> = edges
        .iter()
        .map(|(name, points)| Line {
            name,
            points,
            band: None,
            dots: false,
        })
        .collect();
    let claim_w = funnel_claim(m);
    let claim_label = claim_w.map(|(c, w)| {
        format!(
            "claim {} per initial bet = {:.3}% per amount wagered",
            pct(c, 2),
            100.0 * w
        )
    });
    line_chart(
        &format!(
            "Acceptance funnel: RTP per amount wagered, {} tier (expected {:.3}%)",
            mt.tier.as_str(),
            100.0 * mt.rtp_total_wagered
        ),
        "rounds played, log10 (6 = 1M, 9 = 1G)",
        "observed RTP per amount wagered (%)",
        YUnit::Percent,
        &lines,
        claim_w.map(|(_, w)| (100.0 * w, claim_label.as_deref().unwrap_or("claim"))),
    )
}

/// The claim per initial bet and what it comes to per amount wagered at the monitored tier.
fn funnel_claim(m: &AuditModel) -> Option<(f64, f64)> {
    let wagered = m
        .tiers
        .iter()
        .find(|t| t.tier == m.monitoring.tier)
        .map_or(1.0, |t| t.wagered_per_round);
    m.claim
        .as_ref()
        .map(|c| (c.claimed, 1.0 + (c.claimed - 1.0) / wagered))
}

/// The EV of optimal play after each single rule change, highest first, against the EV the
/// claim needs.
fn changes_plot(m: &AuditModel, c: &ClaimLine) -> Result<String, String> {
    let mut singles: Vec<&ChangeRow> = m
        .what_would_make_claim_true
        .iter()
        .filter(|x| x.changes.len() == 1)
        .collect();
    singles.sort_by(|a, b| b.rtp_optimal.total_cmp(&a.rtp_optimal));
    let bars: Vec<Bar> = singles
        .iter()
        .map(|x| Bar::new(x.changes[0].clone(), 100.0 * (x.rtp_optimal - 1.0)))
        .collect();
    let hline = format!(
        "the claimed {} needs EV ≥ {}",
        pct(c.claimed, 2),
        pct(c.claimed - 1.0, 2)
    );
    bar_chart(&BarChart {
        title: "EV of optimal play after one rule change (exact)",
        x_label: "rule change",
        y_label: "EV per initial bet (%)",
        y_unit: YUnit::Percent,
        bars: &bars,
        histogram: false,
        hline: Some((100.0 * (c.claimed - 1.0), &hline)),
    })
}

#[cfg(test)]
mod tests {
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
        };
        let go = AtomicBool::new(false);
        let m = audit(&cfg, &go).unwrap();
        assert_eq!(m.simulation.len(), SIMULATED_TIERS);
        let basic = StrategySpec::Chart(Box::new(basic_chart(&cfg.rules)));
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
