//! Command-line types of baccarat.

use std::path::PathBuf;

use clap::Args;

use super::heading;

use super::{
    parse_claim, parse_count_limited, parse_positive, ArgError, OutputArgs, RunBase, RunCommon,
};
use rtplab::compare::CompareJob;
use rtplab::game::SimJob;
use rtplab::games::baccarat::bet::BetSpec;
use rtplab::games::baccarat::jobs::{ExactJob, SimLogJob};
use rtplab::games::baccarat::log::write::LogOptions;
use rtplab::games::baccarat::rules::{BacRules, BankerPays, Shuffle, Shuffler};
use rtplab::games::baccarat::verify::VerifyJob;
use rtplab::games::baccarat::Baccarat;

/// Every rule of the baccarat table; unset flags keep the table file's value, else the standard
/// table's.
#[derive(Args, Debug)]
#[command(next_help_heading = heading::RULES)]
pub struct BacRulesArgs {
    /// A table file to start from (its rules over the standard table's; the flags below change
    /// them). Shipped: tables/punto-banco.toml, no-commission.toml (docs/tables.md).
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// Decks in the shoe (1 to 16; the standard table: 8).
    #[arg(long, value_name = "N")]
    pub decks: Option<u32>,
    /// Commission on a banker win, in percent (0 to 10, in steps of 0.1; the standard: 5).
    ///
    /// Example: --commission 2.5 (a trailing % is accepted). Over a no-commission table file,
    /// the banker is paid less this commission.
    #[arg(long, value_name = "PCT", allow_hyphen_values = true)]
    pub commission: Option<String>,
    /// No-commission game: banker wins pay 1:1, except a banker win on 6 pays 1:2.
    #[arg(long, conflicts_with = "commission")]
    pub no_commission: bool,
    /// A tie pays this many to one (8 or 9 at real tables; 1 to 100 accepted; the standard: 8).
    #[arg(long, value_name = "N")]
    pub tie_pays: Option<u32>,
    /// Player pair and banker pair pay this many to one (the standard: 11).
    #[arg(long, value_name = "N")]
    pub pair_pays: Option<u32>,
    /// Cut card position as the fraction of the shoe dealt (0.1 to 0.99; default 0.9).
    ///
    /// The cut card must leave the 5 cards a coup may still need; a shoe that runs out of
    /// cards mid-coup ends the session.
    #[arg(long, value_name = "F", allow_hyphen_values = true)]
    pub penetration: Option<f64>,
    /// Shuffle the whole shoe before every coup (continuous shuffler).
    #[arg(long, conflicts_with_all = ["penetration", "burn"])]
    pub shuffle_every_round: bool,
    /// After each shuffle, turn the first card over and burn as many cards as its value
    /// (ace 1, tens and faces 10).
    #[arg(long)]
    pub burn: bool,
    /// How the shoe is shuffled (default: uniform).
    ///
    /// uniform: every order of the whole shoe equally likely. riffle:K: K
    /// Gilbert–Shannon–Reeds riffles (1 to 32) of the previous shoe as it was dealt; each
    /// chunk's first shoe is shuffled uniformly. machine: a continuous shuffling machine, each
    /// coup's cards going back at random places among its cards except the 10 already dropped
    /// for dealing; it has no cut card and burns none (not with --penetration,
    /// --shuffle-every-round or --burn). Simulations only (docs/shuffle.md).
    #[arg(long, value_name = "uniform|riffle:K|machine", value_parser = parse_shuffler)]
    pub shuffle: Option<Shuffler>,
}

fn parse_shuffler(s: &str) -> Result<Shuffler, String> {
    s.parse()
        .map_err(|e: rtplab::cards::ShufflerError| e.to_string())
}

/// Percent with at most one decimal as thousandths: "5" → 50, "2.5" → 25.
fn commission_permille(s: &str) -> Result<u32, ArgError> {
    rtplab::games::baccarat::rules::parse_commission(s)
        .map_err(|e| ArgError(format!("--commission {s}: {e}")))
}

impl BacRulesArgs {
    pub fn to_rules(&self) -> Result<BacRules, ArgError> {
        let mut r = match &self.table {
            Some(path) => {
                let (text, file) = rtplab::specfile::table_text(path).map_err(|e| e.to_string())?;
                rtplab::games::baccarat::rules::read_table(&text, &file)
                    .map_err(|e| format!("--table {e}"))?
            }
            None => BacRules::standard(),
        };
        if let Some(d) = self.decks {
            r.decks = d;
        }
        if let Some(c) = &self.commission {
            r.commission = commission_permille(c)?;
            r.banker_pays = BankerPays::Commission;
        }
        if self.no_commission {
            r.banker_pays = BankerPays::NoCommission;
        }
        if let Some(t) = self.tie_pays {
            r.tie_pays = t;
        }
        if let Some(p) = self.pair_pays {
            r.pair_pays = p;
        }
        if let Some(p) = self.penetration {
            r.shuffle = Shuffle::CutCard { penetration: p };
        }
        let shuffler = self.shuffle.unwrap_or(r.shuffler);
        if self.shuffle == Some(Shuffler::Machine) {
            for (given, flag, why) in [
                (
                    self.penetration.is_some(),
                    "--penetration",
                    "has no cut card",
                ),
                (
                    self.shuffle_every_round,
                    "--shuffle-every-round",
                    "already returns the cards to the machine after every coup",
                ),
                (self.burn, "--burn", "burns no cards"),
            ] {
                if given {
                    return Err(ArgError(format!(
                        "--shuffle machine deals from a continuous shuffling machine, which {why}: drop {flag}"
                    )));
                }
            }
            r.burn = false;
        }
        if self.shuffle.is_some_and(|s| s != Shuffler::Machine) && r.shuffler == Shuffler::Machine {
            // A table's machine replaced by another shuffler: the standard table's cut card.
            r.shuffle = BacRules::standard().shuffle;
        }
        if self.shuffle_every_round || shuffler == Shuffler::Machine {
            r.shuffle = Shuffle::EveryRound;
        }
        r.shuffler = shuffler;
        r.burn |= self.burn;
        r.validate()?;
        Ok(r)
    }
}

/// The table's stakes and the run's length: what `sim baccarat` and `compare baccarat` share.
#[derive(Args, Debug)]
pub struct BacStakes {
    #[command(flatten)]
    pub rules: BacRulesArgs,
    /// Base stake of the main bet, in units (the table minimum is 1).
    #[arg(help_heading = heading::COUNTING, long, default_value_t = 1, value_name = "UNITS")]
    pub unit: u64,
    /// Table maximum of a bet, in units.
    ///
    /// When a martingale's doubled stake would exceed it, the progression is abandoned and the
    /// next stake is the base stake: a table-limit hit, which the report counts.
    #[arg(help_heading = heading::COUNTING, long, default_value_t = 500, value_name = "UNITS")]
    pub table_max: u64,
    /// Also stake this many units on each of the player pair and banker pair bets every coup.
    #[arg(help_heading = heading::SIDE_BETS, long, default_value_t = 0, value_name = "UNITS")]
    pub pairs: u64,
    /// Coups to simulate (per strategy in `compare`; 10M, 1e8 accepted); whole shoes are
    /// played, so the count is met approximately.
    #[arg(help_heading = heading::RUN, long, default_value = "10M", value_parser = parse_count_limited)]
    pub coups: u64,
}

impl BacStakes {
    /// The run of the betting strategy `bet` at this table.
    pub fn config(&self, bet: &str) -> anyhow::Result<rtplab::games::baccarat::BacConfig> {
        Ok(rtplab::games::baccarat::BacConfig {
            rules: self.rules.to_rules()?,
            bet: BetSpec::parse(bet).map_err(ArgError)?,
            unit: self.unit,
            table_max: self.table_max,
            pairs: self.pairs,
            coups: self.coups,
            sides: Vec::new(),
        })
    }
}

#[derive(Args, Debug)]
pub struct BaccaratSim {
    /// Betting strategy of the main bet: banker, player, tie, follow (the last coup's winner,
    /// banker first), or martingale:banker|player|tie (double after a loss up to the table
    /// maximum).
    ///
    /// Flat bets stake --unit every coup. follow bets on the last coup's winner (a tie changes
    /// nothing). A martingale starts at --unit, doubles after a loss, goes back to --unit
    /// after a win, and a push leaves it. A session is one shoe, and every strategy starts
    /// over at each; the report gives the net per session beside every bet's RTP. Betting
    /// systems change the distribution and the risk, not the RTP.
    #[arg(help_heading = heading::STRATEGY, long, default_value = "banker", value_name = "STRATEGY")]
    pub bet: String,
    #[command(flatten)]
    pub stakes: BacStakes,
    #[command(flatten)]
    pub side: super::SideArgs,
    /// A claimed RTP in percent (e.g. 98.94) to test the main bets' estimate against.
    ///
    /// The RTP per unit wagered; the report adds z, a p-value and a verdict.
    #[arg(help_heading = heading::RUN, long, value_name = "PCT", value_parser = parse_claim)]
    pub claim: Option<f64>,
    /// Shoes (sessions) per chunk, the unit of work and of batch means; default: chosen from
    /// --coups.
    #[arg(help_heading = heading::RUN, long, value_name = "N", value_parser = parse_positive)]
    pub chunk_shoes: Option<u64>,
    #[command(flatten)]
    pub run: RunBase,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Also write the run's round log to FILE: every shoe (cut card, burn) and every coup (each
    /// hand's cards with their suits, every bet's stake and what it paid), JSON Lines, gzip
    /// when FILE ends .gz, Zstandard when it ends .zst.
    ///
    /// `rtplab verify baccarat FILE` checks it coup by coup; docs/round-log.md gives the
    /// schema. Amounts are 1000 to a betting unit. The log is written after the run, from the
    /// same streams (the run's own coups), a shoe at a time.
    #[arg(help_heading = heading::OUTPUT, long, value_name = "FILE")]
    pub log_out: Option<PathBuf>,
    /// Log every N-th shoe only (whole shoes, each of which can be checked).
    #[arg(help_heading = heading::OUTPUT, long, value_name = "N", value_parser = parse_positive, requires = "log_out")]
    pub log_every: Option<u64>,
}

impl TryFrom<&BaccaratSim> for SimLogJob {
    type Error = anyhow::Error;
    fn try_from(args: &BaccaratSim) -> anyhow::Result<Self> {
        let Some(log_out) = args.log_out.clone() else {
            return Err(ArgError("--log-out FILE: give the log's path".into()).into());
        };
        let report_on_stdout = args
            .output
            .output
            .as_ref()
            .is_none_or(|o| o.as_os_str() == "-");
        if log_out.as_os_str() == "-" && report_on_stdout {
            return Err(ArgError(
                "--log-out -: the report goes to standard output too; write the log to a file, or the report with --output FILE".into(),
            )
            .into());
        }
        Ok(SimLogJob {
            sim: SimJob::try_from(args)?,
            log_out,
            log: LogOptions {
                every_shoe: args.log_every.unwrap_or(1),
            },
        })
    }
}

/// `verify baccarat`: a table's round log checked coup by coup.
#[derive(Args, Debug)]
pub struct BaccaratVerify {
    /// The round log (JSON Lines, plain, gzip or Zstandard; `-` reads standard input).
    ///
    /// Its first line states the table's rules; then a record for each shoe and each coup
    /// (docs/round-log.md). A record that does not read is refused (exit 2), naming its line
    /// and field.
    #[arg(value_name = "LOG")]
    pub log: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub quiet: super::QuietArgs,
}

impl From<&BaccaratVerify> for VerifyJob {
    fn from(args: &BaccaratVerify) -> Self {
        VerifyJob {
            log: args.log.clone(),
            outputs: (&args.output).into(),
        }
    }
}

impl TryFrom<&BaccaratSim> for SimJob<Baccarat> {
    type Error = anyhow::Error;
    fn try_from(args: &BaccaratSim) -> anyhow::Result<Self> {
        let mut config = args.stakes.config(&args.bet)?;
        config.sides = args.side.bets(rtplab::sidebet::Game::Baccarat)?;
        Ok(SimJob {
            config,
            spec: args.run.spec(args.chunk_shoes)?,
            claim: args.claim,
            outputs: (&args.output).into(),
        })
    }
}

/// `compare baccarat`: betting strategies on the same shoes.
#[derive(Args, Debug)]
pub struct BaccaratCompare {
    /// A betting strategy to compare (give two or more): banker, player, tie, follow,
    /// martingale:SPOT.
    #[arg(help_heading = heading::STRATEGY, long = "bet", value_name = "STRATEGY", required = true)]
    pub bets: Vec<String>,
    #[command(flatten)]
    pub stakes: BacStakes,
    /// Side bets every configuration places (as sim's --side).
    #[command(flatten)]
    pub side: super::SideArgs,
    #[command(flatten)]
    pub run: RunCommon,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct BaccaratExact {
    #[command(flatten)]
    pub rules: BacRulesArgs,
    #[command(flatten)]
    pub side: super::SideArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub quiet: super::QuietArgs,
}

impl TryFrom<&BaccaratCompare> for CompareJob<Baccarat> {
    type Error = anyhow::Error;
    fn try_from(args: &BaccaratCompare) -> anyhow::Result<Self> {
        let sides = args.side.bets(rtplab::sidebet::Game::Baccarat)?;
        Ok(CompareJob {
            configs: args
                .bets
                .iter()
                .map(|b| {
                    let mut c = args.stakes.config(b)?;
                    c.sides = sides.clone();
                    Ok(c)
                })
                .collect::<anyhow::Result<_>>()?,
            spec: args.run.spec()?,
            outputs: (&args.output).into(),
        })
    }
}

impl TryFrom<&BaccaratExact> for ExactJob {
    type Error = anyhow::Error;
    fn try_from(args: &BaccaratExact) -> anyhow::Result<Self> {
        let rules = args.rules.to_rules()?;
        if !rules.shuffler.is_uniform() {
            anyhow::bail!(
                "--shuffle {} changes how a dealt shoe is shuffled, and the exact analysis takes every coup from a full, uniformly shuffled shoe: drop --shuffle (or the table's shuffle line)",
                rules.shuffler
            );
        }
        Ok(ExactJob {
            rules,
            sides: args.side.bets(rtplab::sidebet::Game::Baccarat)?,
            outputs: (&args.output).into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commissions() {
        assert_eq!(commission_permille("5").unwrap(), 50);
        assert_eq!(commission_permille("2.5%").unwrap(), 25);
        assert_eq!(commission_permille("0").unwrap(), 0);
        assert_eq!(commission_permille("10").unwrap(), 100);
        for bad in ["-1", "10.1", "2.55", "x", "nan", "inf"] {
            assert!(commission_permille(bad).is_err(), "{bad}");
        }
    }
}
