//! The blackjack run report: statistics from the accumulators, as tables and JSON.

use serde::{Deserialize, Serialize};

use super::hand::{up_name, UP_ORDER};
use super::rules::Rules;
use super::sim::{BjAcc, Plan};
use super::strategy::StrategyInfo;
use crate::report::{est, rate, RunHeader, RunMeta};
use crate::stats::{check_claim, rounds_for_se, Estimate};

mod counting;
mod plots;
mod risk;
mod sections;
mod study;

pub use counting::{
    counting_model, per_shoe_factor, side_exposure, BankrollRor, CertaintyEquivalent,
    CountingModel, Exposure, Hourly, PerRoundObserved, Ror, RorTarget, RuinPoint, TcRow,
    CE_FORMULA, EXPOSURE_MIN_SHARE, ROR_FORMULA,
};
pub use plots::plots;
pub use risk::RISK;
pub use sections::render;
pub use study::STUDY;

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
    /// The seat (1-based) the bet behind is on (`--behind-seat`; absent: every seat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<usize>,
}

/// One seat's figures at a table whose seats play strategies of their own (`--seat`).
#[derive(Clone, Debug, Serialize)]
pub struct SeatLine {
    /// 1-based, in dealing order.
    pub seat: usize,
    /// The seat's `--seat` value, as written.
    pub play: String,
    /// Its strategy's name, and its count (a counter).
    pub strategy: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<String>,
    /// Rounds the seat played (bet) and sat out.
    pub rounds_played: u64,
    pub rounds_out: u64,
    /// Initial bets staked, their average per round played and the largest.
    pub initial_bets: u64,
    pub avg_bet: f64,
    pub max_bet: u64,
    /// The main bet per initial bet staked (as the table's `ev` and `rtp`).
    pub ev: f64,
    pub ev_se: f64,
    pub ev_ci95: [f64; 2],
    pub rtp: f64,
    pub rtp_ci95: [f64; 2],
    /// The seat's money per round played, insurance included, in table minimums (a
    /// counter's win per round), its SE and SD.
    pub ev_per_round: f64,
    pub ev_per_round_se: f64,
    pub sd_per_round: f64,
    /// A counter's SCORE: 10^6·EV·|EV|/var per round played, in table minimums.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
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
    /// Side bets from paytables (`--side`): each measured beside its exact RTP (written only
    /// when placed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub side_wagers: Vec<crate::sidebet::SideSim>,
    /// Each seat's figures at a table of seats playing strategies of their own (written only
    /// then; the figures above are the whole table's).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<SeatLine>,
    /// The player's mistakes (`--errors`; written only then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<ErrorsLine>,
}

/// A run's mistakes (`--errors`): the model, and the strategy's return without them where
/// the exact analysis gives it at once.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorsLine {
    pub name: String,
    /// The model's rates in one line.
    pub model: String,
    /// The strategy's exact RTP per initial bet played without mistakes (a full shoe each
    /// round), where the rules can be analysed exactly and the seats bet flat.
    pub rtp_error_free: Option<f64>,
    /// What the mistakes cost on the main bet: the run's RTP less `rtp_error_free`, with the
    /// run's SE (negative: the player gets less).
    pub cost: Option<f64>,
    pub cost_se: Option<f64>,
    /// The insurance the mistakes took, net per initial bet (its own bet, apart from the main
    /// bet's RTP; 0 when none was taken), and its SE; none when the strategy insures anyway.
    pub insurance: Option<f64>,
    pub insurance_se: Option<f64>,
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
    acc.hist
        .bins()
        .filter(|&(_, k)| k > 0)
        .map(|(net, k)| NetRow {
            net: net as f64 / u,
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
            seat: None,
        },
        claim: claim.map(|cl| check_claim(&rtp, cl, c.seat_rounds, acc.main.df(), "RTP")),
        no_claim: None,
        rtp_estimate: rtp,
        run: info.run.clone(),
        reshuffles_mid_round: c.reshuffles_mid_round,
        bets_for_se_0_01pct: rounds_for_se(ev.se, c.seat_rounds, 0.0001),
        counting: None,
        side_wagers: Vec::new(),
        seats: Vec::new(),
        errors: None,
    }
}
