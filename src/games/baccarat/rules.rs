//! The rules of the baccarat (punto banco) table and every setting of them.

use serde::{Deserialize, Serialize};

pub use crate::cards::Shuffler;
pub use crate::specfile::{TableError, TableLabel};

/// Money is kept in thousandths of a betting unit, so that every payout of every setting
/// (a 5% or 2.5% commission, the no-commission 1:2 on a banker six) is a whole number.
pub const SCALE: i64 = 1000;

/// Largest shoe (the shared shoe holds up to 78 decks; no table uses more than 16).
pub const MAX_DECKS: u32 = 16;
/// Largest commission, in thousandths of the banker's win (10%).
pub const MAX_COMMISSION: u32 = 100;

/// How a banker win is paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BankerPays {
    /// 1:1 less the commission (`BacRules::commission`).
    Commission,
    /// 1:1 with no commission, except a banker win with a total of 6 pays 1:2.
    NoCommission,
}

/// When the shoe is shuffled.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shuffle {
    /// Deal to the cut card placed after this fraction of the shoe; the coup in which it
    /// comes out is finished, then the shoe is shuffled.
    CutCard { penetration: f64 },
    /// A fresh, full shoe for every coup.
    EveryRound,
}

/// Every rule of the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BacRules {
    pub decks: u32,
    pub banker_pays: BankerPays,
    /// Commission on a banker win, in thousandths of the win (50 = 5%); used with
    /// `BankerPays::Commission` only. Named for its unit in files and JSON.
    #[serde(rename = "commission_permille")]
    pub commission: u32,
    /// Tie pays this many to one (8 or 9).
    pub tie_pays: u32,
    /// Player pair and banker pair pay this many to one.
    pub pair_pays: u32,
    pub shuffle: Shuffle,
    /// After each shuffle, the first card is turned over and as many cards as its value
    /// (ace 1, two to nine as marked, ten and faces 10) are burned, unseen.
    pub burn: bool,
    /// How the shoe is shuffled. Uniform unless set, and then left out of files (rules and
    /// shard keys written before it read and hash as they did). The machine returns the
    /// cards after every coup: it goes with `Shuffle::EveryRound` only, and burns none.
    #[serde(default, skip_serializing_if = "Shuffler::is_uniform")]
    pub shuffler: Shuffler,
    /// The table file these rules were read from, if any (`--table`): its name and content
    /// hash for reports, no part of the rules (as blackjack's).
    #[serde(default, skip_serializing_if = "TableLabel::is_none")]
    pub label: TableLabel,
}

impl Default for BacRules {
    fn default() -> Self {
        BacRules::standard()
    }
}

impl BacRules {
    /// The standard punto banco table: 8 decks, 5% commission, tie 8:1, pairs 11:1, a cut
    /// card after 90% of the shoe, no burn.
    pub fn standard() -> BacRules {
        BacRules {
            decks: 8,
            banker_pays: BankerPays::Commission,
            commission: 50,
            tie_pays: 8,
            pair_pays: 11,
            shuffle: Shuffle::CutCard { penetration: 0.9 },
            burn: false,
            shuffler: Shuffler::Uniform,
            label: TableLabel(None),
        }
    }

    /// Cards in the shoe.
    pub fn cards(&self) -> usize {
        self.decks as usize * 52
    }

    /// Check every setting; the message says what to change.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=MAX_DECKS).contains(&self.decks) {
            return Err(format!(
                "--decks {}: a baccarat shoe has 1 to {MAX_DECKS} decks",
                self.decks
            ));
        }
        if self.commission > MAX_COMMISSION {
            return Err(format!(
                "--commission {}%: the commission must be from 0% to 10%",
                self.commission as f64 / 10.0
            ));
        }
        if !(1..=100).contains(&self.tie_pays) {
            return Err(format!(
                "--tie-pays {}: a tie pays from 1 to 100 to one (8 or 9 at real tables)",
                self.tie_pays
            ));
        }
        if !(1..=100).contains(&self.pair_pays) {
            return Err(format!(
                "--pair-pays {}: a pair pays from 1 to 100 to one (11 at real tables)",
                self.pair_pays
            ));
        }
        self.shuffler
            .validate()
            .map_err(|e| format!("--shuffle: {e}"))?;
        if self.shuffler == Shuffler::Machine && (self.shuffle != Shuffle::EveryRound || self.burn)
        {
            return Err(
                "--shuffle machine deals from a continuous shuffling machine, which has no cut card and burns none: drop --penetration and --burn"
                    .into(),
            );
        }
        if let Shuffle::CutCard { penetration } = self.shuffle {
            if !(0.1..=0.99).contains(&penetration) || penetration.is_nan() {
                return Err(format!(
                    "--penetration {penetration}: the cut card goes after 10% to 99% of the shoe (0.1 to 0.99)"
                ));
            }
            // The coup under way when the cut card comes out is finished from the cards behind
            // it: up to 5 more (a coup takes at most 6).
            let cards = self.cards();
            let behind = cards - self.cut();
            if behind < 5 {
                let most = ((cards - 5) as f64 / cards as f64 * 100.0).floor() / 100.0;
                return Err(format!(
                    "--penetration {penetration}: with {} the cut card leaves {behind} card{} behind it, and the coup it interrupts may need 5 more; use --penetration {most} or less",
                    crate::report::plural(self.decks as u64, "deck"),
                    if behind == 1 { "" } else { "s" }
                ));
            }
        }
        Ok(())
    }

    /// Cards dealt before the cut card comes out.
    pub fn cut(&self) -> usize {
        match self.shuffle {
            Shuffle::CutCard { penetration } => {
                ((self.cards() as f64 * penetration).round() as usize).max(1)
            }
            Shuffle::EveryRound => self.cards(),
        }
    }

    /// What a winning banker bet of one unit pays, in thousandths of a unit, when the
    /// banker wins with `total`.
    #[inline(always)]
    pub fn banker_win(&self, total: u8) -> i64 {
        match self.banker_pays {
            BankerPays::Commission => SCALE - self.commission as i64,
            BankerPays::NoCommission if total == 6 => SCALE / 2,
            BankerPays::NoCommission => SCALE,
        }
    }

    /// A one-line description for reports.
    pub fn describe(&self) -> String {
        let banker = match self.banker_pays {
            BankerPays::Commission => {
                format!("banker 1:1 less {}% commission", pct1(self.commission))
            }
            BankerPays::NoCommission => "banker 1:1 no commission (win on 6 pays 1:2)".into(),
        };
        let shuffle = match (self.shuffle, self.shuffler) {
            (_, s @ Shuffler::Machine) => s.describe(),
            (Shuffle::CutCard { penetration }, s) => format!(
                "cut card after {:.0}% of the shoe{}{}",
                penetration * 100.0,
                if self.burn { ", burn" } else { ", no burn" },
                match s {
                    Shuffler::Uniform => String::new(),
                    s => format!(", {}", s.describe()),
                }
            ),
            (Shuffle::EveryRound, Shuffler::Uniform) => "shuffled every coup".into(),
            (Shuffle::EveryRound, s) => format!("{} before every coup", s.describe()),
        };
        format!(
            "{}{}, {banker}, player 1:1, tie {}:1, pairs {}:1, {shuffle}",
            self.label.prefix(),
            crate::report::plural(self.decks as u64, "deck"),
            self.tie_pays,
            self.pair_pays
        )
    }
}

/// The keys of a baccarat table file: every rule flag's name, without its dashes.
pub const TABLE_KEYS: &[&str] = &[
    "decks",
    "commission",
    "no-commission",
    "tie-pays",
    "pair-pays",
    "penetration",
    "shuffle-every-round",
    "burn",
    "shuffle",
];

/// A baccarat table file's text (`file` names it in errors) read into its rules over the
/// standard table's (docs/tables.md), validated, and labelled with the file.
pub fn read_table(text: &str, file: &str) -> Result<BacRules, TableError> {
    let mut r = BacRules::standard();
    let label = crate::specfile::read_table(text, file, "baccarat", |k, v| set_rule(&mut r, k, v))?;
    r.validate()
        .map_err(|e| TableError(format!("{file}: impossible rules: {e}")))?;
    r.label = TableLabel(Some(label));
    Ok(r)
}

/// Set the rule `key` (a table file's key, a rule flag's name) to `value`; the message says
/// what is expected.
pub fn set_rule(r: &mut BacRules, key: &str, value: &crate::specfile::Value) -> Result<(), String> {
    use crate::specfile::{flag, whole, Value};
    match key {
        "decks" => r.decks = whole(value, 1.0, MAX_DECKS as f64)? as u32,
        "commission" => {
            r.commission = parse_commission(&value.text())?;
            r.banker_pays = BankerPays::Commission;
        }
        "no-commission" => {
            r.banker_pays = if flag(value)? {
                BankerPays::NoCommission
            } else {
                BankerPays::Commission
            }
        }
        "tie-pays" => r.tie_pays = whole(value, 1.0, 100.0)? as u32,
        "pair-pays" => r.pair_pays = whole(value, 1.0, 100.0)? as u32,
        "penetration" => match value {
            Value::Num(p, _) => r.shuffle = Shuffle::CutCard { penetration: *p },
            _ => {
                return Err(format!(
                    "expected a fraction such as 0.9, found '{}'",
                    value.text()
                ))
            }
        },
        "shuffle-every-round" => {
            if flag(value)? {
                r.shuffle = Shuffle::EveryRound
            }
        }
        "burn" => r.burn = flag(value)?,
        "shuffle" => {
            r.shuffler = value
                .text()
                .parse()
                .map_err(|e: crate::cards::ShufflerError| e.to_string())?;
            if r.shuffler == Shuffler::Machine {
                r.shuffle = Shuffle::EveryRound;
            }
        }
        other => return Err(crate::specfile::unknown_rule(other, TABLE_KEYS)),
    }
    Ok(())
}

/// A commission in percent with at most one decimal (a trailing % accepted) as thousandths:
/// "5" → 50, "2.5" → 25.
pub fn parse_commission(s: &str) -> Result<u32, String> {
    let bad = || {
        format!("expected a percentage from 0 to 10 in steps of 0.1, such as 5 or 2.5, found '{s}'")
    };
    let v: f64 = s.trim().trim_end_matches('%').parse().map_err(|_| bad())?;
    let t = v * 10.0;
    if !t.is_finite() || (t - t.round()).abs() > 1e-6 || !(0.0..=100.0).contains(&t.round()) {
        return Err(bad());
    }
    Ok(t.round() as u32)
}

/// Thousandths as a percent with at most one decimal: 50 → "5", 25 → "2.5".
pub fn pct1(permille: u32) -> String {
    if permille.is_multiple_of(10) {
        format!("{}", permille / 10)
    } else {
        format!("{}.{}", permille / 10, permille % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_rules_validate_and_describe() {
        let r = BacRules::standard();
        assert_eq!(r.validate(), Ok(()));
        assert_eq!(r.cut(), 374);
        assert_eq!(
            r.describe(),
            "8 decks, banker 1:1 less 5% commission, player 1:1, tie 8:1, pairs 11:1, cut card after 90% of the shoe, no burn"
        );
        assert_eq!(r.banker_win(6), 950);
        let nc = BacRules {
            banker_pays: BankerPays::NoCommission,
            ..r.clone()
        };
        assert_eq!((nc.banker_win(6), nc.banker_win(7)), (500, 1000));
        assert_eq!(pct1(25), "2.5");
    }

    #[test]
    fn the_shuffler_is_written_only_when_not_uniform() {
        let r = BacRules::standard();
        let json = serde_json::to_value(&r).unwrap();
        assert!(json.get("shuffler").is_none(), "{json}");
        assert_eq!(serde_json::from_value::<BacRules>(json).unwrap(), r);
        let riffled = BacRules {
            shuffler: Shuffler::Riffle(3),
            ..r.clone()
        };
        assert!(riffled.describe().ends_with("no burn, riffled 3 times"));
        assert_eq!(
            serde_json::to_value(&riffled).unwrap()["shuffler"],
            serde_json::json!({"riffle": 3})
        );
        let mut machine = BacRules {
            shuffler: Shuffler::Machine,
            ..r.clone()
        };
        assert!(machine
            .validate()
            .unwrap_err()
            .contains("--shuffle machine"));
        machine.shuffle = Shuffle::EveryRound;
        assert_eq!(machine.validate(), Ok(()));
        machine.burn = true;
        assert!(machine.validate().is_err());
    }

    #[test]
    fn bad_settings_are_refused_with_the_flag() {
        let bad = |f: fn(&mut BacRules), flag: &str| {
            let mut r = BacRules::standard();
            f(&mut r);
            let e = r.validate().unwrap_err();
            assert!(e.contains(flag), "{e}");
        };
        bad(|r| r.decks = 0, "--decks 0");
        bad(|r| r.decks = 17, "--decks 17");
        bad(|r| r.commission = 101, "--commission 10.1%");
        bad(|r| r.tie_pays = 0, "--tie-pays");
        bad(|r| r.pair_pays = 0, "--pair-pays");
        bad(
            |r| r.shuffle = Shuffle::CutCard { penetration: 1.0 },
            "--penetration 1",
        );
        bad(
            |r| {
                r.shuffle = Shuffle::CutCard {
                    penetration: f64::NAN,
                }
            },
            "--penetration NaN",
        );
    }
}
