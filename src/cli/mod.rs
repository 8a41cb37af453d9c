//! Command-line types (clap derive) and their conversion into library configurations.
//! Nothing here is passed down into the library as is.

pub mod baccarat;
pub mod blackjack;
pub mod doom;
pub mod files;
pub mod registry;
pub mod twentyone;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// The sections of a command's `--help` (clap's `help_heading`), the same names in every
/// command: a command of more than a dozen flags lists each flag under one of them.
pub mod heading {
    pub const RULES: &str = "Rules";
    pub const STRATEGY: &str = "Strategy";
    pub const COUNTING: &str = "Counting and betting";
    pub const SIDE_BETS: &str = "Side bets";
    /// What an analysis computes (exact, indices, ramp): its claim, sweeps and ranges.
    pub const ANALYSIS: &str = "Analysis";
    /// What `advise` is asked about: the hand, the roll, the scores.
    pub const POSITION: &str = "Position";
    pub const RUN: &str = "Run";
    pub const OUTPUT: &str = "Output";
    /// Every heading (the test that every long command uses them).
    #[cfg(test)]
    pub const ALL: [&str; 8] = [
        RULES, STRATEGY, COUNTING, SIDE_BETS, POSITION, ANALYSIS, RUN, OUTPUT,
    ];
}

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
Every flag of a command is described by `rtplab <command> <game> --help` (-h for a summary).\n\n\
Exit codes: 0 ok, 1 a check failed, 2 usage or input error, 130 interrupted (SIGINT), 143 \
terminated (SIGTERM), 129 hung up (SIGHUP).\n\n\
Examples:\n  rtplab sim blackjack\n  rtplab sim blackjack --strategy autoplay --rounds 200M --claim 99.54\n  \
rtplab sim blackjack --dealer-bj-takes original --pairs 1 --format json"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// The command's --threads, where it has one: the most threads any part of the process
    /// uses (the exact analysis behind a derived chart as well as the simulation).
    #[arg(skip)]
    pub threads: Option<usize>,
    /// What the command reads and writes (`files::FILE_ARGS`), for the door to check before
    /// the command is built.
    #[arg(skip)]
    pub files: rtplab::door::Plan,
    /// The command's -q/--quiet (every command has it): no progress on standard error.
    #[arg(skip)]
    pub quiet: bool,
}

impl Cli {
    /// Parse the command line. Every option takes a negative number as its value (so that
    /// `--rounds -5` is refused by the option's own check, naming the option, instead of
    /// being read as an unknown flag `-5`), every help text is wrapped to fit 100 columns
    /// (`help_fits`) on the lines below its flag, and an unknown subcommand's error lists the ones there are.
    pub fn parse_args(
        args: impl IntoIterator<Item = std::ffi::OsString>,
    ) -> Result<Cli, clap::Error> {
        use clap::{CommandFactory, FromArgMatches};
        let args: Vec<std::ffi::OsString> = args.into_iter().collect();
        let mut cmd = prepare(Cli::command());
        let matches = match cmd.try_get_matches_from_mut(args.iter()) {
            Ok(m) => m,
            Err(e) if e.kind() == clap::error::ErrorKind::InvalidSubcommand => {
                return Err(with_subcommands(&cmd, &args, e));
            }
            Err(e) if is_shard_flag_of_compare(&e, &args) => {
                return Err(compare_in_one_process(cmd, &args));
            }
            Err(e) => return Err(e),
        };
        let mut cli = Cli::from_arg_matches(&matches).map_err(|e| e.with_cmd(&cmd))?;
        let (mut leaf, mut leaf_cmd) = (&matches, &cmd);
        while let Some((name, sub)) = leaf.subcommand() {
            leaf = sub;
            leaf_cmd = leaf_cmd.find_subcommand(name).unwrap_or(leaf_cmd);
        }
        cli.threads = leaf.try_get_one::<usize>("threads").ok().flatten().copied();
        cli.files = files::plan(leaf, leaf_cmd);
        cli.quiet = leaf.try_get_one::<bool>("quiet").ok().flatten() == Some(&true);
        Ok(cli)
    }
}

/// `cmd` and its subcommands made ready to parse: help texts wrapped (`help_fits`) below
/// their flags, and every option taking a negative number as its value.
fn prepare(cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let about = cmd.get_about().map(|t| help_fits(&t.to_string(), 80, 0));
    let long_about = cmd
        .get_long_about()
        .map(|t| help_fits(&t.to_string(), 100, 0));
    let mut cmd = cmd.next_line_help(true).mut_args(|a| {
        let mut a = a;
        if let Some(help) = a.get_help().map(|t| t.to_string()) {
            // -h: clap appends the default and the possible values to the last line.
            let long = a.get_long_help().map_or(help.clone(), |t| t.to_string());
            let tail = inline_values(&a).chars().count();
            a = a
                .help(help_fits(&help, 90, tail))
                .long_help(help_fits(&long, 90, 0));
        }
        if a.get_action().takes_values() {
            a = a.allow_negative_numbers(true);
        }
        a
    });
    if let Some(t) = about {
        cmd = cmd.about(t);
    }
    if let Some(t) = long_about {
        cmd = cmd.long_about(t);
    }
    names.iter().fold(cmd, |c, n| c.mut_subcommand(n, prepare))
}

/// An unknown subcommand's error `e`, with the subcommands the command given has.
fn with_subcommands(
    cmd: &clap::Command,
    args: &[std::ffi::OsString],
    e: clap::Error,
) -> clap::Error {
    // The command whose subcommand was misspelt: follow the names given (`help` names the
    // commands after it: `help sim poker` is about `sim`).
    let mut at = cmd;
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
        return e;
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
    e
}

/// Whether `e` is `compare` refusing a flag of shard files (`--shard`, `--shards`,
/// `--shard-out`, `--checkpoint`).
fn is_shard_flag_of_compare(e: &clap::Error, args: &[std::ffi::OsString]) -> bool {
    e.kind() == clap::error::ErrorKind::UnknownArgument
        && args.get(1).is_some_and(|a| a == "compare")
        && matches!(
            e.get(clap::error::ContextKind::InvalidArg),
            Some(clap::error::ContextValue::String(a))
                if ["--shard", "--shards", "--shard-out", "--checkpoint"]
                    .contains(&a.split('=').next().unwrap_or(""))
        )
}

/// `compare` given a flag of shard files: said plainly rather than clap's nearest other
/// flag, with the usage of the compare command given.
fn compare_in_one_process(cmd: clap::Command, args: &[std::ffi::OsString]) -> clap::Error {
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
    at.error(clap::error::ErrorKind::UnknownArgument, msg)
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
        after_help = "Example:\n  rtplab sim blackjack --rounds 1e9 --shard 1/4 --shard-out s1.json   # ... 2/4, 3/4, 4/4\n  rtplab merge s1.json s2.json s3.json s4.json --claim 99.54",
        after_long_help = "Examples:\n  \
rtplab sim blackjack --rounds 1e9 --shard 1/4 --shard-out s1.json   # ... 2/4, 3/4, 4/4\n  \
rtplab merge s1.json s2.json s3.json s4.json --claim 99.54\n  \
rtplab sim doom --games 1M --shard 2/3 --shard-out doom-2.json --checkpoint 5m\n  \
rtplab merge doom-*.json --out-dir doom-run    # the folder a single run would write\n\n\
docs/cluster.md: Slurm and Kubernetes recipes, and what to do when merge refuses a shard."
    )]
    Merge(MergeArgs),
    /// Live-RTP monitoring: periods of play (period,rounds,wagered,returned) against an
    /// expected RTP per amount wagered; exit 1 when a period is out of its band.
    #[command(
        after_help = "Examples:\n  rtplab monitor --expected reports/audit-seed-table/report.json docs/examples/daily.csv\n  rtplab monitor --expected report.json daily.csv --level 99.9 --out-dir monitor/",
        after_long_help = "A log (daily.csv):\n  \
period,rounds,wagered,returned\n  \
mon,182000,1843500,1829766.5\n  \
tue,175400,1772030,1760110\n\n\
Examples:\n  \
rtplab monitor --expected reports/audit-seed-table/report.json docs/examples/daily.csv\n  \
rtplab monitor --expected reports/audit-seed-table/report.json docs/examples/daily.csv --level 99.9\n  \
cat daily.csv | rtplab monitor --expected reports/baccarat-banker/report.json -\n\n\
docs/audit-and-monitor.md explains the bands and the funnel plot."
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
    /// The cache folder of solved tables (the two-player Dice of Doom game): where it is,
    /// what it holds, clearing it.
    #[command(
        subcommand,
        after_help = "Examples:\n  rtplab cache path\n  rtplab cache list\n  rtplab cache clear\n  RTPLAB_CACHE=/scratch/rtplab rtplab advise doom --roll 1,5,2,2,3,4 --score 4000 --opponent 5200 --target 100000"
    )]
    Cache(CacheCmd),
}

/// `rtplab cache`.
#[derive(Subcommand, Debug, Clone, Copy)]
pub enum CacheCmd {
    /// Print the cache folder: $RTPLAB_CACHE, else $XDG_CACHE_HOME/rtplab, else
    /// ~/.cache/rtplab.
    Path(QuietArgs),
    /// List the solved tables kept (name and size).
    List(QuietArgs),
    /// Remove every solved table kept (nothing else in the folder is touched).
    Clear(QuietArgs),
}

/// Run `rtplab cache`: its lines on standard output.
pub fn cache_command(c: CacheCmd) -> anyhow::Result<()> {
    use rtplab::door::cache::Cache;
    let cache = Cache::open()?;
    let dir = cache.dir().display();
    let text = match c {
        CacheCmd::Path(_) => format!("{dir}\n"),
        CacheCmd::List(_) => {
            let entries = cache
                .entries()
                .map_err(|e| anyhow::anyhow!("cannot list the cache folder {dir}: {e}"))?;
            let mut t = format!(
                "{dir}: {}\n",
                rtplab::report::plural(entries.len() as u64, "solved table")
            );
            for (name, bytes) in entries {
                t.push_str(&format!("{name}  {:.1} MB\n", bytes as f64 / 1e6));
            }
            t
        }
        CacheCmd::Clear(_) => {
            let (n, bytes) = cache
                .clear()
                .map_err(|e| anyhow::anyhow!("cannot clear the cache folder {dir}: {e}"))?;
            format!(
                "{dir}: {} removed ({:.1} MB)\n",
                rtplab::report::plural(n as u64, "solved table"),
                bytes as f64 / 1e6
            )
        }
    };
    rtplab::door::write_stdout(text.as_bytes())?;
    Ok(())
}

#[derive(Subcommand, Debug)]
pub enum AuditGame {
    /// Blackjack: the optimal, basic and auto-play tiers; main bet, pairs, insurance, bet behind.
    #[command(
        after_help = "Examples:\n  rtplab audit blackjack --claim 99.54 --out-dir audit-seed-table\n  rtplab audit blackjack --peek --das --decks 6 --claim 99.54 --rounds 1e9 --out-dir audit-6d\n  rtplab audit blackjack --rounds 0 --format json     # exact only\n  rtplab monitor --expected audit-seed-table/report.json docs/examples/daily.csv"
    )]
    Blackjack(BlackjackAudit),
    /// Dice of Doom: each policy's exact turn-score distribution, the simulation cross-check,
    /// the turns needed, and games of two to the target.
    #[command(
        after_help = "Examples:\n  rtplab audit doom --out-dir audit-doom\n  rtplab audit doom --rules s2-common --bank-at 300,350,400 --turns 1e7 --games 20k"
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
    /// The report (JSON) whose expected RTP per amount wagered the periods are held against.
    ///
    /// One of: an audit's report.json (its `monitoring` object: rtp_total_wagered and
    /// sd_per_round, of the tier chosen by `audit blackjack --monitor-tier`); a simulation
    /// report (its rtp_total_wagered, and the SD from its SE); or a baccarat report of one
    /// flat bet without pair bets (the bet's exact RTP and the simulated SD per coup; a staking
    /// plan such as martingale:banker, whose bets vary, is refused). Each must state
    /// max_return_per_wagered, the most a round can return under the game's rules: a period
    /// returning more is refused as impossible. A tie counts as a coup wagered whose stake
    /// comes back, so the log must count ties too. Reports of an interrupted run or of a card
    /// counter are refused.
    ///
    /// Example: --expected reports/seed-table-autoplay/report.json
    #[arg(long, value_name = "REPORT.json")]
    pub expected: PathBuf,
    /// The periods: a CSV with the header period,rounds,wagered,returned; `-` reads it from
    /// standard input.
    ///
    /// One row per period of play (a day, a table, a channel): its name, the rounds played,
    /// the amount wagered and the amount returned (stakes back included), e.g.
    /// `mon,182000,1843500,1829766.5`. Refused (exit 2, naming the line and column):
    /// an amount above 1e15, more than 10,000,000 periods, a period returning more than the game
    /// can pay back on what was wagered (when the expected report states it).
    #[arg(value_name = "LOG.csv")]
    pub log: PathBuf,
    /// Two-sided acceptance level in percent: 95, 99 or 99.9.
    ///
    /// Each period's observed RTP is held against the expected one with SE = SD/√rounds; a
    /// period (or the running total after the last one) outside the band at this level makes
    /// the exit code 1.
    #[arg(long, default_value_t = 99.0, value_name = "PCT")]
    pub level: f64,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub quiet: QuietArgs,
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
        after_help = "Example:\n  rtplab compare doom --strategy optimal --strategy bank-at:400+keep-all --turns 2M"
    )]
    Doom(doom::DoomCompare),
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Folder of baseline files (*.json).
    ///
    /// Each file names its game and holds a run's settings, its exact sums and its expected
    /// value (reports/README.md describes them). Every file is read and its run set up before
    /// any run, so a bad file is refused (exit 2) before the work.
    #[arg(default_value = "reports/baselines")]
    pub dir: PathBuf,
    /// Rewrite the baselines' sums (and exact expected values) after an intended change.
    #[arg(long)]
    pub bless: bool,
    /// Tolerance in standard errors against the expected value.
    ///
    /// A baseline passes when its sums match bit for bit and its estimate lies within Z
    /// standard errors of its exact expected value (blackjack EV, Dice of Doom turn EV). A
    /// positive, finite number.
    #[arg(long, default_value_t = 4.0)]
    pub z: f64,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Shard files written by `sim ... --shard K/N --shard-out FILE`.
    ///
    /// Every shard of one run, in any order. Refused (exit 2, naming the file): shards of
    /// another game or run (rules, strategy, seed, rounds, chunking or version differ),
    /// overlapping or missing chunk ranges, interrupted or truncated shards, and files whose
    /// checksum or sums do not hold. docs/cluster.md says what each message means.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,

    /// A claimed RTP in percent (e.g. 99.54) to test the estimate against.
    ///
    /// For the games that have an RTP (blackjack, baccarat); refused for the dice games.
    #[arg(long, value_name = "PCT", value_parser = parse_claim)]
    pub claim: Option<f64>,

    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

#[derive(Subcommand, Debug)]
pub enum SimGame {
    /// The live blackjack table (8 decks, no hole card) and any variation of its rules.
    #[command(
        after_help = "Examples:\n  rtplab sim blackjack\n  rtplab sim blackjack --strategy autoplay --rounds 200M --claim 99.54\n  \
rtplab sim blackjack --dealer-bj-takes original --pairs 1 --format json\n  \
rtplab sim blackjack --strategy strategies/blackjack/seed.csv --peek --das --max-hands 4",
        after_long_help = "Examples:\n  \
rtplab sim blackjack                  # seed table, basic strategy, 100M rounds, against 99.54%\n  \
rtplab sim blackjack --strategy autoplay --rounds 200M\n  \
rtplab sim blackjack --dealer-bj-takes original --pairs 1 --bet-behind 1 --format json\n  \
rtplab sim blackjack --decks 6 --h17 --peek --das --max-hands 4 --surrender late \\\n      \
--strategy strategies/blackjack/6d-h17-peek-das-4hands.csv\n  \
rtplab sim blackjack --rounds 1e9 --out-dir my-seed-table   # as reports/seed-table\n\n\
Card counting (docs/counting.md):\n  \
rtplab sim blackjack --count hi-lo --ramp 0:1,1:2,2:4,3:8,4:12 --indices i18+fab4 --bankroll 1000\n  \
rtplab sim blackjack --count hi-lo --ramp 0:1,1:2,2:4,3:8,4:12 --wong-in 1 --wong-out 0 \\\n      \
--players 2 --spots-at 3 --indices strategies/blackjack/indices-hilo-seed.csv\n\n\
On a cluster (docs/cluster.md):\n  \
rtplab sim blackjack --rounds 1e11 --shard 3/8 --shard-out shard-3.json --checkpoint 10m"
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

impl From<&MergeArgs> for rtplab::merge::MergeJob {
    fn from(a: &MergeArgs) -> Self {
        Self {
            games: registry::games(),
            files: a.files.clone(),
            claim: a.claim,
            outputs: (&a.output).into(),
        }
    }
}

impl From<&CheckArgs> for rtplab::check::CheckJob {
    fn from(a: &CheckArgs) -> Self {
        Self {
            games: registry::games(),
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
            readers: registry::games().iter().filter_map(|e| e.monitor).collect(),
            expected: a.expected.clone(),
            log: a.log.clone(),
            level: a.level,
            outputs: (&a.output).into(),
        }
    }
}

/// `text` with each of its lines broken between words to at most `width` characters, the
/// last line leaving room for `tail` more after a space (a new line when it would not fit).
/// clap indents a flag's help by 10 columns but wraps it only with its `wrap_help` feature
/// (and a terminal-size dependency); without, a paragraph of help would be one line of
/// hundreds of characters.
fn help_fits(text: &str, width: usize, tail: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / width);
    let mut len = 0;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        len = 0;
        for word in line.split(' ') {
            let w = word.chars().count();
            if len > 0 && len + 1 + w > width {
                out.push('\n');
                len = 0;
            } else if len > 0 {
                out.push(' ');
                len += 1;
            }
            out.push_str(word);
            len += w;
        }
    }
    if tail > 0 && len > 0 && len + 1 + tail > width {
        out.push('\n');
    }
    out
}

/// What clap appends to a flag's short help: ` [default: X] [possible values: a, b]`.
fn inline_values(a: &clap::Arg) -> String {
    let mut s = String::new();
    let defaults: Vec<String> = a
        .get_default_values()
        .iter()
        .map(|v| match v.to_string_lossy() {
            v if v.is_empty() || v.contains(' ') => format!("{v:?}"),
            v => v.to_string(),
        })
        .collect();
    if !defaults.is_empty() && !a.is_hide_default_value_set() {
        s += &format!(" [default: {}]", defaults.join(", "));
    }
    let values: Vec<String> = a
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_string())
        .collect();
    if !values.is_empty() && !a.is_hide_possible_values_set() {
        s += &format!(" [possible values: {}]", values.join(", "));
    }
    s
}

/// A count from 0 (none) to 10^12 (the Doom audit's turns and games per tier).
pub(crate) fn parse_count_or_zero(s: &str) -> Result<u64, String> {
    let n = parse_count(s)?;
    if n > rtplab::game::MAX_COUNT {
        return Err(format!("{s}: expected a count from 0 (none) to 1e12"));
    }
    Ok(n)
}

/// The fewest rounds or turns an audit simulates: two or more in every one of its batches
/// (`rtplab::audit::SIM_BATCHES`), so that the standard error of its cross-check against the
/// exact values rests on thousands of batch means, as its z-test assumes.
const MIN_AUDIT_SAMPLE: u64 = 10_000;

/// An audit's simulated `unit`s (`n`, read from `s`): 0 (the exact analysis alone) or at least
/// `MIN_AUDIT_SAMPLE`. Fewer printed SE 0, an interval of one point and z = -inf.
pub(crate) fn audit_sample(s: &str, n: u64, unit: &str) -> Result<u64, String> {
    if n > 0 && n < MIN_AUDIT_SAMPLE {
        return Err(format!(
            "{s} {unit} are too few to test the simulation against the exact values (their \
             standard error would rest on a handful of results, and is 0 when they all agree): \
             give at least 10k, or 0 for the exact analysis alone"
        ));
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

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// `rtplab <command> --help` is the one complete reference of the command line: every
    /// command has a description and every flag and argument of every command a help line, so
    /// a flag added without one fails here.
    #[test]
    fn every_command_and_flag_has_help() {
        fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
            if cmd
                .get_about()
                .is_none_or(|a| a.to_string().trim().is_empty())
            {
                missing.push(format!("{path} (the command's description)"));
            }
            for a in cmd.get_arguments() {
                let id = a.get_id().as_str();
                if id == "help" || id == "version" {
                    continue;
                }
                if a.get_help().is_none_or(|h| h.to_string().trim().is_empty()) {
                    let name = a.get_long().map_or(id.to_string(), |l| format!("--{l}"));
                    missing.push(format!("{path} {name}"));
                }
            }
            for sub in cmd.get_subcommands() {
                walk(sub, &format!("{path} {}", sub.get_name()), missing);
            }
        }
        let mut missing = Vec::new();
        walk(&Cli::command(), "rtplab", &mut missing);
        assert!(missing.is_empty(), "without help: {missing:#?}");
    }

    /// A command of more than a dozen flags lists every flag under one of the shared
    /// headings (Rules, Strategy, Counting and betting, ...), none in clap's catch-all
    /// "Options"; and every command takes -q/--quiet.
    #[test]
    fn long_commands_have_their_flags_in_sections_and_all_take_quiet() {
        fn walk(cmd: &clap::Command, path: &str, bad: &mut Vec<String>) {
            let subs: Vec<&clap::Command> = cmd.get_subcommands().collect();
            for sub in &subs {
                walk(sub, &format!("{path} {}", sub.get_name()), bad);
            }
            if !subs.is_empty() || path == "rtplab" {
                return;
            }
            if !cmd.get_arguments().any(|a| a.get_id() == "quiet") {
                bad.push(format!("{path}: no -q/--quiet"));
            }
            let flags: Vec<&clap::Arg> = cmd
                .get_arguments()
                .filter(|a| !a.is_positional() && a.get_id() != "help")
                .collect();
            if flags.len() <= 12 {
                return;
            }
            for a in flags {
                if !a
                    .get_help_heading()
                    .is_some_and(|h| super::heading::ALL.contains(&h))
                {
                    bad.push(format!("{path} --{}: no section", a.get_id()));
                }
            }
        }
        let mut bad = Vec::new();
        walk(&Cli::command(), "rtplab", &mut bad);
        assert!(bad.is_empty(), "{bad:#?}");
    }

    /// --threads reaches `Cli::threads` (which sizes the whole process's thread pool) from
    /// every command that has it, and is absent from those that do not.
    #[test]
    fn the_threads_of_any_command_are_found() {
        let threads = |args: &[&str]| {
            let args = std::iter::once("rtplab").chain(args.iter().copied());
            Cli::parse_args(args.map(std::ffi::OsString::from)).map(|c| c.threads)
        };
        assert_eq!(
            threads(&["sim", "blackjack", "--threads", "1"]).unwrap(),
            Some(1)
        );
        assert_eq!(
            threads(&["sim", "doom", "--threads", "3"]).unwrap(),
            Some(3)
        );
        assert_eq!(
            threads(&[
                "compare",
                "blackjack",
                "--threads",
                "2",
                "--strategy",
                "basic,autoplay"
            ])
            .unwrap(),
            Some(2)
        );
        assert_eq!(threads(&["sim", "blackjack"]).unwrap(), None);
        assert_eq!(threads(&["exact", "blackjack"]).unwrap(), None);
    }

    #[test]
    fn help_text_is_broken_between_words_to_the_width() {
        assert_eq!(super::help_fits("aa bb cc dd", 5, 0), "aa bb\ncc dd");
        assert_eq!(super::help_fits("aa bb\n\ncc", 80, 0), "aa bb\n\ncc");
        // A word longer than the width stands on a line of its own.
        assert_eq!(super::help_fits("a longerword b", 5, 0), "a\nlongerword\nb");
        // Room for what clap appends: on the last line if it fits, else on a line of its own.
        assert_eq!(super::help_fits("aa bb", 8, 2), "aa bb");
        assert_eq!(super::help_fits("aa bb", 8, 3), "aa bb\n");
    }
}
