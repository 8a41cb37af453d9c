//! A coup as the rules deal and pay it, from its hands as dealt: the reference the
//! simulator's logs are written with and every log is verified against. Written from the
//! rules of punto banco (docs/rules.md §4), not from the simulator's `coup.rs`.
//!
//! Two cards each, player first. A hand of 8 or 9 on its two cards is a natural: neither hand
//! draws. Otherwise the player draws a third card on 0 to 5 and stands on 6 or 7; then the
//! banker, after a player who stood, draws on 0 to 5 and stands on 6 or 7, and after a player
//! who drew, follows the tableau ([`TABLEAU`]) by its total and the player's third card.
//! Totals count modulo 10. The higher total wins; equal totals tie.

use super::{Bets, Rounding};
use crate::cards::Rank;
use crate::games::baccarat::bet::Spot;
use crate::games::baccarat::rules::{BacRules, BankerPays};

/// The points of a rank (0 ace … 12 king): ace 1, two to nine as marked, ten and faces 0.
pub fn points(rank: Rank) -> u8 {
    match rank {
        0..=8 => rank + 1,
        _ => 0,
    }
}

/// The cards burned after a shuffle when the first card is `first`: that card and as many
/// more as its value (ace 1, two to nine as marked, ten and faces 10).
pub fn burn_len(first: Rank) -> usize {
    1 + match points(first) {
        0 => 10,
        v => v as usize,
    }
}

/// The banker's third-card rule after a player who drew, as a layout prints it: a row for each
/// banker total 0 to 7, a column for each value of the player's third card 0 to 9; `D` draws,
/// `S` stands.
pub const TABLEAU: [&[u8; 10]; 8] = [
    b"DDDDDDDDDD", // 0
    b"DDDDDDDDDD", // 1
    b"DDDDDDDDDD", // 2
    b"DDDDDDDDSD", // 3: stands on an 8
    b"SSDDDDDDSS", // 4: draws on 2 to 7
    b"SSSSDDDDSS", // 5: draws on 4 to 7
    b"SSSSSSDDSS", // 6: draws on 6 and 7
    b"SSSSSSSSSS", // 7
];

/// Whether the banker with `total` on two cards draws, the player having drawn `third`
/// (`None`: the player stood). No natural on the table.
pub fn banker_draws(total: u8, third: Option<u8>) -> bool {
    match third {
        None => total <= 5,
        Some(x) => TABLEAU
            .get(total as usize)
            .is_some_and(|row| row[x as usize % 10] == b'D'),
    }
}

/// Which hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hand {
    Player,
    Banker,
}

impl Hand {
    pub fn name(self) -> &'static str {
        match self {
            Hand::Player => "player",
            Hand::Banker => "banker",
        }
    }
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    Banker,
    Player,
    Tie,
}

/// A coup as dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coup {
    /// Final totals.
    pub player: u8,
    pub banker: u8,
    /// Either hand had 8 or 9 on its first two cards.
    pub natural: bool,
    pub player_drew: bool,
    pub banker_drew: bool,
    /// A hand's first two cards are of one rank.
    pub player_pair: bool,
    pub banker_pair: bool,
}

impl Coup {
    pub fn winner(&self) -> Winner {
        if self.banker > self.player {
            Winner::Banker
        } else if self.player > self.banker {
            Winner::Player
        } else {
            Winner::Tie
        }
    }
}

/// A departure of the deal from the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Issue {
    /// A hand of fewer than two or more than three cards: the coup cannot be settled.
    HandSize { hand: Hand, cards: usize },
    /// A third card after a natural (`natural`: the hand that had it, and its total).
    DrewOnNatural {
        hand: Hand,
        natural: Hand,
        total: u8,
    },
    /// A hand drew a third card where the rules stand (`third`: the player's third card's
    /// value, for the banker after a player who drew).
    Drew {
        hand: Hand,
        total: u8,
        third: Option<u8>,
    },
    /// A hand stood where the rules draw.
    Stood {
        hand: Hand,
        total: u8,
        third: Option<u8>,
    },
}

impl std::fmt::Display for Issue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let against = |hand: Hand, third: &Option<u8>| match (hand, third) {
            (Hand::Banker, Some(x)) => format!(" against a player third card of {x}"),
            (Hand::Banker, None) => " after a player who stood".to_string(),
            (Hand::Player, _) => String::new(),
        };
        match self {
            Issue::HandSize { hand, cards } => write!(
                f,
                "the {} hand has {cards} card{}; a hand has 2 or 3",
                hand.name(),
                if *cards == 1 { "" } else { "s" }
            ),
            Issue::DrewOnNatural {
                hand,
                natural,
                total,
            } => write!(
                f,
                "the {} drew a third card after the {}'s natural {total} (no hand draws on a natural)",
                hand.name(),
                natural.name()
            ),
            Issue::Drew { hand, total, third } => write!(
                f,
                "the {} drew a third card on {total}{} (the rules stand)",
                hand.name(),
                against(*hand, third)
            ),
            Issue::Stood { hand, total, third } => write!(
                f,
                "the {} stood on {total}{} (the rules draw)",
                hand.name(),
                against(*hand, third)
            ),
        }
    }
}

/// A coup as the rules see it: the outcome of the hands as dealt, and every departure of
/// the deal from the rules (the outcome is still that of the cards dealt).
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    pub coup: Coup,
    pub issues: Vec<Issue>,
}

/// The coup of hands `player` and `banker` (ranks: first, second, third if drawn): its
/// outcome, and whether each hand drew as the rules say. A hand of other than two or three
/// cards cannot be settled: that issue is the error.
pub fn deal(player: &[Rank], banker: &[Rank]) -> Result<Replayed, Issue> {
    for (hand, cards) in [(Hand::Player, player), (Hand::Banker, banker)] {
        if !(2..=3).contains(&cards.len()) {
            return Err(Issue::HandSize {
                hand,
                cards: cards.len(),
            });
        }
    }
    let total = |cards: &[Rank]| cards.iter().map(|&r| points(r)).sum::<u8>() % 10;
    let (p2, b2) = (total(&player[..2]), total(&banker[..2]));
    let (pd, bd) = (player.len() == 3, banker.len() == 3);
    let mut issues = Vec::new();
    let natural = p2 >= 8 || b2 >= 8;
    if natural {
        let (nat, t) = if p2 >= 8 {
            (Hand::Player, p2)
        } else {
            (Hand::Banker, b2)
        };
        for (hand, drew) in [(Hand::Player, pd), (Hand::Banker, bd)] {
            if drew {
                issues.push(Issue::DrewOnNatural {
                    hand,
                    natural: nat,
                    total: t,
                });
            }
        }
    } else {
        let rule = p2 <= 5;
        if rule != pd {
            issues.push(if pd {
                Issue::Drew {
                    hand: Hand::Player,
                    total: p2,
                    third: None,
                }
            } else {
                Issue::Stood {
                    hand: Hand::Player,
                    total: p2,
                    third: None,
                }
            });
        }
        // The banker's rule after the player's play as it was.
        let third = player.get(2).map(|&r| points(r));
        let rule = banker_draws(b2, third);
        if rule != bd {
            let (hand, total) = (Hand::Banker, b2);
            issues.push(if bd {
                Issue::Drew { hand, total, third }
            } else {
                Issue::Stood { hand, total, third }
            });
        }
    }
    Ok(Replayed {
        coup: Coup {
            player: total(player),
            banker: total(banker),
            natural,
            player_drew: pd,
            banker_drew: bd,
            player_pair: player[0] == player[1],
            banker_pair: banker[0] == banker[1],
        },
        issues,
    })
}

/// `stake` × `num` / `den`, rounded as `rounding` says.
fn part(stake: u64, num: u64, den: u64, rounding: Rounding) -> u64 {
    let x = stake as u128 * num as u128;
    let d = den as u128;
    let q = match rounding {
        Rounding::Down => x / d,
        Rounding::Nearest => (2 * x + d) / (2 * d),
    };
    q.min(u64::MAX as u128) as u64
}

/// What a stake on `spot` returns on `coup` under `rules` (stake included; 0: lost).
pub fn returned(spot: Spot, stake: u64, coup: &Coup, rules: &BacRules, rounding: Rounding) -> u64 {
    let times = |k: u32| stake.saturating_mul(1 + k as u64);
    let w = coup.winner();
    match spot {
        Spot::Banker => match w {
            Winner::Banker => {
                let win = match rules.banker_pays {
                    // 1:1 less the commission, in thousandths of the win.
                    BankerPays::Commission => {
                        part(stake, 1000 - rules.commission as u64, 1000, rounding)
                    }
                    // 1:1, a win on 6 half that.
                    BankerPays::NoCommission if coup.banker == 6 => part(stake, 1, 2, rounding),
                    BankerPays::NoCommission => stake,
                };
                stake.saturating_add(win)
            }
            Winner::Tie => stake,
            Winner::Player => 0,
        },
        Spot::Player => match w {
            Winner::Player => times(1),
            Winner::Tie => stake,
            Winner::Banker => 0,
        },
        Spot::Tie => match w {
            Winner::Tie => times(rules.tie_pays),
            _ => 0,
        },
        Spot::PlayerPair if coup.player_pair => times(rules.pair_pays),
        Spot::BankerPair if coup.banker_pair => times(rules.pair_pays),
        Spot::PlayerPair | Spot::BankerPair => 0,
    }
}

/// What every bet of `stake` returns on `coup` under `rules`.
pub fn pay(rules: &BacRules, rounding: Rounding, coup: &Coup, stake: &Bets) -> Bets {
    let mut out = Bets::default();
    for s in Spot::ALL {
        *out.get_mut(s) = returned(s, stake.get(s), coup, rules, rounding);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ranks from points (0 is a king).
    fn r(points: &[u8]) -> Vec<Rank> {
        points
            .iter()
            .map(|&v| if v == 0 { 12 } else { v - 1 })
            .collect()
    }

    fn dealt(p: &[u8], b: &[u8]) -> Replayed {
        deal(&r(p), &r(b)).unwrap()
    }

    #[test]
    fn the_rules_deal_as_the_tableau_says() {
        // A natural stands: player 8 against banker 0, no third card.
        let c = dealt(&[3, 5], &[0, 0]);
        assert!(c.issues.is_empty() && c.coup.natural);
        assert_eq!(c.coup.winner(), Winner::Player);
        // The player drawing on 6: an issue, named.
        let c = dealt(&[0, 6, 4], &[0, 7]);
        assert_eq!(
            c.issues,
            [Issue::Drew {
                hand: Hand::Player,
                total: 6,
                third: None
            }]
        );
        assert_eq!(
            c.issues[0].to_string(),
            "the player drew a third card on 6 (the rules stand)"
        );
        // The banker on 3 stands on a player third card of 8, and draws on any other.
        let c = dealt(&[0, 1, 8], &[0, 3]);
        assert!(c.issues.is_empty(), "{:?}", c.issues);
        let c = dealt(&[0, 1, 7], &[0, 3]);
        assert_eq!(
            c.issues[0].to_string(),
            "the banker stood on 3 against a player third card of 7 (the rules draw)"
        );
        // After a player who stood the banker draws on 0 to 5.
        let c = dealt(&[0, 7], &[0, 5, 1]);
        assert!(c.issues.is_empty());
        assert_eq!((c.coup.player, c.coup.banker), (7, 6));
        let c = dealt(&[0, 7], &[0, 6, 1]);
        assert_eq!(c.issues.len(), 1);
        // A third card after a natural.
        let c = dealt(&[4, 5, 1], &[1, 1]);
        assert_eq!(
            c.issues[0].to_string(),
            "the player drew a third card after the player's natural 9 (no hand draws on a natural)"
        );
        assert_eq!(
            deal(&r(&[1]), &r(&[1, 2])).unwrap_err().to_string(),
            "the player hand has 1 card; a hand has 2 or 3"
        );
        for (b, row) in TABLEAU.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                assert_eq!(
                    banker_draws(b as u8, Some(x as u8)),
                    c == b'D',
                    "{b} vs {x}"
                );
            }
        }
        assert_eq!(burn_len(0), 2);
        assert_eq!(burn_len(8), 10);
        assert_eq!(burn_len(12), 11);
    }

    #[test]
    fn every_bet_is_paid_as_the_rules_say() {
        let std = BacRules::standard();
        let bw6 = dealt(&[0, 3], &[0, 6]).coup; // banker wins with 6
        let tie = dealt(&[0, 7], &[0, 7]).coup;
        let pw = dealt(&[0, 7], &[0, 6]).coup;
        let stake = Bets {
            banker: 100,
            player: 100,
            tie: 10,
            player_pair: 5,
            banker_pair: 5,
        };
        let p = pay(&std, Rounding::Down, &bw6, &stake);
        assert_eq!((p.banker, p.player, p.tie), (195, 0, 0));
        assert_eq!((p.player_pair, p.banker_pair), (0, 0));
        // Two fives for the player, two kings for the banker: both pairs pay 11:1.
        let pairs = dealt(&[5, 5, 0], &[0, 0, 0]);
        assert!(pairs.issues.is_empty());
        let p = pay(&std, Rounding::Down, &pairs.coup, &stake);
        assert_eq!((p.player_pair, p.banker_pair, p.tie), (60, 60, 90));
        let p = pay(&std, Rounding::Down, &tie, &stake);
        assert_eq!((p.banker, p.player, p.tie), (100, 100, 90));
        let p = pay(&std, Rounding::Down, &pw, &stake);
        assert_eq!((p.banker, p.player), (0, 200));
        // 5% of 10 is half a unit: down, or to the nearest.
        let ten = Bets {
            banker: 10,
            ..Bets::default()
        };
        assert_eq!(pay(&std, Rounding::Down, &bw6, &ten).banker, 19);
        assert_eq!(pay(&std, Rounding::Nearest, &bw6, &ten).banker, 20);
        let nc = BacRules {
            banker_pays: BankerPays::NoCommission,
            tie_pays: 9,
            ..std
        };
        assert_eq!(pay(&nc, Rounding::Down, &bw6, &stake).banker, 150);
        let bw7 = dealt(&[0, 3], &[0, 7]).coup;
        assert_eq!(pay(&nc, Rounding::Down, &bw7, &stake).banker, 200);
        assert_eq!(pay(&nc, Rounding::Down, &tie, &stake).tie, 100);
    }
}
