//! The dossier's words: every rule as the table deals it, the definitions and the
//! assumptions.

use super::super::distribution::TINY;
use super::super::rules::{DealerBjTakes, Rules, Shuffle, Surrender};
use super::Tier;

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
                DealerBjTakes::Splits => "takes the original bet and every split hand's bet, not the doubles (returned); a player blackjack pushes".into(),
            }
        },
    );
    put(
        "blackjack pays",
        match r.bj_pays {
            super::super::rules::BjPays::ThreeToTwo => "3:2".into(),
            super::super::rules::BjPays::SixToFive => "6:5".into(),
            super::super::rules::BjPays::OneToOne => "1:1".into(),
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
                super::super::rules::Double::Any => "any",
                super::super::rules::Double::NineToEleven => "9, 10 or 11 as the",
                super::super::rules::Double::TenToEleven => "10 or 11 as the",
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
            "two cards of equal {}; up to {} hand{}; split aces {}{}; A + ten after a split is 21, not blackjack (pays 1:1)",
            match r.split_by {
                super::super::rules::SplitBy::Value => "value (K-Q is a pair)",
                super::super::rules::SplitBy::Rank => "rank (K-K only)",
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
    if let Some(n) = r.charlie {
        put(
            "Charlie",
            format!("a hand of {n} cards that has not busted stands and wins 1:1, unless the dealer has blackjack"),
        );
    }
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

pub(super) fn definitions() -> Vec<(String, String)> {
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

pub(super) fn assumptions(rules: &Rules, tiers: &[Tier]) -> Vec<String> {
    let mut v = vec![
        format!("Exact values are for the first round of a full, well-shuffled {}-deck shoe (every round from a freshly shuffled shoe). A shoe dealt to a cut card returns slightly less (the cut-card effect: rounds are more often dealt from shoes rich in small cards); `rtplab sim blackjack` measures the game as dealt.", rules.decks),
        format!("Every figure is per seat and round. With {} at the table each seat's round has the same distribution (the cards are exchangeable); the simulation counts seat-rounds. Other seats' cards change the composition a composition-dependent player would see, which optimal play here does not use.", crate::report::plural(rules.players as u64, "seat")),
        "Optimal play is composition dependent on the player's own cards and the up card, and post-split play decides as the same cards would before the split (CDZ-), the convention of published combinatorial analyzers. It is not a chart a person can follow, so it is not simulated; basic and auto-play are.".into(),
        if rules.peek {
            "Payouts are settled per the rules as dealt above; the dealer peeks, so a dealer blackjack ends the round before anyone acts.".into()
        } else {
            "Payouts are settled per the rules as dealt above, including the no-hole-card settlement of a dealer blackjack.".into()
        },
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
    if rules.split_by == super::super::rules::SplitBy::Rank {
        v.push("Split by rank is analysed as split by value (cards are tracked by value).".into());
    }
    if !rules.peek && rules.dealer_bj_takes == DealerBjTakes::Original {
        v.push("Original-bets-only settlement: in rounds where the dealer has blackjack the amount wagered is counted as the initial bet (extra wagers are returned).".into());
    }
    v
}
