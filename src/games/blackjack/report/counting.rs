//! A counting run's figures: the player's measures of the game (advantage, SCORE, N0, hourly
//! figures, risk of ruin, certainty equivalent), the EV by count and the operator's exposure.

use serde::Serialize;

use super::super::rules::Rules;
use super::super::sim::BjAcc;
use crate::report::{est, rate};
use crate::stats::Estimate;

/// A counting run's figures: money per round played in units of the table minimum (one
/// initial bet), the player's measures of a game's worth, and the EV by true count.
#[derive(Clone, Debug, Serialize)]
pub struct CountingModel {
    /// The count, the true-count conversion, the ramp and wonging, in one line.
    pub count: String,
    /// What bets are keyed on: "true count" or "running count" (an unbalanced count).
    pub count_key: &'static str,
    /// The ramp's largest jump (null: a flat ramp).
    pub ramp_jump: Option<super::super::ramp::Jump>,
    /// The counter's cover plays (`--cover`; written only when it makes some).
    #[serde(skip_serializing_if = "super::super::count::Cover::is_none")]
    pub cover: super::super::count::Cover,
    /// EV and SD of one round the counter plays (all its spots, insurance included), in table
    /// minimums (initial bets); the EV's SE by batch means over shoes (rounds of one shoe are
    /// correlated through the count).
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
    /// 1000 ev/sd, per round played, each with its SE (`risk::edge_ses`: the delta method on
    /// the EV's batch-means SE).
    pub score: f64,
    pub score_se: f64,
    pub n0: f64,
    pub n0_se: f64,
    pub di: f64,
    pub di_se: f64,
    /// The same figures per round observed: every round dealt, watched or played (a round
    /// sat out nets 0). Without back-counting they equal the figures per round played.
    pub per_round_observed: PerRoundObserved,
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
    /// The count's betting correlation, playing efficiency and insurance correlation for
    /// the rules with their basic chart (`metrics::Effects`); a report's model has it, the
    /// figures read for plots and ramps do not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metrics: Option<super::super::metrics::CountMetrics>,
}

/// A counter's figures per round observed (every round dealt at the table, played or sat
/// out), in table minimums: what a back-counter earns for its time at the table.
#[derive(Clone, Debug, Serialize)]
pub struct PerRoundObserved {
    /// Rounds observed (dealt), and the share of them the counter played.
    pub rounds: u64,
    pub share_played: f64,
    /// EV per round observed with its batch-means SE (null for a file from before it was
    /// kept), and the SD of one round observed.
    pub ev: f64,
    pub ev_se: Option<f64>,
    pub sd: f64,
    /// 10^6 (ev/sd)² (signed), (sd/ev)² in rounds observed (null unless EV > 0) and
    /// 1000 ev/sd, each with its SE (`risk::edge_ses` on the EV's; null without it).
    pub score: f64,
    pub score_se: Option<f64>,
    pub n0: f64,
    pub n0_se: Option<f64>,
    pub di: f64,
    pub di_se: Option<f64>,
    /// At the hourly pace (`hourly.rounds_per_hour` rounds dealt an hour): EV and SD of an
    /// hour and the hours to N0. The EV per hour is the per-round-played one; the SD counts
    /// the rounds sat out as rounds of 0.
    pub ev_per_hour: f64,
    pub sd_per_hour: f64,
    pub hours_to_n0: f64,
}

/// The counter's figures per round observed from its money `m` (per round played) over the
/// `dealt` rounds, `u` units a table minimum, `per_hour` rounds dealt an hour.
fn per_round_observed(
    m: &crate::stats::Ratio,
    timed: &crate::stats::Ratio,
    dealt: u64,
    u: f64,
    per_hour: f64,
) -> PerRoundObserved {
    let n = dealt.max(1) as f64;
    let ev = m.x as f64 / n / u;
    let sd = (m.xx as f64 / n / (u * u) - ev * ev).max(0.0).sqrt();
    // Batch means, from the sums kept per chunk (absent in older files).
    let ev_se = (timed.n == dealt && timed.batches > 1).then(|| timed.se() / u);
    let n0 = crate::risk::n0(ev, sd);
    let ses = ev_se.map(|se| crate::risk::edge_ses(ev, sd, se));
    PerRoundObserved {
        rounds: dealt,
        share_played: m.n as f64 / n,
        ev,
        ev_se,
        sd,
        score: crate::risk::score(ev, sd),
        score_se: ses.map(|s| s.score),
        n0,
        n0_se: ses.map(|s| s.n0),
        di: 1000.0 * ev / sd,
        di_se: ses.map(|s| s.di),
        ev_per_hour: ev * per_hour,
        sd_per_hour: sd * per_hour.sqrt(),
        hours_to_n0: n0 / per_hour,
    }
}

/// Counts rarer than this share of rounds are left out of the exposure figures.
pub const EXPOSURE_MIN_SHARE: f64 = 0.005;

/// One wager's exposure to a player who bets it only at the counts where it pays.
#[derive(Clone, Debug, Serialize)]
pub struct Exposure {
    pub wager: String,
    /// Counts at which the wager's EV is above 0 (each with at least `EXPOSURE_MIN_SHARE`),
    /// by more than 1.96 SE where the SE is known.
    pub positive_counts: Vec<i32>,
    /// Their share of the rounds, and the wager's EV per unit staked over them, with its SE.
    pub share: f64,
    pub ev: Option<f64>,
    pub se: Option<f64>,
    /// What one spot betting one unit at every paying count wins per shoe dealt (units) and
    /// its SE; null for insurance (offered on an ace up only) and where nothing pays.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_shoe: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_shoe_se: Option<f64>,
}

/// One count's figures for a wager: EV per unit staked, its SE (NaN where unknown), and the
/// wagers (or seat-rounds) it is over.
type CountEv = (f64, f64, u64);

/// A wager's exposure from its figures by count: `rows` gives each count, its share of the
/// seat-rounds seen and the wager's figures there; `per_shoe` turns Σ EV × wagers over the
/// paying counts into units per shoe per spot (`None`: not stated).
fn paying_counts(
    wager: String,
    rows: impl Iterator<Item = (i32, f64, Option<CountEv>)>,
    per_shoe: Option<f64>,
) -> Exposure {
    let mut counts = Vec::new();
    let (mut share, mut sum, mut var, mut n) = (0.0, 0.0, 0.0, 0.0);
    for (tc, row_share, figures) in rows {
        let Some((ev, se, k)) = figures else { continue };
        if row_share < EXPOSURE_MIN_SHARE {
            continue;
        }
        // Significantly above 0 where the SE is known (95%), else above 0.
        let margin = if se.is_finite() { 1.96 * se } else { 0.0 };
        if ev - margin > 0.0 {
            counts.push(tc);
            share += row_share;
            let k = k as f64;
            sum += ev * k;
            var += (se * k).powi(2);
            n += k;
        }
    }
    let some = n > 0.0;
    Exposure {
        wager,
        positive_counts: counts,
        share,
        ev: some.then(|| sum / n),
        se: (some && var.is_finite()).then(|| var.sqrt() / n),
        per_shoe: per_shoe.filter(|_| some).map(|f| sum * f),
        per_shoe_se: per_shoe
            .filter(|_| some && var.is_finite())
            .map(|f| var.sqrt() * f),
    }
}

/// The side bets from paytables by the count at the bet, as exposures: `names` in the order
/// the run placed them; `per_shoe` as for [`paying_counts`].
pub fn side_exposure(names: &[String], acc: &BjAcc, per_shoe: Option<f64>) -> Vec<Exposure> {
    use super::super::count::{TC_BINS, TC_CLAMP};
    let rows = &acc.count.side_by_tc;
    let observed: u64 = acc.count.by_tc.iter().map(|t| t.observed).sum();
    names
        .iter()
        .enumerate()
        .filter(|(j, _)| rows.len() >= (j + 1) * TC_BINS)
        .map(|(j, name)| {
            let by_tc = rows[j * TC_BINS..(j + 1) * TC_BINS].iter().enumerate();
            let figures = by_tc.filter(|(_, t)| t.n > 0).map(|(b, t)| {
                let (n, per) = (t.n as f64, t.staked as f64 / t.n as f64);
                let mean = t.x as f64 / n;
                let var = (t.xx as f64 / n - mean * mean).max(0.0);
                let ev = (mean / per, (var / n).sqrt() / per, t.n);
                (b as i32 - TC_CLAMP, rate(t.n, observed), Some(ev))
            });
            paying_counts(name.clone(), figures, per_shoe)
        })
        .collect()
}

/// Units per shoe per spot of Σ EV × seat-rounds: rounds dealt over shoes and seat-rounds seen.
pub fn per_shoe_factor(acc: &BjAcc) -> Option<f64> {
    let observed: u64 = acc.count.by_tc.iter().map(|t| t.observed).sum();
    (acc.counts.shoes > 0 && observed > 0)
        .then(|| acc.counts.rounds as f64 / (acc.counts.shoes as f64 * observed as f64))
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
    /// The check trips (`risk::ror_trips`): how many, ruined, the share ruined with its
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
pub(super) const ROR_MULTIPLES: [f64; 8] = [0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0];

/// The formula of `bankroll_for_ror`, as the report and JSON state it.
pub const ROR_FORMULA: &str =
    "RoR = exp(-2 ev B / var) per round played, so B = -var ln(RoR) / (2 ev)";
/// The formula of `certainty_equivalent`.
pub const CE_FORMULA: &str = "CE = ev - var / (2 k B) per round played";
/// The check trips' fixed stream.
const TRIP_SEED: u64 = 37;

/// The bankroll for `target` and its check (`ev`, `var` per round played).
fn ror_target(target: f64, ev: f64, var: f64) -> RorTarget {
    use crate::risk::{bankroll_for_ror, ror_trips, TRIP_CEILING};
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
                    ror: crate::risk::ruin_probability(ev, var.sqrt(), k * b, None),
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
    spec: &super::super::count::CountSpec,
    m: &crate::stats::Ratio,
    rounds: u64,
    ev_round: f64,
    sd_round: f64,
) -> Hourly {
    let r = spec
        .labels
        .rounds_per_hour
        .unwrap_or(super::super::count::DEFAULT_ROUNDS_PER_HOUR);
    let played = r * m.n as f64 / rounds.max(1) as f64;
    let (ev, sd) = (ev_round * played, sd_round * played.sqrt());
    let n0_hours = crate::risk::n0(ev_round, sd_round) / played;
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
    use super::super::count::TC_CLAMP;
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
    spec: &super::super::count::CountSpec,
    ev_round: f64,
    var_round: f64,
    hourly: &Hourly,
) -> Option<CertaintyEquivalent> {
    spec.bankroll.map(|b| {
        let kelly = spec.labels.kelly.unwrap_or(1.0);
        let bankroll = b.units as f64;
        let per_round = crate::risk::certainty_equivalent(ev_round, var_round, bankroll, kelly);
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
    spec: Option<&super::super::count::CountSpec>,
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
    // Batch means over the chunks' shoes; rounds taken as independent for a shard from before
    // the per-round sums were kept.
    let per_round = &acc.count.per_round;
    let ev_round_se = if per_round.batches >= 2 {
        per_round.se() / u
    } else {
        sd_round / n.sqrt()
    };
    let ses = crate::risk::edge_ses(ev_round, sd_round, ev_round_se);
    let adv = est(m, u);
    let observed: u64 = acc.count.by_tc.iter().map(|t| t.observed).sum();
    let (avg_bet, avg_bet_se) = bet_spread(&acc.count.by_tc);
    let var_round = sd_round * sd_round;
    let hourly = hourly(spec, m, acc.counts.rounds, ev_round, sd_round);
    let observed_figures = per_round_observed(
        m,
        &acc.count.per_round_observed,
        acc.counts.rounds,
        u,
        hourly.rounds_per_hour,
    );
    let by_true_count = tc_rows(acc, u, observed);
    Some(CountingModel {
        count: spec.describe(),
        count_key: spec.key_name(),
        ramp_jump: super::super::ramp::ramp_jump(&spec.ramp),
        cover: spec.cover.clone(),
        ev_per_round: ev_round,
        ev_per_round_se: ev_round_se,
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
        score: crate::risk::score(ev_round, sd_round),
        score_se: ses.score,
        n0: crate::risk::n0(ev_round, sd_round),
        n0_se: ses.n0,
        di: 1000.0 * ev_round / sd_round,
        di_se: ses.di,
        per_round_observed: observed_figures,
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
            per_shoe_factor(acc),
        ),
        by_true_count,
        metrics: None,
    })
}

/// The average initial bet of a seat-round played and its SE: the bets of one count are its
/// average bet (the ramp's), seat-rounds are taken as independent.
fn bet_spread(by_tc: &[super::super::sim::TcSums]) -> (f64, f64) {
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
pub(super) fn tc_estimate(t: &super::super::sim::TcSums, u: f64) -> Estimate {
    tc_figures(t, u).0
}

/// A count's EV per round with its SE, and the variance of a round's result (per unit bet).
fn tc_figures(t: &super::super::sim::TcSums, u: f64) -> (Estimate, f64) {
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
pub(super) fn count_label(tc: i32, gap: &str) -> String {
    let edge = super::super::count::TC_CLAMP;
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
fn exposure(
    rows: &[TcRow],
    perfect: Option<(u64, u64, u64)>,
    per_shoe: Option<f64>,
) -> Vec<Exposure> {
    type Pick = fn(&TcRow) -> Option<CountEv>;
    // Each wager, how its EV by count is read, and whether its figures are over every
    // seat-round seen (so what it wins per shoe is stated).
    let wagers: [(&'static str, Pick, bool); 4] = [
        (
            "bet behind, following doubles and splits",
            |r| (r.played > 0).then_some((r.ev, r.se, r.played)),
            true,
        ),
        (
            "bet behind, declining doubles and splits",
            |r| (r.observed > 0).then_some((r.behind_ev, f64::NAN, r.observed)),
            true,
        ),
        (
            "pairs (11:1, same rank)",
            |r| Some((r.pairs_ev, r.pairs_se, r.observed)),
            true,
        ),
        (
            "insurance (2:1)",
            |r| Some((r.insurance_ev?, r.insurance_se?, r.observed)),
            false,
        ),
    ];
    let mut out: Vec<Exposure> = wagers
        .iter()
        .map(|&(wager, pick, shoe)| {
            let figures = rows.iter().map(|r| (r.tc, r.share, pick(r)));
            paying_counts(wager.to_string(), figures, per_shoe.filter(|_| shoe))
        })
        .collect();
    if let Some((paying, won, seen)) = perfect {
        let p = won as f64 / paying.max(1) as f64;
        out.push(Exposure {
            wager: "pairs, to a player who knows every rank left".to_string(),
            positive_counts: Vec::new(),
            share: paying as f64 / seen.max(1) as f64,
            ev: (paying > 0).then_some(12.0 * p - 1.0),
            se: (paying > 0).then(|| 12.0 * (p * (1.0 - p) / paying as f64).sqrt()),
            per_shoe: None,
            per_shoe_se: None,
        });
    }
    out
}

/// The risk of ruin of `b` for a game of `ev` and `sd` per round, and its simulated trips.
fn ruin_model(
    b: super::super::count::Bankroll,
    ev: f64,
    sd: f64,
    sums: &super::super::sim::RuinAcc,
) -> Ror {
    use crate::risk::ruin_probability;
    let bank = b.units as f64;
    let bins = super::super::count::RUIN_BINS as u64;
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
