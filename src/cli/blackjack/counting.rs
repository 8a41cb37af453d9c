//! Counting and betting on the command line: the count, its true count, the ramp, wonging,
//! index plays, the bankroll and the figures asked of it.

use clap::Args;

use super::super::heading;
use rtplab::games::blackjack::count;

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
    /// from -100 to 100, units from 0 to 1,000,000: 0 units sits out (watching) at those
    /// counts, a back-counter's exit point: it leaves there and re-enters where the ramp bets
    /// again (see --max-entries). A ramp file holds the same entries, separated by commas or
    /// one a line, with `#` comments. A flat ramp plays exactly the uncounted game.
    ///
    /// Example: --ramp 0:1,1:2,2:4,3:8,4:12 bets 1 unit at counts of 0 or less, 2 at +1, 4 at
    /// +2, 8 at +3, 12 at +4 and above; --ramp -1:0,1:1,2:4 sits out at 0 and below.
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
    #[arg(long, value_name = "ROR", value_parser = crate::cli::parse_ror)]
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
    /// Cover plays: what the counter gives up to look like any other player, joined by '+'
    /// (or none): top[=N], parlay, max-rise=K, no-big-insurance[=U], no-ten-split.
    ///
    /// top: the first N rounds bet in a shoe (default 1) bet the last bet of the shoe before.
    /// parlay: the bet rises only after a won round, to at most twice the last bet, and falls
    /// only after a lost round or at a shuffle. max-rise=K: no bet over K times the last.
    /// no-big-insurance: no insurance on a bet of U units or more (default the ramp's top).
    /// no-ten-split: the index plays that split tens are dropped. `compare blackjack --cover`
    /// measures what each costs (docs/counting.md).
    ///
    /// Example: --cover top+parlay
    #[arg(long, value_name = "PLAYS")]
    pub cover: Option<String>,
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
    /// Back-count: watch from the shuffle and enter whenever the count is at or above TC.
    ///
    /// A seat sitting out is still dealt and played as by another player, so the cards never
    /// depend on the counter's bets. The counter leaves below --wong-out and re-enters at TC
    /// again in the same shoe (as CVCX's back-counter; --max-entries 1 stays out until the
    /// shuffle). Example: --wong-in 1 --wong-out 0
    #[arg(long, value_name = "TC", allow_hyphen_values = true, value_parser = crate::cli::parse_true_count)]
    pub wong_in: Option<i32>,
    /// Leave when the count falls below TC (default: the --wong-in count, if given). Without
    /// --wong-in the seat plays from each shoe's first round and re-enters at TC.
    #[arg(long, value_name = "TC", allow_hyphen_values = true, value_parser = crate::cli::parse_true_count)]
    pub wong_out: Option<i32>,
    /// Enter at most N times a shoe when back-counting (default: no limit, re-entering
    /// whenever the count allows); 1 stays out until the shuffle after leaving.
    #[arg(long, value_name = "N")]
    pub max_entries: Option<u32>,
    /// Back-counting, enter only at the first round after a shuffle: a seat that does not
    /// play then, or leaves, waits for the next shoe.
    #[arg(long)]
    pub no_mid_shoe_entry: bool,
    /// Miscount: each card the counter sees is, with chance P, counted with its tag one count
    /// unit too high or too low (each half the time), an error that stays in the running count
    /// until the shuffle (default 0).
    ///
    /// The miscounts come from a random stream of their own: the same seed deals the same
    /// cards with and without them. Example: --miscount 0.01
    #[arg(long, value_name = "P")]
    pub miscount: Option<f64>,
    /// Spread to more spots at high counts: the counter bets its seats beyond the first
    /// (--players 2 or more) only at counts at or above TC, each from the ramp.
    ///
    /// Example: --players 2 --spots-at 3
    #[arg(long, value_name = "TC", allow_hyphen_values = true, value_parser = crate::cli::parse_true_count)]
    pub spots_at: Option<i32>,
}

impl CountPlay {
    /// The entries a shoe (`CountSpec::max_entries`): no limit when back-counting unless
    /// --max-entries or --no-mid-shoe-entry says otherwise; the flags need back-counting.
    fn entries(&self, ramp: &count::Ramp) -> anyhow::Result<Option<u32>> {
        let back = self.wong_in.is_some() || self.wong_out.is_some() || ramp.sits_out();
        let flag = [
            ("--max-entries", self.max_entries.is_some()),
            ("--no-mid-shoe-entry", self.no_mid_shoe_entry),
        ]
        .into_iter()
        .find(|g| g.1);
        match flag {
            Some((flag, _)) if !back => anyhow::bail!(
                "{flag} needs back-counting: --wong-in TC, --wong-out TC or a --ramp with 0 units at some counts"
            ),
            _ if self.no_mid_shoe_entry && self.max_entries.is_some_and(|n| n != 1) => {
                anyhow::bail!(
                    "--no-mid-shoe-entry allows one entry a shoe (at its first round): leave out --max-entries, or give it as 1"
                )
            }
            _ if self.no_mid_shoe_entry || !back => Ok(Some(1)),
            _ => Ok(self.max_entries),
        }
    }

    /// The first of these flags given (each needs --count).
    pub fn given(&self) -> Option<&'static str> {
        [
            ("--true-count", self.true_count.is_some()),
            ("--tc-rounding", self.tc_rounding.is_some()),
            ("--wong-in", self.wong_in.is_some()),
            ("--wong-out", self.wong_out.is_some()),
            ("--max-entries", self.max_entries.is_some()),
            ("--no-mid-shoe-entry", self.no_mid_shoe_entry),
            ("--miscount", self.miscount.is_some()),
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
                ("--cover", self.cover.is_some()),
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
                rtplab::say!("warning: {w}");
            }
        }
        let p = &self.play;
        if !system.balanced() && (p.true_count.is_some() || p.tc_rounding.is_some()) {
            anyhow::bail!(
                "--count {name} is unbalanced: it bets on the running count, so --true-count and --tc-rounding do not apply"
            );
        }
        let spec = CountSpec {
            max_entries: p.entries(&ramp)?,
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
            no_mid_shoe_entry: p.no_mid_shoe_entry,
            // No miscounts is one run, whether said or not.
            miscount: p.miscount.filter(|&m| m != 0.0),
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
            cover: match &self.cover {
                Some(c) => rtplab::games::blackjack::count::Cover::parse(c)?,
                None => Default::default(),
            },
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
        for idle in spec.cover.idle_plays(&spec.ramp, spec.indices.as_ref()) {
            warn_once(&format!("warning: --cover: {idle}"));
        }
        Ok(Some(spec))
    }
}

/// Say `message` on standard error once a process (`compare` builds a counter per
/// configuration).
fn warn_once(message: &str) {
    static SAID: std::sync::Mutex<std::collections::BTreeSet<String>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
    if said.insert(message.to_string()) {
        rtplab::say!("{message}");
    }
}
