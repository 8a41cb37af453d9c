//! `strategies team blackjack`: spotters at several tables calling in a big player.

use clap::Args;

use super::super::heading;
use super::counting::{CountArgs, CountPlay, TcRounding, TrueCount};
use super::{parse_rounds, BjRulesArgs, TablesArgs};
use crate::cli::{OutputArgs, RunCommon};
use rtplab::games::blackjack::count::Ramp;
use rtplab::games::blackjack::resolve::resolve_strategy;
use rtplab::games::blackjack::strategy::StrategySpec;
use rtplab::games::blackjack::team::{TeamJob, TeamRequest};

/// `strategies team blackjack`: a big player called in by spotters, beside a lone wonger.
#[derive(Args, Debug)]
pub struct TeamBlackjack {
    #[command(flatten)]
    pub rules: BjRulesArgs,

    /// The count the spotters keep (as sim's --count).
    #[arg(help_heading = heading::COUNTING, long, value_name = "SYSTEM")]
    pub count: String,

    /// The chart the big player, the spotters and the lone counter play (as sim's --strategy).
    #[arg(help_heading = heading::STRATEGY, long, default_value = "basic")]
    pub strategy: String,

    /// Index plays (as sim's --indices).
    #[arg(help_heading = heading::COUNTING, long, value_name = "SET")]
    pub indices: Option<String>,

    /// How the decks remaining are known for the true count (as sim's; default exact).
    #[arg(help_heading = heading::COUNTING, long, value_enum)]
    pub true_count: Option<TrueCount>,

    /// How the true count is made an integer (as sim's; default floor).
    #[arg(help_heading = heading::COUNTING, long, value_enum)]
    pub tc_rounding: Option<TcRounding>,

    /// Tables, each with a spotter.
    #[arg(help_heading = heading::COUNTING, long, value_name = "N", default_value_t = 4)]
    pub tables: u32,

    /// A spotter calls the big player when the table's count is TC or more.
    #[arg(help_heading = heading::COUNTING, long, value_name = "TC", default_value_t = 2, allow_hyphen_values = true)]
    pub call_at: i32,

    /// The big player leaves when the count falls below TC (or at the shuffle).
    #[arg(help_heading = heading::COUNTING, long, value_name = "TC", default_value_t = 0, allow_hyphen_values = true)]
    pub exit_below: i32,

    /// The big player's flat bet, in table minimums (or --ramp for bets by count).
    #[arg(help_heading = heading::COUNTING, long, value_name = "UNITS", conflicts_with = "ramp")]
    pub bet: Option<u32>,

    /// The big player's bets by count ("TC:units,...", as sim's --ramp; no 0 units).
    #[arg(help_heading = heading::COUNTING, long, value_name = "SPEC", allow_hyphen_values = true)]
    pub ramp: Option<String>,

    /// Each spotter's bet every round, in table minimums (0: they watch without betting).
    #[arg(help_heading = heading::COUNTING, long, value_name = "UNITS", default_value_t = 0)]
    pub spotter_bet: u32,

    /// Rounds dealt per hour at each table: the hours of the hourly figures.
    #[arg(help_heading = heading::COUNTING, long, value_name = "N", default_value_t = 100.0)]
    pub rounds_per_hour: f64,

    /// The bankroll of the risk of ruin, in table minimums.
    #[arg(help_heading = heading::COUNTING, long, value_name = "UNITS", default_value_t = 1000.0)]
    pub bankroll: f64,

    /// Rounds dealt at each table (whole chunks of shoes, as sim plans them; default 1M).
    #[arg(help_heading = heading::RUN, long, value_parser = parse_rounds)]
    pub rounds: Option<u64>,

    #[command(flatten)]
    pub tables_kept: TablesArgs,

    #[command(flatten)]
    pub run: RunCommon,

    #[command(flatten)]
    pub output: OutputArgs,
}

impl TryFrom<&TeamBlackjack> for TeamJob {
    type Error = anyhow::Error;
    fn try_from(args: &TeamBlackjack) -> anyhow::Result<Self> {
        let counting = CountArgs {
            count: Some(args.count.clone()),
            indices: args.indices.clone(),
            play: CountPlay {
                true_count: args.true_count,
                tc_rounding: args.tc_rounding,
                ..Default::default()
            },
            ..Default::default()
        };
        let count = counting
            .spec()?
            .ok_or_else(|| anyhow::anyhow!("--count SYSTEM is needed"))?;
        let rules = args.rules.to_rules()?;
        let kept = args.tables_kept.kept();
        let chart = match resolve_strategy(&args.strategy, &rules, &kept)? {
            StrategySpec::Chart(c) => *c,
            _ => anyhow::bail!(
                "--strategy {}: a team plays a chart (basic or a chart file), not a dealer's or an auto-play's rule",
                args.strategy
            ),
        };
        let bets = match (&args.ramp, args.bet) {
            (Some(r), _) => Ramp::resolve(r)?,
            (None, b) => Ramp(vec![(0, b.unwrap_or(10))]),
        };
        let request = TeamRequest {
            tables: args.tables,
            call_at: args.call_at,
            exit_below: args.exit_below,
            bets,
            spotter_bet: args.spotter_bet,
            rounds_per_hour: args.rounds_per_hour,
            bankroll: args.bankroll,
        };
        request.validate()?;
        Ok(TeamJob {
            rules,
            chart,
            count,
            request,
            rounds: args.rounds.unwrap_or(1_000_000),
            seed: args.run.seed,
            outputs: (&args.output).into(),
        })
    }
}
