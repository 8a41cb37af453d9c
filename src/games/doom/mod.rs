//! Dice of Doom: the Farkle variant of docs/rules.md §3, and the public Farkle rule sets.

pub mod advise;
pub mod audit;
pub mod exact;
pub mod game;
pub mod jobs;
pub mod model;
pub mod reach;
pub mod report;
pub mod rules;
pub mod score;
pub mod sim;
pub mod strategy;
pub mod win;

pub use game::Doom;

use sim::MAX_ROUNDS;

crate::job::carried!(
    DoomError,
    advise::DoomAdviseError,
    win::WinError,
    report::SmallError
);

/// Errors of Dice of Doom runs and merges; each message says what to change.
#[derive(Debug, thiserror::Error)]
pub enum DoomError {
    /// Rules that do not validate (the message of `DoomRules::validate`).
    #[error("{0}")]
    Rules(String),
    /// A strategy that does not parse (the message of `DoomStrategy::parse`).
    #[error("{0}")]
    Strategy(String),
    #[error("{what} {n}: must be between 1 and 10^12")]
    Count { what: &'static str, n: u64 },
    #[error("{}: a game needs 2 to 8 players (--players N or one --seat per player)", crate::report::plural(*.0 as u64, "seat"))]
    Seats(usize),
    #[error("--start-seat {seat}: there are only {seats} seats")]
    StartSeat { seat: usize, seats: usize },
    #[error(
        "--target {target}: games could not finish within the limit of {MAX_ROUNDS} rounds per game. \
         The best seat ({best}) scores {g:.1} points per turn on average, {need}. With these seats \
         and rules the largest target is {largest:.0} points (half the limit's reach, so that no game \
         is cut short); lower --target or choose seats that score more per turn.",
        MAX_ROUNDS = MAX_ROUNDS
    )]
    Unreachable {
        target: u64,
        best: String,
        g: f64,
        need: String,
        largest: f64,
    },
    #[error(
        "{unfinished} of {games} games did not finish: no one reached --target {target} within the limit of \
         {MAX_ROUNDS} rounds per game (for example because doom wipes the bank or a farkle \
         penalty keeps totals down), so there are no win rates or final scores to report. \
         Lower --target or change the rules or seats.",
        MAX_ROUNDS = MAX_ROUNDS
    )]
    Unfinished {
        unfinished: u64,
        games: u64,
        target: u64,
    },
    /// The two-player solve a win-seeking seat needs, stopped by a signal (the message says
    /// where its progress is kept).
    #[error(transparent)]
    Solve(win::WinError),
    #[error(transparent)]
    Run(#[from] crate::game::RunError),
}
