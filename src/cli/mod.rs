//! Command-line types (clap derive) and their conversion into library configurations.
//! Nothing here is passed down into the library as is.

pub mod baccarat;
pub mod blackjack;
pub mod doom;
pub mod twentyone;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use blackjack::{
    AdviseBlackjack, BlackjackAudit, BlackjackCompare, BlackjackExact, BlackjackSim,
    DeriveBlackjack, IndicesBlackjack, RampBlackjack,
};
use doom::AdviseDoom;
use rtplab::job::Outputs;
use rtplab::numparse::parse_count;
use twentyone::AdviseTwentyOne;

/// A combination of arguments that cannot be honoured (exit code 2); the message says what to
/// change.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ArgError(pub String);

impl From<String> for ArgError {
    fn from(s: String) -> Self {
        ArgError(s)
    }
}

impl From<&str> for ArgError {
    fn from(s: &str) -> Self {
        ArgError(s.to_string())
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "rtplab",
    version,
    about = "Monte Carlo strategy simulator and RTP analyzer",
    long_about = "Monte Carlo strategy simulator and RTP (return-to-player) analyzer.\n\n\
Runs are reproducible from --seed whatever the thread count.\n\n\
Examples:\n  rtplab sim blackjack\n  rtplab sim blackjack --strategy autoplay --rounds 200M --claim 99.54\n  \
rtplab sim blackjack --dealer-bj-takes original --pairs 1 --format json"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Parse the command line. Every option takes a negative number as its value (so that
    /// `--rounds -5` is refused by the option's own check, naming the option, instead of
    /// being read as an unknown flag `-5`), and an unknown subcommand's error lists the ones
    /// there are.
    pub fn parse_args(
        args: impl IntoIterator<Item = std::ffi::OsString>,
    ) -> Result<Cli, clap::Error> {
        use clap::{CommandFactory, FromArgMatches};
        fn negatives(cmd: clap::Command) -> clap::Command {
            let names: Vec<String> = cmd
                .get_subcommands()
                .map(|s| s.get_name().to_string())
                .collect();
            let cmd = cmd.mut_args(|a| {
                if a.get_action().takes_values() {
                    a.allow_negative_numbers(true)
                } else {
                    a
                }
            });
            names
                .iter()
                .fold(cmd, |c, n| c.mut_subcommand(n, negatives))
        }
        let args: Vec<std::ffi::OsString> = args.into_iter().collect();
        let mut cmd = negatives(Cli::command());
        let matches = match cmd.try_get_matches_from_mut(args.iter()) {
            Ok(m) => m,
            Err(e) if e.kind() == clap::error::ErrorKind::InvalidSubcommand => {
                // The command whose subcommand was misspelt: follow the names given (`help`
                // names the commands after it: `help sim poker` is about `sim`).
                let mut at = &cmd;
                let mut path = vec![cmd.get_name().to_string()];
                for a in args.iter().skip(1) {
                    match at.find_subcommand(a) {
                        _ if a == "help" => {}
                        Some(sub) => {
                            at = sub;
                            path.push(sub.get_name().to_string());
                        }
                        None if a.to_string_lossy().starts_with('-') => {}
                        None => break,
                    }
                }
                let known: Vec<&str> = at
                    .get_subcommands()
                    .map(|s| s.get_name())
                    .filter(|n| *n != "help")
                    .collect();
                if known.is_empty() {
                    return Err(e);
                }
                let mut e = e;
                e.insert(
                    clap::error::ContextKind::Suggested,
                    clap::error::ContextValue::StyledStrs(vec![format!(
                        "'{}' has: {}",
                        path.join(" "),
                        known.join(", ")
                    )
                    .into()]),
                );
                return Err(e);
            }
            Err(e)
                if e.kind() == clap::error::ErrorKind::UnknownArgument
                    && args.get(1).is_some_and(|a| a == "compare")
                    && matches!(
                        e.get(clap::error::ContextKind::InvalidArg),
                        Some(clap::error::ContextValue::String(a))
                            if ["--shard", "--shards", "--shard-out", "--checkpoint"]
                                .contains(&a.split('=').next().unwrap_or(""))
                    ) =>
            {
                // Said plainly rather than clap's nearest other flag, with the usage of the
                // compare command given.
                let msg = format!(
                    "{} (leave out --shard, --shards, --shard-out and --checkpoint)",
                    rtplab::game::COMPARE_IN_ONE_PROCESS
                );
                let game = args.get(2).and_then(|g| g.to_str()).unwrap_or("");
                let mut at = match cmd
                    .find_subcommand("compare")
                    .and_then(|c| c.find_subcommand(game))
                {
                    Some(g) => g.clone().bin_name(format!("rtplab compare {game}")),
                    None => cmd,
                };
                return Err(at.error(clap::error::ErrorKind::UnknownArgument, msg));
            }
            Err(e) => return Err(e),
        };
        Cli::from_arg_matches(&matches).map_err(|e| e.with_cmd(&cmd))
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Simulate a game (Monte Carlo) and report its return.
    #[command(subcommand)]
    Sim(SimGame),
    /// Exact (combinatorial) analysis of a game.
    #[command(subcommand)]
    Exact(ExactGame),
    /// Strategy files: derive the best chart for a rule set, index plays for a count, an
    /// optimal bet ramp.
    #[command(subcommand)]
    Strategies(StrategiesCmd),
    /// Compare strategies on the same shoes (common random numbers).
    #[command(subcommand)]
    Compare(CompareGame),
    /// The CI regression check: re-run every baseline in DIR and compare.
    #[command(
        after_help = "Examples:\n  rtplab check reports/baselines\n  rtplab check reports/baselines --bless   # after an intended change"
    )]
    Check(CheckArgs),
    /// Merge the shard files of one run into the run's report (numbers identical to a single
    /// run).
    #[command(
        after_help = "Example:\n  rtplab sim blackjack --rounds 1e9 --shard 1/4 --shard-out s1.json   # ... 2/4, 3/4, 4/4\n  rtplab merge s1.json s2.json s3.json s4.json --claim 99.54"
    )]
    Merge(MergeArgs),
    /// Live-RTP monitoring: periods of play (period,rounds,wagered,returned) against an
    /// expected RTP per amount wagered; exit 1 when a period is out of its band.
    #[command(
        after_help = "Examples:\n  rtplab monitor --expected reports/seed-table-autoplay/report.json daily.csv\n  rtplab monitor --expected report.json daily.csv --level 99.9 --out-dir monitor/"
    )]
    Monitor(MonitorArgs),
    /// What should I do here? Every legal action with its exact value, the best marked.
    #[command(subcommand)]
    Advise(AdviseGame),
    /// The RTP verification dossier: exact distributions of every strategy tier and wager,
    /// the simulation cross-check, rounds needed, acceptance bands, what would make a claim
    /// true; report.html (self-contained), report.md, report.json, CSVs and SVGs.
    #[command(subcommand)]
    Audit(AuditGame),
}

#[derive(Subcommand, Debug)]
pub enum AuditGame {
    /// Blackjack: the optimal, basic and auto-play tiers; main bet, pairs, insurance, bet behind.
    #[command(
        after_help = "Examples:\n  rtplab audit blackjack --claim 99.54 --out-dir audit/seed-table\n  rtplab audit blackjack --peek --das --decks 6 --claim 99.54 --rounds 1e9 --out-dir audit/6d\n  rtplab audit blackjack --rounds 0 --format json     # exact only\n  rtplab monitor --expected audit/seed-table/report.json daily-results.csv"
    )]
    Blackjack(BlackjackAudit),
    /// Dice of Doom: each policy's exact turn-score distribution, the simulation cross-check,
    /// the turns needed, and games of two to the target.
    #[command(
        after_help = "Examples:\n  rtplab audit doom --out-dir audit/doom\n  rtplab audit doom --rules s2-common --bank-at 300,350,400 --turns 1e7 --games 20k"
    )]
    Doom(doom::DoomAudit),
}

#[derive(Subcommand, Debug)]
pub enum AdviseGame {
    /// A blackjack hand against an up card: EV of stand, hit, double, split and surrender (as
    /// the rules allow) from the shoe less the cards shown and removed, with the chart's action.
    #[command(
        after_help = "Examples:\n  rtplab advise blackjack --hand T,6 --up T\n  rtplab advise blackjack --hand 8,8 --up A --peek --das --removed 5,5,T"
    )]
    Blackjack(AdviseBlackjack),
    /// A Dice of Doom roll: every legal set-aside followed by bank or roll, valued by the
    /// turn's expected points, or by the probability of winning when the game's scores are given.
    #[command(
        after_help = "Examples:\n  rtplab advise doom --roll 1,1,5,2,3,4\n  rtplab advise doom --roll 2,3,4 --held 5,5,5 --turn-points 500\n  rtplab advise doom --roll 1,5,2,2,3,4 --score 4000 --opponent 5200 --target 10000"
    )]
    Doom(AdviseDoom),
    /// A Twenty One roll seen from your row: every legal write, the cross-out and the re-roll,
    /// valued under the row-optimal policy.
    #[command(
        name = "twenty-one",
        after_help = "Examples:\n  rtplab advise twenty-one --row \"W6 K5 R4 B3 Y2 G1\" --roll \"W3 K5 R1 B6 Y2 G4\" --rerolls-left 1\n  rtplab advise twenty-one --row \"W6 K5 R4 B3 Y2 G1\" --filled W,R --hits 1 --roll \"W3 K5 R1 B6 Y2 G4\""
    )]
    TwentyOne(AdviseTwentyOne),
}

#[derive(Args, Debug)]
pub struct MonitorArgs {
    /// The report the periods are held against: a `monitoring` object (rtp_total_wagered,
    /// sd_per_round), a simulation report (its rtp_total_wagered and SE), or a baccarat
    /// report of one flat bet (its exact RTP; ties count as rounds wagered).
    #[arg(long, value_name = "REPORT.json")]
    pub expected: PathBuf,
    /// The periods: a CSV with the header period,rounds,wagered,returned; `-` reads it from
    /// standard input.
    #[arg(value_name = "LOG.csv")]
    pub log: PathBuf,
    /// Two-sided acceptance level in percent: 95, 99 or 99.9.
    #[arg(long, default_value_t = 99.0)]
    pub level: f64,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Subcommand, Debug)]
pub enum ExactGame {
    /// Exact EV/RTP of a blackjack rule set under optimal play (and a fixed strategy).
    #[command(
        after_help = "Examples:\n  rtplab exact blackjack                          # seed table, both settlements\n  \
rtplab exact blackjack --strategy autoplay\n  rtplab exact blackjack --claim 99.54 --sensitivity\n  \
rtplab exact blackjack --peek --das --max-hands 4 --format json"
    )]
    Blackjack(BlackjackExact),
    /// Exact turn analysis of Dice of Doom (Farkle): optimal turn EV, bust odds, bank
    /// thresholds, a bank-at:T sweep.
    #[command(
        after_help = "Examples:\n  rtplab exact doom\n  rtplab exact doom --rules s2-common\n  rtplab exact doom --rules zilch --format json\n  rtplab exact doom --strategy bank-at:300 --strategy thresholds:1000,600,400,350,300,300"
    )]
    Doom(doom::DoomExact),
    /// Exact pieces of Twenty One: single-roll event probabilities of a row by enumeration,
    /// and the row-optimal policy table.
    #[command(
        name = "twenty-one",
        after_help = "Examples:\n  rtplab exact twenty-one\n  rtplab exact twenty-one --row-policy --c 1.5 --format csv"
    )]
    TwentyOne(twentyone::TwentyOneExact),
    /// Exact baccarat (punto banco): every bet's RTP and house edge and the outcome
    /// probabilities, by complete enumeration of the shoe.
    #[command(
        after_help = "Examples:\n  rtplab exact baccarat\n  rtplab exact baccarat --decks 6 --tie-pays 9\n  rtplab exact baccarat --no-commission --format json"
    )]
    Baccarat(baccarat::BaccaratExact),
}

#[derive(Subcommand, Debug)]
pub enum StrategiesCmd {
    /// Derive a strategy for a game's rules.
    #[command(subcommand)]
    Derive(DeriveGame),
    /// Compute index plays (deviations from the chart at counts) for a count and rules.
    #[command(subcommand)]
    Indices(IndicesGame),
    /// The bet ramp with the highest SCORE within a bet spread, from a counting table.
    #[command(subcommand)]
    Ramp(RampGame),
}

#[derive(Subcommand, Debug)]
pub enum RampGame {
    /// Optimal blackjack bet ramp: from a flat-bet counting simulation (or a counting run's
    /// JSON report) the share, EV and variance per count; the ramp maximising SCORE =
    /// 10^6 (EV/SD)^2 per round (a Kelly bettor's win per 100 rounds with 10,000 units) with
    /// bets from 1 unit to the spread's maximum, never falling as the count rises, in whole
    /// chips; beside the linear ramps 1-4, 1-8, 1-12 and 1-16 (SCORE, EV, SD, N0, risk of
    /// ruin), with Kelly bets k·B·ev/var for a bankroll. --ramp-out writes the file sim's
    /// --ramp reads.
    #[command(
        after_help = "Examples:\n  rtplab strategies ramp blackjack --count hi-lo --indices i18+fab4 --spread 1-12 --ramp-out ramp.txt\n  rtplab strategies ramp blackjack --count hi-lo --spread 1-16 --wong-in 1 --wong-out 0 --bankroll 2000 --kelly 0.5\n  rtplab strategies ramp blackjack --from run.json --spread 1-8 --chip 2\n  rtplab sim blackjack --count hi-lo --indices i18+fab4 --ramp ramp.txt"
    )]
    Blackjack(RampBlackjack),
}

#[derive(Subcommand, Debug)]
pub enum IndicesGame {
    /// Blackjack index plays for a count: for each chart cell, the count at which another
    /// play's EV crosses the chart's (exact analysis of shoes depleted to each count), the
    /// surrender and insurance counts; a file --indices reads.
    #[command(
        after_help = "Examples:\n  rtplab strategies indices blackjack --count hi-lo > strategies/blackjack/indices-hilo-seed.csv\n  rtplab strategies indices blackjack --count halves --decks 6 --peek --das --surrender late"
    )]
    Blackjack(IndicesBlackjack),
}

#[derive(Subcommand, Debug)]
pub enum DeriveGame {
    /// The total-dependent blackjack chart with the highest EV for the rules, as CSV.
    #[command(
        after_help = "Example:\n  rtplab strategies derive blackjack --decks 6 --das > strategies/blackjack/6d-das.csv"
    )]
    Blackjack(DeriveBlackjack),
}

#[derive(Subcommand, Debug)]
pub enum CompareGame {
    /// Blackjack strategies on the same shoes: each EV and every paired difference.
    #[command(
        after_help = "Example:\n  rtplab compare blackjack --strategy basic --strategy autoplay --strategy mimic-dealer"
    )]
    Blackjack(BlackjackCompare),
    /// Baccarat betting strategies on the same shoes: each RTP and every paired difference.
    #[command(
        after_help = "Example:\n  rtplab compare baccarat --bet banker --bet player --bet martingale:banker --coups 10M"
    )]
    Baccarat(baccarat::BaccaratCompare),
    /// Dice of Doom single-turn strategies: each mean turn score and every paired difference.
    #[command(
        after_help = "Example:\n  rtplab compare doom --strategy optimal --strategy bank-at:300 --strategy bank-at:400+keep-all --turns 2M"
    )]
    Doom(doom::DoomCompare),
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Folder of baseline files (*.json).
    #[arg(default_value = "reports/baselines")]
    pub dir: PathBuf,
    /// Rewrite the baselines' sums (and exact expected values) after an intended change.
    #[arg(long)]
    pub bless: bool,
    /// Tolerance in standard errors against the expected value.
    #[arg(long, default_value_t = 4.0)]
    pub z: f64,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Shard files written by `sim ... --shard K/N --shard-out FILE`.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,

    /// A claimed RTP in percent (e.g. 99.54) to test the estimate against.
    #[arg(long, value_name = "PCT", value_parser = parse_claim)]
    pub claim: Option<f64>,

    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Subcommand, Debug)]
pub enum SimGame {
    /// The live blackjack table (8 decks, no hole card) and any variation of its rules.
    #[command(
        after_help = "Examples:\n  rtplab sim blackjack\n  rtplab sim blackjack --strategy autoplay --rounds 200M --claim 99.54\n  \
rtplab sim blackjack --dealer-bj-takes original --pairs 1 --format json\n  \
rtplab sim blackjack --strategy strategies/blackjack/seed.csv --peek --das --max-hands 4"
    )]
    Blackjack(BlackjackSim),
    /// Dice of Doom (Farkle variant): full games to the target, or single turns (--turns).
    #[command(
        after_help = "Examples:\n  rtplab sim doom                                  # seed rules, 4 optimal players to the target\n  rtplab sim doom --turns 10M --strategy bank-at:300\n  rtplab sim doom --seat optimal --seat bank-at:300 --seat endgame:400 --target 10000"
    )]
    Doom(doom::DoomSim),
    /// Twenty One (roll-and-write dice): full games of 1–6 players with any mix of strategies.
    #[command(
        name = "twenty-one",
        after_help = "Examples:\n  rtplab sim twenty-one                                   # 4 players, default strategies\n  rtplab sim twenty-one --players 2 --seat hits-only --seat greedy --games 1M\n  rtplab sim twenty-one --sweep-c 0,0.5,1,2,3 --games 200k --seat hits-only --seat greedy"
    )]
    TwentyOne(twentyone::TwentyOneSim),
    /// Baccarat (punto banco): a betting strategy over whole shoes; every bet's RTP against
    /// its exact value, and the net per shoe.
    #[command(
        after_help = "Examples:\n  rtplab sim baccarat                                  # 10M coups on banker\n  rtplab sim baccarat --bet martingale:banker --table-max 200 --coups 5M\n  rtplab sim baccarat --bet follow --pairs 1 --no-commission --claim 98.9"
    )]
    Baccarat(baccarat::BaccaratSim),
}

/// Output formats (`rtplab::report::Format` on the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Table,
    #[value(alias = "md")]
    Markdown,
    Csv,
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
pub struct RunCommon {
    /// Seed of the random streams; the same seed gives the same result for any --threads.
    #[arg(long, default_value_t = 1, value_parser = parse_seed)]
    pub seed: u64,
    /// Worker threads (default: one per core).
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
        }
    }
}

/// Seed, threads, progress and sharding of a run (every game).
#[derive(Args, Debug)]
pub struct RunBase {
    #[command(flatten)]
    pub common: RunCommon,
    /// Run only shard K of N (1-based): a contiguous range of the run's chunks. Without it,
    /// SLURM_ARRAY_TASK_ID (with SLURM_ARRAY_TASK_MIN/COUNT) or JOB_COMPLETION_INDEX (with
    /// --shards) in the environment select the shard.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Number of shards, for JOB_COMPLETION_INDEX (Kubernetes indexed jobs).
    #[arg(long, value_name = "N", value_parser = parse_positive)]
    pub shards: Option<u64>,
    /// Write this run's (or shard's) exact sums to FILE (JSON) for `rtplab merge`. If FILE
    /// is an unfinished shard file of this same run and shard (a checkpoint, or a shard stopped
    /// by a signal), the run resumes from it; if it is finished, its report is printed without
    /// recomputing; any other file is refused and left as it is.
    #[arg(long, value_name = "FILE")]
    pub shard_out: Option<PathBuf>,
    /// Also save the --shard-out file every INTERVAL while running (e.g. 30s, 5m, 1h, 500ms;
    /// a bare number is seconds), so that a run killed without warning resumes from its last
    /// checkpoint when the same command is run again.
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
pub struct OutputArgs {
    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Write the report here instead of standard output (`-` is standard output).
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,

    /// Also write every format and the plots into this folder (report.md, report.json,
    /// report.html with the plots inline, one CSV per table, SVG plots).
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,

    /// With --out-dir: replace a folder that is not empty.
    #[arg(long)]
    pub force: bool,
}

impl From<&OutputArgs> for Outputs {
    fn from(o: &OutputArgs) -> Outputs {
        Outputs {
            format: o.format.into(),
            output: o.output.clone(),
            out_dir: o.out_dir.clone(),
            force: o.force,
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
    }
}

impl From<&MergeArgs> for rtplab::games::MergeJob {
    fn from(a: &MergeArgs) -> Self {
        Self {
            files: a.files.clone(),
            claim: a.claim,
            outputs: (&a.output).into(),
        }
    }
}

impl From<&CheckArgs> for rtplab::check::CheckJob {
    fn from(a: &CheckArgs) -> Self {
        Self {
            dir: a.dir.clone(),
            z: a.z,
            bless: a.bless,
            outputs: (&a.output).into(),
        }
    }
}

impl From<&MonitorArgs> for rtplab::monitor::MonitorJob {
    fn from(a: &MonitorArgs) -> Self {
        Self {
            expected: a.expected.clone(),
            log: a.log.clone(),
            level: a.level,
            outputs: (&a.output).into(),
        }
    }
}

/// A count from 0 (none) to 10^12 (the Doom audit's turns and games per tier).
pub(crate) fn parse_count_or_zero(s: &str) -> Result<u64, String> {
    let n = parse_count(s)?;
    if n > rtplab::game::MAX_COUNT {
        return Err(format!("{s}: expected a count from 0 (none) to 1e12"));
    }
    Ok(n)
}

/// A count (1M, 1e6 accepted) from 1 to 10^12.
pub(crate) fn parse_count_limited(s: &str) -> Result<u64, String> {
    let n = parse_count(s)?;
    if n == 0 || n > rtplab::game::MAX_COUNT {
        return Err(format!("{s}: expected a count from 1 to 1e12"));
    }
    Ok(n)
}

pub(crate) fn parse_positive(s: &str) -> Result<u64, String> {
    let n = parse_count(s)?;
    if n == 0 {
        return Err("must be at least 1".into());
    }
    Ok(n)
}

/// A checkpoint interval: a positive number with an optional unit, `ms`, `s` (the default),
/// `m` or `h`: `500ms`, `30s`, `5m`, `1.5h`.
pub(crate) fn parse_interval(s: &str) -> Result<std::time::Duration, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let scale = match unit.trim() {
        "ms" => 1e-3,
        "" | "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => {
            return Err(format!(
                "expected an interval such as 30s, 5m, 1h or 500ms, found '{s}'"
            ))
        }
    };
    let v: f64 = num
        .parse()
        .map_err(|_| format!("expected an interval such as 30s, 5m, 1h or 500ms, found '{s}'"))?;
    let secs = v * scale;
    if !(0.001..=1e7).contains(&secs) {
        return Err(format!(
            "'{s}': the interval must be from 1ms to about 100 days"
        ));
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

pub(crate) fn parse_seed(s: &str) -> Result<u64, String> {
    s.trim()
        .parse::<u64>()
        .map_err(|_| format!("expected a whole number from 0 to 18446744073709551615, found '{s}'"))
}

pub(crate) fn parse_threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a thread count from 1 to 1024, found '{s}'"
        )),
    }
}

pub(crate) fn parse_claim(s: &str) -> Result<f64, String> {
    match rtplab::numparse::parse_percent(s) {
        // A claim of at most 1% is a fraction written for a percent (0.9954 for 99.54%).
        Ok(v) if v > 0.0 && v <= 0.01 => Err(format!(
            "the claim is an RTP in percent and {s} looks like a fraction: did you mean {}?",
            (v * 1e4 * 1e6).round() / 1e6
        )),
        // Any wager of these games returns between half and one and a half times its stake
        // in the long run; a claim outside that is a typing error.
        Ok(v) if (0.5..=1.5).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected an RTP in percent from 50 to 150, such as 99.54, found '{s}'"
        )),
    }
}

/// The number of players of a dice game: `--players`, else one per `--seat`, else 4. Both
/// given must agree (a disagreement is refused rather than one of them silently ignored).
pub(crate) fn players_for_seats(players: Option<usize>, seats: usize) -> Result<usize, ArgError> {
    match players {
        Some(p) if seats > 0 && p != seats => Err(ArgError(format!(
            "--players {p} disagrees with the {seats} --seat given: give one --seat per \
             player, or leave out --players (the --seat count sets it)"
        ))),
        Some(p) => Ok(p),
        None if seats > 0 => Ok(seats),
        None => Ok(4),
    }
}
