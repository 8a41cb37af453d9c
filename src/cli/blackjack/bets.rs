//! `strategies bets blackjack`: the bet sheet in money.

use std::path::PathBuf;

use clap::Args;

use super::super::heading;
use super::CountTableArgs;
use crate::cli::{parse_ror, OutputArgs, RunCommon};
use rtplab::games::blackjack::bets::{BetsRequest, Money, Sizing};
use rtplab::games::blackjack::jobs::BetsJob;
use rtplab::numparse::parse_count;

/// `strategies bets blackjack`: CVCX's optimal bets, in money.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("sizing").required(true).args(["target_ror", "kelly"])))]
pub struct BetsBlackjack {
    #[command(flatten)]
    pub table: CountTableArgs,

    /// The bankroll, in money (any currency; the same as the table's limits and the chip).
    #[arg(help_heading = heading::COUNTING, long, value_name = "MONEY", value_parser = parse_money)]
    pub bankroll: f64,

    /// The table minimum, in money: the bet at every count whose EV is not above 0 (the
    /// player plays every round dealt; sit out with --wong-out).
    #[arg(help_heading = heading::COUNTING, long, value_name = "MONEY", value_parser = parse_money)]
    pub table_min: f64,

    /// The table maximum, in money: no bet is larger.
    #[arg(help_heading = heading::COUNTING, long, value_name = "MONEY", value_parser = parse_money)]
    pub table_max: f64,

    /// The chip, in money: bets are the table minimum plus whole chips (rounded to the
    /// nearest; when the chip divides the minimum, every bet is a whole number of chips).
    #[arg(help_heading = heading::COUNTING, long, value_name = "MONEY", default_value = "1", value_parser = parse_money)]
    pub chip: f64,

    /// The lifetime risk of ruin the sheet is sized to: "5%" or 0.05.
    ///
    /// The bets of the largest scale (of Kelly's shape, e/v at each count) whose risk
    /// e^(-2·EV·B/Var) is not above it, after the table's limits and the chips; when no sheet
    /// reaches it, the sheet of least risk (and the report says so).
    #[arg(help_heading = heading::COUNTING, long, value_name = "ROR", value_parser = parse_ror)]
    pub target_ror: Option<f64>,

    /// Size the bets to this fraction of Kelly instead: k·B·e/v at each count, clipped and
    /// rounded (0.5 is half Kelly).
    #[arg(help_heading = heading::COUNTING, long, value_name = "K")]
    pub kelly: Option<f64>,

    /// Rounds dealt per hour at the table, for the hourly figures (a wonger plays only some).
    #[arg(help_heading = heading::COUNTING, long, value_name = "N", default_value_t = 100.0)]
    pub rounds_per_hour: f64,

    /// A trip of this many rounds played: its risk of ruin by the formula, beside simulated
    /// trips (--trials).
    #[arg(help_heading = heading::COUNTING, long, value_name = "N", value_parser = parse_count)]
    pub trip_rounds: Option<u64>,

    /// Simulated trips that check the trip's risk (with --trip-rounds; 0: none): each round's
    /// count drawn from the table, its net from a two-point law with the count's EV and
    /// variance.
    #[arg(help_heading = heading::RUN, long, value_name = "N", default_value = "10000", value_parser = parse_count)]
    pub trials: u64,

    /// Write the sheet here as the ramp file sim's --ramp reads, in units of the chip (the
    /// chip must divide the table minimum).
    #[arg(help_heading = heading::OUTPUT, long, value_name = "FILE")]
    pub bets_out: Option<PathBuf>,

    #[command(flatten)]
    pub run: RunCommon,

    #[command(flatten)]
    pub output: OutputArgs,
}

/// An amount of money: a finite number (its range is checked with the others).
fn parse_money(s: &str) -> Result<f64, String> {
    let t = s.trim().replace('_', "");
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!(
            "expected an amount of money such as 25 or 12.50, found '{s}'"
        )),
    }
}

impl TryFrom<&BetsBlackjack> for BetsJob {
    type Error = anyhow::Error;
    fn try_from(args: &BetsBlackjack) -> anyhow::Result<Self> {
        let source = args.table.source(&args.run, "the bets")?;
        let sizing = match (args.target_ror, args.kelly) {
            (Some(r), _) => Sizing::TargetRor(r),
            (None, Some(k)) => Sizing::Kelly(k),
            (None, None) => anyhow::bail!("give --target-ror ROR or --kelly K"),
        };
        let request = BetsRequest {
            money: Money {
                bankroll: args.bankroll,
                table_min: args.table_min,
                table_max: args.table_max,
                chip: args.chip,
            },
            sizing,
            rounds_per_hour: args.rounds_per_hour,
            trip_rounds: args.trip_rounds,
            trials: if args.trip_rounds.is_some() {
                args.trials
            } else {
                0
            },
            seed: args.run.seed,
        };
        request.validate()?;
        if args.bets_out.is_some() && !request.money.as_units() {
            anyhow::bail!(
                "--bets-out: the chip ({}) does not divide the table minimum ({}): no ramp of whole units bets these amounts; give a chip that divides the minimum, or leave --bets-out out",
                args.chip,
                args.table_min
            );
        }
        Ok(BetsJob {
            source,
            request,
            bets_out: args.bets_out.clone(),
            pool_se: args.table.pool_se,
            outputs: (&args.output).into(),
        })
    }
}
