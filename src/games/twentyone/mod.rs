//! Twenty One: the roll-and-write dice game of docs/rules.md §2.

pub mod advise;
pub mod exact;
pub mod game;
pub mod jobs;
pub mod report;
pub mod row;
pub mod rules;
pub mod sim;
pub mod strategy;

pub use game::TwentyOne;

crate::job::carried!(TwentyOneError, advise::TwentyOneAdviseError);

/// Errors of Twenty One runs, sweeps and merges; each message says what to change.
#[derive(Debug, thiserror::Error)]
pub enum TwentyOneError {
    /// Rules that do not validate (the message of `TwentyOneRules::validate`).
    #[error("{0}")]
    Rules(String),
    /// A seat strategy that does not parse (the message of `SeatStrategy::parse`).
    #[error("{0}")]
    Strategy(String),
    #[error("--games {0}: must be between 1 and 10^12")]
    Games(u64),
    #[error("--start-seat {seat}: there are only {seats} seats")]
    StartSeat { seat: usize, seats: usize },
    #[error("--sweep-c needs at least one cost")]
    SweepEmpty,
    #[error("--sweep-c runs several games tables; it cannot be sharded (leave out --shard, --shards and --shard-out)")]
    SweepSharded,
    #[error(transparent)]
    Run(#[from] crate::game::RunError),
}
