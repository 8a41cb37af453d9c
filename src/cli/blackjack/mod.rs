//! Blackjack's command-line types (clap derive) and their conversion into library jobs.

use std::path::PathBuf;

use clap::Args;

use super::heading;

use super::{parse_claim, parse_positive, OutputArgs, RunBase, RunCommon};
use rtplab::compare::CompareJob;
use rtplab::game::SimJob;
use rtplab::games::blackjack::jobs::{
    AdviseJob, AuditJob, DeriveJob, ExactJob, IndexObjective, IndicesJob, MetricsJob, RampJob,
    RampSource,
};
use rtplab::games::blackjack::kept::Kept;
use rtplab::games::blackjack::{count, resolve::resolve_strategy, BjConfig, Blackjack};
use rtplab::numparse::parse_count;

mod bets;
mod counting;
mod rules;
mod team;

pub use bets::BetsBlackjack;
pub use counting::{CountArgs, CountPlay, TcRounding};
pub use rules::BjRulesArgs;
pub use team::TeamBlackjack;

/// Where the solved tables of the rules are kept: the chart derived for them (`basic`) and the
/// count metrics' effects of removal.
#[derive(Args, Debug, Clone, Default)]
pub struct TablesArgs {
    /// Derive the chart for the rules (and the count metrics' tables) for this run only: the
    /// cache folder is neither read nor written.
    ///
    /// By default they are kept in the cache folder ($RTPLAB_CACHE, else
    /// $XDG_CACHE_HOME/rtplab, else ~/.cache/rtplab), one entry per rule set, and read from
    /// there by later runs in milliseconds (docs/cache.md).
    #[arg(help_heading = heading::ANALYSIS, long)]
    pub no_cache: bool,
}

impl TablesArgs {
    /// Where the tables are kept: the cache folder unless --no-cache.
    pub fn kept(&self) -> Kept {
        match self.no_cache {
            true => Kept::Fresh,
            false => Kept::cache_folder(),
        }
    }
}

#[derive(Args, Debug)]
pub struct BlackjackAudit {
    #[command(flatten)]
    pub rules: BjRulesArgs,

    /// The claimed RTP in percent (per initial bet, as tables advertise it).
    ///
    /// Adds the rounds a test needs to tell the claim from each tier's exact RTP, the
    /// acceptance bands drawn with the claim, and what would make the claim true: every single
    /// rule change, and every pair of changes that fall short alone, analysed exactly.
    /// The seed table's own rules are held against the published 99.54% without this flag;
    /// other rules only against a claim given.
    #[arg(help_heading = heading::ANALYSIS, long, value_name = "PCT", value_parser = parse_claim)]
    pub claim: Option<f64>,

    /// Rounds to simulate for each tier that can be simulated (basic, auto-play); 0: exact
    /// analysis only.
    ///
    /// One seat, every round from a fresh shoe (the exact analysis's setting, and independent
    /// rounds for the tests); at most 1e14.
    #[arg(help_heading = heading::RUN, long, default_value = "100M", value_parser = parse_audit_rounds)]
    pub rounds: u64,

    #[command(flatten)]
    pub run: RunCommon,

    /// The tier whose RTP per amount wagered and SD go into the `monitoring` object that
    /// `rtplab monitor --expected` reads.
    ///
    /// The tier the table's players are expected to play: basic for a table of informed
    /// players, autoplay for players who let the table act, optimal as the upper bound.
    #[arg(help_heading = heading::OUTPUT, long, value_enum, default_value_t = MonitorTier::Basic)]
    pub monitor_tier: MonitorTier,

    #[command(flatten)]
    pub side: super::SideArgs,

    #[command(flatten)]
    pub tables: TablesArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// The tier `monitor` checks live play against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MonitorTier {
    /// Composition-dependent play, the most a player can get.
    Optimal,
    /// The basic chart derived for the rules.
    Basic,
    /// The table's auto-play (hit until over 11).
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

#[derive(Args, Debug)]
pub struct AdviseBlackjack {
    #[command(flatten)]
    pub rules: BjRulesArgs,
    /// The player's cards, e.g. T,6 or 4,5,3 (A, 2-9, T, J, Q, K).
    ///
    /// Two cards: every action the rules allow (stand, hit, double, split, surrender); three
    /// or more: stand or hit. A busted hand is refused.
    #[arg(help_heading = heading::POSITION, long, value_name = "CARDS")]
    pub hand: String,
    /// The dealer's up card (A, 2-9, T, J, Q, K).
    ///
    /// Values are after the dealer's peek in a hole-card game (--peek), and before the hole
    /// card without one.
    #[arg(help_heading = heading::POSITION, long, value_name = "CARD")]
    pub up: String,
    /// Other cards known to be out of the shoe (seen this shoe), e.g. 5,5,T.
    ///
    /// The EVs are those of the shoe as it stands: the full shoe less the hand, the up card
    /// and these cards. A card the shoe no longer holds is refused.
    #[arg(help_heading = heading::POSITION, long, value_name = "CARDS", default_value = "")]
    pub removed: String,
    /// The chart whose action is shown beside (basic: the chart for the rules, or a file).
    ///
    /// Example: --strategy strategies/blackjack/seed.csv
    #[arg(help_heading = heading::STRATEGY, long, default_value = "basic")]
    pub strategy: String,
    #[command(flatten)]
    pub tables: TablesArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub quiet: super::QuietArgs,
}

#[derive(Args, Debug)]
pub struct BlackjackExact {
    #[command(flatten)]
    pub rules: BjRulesArgs,

    /// Also evaluate this fixed strategy (basic, autoplay, mimic-dealer, never-bust or a chart
    /// file).
    ///
    /// Example: --strategy strategies/blackjack/6d-h17-peek-das-4hands.csv
    #[arg(help_heading = heading::STRATEGY, long)]
    pub strategy: Option<String>,

    /// A claimed RTP in percent: can these rules reach it under the best play?
    ///
    /// Exact, so there is no sampling error: the claim holds or it does not, and the report
    /// says by how much. The seed table's own rules are held against the published 99.54%
    /// without this flag; other rules only against a claim given.
    #[arg(help_heading = heading::ANALYSIS, long, value_name = "PCT", value_parser = parse_claim)]
    pub claim: Option<f64>,

    /// Show the effect on EV of each single rule change.
    ///
    /// The EV after changing one rule at a time: decks, H17, DAS, split hands, surrender
    /// kind, the no-hole-card settlement, the blackjack payout.
    #[arg(help_heading = heading::ANALYSIS, long)]
    pub sensitivity: bool,

    /// Cards out of the shoe, e.g. 5,5,T: the round's exact EV and best play from what is left.
    ///
    /// As a combinatorial analyser: the EV of a round dealt from the shoe less these cards,
    /// and the best play on every two-card hand from it (A, 2-9, T, J, Q, K; comma
    /// separated). Example: --removed 5,5,5,5 (a single deck without its fives).
    #[arg(help_heading = heading::ANALYSIS, long, value_name = "CARDS")]
    pub removed: Option<String>,

    /// The shoe's cards by value instead of --decks' full shoe: A,2,3,4,5,6,7,8,9,T counts.
    ///
    /// Ten whole counts, tens, jacks, queens and kings together (--removed is taken from it).
    /// Example: --shoe 4,4,4,4,0,4,4,4,4,16 (a deck without fives).
    #[arg(help_heading = heading::ANALYSIS, long, value_name = "COUNTS")]
    pub shoe: Option<String>,

    /// Post-split play: as before the split (cdz, the published convention) or optimal (cdp).
    ///
    /// One split is exact; resplits to 3 or 4 hands follow E. Farmer's algorithm.
    #[arg(help_heading = heading::STRATEGY, long, value_enum, default_value = "cdz")]
    pub post_split: PostSplit,

    #[command(flatten)]
    pub side: super::SideArgs,

    #[command(flatten)]
    pub tables: TablesArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub quiet: super::QuietArgs,
}

#[derive(Args, Debug)]
pub struct IndicesBlackjack {
    #[command(flatten)]
    pub rules: BjRulesArgs,

    /// The count system (as sim's --count: a built-in name or a tag file).
    ///
    /// hi-lo, ko, hi-opt-1, hi-opt-2, omega-2, zen, halves, or the path of a tag file
    /// (`rank,tag` lines, e.g. strategies/counts/zen.csv).
    #[arg(help_heading = heading::COUNTING, long, value_name = "SYSTEM")]
    pub count: String,

    /// The chart the indices deviate from (default basic: the chart derived for the rules).
    ///
    /// basic or a chart file; the built-in policies (autoplay, ...) are not charts.
    #[arg(help_heading = heading::STRATEGY, long, default_value = "basic")]
    pub strategy: String,

    /// Decks left in the shoe where the counts are evaluated (default: half the shoe, at
    /// least 0.75).
    ///
    /// Each count is evaluated on a shoe of this many decks whose composition is tilted to
    /// that count: more than 0.5 and at most the shoe's decks (a single deck's default is
    /// 0.75).
    #[arg(help_heading = heading::ANALYSIS, long, value_name = "DECKS")]
    pub decks_left: Option<f64>,

    /// How the counter rounds its true count (as sim's --tc-rounding).
    #[arg(help_heading = heading::COUNTING, long, value_enum, default_value = "floor")]
    pub tc_rounding: TcRounding,

    /// The counts evaluated, LO..HI (true counts; for an unbalanced count, steps of one
    /// running count per deck left around the neutral count).
    ///
    /// Example: --range -6..8
    #[arg(
        help_heading = heading::ANALYSIS,
        long,
        value_name = "LO..HI",
        default_value = "-10..10",
        allow_hyphen_values = true
    )]
    pub range: String,

    /// What the indices maximise: each hand's EV (the usual indices), or SCORE under --ramp
    /// (risk-averse indices).
    ///
    /// score: a play is taken at a count only where its EV gain beats its rise in variance at
    /// the ramp's bet there, weighed by the game's EV/(2·variance) per round under the ramp,
    /// from a counting simulation of --rounds (Schlesinger's risk-averse indices). Doubles
    /// and hits into risk come later, surrenders sooner. Splits and insurance stay on EV.
    ///
    /// Example: --objective score --ramp 0:1,1:2,2:4,3:8,4:12
    #[arg(help_heading = heading::COUNTING, long, value_enum, default_value = "ev")]
    pub objective: Objective,

    /// The bet ramp SCORE is maximised under (with --objective score; as sim's --ramp).
    #[arg(help_heading = heading::COUNTING, long, value_name = "SPEC", allow_hyphen_values = true)]
    pub ramp: Option<String>,

    /// Rounds of the counting simulation that gives the ramp's EV and variance per round
    /// (with --objective score; default 10M).
    #[arg(help_heading = heading::RUN, long, value_parser = parse_rounds)]
    pub rounds: Option<u64>,

    /// Check each index by simulation (CVIndex's method), appended to the file as comments.
    ///
    /// Hands of each play's situation dealt from shoes at each true count within 4 of its
    /// index, both plays played out from the same cards; the EV difference and its SE by
    /// count, the simulated crossing beside the analytic one, and the plays more than one
    /// count apart beyond 2 SE (docs/counting.md, 'Indices checked by simulation').
    #[arg(help_heading = heading::ANALYSIS, long)]
    pub verify: bool,

    /// Shoes dealt for --verify (default 20k; the time the check takes).
    #[arg(help_heading = heading::ANALYSIS, long, value_parser = parse_rounds, value_name = "N")]
    pub verify_shoes: Option<u64>,

    /// Most hands of one play at one count for --verify (default 4000).
    #[arg(help_heading = heading::ANALYSIS, long, value_parser = parse_rounds, value_name = "N")]
    pub verify_hands: Option<u64>,

    /// Write the file here instead of standard output.
    #[arg(help_heading = heading::OUTPUT, long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Also write the chart and its index plays as a printable card, one coloured A4 page
    /// (SVG; HTML for .html).
    #[arg(help_heading = heading::OUTPUT, long, value_name = "PATH")]
    pub card: Option<PathBuf>,
    #[command(flatten)]
    pub tables: TablesArgs,
    #[command(flatten)]
    pub run: RunCommon,
}

/// What generated indices maximise.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// The EV of each hand.
    Ev,
    /// SCORE under the ramp (risk-averse indices).
    Score,
}

/// `strategies metrics blackjack`: effects of removal and count metrics.
#[derive(Args, Debug)]
pub struct MetricsBlackjack {
    #[command(flatten)]
    pub rules: BjRulesArgs,

    /// The count to measure: a built-in name, a tag file, or all (the seven built-ins).
    ///
    /// hi-lo, ko, hi-opt-1, hi-opt-2, omega-2, zen, halves, all, or the path of a tag file
    /// (`rank,tag` lines, e.g. strategies/counts/zen.csv).
    #[arg(help_heading = heading::COUNTING, long, value_name = "SYSTEM", default_value = "all")]
    pub count: String,

    /// The chart whose EV the effects of removal change (default basic: the chart derived for
    /// the rules).
    ///
    /// basic or a chart file; the built-in policies (autoplay, ...) are not charts.
    #[arg(help_heading = heading::STRATEGY, long, default_value = "basic")]
    pub strategy: String,

    /// Side bets to count (as sim's --side): each one's effects of removal by rank and the
    /// integer counts fitted to them, with their betting correlations.
    #[command(flatten)]
    pub side: super::SideArgs,
    #[command(flatten)]
    pub tables: TablesArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub quiet: super::QuietArgs,
}

impl TryFrom<&MetricsBlackjack> for MetricsJob {
    type Error = anyhow::Error;
    fn try_from(args: &MetricsBlackjack) -> anyhow::Result<Self> {
        use rtplab::games::blackjack::strategy::StrategySpec;
        args.rules.uniform_shuffle("strategies metrics")?;
        let rules = args.rules.to_rules()?;
        let systems = if args.count == "all" {
            count::BUILT_IN
                .iter()
                .map(|b| count::CountSystem::resolve(b.0))
                .collect::<Result<Vec<_>, _>>()?
        } else {
            vec![count::CountSystem::resolve(&args.count)
                .map_err(|e| anyhow::anyhow!("--count {}: {e}", args.count))?]
        };
        let tables = args.tables.kept();
        let StrategySpec::Chart(chart) = resolve_strategy(&args.strategy, &rules, &tables)? else {
            anyhow::bail!(
                "--strategy {}: the effects of removal are those of a chart (basic or a chart file)",
                args.strategy
            );
        };
        Ok(MetricsJob {
            rules,
            chart: *chart,
            systems,
            sides: args.side.bets(rtplab::sidebet::Game::Blackjack)?,
            tables,
            outputs: (&args.output).into(),
        })
    }
}

/// `strategies ramp blackjack`: the bet ramp with the highest SCORE within a spread.
#[derive(Args, Debug)]
pub struct RampBlackjack {
    #[command(flatten)]
    pub table: CountTableArgs,

    /// The bet spread, 1-MAX units: bets run from the minimum (1 unit) to MAX.
    #[arg(help_heading = heading::COUNTING, long, value_name = "1-MAX", default_value = "1-12", value_parser = parse_spread)]
    pub spread: u32,

    /// Bets above the minimum are whole chips of this many units (the maximum always allowed).
    #[arg(help_heading = heading::COUNTING, long, value_name = "UNITS", default_value_t = 1)]
    pub chip: u32,

    /// Bankroll in units: Kelly bets for it at each count, and the risk of ruin of every ramp
    /// (default 1000 units for the risk of ruin, no Kelly bets).
    #[arg(help_heading = heading::COUNTING, long, value_name = "UNITS")]
    pub bankroll: Option<f64>,

    /// Fraction of Kelly for the Kelly bets (with --bankroll; default 1, full Kelly).
    #[arg(help_heading = heading::COUNTING, long, value_name = "K")]
    pub kelly: Option<f64>,

    /// Cover: no bet more than K times the bet at the count below it (K at least 1, e.g. 2).
    ///
    /// The report gives the SCORE the limit costs beside the optimum without it, and every
    /// ramp's largest jump. A raise beyond x2 is taken as one a casino notices (a judgement).
    #[arg(help_heading = heading::COUNTING, long, value_name = "K")]
    pub max_jump: Option<f64>,

    /// Write the optimal ramp here, as the file sim's --ramp reads.
    #[arg(help_heading = heading::OUTPUT, long, value_name = "FILE")]
    pub ramp_out: Option<PathBuf>,

    #[command(flatten)]
    pub run: RunCommon,

    #[command(flatten)]
    pub output: OutputArgs,
}

/// `1-MAX` (the minimum bet is one unit): MAX.
fn parse_spread(s: &str) -> Result<u32, String> {
    let max = s
        .split_once('-')
        .filter(|(lo, _)| lo.trim() == "1")
        .and_then(|(_, hi)| hi.trim().parse::<u32>().ok());
    match max {
        Some(m) if (1..=count::MAX_UNITS).contains(&m) => Ok(m),
        _ => Err(format!(
            "expected 1-MAX, e.g. 1-12 (the minimum bet is 1 unit, MAX at most {}), found '{s}'",
            count::MAX_UNITS
        )),
    }
}

#[derive(Args, Debug)]
pub struct DeriveBlackjack {
    #[command(flatten)]
    pub rules: BjRulesArgs,

    /// Write the chart here instead of standard output.
    #[arg(help_heading = heading::OUTPUT, long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Also write the chart as a printable card, one coloured A4 page (SVG; HTML for .html).
    #[arg(help_heading = heading::OUTPUT, long, value_name = "PATH")]
    pub card: Option<PathBuf>,
    #[command(flatten)]
    pub quiet: super::QuietArgs,
}

#[derive(Args, Debug)]
pub struct BlackjackCompare {
    #[command(flatten)]
    pub rules: BjRulesArgs,
    /// A strategy to compare (default basic). Every combination of the --strategy,
    /// --count, --ramp, --indices and --penetrations given is one configuration.
    ///
    /// Repeat the flag: --strategy basic --strategy autoplay --strategy
    /// strategies/blackjack/seed.csv. Names as in `sim blackjack --strategy`.
    #[arg(help_heading = heading::STRATEGY, long = "strategy", num_args = 1)]
    pub strategies: Vec<String>,
    /// A count system to compare (as sim's --count); with it, configurations count and are
    /// compared by EV per round played and SCORE.
    #[arg(help_heading = heading::COUNTING, long = "count", num_args = 1)]
    pub counts: Vec<String>,
    /// A bet ramp to compare (as sim's --ramp; default 0:1).
    #[arg(help_heading = heading::COUNTING, long = "ramp", num_args = 1, allow_hyphen_values = true)]
    pub ramps: Vec<String>,
    /// An index-play set to compare (as sim's --indices; 'none' for none).
    #[arg(help_heading = heading::COUNTING, long = "indices", num_args = 1)]
    pub indices: Vec<String>,
    /// Cover plays to compare (as sim's --cover; 'none' for none), or 'each': none, every
    /// play alone (top, parlay, max-rise=2, no-big-insurance, no-ten-split) and all together.
    ///
    /// Each pair's difference is what the plays cost, paired on the same shoes. Example:
    /// --count hi-lo --indices i18 --ramp 0:1,1:2,2:4,3:8,4:12 --cover each
    #[arg(help_heading = heading::COUNTING, long = "cover", num_args = 1)]
    pub covers: Vec<String>,
    /// Cut-card penetrations to compare, e.g. 0.5,0.65,0.75,0.85 (a sweep; each one's shoes
    /// differ, so the pairing gains less). Every configuration plays the same number of shoes,
    /// --rounds of them at the first penetration: deeper cut cards deal more rounds.
    #[arg(help_heading = heading::RULES, long, value_delimiter = ',', num_args = 1)]
    pub penetrations: Vec<f64>,
    /// Counting options every counting configuration shares (as in sim).
    #[command(flatten)]
    pub play: CountPlay,
    /// Rounds per strategy.
    ///
    /// 20M, 1e8 and 2.5k are accepted. With --penetrations every configuration plays the
    /// same number of shoes: those that deal this many rounds at the first penetration.
    #[arg(help_heading = heading::RUN, long, default_value = "20M", value_parser = parse_rounds)]
    pub rounds: u64,
    /// Side bets every configuration places (as sim's --side).
    #[command(flatten)]
    pub side: super::SideArgs,
    #[command(flatten)]
    pub run: RunCommon,
    #[command(flatten)]
    pub tables: TablesArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct BlackjackSim {
    #[command(flatten)]
    pub rules: BjRulesArgs,

    /// Strategy: basic (the best total-dependent chart for the rules given, derived at
    /// start-up), autoplay (the table's hit-until-over-11),
    /// mimic-dealer, never-bust, or the path of a chart file (CSV, see strategies/README.md).
    ///
    /// basic is what `strategies derive blackjack` writes for the same rules (under the seed
    /// rules, strategies/blackjack/seed.csv; under --dealer-bj-takes original, the chart for
    /// that settlement). mimic-dealer hits below 17 (and soft 17 when the dealer does) and
    /// never doubles, splits or surrenders; never-bust hits hard totals up to 11 and soft
    /// totals up to 17. A chart file is played as written, and the report says in how many
    /// cells it differs from the chart derived for the rules in force; shards and baselines
    /// know a chart by its content, not its path.
    ///
    /// Example: --strategy strategies/blackjack/6d-h17-peek-das-4hands.csv
    #[arg(help_heading = heading::STRATEGY, long, default_value = "basic")]
    pub strategy: String,

    /// One seat's play, in seat order (sets the number of players; overrides --strategy):
    /// a strategy or a count, then key=value words.
    ///
    /// The first word is a strategy as for --strategy (basic, autoplay, mimic-dealer,
    /// never-bust, a chart file) or a count's name (hi-lo, ko, ...: a counter playing basic).
    /// Keys: strategy, count, ramp, indices, wong-in, wong-out, max-entries, true-count,
    /// tc-rounding, miscount (as the counting flags) and insurance (always or never). Each
    /// counter sees every card at the table and bets on its own count; the report gives each
    /// seat's figures beside the table's. Quote a value with spaces.
    ///
    /// Example: --seat basic --seat autoplay --seat 'hi-lo ramp=0:1,1:2,2:4,3:8 indices=i18'
    #[arg(help_heading = heading::STRATEGY, long = "seat", value_name = "SPEC")]
    pub seats: Vec<String>,

    /// Place the bet behind on this seat only (1 is the first dealt; needs --seat): its RTP
    /// is that seat's play.
    ///
    /// Example: --seat basic --seat autoplay --bet-behind 1 --behind-seat 2
    #[arg(help_heading = heading::SIDE_BETS, long, value_name = "N")]
    pub behind_seat: Option<u8>,

    /// Insurance policy of the strategy when the dealer shows an ace (a counter's index set
    /// with an insurance entry, like i18's, decides insurance instead).
    ///
    /// Insurance taken is reported on its own, per stake of that bet (half the main bet).
    #[arg(help_heading = heading::STRATEGY, long, value_enum, default_value_t = Insurance::Never)]
    pub insurance: Insurance,

    /// Mistakes: every seat plays the strategy as a player who errs: a preset (careful,
    /// casual, novice; none) or an errors file (TOML, docs/mistakes.md).
    ///
    /// Per decision kind a rate and the common misplays made (standing on 12-16 against a
    /// high card, not doubling soft hands, not splitting 8s, insurance, ...), bets left
    /// unchanged, a counter's miscounts and discard-tray estimate, and the dealer's payout
    /// errors both ways. The mistakes draw on a stream of their own: the same seed deals the
    /// same cards. The report gives the RTP without them where it is exact at once.
    /// Example: --errors casual
    #[arg(help_heading = heading::STRATEGY, long, value_name = "PRESET|FILE")]
    pub errors: Option<String>,

    /// Place the pairs side bet (same rank pays 11:1) with this stake, in main bets.
    ///
    /// From 0 to 1000. Its result is reported per stake of that bet, apart from the main
    /// bet; the report measures the bet's return even at stake 0.
    #[arg(help_heading = heading::SIDE_BETS, long, value_name = "STAKE", default_value_t = 0.0, value_parser = parse_stake)]
    pub pairs: f64,

    /// Place a bet behind every seat with this stake, in main bets.
    ///
    /// It wins or loses with the seat's hand; --behind-follows says whether it follows the
    /// seat's doubles and splits. Reported per stake of that bet (from 0 to 1000).
    #[arg(help_heading = heading::SIDE_BETS, long, value_name = "STAKE", default_value_t = 0.0, value_parser = parse_stake)]
    pub bet_behind: f64,

    /// Whether the bet behind matches the seat's doubles and splits.
    #[arg(help_heading = heading::SIDE_BETS, long, value_enum, default_value_t = BehindFollows::All)]
    pub behind_follows: BehindFollows,

    #[command(flatten)]
    pub side: super::SideArgs,

    #[command(flatten)]
    pub run: RunArgs,

    /// A claimed RTP in percent (e.g. 99.54) to test the estimate against.
    ///
    /// The report adds z, a p-value and a verdict (docs/how-it-works.md). Flat-bet play of
    /// the seed table's own rules is tested against the published 99.54% without this flag;
    /// a card counter's run (--count) or other rules test only a claim given, and the report
    /// says in one line why none is tested. A claim of at most 1 (such as 0.9954) is taken
    /// for a fraction and refused.
    #[arg(help_heading = heading::RUN, long, value_name = "PCT", value_parser = parse_claim)]
    pub claim: Option<f64>,

    /// Shoes per chunk (the unit of work and of batch means); default: chosen from --rounds.
    ///
    /// Each chunk has its own random stream, so another chunk size gives other (equally
    /// valid) numbers, and shards of one run must share it. A size larger than the run is
    /// refused.
    #[arg(help_heading = heading::RUN, long, value_name = "N", value_parser = parse_positive)]
    pub chunk_shoes: Option<u64>,

    #[command(flatten)]
    pub counting: CountArgs,

    /// Also write the run's round log here: every round's cards with suits in dealing order,
    /// each seat's stakes, play and payouts (JSON Lines, gzip when FILE ends .gz, Zstandard
    /// when it ends .zst; the schema: docs/round-log.md). `rtplab verify blackjack FILE`
    /// checks a log round by round.
    ///
    /// The log is the run's own rounds, played again chunk by chunk after the run (about
    /// a million rounds a second). Example: --log-out table.jsonl.zst
    #[arg(help_heading = heading::OUTPUT, long, value_name = "FILE")]
    pub log_out: Option<PathBuf>,

    /// With --log-out: log every N-th shoe only (whole shoes, so each logged shoe can still
    /// be checked card by card).
    #[arg(help_heading = heading::OUTPUT, long, value_name = "N", requires = "log_out", value_parser = parse_positive)]
    pub log_every: Option<u64>,

    /// Also write per-round records here (Apache Parquet): a row per seat and round of the
    /// run's first rounds (--rounds-out-limit): cards, play, counts, bet, net, bankroll.
    ///
    /// The run's own rounds in its order, played again after the run as --log-out's are, so
    /// the file is the same whatever --threads. Columns: docs/round-log.md. Example:
    /// --rounds-out rounds.parquet
    #[arg(help_heading = heading::OUTPUT, long, value_name = "FILE")]
    pub rounds_out: Option<PathBuf>,

    /// With --rounds-out: record at most the run's first N rounds (default 100k; 1e8 at most).
    #[arg(help_heading = heading::OUTPUT, long, value_name = "N", requires = "rounds_out", value_parser = parse_rounds_limit)]
    pub rounds_out_limit: Option<u64>,

    #[command(flatten)]
    pub tables: TablesArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// At most `MAX_LIMIT` rounds, at least one.
fn parse_rounds_limit(s: &str) -> Result<u64, String> {
    use rtplab::games::blackjack::log::rounds::MAX_LIMIT;
    match crate::cli::parse_positive(s) {
        Ok(n) if n <= MAX_LIMIT => Ok(n),
        Ok(_) => Err(format!("at most {MAX_LIMIT} rounds (1e8), found '{s}'")),
        Err(e) => Err(e),
    }
}

impl TryFrom<&BlackjackSim> for rtplab::games::blackjack::log::write::LoggedSimJob {
    type Error = anyhow::Error;
    fn try_from(args: &BlackjackSim) -> anyhow::Result<Self> {
        use rtplab::games::blackjack::log::write::LogOptions;
        if args.log_out.is_none() && args.rounds_out.is_none() {
            anyhow::bail!("--log-out FILE names the round log");
        }
        let rules = args.rules.to_rules()?;
        let what = if args.log_out.is_some() {
            "--log-out"
        } else {
            "--rounds-out"
        };
        if rules.charlie.is_some() {
            anyhow::bail!(
                "--charlie: the round log's settlement (and `verify blackjack`) does not know the N-card Charlie; drop {what} or --charlie"
            );
        }
        if rules.free_bet {
            anyhow::bail!(
                "--free-bet: the round log's settlement (and `verify blackjack`) does not know Free Bet Blackjack; drop {what}"
            );
        }
        if args.errors.is_some() {
            anyhow::bail!(
                "--errors: the round log replays the strategy without its mistakes; drop {what} or --errors"
            );
        }
        Ok(rtplab::games::blackjack::log::write::LoggedSimJob {
            sim: SimJob::try_from(args)?,
            log: args.log_out.clone().map(|p| {
                (
                    p,
                    LogOptions {
                        every_shoe: args.log_every.unwrap_or(1),
                    },
                )
            }),
            rounds_out: args.rounds_out.clone().map(|p| {
                (
                    p,
                    args.rounds_out_limit
                        .unwrap_or(rtplab::games::blackjack::log::rounds::DEFAULT_LIMIT),
                )
            }),
        })
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
    /// Split hands play as those cards would unsplit (CDZ-), as published analyzers do.
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
    /// Never insure.
    Never,
    /// Insure every hand against an ace.
    Always,
}

#[derive(Args, Debug)]
#[command(next_help_heading = heading::RUN)]
pub struct RunArgs {
    /// Rounds to simulate (100M, 1e9 and 2.5k are accepted). With a cut card, whole shoes are
    /// played, so the count is met approximately.
    ///
    /// At most 1e16 in a run, and 1e14 in a shard (--shard K/N).
    #[arg(long, default_value = "100M", value_parser = parse_rounds)]
    pub rounds: u64,

    #[command(flatten)]
    pub base: RunBase,
}

impl TryFrom<&BlackjackSim> for BjConfig {
    type Error = anyhow::Error;
    fn try_from(args: &BlackjackSim) -> anyhow::Result<Self> {
        use rtplab::games::blackjack::{report::SideBets, resolve::resolve_strategy};
        let mut rules = args.rules.to_rules()?;
        let tables = args.tables.kept();
        let insure = args.insurance == Insurance::Always;
        let seats = seats_of(args, &mut rules, &tables, insure)?;
        let strategy = match seats.first() {
            // The first seat's, for what reads one strategy (every seat's is in `seats`).
            Some(s) => s.strategy.clone(),
            None => resolve_strategy(&args.strategy, &rules, &tables)?,
        };
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
            sides: args.side.bets(rtplab::sidebet::Game::Blackjack)?,
            errors: args
                .errors
                .as_deref()
                .map(rtplab::games::blackjack::mistakes::ErrorModel::resolve)
                .transpose()?,
            tables,
            seats,
            behind_seat: args.behind_seat,
        })
    }
}

/// The seats of `--seat` (none without it), the rules' players set to their number.
fn seats_of(
    args: &BlackjackSim,
    rules: &mut rtplab::games::blackjack::rules::Rules,
    tables: &Kept,
    insure: bool,
) -> anyhow::Result<Vec<rtplab::games::blackjack::seats::SeatSpec>> {
    use rtplab::games::blackjack::seats::{SeatSpec, MAX_SEATS};
    if args.seats.is_empty() {
        return Ok(Vec::new());
    }
    if args.seats.len() > MAX_SEATS {
        anyhow::bail!(
            "{} --seat given: the table has {MAX_SEATS} seats at most",
            args.seats.len()
        );
    }
    if args.counting.count.is_some() {
        anyhow::bail!(
            "--count counts for every seat: give each counter's count in its own --seat (e.g. --seat 'hi-lo ramp=0:1,2:4')"
        );
    }
    if args.counting.cover.is_some() {
        anyhow::bail!(
            "--cover is not played at a table of seats (the table does not give its seats' players their results): drop --cover or --seat"
        );
    }
    if args.log_out.is_some() || args.rounds_out.is_some() {
        anyhow::bail!(
            "--seat: the round log (--log-out, --rounds-out) replays one strategy for every seat; drop it or --seat"
        );
    }
    let players = super::players_for_seats(args.rules.players.map(usize::from), args.seats.len())?;
    rules.players = players as u8;
    rules.validate()?;
    args.seats
        .iter()
        .map(|s| Ok(SeatSpec::parse(s, rules, tables, insure)?))
        .collect()
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
    super::audit_sample(s, n, "rounds")
}

fn parse_stake(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=1000.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected a stake in main bets from 0 to 1000, found '{s}'"
        )),
    }
}

impl TryFrom<&BlackjackSim> for SimJob<Blackjack> {
    type Error = anyhow::Error;
    fn try_from(args: &BlackjackSim) -> anyhow::Result<Self> {
        let config = BjConfig::try_from(args)?;
        // Flat-bet play of the seed table's rules tests the table's published RTP unless
        // another claim is given; a counter's run, or other rules, only a claim given.
        let claim = args.claim.or(config.rules.default_claim(config.counts()));
        Ok(SimJob {
            config,
            spec: args.run.base.spec(args.chunk_shoes)?,
            claim,
            outputs: (&args.output).into(),
        })
    }
}

/// What `compare blackjack --cover each` compares: no cover, each play alone, all together.
const COVER_EACH: [&str; 7] = [
    "none",
    "top",
    "parlay",
    "max-rise=2",
    "no-big-insurance",
    "no-ten-split",
    "top+parlay+max-rise=2+no-big-insurance+no-ten-split",
];

impl TryFrom<&BlackjackCompare> for CompareJob<Blackjack> {
    type Error = anyhow::Error;
    fn try_from(args: &BlackjackCompare) -> anyhow::Result<Self> {
        if args.counts.is_empty() {
            let given = [
                ("--ramp", !args.ramps.is_empty()),
                ("--indices", !args.indices.is_empty()),
                ("--cover", !args.covers.is_empty()),
                (args.play.given().unwrap_or(""), args.play.given().is_some()),
            ];
            if let Some((flag, _)) = given.iter().find(|g| g.1) {
                anyhow::bail!("{flag} needs --count SYSTEM (the count it bets or plays on)");
            }
        }
        // Every combination of count, ramp and index set given (a list not given: its default).
        let or_default = |v: &[String]| -> Vec<Option<String>> {
            match v.is_empty() {
                true => vec![None],
                false => v.iter().cloned().map(Some).collect(),
            }
        };
        // `--cover each`: none, every play alone and all together.
        let covers: Vec<String> = args
            .covers
            .iter()
            .flat_map(|c| match c.trim() {
                "each" => COVER_EACH.iter().map(|s| s.to_string()).collect(),
                _ => vec![c.clone()],
            })
            .collect();
        let mut counts = Vec::new();
        for count in or_default(&args.counts) {
            for ramp in or_default(&args.ramps) {
                for indices in or_default(&args.indices) {
                    for cover in or_default(&covers) {
                        let c = CountArgs {
                            count: count.clone(),
                            ramp: ramp.clone(),
                            play: args.play.clone(),
                            indices: indices.clone().filter(|s| s != "none"),
                            cover,
                            ..Default::default()
                        };
                        counts.push(c.spec()?);
                    }
                }
            }
        }
        let rules = args.rules.to_rules()?;
        let mut configs = rtplab::games::blackjack::jobs::compare_configs(
            &rules,
            args.rounds,
            &args.strategies,
            &args.penetrations,
            &counts,
            &args.tables.kept(),
        )?;
        let sides = args.side.bets(rtplab::sidebet::Game::Blackjack)?;
        for c in &mut configs {
            c.sides = sides.clone();
        }

        Ok(CompareJob {
            configs,
            spec: args.run.spec()?,
            outputs: (&args.output).into(),
        })
    }
}

impl TryFrom<&BlackjackExact> for ExactJob {
    type Error = anyhow::Error;
    fn try_from(args: &BlackjackExact) -> anyhow::Result<Self> {
        let rules = args.rules.to_rules_undealt()?;
        let tables = args.tables.kept();
        let strategy = match &args.strategy {
            Some(s) => Some(resolve_strategy(s, &rules, &tables)?),
            None => None,
        };
        let shoe = match (&args.shoe, &args.removed) {
            (None, None) => None,
            (shoe, removed) => {
                let flag = if shoe.is_some() {
                    "--shoe"
                } else {
                    "--removed"
                };
                if args.sensitivity {
                    anyhow::bail!(
                        "--sensitivity changes the rules of a full shoe: drop it with {flag}"
                    );
                }
                if !args.side.side.is_empty() {
                    anyhow::bail!(
                        "--side values the side bets of a full shoe: drop it with {flag}"
                    );
                }
                Some(rtplab::games::blackjack::exact_report::shoe_of(
                    &rules,
                    shoe.as_deref(),
                    removed.as_deref().unwrap_or(""),
                )?)
            }
        };
        // A claim is about the table's full shoe: held against a depleted one only when given.
        let claim = match shoe {
            Some(_) => args.claim,
            None => args.claim.or(rules.default_claim(false)),
        };
        Ok(ExactJob {
            config: rtplab::games::blackjack::exact_report::ExactConfig {
                shoe,
                both_settlements: !args.rules.settlement_given(),
                claim,
                rules,
                strategy,
                sensitivity: args.sensitivity,
                post_split: args.post_split.into(),
                tables,
                sides: args.side.bets(rtplab::sidebet::Game::Blackjack)?,
            },
            outputs: (&args.output).into(),
        })
    }
}

impl TryFrom<&DeriveBlackjack> for DeriveJob {
    type Error = anyhow::Error;
    fn try_from(args: &DeriveBlackjack) -> anyhow::Result<Self> {
        Ok(DeriveJob {
            rules: args.rules.to_rules_undealt()?,
            outputs: super::file_output(&args.output),
            card: args.card.clone(),
        })
    }
}

impl TryFrom<&IndicesBlackjack> for IndicesJob {
    type Error = anyhow::Error;
    fn try_from(args: &IndicesBlackjack) -> anyhow::Result<Self> {
        use rtplab::games::blackjack::strategy::StrategySpec;
        let rules = args.rules.to_rules_undealt()?;
        let system = count::CountSystem::resolve(&args.count)?;
        let tables = args.tables.kept();
        let StrategySpec::Chart(chart) = resolve_strategy(&args.strategy, &rules, &tables)? else {
            anyhow::bail!(
                "--strategy {}: index plays deviate from a chart (basic or a chart file)",
                args.strategy
            );
        };
        let range = args
            .range
            .split_once("..")
            .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
        let Some(range) = range else {
            anyhow::bail!("--range {}: expected LO..HI, e.g. -10..10", args.range);
        };
        let objective = match args.objective {
            Objective::Ev => {
                let given = [
                    ("--ramp", args.ramp.is_some()),
                    ("--rounds", args.rounds.is_some()),
                ];
                if let Some((flag, _)) = given.iter().find(|g| g.1) {
                    anyhow::bail!(
                        "{flag} is for --objective score (risk-averse indices under a ramp)"
                    );
                }
                IndexObjective::Ev
            }
            Objective::Score => {
                let Some(ramp) = &args.ramp else {
                    anyhow::bail!(
                        "--objective score needs --ramp SPEC (the ramp whose SCORE the indices maximise), e.g. --ramp 0:1,1:2,2:4,3:8,4:12"
                    );
                };
                let counting = CountArgs {
                    count: Some(args.count.clone()),
                    ramp: Some(ramp.clone()),
                    // An unbalanced count bets on the running count: no true-count rounding.
                    play: CountPlay {
                        tc_rounding: system.balanced().then_some(args.tc_rounding),
                        ..Default::default()
                    },
                    ..Default::default()
                };
                let sim_rules = args.rules.to_rules()?;
                IndexObjective::Score {
                    config: Box::new(BjConfig {
                        strategy: StrategySpec::Chart(chart.clone()),
                        rules: sim_rules,
                        bets: rtplab::games::blackjack::report::SideBets::none(),
                        rounds: args.rounds.unwrap_or(10_000_000),
                        count: counting.spec()?,
                        sides: Vec::new(),
                        errors: None,
                        tables,
                        seats: Vec::new(),
                        behind_seat: None,
                    }),
                    spec: args.run.spec()?,
                }
            }
        };
        if !args.verify && (args.verify_shoes.is_some() || args.verify_hands.is_some()) {
            anyhow::bail!("--verify-shoes and --verify-hands size --verify: give --verify too");
        }
        let verify = match args.verify {
            false => None,
            true => Some(rtplab::games::blackjack::jobs::Verify {
                shoes: args.verify_shoes.unwrap_or(20_000),
                hands: args.verify_hands.unwrap_or(4_000),
                seed: args.run.seed,
                rules: args.rules.to_rules()?,
            }),
        };
        Ok(IndicesJob {
            verify,
            rules,
            system,
            chart: *chart,
            decks_left: args.decks_left,
            rounding: args.tc_rounding.into(),
            range,
            objective,
            outputs: super::file_output(&args.output),
            card: args.card.clone(),
        })
    }
}

impl TryFrom<&AdviseBlackjack> for AdviseJob {
    type Error = anyhow::Error;
    fn try_from(args: &AdviseBlackjack) -> anyhow::Result<Self> {
        let rules = args.rules.to_rules_undealt()?;
        Ok(AdviseJob {
            strategy: resolve_strategy(&args.strategy, &rules, &args.tables.kept())?,
            rules,
            hand: args.hand.clone(),
            up: args.up.clone(),
            removed: args.removed.clone(),
            outputs: (&args.output).into(),
        })
    }
}

impl TryFrom<&BlackjackAudit> for AuditJob {
    type Error = anyhow::Error;
    fn try_from(args: &BlackjackAudit) -> anyhow::Result<Self> {
        args.rules.uniform_shuffle("the audit")?;
        let rules = args.rules.to_rules()?;
        Ok(AuditJob {
            config: rtplab::games::blackjack::audit::AuditConfig {
                claim: args.claim.or(rules.default_claim(false)),
                rules,
                rounds: args.rounds,
                seed: args.run.seed,
                threads: args.run.threads,
                progress: !args.run.quiet,
                monitor_tier: args.monitor_tier.into(),
                on_simulation: None,
                tables: args.tables.kept(),
                sides: args.side.bets(rtplab::sidebet::Game::Blackjack)?,
            },
            outputs: (&args.output).into(),
        })
    }
}

impl TryFrom<&RampBlackjack> for RampJob {
    type Error = anyhow::Error;
    fn try_from(args: &RampBlackjack) -> anyhow::Result<Self> {
        use rtplab::games::blackjack::ramp::{RampRequest, Spread};
        let source = args.table.source(&args.run, "the ramp")?;
        if args.kelly.is_some() && args.bankroll.is_none() {
            anyhow::bail!("--kelly needs --bankroll UNITS (the bankroll the Kelly bets are for)");
        }
        if let Some(b) = args.bankroll {
            if !(b.is_finite() && b > 0.0 && b <= 1e12) {
                anyhow::bail!("--bankroll {b}: expected more than 0 units");
            }
        }
        let kelly = args.kelly.unwrap_or(1.0);
        if !(kelly.is_finite() && kelly > 0.0 && kelly <= 10.0) {
            anyhow::bail!("--kelly {kelly}: expected a fraction of Kelly above 0 and at most 10");
        }
        let spread = Spread {
            max: args.spread,
            chip: args.chip,
        };
        spread.validate()?;
        if let Some(k) = args.max_jump {
            if !(k.is_finite() && k >= 1.0) {
                anyhow::bail!(
                    "--max-jump {k}: expected a ratio of 1 or more (2: no bet above double the bet at the count below)"
                );
            }
        }
        Ok(RampJob {
            source,
            request: RampRequest {
                spread,
                kelly: args.bankroll.map(|b| (b, kelly)),
                ror_bankroll: args.bankroll.unwrap_or(1000.0),
                max_jump: args.max_jump,
            },
            ramp_out: args.ramp_out.clone(),
            pool_se: args.table.pool_se,
            outputs: (&args.output).into(),
        })
    }
}

/// Where a count table comes from (`strategies ramp` and `strategies bets`): a flat-bet
/// counting simulation of the rules, count, chart, index plays and play given, or a counting
/// run's report (`--from`).
#[derive(Args, Debug)]
pub struct CountTableArgs {
    #[command(flatten)]
    pub rules: BjRulesArgs,

    /// The count system (as sim's --count); needed unless --from gives the table.
    #[arg(help_heading = heading::COUNTING, long, value_name = "SYSTEM")]
    pub count: Option<String>,

    /// The chart the counter plays (as sim's --strategy).
    #[arg(help_heading = heading::STRATEGY, long, default_value = "basic")]
    pub strategy: String,

    /// Index plays (as sim's --indices).
    #[arg(help_heading = heading::COUNTING, long, value_name = "SET")]
    pub indices: Option<String>,

    /// How the counter counts and where it plays (as in sim): wonged-out rounds are not
    /// played and weigh nothing in the table; the bets are for the rounds played.
    #[command(flatten)]
    pub play: CountPlay,

    /// Rounds of the flat-bet counting simulation the table comes from (default 20M).
    #[arg(help_heading = heading::RUN, long, value_parser = parse_rounds)]
    pub rounds: Option<u64>,

    /// Pool the table's tails: a first or last count whose EV's SE is above this joins its
    /// neighbour toward the middle (0: pool none).
    ///
    /// The fit then never bets on a tail count's noise (at the seed table's 20M rounds each
    /// Hi-Lo count from +7 up alone has an SE above 0.5%).
    #[arg(help_heading = heading::COUNTING, long, value_name = "PCT", default_value = "0.5%", value_parser = crate::cli::parse_pool_se)]
    pub pool_se: f64,

    /// Take the table (share, EV and variance per count) from a counting run's JSON report
    /// (`sim blackjack --count ... --format json`) instead of simulating.
    #[arg(help_heading = heading::COUNTING, long, value_name = "RUN.json")]
    pub from: Option<PathBuf>,
    #[command(flatten)]
    pub tables: TablesArgs,
}

impl CountTableArgs {
    /// The count table's source: a counting run's report (`--from`, which fixes the count
    /// and its play), or a flat-bet counting simulation run with `run`. `what` names what bets
    /// on the count ("the ramp", "the bets"), for the messages.
    pub(crate) fn source(&self, run: &RunCommon, what: &str) -> anyhow::Result<RampSource> {
        use rtplab::games::blackjack::report::SideBets;
        if let Some(path) = &self.from {
            let given = [
                ("--count", self.count.is_some()),
                ("--indices", self.indices.is_some()),
                ("--rounds", self.rounds.is_some()),
                (self.play.given().unwrap_or(""), self.play.given().is_some()),
            ];
            if let Some((flag, _)) = given.iter().find(|g| g.1) {
                anyhow::bail!(
                    "--from reads the table from a report, which fixes the count and its play: drop {flag}"
                );
            }
            return Ok(RampSource::Report(path.clone()));
        }
        if self.count.is_none() {
            anyhow::bail!(
                "--count SYSTEM is needed (the count {what} bets on), or --from RUN.json"
            );
        }
        let counting = CountArgs {
            count: self.count.clone(),
            play: self.play.clone(),
            indices: self.indices.clone(),
            ..Default::default()
        };
        let rules = self.rules.to_rules()?;
        let tables = self.tables.kept();
        let config = BjConfig {
            strategy: resolve_strategy(&self.strategy, &rules, &tables)?,
            rules,
            bets: SideBets::none(),
            rounds: self.rounds.unwrap_or(20_000_000),
            count: counting.spec()?,
            sides: Vec::new(),
            errors: None,
            tables,
            seats: Vec::new(),
            behind_seat: None,
        };
        Ok(RampSource::Simulate {
            config: Box::new(config),
            spec: run.spec()?,
        })
    }
}
