//! Command-line types (clap derive) and their conversion into library configurations.
//! Nothing here is passed down into the library as is.

pub mod baccarat;
pub mod doom;
pub mod twentyone;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use rtplab::games::blackjack::rules::{
    BjPays, DealerBjTakes, Double, Rules, Shuffle, SplitBy, Surrender,
};
use rtplab::numparse::parse_count;

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
    /// Strategy files: derive the best chart for a rule set.
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

#[derive(Args, Debug)]
pub struct BlackjackAudit {
    #[command(flatten)]
    pub rules: BjRulesArgs,

    /// The claimed RTP in percent (per initial bet, as tables advertise it).
    #[arg(long, value_name = "PCT", value_parser = parse_claim)]
    pub claim: Option<f64>,

    /// Rounds to simulate for each tier that can be simulated (basic, auto-play); 0: exact
    /// analysis only.
    #[arg(long, default_value = "100M", value_parser = parse_audit_rounds)]
    pub rounds: u64,

    /// Seed of the random streams; the same seed gives the same result for any --threads.
    #[arg(long, default_value_t = 1, value_parser = parse_seed)]
    pub seed: u64,

    /// Worker threads (default: one per core).
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,

    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,

    /// The tier whose RTP per amount wagered and SD go into the `monitoring` object that
    /// `rtplab monitor --expected` reads.
    #[arg(long, value_enum, default_value_t = MonitorTier::Basic)]
    pub monitor_tier: MonitorTier,

    #[command(flatten)]
    pub output: OutputArgs,
}

/// The tier `monitor` checks live play against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MonitorTier {
    Optimal,
    Basic,
    Autoplay,
}

impl From<MonitorTier> for rtplab::games::blackjack::audit::TierName {
    fn from(t: MonitorTier) -> Self {
        match t {
            MonitorTier::Optimal => Self::Optimal,
            MonitorTier::Basic => Self::Basic,
            MonitorTier::Autoplay => Self::Autoplay,
        }
    }
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
pub struct AdviseTwentyOne {
    #[command(flatten)]
    pub rules: crate::cli::twentyone::TwentyOneRulesArgs,
    /// Your current row's boxes left to right by colour (printed 6 to 1), e.g. "W6 K5 R4 B3 Y2 G1".
    #[arg(long, value_name = "BOXES")]
    pub row: String,
    /// The row's boxes already written or crossed out, by colour, e.g. W,R.
    #[arg(long, value_name = "COLOURS", default_value = "")]
    pub filled: String,
    /// Exact hits so far in the row.
    #[arg(long, default_value_t = 0)]
    pub hits: u8,
    /// The roll: each die's colour and value, e.g. "W3 K5 R1 B6 Y2 G4".
    #[arg(long, value_name = "DICE")]
    pub roll: String,
    /// Re-rolls you may still take (the active player only; 0 otherwise).
    #[arg(long, default_value_t = 0)]
    pub rerolls_left: u8,
    /// Cost per roll of the row-optimal policy (as in `exact twenty-one --c`).
    #[arg(long, default_value_t = 1.0, value_name = "C")]
    pub c: f64,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct AdviseDoom {
    #[command(flatten)]
    pub rules: crate::cli::doom::DoomRulesArgs,
    /// The dice just rolled, e.g. 1,1,5,2,3,4.
    #[arg(long, value_name = "DICE")]
    pub roll: String,
    /// Dice set aside earlier in this cycle (since the turn began or the last hot dice).
    #[arg(long, value_name = "DICE", default_value = "")]
    pub held: String,
    /// The turn's points so far (the held dice's included).
    #[arg(long, value_name = "POINTS", default_value_t = 0)]
    pub turn_points: u32,
    /// Your banked score: with --opponent, values become the probability of winning a game of
    /// two to --target under win-optimal play (the game is solved first: minutes at 10,000).
    #[arg(long, value_name = "POINTS", requires = "opponent")]
    pub score: Option<u64>,
    /// The opponent's banked score.
    #[arg(long, value_name = "POINTS", requires = "score")]
    pub opponent: Option<u64>,
    /// Your seat with --score: first (you roll first each round; the default) or second.
    #[arg(long, value_enum, requires = "score")]
    pub seat: Option<SeatOrder>,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// First or second to move each round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SeatOrder {
    First,
    Second,
}

#[derive(Args, Debug)]
pub struct AdviseBlackjack {
    #[command(flatten)]
    pub rules: BjRulesArgs,
    /// The player's cards, e.g. T,6 or 4,5,3 (A, 2-9, T, J, Q, K).
    #[arg(long, value_name = "CARDS")]
    pub hand: String,
    /// The dealer's up card.
    #[arg(long, value_name = "CARD")]
    pub up: String,
    /// Other cards known to be out of the shoe (seen this shoe), e.g. 5,5,T.
    #[arg(long, value_name = "CARDS", default_value = "")]
    pub removed: String,
    /// The chart whose action is shown beside (basic: the chart for the rules, or a file).
    #[arg(long, default_value = "basic")]
    pub strategy: String,
    #[command(flatten)]
    pub output: OutputArgs,
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

#[derive(Args, Debug)]
pub struct BlackjackExact {
    #[command(flatten)]
    pub rules: BjRulesArgs,

    /// Also evaluate this fixed strategy (basic, autoplay, mimic-dealer, never-bust or a chart
    /// file).
    #[arg(long)]
    pub strategy: Option<String>,

    /// A claimed RTP in percent: can these rules reach it under the best play?
    #[arg(long, value_name = "PCT", value_parser = parse_claim)]
    pub claim: Option<f64>,

    /// Show the effect on EV of each single rule change.
    #[arg(long)]
    pub sensitivity: bool,

    /// Post-split play: as before the split (cdz, the published convention) or optimal (cdp).
    #[arg(long, value_enum, default_value = "cdz")]
    pub post_split: PostSplit,

    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Subcommand, Debug)]
pub enum StrategiesCmd {
    /// Derive a strategy for a game's rules.
    #[command(subcommand)]
    Derive(DeriveGame),
    /// Compute index plays (deviations from the chart at counts) for a count and rules.
    #[command(subcommand)]
    Indices(IndicesGame),
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

#[derive(Args, Debug)]
pub struct IndicesBlackjack {
    #[command(flatten)]
    pub rules: BjRulesArgs,

    /// The count system (as sim's --count: a built-in name or a tag file).
    #[arg(long, value_name = "SYSTEM")]
    pub count: String,

    /// The chart the indices deviate from (default basic: the chart derived for the rules).
    #[arg(long, default_value = "basic")]
    pub strategy: String,

    /// Decks left in the shoe where the counts are evaluated (default: half the shoe).
    #[arg(long, value_name = "DECKS")]
    pub decks_left: Option<f64>,

    /// How the counter rounds its true count (as sim's --tc-rounding).
    #[arg(long, value_enum, default_value = "floor")]
    pub tc_rounding: TcRounding,

    /// The counts evaluated, LO..HI (true counts; for an unbalanced count, steps of one
    /// running count per deck left around the neutral count).
    #[arg(
        long,
        value_name = "LO..HI",
        default_value = "-10..10",
        allow_hyphen_values = true
    )]
    pub range: String,

    /// Write the file here instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum DeriveGame {
    /// The total-dependent blackjack chart with the highest EV for the rules, as CSV.
    #[command(
        after_help = "Example:\n  rtplab strategies derive blackjack --decks 6 --das > strategies/blackjack/6d-das.csv"
    )]
    Blackjack(DeriveBlackjack),
}

#[derive(Args, Debug)]
pub struct DeriveBlackjack {
    #[command(flatten)]
    pub rules: BjRulesArgs,

    /// Write the chart here instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
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
pub struct BlackjackCompare {
    #[command(flatten)]
    pub rules: BjRulesArgs,
    /// A strategy to compare (default basic). Every combination of the --strategy,
    /// --count, --ramp, --indices and --penetrations given is one configuration.
    #[arg(long = "strategy", num_args = 1)]
    pub strategies: Vec<String>,
    /// A count system to compare (as sim's --count); with it, configurations count and are
    /// compared by EV per round played and SCORE.
    #[arg(long = "count", num_args = 1)]
    pub counts: Vec<String>,
    /// A bet ramp to compare (as sim's --ramp; default 0:1).
    #[arg(long = "ramp", num_args = 1, allow_hyphen_values = true)]
    pub ramps: Vec<String>,
    /// An index-play set to compare (as sim's --indices; 'none' for none).
    #[arg(long = "indices", num_args = 1)]
    pub indices: Vec<String>,
    /// Cut-card penetrations to compare, e.g. 0.5,0.65,0.75,0.85 (a sweep; each one's shoes
    /// differ, so the pairing gains less). Every configuration plays the same number of shoes,
    /// --rounds of them at the first penetration: deeper cut cards deal more rounds.
    #[arg(long, value_delimiter = ',', num_args = 1)]
    pub penetrations: Vec<f64>,
    /// Counting options every counting configuration shares (as in sim).
    #[command(flatten)]
    pub play: CountPlay,
    /// Rounds per strategy.
    #[arg(long, default_value = "20M", value_parser = parse_rounds)]
    pub rounds: u64,
    #[command(flatten)]
    pub run: RunCommon,
    #[command(flatten)]
    pub output: OutputArgs,
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

#[derive(Args, Debug)]
pub struct BlackjackSim {
    #[command(flatten)]
    pub rules: BjRulesArgs,

    /// Strategy: basic (the best total-dependent chart for the rules given, derived at
    /// start-up), autoplay (the table's hit-until-over-11),
    /// mimic-dealer, never-bust, or the path of a chart file (CSV, see strategies/README.md).
    #[arg(long, default_value = "basic")]
    pub strategy: String,

    /// Insurance policy of the strategy when the dealer shows an ace (a counter's index set
    /// with an insurance entry, like i18's, decides insurance instead).
    #[arg(long, value_enum, default_value_t = Insurance::Never)]
    pub insurance: Insurance,

    /// Place the pairs side bet (same rank pays 11:1) with this stake, in main bets.
    #[arg(long, value_name = "STAKE", default_value_t = 0.0, value_parser = parse_stake)]
    pub pairs: f64,

    /// Place a bet behind every seat with this stake, in main bets.
    #[arg(long, value_name = "STAKE", default_value_t = 0.0, value_parser = parse_stake)]
    pub bet_behind: f64,

    /// Whether the bet behind matches the seat's doubles and splits.
    #[arg(long, value_enum, default_value_t = BehindFollows::All)]
    pub behind_follows: BehindFollows,

    #[command(flatten)]
    pub run: RunArgs,

    /// A claimed RTP in percent (e.g. 99.54) to test the estimate against.
    #[arg(long, value_name = "PCT", value_parser = parse_claim)]
    pub claim: Option<f64>,

    /// Shoes per chunk (the unit of work and of batch means); default: chosen from --rounds.
    #[arg(long, value_name = "N", value_parser = parse_positive)]
    pub chunk_shoes: Option<u64>,

    #[command(flatten)]
    pub counting: CountArgs,

    #[command(flatten)]
    pub output: OutputArgs,
}

/// Card counting: a counter plays --strategy unchanged and bets from a ramp on the count.
#[derive(Args, Debug, Clone, Default)]
pub struct CountArgs {
    /// Count the cards with this system: hi-lo, ko (unbalanced: bets on the running count,
    /// starting at 4 - 4 x decks), hi-opt-1, hi-opt-2, omega-2, zen, halves (Wong Halves), or
    /// the path of a tag file ('rank,tag' lines, see strategies/counts/).
    #[arg(long, value_name = "SYSTEM")]
    pub count: Option<String>,
    /// Bet ramp: "TC:units,..." sorted by count (the first entry covers every count at or
    /// below it, the last every count above it), or a file holding one; default "0:1" (flat).
    #[arg(long, value_name = "SPEC", allow_hyphen_values = true)]
    pub ramp: Option<String>,
    #[command(flatten)]
    pub play: CountPlay,
    /// Index plays: deviations from --strategy at counts: i18 (Illustrious 18), fab4 (Fab 4
    /// surrenders), a file of 'hand,up,play,when' lines (strategies/README.md), or several
    /// joined by '+' (i18+fab4). `rtplab strategies indices blackjack` makes a file for any
    /// count and rules.
    #[arg(long, value_name = "SET")]
    pub indices: Option<String>,
    /// Risk of ruin for this bankroll, in table minimums: the diffusion formula (lifetime and
    /// per trip) and simulated trips (bankroll paths along the simulated rounds).
    #[arg(long, value_name = "UNITS", value_parser = crate::cli::parse_count_limited)]
    pub bankroll: Option<u64>,
    /// Rounds the counter plays in one trip of the simulated bankroll paths (default 10k;
    /// with --bankroll).
    #[arg(long, value_name = "N", value_parser = crate::cli::parse_count_limited)]
    pub trip_rounds: Option<u64>,
    /// Rounds dealt per hour at the table: hourly EV and SD, and hours to N0.
    #[arg(long, value_name = "N")]
    pub rounds_per_hour: Option<f64>,
    /// An ace side count for betting: the bet's count gains W (count units) for each ace
    /// left beyond one in 13 cards (as Hi-Opt II and Omega II players use one: W = 2).
    #[arg(long, value_name = "W", allow_hyphen_values = true)]
    pub ace_side: Option<i32>,
    /// The table maximum in table minimums: a ramp that bets more is refused.
    #[arg(long, value_name = "UNITS")]
    pub table_max: Option<u32>,
    /// Also report the pairs bet against a perfect pairs counter (the ranks left known
    /// exactly): the share of rounds where it pays and its EV there.
    #[arg(long)]
    pub pairs_exposure: bool,
}

/// How a counter turns its count into a true count and where it plays: what `sim` and
/// `compare` share.
#[derive(Args, Debug, Clone, Default)]
pub struct CountPlay {
    /// How the decks remaining are known for the true count: exactly, or estimated to the
    /// nearest half deck or whole deck.
    #[arg(long, value_enum)]
    pub true_count: Option<TrueCount>,
    /// How the true count is made an integer (default floor).
    #[arg(long, value_enum)]
    pub tc_rounding: Option<TcRounding>,
    /// Back-count: sit out (watching) until the count is at or above TC.
    #[arg(long, value_name = "TC", allow_hyphen_values = true)]
    pub wong_in: Option<i32>,
    /// Leave when the count falls below TC, and stay out until the shuffle (default: the
    /// --wong-in count, if given).
    #[arg(long, value_name = "TC", allow_hyphen_values = true)]
    pub wong_out: Option<i32>,
    /// Spread to more spots at high counts: the counter bets its seats beyond the first
    /// (--players 2 or more) only at counts at or above TC, each from the ramp.
    #[arg(long, value_name = "TC", allow_hyphen_values = true)]
    pub spots_at: Option<i32>,
}

impl CountPlay {
    /// The first of these flags given (each needs --count).
    pub fn given(&self) -> Option<&'static str> {
        [
            ("--true-count", self.true_count.is_some()),
            ("--tc-rounding", self.tc_rounding.is_some()),
            ("--wong-in", self.wong_in.is_some()),
            ("--wong-out", self.wong_out.is_some()),
            ("--spots-at", self.spots_at.is_some()),
        ]
        .into_iter()
        .find(|g| g.1)
        .map(|g| g.0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TrueCount {
    Exact,
    HalfDeck,
    FullDeck,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TcRounding {
    Floor,
    Truncate,
    Nearest,
}

impl TcRounding {
    pub fn as_str(self) -> &'static str {
        match self {
            TcRounding::Floor => "floor",
            TcRounding::Truncate => "truncate",
            TcRounding::Nearest => "nearest",
        }
    }
}

impl CountArgs {
    /// The counting request, or `None` without --count (then no other counting option may be
    /// given).
    pub fn spec(&self) -> anyhow::Result<Option<rtplab::games::blackjack::count::CountSpec>> {
        use rtplab::games::blackjack::count::{CountSpec, CountSystem, Ramp, TcMode};
        let Some(name) = &self.count else {
            let given = [
                ("--ramp", self.ramp.is_some()),
                (self.play.given().unwrap_or(""), self.play.given().is_some()),
                ("--indices", self.indices.is_some()),
                ("--bankroll", self.bankroll.is_some()),
                ("--trip-rounds", self.trip_rounds.is_some()),
                ("--rounds-per-hour", self.rounds_per_hour.is_some()),
                ("--pairs-exposure", self.pairs_exposure),
                ("--ace-side", self.ace_side.is_some()),
                ("--table-max", self.table_max.is_some()),
            ];
            if let Some((flag, _)) = given.iter().find(|g| g.1) {
                anyhow::bail!("{flag} needs --count SYSTEM (the count it bets or plays on)");
            }
            return Ok(None);
        };
        let system = CountSystem::resolve(name)?;
        let ramp = Ramp::resolve(self.ramp.as_deref().unwrap_or("0:1"))?;
        let p = &self.play;
        if !system.balanced() && (p.true_count.is_some() || p.tc_rounding.is_some()) {
            anyhow::bail!(
                "--count {name} is unbalanced: it bets on the running count, so --true-count and --tc-rounding do not apply"
            );
        }
        let spec = CountSpec {
            system,
            ramp,
            true_count: match p.true_count.unwrap_or(TrueCount::Exact) {
                TrueCount::Exact => TcMode::Exact,
                TrueCount::HalfDeck => TcMode::HalfDeck,
                TrueCount::FullDeck => TcMode::FullDeck,
            },
            rounding: match p.tc_rounding.unwrap_or(TcRounding::Floor) {
                TcRounding::Floor => rtplab::games::blackjack::count::TcRounding::Floor,
                TcRounding::Truncate => rtplab::games::blackjack::count::TcRounding::Truncate,
                TcRounding::Nearest => rtplab::games::blackjack::count::TcRounding::Nearest,
            },
            wong_in: p.wong_in,
            wong_out: p.wong_out,
            indices: match &self.indices {
                Some(s) => Some(rtplab::games::blackjack::indices::IndexSet::resolve(s)?),
                None => None,
            },
            bankroll: match (self.bankroll, self.trip_rounds) {
                (Some(units), trip) => Some(rtplab::games::blackjack::count::Bankroll {
                    units,
                    trip_rounds: trip.unwrap_or(10_000),
                }),
                (None, Some(_)) => anyhow::bail!("--trip-rounds needs --bankroll UNITS"),
                (None, None) => None,
            },
            spots_at: p.spots_at,
            pairs_exposure: self.pairs_exposure,
            ace_side: self.ace_side,
            table_max: self.table_max,
            labels: rtplab::games::blackjack::count::CountLabels {
                rounds_per_hour: self.rounds_per_hour,
            },
        };
        spec.validate()?;
        Ok(Some(spec))
    }
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

/// How the bettor behind follows the seated player's doubles and splits
/// (`rtplab::games::blackjack::report::BehindFollows` on the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BehindFollows {
    /// Match every double and split (same result as the seat).
    All,
    /// Decline: the bet stays on the first hand, settled as undoubled.
    None,
}

impl From<BehindFollows> for rtplab::games::blackjack::report::BehindFollows {
    fn from(b: BehindFollows) -> Self {
        match b {
            BehindFollows::All => Self::All,
            BehindFollows::None => Self::None,
        }
    }
}

/// Post-split play in the analysis (`rtplab::games::blackjack::exact::PostSplit` on the
/// command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PostSplit {
    /// Each split hand plays as the same cards would before the split (CDZ-), the convention
    /// of published combinatorial analyzers.
    #[value(name = "cdz", alias = "cdz-")]
    CdzMinus,
    /// Each split hand plays optimally knowing the pair cards removed (CDP).
    #[value(name = "cdp")]
    Cdp,
}

impl From<PostSplit> for rtplab::games::blackjack::exact::PostSplit {
    fn from(p: PostSplit) -> Self {
        match p {
            PostSplit::CdzMinus => Self::CdzMinus,
            PostSplit::Cdp => Self::Cdp,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Insurance {
    Never,
    Always,
}

#[derive(Args, Debug)]
pub struct RunArgs {
    /// Rounds to simulate (100M, 1e9 and 2.5k are accepted). With a cut card, whole shoes are
    /// played, so the count is met approximately.
    #[arg(long, default_value = "100M", value_parser = parse_rounds)]
    pub rounds: u64,

    #[command(flatten)]
    pub base: RunBase,
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

impl TryFrom<&BlackjackSim> for rtplab::games::blackjack::BjConfig {
    type Error = anyhow::Error;
    fn try_from(args: &BlackjackSim) -> anyhow::Result<Self> {
        use rtplab::games::blackjack::{report::SideBets, resolve::resolve_strategy};
        let rules = args.rules.to_rules()?;
        let strategy = resolve_strategy(&args.strategy, &rules)?;
        Ok(rtplab::games::blackjack::BjConfig {
            rules,
            strategy,
            bets: SideBets {
                pairs: args.pairs,
                behind: args.bet_behind,
                behind_follows: args.behind_follows.into(),
                insure: args.insurance == Insurance::Always,
            },
            rounds: args.run.rounds,
            count: args.counting.spec()?,
        })
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

/// Every rule of the blackjack table; unset flags keep the preset's value.
#[derive(Args, Debug)]
pub struct BjRulesArgs {
    /// Rule preset to start from.
    #[arg(long, value_enum, default_value_t = Preset::Seed)]
    pub rules: Preset,
    /// Decks in the shoe.
    #[arg(long, value_name = "N")]
    pub decks: Option<u32>,
    /// Dealer hits soft 17 (default: stands on all 17s).
    #[arg(long)]
    pub h17: bool,
    /// Blackjack payout.
    #[arg(long, value_name = "3:2|6:5|1:1", value_parser = parse_bj_pays)]
    pub bj_pays: Option<BjPays>,
    /// Hole-card game: the dealer peeks for blackjack (instead of European no-hole-card).
    #[arg(long)]
    pub peek: bool,
    /// No-hole-card game: what a dealer blackjack takes (all wagers, or the original bet only).
    #[arg(long, value_name = "all|original", value_parser = parse_takes)]
    pub dealer_bj_takes: Option<DealerBjTakes>,
    /// When surrender is allowed.
    #[arg(long, value_name = "none|2-9|late|early", value_parser = parse_surrender)]
    pub surrender: Option<Surrender>,
    /// Which first two cards may be doubled.
    #[arg(long, value_name = "any|9-11|10-11", value_parser = parse_double)]
    pub double: Option<Double>,
    /// Double after split allowed.
    #[arg(long)]
    pub das: bool,
    /// Most hands after splitting (1 = no splitting).
    #[arg(long, value_name = "N")]
    pub max_hands: Option<u8>,
    /// Aces may be resplit.
    #[arg(long)]
    pub resplit_aces: bool,
    /// Split aces may be hit (default: one card each).
    #[arg(long)]
    pub hit_split_aces: bool,
    /// What makes a splittable pair.
    #[arg(long, value_name = "value|rank", value_parser = parse_split_by)]
    pub split_by: Option<SplitBy>,
    /// Cut card position as the fraction of the shoe dealt (e.g. 0.75).
    #[arg(long, value_name = "F")]
    pub penetration: Option<f64>,
    /// Shuffle the whole shoe before every round (continuous shuffler).
    #[arg(long)]
    pub shuffle_every_round: bool,
    /// Seated players, all playing the chosen strategy.
    #[arg(long, value_name = "N")]
    pub players: Option<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Preset {
    /// The live table: 8 decks, S17, 3:2, ENHC lose-all, surrender vs 2-9, no DAS, 2 hands.
    Seed,
}

impl BjRulesArgs {
    /// Whether the no-hole-card settlement was chosen explicitly.
    pub fn settlement_given(&self) -> bool {
        self.dealer_bj_takes.is_some()
    }

    /// The validated rule set these flags describe.
    pub fn to_rules(&self) -> Result<Rules, ArgError> {
        let mut r = match self.rules {
            Preset::Seed => Rules::seed(),
        };
        if self.peek && self.dealer_bj_takes.is_some() {
            return Err(
                "--dealer-bj-takes applies to the no-hole-card game only; drop it or drop --peek"
                    .into(),
            );
        }
        if self.shuffle_every_round && self.penetration.is_some() {
            return Err("--penetration places a cut card, which --shuffle-every-round does not use; give one of them".into());
        }
        if let Some(d) = self.decks {
            r.decks = d;
        }
        r.h17 |= self.h17;
        if let Some(p) = self.bj_pays {
            r.bj_pays = p;
        }
        r.peek |= self.peek;
        if let Some(t) = self.dealer_bj_takes {
            r.dealer_bj_takes = t;
        }
        if let Some(s) = self.surrender {
            r.surrender = s;
        }
        if let Some(d) = self.double {
            r.double = d;
        }
        r.das |= self.das;
        if let Some(m) = self.max_hands {
            r.max_hands = m;
        }
        r.resplit_aces |= self.resplit_aces;
        r.hit_split_aces |= self.hit_split_aces;
        if let Some(s) = self.split_by {
            r.split_by = s;
        }
        if let Some(p) = self.penetration {
            r.shuffle = Shuffle::CutCard { penetration: p };
        }
        if self.shuffle_every_round {
            r.shuffle = Shuffle::EveryRound;
        }
        if let Some(p) = self.players {
            r.players = p;
        }
        r.validate().map_err(|e| e.to_string())?;
        Ok(r)
    }
}

fn parse_bj_pays(s: &str) -> Result<BjPays, String> {
    match s {
        "3:2" => Ok(BjPays::ThreeToTwo),
        "6:5" => Ok(BjPays::SixToFive),
        "1:1" => Ok(BjPays::OneToOne),
        _ => Err(format!("expected 3:2, 6:5 or 1:1, found '{s}'")),
    }
}
fn parse_takes(s: &str) -> Result<DealerBjTakes, String> {
    match s {
        "all" => Ok(DealerBjTakes::All),
        "original" | "obo" | "OBO" => Ok(DealerBjTakes::Original),
        _ => Err(format!("expected all or original, found '{s}'")),
    }
}
fn parse_surrender(s: &str) -> Result<Surrender, String> {
    match s {
        "none" | "no" => Ok(Surrender::None),
        "2-9" => Ok(Surrender::TwoToNine),
        "late" => Ok(Surrender::Late),
        "early" => Ok(Surrender::Early),
        _ => Err(format!("expected none, 2-9, late or early, found '{s}'")),
    }
}
fn parse_double(s: &str) -> Result<Double, String> {
    match s {
        "any" => Ok(Double::Any),
        "9-11" => Ok(Double::NineToEleven),
        "10-11" => Ok(Double::TenToEleven),
        _ => Err(format!("expected any, 9-11 or 10-11, found '{s}'")),
    }
}
fn parse_split_by(s: &str) -> Result<SplitBy, String> {
    match s {
        "value" => Ok(SplitBy::Value),
        "rank" => Ok(SplitBy::Rank),
        _ => Err(format!("expected value or rank, found '{s}'")),
    }
}

pub fn parse_rounds(s: &str) -> Result<u64, String> {
    use rtplab::games::blackjack::sim::MAX_ROUNDS;
    let n = parse_count(s)?;
    if n == 0 {
        return Err("must be at least 1".into());
    }
    if n > MAX_ROUNDS {
        return Err(format!(
            "{s} is more than one run can hold (at most 1e16 rounds, in shards of at most 1e14 each with --shard K/N)"
        ));
    }
    Ok(n)
}

/// The blackjack audit's rounds per tier, or 0 for none: at most what one run holds (the
/// audit has no shards).
pub(crate) fn parse_audit_rounds(s: &str) -> Result<u64, String> {
    use rtplab::games::blackjack::sim::MAX_ROUNDS_PER_SHARD;
    let n = parse_count(s)?;
    if n > MAX_ROUNDS_PER_SHARD {
        return Err(format!(
            "{s} is more than one audit can simulate (at most 1e14 rounds a tier)"
        ));
    }
    Ok(n)
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

fn parse_stake(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=1000.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected a stake in main bets from 0 to 1000, found '{s}'"
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
