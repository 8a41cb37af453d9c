//! A whole game in one file: the worked example of adding a game, and the game the run
//! path's own tests play (compiled with the tests only).
//!
//! A fair coin is flipped `flips` times; the headline is the share of heads (expected 0.5).
//! Copy this file to `src/games/<game>/` and replace each part, in this order; a part left
//! out does not compile:
//!
//! 1. the run request (`CoinConfig`: serde, since it is part of every shard key), checked in
//!    `Game::validate` — every way in (command line, baseline file, shard key) passes there;
//! 2. the run's sums (`CoinAcc`), declared with `sums!`: each field with its bound, so a
//!    field that is not merged and bounded does not compile;
//! 3. the simulation of one chunk (`CoinSim`: `engine::Simulation`), drawing only from the
//!    chunk's own stream, so a run is the same for any thread count and any split into shards;
//! 4. the plan (`CoinPlan`: `Chunks`), made with the run in `Game::prepare`;
//! 5. the error (`CoinError`, holding `RunError` for the run path's errors; a real game also
//!    says `crate::job::carried!(ItsError)` beside it);
//! 6. `impl Game`: the headline (what `check` tests and `compare` pairs), the report and
//!    plots (a real game computes a report model, then renders it: see
//!    `games/baccarat/report.rs`, the smallest real one);
//! 7. the baseline of `check` (`CoinBaseline`), with the exact expected value.
//!
//! Then register it: one `Entry::of::<ItsGame>()` line in `src/cli/registry.rs`, its folder
//! in `ORDER` of `tests/it/layering.rs`, `pub mod` in `src/games/mod.rs`, and its command-line
//! arguments in `src/cli/<game>.rs` (ARCHITECTURE.md, "Checklist: adding a game").

use serde::{Deserialize, Serialize};

use super::{
    three_decimals, Baseline, Chunks, Expected, Game, Headline, HeadlineKind, Label, Prepared, Run,
    RunError,
};
use crate::engine::Simulation;
use crate::report::{PlotError, Report};
use crate::rng::RngCore;
use crate::stats::Ratio;

/// The game: a type that names it.
pub(crate) struct Coin;

/// 1. The run request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct CoinConfig {
    pub flips: u64,
    /// A name for reports only: fields named `label` are not part of a run's identity.
    pub label: String,
}

crate::sums::sums! {
    /// 2. The run's sums: integers that merge exactly, whatever the chunks' order.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
    pub(crate) struct CoinAcc {
        pub flips: u64 => unbounded("a run flips any number of coins"),
        pub heads: u64 => at_most(c.flips, "flips"),
        /// The share of heads, one batch per chunk (its SE by batch means).
        pub share: Ratio => ratio("share of heads", 1, 1, true),
    }
    bounds(c)
}

/// 3. The simulation: chunk `c` flips coins `c·per_chunk ..` from its own stream.
pub(crate) struct CoinSim {
    flips: u64,
    per_chunk: u64,
}

impl Simulation for CoinSim {
    type Acc = CoinAcc;
    fn run_chunk(&self, chunk: u64, rng: &mut crate::rng::Rng, acc: &mut CoinAcc) {
        let n = self
            .per_chunk
            .min(self.flips.saturating_sub(chunk * self.per_chunk));
        let mut heads = 0;
        for _ in 0..n {
            heads += rng.next_u64() >> 63;
        }
        acc.heads += heads;
        acc.flips += n;
        let b = crate::stats::Batch {
            x: heads as i64,
            y: n as i64,
            xx: heads as i64,
        };
        acc.share.close(&b, n);
    }
}

/// 4. The plan: how the run maps onto chunks (part of the shard key).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct CoinPlan {
    pub per_chunk: u64,
    pub chunks: u64,
}

impl Chunks for CoinPlan {
    fn chunks(&self) -> u64 {
        self.chunks
    }
    fn chunk_size(&self) -> u64 {
        self.per_chunk
    }
}

/// 5. The error: the game's own, and the run path's.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CoinError {
    #[error("--flips 0: flip at least one coin")]
    NoFlips,
    #[error(transparent)]
    Run(#[from] RunError),
}

/// 6. The game.
impl Game for Coin {
    const NAME: &'static str = "coin";
    type Config = CoinConfig;
    type Plan = CoinPlan;
    type Acc = CoinAcc;
    type Error = CoinError;
    type Baseline = CoinBaseline;

    fn headline_kind(_cfg: &CoinConfig) -> HeadlineKind {
        HeadlineKind {
            what: "share of heads",
            unit: "fraction",
            format: three_decimals,
            claims: false,
            score: false,
            scale: 1.0,
        }
    }
    fn headline(_cfg: &CoinConfig, acc: &CoinAcc) -> Headline {
        Headline {
            ratio: acc.share,
            count: acc.flips,
        }
    }
    fn label(cfg: &CoinConfig) -> Label {
        Label {
            name: format!("coin of {}", cfg.flips),
            hash: None,
        }
    }
    fn chunk_unit(_cfg: &CoinConfig) -> &'static str {
        "flips"
    }
    fn rules_line(_cfg: &CoinConfig) -> String {
        "a fair coin".into()
    }

    fn validate(cfg: &CoinConfig) -> Result<(), CoinError> {
        if cfg.flips == 0 {
            return Err(CoinError::NoFlips);
        }
        Ok(())
    }
    fn prepare(
        cfg: &CoinConfig,
        _seed: u64,
        chunk: Option<u64>,
        _shards: u64,
    ) -> Result<Prepared<Coin>, CoinError> {
        let per_chunk = chunk.unwrap_or(100);
        let sim = CoinSim {
            flips: cfg.flips,
            per_chunk,
        };
        let plan = CoinPlan {
            per_chunk,
            chunks: super::chunk_count(cfg.flips, per_chunk),
        };
        Ok((plan, Box::new(sim)))
    }
    fn report(run: &Run<Coin>, _claim: Option<f64>) -> Result<Report, CoinError> {
        Ok(Report {
            title: format!("{} heads of {}", run.acc.heads, run.acc.flips),
            ..Report::default()
        })
    }
    fn plots(_run: &Run<Coin>, _claim: Option<f64>) -> Result<Vec<(String, String)>, PlotError> {
        Ok(Vec::new())
    }
}

/// 7. The baseline of `check`: a small fixed run and its exact expected value.
#[derive(Serialize, Deserialize)]
pub(crate) struct CoinBaseline {
    pub flips: u64,
}

impl Baseline<Coin> for CoinBaseline {
    fn run(&self) -> Result<(CoinConfig, u64), CoinError> {
        let cfg = CoinConfig {
            flips: self.flips,
            label: String::new(),
        };
        Ok((cfg, 50))
    }
    fn sums(acc: &CoinAcc) -> serde_json::Value {
        serde_json::to_value(acc).unwrap_or_default()
    }
    fn expected(_cfg: &CoinConfig) -> Result<Option<Expected>, CoinError> {
        Ok(Some(Expected {
            ev: 0.5,
            source: "a fair coin".into(),
        }))
    }
}
