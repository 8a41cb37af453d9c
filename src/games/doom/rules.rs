//! Dice of Doom rules: every ruling of docs/rules.md §3 a setting, and the public Farkle presets.

use serde::{Deserialize, Serialize};

pub use crate::specfile::{TableError, TableLabel};

/// How four, five and six of a kind score relative to three of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NOfKind {
    /// Four or more score the same as three (the seed).
    Flat,
    /// 4/5/6 of a kind = 2×/3×/4× the three-of-a-kind value (S2 common rules).
    Linear,
    /// Each extra die doubles: 2×/4×/8× (Zilch).
    Doubling,
}

/// What the dice of a face beyond its three of a kind score (docs/rules.md §3: "een rol van vier
/// vijven is ook 500").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KindExtras {
    /// They belong to the n-of-a-kind and score only through `--n-of-kind` (flat: nothing, so
    /// four 5s = 500 and four 1s = 1000; linear or doubling: the kind's multiple). Three or
    /// more dice of a face are one n-of-a-kind, never a triple plus single 1s or 5s (the seed).
    Kind,
    /// Extra 1s and 5s may score as single 1s and 5s beside the triple, whichever partition is
    /// best (flat kinds: four 5s = 550, four 1s = 1100).
    Singles,
}

/// Whether dice set aside earlier in a cycle combine with later ones (docs/rules.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HeldDice {
    /// The cycle's points are the best score of all dice set aside in it (the seed).
    Combine,
    /// Each roll's set-aside dice score on their own (classic Farkle).
    Separate,
}

/// After hot dice (all six set aside): must the player roll again?
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HotDice {
    Forced,
    Optional,
}

/// What a doom roll wipes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DoomWipes {
    /// The turn's points (the ruling).
    Turn,
    /// The turn's points and the player's banked total.
    Bank,
}

/// The largest target of any game, in points: the one limit of `--target` (the command line,
/// a rules file, a shard's key), whatever the command. The two-player solve takes targets up
/// to its own `win::MAX_SOLVED_TARGET` only, since its work grows with the cube of the target.
pub const MAX_TARGET: u64 = 1_000_000_000;

/// Whether `target` is a target any game can have: 1 to `MAX_TARGET` points.
pub fn check_target(target: u64) -> Result<(), String> {
    if target == 0 || target > MAX_TARGET {
        return Err(target_refused(&target.to_string()));
    }
    Ok(())
}

/// The message for a target (as typed: `t`) outside 1 to `MAX_TARGET` points.
pub fn target_refused(t: &str) -> String {
    format!(
        "--target {t}: the target must be from 1 to {} points (10^9)",
        crate::report::count(MAX_TARGET)
    )
}

/// How the game ends once a player reaches the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndRule {
    /// The remaining players of that round take their turn; the highest total wins.
    FinishRound,
    /// The first player to reach the target wins at once.
    Immediate,
}

/// Rule presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DoomPreset {
    /// The seed text with docs/rules.md's rulings.
    Seed,
    /// The public "S2 common" Farkle rules of docs/references.md.
    S2Common,
    /// Zilch (zilch.playr.co.uk), as analysed by M. Busche.
    Zilch,
}

/// A complete, validated rule set. Points are whole numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DoomRules {
    pub preset: DoomPreset,
    pub single_one: u32,
    pub single_five: u32,
    /// Three of a kind of face n (n ≥ 2) = n × this.
    pub kind_unit: u32,
    pub three_ones: u32,
    pub n_of_kind: NOfKind,
    /// Dice of a face beyond its three of a kind: part of the kind, or single 1s and 5s.
    pub kind_extras: KindExtras,
    /// Straight 1–5 or 2–6 (five dice); `None`: not a combination.
    pub straight5: Option<u32>,
    /// Straight 1–6.
    pub straight6: Option<u32>,
    pub three_pairs: Option<u32>,
    /// Whether four of a kind plus a pair counts as three pairs.
    pub four_and_pair_is_three_pairs: bool,
    pub two_triplets: Option<u32>,
    /// Whether five-dice straights, three pairs and two triplets add the 1s and 5s in them.
    pub specials_add_singles: bool,
    pub held_dice: HeldDice,
    pub hot_dice: HotDice,
    /// A roll showing this many sixes or more is doom; `None`: no doom rule.
    pub doom_sixes: Option<u8>,
    pub doom_wipes: DoomWipes,
    /// A roll of six dice with no scoring die scores this and the player rolls six again
    /// (Zilch); `None`: it is a farkle like any other.
    pub six_dice_no_score: Option<u32>,
    /// Banking is allowed only with at least this many turn points.
    pub min_bank: u32,
    /// The n-th farkle in a row costs this many banked points (Zilch: 3 in a row, −500).
    pub farkle_penalty: Option<(u8, u32)>,
    pub target: u64,
    pub end: EndRule,
    /// The table file this rule set was read from, if any (`--table`): its name and content
    /// hash for reports, no part of the rules (as blackjack's).
    #[serde(default, skip_serializing_if = "TableLabel::is_none")]
    pub label: TableLabel,
}

impl DoomRules {
    /// Whether hot dice (all six set aside) must be rolled again.
    pub fn hot_dice_forced(&self) -> bool {
        self.hot_dice == HotDice::Forced
    }

    pub fn preset(p: DoomPreset) -> DoomRules {
        let seed = DoomRules {
            preset: p,
            single_one: 100,
            single_five: 50,
            kind_unit: 100,
            three_ones: 1000,
            n_of_kind: NOfKind::Flat,
            kind_extras: KindExtras::Kind,
            straight5: Some(1000),
            straight6: Some(2500),
            three_pairs: Some(1000),
            four_and_pair_is_three_pairs: false,
            two_triplets: Some(1000),
            specials_add_singles: true,
            held_dice: HeldDice::Combine,
            hot_dice: HotDice::Forced,
            doom_sixes: Some(2),
            doom_wipes: DoomWipes::Turn,
            six_dice_no_score: None,
            min_bank: 0,
            farkle_penalty: None,
            target: 100_000,
            end: EndRule::FinishRound,
            label: TableLabel(None),
        };
        match p {
            DoomPreset::Seed => seed,
            DoomPreset::S2Common => DoomRules {
                n_of_kind: NOfKind::Linear,
                straight5: None,
                straight6: Some(1500),
                three_pairs: Some(750),
                two_triplets: None,
                specials_add_singles: false,
                held_dice: HeldDice::Separate,
                hot_dice: HotDice::Optional,
                doom_sixes: None,
                target: 10_000,
                ..seed
            },
            DoomPreset::Zilch => DoomRules {
                n_of_kind: NOfKind::Doubling,
                straight5: None,
                straight6: Some(1500),
                three_pairs: Some(1500),
                four_and_pair_is_three_pairs: true,
                two_triplets: None,
                specials_add_singles: false,
                held_dice: HeldDice::Separate,
                hot_dice: HotDice::Optional,
                doom_sixes: None,
                six_dice_no_score: Some(500),
                min_bank: 300,
                farkle_penalty: Some((3, 500)),
                target: 10_000,
                ..seed
            },
        }
    }

    /// Check the rule set is playable; the message names the setting and the fix.
    pub fn validate(&self) -> Result<(), String> {
        if self.single_one == 0 || self.single_five == 0 || self.kind_unit == 0 {
            return Err(
                "single 1, single 5 and three-of-a-kind values must be positive (every scoring \
                 combination must be worth points)"
                    .into(),
            );
        }
        if self.three_ones == 0 {
            return Err("--three-ones must be positive".into());
        }
        for (name, v) in [
            ("--straight5", self.straight5),
            ("--straight6", self.straight6),
            ("--three-pairs", self.three_pairs),
            ("--two-triplets", self.two_triplets),
            ("--six-dice-no-score", self.six_dice_no_score),
        ] {
            if v == Some(0) {
                return Err(format!("{name} 0 is not a value: use 'off' to disable it"));
            }
        }
        if let Some(d) = self.doom_sixes {
            if !(1..=6).contains(&d) {
                return Err(format!(
                    "--doom {d}: the number of sixes that dooms a roll must be 1..6 (or 'off')"
                ));
            }
        }
        if let Some((n, _)) = self.farkle_penalty {
            if n == 0 {
                return Err("--farkle-penalty: the number of farkles in a row must be ≥ 1".into());
            }
        }
        check_target(self.target)?;
        if self.min_bank as u64 > self.target {
            return Err(format!(
                "--min-bank {} exceeds --target {}: no one could ever bank",
                self.min_bank, self.target
            ));
        }
        Ok(())
    }

    /// Greatest common divisor of every value a set-aside can score: the DP's point unit.
    pub fn unit(&self) -> u32 {
        let mut g = 0;
        let mut vals = vec![
            self.single_one,
            self.single_five,
            self.kind_unit,
            self.three_ones,
        ];
        vals.extend(
            [
                self.straight5,
                self.straight6,
                self.three_pairs,
                self.two_triplets,
                self.six_dice_no_score,
            ]
            .into_iter()
            .flatten(),
        );
        for v in vals {
            g = gcd(g, v);
        }
        g.max(1)
    }

    /// The same rules without the name of the file they came from (what solved tables and
    /// caches key on).
    pub fn unlabelled(&self) -> DoomRules {
        DoomRules {
            label: TableLabel(None),
            ..self.clone()
        }
    }

    /// One line naming the rule set.
    pub fn summary(&self) -> String {
        let doom = match self.doom_sixes {
            Some(d) => format!("doom at {d}+ sixes (wipes the {})", kebab(&self.doom_wipes)),
            None => "no doom".into(),
        };
        format!(
            "{}{} preset: held dice {}, hot dice {}, {doom}, n-of-a-kind {}, kind extras {}, min \
             bank {}, target {}",
            self.label.prefix(),
            kebab(&self.preset),
            kebab(&self.held_dice),
            kebab(&self.hot_dice),
            kebab(&self.n_of_kind),
            kebab(&self.kind_extras),
            crate::report::count(self.min_bank as u64),
            crate::report::count(self.target)
        )
    }
}

/// The keys of a Dice of Doom table file: `rules` (the preset to start from, before any other
/// rule) and every rule flag's name, without its dashes.
pub const TABLE_KEYS: &[&str] = &[
    "rules",
    "single-one",
    "single-five",
    "three-ones",
    "n-of-kind",
    "kind-extras",
    "straight5",
    "straight6",
    "three-pairs",
    "four-and-pair-is-three-pairs",
    "two-triplets",
    "specials-add-singles",
    "held-dice",
    "hot-dice",
    "doom",
    "doom-wipes",
    "six-dice-no-score",
    "min-bank",
    "farkle-penalty",
    "target",
    "end",
];

/// A Dice of Doom table file's text (`file` names it in errors) read into its rule set: the
/// seed's, or the preset its `rules` line names, with its other lines' rulings
/// (docs/tables.md); validated, and labelled with the file.
pub fn read_table(text: &str, file: &str) -> Result<DoomRules, TableError> {
    let mut r = DoomRules::preset(DoomPreset::Seed);
    let mut ruled = false;
    let label = crate::specfile::read_table(text, file, "doom", |k, v| {
        if k == "rules" {
            if ruled {
                return Err("the preset comes before every other rule: move this line up".into());
            }
            r = DoomRules::preset(parse_word(&v.text(), &["seed", "s2-common", "zilch"])?);
            return Ok(());
        }
        ruled = true;
        set_rule(&mut r, k, v)
    })?;
    r.validate()
        .map_err(|e| TableError(format!("{file}: impossible rules: {e}")))?;
    r.label = TableLabel(Some(label));
    Ok(r)
}

/// A setting's value named by its kebab-case word, one of `words`.
fn parse_word<T: serde::de::DeserializeOwned>(s: &str, words: &[&str]) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).map_err(|_| {
        format!(
            "expected {}, found '{}'",
            words.join(", "),
            crate::door::input::quote(s)
        )
    })
}

/// Set the ruling `key` (a table file's key, a rule flag's name) to `value`; the message says
/// what is expected. Points are whole numbers from 1 to 1,000,000; `"off"` turns off the
/// rulings that can be off.
pub fn set_rule(
    r: &mut DoomRules,
    key: &str,
    value: &crate::specfile::Value,
) -> Result<(), String> {
    use crate::specfile::{flag, whole};
    let points = |v: &crate::specfile::Value| whole(v, 1.0, 1_000_000.0).map(|x| x as u32);
    let or_off = |v: &crate::specfile::Value| match v {
        crate::specfile::Value::Str(s) if s == "off" => Ok(None),
        v => points(v).map(Some).map_err(|e| format!("{e} or \"off\"")),
    };
    match key {
        "single-one" => r.single_one = points(value)?,
        "single-five" => r.single_five = points(value)?,
        "three-ones" => r.three_ones = points(value)?,
        "n-of-kind" => r.n_of_kind = parse_word(&value.text(), &["flat", "linear", "doubling"])?,
        "kind-extras" => r.kind_extras = parse_word(&value.text(), &["kind", "singles"])?,
        "straight5" => r.straight5 = or_off(value)?,
        "straight6" => r.straight6 = or_off(value)?,
        "three-pairs" => r.three_pairs = or_off(value)?,
        "four-and-pair-is-three-pairs" => r.four_and_pair_is_three_pairs = flag(value)?,
        "two-triplets" => r.two_triplets = or_off(value)?,
        "specials-add-singles" => r.specials_add_singles = flag(value)?,
        "held-dice" => r.held_dice = parse_word(&value.text(), &["combine", "separate"])?,
        "hot-dice" => r.hot_dice = parse_word(&value.text(), &["forced", "optional"])?,
        "doom" => {
            r.doom_sixes = match value {
                crate::specfile::Value::Str(s) if s == "off" => None,
                v => Some(whole(v, 1.0, 6.0).map_err(|e| format!("{e} or \"off\""))? as u8),
            }
        }
        "doom-wipes" => r.doom_wipes = parse_word(&value.text(), &["turn", "bank"])?,
        "six-dice-no-score" => r.six_dice_no_score = or_off(value)?,
        "min-bank" => r.min_bank = whole(value, 0.0, 1_000_000.0)? as u32,
        "farkle-penalty" => {
            let text = value.text();
            r.farkle_penalty = if text == "off" {
                None
            } else {
                let bad =
                    || format!("expected \"K:P\" (e.g. \"3:500\") or \"off\", found '{text}'");
                let (k, p) = text.split_once(':').ok_or_else(bad)?;
                let k: u8 = k.trim().parse().map_err(|_| bad())?;
                let p: u32 = p.trim().parse().map_err(|_| bad())?;
                if k == 0 || k > 20 {
                    return Err(bad());
                }
                Some((k, p))
            }
        }
        "target" => r.target = whole(value, 1.0, MAX_TARGET as f64)? as u64,
        "end" => r.end = parse_word(&value.text(), &["finish-round", "immediate"])?,
        other => return Err(crate::specfile::unknown_rule(other, TABLE_KEYS)),
    }
    Ok(())
}

/// The kebab-case name of a setting's value (as on the command line).
pub fn kebab<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|j| j.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_validate_and_have_a_point_unit() {
        for p in [DoomPreset::Seed, DoomPreset::S2Common, DoomPreset::Zilch] {
            let r = DoomRules::preset(p);
            r.validate().unwrap();
            assert_eq!(r.unit(), 50);
        }
    }

    #[test]
    fn impossible_rules_are_rejected_with_the_setting_named() {
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.doom_sixes = Some(7);
        assert!(r.validate().unwrap_err().contains("--doom 7"));
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.min_bank = 200_000;
        assert!(r.validate().unwrap_err().contains("--min-bank"));
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.single_five = 0;
        assert!(r.validate().is_err());
    }
}
