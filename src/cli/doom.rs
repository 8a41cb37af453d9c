//! Command-line types of Dice of Doom.

use clap::Args;

use super::heading;

use super::{parse_count_limited, ArgError, OutputArgs, RunBase, RunCommon};
use rtplab::compare::CompareJob;
use rtplab::game::SimJob;
use rtplab::games::doom::game::DoomConfig;
use rtplab::games::doom::jobs::{AdviseJob, Analysis, AuditJob, ExactJob};
use rtplab::games::doom::rules::{self, DoomRules};
use rtplab::games::doom::Doom;

/// Every ruling of Dice of Doom; unset flags keep the preset's value.
#[derive(Args, Debug)]
#[command(next_help_heading = heading::RULES)]
pub struct DoomRulesArgs {
    /// Rule preset to start from.
    ///
    /// Every other rule flag changes one ruling of the preset. The rules and rulings of each
    /// preset are in docs/rules.md (section 3).
    #[arg(long, value_enum, default_value_t = DoomPreset::Seed)]
    pub rules: DoomPreset,
    /// A rule set in a file to start from instead (its rulings over its preset's; the flags
    /// below change them). Shipped: tables/doom-seed.toml (docs/tables.md).
    #[arg(long, value_name = "FILE", conflicts_with = "rules")]
    pub table: Option<std::path::PathBuf>,
    /// Value of a single 1.
    #[arg(long, value_name = "POINTS")]
    pub single_one: Option<u32>,
    /// Value of a single 5.
    #[arg(long, value_name = "POINTS")]
    pub single_five: Option<u32>,
    /// Value of three 1s.
    #[arg(long, value_name = "POINTS")]
    pub three_ones: Option<u32>,
    /// Four, five and six of a kind: flat (same as three), linear (2×/3×/4×) or doubling.
    ///
    /// At most one n-of-a-kind per face: six 6s are one six-of-a-kind, not two triples.
    #[arg(long, value_enum)]
    pub n_of_kind: Option<NOfKind>,
    /// Dice of a face beyond its three of a kind: part of the kind (kind: four 5s = 500 with
    /// flat kinds, the seed) or single 1s and 5s beside the triple (singles: four 5s = 550).
    ///
    /// kind: three or more dice of a face are one n-of-a-kind, never a triple plus single 1s
    /// or 5s, and score only through --n-of-kind (flat: four 5s = 500, four 1s = 1000).
    /// singles: the extra 1s and 5s may score as singles beside the triple, whichever
    /// partition is best. Under linear and doubling kinds an extra die is worth more than a
    /// single, so the two settings score alike there.
    #[arg(long, value_enum)]
    pub kind_extras: Option<KindExtras>,
    /// Five-dice straight value, or 'off'.
    #[arg(long, value_name = "POINTS|off", value_parser = parse_opt_points)]
    pub straight5: Option<OrOff<u32>>,
    /// Six-dice straight value, or 'off'.
    #[arg(long, value_name = "POINTS|off", value_parser = parse_opt_points)]
    pub straight6: Option<OrOff<u32>>,
    /// Three pairs value, or 'off'.
    #[arg(long, value_name = "POINTS|off", value_parser = parse_opt_points)]
    pub three_pairs: Option<OrOff<u32>>,
    /// Whether four of a kind plus a pair counts as three pairs.
    #[arg(long, value_name = "BOOL")]
    pub four_and_pair_is_three_pairs: Option<bool>,
    /// Two triplets value, or 'off'.
    #[arg(long, value_name = "POINTS|off", value_parser = parse_opt_points)]
    pub two_triplets: Option<OrOff<u32>>,
    /// Whether straights of five, three pairs and two triplets add the 1s and 5s in them.
    #[arg(long, value_name = "BOOL")]
    pub specials_add_singles: Option<bool>,
    /// Held dice combine across the cycle's rolls, or each roll scores separately.
    ///
    /// A cycle runs from the turn's start, or the last hot dice, to the next. Combining, a
    /// held 5 and three rolled 5s are four 5s (500 under flat kinds); separate, 50 + 500.
    #[arg(long, value_enum)]
    pub held_dice: Option<HeldDice>,
    /// After hot dice: must roll all six again (forced) or may bank (optional).
    #[arg(long, value_enum)]
    pub hot_dice: Option<HotDice>,
    /// A roll with this many sixes or more is doom, or 'off'.
    ///
    /// Doom ends the turn with nothing, even if the roll has scoring dice (the seed: 2 sixes).
    /// From 1 to 6.
    #[arg(long, value_name = "N|off", value_parser = parse_opt_small)]
    pub doom: Option<OrOff<u8>>,
    /// What doom wipes: the turn's points or also the bank.
    #[arg(long, value_enum)]
    pub doom_wipes: Option<DoomWipes>,
    /// A six-dice roll with no scoring die scores this and rolls again, or 'off'.
    #[arg(long, value_name = "POINTS|off", value_parser = parse_opt_points)]
    pub six_dice_no_score: Option<OrOff<u32>>,
    /// Banking needs at least this many turn points.
    #[arg(long, value_name = "POINTS")]
    pub min_bank: Option<u32>,
    /// K:P: the K-th farkle in a row costs P banked points (Zilch 3:500), or 'off'.
    ///
    /// With a penalty the exact analysis maximizes the long-run average per turn (one table
    /// per farkles-in-a-row count); the audit and the two-player solve refuse it.
    #[arg(long, value_name = "K:P|off", value_parser = parse_penalty)]
    pub farkle_penalty: Option<OrOff<(u8, u32)>>,
    /// Points to win (100k, 1e4 accepted), from 1 to 10^9.
    ///
    /// The seed: 100,000 (10,000 is the classic Farkle target). Games are played to the end
    /// with a guard of 100,000 rounds: `sim doom` refuses a target its seats cannot reach well
    /// within that. The two-player solve (--objective win, advise --score) takes at most
    /// 100,000 (fast solve: minutes at 100,000).
    #[arg(long, value_name = "POINTS", value_parser = parse_target)]
    pub target: Option<u64>,
    /// When a player reaches the target: finish the round (highest total wins) or win at once.
    #[arg(long, value_enum)]
    pub end: Option<EndRule>,
}

impl DoomRulesArgs {
    pub fn to_rules(&self) -> Result<DoomRules, ArgError> {
        let mut r = match &self.table {
            Some(path) => {
                let (text, file) = rtplab::specfile::table_text(path).map_err(|e| e.to_string())?;
                rules::read_table(&text, &file).map_err(|e| format!("--table {e}"))?
            }
            None => DoomRules::preset(self.rules.into()),
        };
        macro_rules! set {
            ($($f:ident),*) => { $( if let Some(v) = self.$f { r.$f = v; } )* };
        }
        set!(
            single_one,
            single_five,
            three_ones,
            four_and_pair_is_three_pairs,
            specials_add_singles,
            min_bank,
            target
        );
        macro_rules! set_enum {
            ($($f:ident),*) => { $( if let Some(v) = self.$f { r.$f = v.into(); } )* };
        }
        set_enum!(n_of_kind, kind_extras, held_dice, hot_dice, doom_wipes, end);
        macro_rules! set_or_off {
            ($($f:ident),*) => { $( if let Some(v) = self.$f { r.$f = v.0; } )* };
        }
        set_or_off!(
            straight5,
            straight6,
            three_pairs,
            two_triplets,
            six_dice_no_score,
            farkle_penalty
        );
        if let Some(d) = self.doom {
            r.doom_sixes = d.0;
        }
        r.validate()?;
        Ok(r)
    }
}

#[derive(Args, Debug)]
pub struct DoomSim {
    #[command(flatten)]
    pub rules: DoomRulesArgs,
    /// Strategy of every seat (and of the single player with --turns): optimal, bank-at:T,
    /// thresholds:T1,..,T6, endgame:T, each optionally +keep-all or +keep-fewest, or a file
    /// (see strategies/doom/).
    ///
    /// optimal: the exact policy maximizing one turn's expected points. win-optimal (games of
    /// two only): the policy maximizing the probability of winning, from the two-player table
    /// (kept in the cache folder; solved the first time). win-leader, win-field (games of 2 to
    /// 6): the two-player table against the most dangerous opponent, or against every
    /// opponent as independent racers (docs/doom.md). bank-at:T: bank once the turn holds T points. thresholds:T1,...,T6: bank at T_n
    /// with n dice left. endgame:T: bank-at:T that banks as soon as the bank reaches the
    /// target, in the last round rolls on until it leads, and raises its threshold by half
    /// while more than a tenth of the target behind. +keep-all sets aside every scoring die,
    /// +keep-fewest the fewest; by default, the set-aside of highest expected value under the
    /// banking rule. A file's first line is such a spec.
    ///
    /// Example: --strategy strategies/doom/bank-at-450.txt
    #[arg(help_heading = heading::STRATEGY, long, default_value = "optimal")]
    pub strategy: String,
    /// One strategy per seat, in seat order (sets the number of players; overrides --strategy).
    ///
    /// Names as for --strategy. Example: --seat win-optimal --seat optimal --target 10000
    #[arg(help_heading = heading::STRATEGY, long = "seat", value_name = "STRATEGY")]
    pub seats: Vec<String>,
    /// Players at the table (2–8; default 4, or one per --seat). Given with --seat, it must
    /// equal the number of --seat.
    #[arg(help_heading = heading::STRATEGY, long)]
    pub players: Option<usize>,
    /// Simulate this many single turns of --strategy instead of games.
    ///
    /// 10M, 1e7 accepted. The report gives the mean turn score, bust odds and the turn-score
    /// histogram.
    #[arg(help_heading = heading::RUN, long, value_parser = parse_count_limited, conflicts_with = "games")]
    pub turns: Option<u64>,
    /// Full games to simulate.
    #[arg(help_heading = heading::RUN, long, default_value = "100k", value_parser = parse_count_limited)]
    pub games: u64,
    /// The seat that starts every game (1-based); by default the starting seat rotates game by
    /// game, so every seat starts equally often.
    #[arg(help_heading = heading::STRATEGY, long)]
    pub start_seat: Option<usize>,
    #[command(flatten)]
    pub table: WinTableArgs,
    #[command(flatten)]
    pub run: RunBase,
    #[command(flatten)]
    pub output: OutputArgs,
}

impl DoomSim {
    /// The number of players of a game: `--players`, else one per `--seat`, else 4. Both given
    /// must agree (a disagreement is refused rather than one of them silently ignored).
    pub fn players(&self) -> Result<usize, ArgError> {
        super::players_for_seats(self.players, self.seats.len())
    }
}

impl TryFrom<&DoomSim> for DoomConfig {
    type Error = anyhow::Error;
    fn try_from(args: &DoomSim) -> anyhow::Result<Self> {
        use rtplab::games::doom::sim::Mode;
        let rules = args.rules.to_rules()?;
        let (mode, seats) = match args.turns {
            Some(n) => {
                if !args.seats.is_empty() {
                    anyhow::bail!("--seat is for games; with --turns give one --strategy");
                }
                (Mode::Turns(n), vec![args.strategy.clone()])
            }
            None => {
                let players = args.players()?;
                let seats = if args.seats.is_empty() {
                    if !(2..=8).contains(&players) {
                        anyhow::bail!("--players {players}: a game needs 2 to 8 players");
                    }
                    vec![args.strategy.clone(); players]
                } else {
                    args.seats.clone()
                };
                (Mode::Games(args.games), seats)
            }
        };
        if args.start_seat == Some(0) {
            anyhow::bail!("--start-seat is 1-based: use 1 for the first seat");
        }
        Ok(DoomConfig {
            rules,
            seats,
            mode,
            start_seat: args.start_seat.map(|s| s - 1),
            table: args.table.store(),
        })
    }
}

/// `compare doom`: single-turn strategies on the same random streams.
#[derive(Args, Debug)]
pub struct DoomCompare {
    #[command(flatten)]
    pub rules: DoomRulesArgs,
    /// A strategy to compare (give two or more): optimal, bank-at:T, thresholds:..., endgame:T,
    /// each optionally +keep-all or +keep-fewest, or a file.
    ///
    /// As `sim doom --strategy` (its --help describes each). Example: --strategy optimal
    /// --strategy strategies/doom/cautious-keep-all.txt
    #[arg(help_heading = heading::STRATEGY, long = "strategy", value_name = "STRATEGY", required = true)]
    pub strategies: Vec<String>,
    /// Turns per strategy.
    #[arg(help_heading = heading::RUN, long, default_value = "1M", value_parser = parse_count_limited)]
    pub turns: u64,
    #[command(flatten)]
    pub run: RunCommon,
    #[command(flatten)]
    pub output: OutputArgs,
}

impl TryFrom<&DoomCompare> for CompareJob<Doom> {
    type Error = anyhow::Error;
    /// The turns of each `--strategy`.
    fn try_from(args: &DoomCompare) -> anyhow::Result<Self> {
        let rules = args.rules.to_rules()?;
        let configs = args
            .strategies
            .iter()
            .map(|s| DoomConfig {
                rules: rules.clone(),
                seats: vec![s.clone()],
                mode: rtplab::games::doom::sim::Mode::Turns(args.turns),
                start_seat: Some(0),
                table: Default::default(),
            })
            .collect();
        Ok(CompareJob {
            configs,
            spec: args.run.spec()?,
            outputs: (&args.output).into(),
        })
    }
}

#[derive(Args, Debug)]
pub struct DoomExact {
    #[command(flatten)]
    pub rules: DoomRulesArgs,
    /// Also evaluate this strategy exactly (repeatable).
    ///
    /// As `sim doom --strategy`, but not win-optimal (solved by --players 2 --objective win).
    /// With --players 3 --objective win: played by one seat against exact seats, each seat in
    /// turn (default win-field, win-leader and optimal).
    #[arg(help_heading = heading::STRATEGY, long = "strategy", value_name = "STRATEGY")]
    pub strategies: Vec<String>,
    /// Largest threshold of the bank-at:T sweep.
    #[arg(help_heading = heading::ANALYSIS, long, default_value_t = 3000, value_name = "POINTS")]
    pub sweep_max: u32,
    /// What to maximize: the points of one turn, or the probability of winning a game of two
    /// or three players to `--target` (needs `--players 2` or `3`).
    ///
    /// win with two players solves the probability that the player to move wins for every
    /// pair of scores, the fair head start and the banking thresholds by score; at most
    /// --target 100000, without a farkle penalty or --doom-wipes bank. With three it solves a
    /// small game exactly (at most --target 1050 under the seed rules; minutes) and what each
    /// --strategy loses in it; it is solved afresh each time, a stopped run's progress kept
    /// in the cache to resume from (--no-cache: not kept; --win-solve and --win-table are
    /// for two players).
    #[arg(help_heading = heading::ANALYSIS, long, value_enum, default_value_t = Objective::Points)]
    pub objective: Objective,
    /// Players in the game (the win objective solves 2, or 3 at a small target).
    #[arg(help_heading = heading::ANALYSIS, long, default_value_t = 1, value_name = "N")]
    pub players: u8,
    /// How the win objective is solved: fast (every score within 20,000 points of the
    /// target, every 500 beyond, interpolated between; minutes at 100,000) or exact (every
    /// score, Newton to 1e-13: hours at 100,000).
    ///
    /// A stopped solve (Ctrl-C, SIGTERM) keeps its progress in the cache folder (also every
    /// 10 minutes) and the same command resumes from it.
    #[arg(long, value_enum, default_value_t = WinSolve::Fast)]
    pub win_solve: WinSolve,
    #[command(flatten)]
    pub table: WinTableArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub quiet: super::QuietArgs,
}

/// Where the two-player solved table is kept (win-seeking seats, advice to win, the win
/// objective).
#[derive(Args, Debug, Clone)]
pub struct WinTableArgs {
    /// Solve the two-player table for this run only: the cache folder is neither read nor
    /// written (with --players 3, a stopped run's progress is not kept either).
    ///
    /// By default the solved table is kept in the cache folder ($RTPLAB_CACHE, else
    /// $XDG_CACHE_HOME/rtplab, else ~/.cache/rtplab), one entry per rules, target and solve
    /// options, and read from there by later runs (docs/doom.md, "Cache").
    #[arg(help_heading = heading::ANALYSIS, long, conflicts_with = "win_table")]
    pub no_cache: bool,
    /// Keep the solved two-player table in this file instead of the cache folder: read when
    /// it exists (it must be a table for these rules and target), else solved and written
    /// there.
    #[arg(help_heading = heading::ANALYSIS, long, value_name = "FILE")]
    pub win_table: Option<std::path::PathBuf>,
}

impl WinTableArgs {
    /// Where the table is kept.
    pub fn store(&self) -> rtplab::games::doom::win::TableStore {
        use rtplab::games::doom::win::TableStore;
        match (&self.win_table, self.no_cache) {
            (Some(p), _) => TableStore::File(p.clone()),
            (None, true) => TableStore::Fresh,
            (None, false) => TableStore::Cache,
        }
    }
}

/// How `exact doom --objective win` solves the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum WinSolve {
    /// A score grid far from the target, the tail cut at 1e-12 a turn, small Newton steps
    /// unverified.
    Fast,
    /// Every score, the tail cut at 1e-15 a turn, Newton to the tolerance.
    Exact,
}

/// What `exact doom` maximizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Objective {
    /// Expected points of one turn.
    Points,
    /// Probability of winning the game (two players).
    Win,
}

/// `--target`: a count of points from 1 to `rules::MAX_TARGET`, refused with the one message
/// every way in gives (`rules::check_target`), however large the number typed.
fn parse_target(s: &str) -> Result<u64, String> {
    use rtplab::numparse::{count, CountError};
    match count(s) {
        Ok(n) if rules::check_target(n).is_ok() => Ok(n),
        Ok(_) | Err(CountError::TooLarge) => Err(rules::target_refused(s.trim())),
        Err(e) => Err(e.message(s)),
    }
}

/// A setting's value or 'off'. A newtype, because clap reads `Option<Option<T>>` as a flag
/// whose value may be left out, not as "unset, off or a value" (and a parser returning
/// `Option<T>` there panics when the flag is used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrOff<T>(pub Option<T>);

fn parse_opt_points(s: &str) -> Result<OrOff<u32>, String> {
    if s.eq_ignore_ascii_case("off") {
        return Ok(OrOff(None));
    }
    match s.trim().parse::<u32>() {
        Ok(v) if (1..=1_000_000).contains(&v) => Ok(OrOff(Some(v))),
        _ => Err(format!(
            "expected points from 1 to 1000000 or 'off', found '{s}'"
        )),
    }
}

fn parse_opt_small(s: &str) -> Result<OrOff<u8>, String> {
    if s.eq_ignore_ascii_case("off") {
        return Ok(OrOff(None));
    }
    match s.trim().parse::<u8>() {
        Ok(v) if (1..=6).contains(&v) => Ok(OrOff(Some(v))),
        _ => Err(format!(
            "expected a number of sixes from 1 to 6 or 'off', found '{s}'"
        )),
    }
}

fn parse_penalty(s: &str) -> Result<OrOff<(u8, u32)>, String> {
    if s.eq_ignore_ascii_case("off") {
        return Ok(OrOff(None));
    }
    let err = || {
        format!(
            "expected K:P (e.g. 3:500: the 3rd farkle in a row costs 500) or 'off', found '{s}'"
        )
    };
    let (k, p) = s.split_once(':').ok_or_else(err)?;
    let k: u8 = k.trim().parse().map_err(|_| err())?;
    let p: u32 = p.trim().parse().map_err(|_| err())?;
    if k == 0 || k > 20 {
        return Err(err());
    }
    Ok(OrOff(Some((k, p))))
}

// The rule enums on the command line, each converted into the library's enum of the same
// name (the library knows nothing of clap).

/// How four, five and six of a kind score relative to three of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NOfKind {
    /// Four or more score the same as three (the seed).
    Flat,
    /// 4/5/6 of a kind = 2×/3×/4× the three-of-a-kind value (S2 common rules).
    Linear,
    /// Each extra die doubles: 2×/4×/8× (Zilch).
    Doubling,
}

impl From<NOfKind> for rules::NOfKind {
    fn from(v: NOfKind) -> Self {
        match v {
            NOfKind::Flat => Self::Flat,
            NOfKind::Linear => Self::Linear,
            NOfKind::Doubling => Self::Doubling,
        }
    }
}

/// What the dice of a face beyond its three of a kind score (docs/rules.md §3: "een rol van vier
/// vijven is ook 500").
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum KindExtras {
    /// Part of the kind, never singles beside a triple (the seed; flat: four 5s = 500).
    Kind,
    /// Extra 1s and 5s may score as singles (flat: four 5s = 550, four 1s = 1100).
    Singles,
}

impl From<KindExtras> for rules::KindExtras {
    fn from(v: KindExtras) -> Self {
        match v {
            KindExtras::Kind => Self::Kind,
            KindExtras::Singles => Self::Singles,
        }
    }
}

/// Whether dice set aside earlier in a cycle combine with later ones (docs/rules.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum HeldDice {
    /// The cycle's points are the best score of all dice set aside in it (the seed).
    Combine,
    /// Each roll's set-aside dice score on their own (classic Farkle).
    Separate,
}

impl From<HeldDice> for rules::HeldDice {
    fn from(v: HeldDice) -> Self {
        match v {
            HeldDice::Combine => Self::Combine,
            HeldDice::Separate => Self::Separate,
        }
    }
}

/// After hot dice (all six set aside): must the player roll again?
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum HotDice {
    /// Roll all six again; banking is not allowed at that moment (the seed).
    Forced,
    /// Roll again or bank.
    Optional,
}

impl From<HotDice> for rules::HotDice {
    fn from(v: HotDice) -> Self {
        match v {
            HotDice::Forced => Self::Forced,
            HotDice::Optional => Self::Optional,
        }
    }
}

/// What a doom roll wipes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DoomWipes {
    /// The turn's points (the ruling).
    Turn,
    /// The turn's points and the player's banked total.
    Bank,
}

impl From<DoomWipes> for rules::DoomWipes {
    fn from(v: DoomWipes) -> Self {
        match v {
            DoomWipes::Turn => Self::Turn,
            DoomWipes::Bank => Self::Bank,
        }
    }
}

/// How the game ends once a player reaches the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EndRule {
    /// The others take their turn in that round; the highest total wins.
    FinishRound,
    /// The first player to reach the target wins at once.
    Immediate,
}

impl From<EndRule> for rules::EndRule {
    fn from(v: EndRule) -> Self {
        match v {
            EndRule::FinishRound => Self::FinishRound,
            EndRule::Immediate => Self::Immediate,
        }
    }
}

/// Rule presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DoomPreset {
    /// The seed text with docs/rules.md's rulings.
    Seed,
    /// The public "S2 common" Farkle rules of docs/references.md.
    S2Common,
    /// Zilch (zilch.playr.co.uk), as analysed by M. Busche.
    Zilch,
}

impl From<DoomPreset> for rules::DoomPreset {
    fn from(v: DoomPreset) -> Self {
        match v {
            DoomPreset::Seed => Self::Seed,
            DoomPreset::S2Common => Self::S2Common,
            DoomPreset::Zilch => Self::Zilch,
        }
    }
}

#[derive(Args, Debug)]
pub struct AdviseDoom {
    #[command(flatten)]
    pub rules: crate::cli::doom::DoomRulesArgs,
    /// The dice just rolled, e.g. 1,1,5,2,3,4.
    ///
    /// One to six dice; with --held, the dice left to roll. A roll that scores nothing, or
    /// that is doom, is said to be so.
    #[arg(help_heading = heading::POSITION, long, value_name = "DICE")]
    pub roll: String,
    /// Dice set aside earlier in this cycle (since the turn began or the last hot dice).
    #[arg(help_heading = heading::POSITION, long, value_name = "DICE", default_value = "")]
    pub held: String,
    /// The turn's points so far (the held dice's included).
    ///
    /// What the held dice made plus whole cycles' points (each ended by hot dice): points no
    /// sequence of set-asides makes are refused, naming the nearest possible. Example: --roll
    /// 1,1,5,2,3 --held 5 --turn-points 350
    #[arg(help_heading = heading::POSITION, long, value_name = "POINTS", default_value_t = 0)]
    pub turn_points: u32,
    /// Your banked score: with --opponent, values become the probability of winning a game of
    /// two to --target under win-optimal play (the game is solved the first time, minutes at
    /// 100,000, and kept in the cache folder: later calls read it in a second).
    #[arg(help_heading = heading::POSITION, long, value_name = "POINTS", requires = "opponent")]
    pub score: Option<u64>,
    /// The opponent's banked score.
    #[arg(help_heading = heading::POSITION, long, value_name = "POINTS", requires = "score")]
    pub opponent: Option<u64>,
    /// Your seat with --score: first (you roll first each round; the default) or second.
    #[arg(help_heading = heading::POSITION, long, value_enum, requires = "score")]
    pub seat: Option<SeatOrder>,
    #[command(flatten)]
    pub table: WinTableArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub quiet: super::QuietArgs,
}

/// First or second to move each round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SeatOrder {
    /// You roll first each round.
    First,
    /// Your opponent rolls first.
    Second,
}

#[derive(Args, Debug)]
pub struct DoomAudit {
    #[command(flatten)]
    pub rules: DoomRulesArgs,
    /// The bank-at thresholds audited beside optimal play (comma separated).
    ///
    /// Each threshold T is the tier bank-at:T; each tier gets its exact turn-score
    /// distribution, a simulation cross-check and games against optimal play.
    #[arg(
        help_heading = heading::STRATEGY,
        long,
        value_delimiter = ',',
        default_value = "300,350,400,450,500",
        value_name = "POINTS"
    )]
    pub bank_at: Vec<u32>,
    /// Turns to simulate per tier (0: none).
    #[arg(help_heading = heading::RUN, long, default_value = "10M", value_parser = parse_audit_turns)]
    pub turns: u64,
    /// Two-player games to simulate per tier, both seats the tier and the tier against
    /// optimal play (0: none).
    #[arg(help_heading = heading::RUN, long, default_value = "10k", value_parser = crate::cli::parse_count_or_zero)]
    pub games: u64,
    #[command(flatten)]
    pub run: RunCommon,
    #[command(flatten)]
    pub output: OutputArgs,
}

impl TryFrom<&DoomSim> for SimJob<Doom> {
    type Error = anyhow::Error;
    fn try_from(args: &DoomSim) -> anyhow::Result<Self> {
        Ok(SimJob {
            config: DoomConfig::try_from(args)?,
            spec: args.run.spec(None)?,
            claim: None,
            outputs: (&args.output).into(),
        })
    }
}

impl TryFrom<&DoomExact> for ExactJob {
    type Error = anyhow::Error;
    /// One turn played for points, or a game of two played to win; nothing else is solved.
    fn try_from(args: &DoomExact) -> anyhow::Result<Self> {
        use rtplab::games::doom::strategy::DoomStrategy;
        let rules = args.rules.to_rules()?;
        let analysis = match (args.objective, args.players) {
            (Objective::Win, 2) => {
                if !args.strategies.is_empty() {
                    anyhow::bail!(
                        "--strategy is for the single-turn analysis; the win objective solves its own policy (compare strategies with sim doom --seat win-optimal --seat STRATEGY)"
                    );
                }
                use rtplab::games::doom::win::WinOptions;
                let opts = match args.win_solve {
                    WinSolve::Fast => WinOptions::fast(),
                    WinSolve::Exact => WinOptions::exact(),
                };
                Analysis::Win {
                    opts,
                    store: args.table.store(),
                }
            }
            (Objective::Win, 3) => {
                use rtplab::games::doom::report::{check_strategy, DEFAULT_STRATEGIES};
                let specs: Vec<String> = if args.strategies.is_empty() {
                    DEFAULT_STRATEGIES.map(String::from).to_vec()
                } else {
                    args.strategies.clone()
                };
                let strategies = specs
                    .iter()
                    .map(|s| DoomStrategy::parse(s))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(ArgError)?;
                for s in &strategies {
                    check_strategy(s, 3)?;
                }
                if args.win_solve != WinSolve::Fast || args.table.win_table.is_some() {
                    anyhow::bail!(
                        "--win-solve and --win-table are for the two-player table; the game of three is solved afresh each time, only a stopped run's progress kept in the cache (drop them)"
                    );
                }
                Analysis::Small {
                    players: 3,
                    strategies,
                    keep: !args.table.no_cache,
                }
            }
            (Objective::Points, 1) => {
                let strategies = args
                    .strategies
                    .iter()
                    .map(|s| DoomStrategy::parse(s))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(ArgError)?;
                if let Some(s) = strategies.iter().find(|s| s.win) {
                    anyhow::bail!(
                        "--strategy {}: the win-optimal policy is solved by --players 2 --objective win",
                        s.spec
                    );
                }
                let cap = rtplab::games::doom::exact::CAP_POINTS;
                if args.sweep_max > cap {
                    anyhow::bail!("--sweep-max {}: at most {cap} points", args.sweep_max);
                }
                Analysis::Turn {
                    strategies,
                    sweep_max: args.sweep_max,
                }
            }
            (objective, players) => anyhow::bail!(
                "--players {players} --objective {}: the exact analysis solves one turn (--players 1 --objective points), a game of two played to win (--players 2 --objective win) or a small game of three (--players 3 --objective win)",
                match objective {
                    Objective::Win => "win",
                    Objective::Points => "points",
                },
            ),
        };
        Ok(ExactJob {
            rules,
            analysis,
            outputs: (&args.output).into(),
        })
    }
}

impl TryFrom<&AdviseDoom> for AdviseJob {
    type Error = anyhow::Error;
    fn try_from(args: &AdviseDoom) -> anyhow::Result<Self> {
        use rtplab::games::doom::advise::{parse_dice, DoomAdviseRequest, GameScores};
        Ok(AdviseJob {
            rules: args.rules.to_rules()?,
            request: DoomAdviseRequest {
                roll: parse_dice(&args.roll)?,
                held: parse_dice(&args.held)?,
                turn_points: args.turn_points,
                game: match (args.score, args.opponent) {
                    (Some(score), Some(opponent)) => Some(GameScores {
                        score,
                        opponent,
                        seat: (args.seat == Some(SeatOrder::Second)) as usize,
                    }),
                    _ => None,
                },
            },
            table: args.table.store(),
            outputs: (&args.output).into(),
        })
    }
}

impl TryFrom<&DoomAudit> for AuditJob {
    type Error = anyhow::Error;
    fn try_from(args: &DoomAudit) -> anyhow::Result<Self> {
        Ok(AuditJob {
            config: rtplab::games::doom::audit::DoomAuditConfig {
                rules: args.rules.to_rules()?,
                bank_at: args.bank_at.clone(),
                turns: args.turns,
                games: args.games,
                seed: args.run.seed,
                threads: args.run.threads,
                progress: !args.run.quiet,
            },
            outputs: (&args.output).into(),
        })
    }
}

/// The Doom audit's simulated turns per tier: 0 (none) or from 10k (`audit_sample`) to 10^12.
fn parse_audit_turns(s: &str) -> Result<u64, String> {
    let n = crate::cli::parse_count_or_zero(s)?;
    crate::cli::audit_sample(s, n, "turns")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    /// Each command-line value converts into the library value whose serialized name (in
    /// reports and shard keys) is the same word.
    fn same_names<C: ValueEnum + Copy, L: From<C> + serde::Serialize>() {
        for v in C::value_variants() {
            let name = v.to_possible_value().unwrap().get_name().to_string();
            let lib = serde_json::to_value(L::from(*v)).unwrap();
            assert_eq!(lib, serde_json::Value::String(name));
        }
    }

    #[test]
    fn rule_values_match_the_library() {
        same_names::<NOfKind, rules::NOfKind>();
        same_names::<KindExtras, rules::KindExtras>();
        same_names::<HeldDice, rules::HeldDice>();
        same_names::<HotDice, rules::HotDice>();
        same_names::<DoomWipes, rules::DoomWipes>();
        same_names::<EndRule, rules::EndRule>();
        same_names::<DoomPreset, rules::DoomPreset>();
    }
}
