//! The argument groups the commands share: output format and files, the run's seed, threads
//! and shards.

use std::path::PathBuf;

use clap::Args;

use super::{heading, parse_interval, parse_positive, parse_seed, parse_threads};
use rtplab::job::Outputs;

/// Output formats (`rtplab::report::Format` on the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned text tables, for reading.
    Table,
    /// Markdown tables (also spelled md).
    #[value(alias = "md")]
    Markdown,
    /// section,row,column,value,unit lines; raw numbers, a percentage as its fraction.
    Csv,
    /// The machine contract (keys in docs/reports.md); fractions, not percents.
    Json,
    /// One self-contained HTML page (with --out-dir, report.html also has the plots).
    Html,
}

impl From<Format> for rtplab::report::Format {
    fn from(f: Format) -> Self {
        match f {
            Format::Table => Self::Table,
            Format::Markdown => Self::Markdown,
            Format::Csv => Self::Csv,
            Format::Json => Self::Json,
            Format::Html => Self::Html,
        }
    }
}

/// Seed, threads and progress of a run (every game; a comparison has only these: it runs in
/// one process).
#[derive(Args, Debug)]
#[command(next_help_heading = heading::RUN)]
pub struct RunCommon {
    /// Seed of the random streams; the same seed gives the same result for any --threads.
    ///
    /// Every chunk of the run draws from its own stream, derived from the seed and the chunk's
    /// number, so the numbers depend on the seed and the run's settings only: not on the
    /// thread count, the machine or the sharding. A whole number from 0 to 2^64 - 1.
    #[arg(long, default_value_t = 1, value_parser = parse_seed)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    ///
    /// From 1 to 1024. The results are the same for any thread count.
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

impl RunCommon {
    /// The specification of a run in one process, unsharded (compare). Refused inside an
    /// array or indexed job (the variables that select a shard), whose every task would run
    /// all of it.
    pub fn spec(&self) -> Result<rtplab::game::RunSpec, rtplab::shard::ShardError> {
        for k in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"] {
            if let Ok(v) = std::env::var(k) {
                return Err(rtplab::shard::ShardError::Env(format!(
                    "{k}={v} is set (an array or indexed job), but {}: every task would run all of it; run compare as a single job",
                    rtplab::game::COMPARE_IN_ONE_PROCESS
                )));
            }
        }
        Ok(self.run_spec(None, None, None, None))
    }

    fn run_spec(
        &self,
        chunk: Option<u64>,
        shard: Option<rtplab::shard::ShardSpec>,
        shard_out: Option<PathBuf>,
        checkpoint: Option<std::time::Duration>,
    ) -> rtplab::game::RunSpec {
        rtplab::game::RunSpec {
            seed: self.seed,
            threads: self.threads,
            chunk,
            shard,
            shard_out,
            progress: !self.quiet,
            checkpoint,
            label: None,
        }
    }
}

/// `-q/--quiet` for the commands without a run's options (every command accepts it).
#[derive(Args, Debug, Clone, Copy, Default)]
#[command(next_help_heading = heading::RUN)]
pub struct QuietArgs {
    /// No progress bar (standard error stays silent but for warnings and errors).
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--side`: side bets from paytables (blackjack and baccarat).
#[derive(Args, Debug, Clone, Default)]
pub struct SideArgs {
    /// Place a side bet: a built-in table's name or a paytable file, with an optional stake
    /// after ':' in units of the main bet (default 1). Repeat for several.
    ///
    /// Blackjack: 21+3 (the Vegas table 100/40/30/10/5), 21+3-classic (9 to 1), perfect-pairs
    /// (25/12/6), hot-3, lucky-lucky, lucky-ladies, royal-match, buster-blackjack. Baccarat: dragon-bonus:player,
    /// dragon-bonus:banker, dragon-7, panda-8, either-pair, perfect-pair, lucky-6. A file holds
    /// a table's events and pays (format: docs/side-bets.md). Each wager gets its exact event
    /// table (event, pays, combinations, probability, 1 in N, share of the RTP) and, in a
    /// simulation, its measured RTP beside the exact one with z.
    ///
    /// Example: --side 21+3 --side perfect-pairs:5 --side my-table.toml
    #[arg(help_heading = heading::SIDE_BETS, long = "side", value_name = "NAME[:STAKE]|FILE", num_args = 1)]
    pub side: Vec<String>,
}

impl SideArgs {
    /// The side bets given, resolved at `game`'s table (files read through the door).
    pub fn bets(
        &self,
        game: rtplab::sidebet::Game,
    ) -> anyhow::Result<Vec<rtplab::sidebet::SideBet>> {
        Ok(rtplab::sidebet::SideBet::resolve_all(&self.side, game)?)
    }
}

/// Seed, threads, progress and sharding of a run (every game).
#[derive(Args, Debug)]
#[command(next_help_heading = heading::RUN)]
pub struct RunBase {
    #[command(flatten)]
    pub common: RunCommon,
    /// Run only shard K of N (1-based): a contiguous range of the run's chunks; needs
    /// --shard-out.
    ///
    /// Shards 1..N together are exactly the single-machine run: `rtplab merge` of their
    /// --shard-out files gives the same numbers, to the last digit.
    ///
    /// Without --shard the environment selects the shard: in a Slurm array job,
    /// SLURM_ARRAY_TASK_ID is shard ID - SLURM_ARRAY_TASK_MIN + 1 of SLURM_ARRAY_TASK_COUNT
    /// (or of --shards N when the count is not set); in a Kubernetes Indexed Job,
    /// JOB_COMPLETION_INDEX (0-based) is shard INDEX + 1 of --shards N. Recipes for both are in
    /// deploy/ and docs/cluster.md.
    ///
    /// Example: --shard 3/8 --shard-out shard-3.json
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Number of shards, for JOB_COMPLETION_INDEX (Kubernetes indexed jobs).
    ///
    /// Also the array's size in a Slurm array job that does not set SLURM_ARRAY_TASK_COUNT.
    #[arg(long, value_name = "N", value_parser = parse_positive)]
    pub shards: Option<u64>,
    /// Write this run's (or shard's) exact sums to FILE (JSON) for `rtplab merge`.
    ///
    /// If FILE is an unfinished shard file of this same run and shard (a checkpoint, or a
    /// shard stopped by a signal), the run resumes from it; if it is finished, its report is
    /// printed without recomputing; any other file (another run's or shard's, edited,
    /// truncated) is refused and left as it is: delete it to start the shard over. The file is
    /// written to a temporary file and renamed, so a killed task never leaves half a file.
    #[arg(long, value_name = "FILE")]
    pub shard_out: Option<PathBuf>,
    /// Also save the --shard-out file every INTERVAL while running (e.g. 30s, 5m, 1h, 500ms).
    ///
    /// A number with an optional unit: ms, s (the default: a bare number is seconds), m or
    /// min, h; from 1ms to about 100 days. A run killed without warning then resumes from its
    /// last checkpoint (the chunks done so far) when the same command is run again; at most
    /// one interval of work is lost. SIGTERM and Ctrl-C write the file with or without this
    /// flag.
    #[arg(long, value_name = "INTERVAL", value_parser = parse_interval, requires = "shard_out")]
    pub checkpoint: Option<std::time::Duration>,
}

impl RunBase {
    pub fn shard(&self) -> Result<Option<rtplab::shard::ShardSpec>, rtplab::shard::ShardError> {
        rtplab::shard::ShardSpec::resolve(self.shard.as_deref(), self.shards, |k| {
            std::env::var(k).ok()
        })
    }

    /// The run specification (`chunk`: the game's chunk-size flag, if it has one).
    pub fn spec(
        &self,
        chunk: Option<u64>,
    ) -> Result<rtplab::game::RunSpec, rtplab::shard::ShardError> {
        let shard = self.shard()?;
        if let (Some(s), None) = (shard, &self.shard_out) {
            return Err(rtplab::shard::ShardError::Env(format!(
                "shard {}/{} without --shard-out: its sums would be lost (a shard's report cannot be merged); add --shard-out FILE",
                s.k, s.n
            )));
        }
        Ok(self
            .common
            .run_spec(chunk, shard, self.shard_out.clone(), self.checkpoint))
    }
}

#[derive(Args, Debug)]
#[command(next_help_heading = heading::OUTPUT)]
pub struct OutputArgs {
    /// Report format.
    ///
    /// docs/reports.md describes each format and the JSON keys of every command.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Write the report here instead of standard output (`-` is standard output).
    ///
    /// Checked before any work: a missing folder, a folder, a place that cannot be written,
    /// or a file the command reads (a chart, a log, a shard) is refused at once (exit 2). If
    /// the write still fails at the end, the report goes to standard output instead.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,

    /// Also write every format and the plots into this folder (report.md, report.json,
    /// report.html with the plots inline, one CSV per table, SVG plots).
    ///
    /// The folder is written whole (into a temporary folder renamed into place) with
    /// `.rtplab-files`, the list of the files the report wrote. Refused: a folder that holds
    /// one of the command's inputs, and a folder that is not empty unless --force.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,

    /// With --out-dir: replace a folder that is not empty.
    ///
    /// Only a folder holding an earlier report (with its `.rtplab-files` list): the files the
    /// list names are removed and the new ones written; anything else in the folder (notes,
    /// logs) is left alone unless it has the name of a file the new report writes.
    #[arg(long)]
    pub force: bool,

    /// Print every table whole (the table format); by default the terminal shows the answer
    /// and the main tables, and names what is left out.
    ///
    /// Markdown, CSV, JSON, HTML and the --out-dir files always hold every table.
    #[arg(long)]
    pub full: bool,
}

impl From<&OutputArgs> for Outputs {
    fn from(o: &OutputArgs) -> Outputs {
        Outputs {
            format: o.format.into(),
            output: o.output.clone(),
            out_dir: o.out_dir.clone(),
            force: o.force,
            full: o.full,
        }
    }
}

/// The outputs of a strategy file: `--output` only (standard output without it).
pub fn file_output(output: &Option<PathBuf>) -> Outputs {
    Outputs {
        format: rtplab::report::Format::Table,
        output: output.clone(),
        out_dir: None,
        force: false,
        full: true,
    }
}
