//! Command-line types of Twenty One.

use std::path::PathBuf;

use clap::Args;

use super::heading;

use super::{parse_count_limited, ArgError, OutputArgs, RunBase};
use rtplab::game::SimJob;
use rtplab::games::twentyone::game::TwentyOneConfig;
use rtplab::games::twentyone::jobs::{AdviseJob, ExactJob, SweepJob};
use rtplab::games::twentyone::rules::{read_sheets, TwentyOneRules};
use rtplab::games::twentyone::TwentyOne;

#[derive(Args, Debug)]
#[command(next_help_heading = heading::RULES)]
pub struct TwentyOneRulesArgs {
    /// Re-rolls of the non-1 dice the active player may take (1: the published game; 2: the
    /// seed text's literal reading).
    ///
    /// 1s are kept on every re-roll. docs/rules.md (section 2) gives the reading.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub rerolls: u8,
    /// Read the sheets from a file (SHEET,ROW,c1..c6 per line; see strategies/twenty-one/).
    ///
    /// One line per row of a sheet: the sheet's name, the row (1-5) and the colours of its
    /// boxes printed 6 5 4 3 2 1, as W K R B Y G or white, black, red, blue, yellow, green;
    /// every row holds each colour once, every sheet all five rows; `#` starts a comment.
    /// Errors name the file, line and column. Without it,
    /// the six sheets generated deterministically (strategies/twenty-one/sheets-standard.csv
    /// lists them).
    ///
    /// Example: --sheets strategies/twenty-one/sheets-standard.csv
    #[arg(long, value_name = "FILE")]
    pub sheets: Option<PathBuf>,
}

impl TwentyOneRulesArgs {
    pub fn to_rules(&self) -> Result<TwentyOneRules, ArgError> {
        let mut r = TwentyOneRules::standard();
        r.rerolls = self.rerolls;
        if let Some(p) = &self.sheets {
            r.sheets = read_sheets(p)?;
            r.sheet_source = p.display().to_string();
        }
        Ok(r)
    }
}

#[derive(Args, Debug)]
pub struct TwentyOneSim {
    #[command(flatten)]
    pub rules: TwentyOneRulesArgs,
    /// Players (1–6; default 4, or one per --seat); without --seat they play hits-only,
    /// slack:1, greedy, row-optimal:1 in turn. Given with --seat, it must equal the number of
    /// --seat (with --sweep-c, one more: the swept seat).
    #[arg(help_heading = heading::STRATEGY, long)]
    pub players: Option<usize>,
    /// One strategy per seat, in seat order (sets the number of players): hits-only, slack:K, greedy,
    /// row-optimal:C, each optionally +never, +unless-hit, +unless-usable:N, +optimal; or a
    /// file.
    ///
    /// The first part chooses what to write, the second (as the active player) when to
    /// re-roll; +optimal is for row-optimal only. row-optimal:C maximizes the row's expected
    /// points minus C per roll. A file holds one such spec (strategies/twenty-one/racer.txt is
    /// row-optimal:5).
    ///
    /// Example: --seat hits-only --seat strategies/twenty-one/racer.txt
    #[arg(help_heading = heading::STRATEGY, long = "seat", value_name = "STRATEGY")]
    pub seats: Vec<String>,
    /// Games to simulate.
    #[arg(help_heading = heading::RUN, long, default_value = "1M", value_parser = parse_count_limited)]
    pub games: u64,
    /// The seat that starts every game (1-based); by default it rotates game by game.
    #[arg(help_heading = heading::STRATEGY, long)]
    pub start_seat: Option<usize>,
    /// Sweep the row-optimal cost per roll: seat 1 plays row-optimal:C for each C against the
    /// --seat strategies (default: hits-only, slack:1, greedy).
    ///
    /// The report says which C wins most often. Costs from 0 to 100. Example: --sweep-c
    /// 0,1,2,3,4,5,6,8 --games 500k
    #[arg(help_heading = heading::ANALYSIS, long, value_name = "C,C,...", value_delimiter = ',', value_parser = parse_cost)]
    pub sweep_c: Vec<f64>,
    #[command(flatten)]
    pub run: RunBase,
    #[command(flatten)]
    pub output: OutputArgs,
}

impl TwentyOneSim {
    /// The number of players: `--players`, else one per `--seat`, else 4. With `--sweep-c`
    /// the table is the swept row-optimal:C seat plus the `--seat` strategies (default three).
    /// `--players` given must agree (a disagreement is refused, not silently ignored).
    pub fn players(&self) -> Result<usize, ArgError> {
        let seats = self.seats.len();
        if !self.sweep_c.is_empty() {
            let table = 1 + if seats > 0 { seats } else { 3 };
            return match self.players {
                Some(p) if p != table => {
                    Err(format!(
                    "--players {p} disagrees with the sweep's table of {table}: --sweep-c plays \
                     row-optimal:C in seat 1 against the {} --seat strategies{}; give {} --seat \
                     for {p} players, or leave out --players",
                    table - 1,
                    if seats > 0 { "" } else { " (default hits-only, slack:1, greedy)" },
                    p.saturating_sub(1)
                )
                    .into())
                }
                _ => Ok(table),
            };
        }
        super::players_for_seats(self.players, seats)
    }
}

impl TryFrom<&TwentyOneSim> for TwentyOneConfig {
    type Error = anyhow::Error;
    /// With `--sweep-c`, the seats are the other seats (the swept one is added per cost).
    fn try_from(args: &TwentyOneSim) -> anyhow::Result<Self> {
        use rtplab::games::twentyone::game::DEFAULT_SEATS;
        let rules = args.rules.to_rules()?;
        if args.start_seat == Some(0) {
            anyhow::bail!("--start-seat is 1-based: use 1 for the first seat");
        }
        let players = args.players()?;
        let seats: Vec<String> = if !args.seats.is_empty() {
            args.seats.clone()
        } else if !args.sweep_c.is_empty() {
            DEFAULT_SEATS[..3].iter().map(|s| s.to_string()).collect()
        } else {
            if !(1..=6).contains(&players) {
                anyhow::bail!("--players {players}: Twenty One is for 1 to 6 players");
            }
            (0..players)
                .map(|i| DEFAULT_SEATS[i % DEFAULT_SEATS.len()].to_string())
                .collect()
        };
        Ok(TwentyOneConfig {
            rules,
            seats,
            games: args.games,
            start_seat: args.start_seat.map(|s| s - 1),
        })
    }
}

#[derive(Args, Debug)]
pub struct TwentyOneExact {
    #[command(flatten)]
    pub rules: TwentyOneRulesArgs,
    /// Also print the row-optimal policy table.
    ///
    /// For every state of a row (empty boxes, hits so far): the policy's value, expected
    /// points and expected rolls at cost --c per roll.
    #[arg(help_heading = heading::ANALYSIS, long)]
    pub row_policy: bool,
    /// Cost per roll of the row-optimal policy (0 to 100).
    #[arg(help_heading = heading::ANALYSIS, long, default_value_t = 1.0, value_name = "C", value_parser = parse_cost)]
    pub c: f64,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub quiet: super::QuietArgs,
}

#[derive(Args, Debug)]
pub struct AdviseTwentyOne {
    #[command(flatten)]
    pub rules: crate::cli::twentyone::TwentyOneRulesArgs,
    /// Your current row's boxes left to right by colour (printed 6 to 1), e.g. "W6 K5 R4 B3 Y2 G1".
    ///
    /// Six boxes of six different colours (W K R B Y G), each with its printed value.
    #[arg(help_heading = heading::POSITION, long, value_name = "BOXES")]
    pub row: String,
    /// The row's boxes already written or crossed out, by colour, e.g. W,R.
    #[arg(help_heading = heading::POSITION, long, value_name = "COLOURS", default_value = "")]
    pub filled: String,
    /// Exact hits so far in the row: at most the boxes filled, and at least 1 when the box
    /// printed 1 is filled (only a 1 is written there, and a cross-out never reaches it).
    #[arg(help_heading = heading::POSITION, long, default_value_t = 0)]
    pub hits: u8,
    /// The roll: each die's colour and value, e.g. "W3 K5 R1 B6 Y2 G4".
    #[arg(help_heading = heading::POSITION, long, value_name = "DICE")]
    pub roll: String,
    /// Re-rolls you may still take (the active player only; 0 otherwise).
    ///
    /// At most --rerolls. With re-rolls left, re-rolling the non-1 dice is one of the options.
    #[arg(help_heading = heading::POSITION, long, default_value_t = 0, value_name = "N")]
    pub rerolls_left: u8,
    /// Cost per roll of the row-optimal policy (as in `exact twenty-one --c`).
    #[arg(help_heading = heading::STRATEGY, long, default_value_t = 1.0, value_name = "C", value_parser = parse_cost)]
    pub c: f64,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub quiet: super::QuietArgs,
}

/// A cost per roll of the row-optimal policy: a number from 0 to 100.
fn parse_cost(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(c) if (0.0..=100.0).contains(&c) => Ok(c),
        _ => Err(format!(
            "expected a cost per roll from 0 to 100, found '{s}'"
        )),
    }
}

impl TryFrom<&TwentyOneSim> for SimJob<TwentyOne> {
    type Error = anyhow::Error;
    fn try_from(args: &TwentyOneSim) -> anyhow::Result<Self> {
        Ok(SimJob {
            config: TwentyOneConfig::try_from(args)?,
            spec: args.run.spec(None)?,
            claim: None,
            outputs: (&args.output).into(),
        })
    }
}

impl TryFrom<&TwentyOneSim> for SweepJob {
    type Error = anyhow::Error;
    fn try_from(args: &TwentyOneSim) -> anyhow::Result<Self> {
        Ok(SweepJob {
            config: TwentyOneConfig::try_from(args)?,
            costs: args.sweep_c.clone(),
            spec: args.run.spec(None)?,
            outputs: (&args.output).into(),
        })
    }
}

impl TryFrom<&TwentyOneExact> for ExactJob {
    type Error = anyhow::Error;
    fn try_from(args: &TwentyOneExact) -> anyhow::Result<Self> {
        Ok(ExactJob {
            rules: args.rules.to_rules()?,
            row_policy: args.row_policy.then_some(args.c),
            outputs: (&args.output).into(),
        })
    }
}

impl TryFrom<&AdviseTwentyOne> for AdviseJob {
    type Error = anyhow::Error;
    fn try_from(args: &AdviseTwentyOne) -> anyhow::Result<Self> {
        let request = rtplab::games::twentyone::advise::parse(
            &args.row,
            &args.filled,
            args.hits,
            &args.roll,
            args.rerolls_left,
        )?;
        Ok(AdviseJob {
            rules: args.rules.to_rules()?,
            request,
            c: args.c,
            outputs: (&args.output).into(),
        })
    }
}
