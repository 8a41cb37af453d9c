//! The blackjack run report: statistics from the accumulators, as tables and JSON.

use serde::{Deserialize, Serialize};

use super::hand::{up_name, UP_ORDER};
use super::rules::Rules;
use super::sim::{hist_offset, BjAcc, Plan};
use super::strategy::StrategyInfo;
use crate::report::{
    count, count_cell, est, fixed, fixed_cell, pct_cell, pct_estimate_cells, rate, Cell, Report,
    RunHeader, RunMeta, Section,
};
use crate::stats::{check_claim, rounds_for_se, Estimate};

/// How the bettor behind follows the seated player's doubles and splits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BehindFollows {
    /// Match every double and split (same result as the seat).
    All,
    /// Decline: the bet stays on the first hand, settled as undoubled.
    None,
}

/// Wagers beside the main bet.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideBets {
    /// Pairs side bet stake, in main bets (0 = not placed).
    pub pairs: f64,
    /// Bet behind stake, in main bets (0 = not placed).
    pub behind: f64,
    pub behind_follows: BehindFollows,
    /// The strategy takes insurance.
    pub insure: bool,
}

/// Facts about the run itself.
#[derive(Clone, Debug)]
pub struct RunInfo {
    /// What every game's run records: seed, time, threads, chunks done and planned, whether
    /// it was interrupted, shards merged.
    pub run: RunMeta,
    pub rounds_requested: u64,
    pub plan: Plan,
}

/// An estimate as the report's JSON gives it per row: mean, SE, CI.
#[derive(Clone, Debug, Serialize)]
pub struct UpEv {
    pub ev: f64,
    pub se: f64,
    pub ci95: [f64; 2],
    /// Initial bets with this up card.
    pub bets: u64,
}

/// How often an event happened.
#[derive(Clone, Debug, Serialize)]
pub struct Frequency {
    pub name: &'static str,
    /// What the rate is per ("per seat-round", ...).
    pub of: &'static str,
    pub count: u64,
    pub rate: f64,
}

/// The dealer's final hands after one up card.
#[derive(Clone, Debug, Serialize)]
pub struct DealerRow {
    pub rounds: u64,
    #[serde(rename = "17")]
    pub t17: f64,
    #[serde(rename = "18")]
    pub t18: f64,
    #[serde(rename = "19")]
    pub t19: f64,
    #[serde(rename = "20")]
    pub t20: f64,
    #[serde(rename = "21")]
    pub t21: f64,
    pub bust: f64,
    pub blackjack: f64,
}

/// One net result of a seat-round and how often it came.
#[derive(Clone, Debug, Serialize)]
pub struct NetRow {
    pub net: f64,
    pub count: u64,
    pub p: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct StrategyLine {
    pub name: String,
    pub hash: Option<String>,
    /// "always", "never", or when an index play takes it ("at true count >= 3 (index play)").
    pub insurance: String,
}

/// The run's chunks of shoes: their size, how many were planned and done, and the pilot's
/// rounds per shoe (which sized them).
#[derive(Clone, Debug, Serialize)]
pub struct ShoeChunks {
    pub shoes_per_chunk: u64,
    pub planned: u64,
    pub done: u64,
    pub pilot_rounds_per_shoe: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct PairsLine {
    pub stake: f64,
    pub bets: u64,
    pub rtp: f64,
    pub se: f64,
    pub ci95: [f64; 2],
}

#[derive(Clone, Debug, Serialize)]
pub struct InsuranceLine {
    pub taken: u64,
    pub rtp: f64,
    pub se: f64,
    pub ci95: [f64; 2],
}

#[derive(Clone, Debug, Serialize)]
pub struct SideBetsLine {
    pub pairs: PairsLine,
    pub insurance: InsuranceLine,
}

#[derive(Clone, Debug, Serialize)]
pub struct BehindLine {
    pub stake: f64,
    pub follows: BehindFollows,
    pub rtp: f64,
    pub se: f64,
    pub ci95: [f64; 2],
    /// Bets behind (one per initial bet).
    #[serde(skip)]
    pub bets: u64,
}

/// Everything the report of a blackjack run says, computed once from the sums; the tables and
/// the JSON are both rendered from it (the JSON is this struct, serialized).
#[derive(Clone, Debug, Serialize)]
pub struct SimModel {
    /// game, seed, elapsed_s, setup_s, threads, interrupted, rounds_per_s.
    #[serde(flatten)]
    pub header: RunHeader,
    pub version: &'static str,
    pub rules: Rules,
    pub strategy: StrategyLine,
    pub shard: Option<crate::shard::ShardSpec>,
    pub chunk_range: [u64; 2],
    pub rounds: u64,
    pub rounds_requested: u64,
    /// Initial bets staked, in units of one initial bet (seat-rounds when betting flat).
    pub initial_bets: u64,
    /// Seat-rounds played (each seat's round, whatever its bet).
    pub seat_rounds: u64,
    /// Average and largest initial bet of a seat-round, in initial bets.
    pub avg_bet: f64,
    pub max_bet: u64,
    pub shoes: u64,
    pub chunks: ShoeChunks,
    pub ev: f64,
    pub ev_se: f64,
    pub ev_ci95: [f64; 2],
    pub rtp: f64,
    pub rtp_ci95: [f64; 2],
    pub rtp_total_wagered: f64,
    pub rtp_total_wagered_se: f64,
    pub rtp_total_wagered_ci95: [f64; 2],
    /// The most a round returns per amount wagered (`max_return_per_wagered`), for `monitor`.
    pub max_return_per_wagered: f64,
    pub sd_round: f64,
    /// By up card name (A, 2, ..., T).
    pub ev_by_upcard: std::collections::BTreeMap<String, UpEv>,
    #[serde(serialize_with = "frequencies_as_map")]
    pub frequencies: Vec<Frequency>,
    pub dealer_outcomes: std::collections::BTreeMap<String, DealerRow>,
    pub net_distribution: Vec<NetRow>,
    pub side_bets: SideBetsLine,
    pub bet_behind: BehindLine,
    pub claim: Option<crate::stats::ClaimCheck>,
    /// Why no claim is tested, when none is (written only then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_claim: Option<String>,
    pub rtp_estimate: Estimate,
    /// How the run went (for the metadata lines and notes).
    #[serde(skip)]
    pub run: RunMeta,
    #[serde(skip)]
    pub reshuffles_mid_round: u64,
    /// The rounds of a standard error of 0.01% at this SD.
    #[serde(skip)]
    pub bets_for_se_0_01pct: f64,
    /// A counting run's figures (keys written only when counting).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub counting: Option<CountingModel>,
}

/// A counting run's figures: money per round played in units of the table minimum (one
/// initial bet), the player's measures of a game's worth, and the EV by true count.
#[derive(Clone, Debug, Serialize)]
pub struct CountingModel {
    /// The count, the true-count conversion, the ramp and wonging, in one line.
    pub count: String,
    /// What bets are keyed on: "true count" or "running count" (an unbalanced count).
    pub count_key: &'static str,
    /// EV and SD of one round the counter plays (all its spots, insurance included), in table
    /// minimums (initial bets).
    pub ev_per_round: f64,
    pub ev_per_round_se: f64,
    pub sd_per_round: f64,
    /// EV per initial bet staked, insurance included: the counter's EV (the top-level `ev`
    /// and `sd_round` are the main bet's only).
    pub advantage: f64,
    pub advantage_se: f64,
    /// The advantage with its 95% CI, and the main bet's own EV and SD (per seat-round), for
    /// the tables.
    #[serde(skip)]
    pub advantage_est: Estimate,
    #[serde(skip)]
    pub main_ev: Estimate,
    #[serde(skip)]
    pub main_sd: f64,
    /// Average initial bet of a seat-round played (the top-level `avg_bet`), and its SE from
    /// the spread of the bets over the counts (seat-rounds taken as independent).
    #[serde(skip)]
    pub avg_bet: f64,
    pub avg_bet_se: f64,
    /// Rounds dealt at the table (watched), rounds the counter played (bet on at least one
    /// spot), and the spots it bet per round played.
    pub rounds_observed: u64,
    pub rounds_played: u64,
    pub spots_per_round: f64,
    /// 10^6 (ev/sd)² (signed: negative when EV < 0), (sd/ev)² (null unless EV > 0) and
    /// 1000 ev/sd, per round played.
    pub score: f64,
    pub n0: f64,
    pub di: f64,
    /// With `--rounds-per-hour`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hourly: Option<Hourly>,
    /// With `--bankroll`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ror: Option<Ror>,
    /// With `--target-ror`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bankroll_for_ror: Option<RorTarget>,
    /// With `--bankroll` (and `--kelly`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certainty_equivalent: Option<CertaintyEquivalent>,
    /// The operator's exposure: for each wager, the counts (with at least
    /// `EXPOSURE_MIN_SHARE` of the rounds) at which it pays, and what betting it only there
    /// earns.
    pub exposure: Vec<Exposure>,
    pub by_true_count: Vec<TcRow>,
}

/// Counts rarer than this share of rounds are left out of the exposure figures.
pub const EXPOSURE_MIN_SHARE: f64 = 0.005;

/// One wager's exposure to a player who bets it only at the counts where it pays.
#[derive(Clone, Debug, Serialize)]
pub struct Exposure {
    pub wager: &'static str,
    /// Counts at which the wager's EV is above 0 (each with at least `EXPOSURE_MIN_SHARE`),
    /// by more than 1.96 SE where the SE is known.
    pub positive_counts: Vec<i32>,
    /// Their share of the rounds, and the wager's EV per unit staked over them, with its SE.
    pub share: f64,
    pub ev: Option<f64>,
    pub se: Option<f64>,
}

/// Hourly figures at a table pace (a wonger plays only part of the rounds dealt).
#[derive(Clone, Debug, Serialize)]
pub struct Hourly {
    /// Rounds dealt per hour (`--rounds-per-hour`, default 100), and of them the counter
    /// plays (per seat).
    pub rounds_per_hour: f64,
    pub rounds_played_per_hour: f64,
    /// EV and SD of an hour, in table minimums, and the hours to play N0 rounds (null unless
    /// EV > 0); `ev_per_hour`, `sd_per_hour` and `hours_to_n0` are the same figures.
    pub ev: f64,
    pub sd: f64,
    pub n0_hours: f64,
    pub ev_per_hour: f64,
    pub sd_per_hour: f64,
    pub hours_to_n0: f64,
}

/// The bankroll for a target lifetime risk of ruin, the trips that check it, and the risk of
/// ruin of bankrolls around it (figures null unless EV > 0).
#[derive(Clone, Debug, Serialize)]
pub struct RorTarget {
    pub target_ror: f64,
    pub formula: &'static str,
    /// In table minimums.
    pub bankroll: Option<f64>,
    /// The check trips (`count::ror_trips`): how many, ruined, the share ruined with its
    /// (binomial) SE, and the formula's chance of the same event, ruin before the bankroll
    /// reaches `ceiling` times its start; the rounds in one step of the walk.
    pub trips: u64,
    pub ruined: Option<u64>,
    pub simulated: Option<f64>,
    pub simulated_se: Option<f64>,
    pub formula_same_event: Option<f64>,
    pub ceiling: f64,
    pub block_rounds: Option<f64>,
    /// Lifetime risk of ruin by the formula at multiples of the bankroll.
    pub curve: Vec<BankrollRor>,
}

#[derive(Clone, Debug, Serialize)]
pub struct BankrollRor {
    pub multiple: f64,
    pub bankroll: f64,
    pub ror: f64,
}

/// The certainty equivalent of the counter's game at a bankroll and Kelly multiple.
#[derive(Clone, Debug, Serialize)]
pub struct CertaintyEquivalent {
    pub bankroll: f64,
    pub kelly: f64,
    pub formula: &'static str,
    /// In table minimums: per round played, and per hour at the hourly pace.
    pub per_round: f64,
    pub per_hour: f64,
    /// The risk cost per round, var/(2·k·B).
    pub risk_cost_per_round: f64,
}

/// Multiples of the bankroll for a target risk of ruin in its table (the plot is finer).
const ROR_MULTIPLES: [f64; 8] = [0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0];

/// The formula of `bankroll_for_ror`, as the report and JSON state it.
pub const ROR_FORMULA: &str =
    "RoR = exp(-2 ev B / var) per round played, so B = -var ln(RoR) / (2 ev)";
/// The formula of `certainty_equivalent`.
pub const CE_FORMULA: &str = "CE = ev - var / (2 k B) per round played";
/// The check trips' fixed stream.
const TRIP_SEED: u64 = 37;

/// The bankroll for `target` and its check (`ev`, `var` per round played).
fn ror_target(target: f64, ev: f64, var: f64) -> RorTarget {
    use super::count::{bankroll_for_ror, ror_trips, TRIP_CEILING};
    let b = bankroll_for_ror(ev, var, target);
    let check = b.map(|b| ror_trips(ev, var, b, TRIP_SEED));
    let p = check.map(|c| c.ruined as f64 / c.trips as f64);
    RorTarget {
        target_ror: target,
        formula: ROR_FORMULA,
        bankroll: b,
        trips: check.map_or(0, |c| c.trips),
        ruined: check.map(|c| c.ruined),
        simulated: p,
        simulated_se: check
            .zip(p)
            .map(|(c, p)| (p * (1.0 - p) / c.trips as f64).sqrt()),
        formula_same_event: check.map(|c| c.formula),
        ceiling: TRIP_CEILING,
        block_rounds: check.map(|c| c.block_rounds),
        curve: b.map_or(Vec::new(), |b| {
            ROR_MULTIPLES
                .iter()
                .map(|&k| BankrollRor {
                    multiple: k,
                    bankroll: k * b,
                    ror: crate::stats::ruin_probability(ev, var.sqrt(), k * b, None),
                })
                .collect()
        }),
    }
}

/// Risk of ruin of a bankroll, in table minimums.
#[derive(Clone, Debug, Serialize)]
pub struct Ror {
    pub bankroll: u64,
    /// The Brownian approximation: ever (`e^(−2·ev·bankroll/sd²)`, 1 when EV ≤ 0) and within
    /// a trip of `trip_rounds` rounds played.
    pub formula_lifetime: f64,
    pub trip_rounds: u64,
    pub formula_trip: f64,
    /// Simulated: trips played along the simulated rounds, the share ruined and its SE
    /// (binomial; null without a complete trip).
    pub trips: u64,
    pub simulated_trip: Option<f64>,
    pub simulated_trip_se: Option<f64>,
    /// P(ruined within n rounds), simulated and by the formula, at `RUIN_BINS` points.
    pub curve: Vec<RuinPoint>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RuinPoint {
    pub rounds: u64,
    pub simulated: Option<f64>,
    pub formula: f64,
}

/// The seat-rounds of one count (the first and last rows take every count beyond them).
#[derive(Clone, Debug, Serialize)]
pub struct TcRow {
    pub tc: i32,
    /// Share of the seat-rounds observed.
    pub share: f64,
    pub observed: u64,
    pub played: u64,
    /// EV per initial bet of the rounds played at this count, SE and 95% CI (seat-rounds
    /// taken as independent).
    pub ev: f64,
    pub se: f64,
    pub ci95: [f64; 2],
    /// Variance of the net per initial bet of the rounds played at this count (main bet),
    /// in initial bets squared: with `ev`, what `strategies ramp` optimises a ramp from.
    pub variance: f64,
    /// Average bet placed at this count, in initial bets (0: never played).
    pub bet: f64,
    /// Operator exposure at this count, over every seat-round seen (played or not): EV per
    /// unit staked of an insurance bet (ace up; null without one; keyed by the count at the
    /// insurance decision, after the deal, where the other columns take the count at the
    /// bet), of the pairs side bet
    /// (11:1, same rank), and of a flat bet behind that declines doubles and splits; each
    /// with its SE (seat-rounds taken as independent).
    pub insurance_ev: Option<f64>,
    pub insurance_se: Option<f64>,
    pub pairs_ev: f64,
    pub pairs_se: f64,
    pub behind_ev: f64,
}

/// The counter's figures per hour at the rounds per hour `spec` states (or the default):
/// rounds played, EV and SD per hour, and the hours to N0.
fn hourly(
    spec: &super::count::CountSpec,
    m: &crate::stats::Ratio,
    rounds: u64,
    ev_round: f64,
    sd_round: f64,
) -> Hourly {
    let r = spec
        .labels
        .rounds_per_hour
        .unwrap_or(super::count::DEFAULT_ROUNDS_PER_HOUR);
    let played = r * m.n as f64 / rounds.max(1) as f64;
    let (ev, sd) = (ev_round * played, sd_round * played.sqrt());
    let n0_hours = super::count::n0(ev_round, sd_round) / played;
    Hourly {
        rounds_per_hour: r,
        rounds_played_per_hour: played,
        ev,
        sd,
        n0_hours,
        ev_per_hour: ev,
        sd_per_hour: sd,
        hours_to_n0: n0_hours,
    }
}

/// One row per count seen: its share, the main bet's EV and variance per unit, the bet, and
/// the operator's exposure on insurance, the pairs bet and a bet behind (`observed`: the
/// seat-rounds seen at every count).
fn tc_rows(acc: &BjAcc, u: f64, observed: u64) -> Vec<TcRow> {
    use super::count::TC_CLAMP;
    acc.count
        .by_tc
        .iter()
        .enumerate()
        .filter(|(_, t)| t.observed > 0)
        .map(|(i, t)| {
            let k = t.played as f64;
            let (e, variance) = tc_figures(t, u);
            // A bet winning `w` of `n` at `pay`:1: its EV and SE per unit staked.
            let bet = |w: u64, n: u64, pay: f64| {
                let (n, p) = (n as f64, w as f64 / n.max(1) as f64);
                let ev = p * (pay + 1.0) - 1.0;
                (ev, (pay + 1.0) * (p * (1.0 - p) / n).sqrt())
            };
            let (ins, ins_se) = bet(t.insurance_won, t.aces_up, 2.0);
            let (pairs, pairs_se) = bet(t.pairs_won, t.observed, 11.0);
            let some = t.aces_up > 0;
            TcRow {
                tc: i as i32 - TC_CLAMP,
                share: rate(t.observed, observed),
                observed: t.observed,
                played: t.played,
                ev: e.mean,
                se: e.se,
                ci95: e.ci95,
                variance,
                bet: if t.played > 0 { t.bets as f64 / k } else { 0.0 },
                insurance_ev: some.then_some(ins),
                insurance_se: some.then_some(ins_se),
                pairs_ev: pairs,
                pairs_se,
                behind_ev: t.behind_none as f64 / t.observed as f64 / u,
            }
        })
        .collect()
}

/// The certainty equivalent of the game at `spec`'s bankroll and Kelly fraction.
fn certainty_equivalent(
    spec: &super::count::CountSpec,
    ev_round: f64,
    var_round: f64,
    hourly: &Hourly,
) -> Option<CertaintyEquivalent> {
    spec.bankroll.map(|b| {
        let kelly = spec.labels.kelly.unwrap_or(1.0);
        let bankroll = b.units as f64;
        let per_round = super::count::certainty_equivalent(ev_round, var_round, bankroll, kelly);
        CertaintyEquivalent {
            bankroll,
            kelly,
            formula: CE_FORMULA,
            per_round,
            per_hour: per_round * hourly.rounds_played_per_hour,
            risk_cost_per_round: ev_round - per_round,
        }
    })
}

/// The counting figures of a run's sums (`None` for a run that does not count).
pub fn counting_model(
    rules: &Rules,
    spec: Option<&super::count::CountSpec>,
    acc: &BjAcc,
) -> Option<CountingModel> {
    let spec = spec?;
    let u = rules.units_per_bet() as f64;
    // The counter's whole result (main bet and insurance); a shard from before it was kept
    // has the main bet only.
    let m = if acc.count.money.n > 0 {
        &acc.count.money
    } else {
        &acc.main
    };
    let n = m.n as f64;
    let ev_round = m.x as f64 / n / u;
    let sd_round = m.sd_obs() / u;
    let adv = est(m, u);
    let observed: u64 = acc.count.by_tc.iter().map(|t| t.observed).sum();
    let (avg_bet, avg_bet_se) = bet_spread(&acc.count.by_tc);
    let var_round = sd_round * sd_round;
    let hourly = hourly(spec, m, acc.counts.rounds, ev_round, sd_round);
    let by_true_count = tc_rows(acc, u, observed);
    Some(CountingModel {
        count: spec.describe(),
        count_key: spec.key_name(),
        ev_per_round: ev_round,
        ev_per_round_se: sd_round / n.sqrt(),
        sd_per_round: sd_round,
        advantage: adv.mean,
        advantage_se: adv.se,
        advantage_est: adv,
        main_ev: est(&acc.main, u),
        main_sd: acc.main.sd_obs() / u,
        avg_bet,
        avg_bet_se,
        rounds_observed: acc.counts.rounds,
        rounds_played: m.n,
        spots_per_round: acc.counts.seat_rounds as f64 / m.n.max(1) as f64,
        // Signed: a losing game scores below 0; N0 only means something when EV > 0.
        score: super::count::score(ev_round, sd_round),
        n0: super::count::n0(ev_round, sd_round),
        di: 1000.0 * ev_round / sd_round,
        ror: spec
            .bankroll
            .map(|b| ruin_model(b, ev_round, sd_round, &acc.count.ruin)),
        bankroll_for_ror: spec
            .labels
            .target_ror
            .map(|t| ror_target(t, ev_round, var_round)),
        certainty_equivalent: certainty_equivalent(spec, ev_round, var_round, &hourly),
        hourly: Some(hourly),
        exposure: exposure(
            &by_true_count,
            spec.pairs_exposure.then_some((
                acc.count.pairs_paying,
                acc.count.pairs_paying_won,
                observed,
            )),
        ),
        by_true_count,
    })
}

/// The average initial bet of a seat-round played and its SE: the bets of one count are its
/// average bet (the ramp's), seat-rounds are taken as independent.
fn bet_spread(by_tc: &[super::sim::TcSums]) -> (f64, f64) {
    let n: u64 = by_tc.iter().map(|t| t.played).sum();
    if n == 0 {
        return (f64::NAN, f64::NAN);
    }
    let nf = n as f64;
    let mean = by_tc.iter().map(|t| t.bets as f64).sum::<f64>() / nf;
    let var = by_tc
        .iter()
        .filter(|t| t.played > 0)
        .map(|t| t.played as f64 * (t.bets as f64 / t.played as f64 - mean).powi(2))
        .sum::<f64>()
        / nf;
    (mean, (var / nf).sqrt())
}

/// The EV per initial bet (of `u` units) of the seat-rounds played at one count, with its SE
/// and 95% CI (seat-rounds taken as independent).
fn tc_estimate(t: &super::sim::TcSums, u: f64) -> Estimate {
    tc_figures(t, u).0
}

/// A count's EV per round with its SE, and the variance of a round's result (per unit bet).
fn tc_figures(t: &super::sim::TcSums, u: f64) -> (Estimate, f64) {
    let k = t.played as f64;
    let mean = t.net as f64 / k;
    let var = (t.net_xx as f64 / k - mean * mean).max(0.0);
    (
        Estimate::new(mean / u, (var / k).sqrt() / u, t.played.saturating_sub(1)),
        var / (u * u),
    )
}

/// A count as a row or bar label: the first and last counts take every count beyond them
/// ("<= -6", ">= +6"; `gap` between the sign and the number, a space in tables).
fn count_label(tc: i32, gap: &str) -> String {
    let edge = super::count::TC_CLAMP;
    match tc {
        t if t <= -edge => format!("<={gap}{t}"),
        t if t >= edge => format!(">={gap}{t:+}"),
        t => format!("{t:+}"),
    }
}

/// Each wager's exposure by count: the bet behind (following the seat's play: the counter's
/// own EV per unit at that count; declining doubles and splits), the pairs bet and insurance.
/// `perfect`: the pairs bet against a player who knows the ranks left (seat-rounds where it
/// pays, those it won, seat-rounds seen).
fn exposure(rows: &[TcRow], perfect: Option<(u64, u64, u64)>) -> Vec<Exposure> {
    type Pick = fn(&TcRow) -> Option<(f64, f64, u64)>;
    let wagers: [(&'static str, Pick); 4] = [
        ("bet behind, following doubles and splits", |r| {
            (r.played > 0).then_some((r.ev, r.se, r.played))
        }),
        ("bet behind, declining doubles and splits", |r| {
            (r.observed > 0).then_some((r.behind_ev, f64::NAN, r.observed))
        }),
        ("pairs (11:1, same rank)", |r| {
            Some((r.pairs_ev, r.pairs_se, r.observed))
        }),
        ("insurance (2:1)", |r| {
            Some((r.insurance_ev?, r.insurance_se?, r.observed))
        }),
    ];
    let mut out: Vec<Exposure> = wagers
        .iter()
        .map(|&(wager, pick)| {
            let mut counts = Vec::new();
            let (mut share, mut sum, mut var, mut n) = (0.0, 0.0, 0.0, 0.0);
            for r in rows.iter().filter(|r| r.share >= EXPOSURE_MIN_SHARE) {
                let Some((ev, se, k)) = pick(r) else { continue };
                // Significantly above 0 where the SE is known (95%), else above 0.
                let margin = if se.is_finite() { 1.96 * se } else { 0.0 };
                if ev - margin > 0.0 {
                    counts.push(r.tc);
                    share += r.share;
                    let k = k as f64;
                    sum += ev * k;
                    var += (se * k).powi(2);
                    n += k;
                }
            }
            Exposure {
                wager,
                positive_counts: counts,
                share,
                ev: (n > 0.0).then(|| sum / n),
                se: (n > 0.0 && var.is_finite()).then(|| var.sqrt() / n),
            }
        })
        .collect();
    if let Some((paying, won, seen)) = perfect {
        let p = won as f64 / paying.max(1) as f64;
        out.push(Exposure {
            wager: "pairs, to a player who knows every rank left",
            positive_counts: Vec::new(),
            share: paying as f64 / seen.max(1) as f64,
            ev: (paying > 0).then_some(12.0 * p - 1.0),
            se: (paying > 0).then(|| 12.0 * (p * (1.0 - p) / paying as f64).sqrt()),
        });
    }
    out
}

/// The risk of ruin of `b` for a game of `ev` and `sd` per round, and its simulated trips.
fn ruin_model(b: super::count::Bankroll, ev: f64, sd: f64, sums: &super::sim::RuinAcc) -> Ror {
    use crate::stats::ruin_probability;
    let bank = b.units as f64;
    let bins = super::count::RUIN_BINS as u64;
    let trips = sums.trips;
    let mut ruined = 0u64;
    let curve = (0..bins)
        .map(|i| {
            ruined += sums.ruined_by.get(i as usize).copied().unwrap_or(0);
            let rounds = (b.trip_rounds * (i + 1)).div_ceil(bins);
            RuinPoint {
                rounds,
                simulated: (trips > 0).then(|| ruined as f64 / trips as f64),
                formula: ruin_probability(ev, sd, bank, Some(rounds as f64)),
            }
        })
        .collect();
    let p = ruined as f64 / trips.max(1) as f64;
    Ror {
        bankroll: b.units,
        formula_lifetime: ruin_probability(ev, sd, bank, None),
        trip_rounds: b.trip_rounds,
        formula_trip: ruin_probability(ev, sd, bank, Some(b.trip_rounds as f64)),
        trips,
        simulated_trip: (trips > 0).then_some(p),
        simulated_trip_se: (trips > 0).then(|| (p * (1.0 - p) / trips as f64).sqrt()),
        curve,
    }
}

fn frequencies_as_map<S: serde::Serializer>(f: &[Frequency], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut sorted: Vec<&Frequency> = f.iter().collect();
    sorted.sort_by_key(|f| f.name);
    let mut m = s.serialize_map(Some(f.len()))?;
    for f in sorted {
        m.serialize_entry(f.name, &f.rate)?;
    }
    m.end()
}

/// The EV per initial bet (of `u` units) after each dealer up card, by its name.
fn ev_by_upcard(acc: &BjAcc, u: f64) -> std::collections::BTreeMap<String, UpEv> {
    UP_ORDER
        .iter()
        .map(|&i| {
            let ratio = &acc.by_up[i];
            let e = est(ratio, u);
            let row = UpEv {
                ev: e.mean,
                se: e.se,
                ci95: e.ci95,
                bets: ratio.n,
            };
            (up_name(i), row)
        })
        .collect()
}

/// How often each counted event happened, each per what it can happen in.
fn frequencies(c: &super::sim::Counts) -> Vec<Frequency> {
    let f = |name, of, count, d| Frequency {
        name,
        of,
        count,
        rate: rate(count, d),
    };
    vec![
        f("blackjack", "per seat-round", c.naturals, c.seat_rounds),
        f(
            "dealer_blackjack",
            "per round",
            c.dealer_blackjacks,
            c.rounds,
        ),
        f("double", "per seat-round", c.doubles, c.seat_rounds),
        f("split", "per seat-round", c.splits, c.seat_rounds),
        f("surrender", "per seat-round", c.surrenders, c.seat_rounds),
        f(
            "insurance_taken",
            "per offer (ace up)",
            c.insurance_taken,
            c.insurance_offered,
        ),
        f(
            "player_bust",
            "per hand played",
            c.player_busts,
            c.hands_played,
        ),
        f("dealer_bust", "per round", c.dealer_busts, c.rounds),
    ]
}

/// The dealer's final hands after each up card, by its name.
fn dealer_outcomes(acc: &BjAcc) -> std::collections::BTreeMap<String, DealerRow> {
    UP_ORDER
        .iter()
        .map(|&i| {
            let row = &acc.dealer[i];
            let n: u64 = row.iter().sum();
            let p = |k: usize| rate(row[k], n);
            let d = DealerRow {
                rounds: n,
                t17: p(0),
                t18: p(1),
                t19: p(2),
                t20: p(3),
                t21: p(4),
                bust: p(5),
                blackjack: p(6),
            };
            (up_name(i), d)
        })
        .collect()
}

/// Each net result of a seat-round (in initial bets) and how often it came.
fn net_distribution(rules: &Rules, acc: &BjAcc) -> Vec<NetRow> {
    let u = rules.units_per_bet() as f64;
    let off = hist_offset(rules);
    acc.hist
        .iter()
        .enumerate()
        .filter(|(_, &k)| k > 0)
        .map(|(i, &k)| NetRow {
            net: (i as i64 - off) as f64 / u,
            count: k,
            p: rate(k, acc.counts.seat_rounds),
        })
        .collect()
}

/// Compute the report model of a blackjack run.
pub fn model(
    rules: &Rules,
    strategy: &StrategyInfo,
    bets: &SideBets,
    acc: &BjAcc,
    info: &RunInfo,
    claim: Option<f64>,
) -> SimModel {
    let u = rules.units_per_bet() as f64;
    let c = &acc.counts;
    let ev = est(&acc.main, u);
    let rtp = ev.affine(1.0, 1.0);
    let per_wagered = est(&acc.wagered, 1.0).affine(1.0, 1.0);
    let pairs = est(&acc.pairs, 1.0).affine(1.0, 1.0);
    let insurance = est(&acc.insurance, 1.0).affine(1.0, 1.0);
    let behind = match bets.behind_follows {
        BehindFollows::All => rtp,
        BehindFollows::None => est(&acc.behind_none, u).affine(1.0, 1.0),
    };
    let ev_by_upcard = ev_by_upcard(acc, u);
    let frequencies = frequencies(c);
    let dealer_outcomes = dealer_outcomes(acc);
    let net_distribution = net_distribution(rules, acc);
    SimModel {
        header: RunHeader::of("blackjack", &info.run, c.rounds, "rounds_per_s"),
        version: crate::VERSION,
        rules: rules.clone(),
        strategy: StrategyLine {
            name: strategy.name.clone(),
            hash: strategy.hash.clone(),
            insurance: if bets.insure { "always" } else { "never" }.into(),
        },
        shard: info.run.shard,
        chunk_range: info.run.chunk_range,
        rounds: c.rounds,
        rounds_requested: info.rounds_requested,
        initial_bets: c.initial_bets,
        seat_rounds: c.seat_rounds,
        avg_bet: rate(c.initial_bets, c.seat_rounds),
        max_bet: c.max_bet,
        shoes: c.shoes,
        chunks: ShoeChunks {
            shoes_per_chunk: info.plan.shoes_per_chunk,
            planned: info.plan.chunks,
            done: info.run.chunks_done,
            pilot_rounds_per_shoe: info.plan.pilot_rounds_per_shoe,
        },
        ev: ev.mean,
        ev_se: ev.se,
        ev_ci95: ev.ci95,
        rtp: rtp.mean,
        rtp_ci95: rtp.ci95,
        rtp_total_wagered: per_wagered.mean,
        rtp_total_wagered_se: per_wagered.se,
        rtp_total_wagered_ci95: per_wagered.ci95,
        max_return_per_wagered: super::max_return_per_wagered(rules),
        sd_round: acc.main.sd_obs() / u,
        ev_by_upcard,
        frequencies,
        dealer_outcomes,
        net_distribution,
        side_bets: SideBetsLine {
            pairs: PairsLine {
                stake: bets.pairs,
                bets: acc.pairs.n,
                rtp: pairs.mean,
                se: pairs.se,
                ci95: pairs.ci95,
            },
            insurance: InsuranceLine {
                taken: acc.insurance.n,
                rtp: insurance.mean,
                se: insurance.se,
                ci95: insurance.ci95,
            },
        },
        bet_behind: BehindLine {
            stake: bets.behind,
            follows: bets.behind_follows,
            rtp: behind.mean,
            se: behind.se,
            ci95: behind.ci95,
            bets: acc.main.n,
        },
        claim: claim.map(|cl| check_claim(&rtp, cl, c.seat_rounds, acc.main.df(), "RTP")),
        no_claim: None,
        rtp_estimate: rtp,
        run: info.run.clone(),
        reshuffles_mid_round: c.reshuffles_mid_round,
        bets_for_se_0_01pct: rounds_for_se(ev.se, c.seat_rounds, 0.0001),
        counting: None,
    }
}

/// The report of a blackjack run: tables and notes rendered from the model, the JSON the
/// model itself.
pub fn render(m: &SimModel) -> Report {
    let mut r = Report {
        title: format!("rtplab blackjack simulation: {}", m.strategy.name),
        ..Default::default()
    };
    r.meta = meta_lines(m);
    m.run.annotate(&mut r, m.rounds, "rounds");
    r.sections.extend([
        result_section(m),
        up_card_section(m),
        frequency_section(m),
        side_bet_section(m),
        dealer_section(m),
        net_section(m),
    ]);
    if let Some(c) = &m.counting {
        render_counting(&mut r, c);
    }
    notes(&mut r, m);
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

/// The metadata lines before the run's elapsed line: tool, rules, strategy, seed, rounds,
/// chunks.
fn meta_lines(m: &SimModel) -> Vec<(String, String)> {
    let strategy = format!(
        "{}{}, insurance {}",
        m.strategy.name,
        m.strategy
            .hash
            .as_ref()
            .map(|h| format!(" (fnv1a {h})"))
            .unwrap_or_default(),
        m.strategy.insurance
    );
    let rounds = if m.max_bet > 1 {
        format!(
            "{} dealer rounds; {} seat-rounds played, staking {} initial bets ({} rounds requested)",
            count(m.rounds),
            count(m.seat_rounds),
            count(m.initial_bets),
            count(m.rounds_requested)
        )
    } else {
        format!(
            "{} dealer rounds, {} initial bets ({} requested)",
            count(m.rounds),
            count(m.initial_bets),
            count(m.rounds_requested)
        )
    };
    let chunks = format!(
        "{} of {} done, {} each ({:.1} rounds per shoe in the pilot)",
        count(m.chunks.done),
        count(m.chunks.planned),
        crate::report::plural(m.chunks.shoes_per_chunk, "shoe"),
        m.chunks.pilot_rounds_per_shoe
    );
    vec![
        ("tool".into(), format!("rtplab {}", m.version)),
        ("rules".into(), m.rules.to_string()),
        ("strategy".into(), strategy),
        ("seed".into(), m.header.seed.to_string()),
        ("rounds".into(), rounds),
        ("chunks".into(), chunks),
    ]
}

/// EV, RTP and RTP per total wagered, and the SD of a round.
fn result_section(m: &SimModel) -> Section {
    let mut s = Section::new(
        "Result (per initial main bet unless stated)",
        &["quantity", "value", "SE", "95% CI"],
    );
    let rtp = &m.rtp_estimate;
    // A counter's EV and SD are its whole action's (insurance included); the main bet's own
    // figures follow, labelled as such.
    let c = m.counting.as_ref();
    let main = if c.is_some() { ", main bet only" } else { "" };
    if let Some(c) = c {
        let a = &c.advantage_est;
        let [mean, se, ci] = pct_estimate_cells(a.mean, a.se, a.ci95, 4);
        s.row([
            "EV (main bets and insurance, per initial bet staked)".into(),
            mean,
            se,
            ci,
        ]);
        s.row([
            "SD of one round played (table minimums, main bets and insurance)".into(),
            fixed_cell(c.sd_per_round, 4, "bets"),
            "".into(),
            "".into(),
        ]);
    }
    for (name, mean, se, ci95) in [
        ("EV", m.ev, m.ev_se, m.ev_ci95),
        ("RTP = 1 + EV", rtp.mean, rtp.se, rtp.ci95),
        (
            "RTP per total wagered",
            m.rtp_total_wagered,
            m.rtp_total_wagered_se,
            m.rtp_total_wagered_ci95,
        ),
    ] {
        let [mean, se, ci] = pct_estimate_cells(mean, se, ci95, 4);
        s.row([format!("{name}{main}").into(), mean, se, ci]);
    }
    s.row([
        format!("SD of one round (bets){main}").into(),
        fixed_cell(m.sd_round, 4, "bets"),
        "".into(),
        "".into(),
    ]);
    s
}

fn up_card_section(m: &SimModel) -> Section {
    let mut s = Section::new(
        "EV by dealer up card",
        &["up", "share", "EV", "SE", "95% CI"],
    );
    for &i in &UP_ORDER {
        let row = &m.ev_by_upcard[&up_name(i)];
        let [ev, se, ci] = pct_estimate_cells(row.ev, row.se, row.ci95, 3);
        s.row([
            up_name(i).into(),
            pct_cell(rate(row.bets, m.seat_rounds), 2),
            ev,
            se,
            ci,
        ]);
    }
    s
}

fn frequency_section(m: &SimModel) -> Section {
    let mut s = Section::new("Frequencies", &["event", "rate", "count", "of"]);
    for f in &m.frequencies {
        s.row([
            f.name.into(),
            pct_cell(f.rate, 3),
            count_cell(f.count),
            f.of.into(),
        ]);
    }
    s
}

/// The pairs bet, insurance and the bet behind: each one's RTP per stake.
fn side_bet_section(m: &SimModel) -> Section {
    let mut s = Section::new(
        "Side bets and bet behind (RTP per stake of that bet)",
        &["bet", "stake", "bets", "RTP", "SE", "95% CI"],
    );
    let sb = &m.side_bets;
    let b = &m.bet_behind;
    let rows = [
        (
            "pairs (same rank, 11:1)".to_string(),
            Cell::num(format!("{}", sb.pairs.stake), sb.pairs.stake, "bets"),
            sb.pairs.bets,
            [sb.pairs.rtp, sb.pairs.se],
            sb.pairs.ci95,
        ),
        (
            "insurance (2:1)".to_string(),
            if m.strategy.insurance == "never" {
                "never taken".into()
            } else {
                Cell::num("0.5".into(), 0.5, "bets")
            },
            sb.insurance.taken,
            [sb.insurance.rtp, sb.insurance.se],
            sb.insurance.ci95,
        ),
        (
            format!(
                "bet behind (follows {})",
                if b.follows == BehindFollows::All {
                    "all"
                } else {
                    "none"
                }
            ),
            Cell::num(format!("{}", b.stake), b.stake, "bets"),
            b.bets,
            [b.rtp, b.se],
            b.ci95,
        ),
    ];
    for (bet, stake, bets, [rtp, se], ci95) in rows {
        let mut row = vec![Cell::from(bet), stake, count_cell(bets)];
        row.extend(pct_estimate_cells(rtp, se, ci95, 3));
        s.row(row);
    }
    s
}

fn dealer_section(m: &SimModel) -> Section {
    let mut s = Section::new(
        "Dealer outcomes by up card",
        &["up", "17", "18", "19", "20", "21", "bust", "BJ"],
    );
    for &i in &UP_ORDER {
        let d = &m.dealer_outcomes[&up_name(i)];
        let mut cells = vec![Cell::from(up_name(i))];
        cells.extend(
            [d.t17, d.t18, d.t19, d.t20, d.t21, d.bust, d.blackjack]
                .iter()
                .map(|&p| fixed_cell(p, 6, "fraction")),
        );
        s.row(cells);
    }
    s
}

fn net_section(m: &SimModel) -> Section {
    let mut s = Section::new(
        "Distribution of one round's net result (main bet)",
        &["net (bets)", "probability", "count"],
    );
    for d in &m.net_distribution {
        s.row([
            Cell::num(format!("{:+}", d.net), d.net, "bets"),
            fixed_cell(d.p, 6, "fraction"),
            count_cell(d.count),
        ]);
    }
    s
}

/// The notes after the tables (varied bets, precision, claim, reshuffles) and the claim's
/// table.
fn notes(r: &mut Report, m: &SimModel) {
    if m.max_bet > 1 {
        // A counter's average bet, with its SE, is in the counting table.
        let average = match m.counting {
            Some(_) => String::new(),
            None => format!("average {}, ", fixed(m.avg_bet, 3)),
        };
        r.notes.push(format!(
            "Bets varied: {} seat-rounds staked {} initial bets ({average}largest {}); EV and RTP are per initial bet staked.",
            count(m.seat_rounds),
            count(m.initial_bets),
            m.max_bet
        ));
    }
    if m.initial_bets == 0 {
        r.notes
            .push("No rounds were completed: the statistics are not available (n/a).".into());
    } else {
        r.notes.push(crate::report::precision_note(
            m.initial_bets,
            "initial bets",
            m.ev_se,
            m.bets_for_se_0_01pct,
            "bets",
        ));
    }
    if let Some(cc) = &m.claim {
        r.sections.push(crate::report::claim_section(cc, "RTP"));
        r.notes
            .extend(crate::report::claim_notes(cc, "initial bets"));
    }
    r.notes.extend(m.no_claim.clone());
    if m.reshuffles_mid_round > 0 {
        r.notes.push(format!(
            "The shoe ran out mid-round {} times (discards reshuffled); lower --penetration.",
            m.reshuffles_mid_round
        ));
    }
}

/// The counting sections: the player's figures, the risk of ruin, the operator's exposure and
/// the EV by count.
fn render_counting(r: &mut Report, c: &CountingModel) {
    r.meta.push(("count".into(), c.count.clone()));
    r.sections.push(counting_section(c));
    if let Some(ror) = &c.ror {
        r.sections.push(ruin_section(ror));
        r.notes.push(format!(
            "Risk of ruin: the formula is the Brownian approximation with the run's EV and SD per round played (e^(-2 EV B / SD^2) ever; with the finite-horizon term for a trip). Simulated trips follow the simulated rounds in order: each starts with {} table minimums, plays {} rounds the counter bets (insurance included), and is ruined when the bankroll falls to 0 or below; a chunk's unfinished last trip is not counted{}.",
            ror.bankroll,
            ror.trip_rounds,
            if ror.trips == 0 {
                " — no trip completed: each chunk must hold a whole trip; lower --trip-rounds or raise --chunk-shoes"
            } else {
                ""
            }
        ));
    }
    if let Some(t) = &c.bankroll_for_ror {
        r.sections.extend(ror_target_sections(t));
        r.notes.push(format!(
            "Bankroll for a risk of ruin of {}%: {ROR_FORMULA}, with the run's EV and variance per round played (insurance included), in table minimums. It is checked by {} trips with that bankroll, each a random walk of steps of {} rounds whose net is normal with the run's EV and variance (a step's SD is 1/{} of the bankroll; checking for ruin only at the end of a step lowers the share ruined by about {:.1}% of itself), ended at ruin or at {} times the bankroll; the formula's chance of that event is (R - R^{}) / (1 - R^{}). The trips test the formula's inversion and the diffusion at that scale, not the rounds' own distribution: the trips of --bankroll follow the simulated rounds.",
            crate::report::pct_text(t.target_ror),
            t.trips,
            t.block_rounds.map_or("n/a".into(), |b| format!("{b:.0}")),
            super::count::TRIP_BLOCK_STEPS,
            100.0 * (1.0 - t.target_ror.powf(0.5826 / super::count::TRIP_BLOCK_STEPS)),
            t.ceiling,
            t.ceiling,
            t.ceiling,
        ));
    }
    r.sections.push(exposure_section(c));
    r.sections.push(by_count_section(c));
    r.notes.push(format!(
        "Counting: {}. The counter's figures include its insurance bets. A seat sitting out (wonging) watches its place played the same way by someone else: the cards are as they would be, none of it is the seat's money. The SEs by count take seat-rounds as independent; the insurance and pairs EVs by count (per unit staked, over every seat-round seen) are the operator's exposure to a player who bets them only at that count; insurance is keyed by the count at its decision (after the deal, every card seen so far: where an insurance index applies), every other column by the count at the bet.",
        c.count
    ));
}

/// The counter's figures per round played: advantage, EV, SD, SCORE, N0, DI, and per hour.
fn counting_section(c: &CountingModel) -> Section {
    let mut s = Section::new(
        "Card counting (per round played, all spots, in table minimums)",
        &["quantity", "value", "SE"],
    );
    for (label, value, se) in [
        (
            "advantage (EV per initial bet staked, main bets and insurance)",
            pct_cell(c.advantage, 4),
            pct_cell(c.advantage_se, 4),
        ),
        (
            "EV per initial bet, main bet only",
            pct_cell(c.main_ev.mean, 4),
            pct_cell(c.main_ev.se, 4),
        ),
        (
            "EV per round (main bets and insurance)",
            fixed_cell(c.ev_per_round, 5, "bets"),
            fixed_cell(c.ev_per_round_se, 5, "bets"),
        ),
        (
            "average bet (initial bets per seat-round played)",
            fixed_cell(c.avg_bet, 3, "bets"),
            fixed_cell(c.avg_bet_se, 3, "bets"),
        ),
    ] {
        s.row([Cell::from(label), value, se]);
    }
    // Figures without an SE.
    let mut rows: Vec<(String, Cell)> = vec![
        (
            "SD per round (main bets and insurance)".into(),
            fixed_cell(c.sd_per_round, 4, "bets"),
        ),
        (
            "SD per seat-round, main bet only".into(),
            fixed_cell(c.main_sd, 4, "bets"),
        ),
        (
            "SCORE = 10^6 (EV/SD)^2".into(),
            fixed_cell(c.score, 2, "score"),
        ),
        ("N0 = (SD/EV)^2".into(), fixed_cell(c.n0, 0, "rounds")),
        ("DI = 1000 EV/SD".into(), fixed_cell(c.di, 3, "index")),
        ("rounds observed".into(), count_cell(c.rounds_observed)),
        ("rounds played".into(), count_cell(c.rounds_played)),
    ];
    if let Some(h) = &c.hourly {
        rows.extend([
            (
                format!("EV per hour ({} rounds dealt an hour)", h.rounds_per_hour),
                fixed_cell(h.ev_per_hour, 3, "bets"),
            ),
            ("SD per hour".into(), fixed_cell(h.sd_per_hour, 2, "bets")),
            ("hours to N0".into(), fixed_cell(h.hours_to_n0, 0, "hours")),
        ]);
    }
    if let Some(ce) = &c.certainty_equivalent {
        rows.extend([
            (
                format!(
                    "certainty equivalent per round (bankroll {}, {} Kelly: {})",
                    ce.bankroll, ce.kelly, CE_FORMULA
                ),
                fixed_cell(ce.per_round, 5, "bets"),
            ),
            (
                "certainty equivalent per hour".into(),
                fixed_cell(ce.per_hour, 3, "bets"),
            ),
        ]);
    }
    for (label, value) in rows {
        s.row([Cell::from(label), value, "".into()]);
    }
    s
}

/// The bankroll for a target risk of ruin with its check trips, and the risk of ruin by
/// bankroll around it.
fn ror_target_sections(t: &RorTarget) -> [Section; 2] {
    let mut s = Section::new(
        &format!(
            "Bankroll for a risk of ruin of {}% (table minimums)",
            crate::report::pct_text(t.target_ror)
        ),
        &["quantity", "value", "SE"],
    );
    let opt_pct = |x: Option<f64>| x.map_or(Cell::from("n/a"), |x| pct_cell(x, 2));
    s.row([
        Cell::from(format!("bankroll ({ROR_FORMULA})")),
        t.bankroll.map_or(Cell::from("n/a (EV not above 0)"), |b| {
            fixed_cell(b, 0, "bets")
        }),
        "".into(),
    ]);
    s.row([
        Cell::from(format!(
            "ruined before {} times the bankroll (formula)",
            t.ceiling
        )),
        opt_pct(t.formula_same_event),
        "".into(),
    ]);
    s.row([
        Cell::from(format!(
            "ruined before {} times the bankroll (simulated, {} trips)",
            t.ceiling, t.trips
        )),
        opt_pct(t.simulated),
        opt_pct(t.simulated_se),
    ]);
    let mut c = Section::new(
        "Risk of ruin by bankroll (formula, ever)",
        &["bankroll (x the target's)", "bankroll", "risk of ruin"],
    );
    for p in &t.curve {
        c.row([
            fixed_cell(p.multiple, 2, "ratio"),
            fixed_cell(p.bankroll, 0, "bets"),
            pct_cell(p.ror, 3),
        ]);
    }
    [s, c]
}

fn ruin_section(ror: &Ror) -> Section {
    let mut s = Section::new(
        &format!(
            "Risk of ruin of a bankroll of {} table minimums",
            ror.bankroll
        ),
        &["ruin", "probability", "SE"],
    );
    s.row([
        "ever (formula)".into(),
        pct_cell(ror.formula_lifetime, 2),
        "".into(),
    ]);
    s.row([
        format!("within a trip of {} rounds (formula)", ror.trip_rounds).into(),
        pct_cell(ror.formula_trip, 2),
        "".into(),
    ]);
    match (ror.simulated_trip, ror.simulated_trip_se) {
        (Some(p), Some(se)) => s.row([
            format!("within a trip (simulated, {} trips)", ror.trips).into(),
            pct_cell(p, 2),
            pct_cell(se, 2),
        ]),
        _ => s.row([
            Cell::from("within a trip (simulated)"),
            Cell::from("no trip completed"),
            Cell::from(""),
        ]),
    }
    s
}

fn exposure_section(c: &CountingModel) -> Section {
    let mut s = Section::new(
        &format!(
            "Operator exposure: wagers that pay at some {} (EV above 0 by 1.96 SE; counts with at least {}% of rounds)",
            c.count_key,
            EXPOSURE_MIN_SHARE * 100.0
        ),
        &["wager", "paying counts", "share of rounds", "EV there", "SE"],
    );
    for e in &c.exposure {
        let counts: Vec<String> = e.positive_counts.iter().map(|t| format!("{t:+}")).collect();
        s.row([
            Cell::from(e.wager),
            Cell::from(if e.wager.starts_with("pairs, to a player") {
                "exact EV >= 0".to_string()
            } else if counts.is_empty() {
                "none".to_string()
            } else {
                counts.join(" ")
            }),
            pct_cell(e.share, 2),
            e.ev.map_or("".into(), |x| pct_cell(x, 3)),
            e.se.map_or("".into(), |x| pct_cell(x, 3)),
        ]);
    }
    s
}

/// The EV, bet and operator exposure at each count (empty cells where the counter sat out).
fn by_count_section(c: &CountingModel) -> Section {
    let mut s = Section::new(
        &format!(
            "EV by {} (per initial bet of the rounds played)",
            c.count_key
        ),
        &[
            "count",
            "share",
            "played",
            "bet",
            "EV",
            "SE",
            "95% CI",
            "insurance EV",
            "pairs EV",
        ],
    );
    for row in &c.by_true_count {
        let played = row.played > 0;
        let [ev, se, ci] = if played {
            pct_estimate_cells(row.ev, row.se, row.ci95, 3)
        } else {
            Default::default()
        };
        s.row([
            Cell::from(count_label(row.tc, " ")),
            pct_cell(row.share, 2),
            count_cell(row.played),
            if played {
                fixed_cell(row.bet, 2, "bets")
            } else {
                "out".into()
            },
            ev,
            se,
            ci,
            match row.insurance_ev {
                Some(x) => pct_cell(x, 2),
                None => "".into(),
            },
            pct_cell(row.pairs_ev, 2),
        ]);
    }
    s
}

/// The distribution of one round's net result, in initial bets, each bar with its binomial
/// 95% interval.
fn results_histogram_plot(rules: &Rules, acc: &BjAcc, u: f64) -> Result<(String, String), String> {
    use crate::report::svg::{bar_chart, binomial_bar, Bar, BarChart, YUnit};
    let off = hist_offset(rules);
    let total = acc.counts.seat_rounds;
    let hist: Vec<Bar> = acc
        .hist
        .iter()
        .enumerate()
        .filter(|(_, &k)| k > 0)
        .map(|(i, &k)| {
            let net = (i as i64 - off) as f64 / u;
            let label = if net == 0.0 {
                "0 (push)".to_string()
            } else {
                format!("{net:+}")
            };
            binomial_bar(label, k, total)
        })
        .collect();
    Ok((
        "results-histogram.svg".into(),
        bar_chart(&BarChart {
            title: "Distribution of one round's net result",
            x_label: "net result (initial bets)",
            y_label: "share of initial bets (%)",
            y_unit: YUnit::Percent,
            bars: &hist,
            hline: None,
            histogram: true,
        })?,
    ))
}

/// The EV by dealer up card, with 95% CIs.
fn ev_by_upcard_plot(acc: &BjAcc, u: f64) -> Result<(String, String), String> {
    use crate::report::svg::{bar_chart, Bar, BarChart, YUnit};
    let by_up: Vec<Bar> = UP_ORDER
        .iter()
        .map(|&i| {
            let e = est(&acc.by_up[i], u);
            Bar::new(up_name(i), e.mean * 100.0).with_ci(e.ci95[0] * 100.0, e.ci95[1] * 100.0)
        })
        .collect();
    Ok((
        "ev-by-upcard.svg".into(),
        bar_chart(&BarChart {
            title: "EV by dealer up card",
            x_label: "dealer up card",
            y_label: "EV (% of the initial bet)",
            y_unit: YUnit::Percent,
            bars: &by_up,
            hline: None,
            histogram: false,
        })?,
    ))
}

/// The running RTP estimate over chunks in order, with a 95% band from the per-chunk spread
/// so far, and the claim drawn.
fn convergence_plot(acc: &BjAcc, u: f64, claim: Option<f64>) -> Result<(String, String), String> {
    use crate::report::svg::{line_chart, Line, YUnit};
    let (pts, band) = crate::stats::running_rtp(&acc.trace, u, 1.0);
    let claim_label = claim.map(|c| format!("claimed RTP {}%", crate::report::pct_text(c)));
    Ok((
        "convergence.svg".into(),
        line_chart(
            "Running RTP estimate with its 95% band",
            "initial bets",
            "RTP (%)",
            YUnit::Percent,
            &[Line {
                name: "RTP estimate",
                points: &pts,
                band: Some(&band),
                dots: false,
            }],
            claim.map(|c| (c * 100.0, claim_label.as_deref().unwrap_or("claim"))),
        )?,
    ))
}

/// The plots of a run: result histogram, EV by up card, and the running RTP with its 95%
/// band (and the claimed RTP as a line). Rates and RTPs are plotted in percent; an
/// interrupted run's plots say so.
pub fn plots(
    rules: &Rules,
    acc: &BjAcc,
    claim: Option<f64>,
    info: &RunInfo,
    counting: Option<&CountingModel>,
) -> Result<Vec<(String, String)>, String> {
    let u = rules.units_per_bet() as f64;
    let mut out = vec![
        results_histogram_plot(rules, acc, u)?,
        ev_by_upcard_plot(acc, u)?,
        convergence_plot(acc, u, claim)?,
    ];
    if !acc.count.by_tc.is_empty() {
        out.push(ev_by_count_plot(acc, u)?);
    }
    if let Some(c) = counting {
        out.push(count_frequency_plot(c)?);
        if let Some(ror) = &c.ror {
            out.push(ruin_plot(ror)?);
        }
        if let Some(t) = &c.bankroll_for_ror {
            if let Some(p) = ror_by_bankroll_plot(t, c.ev_per_round, c.sd_per_round)? {
                out.push(p);
            }
        }
    }
    if let Some(m) = info.run.marker() {
        for p in &mut out {
            p.1 = crate::report::svg::mark(&p.1, &m);
        }
    }
    Ok(out)
}

/// The EV at each count played more than once, with its 95% CI.
fn ev_by_count_plot(acc: &BjAcc, u: f64) -> Result<(String, String), String> {
    use crate::report::svg::{bar_chart, Bar, BarChart, YUnit};
    let bars: Vec<Bar> = acc
        .count
        .by_tc
        .iter()
        .enumerate()
        .filter(|(_, t)| t.played > 1)
        .map(|(i, t)| {
            let e = tc_estimate(t, u);
            let label = count_label(i as i32 - super::count::TC_CLAMP, "");
            Bar::new(label, e.mean * 100.0).with_ci(e.ci95[0] * 100.0, e.ci95[1] * 100.0)
        })
        .collect();
    Ok((
        "ev-by-true-count.svg".into(),
        bar_chart(&BarChart {
            title: "EV by count, with 95% CIs",
            x_label: "count when the bet was placed",
            y_label: "EV (% of the initial bet)",
            y_unit: YUnit::Percent,
            bars: &bars,
            hline: Some((0.0, "break-even")),
            histogram: false,
        })?,
    ))
}

/// How often each count comes up.
fn count_frequency_plot(c: &CountingModel) -> Result<(String, String), String> {
    use crate::report::svg::{bar_chart, Bar, BarChart, YUnit};
    let bars: Vec<Bar> = c
        .by_true_count
        .iter()
        .map(|row| Bar::new(count_label(row.tc, ""), row.share * 100.0))
        .collect();
    Ok((
        "true-count-frequency.svg".into(),
        bar_chart(&BarChart {
            title: &format!(
                "How often each {} comes up (share of seat-rounds)",
                c.count_key
            ),
            x_label: "count when the bet was placed",
            y_label: "share of seat-rounds (%)",
            y_unit: YUnit::Percent,
            bars: &bars,
            hline: None,
            histogram: false,
        })?,
    ))
}

/// The risk of ruin within a trip as it grows with the rounds played: simulated (with a 95%
/// band) and by the formula.
fn ruin_plot(ror: &Ror) -> Result<(String, String), String> {
    use crate::report::svg::{line_chart, Line, YUnit};
    let formula: Vec<(f64, f64)> = std::iter::once((0.0, 0.0))
        .chain(
            ror.curve
                .iter()
                .map(|p| (p.rounds as f64, p.formula * 100.0)),
        )
        .collect();
    let sim: Vec<(f64, f64)> = std::iter::once((0.0, 0.0))
        .chain(
            ror.curve
                .iter()
                .filter_map(|p| Some((p.rounds as f64, p.simulated? * 100.0))),
        )
        .collect();
    let n = ror.trips as f64;
    let band: Vec<(f64, f64, f64)> = sim
        .iter()
        .map(|&(x, y)| {
            let p = y / 100.0;
            let h = 196.0 * (p * (1.0 - p) / n.max(1.0)).sqrt();
            (x, (y - h).max(0.0), (y + h).min(100.0))
        })
        .collect();
    let title = format!(
        "Risk of ruin within a trip: bankroll {} table minimums (ever, by the formula: {:.1}%)",
        ror.bankroll,
        ror.formula_lifetime * 100.0
    );
    let sim_name = format!("simulated ({} trips)", ror.trips);
    let mut lines = vec![];
    if ror.trips > 0 {
        lines.push(Line {
            name: &sim_name,
            points: &sim,
            band: Some(&band),
            dots: false,
        });
    }
    lines.push(Line {
        name: "Brownian formula",
        points: &formula,
        band: None,
        dots: false,
    });
    Ok((
        "risk-of-ruin.svg".into(),
        line_chart(
            &title,
            "rounds played in the trip",
            "P(ruined by then) (%)",
            YUnit::Percent,
            &lines,
            None,
        )?,
    ))
}

/// The lifetime risk of ruin by bankroll (formula), from a quarter to four times the bankroll
/// for the target, with the target marked (`None` unless EV > 0).
fn ror_by_bankroll_plot(
    t: &RorTarget,
    ev: f64,
    sd: f64,
) -> Result<Option<(String, String)>, String> {
    use crate::report::svg::{line_chart, Line, YUnit};
    let Some(b) = t.bankroll else {
        return Ok(None);
    };
    let (lo, hi) = (ROR_MULTIPLES[0], ROR_MULTIPLES[ROR_MULTIPLES.len() - 1]);
    let points: Vec<(f64, f64)> = (0..=120)
        .map(|i| {
            let x = b * (lo + (hi - lo) * i as f64 / 120.0);
            (x, 100.0 * crate::stats::ruin_probability(ev, sd, x, None))
        })
        .collect();
    let title = format!(
        "Risk of ruin by bankroll: {}% for {} table minimums",
        crate::report::pct_text(t.target_ror),
        crate::report::count(b.round() as u64)
    );
    let target = format!("target {}%", crate::report::pct_text(t.target_ror));
    Ok(Some((
        "risk-by-bankroll.svg".into(),
        line_chart(
            &title,
            "bankroll (table minimums)",
            "risk of ruin, ever (%)",
            YUnit::Percent,
            &[Line {
                name: "Brownian formula",
                points: &points,
                band: None,
                dots: false,
            }],
            Some((100.0 * t.target_ror, target.as_str())),
        )?,
    )))
}
