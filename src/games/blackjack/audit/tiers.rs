//! Each strategy tier's exact figures, and every wager's: the main bet, the bet behind both
//! ways, the pairs side bet and insurance.

use super::super::distribution::{round_distribution, RoundDistribution, Shape};
use super::super::exact::{DealerTable, Decider, Follow, Optimal};
use super::super::rules::Rules;
use super::super::strategy::{AutoPlay, Chart, StrategySpec};
use super::{netp, Approximation, Specs, Tier, TierName, Volatility, Wager};
use crate::audit::{Z90, Z95, Z99};
use crate::progress::Progress;

/// A tier's exact figures, and the distribution of the bet behind that declines under it.
fn tier_exact<P: Decider>(
    rules: &Rules,
    name: TierName,
    p: &P,
    spec: &StrategySpec,
) -> (Tier, Vec<(f64, f64)>) {
    let d: RoundDistribution = round_distribution(rules, p, DealerTable::of(rules));
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

/// Each tier's exact analysis, and every wager's exact figures: per tier the main bet and
/// the bet behind both ways, then the pairs side bet and insurance.
pub(super) fn exact_tiers(
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
