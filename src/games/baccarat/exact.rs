//! The exact analysis: every coup dealt from a full shoe, by complete enumeration of the
//! cards' values in dealing order, each sequence weighted by the number of ways the shoe
//! deals it (multiplicities without replacement). The counts are exact integers; every
//! probability is a ratio of two of them.

use serde::Serialize;

use super::bet::Spot;
use super::coup::{banker_draws, player_draws};
use super::rules::{BacRules, SCALE};

/// Exact counts of coups from a full shoe, out of `total` = N·(N−1)·…·(N−5) ordered
/// six-card deals (a coup of k cards counts every way of dealing the 6 − k cards it leaves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub decks: u32,
    pub total: u128,
    pub banker: u128,
    /// Banker wins with a total of 6 (paid 1:2 in the no-commission game).
    pub banker_six: u128,
    pub player: u128,
    pub tie: u128,
    /// Either hand has 8 or 9 on its first two cards.
    pub natural: u128,
    pub player_draws: u128,
    pub banker_draws: u128,
    /// Coups of 4, 5 and 6 cards.
    pub cards: [u128; 3],
    /// A hand's first two cards are of the same rank: `pair` out of `pair_of` ordered pairs
    /// of cards (the same for the player's and the banker's hand).
    pub pair: u128,
    pub pair_of: u128,
}

/// Ways to deal the 6 − k cards a coup of k cards leaves in a shoe of `n`: (N−k)·…·(N−5).
fn ways(n: u128, k: u128) -> u128 {
    (k..6).map(|i| n - i).product::<u128>()
}

impl Counts {
    /// A coup of `k` cards dealt `w` ways, ending player `p`, banker `b` (of a shoe of `n`).
    fn record(&mut self, p: u8, b: u8, w: u128, k: usize, n: u128) {
        let w = w * ways(n, k as u128);
        match b.cmp(&p) {
            std::cmp::Ordering::Greater => {
                self.banker += w;
                if b == 6 {
                    self.banker_six += w;
                }
            }
            std::cmp::Ordering::Less => self.player += w,
            std::cmp::Ordering::Equal => self.tie += w,
        }
        self.cards[k - 4] += w;
    }

    /// A coup from its first four cards (player total `p`, banker `b`, dealt `w4` ways): a
    /// natural stands, else the third cards are drawn from `c` (the shoe less the four).
    #[allow(clippy::needless_range_loop)] // the counts are indexed by card value and changed in the loop
    fn after_four(&mut self, c: &mut [u128; 10], p: u8, b: u8, w4: u128, n: u128) {
        if p >= 8 || b >= 8 {
            self.natural += w4 * ways(n, 4);
            self.record(p, b, w4, 4, n);
        } else if player_draws(p) {
            self.player_draws += w4 * ways(n, 4);
            for x in 0..10 {
                let w5 = w4 * c[x];
                if w5 == 0 {
                    continue;
                }
                c[x] -= 1;
                let p3 = (p + x as u8) % 10;
                if banker_draws(b, Some(x as u8)) {
                    self.banker_draws += w5 * ways(n, 5);
                    for y in 0..10 {
                        let w6 = w5 * c[y];
                        if w6 > 0 {
                            self.record(p3, (b + y as u8) % 10, w6, 6, n);
                        }
                    }
                } else {
                    self.record(p3, b, w5, 5, n);
                }
                c[x] += 1;
            }
        } else if banker_draws(b, None) {
            self.banker_draws += w4 * ways(n, 4);
            for y in 0..10 {
                let w5 = w4 * c[y];
                if w5 > 0 {
                    self.record(p, (b + y as u8) % 10, w5, 5, n);
                }
            }
        } else {
            self.record(p, b, w4, 4, n);
        }
    }
}

/// Count every coup of a full shoe of `decks` decks.
pub fn enumerate(decks: u32) -> Counts {
    // Cards of each value: ten and faces are value 0.
    let mut c = [4 * decks as u128; 10];
    c[0] = 16 * decks as u128;
    let mut out = enumerate_values(c);
    let n = decks as u128 * 52;
    out.decks = decks;
    out.pair_of = n * (n - 1);
    // Pairs by rank: 13 ranks of 4·decks cards each.
    let r = 4 * decks as u128;
    out.pair = 13 * r * (r - 1);
    out
}

/// Count every coup of a shoe of `c[v]` cards of each value `v` (0: tens and faces; six cards
/// at least). Pairs, which depend on ranks, are left out (0 of 0), and so is `decks`.
#[allow(clippy::needless_range_loop)] // the counts are indexed by card value and changed in the loops
pub fn enumerate_values(mut c: [u128; 10]) -> Counts {
    let n: u128 = c.iter().sum();
    assert!(n >= 6, "a coup may take six cards");
    let mut out = Counts {
        decks: 0,
        total: ways(n, 0),
        banker: 0,
        banker_six: 0,
        player: 0,
        tie: 0,
        natural: 0,
        player_draws: 0,
        banker_draws: 0,
        cards: [0; 3],
        pair: 0,
        pair_of: 0,
    };
    for p1 in 0..10 {
        let w1 = c[p1];
        if w1 == 0 {
            continue;
        }
        c[p1] -= 1;
        for b1 in 0..10 {
            let w2 = w1 * c[b1];
            if w2 == 0 {
                continue;
            }
            c[b1] -= 1;
            for p2 in 0..10 {
                let w3 = w2 * c[p2];
                if w3 == 0 {
                    continue;
                }
                c[p2] -= 1;
                for b2 in 0..10 {
                    let w4 = w3 * c[b2];
                    if w4 == 0 {
                        continue;
                    }
                    c[b2] -= 1;
                    let p = ((p1 + p2) % 10) as u8;
                    let b = ((b1 + b2) % 10) as u8;
                    out.after_four(&mut c, p, b, w4, n);
                    c[b2] += 1;
                }
                c[p2] += 1;
            }
            c[b1] += 1;
        }
        c[p1] += 1;
    }
    out
}

/// Exact probabilities and the RTP of every bet under a rule set.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Exact {
    pub banker: f64,
    pub banker_six: f64,
    pub player: f64,
    pub tie: f64,
    pub natural: f64,
    pub pair: f64,
    pub player_draws: f64,
    pub banker_draws: f64,
    /// Average cards per coup.
    pub cards_per_coup: f64,
    pub counts: Counts,
}

impl Exact {
    pub fn of(decks: u32) -> Exact {
        let k = enumerate(decks);
        let f = |x: u128| x as f64 / k.total as f64;
        Exact {
            banker: f(k.banker),
            banker_six: f(k.banker_six),
            player: f(k.player),
            tie: f(k.tie),
            natural: f(k.natural),
            pair: k.pair as f64 / k.pair_of as f64,
            player_draws: f(k.player_draws),
            banker_draws: f(k.banker_draws),
            cards_per_coup: (4 * k.cards[0] + 5 * k.cards[1] + 6 * k.cards[2]) as f64
                / k.total as f64,
            counts: k,
        }
    }

    /// EV per unit staked on `spot` under `rules` (RTP = 1 + EV).
    pub fn ev(&self, spot: Spot, rules: &BacRules) -> f64 {
        let s = SCALE as f64;
        match spot {
            Spot::Banker => {
                (self.banker - self.banker_six) * rules.banker_win(7) as f64 / s
                    + self.banker_six * rules.banker_win(6) as f64 / s
                    - self.player
            }
            Spot::Player => self.player - self.banker,
            Spot::Tie => self.tie * rules.tie_pays as f64 - (1.0 - self.tie),
            Spot::PlayerPair | Spot::BankerPair => {
                self.pair * rules.pair_pays as f64 - (1.0 - self.pair)
            }
        }
    }

    pub fn rtp(&self, spot: Spot, rules: &BacRules) -> f64 {
        1.0 + self.ev(spot, rules)
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::BankerPays;
    use super::*;

    fn rules(decks: u32) -> BacRules {
        BacRules {
            decks,
            ..BacRules::standard()
        }
    }

    /// Round to `d` decimals of a percent.
    fn pct(v: f64, d: i32) -> f64 {
        let m = 10f64.powi(d);
        (v * 100.0 * m).round() / m
    }

    #[test]
    fn the_counts_add_up() {
        for d in [1, 6, 8] {
            let k = enumerate(d);
            assert_eq!(k.banker + k.player + k.tie, k.total, "{d} decks");
            assert_eq!(k.cards.iter().sum::<u128>(), k.total);
            let n = d as u128 * 52;
            assert_eq!(k.total, n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5));
        }
    }

    #[test]
    fn eight_decks_reproduce_the_published_figures() {
        let r = rules(8);
        let e = Exact::of(8);
        assert_eq!(format!("{:.6}", e.banker), "0.458597");
        assert_eq!(format!("{:.6}", e.player), "0.446247");
        assert_eq!(format!("{:.6}", e.tie), "0.095156");
        assert_eq!(pct(e.rtp(Spot::Banker, &r), 4), 98.9421);
        assert_eq!(pct(-e.ev(Spot::Banker, &r), 4), 1.0579);
        assert_eq!(pct(e.rtp(Spot::Player, &r), 4), 98.7649);
        assert_eq!(pct(-e.ev(Spot::Player, &r), 4), 1.2351);
        assert_eq!(pct(e.rtp(Spot::Tie, &r), 4), 85.6404);
        assert_eq!(pct(-e.ev(Spot::Tie, &r), 4), 14.3596);
        assert_eq!(pct(e.rtp(Spot::PlayerPair, &r), 4), 89.6386);
        assert_eq!(pct(e.rtp(Spot::BankerPair, &r), 4), 89.6386);
        // Pairs: (4d − 1)/(52d − 1) = 31/415 exactly.
        assert_eq!(e.counts.pair * 415, e.counts.pair_of * 31);
        // Tie at 9:1.
        let nine = BacRules {
            tie_pays: 9,
            ..r.clone()
        };
        assert_eq!(pct(-e.ev(Spot::Tie, &nine), 4), 4.8440);
        // No commission, a banker win on 6 paying 1:2.
        let nc = BacRules {
            banker_pays: BankerPays::NoCommission,
            ..r
        };
        // 1.4581%, not the 1.4585% sometimes quoted: P(banker wins) − P(player wins) −
        // P(banker wins on 6)/2 = 0.458597 − 0.446247 − 0.053864/2.
        assert_eq!(format!("{:.6}", e.banker_six), "0.053864");
        assert_eq!(pct(-e.ev(Spot::Banker, &nc), 4), 1.4581);
        assert_eq!(format!("{:.4}", e.cards_per_coup), "4.9388");
    }

    #[test]
    fn six_decks() {
        let r = rules(6);
        let e = Exact::of(6);
        assert_eq!(pct(-e.ev(Spot::Banker, &r), 4), 1.0558);
        assert_eq!(pct(-e.ev(Spot::Player, &r), 4), 1.2374);
        assert_eq!(pct(-e.ev(Spot::Tie, &r), 4), 14.4382);
        assert_eq!(pct(-e.ev(Spot::PlayerPair, &r), 4), 11.2540);
        let nc = BacRules {
            banker_pays: BankerPays::NoCommission,
            ..r
        };
        assert_eq!(pct(-e.ev(Spot::Banker, &nc), 4), 1.4548);
    }

    #[test]
    fn one_deck() {
        let r = rules(1);
        let e = Exact::of(1);
        assert_eq!(pct(-e.ev(Spot::Banker, &r), 4), 1.0117);
        assert_eq!(pct(-e.ev(Spot::Player, &r), 4), 1.2864);
        assert_eq!(pct(-e.ev(Spot::Tie, &r), 4), 15.7461);
    }
}
