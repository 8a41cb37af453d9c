//! Command-line types (clap derive) and their conversion into library configurations.
//! Nothing here is passed down into the library as is.

mod args;
pub mod baccarat;
pub mod blackjack;
pub mod doom;
pub mod files;
mod parse;
pub mod registry;
pub mod risk;
pub mod serve;
pub mod study;
pub mod twentyone;
mod values;

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
    DeriveBlackjack, IndicesBlackjack, MetricsBlackjack, RampBlackjack,
};
use doom::AdviseDoom;
use twentyone::AdviseTwentyOne;

pub use args::{file_output, OutputArgs, QuietArgs, RunBase, RunCommon, SideArgs};
use parse::{compare_in_one_process, is_shard_flag_of_compare, prepare, with_subcommands};
pub(crate) use values::{
    audit_sample, parse_claim, parse_count_limited, parse_count_or_zero, parse_ev, parse_interval,
    parse_pool_se, parse_positive, parse_ror, parse_seed, parse_threads, parse_true_count,
    players_for_seats,
};

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

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Simulate a game (Monte Carlo) and report its return.
    #[command(subcommand)]
    Sim(SimGame),
    /// Exact (combinatorial) analysis of a game.
    #[command(subcommand)]
    Exact(ExactGame),
    /// Strategy files: derive the best chart for a rule set, index plays for a count, an
    /// optimal bet ramp, bets in money.
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
    /// A bankroll's risk from EV and SD per round (given, or from a blackjack report): the
    /// lifetime risk of ruin, the risk within a trip, the chance of a win goal before ruin,
    /// the bankroll for a target risk, the rounds to double, N0 and SCORE; each formula
    /// beside a simulation of the same walk.
    #[command(
        after_help = "Examples:\n  rtplab risk --ev 0.0151 --sd 1.9715 --bankroll 300 --goal 300\n  rtplab risk --from reports/counting-hilo-75pct/report.json --bankroll 1000 --rounds 20000 \\\n      --target-ror 5%",
        after_long_help = "Examples:\n  \
rtplab risk --ev 0.0151 --sd 1.9715 --bankroll 300 --goal 300     # Hall's example: 8.86% ruin before doubling\n  \
rtplab risk --ev 1.51% --sd 1.9715 --target-ror 5%\n  \
rtplab risk --from reports/counting-hilo-75pct/report.json --bankroll 1000 --rounds 20000 --target-ror 5%\n\n\
docs/risk.md explains each figure, the conventions and the simulated check."
    )]
    Risk(risk::RiskArgs),
    /// One page on this machine that answers as its controls change: a rule set's house edge,
    /// chart and rule changes, advice on a hand, bets and risk for a bankroll, simulations and
    /// audits started, watched and stopped (docs/serve.md).
    #[command(
        after_help = "Examples:\n  rtplab serve                 # prints the address, e.g. http://127.0.0.1:41234/\n  rtplab serve --port 8080\n\ndocs/serve.md: each panel, the JSON API, what the server refuses."
    )]
    Serve(serve::ServeArgs),
    /// A study: a grid of simulations in one file (rule settings or table files, penetrations,
    /// counts, ramps, strategies, sizes), each cell kept as it ends, a second run doing only
    /// what is missing; one long table (CSV, JSON, Parquet), plots and an index (docs/study.md).
    #[command(
        after_help = "Examples:\n  rtplab study studies/single-rule-changes.toml --out-dir rule-changes --dry-run\n  rtplab study studies/single-rule-changes.toml --out-dir rule-changes\n  rtplab study mine.toml --out-dir out --shards 8    # the plan of an array of 8"
    )]
    Study(study::StudyArgs),
    /// What should I do here? Every legal action with its exact value, the best marked.
    #[command(subcommand)]
    Advise(AdviseGame),
    /// Verify a table as it ran: its round log checked round by round (settlement, the shoe,
    /// outcomes against their exact probabilities, the RTP players got); exit 1 when any part
    /// fails.
    #[command(subcommand)]
    Verify(VerifyGame),
    /// The RTP verification dossier: exact distributions of every strategy tier and wager,
    /// the simulation cross-check, rounds needed, acceptance bands, what would make a claim
    /// true; report.html (self-contained), report.md, report.json, CSVs and SVGs.
    #[command(subcommand)]
    Audit(AuditGame),
    /// The cache folder of solved tables (blackjack's derived charts and count metrics'
    /// tables, the two-player Dice of Doom game): where it is, what it holds, clearing it.
    #[command(
        subcommand,
        after_help = "Examples:\n  rtplab cache path\n  rtplab cache list\n  rtplab cache clear\n  RTPLAB_CACHE=/scratch/rtplab rtplab advise doom --roll 1,5,2,2,3,4 --score 4000 \\\n      --opponent 5200 --target 100000"
    )]
    Cache(CacheCmd),
    /// The chunk server of the interleaved timer (benches/interleave/, docs/performance.md):
    /// the run `sim GAME` would make of the same arguments, played chunk by chunk on request
    /// (`play ROUNDS`, `chunks N`, `quit` on standard input), each request timed inside the
    /// process and answered with its nanoseconds and a checksum of the sums so far.
    #[command(subcommand, name = "bench-serve", hide = true)]
    BenchServe(SimGame),
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
pub enum VerifyGame {
    /// A blackjack round log: every round dealt, played and paid again by the stated rules,
    /// the shoe (cards, cut card, burns), outcomes against their exact probabilities given the
    /// cards already out, and the return by wager from the claim to what was paid.
    #[command(
        after_help = "Examples:\n  rtplab verify blackjack docs/examples/seed-table-log.jsonl.gz\n  rtplab sim blackjack --rounds 1M --log-out table.jsonl.zst\n  rtplab verify blackjack table.jsonl.zst --periods-out periods.csv",
        after_long_help = "Examples:\n  \
rtplab verify blackjack docs/examples/seed-table-log.jsonl.gz\n  \
rtplab sim blackjack --rounds 1M --pairs 1 --insurance always --log-out table.jsonl.zst\n  \
rtplab verify blackjack table.jsonl.zst --periods-out periods.csv --out-dir verdict/\n\n\
Exit codes: 0 every part holds, 1 a part fails (each failure named), 2 a record that does not \
read (its line and field named).\n\n\
docs/round-log.md gives the log's schema and what each part checks."
    )]
    Blackjack(VerifyArgs),
    /// A baccarat round log: every coup dealt and paid again by the stated rules, the shoe
    /// (cards, cut card, burn), outcomes against their exact probabilities, and each bet's
    /// observed RTP against its exact RTP, at 99%.
    #[command(
        after_help = "Examples:\n  rtplab sim baccarat --coups 1M --pairs 1 --log-out table.jsonl.zst\n  rtplab verify baccarat table.jsonl.zst\n  rtplab verify baccarat table.jsonl.zst --format json -o verdict.json",
        after_long_help = "Examples:\n  \
rtplab sim baccarat --coups 1M --pairs 1 --log-out table.jsonl.zst\n  \
rtplab verify baccarat table.jsonl.zst\n  \
zcat day.jsonl.gz | rtplab verify baccarat - --out-dir verdict/\n\n\
Exit codes: 0 every part holds, 1 a part fails (each failure named), 2 a record that does not \
read (its line and field named).\n\n\
docs/round-log.md gives the log's schema and what each part checks."
    )]
    Baccarat(baccarat::BaccaratVerify),
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
        after_help = "Examples:\n  rtplab advise twenty-one --row \"W6 K5 R4 B3 Y2 G1\" --roll \"W3 K5 R1 B6 Y2 G4\" --rerolls-left 1\n  rtplab advise twenty-one --row \"W6 K5 R4 B3 Y2 G1\" --filled W,R --hits 1 \\\n      --roll \"W3 K5 R1 B6 Y2 G4\""
    )]
    TwentyOne(AdviseTwentyOne),
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The round log (`-`: standard input).
    #[arg(value_name = "LOG")]
    pub log: PathBuf,
    /// Two-sided level of every test in percent: 95, 99 or 99.9.
    #[arg(long, default_value_t = 99.0, value_name = "PCT", value_parser = parse_level)]
    pub level: f64,
    /// Also write the main bet as a period log for `rtplab monitor`: one row of
    /// --period-rounds seat-rounds each, with stake_sq (the band from the stakes played).
    #[arg(long, value_name = "FILE.csv")]
    pub periods_out: Option<PathBuf>,
    /// Seat-rounds per period of --periods-out.
    #[arg(long, value_name = "N", default_value = "10000", requires = "periods_out", value_parser = parse_positive)]
    pub period_rounds: u64,
    #[command(flatten)]
    pub tables: blackjack::TablesArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

fn parse_level(s: &str) -> Result<f64, String> {
    match s.trim() {
        "95" => Ok(95.0),
        "99" => Ok(99.0),
        "99.9" => Ok(99.9),
        _ => Err(format!("expected 95, 99 or 99.9, found '{s}'")),
    }
}

impl From<&VerifyArgs> for rtplab::games::blackjack::verify::VerifyJob {
    fn from(a: &VerifyArgs) -> Self {
        Self {
            log: a.log.clone(),
            level: a.level / 100.0,
            periods_out: a.periods_out.clone(),
            period_rounds: a.period_rounds,
            kept: a.tables.kept(),
            outputs: (&a.output).into(),
        }
    }
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
    /// The periods: a CSV with the header period,rounds,wagered,returned (and optionally
    /// stake_sq); `-` reads it from standard input.
    ///
    /// One row per period of play (a day, a table, a channel): its name, the rounds played,
    /// the amount wagered and the amount returned (stakes back included), e.g.
    /// `mon,182000,1843500,1829766.5`; with stake_sq, the sum of the rounds' squared stakes,
    /// each band is that of the stakes played (without it, of equal stakes: a lower bound on
    /// its width when stakes vary). Refused (exit 2, naming the line and column):
    /// an amount above 1e15, more than 10,000,000 periods, a period returning more than the game
    /// can pay back on what was wagered (when the expected report states it).
    #[arg(value_name = "LOG.csv")]
    pub log: PathBuf,
    /// Two-sided acceptance level in percent: 95, 99 or 99.9.
    ///
    /// Each period's observed RTP is held against the expected one with SE = SD/√rounds
    /// (SD·√stake_sq/wagered with the stake_sq column); a period (or the running total after
    /// the last one) outside the band at this level makes the exit code 1.
    #[arg(long, default_value_t = 99.0, value_name = "PCT")]
    pub level: f64,
    /// Hold the periods against one wager of a dossier instead of its main bet: a side bet
    /// placed with `audit blackjack --side NAME` (21+3), insurance or the pairs side bet.
    ///
    /// The log's rounds are then wagers placed, `wagered` their stakes and `returned` what
    /// they paid back (stakes included); the band is the wager's exact RTP and SD per unit
    /// staked, from the dossier's wagers.
    ///
    /// Example: --wager 21+3
    #[arg(long, value_name = "NAME")]
    pub wager: Option<String>,
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
    /// Bets in money for a bankroll, the table's limits and a chip, sized to a target risk of
    /// ruin or a fraction of Kelly (CVCX's optimal bets).
    #[command(subcommand)]
    Bets(BetsGame),
    /// Count metrics: effects of removal, betting correlation, playing efficiency and
    /// insurance correlation of a count for the rules.
    #[command(subcommand)]
    Metrics(MetricsGame),
    /// A team: spotters at several tables call in a big player at a count, beside a lone
    /// counter who wongs at the same counts with the same bets.
    #[command(subcommand)]
    Team(TeamGame),
}

#[derive(Subcommand, Debug)]
pub enum TeamGame {
    /// A blackjack team: a spotter at each of --tables tables counts and calls the big player
    /// when the count reaches --call-at; he plays there at his bets until the count falls below
    /// --exit-below or the shoe ends, then goes to the called table of the highest count (one
    /// table at a time: calls while he is busy wait, and those that end first are missed).
    /// The big player's, the spotters' and the team's win per round and per hour (at
    /// --rounds-per-hour), SE, 95% CI, N0 and risk of ruin, beside a lone wonger at table 1
    /// (the same rounds, in at the call, out below the exit, the same bets) and a lone counter
    /// who plays every round. Each table deals from its own stream of the run's seed.
    #[command(
        after_help = "Examples:\n  rtplab strategies team blackjack --count hi-lo --tables 4 --call-at 2 --exit-below 0 --bet 10\n  rtplab strategies team blackjack --count hi-lo --indices i18 --tables 1 --call-at 2 \\\n      --ramp 2:4,3:8,4:12 --rounds 500k"
    )]
    Blackjack(blackjack::TeamBlackjack),
}

#[derive(Subcommand, Debug)]
pub enum BetsGame {
    /// Blackjack bets in money (CVCX's optimal bets): from a flat-bet counting simulation (or
    /// a counting run's JSON report) the share, EV and variance per count; at each count a
    /// bet in proportion to EV/variance (the table minimum where the EV is not above 0),
    /// never falling as the count rises, scaled so that the lifetime risk of ruin of the
    /// bankroll is the largest not above --target-ror (or k·B·EV/variance with --kelly),
    /// clipped to the table and rounded to chips. The sheet per count, with EV and SD per
    /// round and per hour, the risk of ruin (ever, and within a trip beside simulated trips),
    /// N0, SCORE and the bankroll the target needs with these bets. --bets-out writes the
    /// ramp file sim's --ramp reads (units of the chip).
    #[command(
        after_help = "Examples:\n  rtplab strategies bets blackjack --count hi-lo --indices i18 --bankroll 10000 --table-min 25 \\\n      --table-max 1000 --chip 5 --target-ror 5%\n  rtplab strategies bets blackjack --count hi-lo --indices i18 --wong-out -1 --bankroll 10000 \\\n      --table-min 25 --table-max 1000 --chip 5 --kelly 0.5 --trip-rounds 10000\n  rtplab strategies bets blackjack --from reports/counting-hilo-wong/report.json \\\n      --bankroll 20000 --table-min 10 --table-max 500 --chip 5 --target-ror 2% \\\n      --bets-out bets.txt",
        override_usage = "rtplab strategies bets blackjack [OPTIONS] --bankroll <MONEY> --table-min <MONEY>\n           --table-max <MONEY> <--target-ror <ROR>|--kelly <K>>"
    )]
    Blackjack(blackjack::BetsBlackjack),
}

#[derive(Subcommand, Debug)]
pub enum MetricsGame {
    /// Blackjack count metrics: the effect of removing each card value on the chart's EV
    /// (exact analysis of the shoe one card less and one card more), and each count's
    /// betting correlation (BC), playing efficiency (PE, after Griffin) and insurance
    /// correlation (IC), beside the published figures of the built-in counts.
    #[command(
        after_help = "Examples:\n  rtplab strategies metrics blackjack\n  rtplab strategies metrics blackjack --count hi-lo --decks 6 --h17 --peek --das --format markdown\n  rtplab strategies metrics blackjack --count strategies/counts/zen.csv --format json"
    )]
    Blackjack(MetricsBlackjack),
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
        after_help = "Examples:\n  rtplab strategies ramp blackjack --count hi-lo --indices i18+fab4 --spread 1-12 \\\n      --ramp-out ramp.txt\n  rtplab strategies ramp blackjack --count hi-lo --spread 1-16 --wong-in 1 --wong-out 0 \\\n      --bankroll 2000 --kelly 0.5\n  rtplab strategies ramp blackjack --from run.json --spread 1-8 --chip 2\n  rtplab sim blackjack --count hi-lo --indices i18+fab4 --ramp ramp.txt"
    )]
    Blackjack(RampBlackjack),
}

#[derive(Subcommand, Debug)]
pub enum IndicesGame {
    /// Blackjack index plays for a count: for each chart cell, the count at which another
    /// play's EV crosses the chart's (exact analysis of shoes depleted to each count), the
    /// surrender and insurance counts; a file --indices reads.
    #[command(
        after_help = "Examples:\n  rtplab strategies indices blackjack --count hi-lo > strategies/blackjack/indices-hilo-seed.csv\n  rtplab strategies indices blackjack --count halves --decks 6 --peek --das --surrender late\n  rtplab strategies indices blackjack --count hi-lo --objective score \\\n      --ramp 0:1,1:2,2:4,3:8,4:12 -o indices-ra.csv   # risk-averse"
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
--players 2 --spots-at 3 --indices strategies/blackjack/indices-hilo-seed.csv\n  \
rtplab sim blackjack --count hi-lo --ramp -1:0,1:2,2:4,3:8,4:12 --max-entries 2   # back-count: sit out below +1\n\n\
On a cluster (docs/cluster.md):\n  \
rtplab sim blackjack --rounds 1e11 --shard 3/8 --shard-out shard-3.json --checkpoint 10m"
    )]
    Blackjack(Box<BlackjackSim>),
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
            wager: a.wager.clone(),
            outputs: (&a.output).into(),
        }
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

    /// Every command's help, short and long (its examples included), fits 100 columns.
    #[test]
    fn every_help_fits_100_columns() {
        fn walk(cmd: &mut clap::Command, path: &str, wide: &mut Vec<String>) {
            for help in [cmd.render_help(), cmd.render_long_help()] {
                for line in help.to_string().lines() {
                    if line.chars().count() > 100 {
                        wide.push(format!("{path}: {line}"));
                    }
                }
            }
            let names: Vec<String> = cmd
                .get_subcommands()
                .map(|s| s.get_name().to_string())
                .collect();
            for n in names {
                if let Some(sub) = cmd.find_subcommand_mut(&n) {
                    walk(sub, &format!("{path} {n}"), wide);
                }
            }
        }
        let mut wide = Vec::new();
        let mut cli = Cli::command();
        cli.build();
        walk(&mut cli, "rtplab", &mut wide);
        assert!(wide.is_empty(), "{wide:#?}");
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
}
