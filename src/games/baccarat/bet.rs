//! The bets and the bettors: who bets what, how much, coup after coup.

use serde::{Deserialize, Serialize};

use super::coup::{Coup, Winner};
use super::rules::{BacRules, SCALE};

/// A betting spot of the layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Spot {
    Banker,
    Player,
    Tie,
    PlayerPair,
    BankerPair,
}

impl Spot {
    pub const ALL: [Spot; 5] = [
        Spot::Banker,
        Spot::Player,
        Spot::Tie,
        Spot::PlayerPair,
        Spot::BankerPair,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Spot::Banker => "banker",
            Spot::Player => "player",
            Spot::Tie => "tie",
            Spot::PlayerPair => "player pair",
            Spot::BankerPair => "banker pair",
        }
    }

    /// The most a stake of one unit on the spot returns (the stake and its win) under `rules`.
    pub fn max_return(self, rules: &BacRules) -> f64 {
        let win = match self {
            Spot::Banker => (0..=9).map(|t| rules.banker_win(t)).max().unwrap_or(SCALE),
            Spot::Player => SCALE,
            Spot::Tie => rules.tie_pays as i64 * SCALE,
            Spot::PlayerPair | Spot::BankerPair => rules.pair_pays as i64 * SCALE,
        };
        1.0 + win as f64 / SCALE as f64
    }

    /// The main spot named `s` (banker, player, tie).
    fn main(s: &str) -> Option<Spot> {
        match s {
            "banker" | "b" => Some(Spot::Banker),
            "player" | "p" => Some(Spot::Player),
            "tie" | "t" => Some(Spot::Tie),
            _ => None,
        }
    }
}

/// What a stake of `units` on `spot` wins (loses, negative) on `coup`, in thousandths of a
/// unit.
#[inline(always)]
pub fn settle(spot: Spot, units: i64, coup: &Coup, rules: &BacRules) -> i64 {
    let lose = -units * SCALE;
    match spot {
        Spot::Banker => match coup.winner() {
            Winner::Banker => units * rules.banker_win(coup.banker),
            Winner::Player => lose,
            Winner::Tie => 0,
        },
        Spot::Player => match coup.winner() {
            Winner::Player => units * SCALE,
            Winner::Banker => lose,
            Winner::Tie => 0,
        },
        Spot::Tie => match coup.winner() {
            Winner::Tie => units * rules.tie_pays as i64 * SCALE,
            _ => lose,
        },
        Spot::PlayerPair | Spot::BankerPair => {
            let pair = if spot == Spot::PlayerPair {
                coup.player_pair
            } else {
                coup.banker_pair
            };
            if pair {
                units * rules.pair_pays as i64 * SCALE
            } else {
                lose
            }
        }
    }
}

/// A betting strategy, as the command line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum BetSpec {
    /// The same stake on the same spot every coup.
    Flat(Spot),
    /// Bet on the last coup's winner (banker or player; a tie changes nothing), banker at
    /// the start of every session.
    Follow,
    /// Martingale on a spot: double the stake after a loss; back to one base stake after a
    /// win, or when the doubled stake would exceed the table maximum (the limit is hit).
    Martingale(Spot),
}

impl BetSpec {
    pub fn parse(s: &str) -> Result<BetSpec, String> {
        let t = s.trim().to_ascii_lowercase();
        if t == "follow" {
            return Ok(BetSpec::Follow);
        }
        if let Some(sp) = Spot::main(&t) {
            return Ok(BetSpec::Flat(sp));
        }
        if let Some(rest) = t.strip_prefix("martingale:") {
            if let Some(sp) = Spot::main(rest) {
                return Ok(BetSpec::Martingale(sp));
            }
        }
        Err(format!(
            "unknown bet strategy '{s}': expected banker, player, tie, follow, or martingale:banker, martingale:player, martingale:tie"
        ))
    }

    /// The most a coup returns per amount wagered under `rules`, with `pairs` units on each
    /// pair bet: the largest return per unit staked of the spots bet (follow bets banker or
    /// player). Reports state it and `monitor` refuses a period that returned more.
    pub fn max_return_per_wagered(&self, rules: &BacRules, pairs: u64) -> f64 {
        let mains = self
            .spot()
            .map_or(vec![Spot::Banker, Spot::Player], |s| vec![s]);
        let side = if pairs > 0 {
            vec![Spot::PlayerPair, Spot::BankerPair]
        } else {
            vec![]
        };
        mains
            .into_iter()
            .chain(side)
            .map(|s| s.max_return(rules))
            .fold(0.0, f64::max)
    }

    /// The single spot the strategy bets on (`None` for follow).
    pub fn spot(&self) -> Option<Spot> {
        match *self {
            BetSpec::Flat(s) | BetSpec::Martingale(s) => Some(s),
            BetSpec::Follow => None,
        }
    }
}

impl std::fmt::Display for BetSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BetSpec::Flat(s) => write!(f, "{}", s.name()),
            BetSpec::Follow => write!(f, "follow"),
            BetSpec::Martingale(s) => write!(f, "martingale:{}", s.name()),
        }
    }
}

impl From<BetSpec> for String {
    fn from(b: BetSpec) -> String {
        b.to_string()
    }
}

impl TryFrom<String> for BetSpec {
    type Error = String;
    fn try_from(s: String) -> Result<BetSpec, String> {
        BetSpec::parse(&s)
    }
}

/// A bettor: the main bet of each coup, and what it learns from the result.
pub trait Bettor: Clone + Send + Sync + 'static {
    /// A session (a shoe) starts.
    fn new_session(&mut self);
    /// This coup's main bet: spot and stake in units.
    fn bet(&self) -> (Spot, i64);
    /// The coup's result and what the bet won; returns whether a progression hit the table
    /// limit.
    fn settle(&mut self, coup: &Coup, net: i64) -> bool;
}

/// The same stake on one spot.
#[derive(Clone, Debug)]
pub struct Flat {
    pub spot: Spot,
    pub unit: i64,
}

impl Bettor for Flat {
    #[inline(always)]
    fn new_session(&mut self) {}
    #[inline(always)]
    fn bet(&self) -> (Spot, i64) {
        (self.spot, self.unit)
    }
    #[inline(always)]
    fn settle(&mut self, _: &Coup, _: i64) -> bool {
        false
    }
}

/// Bet on the last winner, banker first.
#[derive(Clone, Debug)]
pub struct Follow {
    pub unit: i64,
    pub next: Spot,
}

impl Bettor for Follow {
    #[inline(always)]
    fn new_session(&mut self) {
        self.next = Spot::Banker;
    }
    #[inline(always)]
    fn bet(&self) -> (Spot, i64) {
        (self.next, self.unit)
    }
    #[inline(always)]
    fn settle(&mut self, coup: &Coup, _: i64) -> bool {
        match coup.winner() {
            Winner::Banker => self.next = Spot::Banker,
            Winner::Player => self.next = Spot::Player,
            Winner::Tie => {}
        }
        false
    }
}

/// The martingale progression on one spot.
#[derive(Clone, Debug)]
pub struct Martingale {
    pub spot: Spot,
    pub unit: i64,
    pub max: i64,
    pub stake: i64,
}

impl Bettor for Martingale {
    #[inline(always)]
    fn new_session(&mut self) {
        self.stake = self.unit;
    }
    #[inline(always)]
    fn bet(&self) -> (Spot, i64) {
        (self.spot, self.stake)
    }
    #[inline(always)]
    fn settle(&mut self, _: &Coup, net: i64) -> bool {
        if net > 0 {
            self.stake = self.unit;
        } else if net < 0 {
            if self.stake * 2 > self.max {
                self.stake = self.unit;
                return true;
            }
            self.stake *= 2;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coup(player: u8, banker: u8) -> Coup {
        Coup {
            player,
            banker,
            player_pair: false,
            banker_pair: true,
            natural: false,
            player_drew: false,
            banker_drew: false,
        }
    }

    #[test]
    fn specs_parse_and_print() {
        for s in [
            "banker",
            "player",
            "tie",
            "follow",
            "martingale:banker",
            "martingale:player",
            "martingale:tie",
        ] {
            assert_eq!(BetSpec::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(
            BetSpec::parse(" Banker ").unwrap(),
            BetSpec::Flat(Spot::Banker)
        );
        for bad in [
            "",
            "bank",
            "martingale",
            "martingale:follow",
            "martingale:pair",
        ] {
            let e = BetSpec::parse(bad).unwrap_err();
            assert!(e.contains("unknown bet strategy"), "{e}");
        }
        let j = serde_json::to_string(&BetSpec::Martingale(Spot::Tie)).unwrap();
        assert_eq!(j, "\"martingale:tie\"");
        assert!(serde_json::from_str::<BetSpec>("\"nope\"").is_err());
    }

    #[test]
    fn settlement_of_every_spot() {
        let r = BacRules::standard();
        let bw = coup(3, 6);
        let pw = coup(7, 2);
        let tie = coup(5, 5);
        assert_eq!(settle(Spot::Banker, 2, &bw, &r), 1900);
        assert_eq!(settle(Spot::Banker, 2, &pw, &r), -2000);
        assert_eq!(settle(Spot::Banker, 2, &tie, &r), 0);
        assert_eq!(settle(Spot::Player, 1, &pw, &r), 1000);
        assert_eq!(settle(Spot::Player, 1, &bw, &r), -1000);
        assert_eq!(settle(Spot::Player, 1, &tie, &r), 0);
        assert_eq!(settle(Spot::Tie, 1, &tie, &r), 8000);
        assert_eq!(settle(Spot::Tie, 1, &bw, &r), -1000);
        assert_eq!(settle(Spot::BankerPair, 3, &bw, &r), 33_000);
        assert_eq!(settle(Spot::PlayerPair, 3, &bw, &r), -3000);
        let nc = BacRules {
            banker_pays: super::super::rules::BankerPays::NoCommission,
            tie_pays: 9,
            ..r
        };
        assert_eq!(settle(Spot::Banker, 2, &bw, &nc), 1000);
        assert_eq!(settle(Spot::Banker, 2, &coup(3, 7), &nc), 2000);
        assert_eq!(settle(Spot::Tie, 1, &tie, &nc), 9000);
    }

    #[test]
    fn martingale_doubles_and_resets() {
        let mut m = Martingale {
            spot: Spot::Banker,
            unit: 1,
            max: 8,
            stake: 1,
        };
        let c = coup(0, 0);
        let mut stakes = vec![];
        let mut hits = 0;
        // Lose five times: 1, 2, 4, 8, then 16 > 8 hits the limit: back to 1.
        for net in [-1, -1, -1, -1, -1, 0, 1] {
            stakes.push(m.bet().1);
            hits += m.settle(&c, net) as u32;
        }
        assert_eq!(stakes, [1, 2, 4, 8, 1, 2, 2]);
        assert_eq!(hits, 1);
        assert_eq!(m.bet().1, 1, "a win goes back to one unit");
        m.stake = 4;
        m.new_session();
        assert_eq!(m.bet().1, 1);
    }

    #[test]
    fn follow_bets_the_last_winner() {
        let mut f = Follow {
            unit: 1,
            next: Spot::Player,
        };
        f.new_session();
        assert_eq!(f.bet().0, Spot::Banker);
        f.settle(&coup(7, 2), 0);
        assert_eq!(f.bet().0, Spot::Player);
        f.settle(&coup(5, 5), 0);
        assert_eq!(f.bet().0, Spot::Player, "a tie changes nothing");
        f.settle(&coup(1, 2), 0);
        assert_eq!(f.bet().0, Spot::Banker);
    }

    #[test]
    fn the_most_a_coup_returns_comes_from_the_payouts_of_the_spots_bet() {
        let r = BacRules::standard();
        let bet = |s: &str| BetSpec::parse(s).unwrap();
        // Banker 1:1 less 5%, player 1:1, tie 8:1, pairs 11:1.
        assert_eq!(bet("banker").max_return_per_wagered(&r, 0), 1.95);
        assert_eq!(bet("martingale:player").max_return_per_wagered(&r, 0), 2.0);
        assert_eq!(bet("follow").max_return_per_wagered(&r, 0), 2.0);
        assert_eq!(bet("tie").max_return_per_wagered(&r, 0), 9.0);
        assert_eq!(bet("banker").max_return_per_wagered(&r, 1), 12.0);
        let nine = BacRules {
            tie_pays: 9,
            banker_pays: super::super::rules::BankerPays::NoCommission,
            ..r
        };
        assert_eq!(bet("tie").max_return_per_wagered(&nine, 0), 10.0);
        assert_eq!(bet("banker").max_return_per_wagered(&nine, 0), 2.0);
    }
}
