//! Blackjack's command-line types (clap derive) and their conversion into library jobs.

use std::path::PathBuf;

use clap::Args;

use super::heading;

use super::{parse_claim, parse_positive, ArgError, OutputArgs, RunBase, RunCommon};
use rtplab::compare::CompareJob;
use rtplab::game::SimJob;
use rtplab::games::blackjack::jobs::{
    AdviseJob, AuditJob, DeriveJob, ExactJob, IndicesJob, RampJob, RampSource,
};
use rtplab::games::blackjack::rules::{
    BjPays, DealerBjTakes, Double, Rules, Shuffle, SplitBy, Surrender,
};
use rtplab::games::blackjack::{count, resolve::resolve_strategy, BjConfig, Blackjack};
use rtplab::numparse::parse_count;

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

    /// Post-split play: as before the split (cdz, the published convention) or optimal (cdp).
    ///
    /// One split is exact; resplits to 3 or 4 hands follow E. Farmer's algorithm.
    #[arg(help_heading = heading::STRATEGY, long, value_enum, default_value = "cdz")]
    pub post_split: PostSplit,

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

    /// Decks left in the shoe where the counts are evaluated (default: half the shoe).
    ///
    /// Each count is evaluated on a shoe of this many decks whose composition is tilted to
    /// that count.
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

    /// Write the file here instead of standard output.
    #[arg(help_heading = heading::OUTPUT, long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub quiet: super::QuietArgs,
}

/// `strategies ramp blackjack`: the bet ramp with the highest SCORE within a spread.
#[derive(Args, Debug)]
pub struct RampBlackjack {
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
    /// played, and the ramp is optimised over the rounds played.
    #[command(flatten)]
    pub play: CountPlay,

    /// The bet spread, 1-MAX units: bets run from the minimum (1 unit) to MAX.
    #[arg(help_heading = heading::COUNTING, long, value_name = "1-MAX", default_value = "1-12", value_parser = parse_spread)]
    pub spread: u32,

    /// Bets above the minimum are whole chips of this many units (the maximum always allowed).
    #[arg(help_heading = heading::COUNTING, long, value_name = "UNITS", default_value_t = 1)]
    pub chip: u32,

    /// Rounds of the flat-bet counting simulation the table comes from (default 20M).
    #[arg(help_heading = heading::RUN, long, value_parser = parse_rounds)]
    pub rounds: Option<u64>,

    /// Take the table (share, EV and variance per count) from a counting run's JSON report
    /// (`sim blackjack --count ... --format json`) instead of simulating.
    #[arg(help_heading = heading::COUNTING, long, value_name = "RUN.json")]
    pub from: Option<PathBuf>,

    /// Bankroll in units: Kelly bets for it at each count, and the risk of ruin of every ramp
    /// (default 1000 units for the risk of ruin, no Kelly bets).
    #[arg(help_heading = heading::COUNTING, long, value_name = "UNITS")]
    pub bankroll: Option<f64>,

    /// Fraction of Kelly for the Kelly bets (with --bankroll; default 1, full Kelly).
    #[arg(help_heading = heading::COUNTING, long, value_name = "K")]
    pub kelly: Option<f64>,

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
    #[command(flatten)]
    pub run: RunCommon,
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

    /// Insurance policy of the strategy when the dealer shows an ace (a counter's index set
    /// with an insurance entry, like i18's, decides insurance instead).
    ///
    /// Insurance taken is reported on its own, per stake of that bet (half the main bet).
    #[arg(help_heading = heading::STRATEGY, long, value_enum, default_value_t = Insurance::Never)]
    pub insurance: Insurance,

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

    #[command(flatten)]
    pub output: OutputArgs,
}

/// Card counting: a counter plays --strategy unchanged and bets from a ramp on the count.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = heading::COUNTING)]
pub struct CountArgs {
    /// Count the cards with this system: hi-lo, ko (unbalanced: bets on the running count,
    /// starting at 4 - 4 x decks), hi-opt-1, hi-opt-2, omega-2, zen, halves (Wong Halves), or
    /// the path of a tag file ('rank,tag' lines, see strategies/counts/).
    ///
    /// A counter plays --strategy unchanged (unless --indices) and bets from --ramp. It sees
    /// every card as it is exposed (the peek game's hole card only when turned, nothing behind
    /// the cut card) and every shuffle. Balanced counts bet on the true count (--true-count,
    /// --tc-rounding). The other counting flags need --count. A tag file's lines are
    /// `rank,tag` with the ranks A, 2-9 and T (every ten-valued card).
    ///
    /// Example: --count strategies/counts/zen.csv
    #[arg(long, value_name = "SYSTEM")]
    pub count: Option<String>,
    /// Bet ramp: "TC:units,..." sorted by count (the first entry covers every count at or
    /// below it, the last every count above it), or a file holding one; default "0:1" (flat).
    ///
    /// Each entry TC:units bets that many table minimums from count TC up to the next entry's
    /// count (true counts for a balanced count, running counts for an unbalanced one). Counts
    /// from -100 to 100, units from 1 to 1,000,000; to sit out, use --wong-in. A ramp file
    /// holds the same entries, separated by commas or one a line, with `#` comments. A flat
    /// ramp plays exactly the uncounted game.
    ///
    /// Example: --ramp 0:1,1:2,2:4,3:8,4:12 bets 1 unit at counts of 0 or less, 2 at +1, 4 at
    /// +2, 8 at +3, 12 at +4 and above.
    #[arg(long, value_name = "SPEC", allow_hyphen_values = true)]
    pub ramp: Option<String>,
    #[command(flatten)]
    pub play: CountPlay,
    /// Index plays: deviations from --strategy at counts: i18 (Illustrious 18), fab4 (Fab 4
    /// surrenders), a file of 'hand,up,play,when' lines (strategies/README.md), or several
    /// joined by '+' (i18+fab4). `rtplab strategies indices blackjack` makes a file for any
    /// count and rules.
    ///
    /// Each entry plays otherwise than the chart when the count at the moment of the decision
    /// meets its condition, e.g. `H16,T,S,>=0` (stand on 16 against a ten at a count of 0 or
    /// more) or `insurance,A,I,>=3`. The shipped i18 and fab4 are the published Hi-Lo numbers
    /// for multi-deck S17 hole-card games.
    ///
    /// Example: --indices strategies/blackjack/indices-hilo-seed.csv (computed for the seed
    /// table)
    #[arg(long, value_name = "SET")]
    pub indices: Option<String>,
    /// Risk of ruin for this bankroll, in table minimums: the diffusion formula (lifetime and
    /// per trip) and simulated trips (bankroll paths along the simulated rounds).
    ///
    /// The report's `ror` section and a ruin-curve plot; a trip is --trip-rounds rounds.
    #[arg(long, value_name = "UNITS", value_parser = crate::cli::parse_count_limited)]
    pub bankroll: Option<u64>,
    /// Rounds the counter plays in one trip of the simulated bankroll paths (default 10k;
    /// with --bankroll).
    #[arg(long, value_name = "N", value_parser = crate::cli::parse_count_limited)]
    pub trip_rounds: Option<u64>,
    /// Rounds dealt per hour at the table: hourly EV and SD, and hours to N0 (default 100).
    ///
    /// N0 is the number of rounds after which the expected win equals one SD of the result.
    /// A wonger plays only the rounds it bets of those dealt.
    #[arg(long, value_name = "N")]
    pub rounds_per_hour: Option<f64>,
    /// The bankroll whose lifetime risk of ruin is this: "5%" or 0.05 (JSON
    /// `bankroll_for_ror`).
    ///
    /// The Brownian formula RoR = e^(-2·ev·B/var) inverted: B = -var·ln(RoR)/(2·ev), with the
    /// run's EV and variance per round played (insurance included), in table minimums. The
    /// report adds 1,000 simulated trips with that bankroll that check it, and the risk of
    /// ruin of bankrolls from a quarter to four times it (a table and risk-by-bankroll.svg).
    #[arg(long, value_name = "ROR", value_parser = parse_ror)]
    pub target_ror: Option<f64>,
    /// Kelly multiple of the certainty equivalent at --bankroll (default 1, full Kelly; 0.5
    /// is half Kelly).
    ///
    /// CE per round = EV - var/(2·k·B): the EV less the risk cost of a bettor with bankroll B
    /// whose risk aversion is that of k times Kelly (JSON `certainty_equivalent`; the
    /// Arrow–Pratt approximation for constant relative risk aversion 1/k).
    ///
    /// Example: --bankroll 10000 --kelly 0.5
    #[arg(long, value_name = "K")]
    pub kelly: Option<f64>,
    /// An ace side count for betting: the bet's count gains W (count units) for each ace
    /// left beyond one in 13 cards (as Hi-Opt II and Omega II players use one: W = 2).
    ///
    /// Playing decisions (--indices) keep the plain count. Example: --count hi-opt-2
    /// --ace-side 2
    #[arg(long, value_name = "W", allow_hyphen_values = true)]
    pub ace_side: Option<i32>,
    /// The table maximum in table minimums: a ramp that bets more is refused.
    ///
    /// Checked against --ramp before the run, so that a ramp the table would not take is
    /// never simulated.
    #[arg(long, value_name = "UNITS")]
    pub table_max: Option<u32>,
    /// Also report the pairs bet against a perfect pairs counter (the ranks left known
    /// exactly): the share of rounds where it pays and its EV there.
    #[arg(long)]
    pub pairs_exposure: bool,
}

/// A risk of ruin as a percentage ("5%") or a fraction (0.05), strictly between 0 and 1.
fn parse_ror(s: &str) -> Result<f64, String> {
    let r = if s.trim().ends_with('%') {
        rtplab::numparse::parse_percent(s)?
    } else {
        s.trim()
            .parse::<f64>()
            .map_err(|_| format!("expected a risk of ruin such as 5% or 0.05, found '{s}'"))?
    };
    if r > 0.0 && r < 1.0 {
        Ok(r)
    } else {
        Err(format!(
            "'{s}': a risk of ruin is above 0 and below 1 (100%)"
        ))
    }
}

/// How a counter turns its count into a true count and where it plays: what `sim` and
/// `compare` share.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = heading::COUNTING)]
pub struct CountPlay {
    /// How the decks remaining are known for the true count: exactly, or estimated to the
    /// nearest half deck or whole deck.
    ///
    /// The true count is the running count divided by the decks remaining (default exact).
    /// Balanced counts only: an unbalanced count (ko) bets on the running count.
    #[arg(long, value_enum)]
    pub true_count: Option<TrueCount>,
    /// How the true count is made an integer (default floor).
    ///
    /// floor rounds down (-0.5 is -1), truncate towards zero (-0.5 is 0), nearest to the
    /// nearest integer. Balanced counts only.
    #[arg(long, value_enum)]
    pub tc_rounding: Option<TcRounding>,
    /// Back-count: sit out (watching) until the count is at or above TC.
    ///
    /// A seat sitting out is still dealt and played as by another player, so the cards never
    /// depend on the counter's bets. Example: --wong-in 1 --wong-out 0
    #[arg(long, value_name = "TC", allow_hyphen_values = true)]
    pub wong_in: Option<i32>,
    /// Leave when the count falls below TC, and stay out until the shuffle (default: the
    /// --wong-in count, if given).
    #[arg(long, value_name = "TC", allow_hyphen_values = true)]
    pub wong_out: Option<i32>,
    /// Spread to more spots at high counts: the counter bets its seats beyond the first
    /// (--players 2 or more) only at counts at or above TC, each from the ramp.
    ///
    /// Example: --players 2 --spots-at 3
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
    /// The decks remaining, known exactly.
    Exact,
    /// Estimated to the nearest half deck.
    HalfDeck,
    /// Estimated to the nearest whole deck.
    FullDeck,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TcRounding {
    Floor,
    Truncate,
    Nearest,
}

impl From<TcRounding> for count::TcRounding {
    fn from(r: TcRounding) -> Self {
        match r {
            TcRounding::Floor => Self::Floor,
            TcRounding::Truncate => Self::Truncate,
            TcRounding::Nearest => Self::Nearest,
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
                ("--target-ror", self.target_ror.is_some()),
                ("--kelly", self.kelly.is_some()),
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
        for (flag, arg) in [("--ramp", &self.ramp), ("--indices", &self.indices)] {
            let foreign = arg
                .as_deref()
                .and_then(|a| count::foreign_to(&system, flag, a));
            if let Some(w) = foreign {
                eprintln!("warning: {w}");
            }
        }
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
            rounding: p.tc_rounding.unwrap_or(TcRounding::Floor).into(),
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
                target_ror: self.target_ror,
                kelly: self.kelly,
            },
        };
        if self.kelly.is_some() && self.bankroll.is_none() {
            anyhow::bail!(
                "--kelly needs --bankroll UNITS (the bankroll of the certainty equivalent)"
            );
        }
        if let Some(k) = self.kelly {
            if !(k.is_finite() && k > 0.0 && k <= 10.0) {
                anyhow::bail!("--kelly {k}: expected a Kelly multiple above 0 and at most 10");
            }
        }
        spec.validate()?;
        Ok(Some(spec))
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

/// Every rule of the blackjack table; unset flags keep the preset's value.
#[derive(Args, Debug)]
#[command(next_help_heading = heading::RULES)]
pub struct BjRulesArgs {
    /// Rule preset to start from.
    #[arg(long, value_enum, default_value_t = Preset::Seed)]
    pub rules: Preset,
    /// Decks in the shoe (1 to 64; the seed table: 8).
    #[arg(long, value_name = "N")]
    pub decks: Option<u32>,
    /// Dealer hits soft 17 (default: stands on all 17s).
    #[arg(long)]
    pub h17: bool,
    /// Blackjack payout (the seed table: 3:2).
    #[arg(long, value_name = "3:2|6:5|1:1", value_parser = parse_bj_pays)]
    pub bj_pays: Option<BjPays>,
    /// Hole-card game: the dealer peeks for blackjack (instead of European no-hole-card).
    #[arg(long)]
    pub peek: bool,
    /// No-hole-card game: what a dealer blackjack takes (all wagers, or the original bet only).
    ///
    /// all (the seed table, the European convention): doubled and split bets are lost too.
    /// original (also obo): only the original bet is lost, which has the EV of a hole-card
    /// game. Without --peek only; `exact blackjack` without this flag reports both.
    #[arg(long, value_name = "all|original", value_parser = parse_takes)]
    pub dealer_bj_takes: Option<DealerBjTakes>,
    /// When surrender is allowed.
    ///
    /// 2-9 (the seed table): against a dealer 2 to 9 only; late: against any up card, after
    /// the peek in a hole-card game (without a hole card, late surrender does not escape a
    /// dealer blackjack: the whole bet is lost); early: against any up card, before the peek
    /// (half the bet even against a blackjack); none (also no). Surrender gives up half the
    /// main bet, on the first two cards only.
    #[arg(long, value_name = "none|2-9|late|early", value_parser = parse_surrender)]
    pub surrender: Option<Surrender>,
    /// Which first two cards may be doubled (the seed table: any).
    ///
    /// 9-11 and 10-11 are hard totals; a double takes exactly one more card.
    #[arg(long, value_name = "any|9-11|10-11", value_parser = parse_double)]
    pub double: Option<Double>,
    /// Double after split allowed.
    #[arg(long)]
    pub das: bool,
    /// Most hands after splitting (1 = no splitting).
    ///
    /// 2 at the seed table (split once); up to 8 in simulation, 4 in the exact analysis.
    #[arg(long, value_name = "N")]
    pub max_hands: Option<u8>,
    /// Aces may be resplit (needs --max-hands 3 or more).
    #[arg(long)]
    pub resplit_aces: bool,
    /// Split aces may be hit (default: one card each).
    #[arg(long)]
    pub hit_split_aces: bool,
    /// What makes a splittable pair.
    ///
    /// value (the seed table): any two ten-valued cards (K-Q) are a pair; rank: only the same
    /// rank (K-K). The exact analysis approximates rank by value and says so.
    #[arg(long, value_name = "value|rank", value_parser = parse_split_by)]
    pub split_by: Option<SplitBy>,
    /// Cut card position as the fraction of the shoe dealt (e.g. 0.75).
    ///
    /// 0.75 at the seed table. A round begun before the cut card is dealt from the same
    /// shoe, so at least 8 cards per hand at the table must lie behind it. Not with
    /// --shuffle-every-round.
    #[arg(long, value_name = "F")]
    pub penetration: Option<f64>,
    /// Shuffle the whole shoe before every round (continuous shuffler).
    #[arg(long)]
    pub shuffle_every_round: bool,
    /// Seated players, all playing the chosen strategy (1 to 7; default 1).
    ///
    /// They are dealt from the same shoe. With --spots-at, a counter bets its seats beyond
    /// the first only at high counts.
    #[arg(long, value_name = "N")]
    pub players: Option<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Preset {
    /// The live table: 8 decks, S17, 3:2, ENHC (lose all), surrender 2-9, no DAS, 2 hands.
    Seed,
}

impl BjRulesArgs {
    /// Whether the no-hole-card settlement was chosen explicitly.
    pub fn settlement_given(&self) -> bool {
        self.dealer_bj_takes.is_some()
    }

    /// The validated rule set these flags describe.
    pub fn to_rules(&self) -> Result<Rules, ArgError> {
        self.build(true)
    }

    /// The rule set for an analysis that deals no shoe to its cut card (advise, exact,
    /// derive, indices): the cut card's place is not checked (`Rules::validate_undealt`).
    pub fn to_rules_undealt(&self) -> Result<Rules, ArgError> {
        self.build(false)
    }

    fn build(&self, dealt: bool) -> Result<Rules, ArgError> {
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
        let checked = if dealt {
            r.validate()
        } else {
            r.validate_undealt()
        };
        checked.map_err(|e| e.to_string())?;
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
        let claim = args
            .claim
            .or(config.rules.default_claim(config.count.is_some()));
        Ok(SimJob {
            config,
            spec: args.run.base.spec(args.chunk_shoes)?,
            claim,
            outputs: (&args.output).into(),
        })
    }
}

impl TryFrom<&BlackjackCompare> for CompareJob<Blackjack> {
    type Error = anyhow::Error;
    fn try_from(args: &BlackjackCompare) -> anyhow::Result<Self> {
        if args.counts.is_empty() {
            let given = [
                ("--ramp", !args.ramps.is_empty()),
                ("--indices", !args.indices.is_empty()),
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
        let mut counts = Vec::new();
        for count in or_default(&args.counts) {
            for ramp in or_default(&args.ramps) {
                for indices in or_default(&args.indices) {
                    let c = CountArgs {
                        count: count.clone(),
                        ramp: ramp.clone(),
                        play: args.play.clone(),
                        indices: indices.filter(|s| s != "none"),
                        ..Default::default()
                    };
                    counts.push(c.spec()?);
                }
            }
        }
        let rules = args.rules.to_rules()?;
        let configs = rtplab::games::blackjack::jobs::compare_configs(
            &rules,
            args.rounds,
            &args.strategies,
            &args.penetrations,
            &counts,
        )?;
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
        let strategy = match &args.strategy {
            Some(s) => Some(resolve_strategy(s, &rules)?),
            None => None,
        };
        Ok(ExactJob {
            config: rtplab::games::blackjack::exact_report::ExactConfig {
                both_settlements: !args.rules.settlement_given(),
                claim: args.claim.or(rules.default_claim(false)),
                rules,
                strategy,
                sensitivity: args.sensitivity,
                post_split: args.post_split.into(),
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
        })
    }
}

impl TryFrom<&IndicesBlackjack> for IndicesJob {
    type Error = anyhow::Error;
    fn try_from(args: &IndicesBlackjack) -> anyhow::Result<Self> {
        use rtplab::games::blackjack::strategy::StrategySpec;
        let rules = args.rules.to_rules_undealt()?;
        let system = count::CountSystem::resolve(&args.count)?;
        let StrategySpec::Chart(chart) = resolve_strategy(&args.strategy, &rules)? else {
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
        Ok(IndicesJob {
            rules,
            system,
            chart: *chart,
            decks_left: args.decks_left,
            rounding: args.tc_rounding.into(),
            range,
            outputs: super::file_output(&args.output),
        })
    }
}

impl TryFrom<&AdviseBlackjack> for AdviseJob {
    type Error = anyhow::Error;
    fn try_from(args: &AdviseBlackjack) -> anyhow::Result<Self> {
        let rules = args.rules.to_rules_undealt()?;
        Ok(AdviseJob {
            strategy: resolve_strategy(&args.strategy, &rules)?,
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
            },
            outputs: (&args.output).into(),
        })
    }
}

impl TryFrom<&RampBlackjack> for RampJob {
    type Error = anyhow::Error;
    fn try_from(args: &RampBlackjack) -> anyhow::Result<Self> {
        use rtplab::games::blackjack::ramp::{RampRequest, Spread};
        use rtplab::games::blackjack::report::SideBets;
        let source = match &args.from {
            Some(path) => {
                let given = [
                    ("--count", args.count.is_some()),
                    ("--indices", args.indices.is_some()),
                    ("--rounds", args.rounds.is_some()),
                    (args.play.given().unwrap_or(""), args.play.given().is_some()),
                ];
                if let Some((flag, _)) = given.iter().find(|g| g.1) {
                    anyhow::bail!(
                        "--from reads the table from a report, which fixes the count and its play: drop {flag}"
                    );
                }
                RampSource::Report(path.clone())
            }
            None => {
                if args.count.is_none() {
                    anyhow::bail!(
                        "--count SYSTEM is needed (the count the ramp bets on), or --from RUN.json"
                    );
                }
                let counting = CountArgs {
                    count: args.count.clone(),
                    play: args.play.clone(),
                    indices: args.indices.clone(),
                    ..Default::default()
                };
                let rules = args.rules.to_rules()?;
                let config = BjConfig {
                    strategy: resolve_strategy(&args.strategy, &rules)?,
                    rules,
                    bets: SideBets::none(),
                    rounds: args.rounds.unwrap_or(20_000_000),
                    count: counting.spec()?,
                };
                RampSource::Simulate {
                    config: Box::new(config),
                    spec: args.run.spec()?,
                }
            }
        };
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
        Ok(RampJob {
            source,
            request: RampRequest {
                spread,
                kelly: args.bankroll.map(|b| (b, kelly)),
                ror_bankroll: args.bankroll.unwrap_or(1000.0),
            },
            ramp_out: args.ramp_out.clone(),
            outputs: (&args.output).into(),
        })
    }
}
