//! The baccarat round log: its records ([`Header`], [`ShoeRecord`], [`CoupRecord`],
//! [`EndRecord`]; the schema in docs/round-log.md) and the rules' own account of a logged coup
//! ([`replay`]): whether each hand drew as the tableau says, who won, what each bet pays.
//!
//! [`replay`] is written from the rules, not from the simulator's coup (`coup.rs`): the
//! simulator writes its logs through it and `verify baccarat` checks logs with it, so a clean
//! log written by the simulator and verified is the two implementations agreeing coup by coup.

pub mod replay;
pub mod write;

use serde::{Deserialize, Serialize};

use super::bet::Spot;
use super::rules::{BacRules, Shuffle};
use crate::logfile::Card;

/// The log format's name and version, on the header line.
pub const FORMAT: &str = "rtplab-round-log";
pub const VERSION: u32 = 1;

pub use crate::logfile::Rounding;

/// The RTP the table claims for each bet, as fractions (a bet left out claims nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claims {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub banker: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_pair: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub banker_pair: Option<f64>,
}

impl Claims {
    /// The claim of `spot`.
    pub fn get(&self, spot: Spot) -> Option<f64> {
        match spot {
            Spot::Banker => self.banker,
            Spot::Player => self.player,
            Spot::Tie => self.tie,
            Spot::PlayerPair => self.player_pair,
            Spot::BankerPair => self.banker_pair,
        }
    }

    /// A claim of `rtp` for `spot` alone.
    pub fn of(spot: Spot, rtp: f64) -> Claims {
        let mut c = Claims::default();
        *match spot {
            Spot::Banker => &mut c.banker,
            Spot::Player => &mut c.player,
            Spot::Tie => &mut c.tie,
            Spot::PlayerPair => &mut c.player_pair,
            Spot::BankerPair => &mut c.banker_pair,
        } = Some(rtp);
        c
    }
}

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
    /// `baccarat`.
    pub game: String,
    /// The table's rules as rtplab names them (`BacRules`' fields; a field left out is the
    /// standard table's).
    pub rules: serde_json::Map<String, serde_json::Value>,
    /// How far (in cards) the cut card may stand from where the rules put it (a dealer places
    /// it by hand).
    #[serde(default)]
    pub cut_tolerance: u32,
    #[serde(default)]
    pub rounding: Rounding,
    /// The RTP the table claims for its bets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<Claims>,
    /// The currency of the amounts, for reports (the amounts are whole units of it: cents, if
    /// the table takes cents).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// Who wrote the log (a table's system, or the rtplab run that simulated it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

impl Header {
    /// The rules the header states: the standard table's, with the fields it gives. An error
    /// names the field (`rules.NAME`) and says why.
    pub fn table_rules(&self) -> Result<BacRules, (String, String)> {
        let rules = crate::logfile::rules_over(&BacRules::standard(), &["shuffler"], &self.rules)?;
        rules.validate().map_err(|e| ("rules".to_string(), e))?;
        Ok(rules)
    }

    /// The rules as a header states them: every field.
    pub fn rules_map(rules: &BacRules) -> serde_json::Map<String, serde_json::Value> {
        crate::logfile::rules_map(rules)
    }
}

/// Where the cut card goes under `rules`: the cards dealt (burns included) before it comes
/// out; every card for a shoe shuffled every coup.
pub fn cut_of(rules: &BacRules) -> u32 {
    match rules.shuffle {
        Shuffle::CutCard { .. } => rules.cut() as u32,
        Shuffle::EveryRound => rules.cards() as u32,
    }
}

/// Whether shoes of `rules` are burned: with a cut card and the burn rule (a shoe shuffled
/// every coup burns nothing).
pub fn burns(rules: &BacRules) -> bool {
    rules.burn && matches!(rules.shuffle, Shuffle::CutCard { .. })
}

/// A new shoe: shuffled, cut, burned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShoeRecord {
    #[serde(rename = "type")]
    pub kind: String,
    /// The shoe's number (rising).
    pub shoe: u64,
    /// Cards dealt, the burn included, before the cut card comes out: the coup in which it
    /// comes out is the shoe's last.
    pub cut: u32,
    /// The cards burned after the shuffle, in order: the card turned over first, then the
    /// cards its value says (ace 1, two to nine as marked, ten and faces 10).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub burn: Vec<Card>,
}

/// Amounts on each bet of the layout (stakes, or what each returned, stake included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bets {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub banker: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub player: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tie: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub player_pair: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub banker_pair: u64,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

impl Bets {
    /// The amount on `spot`.
    pub fn get(&self, spot: Spot) -> u64 {
        match spot {
            Spot::Banker => self.banker,
            Spot::Player => self.player,
            Spot::Tie => self.tie,
            Spot::PlayerPair => self.player_pair,
            Spot::BankerPair => self.banker_pair,
        }
    }

    /// The amount on `spot`, to change.
    pub fn get_mut(&mut self, spot: Spot) -> &mut u64 {
        match spot {
            Spot::Banker => &mut self.banker,
            Spot::Player => &mut self.player,
            Spot::Tie => &mut self.tie,
            Spot::PlayerPair => &mut self.player_pair,
            Spot::BankerPair => &mut self.banker_pair,
        }
    }
}

/// The name of a bet in a log (`banker`, `player_pair`, ...): its field in [`Bets`].
pub fn bet_name(spot: Spot) -> &'static str {
    match spot {
        Spot::Banker => "banker",
        Spot::Player => "player",
        Spot::Tie => "tie",
        Spot::PlayerPair => "player_pair",
        Spot::BankerPair => "banker_pair",
    }
}

/// One bettor in a coup.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BettorRecord {
    /// Who bet (a seat, or the table system's number for a player).
    pub bettor: u64,
    pub stake: Bets,
    /// What each bet returned, stake included (0: lost; the stake: a push or a void).
    pub paid: Bets,
}

/// One coup (or a voided one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoupRecord {
    #[serde(rename = "type")]
    pub kind: String,
    pub shoe: u64,
    /// The coup's number in the log (rising).
    pub coup: u64,
    /// The player's cards: its first, its second, its third if it drew. The cards are dealt
    /// player, banker, player, banker, then the player's third, then the banker's.
    pub player: Vec<Card>,
    /// The banker's cards: its first, its second, its third if it drew.
    pub banker: Vec<Card>,
    /// Every bettor's stakes and what each bet paid.
    pub bets: Vec<BettorRecord>,
    /// Why the coup was voided (a system or human error): every bet is returned and a new
    /// shoe follows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub void: Option<String>,
}

impl CoupRecord {
    /// The coup's cards in dealing order: player, banker, player, banker, the player's third,
    /// the banker's third.
    pub fn dealt(&self) -> impl Iterator<Item = Card> + '_ {
        let (p, b) = (&self.player, &self.banker);
        let two = (0..2).flat_map(move |i| p.get(i).into_iter().chain(b.get(i)));
        two.chain(p.iter().skip(2)).chain(b.iter().skip(2)).copied()
    }
}

/// The last line of a log written whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndRecord {
    #[serde(rename = "type")]
    pub kind: String,
    /// Coup records in the log (voided ones included).
    pub coups: u64,
    /// False when the writer was stopped (a signal) before the run's end.
    pub complete: bool,
}

#[cfg(test)]
mod tests {
    use super::write::{write_log, LogOptions, STAKE};
    use super::*;
    use crate::game::{simulate, RunSpec};
    use crate::games::baccarat::bet::BetSpec;
    use crate::games::baccarat::rules::BankerPays;
    use crate::games::baccarat::{BacConfig, Baccarat};
    use std::sync::atomic::AtomicBool;

    /// The log of a run and the run itself: the replay of the rules settles every coup as the
    /// simulator did, and the log's money adds up to the run's, bit for bit.
    fn agree(rules: BacRules, bet: BetSpec, pairs: u64, coups: u64) {
        let mut cfg = BacConfig::new(rules, bet, coups);
        cfg.pairs = pairs;
        cfg.table_max = 64;
        let go = AtomicBool::new(false);
        let spec = RunSpec {
            seed: 5,
            threads: Some(2),
            ..RunSpec::default()
        };
        let run = simulate::<Baccarat>(cfg.clone(), &spec, &go).unwrap();
        let mut out = Vec::new();
        let sum = write_log(
            &mut out,
            &cfg,
            &run.plan,
            5,
            0..run.meta.chunks_done,
            LogOptions::default(),
            None,
            &go,
        )
        .unwrap();
        assert_eq!(sum.disagreements, 0, "{:?}", cfg);
        assert!(sum.complete);
        assert_eq!(sum.coups, run.acc.counts.coups);
        let text = String::from_utf8(out).unwrap();
        let mut net = [0i128; 5];
        let mut staked = [0i128; 5];
        let (mut coups, mut cards, mut shoes) = (0u64, 0u64, 0u64);
        for l in text.lines() {
            if l.starts_with("{\"type\":\"shoe\"") {
                let s: ShoeRecord = serde_json::from_str(l).unwrap();
                cards += s.burn.len() as u64;
                shoes += 1;
                continue;
            }
            if !l.starts_with("{\"type\":\"coup\"") {
                continue;
            }
            let r: CoupRecord = serde_json::from_str(l).unwrap();
            coups += 1;
            cards += r.dealt().count() as u64;
            let rank = |h: &[Card]| h.iter().map(|c| c.rank()).collect::<Vec<_>>();
            let rp = replay::deal(&rank(&r.player), &rank(&r.banker)).unwrap();
            assert!(rp.issues.is_empty(), "{l}");
            for b in &r.bets {
                let pay = replay::pay(&cfg.rules, Rounding::Down, &rp.coup, &b.stake);
                assert_eq!(pay, b.paid, "{l}");
                for (i, s) in Spot::ALL.iter().enumerate() {
                    net[i] += b.paid.get(*s) as i128 - b.stake.get(*s) as i128;
                    staked[i] += b.stake.get(*s) as i128;
                }
            }
        }
        assert_eq!(coups, run.acc.counts.coups);
        assert_eq!(cards, run.acc.counts.cards);
        assert_eq!(shoes, sum.shoes);
        // The money of the log is the run's, to the unit (the run counts thousandths of a
        // betting unit, the log STAKE money units per betting unit).
        let scale = STAKE as i128 / crate::games::baccarat::rules::SCALE as i128;
        for i in 0..5 {
            assert_eq!(net[i], run.acc.spots[i].x * scale, "{:?}", Spot::ALL[i]);
            assert_eq!(staked[i], run.acc.spots[i].y * scale, "{:?}", Spot::ALL[i]);
        }
    }

    #[test]
    fn the_rules_replayed_settle_every_logged_coup_as_the_simulator() {
        let std = BacRules::standard();
        agree(std.clone(), BetSpec::Flat(Spot::Banker), 1, 100_000);
        agree(
            BacRules {
                burn: true,
                decks: 6,
                commission: 25,
                tie_pays: 9,
                ..std.clone()
            },
            BetSpec::Martingale(Spot::Player),
            2,
            50_000,
        );
        agree(
            BacRules {
                banker_pays: BankerPays::NoCommission,
                shuffle: Shuffle::EveryRound,
                pair_pays: 25,
                ..std.clone()
            },
            BetSpec::Follow,
            1,
            30_000,
        );
        agree(
            BacRules {
                decks: 1,
                shuffle: Shuffle::CutCard { penetration: 0.5 },
                ..std
            },
            BetSpec::Martingale(Spot::Tie),
            0,
            20_000,
        );
    }

    #[test]
    fn a_header_states_its_rules_by_name_and_refuses_others() {
        let h = |rules: serde_json::Value| Header {
            kind: "header".into(),
            format: FORMAT.into(),
            version: VERSION,
            game: "baccarat".into(),
            rules: rules.as_object().unwrap().clone(),
            cut_tolerance: 0,
            rounding: Rounding::Down,
            claim: None,
            currency: None,
            source: None,
        };
        assert_eq!(
            h(serde_json::json!({})).table_rules().unwrap(),
            BacRules::standard()
        );
        let r = h(serde_json::json!({"decks": 6, "tie_pays": 9}))
            .table_rules()
            .unwrap();
        assert_eq!((r.decks, r.tie_pays, r.commission), (6, 9, 50));
        let (field, why) = h(serde_json::json!({"deck": 6})).table_rules().unwrap_err();
        assert_eq!(field, "rules.deck");
        assert!(why.contains("decks"), "{why}");
        let (field, why) = h(serde_json::json!({"decks": 0}))
            .table_rules()
            .unwrap_err();
        assert_eq!(field, "rules");
        assert!(why.contains("--decks 0"), "{why}");
    }

    #[test]
    fn a_coup_deals_player_banker_player_banker_then_the_thirds() {
        let c = |s: &str| s.parse::<Card>().unwrap();
        let r = CoupRecord {
            kind: "coup".into(),
            shoe: 1,
            coup: 1,
            player: vec![c("Ah"), c("2c"), c("3d")],
            banker: vec![c("Ks"), c("Qs"), c("4h")],
            bets: vec![],
            void: None,
        };
        let order: Vec<String> = r.dealt().map(|c| c.to_string()).collect();
        assert_eq!(order, ["Ah", "Ks", "2c", "Qs", "3d", "4h"]);
    }
}
