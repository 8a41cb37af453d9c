//! rtplab: Monte Carlo strategy simulation and exact return-to-player analysis.
//!
//! The binary (`src/main.rs`) only parses arguments and calls into this library.

/// `say!(...)`: a line on standard error, as `eprintln!` but never failing: a standard error
/// that cannot be written (closed, full, past a file-size limit) is ignored
/// ([`door::say`]).
#[macro_export]
macro_rules! say {
    ($($t:tt)*) => {
        $crate::door::say(&format!($($t)*))
    };
}

pub mod audit;
pub mod cards;
pub mod check;
pub mod compare;
pub mod door;
pub mod engine;
pub mod game;
pub mod games;
pub mod histogram;
pub mod job;
pub mod logfile;
pub mod merge;
pub mod monitor;
pub mod numparse;
pub mod progress;
pub mod report;
pub mod risk;
pub mod rng;
pub mod shard;
pub mod shuffle;
pub mod sidebet;
pub mod specfile;
pub mod stats;
pub mod study;
pub mod sums;
pub mod web;

/// The tool's version, carried by every report.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
