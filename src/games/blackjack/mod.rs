//! Blackjack: the live table "廿一點" and every variation of its rules.

pub mod advise;
pub mod audit;
pub mod bets;
pub mod card;
pub mod count;
pub mod derive;
pub mod distribution;
pub mod exact;
pub mod exact_report;
pub mod game;
pub mod hand;
pub mod index_check;
pub mod indices;
pub mod jobs;
pub mod kept;
pub mod log;
pub mod metrics;
pub mod mistakes;
pub mod ramp;
pub mod report;
pub mod resolve;
pub mod round;
pub mod rules;
pub mod seats;
pub mod sidebets;
pub mod sim;
pub mod strategy;
pub mod team;
pub mod verify;

pub use game::{BjConfig, Blackjack};

/// The most one round returns per amount wagered under `rules`. A round's return over its total
/// wagered is at most the largest return per unit staked of any wager in it: a natural at the
/// rules' payout (2.5 at 3:2), a won hand, doubled or split (2), insurance at 2:1 (3) and the
/// table's pairs side bet at 11:1 (12). Reports state it and `monitor` refuses a period that
/// returned more.
pub fn max_return_per_wagered(rules: &rules::Rules) -> f64 {
    let natural = 1.0 + rules.bj_win_units() as f64 / rules.units_per_bet() as f64;
    let (won, insurance, pairs) = (2.0, 3.0, 12.0);
    [natural, won, insurance, pairs]
        .into_iter()
        .fold(0.0, f64::max)
}

/// Blackjack's reading of its reports for `monitor`: the bound on a round's return from the
/// rules the report (a simulation's or a dossier's) states.
pub const MONITOR: crate::monitor::Reader = crate::monitor::Reader {
    game: "blackjack",
    figures: None,
    max_return: stated_max_return,
};

/// The bound on a round's return under the rules a report states.
fn stated_max_return(v: &serde_json::Value) -> Result<f64, serde_json::Error> {
    #[derive(serde::Deserialize)]
    struct Stated {
        rules: rules::Rules,
    }
    let stated: Stated = serde::Deserialize::deserialize(v)?;
    Ok(max_return_per_wagered(&stated.rules))
}

crate::job::carried!(
    BjError,
    advise::AdviseError,
    derive::IndexGenError,
    bets::BetsError
);

/// Errors of blackjack runs, merges and comparisons; each message says what to change.
#[derive(Debug, thiserror::Error)]
pub enum BjError {
    #[error(transparent)]
    Rules(#[from] rules::RulesError),
    #[error(transparent)]
    Chart(#[from] strategy::ChartError),
    #[error(transparent)]
    RunSize(#[from] sim::RunSizeError),
    #[error(transparent)]
    Count(#[from] count::CountError),
    #[error(transparent)]
    Run(#[from] crate::game::RunError),
    #[error(transparent)]
    Side(#[from] crate::sidebet::SideBetError),
    #[error(transparent)]
    Seat(#[from] seats::SeatError),
    #[error("unknown strategy '{0}': expected basic, autoplay, mimic-dealer, never-bust, or the path of a chart file (see strategies/README.md)")]
    UnknownStrategy(String),
    #[error("the shard files' sums are impossible (a histogram of results from {lo} to {hi} units; these rules have -{off} to {off}); re-run the shards")]
    HistogramRoom { lo: i64, hi: i64, off: i64 },
    #[error("--rounds {0}: must be between 1 and 10^16")]
    Rounds(u64),
    #[error("--max-hands {0}: the exact analysis resplits to at most 4 hands; simulate these rules (`rtplab sim blackjack`) or analyse them with --max-hands 4")]
    ExactHands(u8),
}
