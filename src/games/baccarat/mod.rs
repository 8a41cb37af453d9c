//! Baccarat (punto banco): the eight-deck table, its third-card tableau, every bet, exact
//! analysis and simulation with pluggable bettors. See docs/rules.md §Baccarat.

pub mod bet;
pub mod coup;
pub mod exact;
pub mod exact_report;
pub mod game;
pub mod jobs;
pub mod log;
pub mod monitor;
pub mod report;
pub mod rules;
pub mod sidebets;
pub mod sim;
pub mod verify;

pub use game::{BacConfig, Baccarat};

crate::job::carried!(BacError);

/// Errors of baccarat runs and merges; each message says what to change.
#[derive(Debug, thiserror::Error)]
pub enum BacError {
    /// Rules that do not validate (the message of `BacRules::validate`).
    #[error("{0}")]
    Rules(String),
    /// A bet strategy that does not parse, or stakes that do not fit the table.
    #[error("{0}")]
    Bet(String),
    #[error("--coups {0}: must be between 1 and 10^15")]
    Coups(u64),
    #[error("--chunk-shoes {chunk}: more than the {sessions} shoes of the run; use {sessions} or less (or leave it out)")]
    ChunkTooLarge { chunk: u64, sessions: u64 },
    #[error(transparent)]
    Run(#[from] crate::game::RunError),
    #[error(transparent)]
    Side(#[from] crate::sidebet::SideBetError),
    /// A round log that cannot be read (the message names the line and the field).
    #[error(transparent)]
    Log(#[from] crate::logfile::LogError),
}
