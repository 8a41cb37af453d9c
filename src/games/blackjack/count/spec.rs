//! A counting run's request: the system, its true count, the ramp, wonging, indices and the
//! bankroll, validated.

use serde::{Deserialize, Serialize};

use super::super::indices::IndexSet;
use super::{CountError, CountSystem, Ramp, TcMode, TcRounding, MAX_UNITS};

/// A counting run's request: the system, how it becomes a true count, the ramp, wonging.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CountSpec {
    pub system: CountSystem,
    pub ramp: Ramp,
    pub true_count: TcMode,
    pub rounding: TcRounding,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wong_in: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wong_out: Option<i32>,
    /// Entries a back-counter makes in one shoe (`None`: no limit, it re-enters whenever the
    /// count allows; `Some(1)`: once out, it stays out until the shuffle). A file without the
    /// field was written before re-entry existed, when every back-counter entered once.
    #[serde(default = "one_entry", skip_serializing_if = "is_one_entry")]
    pub max_entries: Option<u32>,
    /// A back-counter enters only at the first round after a shuffle (once out, it waits for
    /// the next shoe).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_mid_shoe_entry: bool,
    /// The chance that the counter miscounts a card it sees: it adds the card's tag ± one
    /// count unit (each half the time), an error that stays in its running count until the
    /// shuffle (absent: no miscounts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub miscount: Option<f64>,
    /// Index plays: deviations from the chart at counts (absent: the chart as it is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indices: Option<IndexSet>,
    /// An ace side count for betting: the bet's running count gains `ace_side` (in count
    /// units) for each ace left beyond one in 13 of the cards left (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ace_side: Option<i32>,
    /// The table maximum, in table minimums (the ramp may not bet more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_max: Option<u32>,
    /// Also watch the pairs bet with perfect knowledge of the ranks left (the operator's
    /// worst case for that bet): rounds where its exact EV is 0 or more, and their outcomes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pairs_exposure: bool,
    /// The counter bets its seats beyond the first only at counts at or above this (absent:
    /// every seat alike).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spots_at: Option<i32>,
    /// Bankroll paths: the ruin of trips starting with this bankroll (absent: none kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bankroll: Option<Bankroll>,
    /// Cover plays (`--cover`; absent: none).
    #[serde(default, skip_serializing_if = "super::Cover::is_none")]
    pub cover: super::Cover,
    /// Report-only settings (not part of a run's identity).
    #[serde(default, skip_serializing_if = "CountLabels::is_empty")]
    pub labels: CountLabels,
}

fn one_entry() -> Option<u32> {
    Some(1)
}

fn is_one_entry(e: &Option<u32>) -> bool {
    *e == Some(1)
}

/// Bankroll paths: each trip starts with `units` table minimums and plays `trip_rounds`
/// rounds (rounds the counter bets; wonged-out rounds cost nothing); it is ruined when its
/// bankroll falls to 0 or below.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bankroll {
    pub units: u64,
    pub trip_rounds: u64,
}

/// Most bankroll units and trip rounds.
pub const MAX_BANKROLL: u64 = 1_000_000_000;
pub const MAX_TRIP_ROUNDS: u64 = 100_000_000;
/// Rows of the ruin curve (each `trip_rounds / RUIN_BINS` rounds).
pub const RUIN_BINS: usize = 100;

/// Settings that change a counting report, not its sums.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CountLabels {
    /// Rounds dealt per hour at the table (for hourly figures; `DEFAULT_ROUNDS_PER_HOUR`
    /// without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds_per_hour: Option<f64>,
    /// The lifetime risk of ruin to find the bankroll for (`--target-ror`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_ror: Option<f64>,
    /// The Kelly multiple of the certainty equivalent at `--bankroll` (`--kelly`, default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kelly: Option<f64>,
}

/// Rounds dealt per hour when `--rounds-per-hour` is not given.
pub const DEFAULT_ROUNDS_PER_HOUR: f64 = 100.0;

impl CountLabels {
    pub fn is_empty(&self) -> bool {
        self.rounds_per_hour.is_none() && self.target_ror.is_none() && self.kelly.is_none()
    }
}

impl CountSpec {
    pub fn validate(&self) -> Result<(), CountError> {
        if self.ramp.0.is_empty() {
            return Err(CountError::Ramp(String::new(), "no entries".into()));
        }
        if self.ramp.max() > MAX_UNITS || self.ramp.max() == 0 {
            return Err(CountError::Ramp(self.ramp.to_string(), "bad units".into()));
        }
        if self.system.scale == 0 || self.system.tags.iter().all(|&t| t == 0) {
            return Err(CountError::Option(format!(
                "the count {} has no tags",
                self.system.label
            )));
        }
        if let (Some(win), Some(out)) = (self.wong_in, self.wong_out) {
            if out > win {
                return Err(CountError::WongOrder { win, out });
            }
        }
        self.validate_entries()?;
        if let Some(p) = self.miscount {
            if !(0.0..=1.0).contains(&p) {
                return Err(CountError::Option(format!(
                    "--miscount {p}: expected a chance from 0 to 1 that a card is miscounted (0.01: one card in a hundred)"
                )));
            }
        }
        if let Some(ix) = &self.indices {
            ix.validate()
                .map_err(|e| CountError::Option(e.to_string()))?;
        }
        if let Some(max) = self.table_max {
            if let Some(&(c, u)) = self.ramp.0.iter().find(|e| e.1 > max) {
                return Err(CountError::Option(format!(
                    "--ramp bets {u} units at count {c}, above --table-max {max}: lower the ramp or raise the maximum"
                )));
            }
        }
        if let Some(w) = self.ace_side {
            if !(-10..=10).contains(&w) || w == 0 {
                return Err(CountError::Option(format!(
                    "--ace-side {w}: expected a weight from 1 to 10 (count units per extra ace)"
                )));
            }
            // An ace side count is for counts that leave the ace out of the main count
            // (Hi-Opt I and II, Omega II); one that tags it would count each ace twice.
            let ace = self.system.tags[0];
            if ace != 0 {
                return Err(CountError::Option(format!(
                    "--ace-side: {} already tags the ace ({}), so a side count would count each ace twice; use it with a count that tags the ace 0 (hi-opt-1, hi-opt-2, omega-2)",
                    self.system.label,
                    ace as f64 / self.system.scale as f64
                )));
            }
        }
        if let Some(b) = self.bankroll {
            if b.units == 0 || b.units > MAX_BANKROLL {
                return Err(CountError::Option(format!(
                    "--bankroll {}: expected 1 to {MAX_BANKROLL} table minimums",
                    b.units
                )));
            }
            if b.trip_rounds == 0 || b.trip_rounds > MAX_TRIP_ROUNDS {
                return Err(CountError::Option(format!(
                    "--trip-rounds {}: expected 1 to {MAX_TRIP_ROUNDS} rounds",
                    b.trip_rounds
                )));
            }
        }
        if let Some(r) = self.labels.rounds_per_hour {
            if !(r > 0.0 && r <= 10_000.0) {
                return Err(CountError::Option(format!(
                    "--rounds-per-hour {r}: expected more than 0 and at most 10000"
                )));
            }
        }
        Ok(())
    }

    /// Entries: at least one a shoe, and one only without mid-shoe entry.
    fn validate_entries(&self) -> Result<(), CountError> {
        if self.max_entries == Some(0) {
            return Err(CountError::Option(
                "--max-entries 0: expected 1 or more entries a shoe (leave it out for no limit)"
                    .into(),
            ));
        }
        if self.no_mid_shoe_entry && self.max_entries != Some(1) {
            return Err(CountError::Option(
                "--no-mid-shoe-entry allows one entry a shoe (at its first round): leave out --max-entries, or give it as 1".into(),
            ));
        }
        Ok(())
    }

    /// Whether the counter back-counts: it sits out some rounds (--wong-in, --wong-out, or a
    /// ramp that bets 0 at some counts).
    pub fn back_counts(&self) -> bool {
        self.wong_in.is_some() || self.wong_out.is_some() || self.ramp.sits_out()
    }

    /// What the bets are keyed on: the true count of a balanced system, the running count of
    /// an unbalanced one.
    pub fn key_name(&self) -> &'static str {
        if self.system.balanced() {
            "true count"
        } else {
            "running count"
        }
    }

    /// One line for reports.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{} ({}), ramp {}",
            self.system.label,
            if self.system.balanced() {
                let m = match self.true_count {
                    TcMode::Exact => "exactly",
                    TcMode::HalfDeck => "to the half deck",
                    TcMode::FullDeck => "to the whole deck",
                };
                let r = match self.rounding {
                    TcRounding::Floor => "floor",
                    TcRounding::Truncate => "truncate",
                    TcRounding::Nearest => "nearest",
                };
                format!("true count: decks left {m}, {r}")
            } else {
                "unbalanced: bets on the running count".into()
            },
            self.ramp
        );
        s += &self.describe_entries();
        if let Some(p) = self.miscount {
            s += &format!(", miscounting {}% of cards by one unit", 100.0 * p);
        }
        if let Some(ix) = &self.indices {
            // The cover's dropped entries (the splits of tens) are not played.
            let dropped = match self.cover.no_ten_split {
                true => ix.entries.iter().filter(|e| super::cover_drops(e)).count(),
                false => 0,
            };
            match dropped {
                0 => s += &format!(", index plays {} ({} entries)", ix.label, ix.entries.len()),
                d => {
                    s += &format!(
                        ", index plays {} ({} entries, {d} dropped by the cover)",
                        ix.label,
                        ix.entries.len() - d
                    )
                }
            }
        }
        if let Some(x) = self.spots_at {
            s += &format!(", more spots at {x} or above");
        }
        if let Some(w) = self.ace_side {
            s += &format!(", ace side count {w:+} per extra ace for betting");
        }
        if !self.cover.is_none() {
            s += &format!(", cover: {}", self.cover.describe());
        }
        s
    }

    /// Where a back-counter plays, for `describe`.
    fn describe_entries(&self) -> String {
        let mut s = String::new();
        if let Some(w) = self.wong_in {
            s += &format!(", wong in at {w}");
        }
        if self.ramp.sits_out() {
            s += ", sitting out where the ramp bets 0";
        }
        if let Some(w) = self.wong_out.or(self.wong_in) {
            s += &format!(", wong out below {w}");
        }
        if self.back_counts() {
            s += match (self.no_mid_shoe_entry, self.max_entries) {
                (true, _) => ", entering only at a shoe's first round",
                (false, Some(1)) if self.wong_out.or(self.wong_in).is_some() => {
                    " until the shuffle"
                }
                (false, Some(1)) => ", one entry a shoe",
                (false, None) => ", re-entering in the same shoe",
                (false, Some(_)) => "",
            };
            if let (false, Some(n @ 2..)) = (self.no_mid_shoe_entry, self.max_entries) {
                s += &format!(", at most {n} entries a shoe");
            }
        }
        s
    }
}
