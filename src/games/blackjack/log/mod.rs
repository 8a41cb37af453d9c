//! The blackjack round log: its records ([`Header`], [`ShoeRecord`], [`RoundRecord`],
//! [`EndRecord`]; the schema in docs/round-log.md) and the rules' own account of a logged
//! round ([`replay`]): who got which card, what each hand did, what each wager pays.
//!
//! [`replay`] is written from the rules, not from the simulator's round (`round.rs`): the
//! simulator writes its logs through it and `verify` checks logs with it, so a clean log
//! written by the simulator and verified is the two implementations agreeing round by round.

pub mod replay;
pub mod rounds;
pub mod write;

use serde::{Deserialize, Serialize};

use super::rules::Rules;
use crate::logfile::Card;

/// The log format's name and version, on the header line.
pub const FORMAT: &str = "rtplab-round-log";
pub const VERSION: u32 = 1;

/// How a bet behind settles when its seat doubles or splits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Behind {
    /// The bettor declines: the bet stays on the first hand, settled as undoubled.
    #[default]
    Decline,
    /// The bettor matches every double and split: the seat's result.
    Match,
}

pub use crate::logfile::Rounding;

/// The first line of a log: what table it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    #[serde(rename = "type")]
    pub kind: String,
    /// [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// `blackjack`.
    pub game: String,
    /// The table's rules as rtplab names them (`Rules`' fields; a field left out is the seed
    /// table's).
    pub rules: serde_json::Map<String, serde_json::Value>,
    /// How a bet behind follows a double or a split.
    #[serde(default)]
    pub behind: Behind,
    /// Cards burned after each shuffle.
    #[serde(default)]
    pub burn: u32,
    /// How far (in cards) the cut card may stand from where the rules put it (a dealer places
    /// it by hand).
    #[serde(default)]
    pub cut_tolerance: u32,
    #[serde(default)]
    pub rounding: Rounding,
    /// The RTP the table claims for the main bet, as a fraction (absent: the rules' advertised
    /// RTP, if they have one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<f64>,
    /// The currency of the amounts, for reports (the amounts are whole units of it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// Who wrote the log (a table's system, or the rtplab run that simulated it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

impl Header {
    /// The rules the header states: the seed table's, with the fields it gives.
    pub fn table_rules(&self) -> Result<Rules, (String, String)> {
        let rules = crate::logfile::rules_over(&Rules::seed(), &["shuffler"], &self.rules)?;
        rules
            .validate()
            .map_err(|e| ("rules".to_string(), e.to_string()))?;
        Ok(rules)
    }

    /// The rules as a header states them: every field.
    pub fn rules_map(rules: &Rules) -> serde_json::Map<String, serde_json::Value> {
        crate::logfile::rules_map(rules)
    }
}

/// A new shoe: shuffled, cut, burned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShoeRecord {
    #[serde(rename = "type")]
    pub kind: String,
    /// The shoe's number (rising).
    pub shoe: u64,
    /// Cards dealt before the cut card comes out (the rules: penetration × cards; every
    /// card for a shoe shuffled every round).
    pub cut: u32,
    /// The cards burned after the shuffle, in order.
    #[serde(default)]
    pub burn: Vec<Card>,
}

/// Amounts on each wager of a seat (stakes, or what each returned, stake included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wagers {
    /// The main bet: its initial stake (doubles and splits add to it as the play says), or
    /// what all its hands returned.
    pub main: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pairs: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub insurance: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub behind: u64,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

fn is_false(x: &bool) -> bool {
    !*x
}

/// One seat in a round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRecord {
    /// The seat's number (1 is dealt first).
    pub seat: u8,
    pub stake: Wagers,
    /// Each hand's actions in order: `H` hit, `S` stand, `D` double, `P` split, `R`
    /// surrender; the first hand first, a split hand after the hand it came from. A hand that
    /// took no decision (a natural, split aces, after a dealer blackjack) is empty.
    pub play: Vec<String>,
    /// The table played the seat (auto-play: no action or a disconnect).
    #[serde(default, skip_serializing_if = "is_false")]
    pub auto: bool,
    /// What each wager returned, stake included (0: lost).
    pub paid: Wagers,
}

/// One round (or a voided one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundRecord {
    #[serde(rename = "type")]
    pub kind: String,
    pub shoe: u64,
    /// The round's number in the log (rising).
    pub round: u64,
    /// Every card of the round in dealing order.
    pub cards: Vec<Card>,
    /// The seats that played, by seat number.
    pub seats: Vec<SeatRecord>,
    /// Why the round was voided (every bet returned; a new shoe follows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub void: Option<String>,
    /// The shoe ran out after this many of the round's cards: the cards on the table stayed
    /// out and the rest were reshuffled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reshuffled_after: Option<u32>,
}

/// The last line of a log written whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndRecord {
    #[serde(rename = "type")]
    pub kind: String,
    pub rounds: u64,
    /// False when the writer was stopped (a signal) before the run's end.
    pub complete: bool,
}

/// A round's decisions as its log gives them: each seat's hands' action letters in order.
pub struct LogDecide<'a> {
    seats: &'a [SeatRecord],
    /// Letters used, per seat and hand.
    used: Vec<Vec<usize>>,
    /// A letter that is not an action: seat, hand, letter.
    pub bad_letter: Option<(usize, usize, char)>,
}

impl<'a> LogDecide<'a> {
    pub fn new(seats: &'a [SeatRecord]) -> LogDecide<'a> {
        LogDecide {
            used: seats.iter().map(|s| vec![0; s.play.len()]).collect(),
            seats,
            bad_letter: None,
        }
    }

    /// Actions the log gives that the play never reached (a hand played on after it ended,
    /// or a hand the rules never dealt): seat and hand of the first.
    pub fn unused(&self, hands: &[usize]) -> Option<(usize, usize)> {
        for (s, seat) in self.seats.iter().enumerate() {
            for (h, p) in seat.play.iter().enumerate() {
                let dealt = hands.get(s).is_some_and(|&n| h < n);
                if (!dealt && !p.is_empty()) || (dealt && self.used[s][h] < p.len()) {
                    return Some((s, h));
                }
            }
        }
        None
    }
}

impl replay::Decide for LogDecide<'_> {
    fn decide(
        &mut self,
        seat: usize,
        hand: usize,
        _sit: &crate::games::blackjack::strategy::Situation,
    ) -> Option<crate::games::blackjack::strategy::Action> {
        let play = self.seats.get(seat)?.play.get(hand)?;
        let at = self.used[seat][hand];
        let c = play[at..].chars().next()?;
        self.used[seat][hand] += c.len_utf8();
        let a = replay::action_of(c);
        if a.is_none() && self.bad_letter.is_none() {
            self.bad_letter = Some((seat, hand, c));
        }
        a
    }

    fn surrender_early(
        &mut self,
        seat: usize,
        _sit: &crate::games::blackjack::strategy::Situation,
    ) -> Option<bool> {
        let first = self.seats.get(seat).and_then(|s| s.play.first());
        if first.is_some_and(|p| p.starts_with('R')) {
            self.used[seat][0] += 1;
            Some(true)
        } else {
            Some(false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::write::{write_log, LogOptions};
    use super::*;
    use crate::game::{simulate, RunSpec};
    use crate::games::blackjack::game::{BjConfig, Blackjack};
    use crate::games::blackjack::kept::Kept;
    use crate::games::blackjack::resolve::seed_chart;
    use crate::games::blackjack::rules::{DealerBjTakes, Double, Surrender};
    use crate::games::blackjack::strategy::StrategySpec;
    use std::sync::atomic::AtomicBool;

    /// The log of a run and the run itself: the replay of the rules settles every round as the
    /// simulator did, and the log's money adds up to the run's.
    fn agree(rules: Rules, strategy: StrategySpec, pairs: f64, insure: bool, rounds: u64) {
        let mut cfg = BjConfig::new(rules, strategy, rounds);
        cfg.bets.pairs = pairs;
        cfg.bets.behind = 1.0;
        cfg.bets.insure = insure;
        cfg.tables = Kept::Fresh;
        let go = AtomicBool::new(false);
        let spec = RunSpec {
            seed: 11,
            threads: Some(2),
            ..RunSpec::default()
        };
        let run = simulate::<Blackjack>(cfg.clone(), &spec, &go).unwrap();
        let mut out = Vec::new();
        let sum = write_log(
            &mut out,
            &cfg,
            &run.plan,
            11,
            0..run.meta.chunks_done,
            LogOptions::default(),
            None,
            &go,
        )
        .unwrap();
        assert_eq!(sum.disagreements, 0, "{:?}", cfg.rules);
        assert!(sum.complete);
        assert_eq!(sum.rounds, run.acc.counts.rounds);
        // The money of the log is the run's, to the unit.
        let text = String::from_utf8(out).unwrap();
        let (mut net, mut staked) = (0i128, 0i128);
        for l in text.lines() {
            if !l.starts_with("{\"type\":\"round\"") {
                continue;
            }
            let r: RoundRecord = serde_json::from_str(l).unwrap();
            let ranks: Vec<_> = r.cards.iter().map(|c| c.rank()).collect();
            let mut decide = LogDecide::new(&r.seats);
            let rp = replay::replay(&cfg.rules, r.seats.len(), &ranks, &mut decide);
            for (s, p) in r.seats.iter().zip(&rp.seats) {
                net += s.paid.main as i128 - replay::main_wagered(p, s.stake.main) as i128;
                staked += s.stake.main as i128;
            }
        }
        let u = cfg.rules.units_per_bet() as i128;
        assert_eq!(net * u, run.acc.main.x * write::STAKE as i128);
        assert_eq!(staked, run.acc.main.y * write::STAKE as i128);
    }

    #[test]
    fn the_rules_replayed_settle_every_logged_round_as_the_simulator() {
        // Agreement is exact, round by round: the sizes only need the rare rounds (resplit
        // aces, surrender, dealer blackjacks against splits) to occur, hundreds of times each.
        let seed = Rules::seed();
        let chart = |_: &Rules| StrategySpec::Chart(Box::new(seed_chart()));
        agree(seed.clone(), chart(&seed), 1.0, true, 50_000);
        agree(seed.clone(), StrategySpec::AutoPlay, 0.0, false, 25_000);
        let mut r = seed.clone();
        r.players = 5;
        r.dealer_bj_takes = DealerBjTakes::Original;
        agree(r.clone(), chart(&r), 0.5, false, 50_000);
        let mut r = Rules::seed();
        r.peek = true;
        r.dealer_bj_takes = DealerBjTakes::Original;
        r.surrender = Surrender::Early;
        r.das = true;
        r.max_hands = 4;
        r.resplit_aces = true;
        r.h17 = true;
        r.decks = 6;
        r.players = 3;
        agree(r.clone(), chart(&r), 1.0, true, 50_000);
        let mut r = Rules::seed();
        r.surrender = Surrender::Late;
        r.double = Double::NineToEleven;
        r.hit_split_aces = true;
        r.max_hands = 3;
        agree(r.clone(), chart(&r), 0.0, true, 50_000);
    }
}
