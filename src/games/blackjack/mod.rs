//! Blackjack: the live table "廿一點" and every variation of its rules.

pub mod advise;
pub mod audit;
pub mod count;
pub mod derive;
pub mod distribution;
pub mod exact;
pub mod exact_report;
pub mod game;
pub mod hand;
pub mod indices;
pub mod jobs;
pub mod ramp;
pub mod report;
pub mod resolve;
pub mod round;
pub mod rules;
pub mod shoe;
pub mod sim;
pub mod strategy;

pub use game::{BjConfig, Blackjack};

/// The most one round returns per amount wagered at this table: the pairs side bet's 11:1 and
/// its stake, 12. Every other bet returns less (a natural at 3:2 returns 2.5 per stake,
/// insurance at 2:1 3, a doubled or split hand 2). `monitor` refuses a period that returned
/// more.
pub const MAX_RETURN_PER_WAGERED: f64 = 12.0;

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
    Engine(#[from] crate::engine::EngineError),
    #[error(transparent)]
    Run(#[from] crate::game::RunError),
    #[error(transparent)]
    Shard(#[from] crate::shard::ShardError),
    #[error("unknown strategy '{0}': expected basic, autoplay, mimic-dealer, never-bust, or the path of a chart file (see strategies/README.md)")]
    UnknownStrategy(String),
    #[error("the shard files' sums are impossible (a histogram of {len} results; these rules have {bins}); re-run the shards")]
    HistogramLength { len: usize, bins: usize },
    #[error("--rounds {0}: must be between 1 and 10^16")]
    Rounds(u64),
    #[error("--max-hands {0}: the exact analysis resplits to at most 4 hands; simulate these rules (`rtplab sim blackjack`) or analyse them with --max-hands 4")]
    ExactHands(u8),
}
