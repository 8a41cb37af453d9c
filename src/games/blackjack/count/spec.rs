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
    /// Report-only settings (not part of a run's identity).
    #[serde(default, skip_serializing_if = "CountLabels::is_empty")]
    pub labels: CountLabels,
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
        if self.ramp.max() > MAX_UNITS || self.ramp.0.iter().any(|e| e.1 == 0) {
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
        if let Some(w) = self.wong_in {
            s += &format!(", wong in at {w}");
        }
        if let Some(w) = self.wong_out.or(self.wong_in) {
            s += &format!(", wong out below {w} until the shuffle");
        }
        if let Some(ix) = &self.indices {
            s += &format!(", index plays {} ({} entries)", ix.label, ix.entries.len());
        }
        if let Some(x) = self.spots_at {
            s += &format!(", more spots at {x} or above");
        }
        if let Some(w) = self.ace_side {
            s += &format!(", ace side count {w:+} per extra ace for betting");
        }
        s
    }
}
