//! `rtplab study FILE.toml`: a grid of runs in one file (docs/study.md).

use std::path::PathBuf;

use clap::Args;

use super::{heading, parse_threads};

/// `rtplab study`.
#[derive(Args, Debug)]
pub struct StudyArgs {
    /// The study file: game, [run], [grid] and [[rows]] (docs/study.md).
    #[arg(value_name = "FILE")]
    pub study_file: PathBuf,
    /// The study folder (made if missing): each cell kept as it ends, then the results, plots
    /// and index.html. A second run in it runs only the cells missing or changed.
    #[arg(long, value_name = "DIR", help_heading = heading::OUTPUT)]
    pub out_dir: Option<PathBuf>,
    /// Print the cells, which are kept, and the estimated time (a pilot of 20,000 rounds of
    /// the first cell to run); run nothing else.
    #[arg(long, help_heading = heading::RUN)]
    pub dry_run: bool,
    /// Run only shard K of N: cells K, K+N, K+2N, ... (an array task); kept in --out-dir.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, help_heading = heading::RUN)]
    pub shard: Option<(usize, usize)>,
    /// Print the plan of an array of N shards (the commands of each task and of the merge).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000),
          conflicts_with_all = ["shard", "dry_run"], help_heading = heading::RUN)]
    pub shards: Option<u32>,
    /// Shards' study folders whose kept cells this run takes (copied into --out-dir).
    #[arg(long, value_name = "DIR", num_args = 1.., help_heading = heading::RUN)]
    pub cells_from: Vec<PathBuf>,
    /// Every cell's rounds replaced by N (a reduced run of the same study; cells of another
    /// size are kept apart).
    #[arg(long, value_name = "N", help_heading = heading::RUN)]
    pub rounds: Option<String>,
    /// Worker threads of each cell's run (default: one per core).
    #[arg(long, value_parser = parse_threads, help_heading = heading::RUN)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub quiet: super::QuietArgs,
}

/// `K/N` with 1 <= K <= N.
fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected K/N with 1 <= K <= N, e.g. 2/8, found '{s}'");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

impl From<&StudyArgs> for rtplab::study::StudyJob {
    fn from(a: &StudyArgs) -> Self {
        rtplab::study::StudyJob {
            file: a.study_file.clone(),
            out_dir: a.out_dir.clone(),
            dry_run: a.dry_run,
            shard: a.shard,
            shards: a.shards.map(|n| n as usize),
            cells_from: a.cells_from.clone(),
            rounds: a.rounds.clone(),
        }
    }
}
