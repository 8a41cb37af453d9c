//! The blackjack rule set: every rule a setting, validated, with the live table as `seed`.

use serde::{Deserialize, Serialize};
use std::fmt;

pub use crate::cards::Shuffler;

/// Blackjack payout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BjPays {
    #[serde(rename = "3:2")]
    ThreeToTwo,
    #[serde(rename = "6:5")]
    SixToFive,
    #[serde(rename = "1:1")]
    OneToOne,
}

/// What a dealer blackjack takes in the no-hole-card game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DealerBjTakes {
    /// Lose all: doubled and split wagers are lost too (European convention).
    All,
    /// Original bet only (OBO): extra wagers are returned; same EV as a peek game.
    Original,
    /// The original bet and every split hand's bet, not the doubles (returned): the
    /// "Playtech peek" settlement.
    Splits,
}

/// When surrender is allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Surrender {
    #[serde(rename = "none")]
    None,
    /// Only against an up card of 2–9 (the live table).
    #[serde(rename = "2-9")]
    TwoToNine,
    /// Against any up card, but a dealer blackjack still takes the whole bet.
    #[serde(rename = "late")]
    Late,
    /// Against any up card, before the dealer's blackjack is known: half the bet is lost.
    #[serde(rename = "early")]
    Early,
}

/// Which first two cards may be doubled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Double {
    #[serde(rename = "any")]
    Any,
    /// Hard 9, 10 or 11 only.
    #[serde(rename = "9-11")]
    NineToEleven,
    /// Hard 10 or 11 only.
    #[serde(rename = "10-11")]
    TenToEleven,
}

/// What makes two cards a splittable pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SplitBy {
    /// Equal value (K-Q is a pair).
    Value,
    /// Equal rank (K-K only).
    Rank,
}

/// Where a shoe ends.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shuffle {
    /// Deal to a cut card placed after this fraction of the shoe, then shuffle.
    CutCard { penetration: f64 },
    /// Shuffle the whole shoe before every round.
    EveryRound,
}

/// The live table's published RTP for its rules (`Rules::seed`), as a fraction.
pub const ADVERTISED_RTP: f64 = 0.9954;

/// A complete, validated rule set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rules {
    pub decks: u32,
    pub h17: bool,
    pub bj_pays: BjPays,
    /// Hole-card game: the dealer peeks for blackjack with an ace or ten up.
    pub peek: bool,
    pub dealer_bj_takes: DealerBjTakes,
    pub surrender: Surrender,
    pub double: Double,
    pub das: bool,
    /// Most hands a player can hold after splitting (1 = no splitting).
    pub max_hands: u8,
    pub resplit_aces: bool,
    pub hit_split_aces: bool,
    pub split_by: SplitBy,
    pub shuffle: Shuffle,
    /// How the shoe is shuffled. Uniform unless set, and then left out of files (rules,
    /// shard keys and baselines written before it read and hash as they did). The machine
    /// returns the cards after every round: it goes with `Shuffle::EveryRound` only.
    #[serde(default, skip_serializing_if = "Shuffler::is_uniform")]
    pub shuffler: Shuffler,
    /// Seated players, all playing the chosen strategy.
    pub players: u8,
    /// N-card Charlie: a hand of this many cards that has not busted stands and wins 1:1
    /// (unless the dealer has blackjack). Absent: none, and left out of files (rules, shard
    /// keys and baselines written before it read and hash as they did).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charlie: Option<u8>,
    /// Free Bet Blackjack: doubles on a hard 9, 10 or 11 and splits of any pair but tens are
    /// free (the house's free chip wins like a bet but is never lost), and a dealer's 22
    /// pushes every hand still standing. Absent: false, and left out of files.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub free_bet: bool,
    /// The table file these rules were read from, if any (`--table`): its name and content
    /// hash for reports. It is not part of the rules: equal rules are equal whatever file they
    /// came from, and a field named `label` is no part of a run's identity (shard keys).
    #[serde(default, skip_serializing_if = "TableLabel::is_none")]
    pub label: TableLabel,
}

pub use crate::specfile::{TableError, TableFile, TableLabel, MAX_TABLE_FILE_BYTES};

/// Most seats at a table.
pub const MAX_PLAYERS: u8 = 7;
/// Most split hands.
pub const MAX_HANDS: u8 = 8;
/// The N of an N-card Charlie, at least and at most (a double takes one card: a Charlie of
/// four cards or more is never a doubled hand).
pub const MIN_CHARLIE: u8 = 4;
pub const MAX_CHARLIE: u8 = 9;

/// A rule set that cannot be played, with what to change.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("impossible rules: {0}")]
pub struct RulesError(pub String);

impl Rules {
    /// The live table "廿一點" (docs/rules.md §1).
    pub fn seed() -> Rules {
        Rules {
            decks: 8,
            h17: false,
            bj_pays: BjPays::ThreeToTwo,
            peek: false,
            dealer_bj_takes: DealerBjTakes::All,
            surrender: Surrender::TwoToNine,
            double: Double::Any,
            das: false,
            max_hands: 2,
            resplit_aces: false,
            hit_split_aces: false,
            split_by: SplitBy::Value,
            shuffle: Shuffle::CutCard { penetration: 0.75 },
            shuffler: Shuffler::Uniform,
            players: 1,
            charlie: None,
            free_bet: false,
            label: TableLabel(None),
        }
    }

    /// The same rules without the name of the file they came from (what caches key on).
    pub fn unlabelled(&self) -> Rules {
        Rules {
            label: TableLabel(None),
            ..self.clone()
        }
    }

    /// Free Bet Blackjack as the Wizard of Odds analyses it (docs/blackjack.md): 6 decks, the
    /// dealer hits soft 17 and peeks, 3:2, double any two cards and after splits, pairs
    /// resplit to 4 hands (aces too), no surrender; free doubles and splits, a dealer 22
    /// pushes.
    pub fn free_bet() -> Rules {
        Rules {
            decks: 6,
            h17: true,
            peek: true,
            surrender: Surrender::None,
            das: true,
            max_hands: 4,
            resplit_aces: true,
            free_bet: true,
            ..Rules::seed()
        }
    }

    /// Infinite Blackjack's table as its provider describes it: 8 decks, the dealer stands on
    /// all 17s without a hole card, 3:2, double any two cards and after a split, split once,
    /// no surrender, a six-card Charlie.
    pub fn infinite() -> Rules {
        Rules {
            surrender: Surrender::None,
            das: true,
            charlie: Some(6),
            ..Rules::seed()
        }
    }

    /// Whether a split of two cards of value `v` (1 = ace, 10 = ten) is free.
    pub fn free_split(&self, v: u8) -> bool {
        self.free_bet && v != 10
    }

    /// Whether a double of a two-card hand of this hard total is free (a hard 9, 10 or 11).
    pub fn free_double(&self, hard: u8, has_ace: bool) -> bool {
        self.free_bet && !has_ace && (9..=11).contains(&hard)
    }

    /// The RTP the live table publishes for its rules (99.54%, per initial bet), as a fraction:
    /// the claim a run of the seed table's rules tests unless another is given. Other rules
    /// (a different shuffle or cut card included) have none; the number of seats does not
    /// change the table's rules.
    pub fn advertised_rtp(&self) -> Option<f64> {
        let seed = Rules {
            players: self.players,
            ..Rules::seed()
        };
        (*self == seed).then_some(ADVERTISED_RTP)
    }

    /// The claim a flat-bet run (or exact analysis) of these rules tests when none is given:
    /// the table's advertised RTP for its own rules, none for others. A card counter's run
    /// tests none by default (`no_claim_reason`): the advertisement is about flat-bet play.
    pub fn default_claim(&self, counting: bool) -> Option<f64> {
        self.advertised_rtp().filter(|_| !counting)
    }

    /// Why a report of these rules tests no claim (none was given, and the table's advertised
    /// RTP is not a claim about this run): one line for the report and its JSON `no_claim`.
    pub fn no_claim_reason(&self, counting: bool) -> String {
        let advertised = crate::report::pct(ADVERTISED_RTP, 2);
        let why = match (self.advertised_rtp().is_some(), counting) {
            (true, true) => format!(
                "the table's advertised {advertised} is about flat-bet play, and this run counts \
                 cards and bets a ramp"
            ),
            (true, false) => format!(
                "the table's advertised {advertised} applies to these rules, but only a claim given is \
                 tested here"
            ),
            (false, _) => format!(
                "the table's advertised {advertised} is about its own rules (the seed preset), not \
                 these"
            ),
        };
        format!("No claim tested: {why}; --claim PCT tests one.")
    }

    /// Check that the rules can be played; say what to change otherwise.
    pub fn validate(&self) -> Result<(), RulesError> {
        self.validate_undealt()?;
        self.validate_shuffler()?;
        self.validate_cut_card()
    }

    /// The shuffler with the way the shoe ends: a machine has no cut card and returns the
    /// cards after every round.
    fn validate_shuffler(&self) -> Result<(), RulesError> {
        self.shuffler
            .validate()
            .map_err(|e| RulesError(format!("--shuffle: {e}")))?;
        if self.shuffler == Shuffler::Machine && self.shuffle != Shuffle::EveryRound {
            return Err(RulesError(
                "--shuffle machine deals from a continuous shuffling machine, which has no cut card: drop --penetration"
                    .into(),
            ));
        }
        Ok(())
    }

    /// `validate` without the cut card's place in the shoe (its value is still checked): for
    /// the analyses that never deal a shoe to its cut card (advise, exact, derive, indices),
    /// which a cut card too deep for the table must not refuse.
    pub fn validate_undealt(&self) -> Result<(), RulesError> {
        let err = |s: &str| Err(RulesError(s.to_string()));
        if !(1..=64).contains(&self.decks) {
            return err("--decks must be between 1 and 64");
        }
        if !(1..=MAX_PLAYERS).contains(&self.players) {
            return Err(RulesError(format!(
                "--players must be between 1 and {MAX_PLAYERS} (seats at the table)"
            )));
        }
        if !(1..=MAX_HANDS).contains(&self.max_hands) {
            return Err(RulesError(format!(
                "--max-hands must be between 1 (no splitting) and {MAX_HANDS}"
            )));
        }
        if self.resplit_aces && self.max_hands < 3 {
            return err("--resplit-aces needs --max-hands 3 or more (with 2 hands there is nothing to resplit)");
        }
        if self.max_hands == 1 && (self.hit_split_aces || self.das) {
            return err("--hit-split-aces and --das need splitting; --max-hands 1 forbids it");
        }
        if let Some(n) = self.charlie {
            if !(MIN_CHARLIE..=MAX_CHARLIE).contains(&n) {
                return Err(RulesError(format!(
                    "--charlie {n}: an N-card Charlie is of {MIN_CHARLIE} to {MAX_CHARLIE} cards (Infinite Blackjack's is 6)"
                )));
            }
        }
        if self.free_bet {
            if self.charlie.is_some() {
                return err("--free-bet and --charlie: no table deals both, and their settlement together is not defined; drop one");
            }
            if !self.peek && self.dealer_bj_takes == DealerBjTakes::Splits {
                return err("--free-bet and --dealer-bj-takes splits: a dealer blackjack taking free split hands is not defined; use all or original");
            }
        }
        if let Shuffle::CutCard { penetration } = self.shuffle {
            if !(penetration > 0.0 && penetration <= 1.0) {
                return err("--penetration must be the fraction of the shoe dealt before the cut card, above 0 and below 1, e.g. 0.75");
            }
        }
        Ok(())
    }

    /// The cut card's place: at least one card before it, and room behind it for a round
    /// that starts just before it.
    fn validate_cut_card(&self) -> Result<(), RulesError> {
        let Shuffle::CutCard { penetration } = self.shuffle else {
            return Ok(());
        };
        // A round starts only before the cut card; at least one full round must fit.
        let cards = self.cards();
        let cut = (penetration * cards as f64).round() as u32;
        if cut < 1 {
            return Err(RulesError(
                "--penetration is so small that the cut card comes before the first card; raise it"
                    .into(),
            ));
        }
        // A round that starts just before the cut card must be dealt from the shoe: leave
        // 8 cards per hand at the table (players and dealer) behind the cut card.
        let reserve = 8 * (self.players as u32 + 1);
        if cards > reserve && cut <= cards - reserve {
            return Ok(());
        }
        let players = crate::report::plural(self.players as u64, "player");
        let behind = cards - cut.min(cards);
        if cards <= reserve {
            // No cut card works: one card before it and `reserve` behind need a bigger shoe
            // or fewer seats.
            let decks = (reserve + 1).div_ceil(52);
            let seats = ((cards - 1) / 8).saturating_sub(1);
            let fewer = if seats >= 1 {
                format!(", or --players {seats} or fewer")
            } else {
                String::new()
            };
            return Err(RulesError(format!(
                "a round with {players} needs up to {reserve} cards behind the cut card, and a shoe of {} has {cards}: no cut card leaves that room; use --decks {decks} or more{fewer}",
                crate::report::plural(self.decks as u64, "deck"),
            )));
        }
        // The deepest cut card that leaves the room, written to two decimals (more if that
        // rounds to nothing).
        let most = (cards - reserve) as f64 / cards as f64;
        let max = [100.0, 1e3, 1e4]
            .iter()
            .map(|s| (most * s).floor() / s)
            .find(|&p| (p * cards as f64).round() >= 1.0)
            .unwrap_or(most);
        Err(RulesError(format!(
            "--penetration {penetration} leaves {behind} cards behind the cut card; a round with {players} needs up to {reserve}: use --penetration {max} or less"
        )))
    }

    /// How the shoe ends and is shuffled, in words: "cut card at 75%", "shuffle every round",
    /// "cut card at 75%, riffled 4 times", "continuous shuffling machine (10-card buffer)".
    pub fn shoe_words(&self) -> String {
        match (self.shuffle, self.shuffler) {
            (_, Shuffler::Machine) => self.shuffler.describe(),
            (Shuffle::CutCard { penetration }, s) => {
                let cut = format!("cut card at {:.0}%", penetration * 100.0);
                match s {
                    Shuffler::Uniform => cut,
                    s => format!("{cut}, {}", s.describe()),
                }
            }
            (Shuffle::EveryRound, Shuffler::Uniform) => "shuffle every round".to_string(),
            (Shuffle::EveryRound, s) => format!("{} before every round", s.describe()),
        }
    }

    /// Cards in the shoe.
    pub fn cards(&self) -> u32 {
        self.decks * 52
    }

    /// Money units per initial bet: every payout is an integer number of units.
    pub fn units_per_bet(&self) -> i64 {
        match self.bj_pays {
            BjPays::ThreeToTwo | BjPays::OneToOne => 2,
            BjPays::SixToFive => 10,
        }
    }

    /// A blackjack's win in units.
    pub fn bj_win_units(&self) -> i64 {
        match self.bj_pays {
            BjPays::ThreeToTwo => 3,
            BjPays::SixToFive => 12,
            BjPays::OneToOne => 2,
        }
    }

    /// Whether surrender is offered against this up card value (1 = ace).
    pub fn surrender_allowed(&self, up: u8) -> bool {
        match self.surrender {
            Surrender::None => false,
            Surrender::TwoToNine => (2..=9).contains(&up),
            Surrender::Late | Surrender::Early => true,
        }
    }

    /// Whether two first cards with this hard total / softness may be doubled.
    pub fn double_allowed(&self, hard: u8, soft: bool) -> bool {
        match self.double {
            Double::Any => true,
            Double::NineToEleven => !soft && (9..=11).contains(&hard),
            Double::TenToEleven => !soft && (10..=11).contains(&hard),
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.describe(f, true)
    }
}

impl Rules {
    /// The rules a round off the top of a full shoe is played under: what the exact analysis
    /// and the advice read (not how the shoe ends, nor the seats).
    pub fn off_the_top(&self) -> String {
        struct Top<'a>(&'a Rules);
        impl fmt::Display for Top<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.describe(f, false)
            }
        }
        Top(self).to_string()
    }

    fn describe(&self, f: &mut fmt::Formatter<'_>, shoe: bool) -> fmt::Result {
        f.write_str(&self.label.prefix())?;
        let pays = match self.bj_pays {
            BjPays::ThreeToTwo => "3:2",
            BjPays::SixToFive => "6:5",
            BjPays::OneToOne => "1:1",
        };
        let game = if self.peek {
            "peek".to_string()
        } else {
            match self.dealer_bj_takes {
                DealerBjTakes::All => "ENHC lose-all".to_string(),
                DealerBjTakes::Original => "ENHC OBO".to_string(),
                DealerBjTakes::Splits => "ENHC takes splits, not doubles".to_string(),
            }
        };
        let sur = match self.surrender {
            Surrender::None => "no surrender",
            Surrender::TwoToNine => "surrender vs 2-9",
            Surrender::Late => "late surrender",
            Surrender::Early => "early surrender",
        };
        let dbl = match self.double {
            Double::Any => "double any 2",
            Double::NineToEleven => "double 9-11",
            Double::TenToEleven => "double 10-11",
        };
        write!(
            f,
            "{}, {}, BJ {pays}, {game}, {sur}, {dbl}, {}, {} max{}{}, split by {}",
            crate::report::plural(self.decks as u64, "deck"),
            if self.h17 { "H17" } else { "S17" },
            if self.das { "DAS" } else { "no DAS" },
            crate::report::plural(self.max_hands as u64, "hand"),
            if self.resplit_aces { ", RSA" } else { "" },
            if self.hit_split_aces {
                ", hit split aces"
            } else {
                ""
            },
            match self.split_by {
                SplitBy::Value => "value",
                SplitBy::Rank => "rank",
            },
        )?;
        if let Some(n) = self.charlie {
            write!(f, ", {n}-card Charlie")?;
        }
        if self.free_bet {
            write!(
                f,
                ", Free Bet (free doubles on hard 9-11 and splits but tens, dealer 22 pushes)"
            )?;
        }
        if shoe {
            write!(
                f,
                ", {}, {} player{}",
                self.shoe_words(),
                self.players,
                if self.players == 1 { "" } else { "s" }
            )?;
        }
        Ok(())
    }
}

/// The keys of a blackjack table file: every rule flag's name, without its dashes.
pub const TABLE_KEYS: &[&str] = &[
    "decks",
    "h17",
    "bj-pays",
    "peek",
    "dealer-bj-takes",
    "surrender",
    "double",
    "das",
    "max-hands",
    "resplit-aces",
    "hit-split-aces",
    "split-by",
    "penetration",
    "shuffle-every-round",
    "shuffle",
    "players",
    "charlie",
    "free-bet",
];

/// A table file's text (`file` names it in errors, `bytes` its content for the hash) read into
/// its rules over the seed table's: `game = "blackjack"`, an optional `name` and `source`, and
/// one line per rule that differs, keyed as the rule flags are (docs/tables.md). The rules
/// are validated as dealt (the cut card's place checked) unless `dealt` is false.
pub fn read_table(text: &str, file: &str, dealt: bool) -> Result<Rules, TableError> {
    let mut r = Rules::seed();
    let label =
        crate::specfile::read_table(text, file, "blackjack", |k, v| set_rule(&mut r, k, v))?;
    let checked = if dealt {
        r.validate()
    } else {
        r.validate_undealt()
    };
    checked.map_err(|e| TableError(format!("{file}: impossible rules: {}", e.0)))?;
    r.label = TableLabel(Some(label));
    Ok(r)
}

/// Set the rule `key` (a table file's key, a rule flag's name) to `value`; the message says
/// what is expected.
pub fn set_rule(r: &mut Rules, key: &str, value: &crate::specfile::Value) -> Result<(), String> {
    use crate::specfile::Value;
    let text = value.text();
    use crate::specfile::{flag, whole};
    match key {
        "decks" => r.decks = whole(value, 1.0, 64.0)? as u32,
        "h17" => r.h17 = flag(value)?,
        "bj-pays" => r.bj_pays = parse_bj_pays(&text)?,
        "peek" => r.peek = flag(value)?,
        "dealer-bj-takes" => r.dealer_bj_takes = parse_takes(&text)?,
        "surrender" => r.surrender = parse_surrender(&text)?,
        "double" => r.double = parse_double(&text)?,
        "das" => r.das = flag(value)?,
        "max-hands" => r.max_hands = whole(value, 1.0, MAX_HANDS as f64)? as u8,
        "resplit-aces" => r.resplit_aces = flag(value)?,
        "hit-split-aces" => r.hit_split_aces = flag(value)?,
        "split-by" => r.split_by = parse_split_by(&text)?,
        "penetration" => match value {
            Value::Num(p, _) => r.shuffle = Shuffle::CutCard { penetration: *p },
            _ => return Err(format!("expected a fraction such as 0.75, found '{text}'")),
        },
        "shuffle-every-round" => {
            if flag(value)? {
                r.shuffle = Shuffle::EveryRound
            }
        }
        "shuffle" => {
            r.shuffler = text
                .parse()
                .map_err(|e: crate::cards::ShufflerError| e.to_string())?;
            if r.shuffler == Shuffler::Machine {
                r.shuffle = Shuffle::EveryRound;
            }
        }
        "players" => r.players = whole(value, 1.0, MAX_PLAYERS as f64)? as u8,
        "charlie" => r.charlie = Some(whole(value, MIN_CHARLIE as f64, MAX_CHARLIE as f64)? as u8),
        "free-bet" => r.free_bet = flag(value)?,
        other => return Err(crate::specfile::unknown_rule(other, TABLE_KEYS)),
    }
    Ok(())
}

/// `3:2`, `6:5` or `1:1`.
pub fn parse_bj_pays(s: &str) -> Result<BjPays, String> {
    match s {
        "3:2" => Ok(BjPays::ThreeToTwo),
        "6:5" => Ok(BjPays::SixToFive),
        "1:1" => Ok(BjPays::OneToOne),
        _ => Err(format!("expected 3:2, 6:5 or 1:1, found '{s}'")),
    }
}
/// `all`, `original` (`obo`) or `splits` (`playtech`).
pub fn parse_takes(s: &str) -> Result<DealerBjTakes, String> {
    match s {
        "all" => Ok(DealerBjTakes::All),
        "original" | "obo" | "OBO" => Ok(DealerBjTakes::Original),
        "splits" | "playtech" => Ok(DealerBjTakes::Splits),
        _ => Err(format!("expected all, original or splits, found '{s}'")),
    }
}
/// `none` (`no`), `2-9`, `late` or `early`.
pub fn parse_surrender(s: &str) -> Result<Surrender, String> {
    match s {
        "none" | "no" => Ok(Surrender::None),
        "2-9" => Ok(Surrender::TwoToNine),
        "late" => Ok(Surrender::Late),
        "early" => Ok(Surrender::Early),
        _ => Err(format!("expected none, 2-9, late or early, found '{s}'")),
    }
}
/// `any`, `9-11` or `10-11`.
pub fn parse_double(s: &str) -> Result<Double, String> {
    match s {
        "any" => Ok(Double::Any),
        "9-11" => Ok(Double::NineToEleven),
        "10-11" => Ok(Double::TenToEleven),
        _ => Err(format!("expected any, 9-11 or 10-11, found '{s}'")),
    }
}
/// `value` or `rank`.
pub fn parse_split_by(s: &str) -> Result<SplitBy, String> {
    match s {
        "value" => Ok(SplitBy::Value),
        "rank" => Ok(SplitBy::Rank),
        _ => Err(format!("expected value or rank, found '{s}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_is_valid_and_is_the_live_table() {
        let r = Rules::seed();
        r.validate().unwrap();
        assert_eq!(r.decks, 8);
        assert!(!r.peek && !r.h17 && !r.das);
        assert_eq!(r.max_hands, 2);
        assert_eq!(r.surrender, Surrender::TwoToNine);
    }

    #[test]
    fn only_the_seed_tables_rules_carry_the_published_rtp() {
        assert_eq!(Rules::seed().advertised_rtp(), Some(0.9954));
        // Seats do not change the table's rules.
        let seven = Rules {
            players: 7,
            ..Rules::seed()
        };
        assert_eq!(seven.advertised_rtp(), Some(ADVERTISED_RTP));
        let others = [
            Rules {
                decks: 6,
                ..Rules::seed()
            },
            Rules {
                das: true,
                ..Rules::seed()
            },
            Rules {
                shuffle: Shuffle::EveryRound,
                ..Rules::seed()
            },
            Rules {
                shuffle: Shuffle::CutCard { penetration: 0.5 },
                ..Rules::seed()
            },
            Rules {
                dealer_bj_takes: DealerBjTakes::Original,
                ..Rules::seed()
            },
        ];
        for r in others {
            assert_eq!(r.advertised_rtp(), None, "{r}");
        }
    }

    #[test]
    fn impossible_combinations_are_refused() {
        let mut r = Rules::seed();
        r.resplit_aces = true;
        assert!(r.validate().unwrap_err().0.contains("--max-hands"));
        let mut r = Rules::seed();
        r.decks = 0;
        assert!(r.validate().is_err());
        let mut r = Rules::seed();
        r.players = 8;
        assert!(r.validate().is_err());
        let mut r = Rules::seed();
        r.shuffle = Shuffle::CutCard { penetration: 1.5 };
        assert!(r.validate().is_err());
        // A cut card at the end of the shoe leaves no cards for the last round: 8 decks, one
        // player keep 16 cards behind it (at most 400 of 416 dealt), seven players 64.
        r.shuffle = Shuffle::CutCard { penetration: 1.0 };
        let e = r.validate().unwrap_err().0;
        assert!(e.contains("use --penetration 0.96 or less"), "{e}");
        r.shuffle = Shuffle::CutCard { penetration: 0.96 };
        assert!(r.validate().is_ok());
        r.players = 7;
        assert!(r.validate().unwrap_err().0.contains("0.84 or less"));
        // A shoe too small for the seats: no penetration works (it used to say "use
        // --penetration 0 or less"); more decks or fewer players do.
        r.decks = 1;
        r.shuffle = Shuffle::CutCard { penetration: 0.1 };
        assert_eq!(
            r.validate().unwrap_err().0,
            "a round with 7 players needs up to 64 cards behind the cut card, and a shoe of 1 deck has 52: no cut card leaves that room; use --decks 2 or more, or --players 5 or fewer"
        );
        r.players = 5;
        assert!(r
            .validate()
            .unwrap_err()
            .0
            .contains("use --penetration 0.07 or less"));
        r.shuffle = Shuffle::CutCard { penetration: 0.07 };
        assert!(r.validate().is_ok());
        // The analyses that deal no shoe to its cut card check everything else only.
        r.players = 7;
        assert!(r.validate_undealt().is_ok());
        r.shuffle = Shuffle::CutCard { penetration: 1.5 };
        assert!(r.validate_undealt().is_err());
        let mut r = Rules::seed();
        r.max_hands = 1;
        r.das = true;
        assert!(r.validate().is_err());
    }

    #[test]
    fn the_shuffler_is_written_only_when_not_uniform() {
        // Rules written before the setting read as uniform, and uniform rules write as they
        // did (shard keys and baselines hash the same).
        let seed = Rules::seed();
        let json = serde_json::to_value(&seed).unwrap();
        assert!(json.get("shuffler").is_none(), "{json}");
        assert_eq!(serde_json::from_value::<Rules>(json).unwrap(), seed);
        let riffled = Rules {
            shuffler: Shuffler::Riffle(7),
            ..Rules::seed()
        };
        let json = serde_json::to_value(&riffled).unwrap();
        assert_eq!(json["shuffler"], serde_json::json!({"riffle": 7}));
        assert_eq!(serde_json::from_value::<Rules>(json).unwrap(), riffled);
        assert!(riffled.validate().is_ok());
        assert_eq!(riffled.advertised_rtp(), None);
        assert!(riffled
            .to_string()
            .contains("cut card at 75%, riffled 7 times"));
        // A machine returns the cards every round: never with a cut card.
        let mut machine = Rules {
            shuffler: Shuffler::Machine,
            ..Rules::seed()
        };
        assert!(machine
            .validate()
            .unwrap_err()
            .0
            .contains("drop --penetration"));
        machine.shuffle = Shuffle::EveryRound;
        assert!(machine.validate().is_ok());
        assert!(machine
            .to_string()
            .contains("continuous shuffling machine (10-card buffer)"));
        let bad = Rules {
            shuffler: Shuffler::Riffle(0),
            ..Rules::seed()
        };
        assert!(bad.validate().unwrap_err().0.contains("--shuffle"));
    }

    #[test]
    fn surrender_windows() {
        let mut r = Rules::seed();
        assert!(!r.surrender_allowed(1));
        assert!(!r.surrender_allowed(10));
        assert!((2..=9).all(|u| r.surrender_allowed(u)));
        r.surrender = Surrender::Late;
        assert!(r.surrender_allowed(1) && r.surrender_allowed(10));
        r.surrender = Surrender::None;
        assert!(!(1..=10).any(|u| r.surrender_allowed(u)));
    }

    #[test]
    fn double_windows() {
        let mut r = Rules::seed();
        assert!(r.double_allowed(8, false) && r.double_allowed(8, true));
        r.double = Double::NineToEleven;
        assert!(!r.double_allowed(8, false) && r.double_allowed(9, false));
        assert!(!r.double_allowed(9, true));
        r.double = Double::TenToEleven;
        assert!(!r.double_allowed(9, false) && r.double_allowed(11, false));
    }

    #[test]
    fn units() {
        let mut r = Rules::seed();
        assert_eq!((r.units_per_bet(), r.bj_win_units()), (2, 3));
        r.bj_pays = BjPays::SixToFive;
        assert_eq!((r.units_per_bet(), r.bj_win_units()), (10, 12));
        r.bj_pays = BjPays::OneToOne;
        assert_eq!((r.units_per_bet(), r.bj_win_units()), (2, 2));
    }
}
