//! `rtplab risk` on the command line: the game's EV and SD per round (or a report that states
//! them), the bankroll and the questions; the library checks every value.

use std::path::PathBuf;

use clap::Args;

use super::{heading, parse_count_limited, parse_ev, parse_ror, registry, OutputArgs, RunCommon};

/// `rtplab risk`.
#[derive(Args, Debug)]
#[command(group(
    clap::ArgGroup::new("question")
        .args(["bankroll", "target_ror"])
        .required(true)
        .multiple(true)
))]
pub struct RiskArgs {
    /// EV per round in units (table minimums): 0.0151, or 1.51% of a unit; negative for a
    /// losing game. Needs --sd.
    ///
    /// The mean net result of one round, in the unit the bankroll is counted in.
    #[arg(long, value_name = "UNITS", value_parser = parse_ev, requires = "sd",
        required_unless_present = "from", help_heading = heading::ANALYSIS)]
    pub ev: Option<f64>,
    /// SD per round in units (the SD about the mean, not the root of the average squared
    /// win). Needs --ev.
    ///
    /// A flat blackjack round's is about 1.15 initial bets; a counter's, betting more at high
    /// counts, is larger (3.27 for a 1-12 ramp at the seed table).
    #[arg(long, value_name = "UNITS", requires = "ev", help_heading = heading::ANALYSIS)]
    pub sd: Option<f64>,
    /// Take EV and SD per round from a blackjack simulation report (JSON) instead of --ev and
    /// --sd.
    ///
    /// A counting run's (`sim blackjack --count ...`): ev_per_round and sd_per_round, per
    /// round played (all its spots, insurance included), and its pace (rounds played an hour);
    /// a flat run's: the main bet's EV and SD per seat-round. Example: --from
    /// reports/counting-hilo-75pct/report.json
    #[arg(long, value_name = "REPORT.json", conflicts_with_all = ["ev", "sd"],
        help_heading = heading::ANALYSIS)]
    pub from: Option<PathBuf>,
    /// The bankroll, in the units of EV and SD: its lifetime risk of ruin, and the rounds to
    /// double it.
    #[arg(long, value_name = "UNITS", help_heading = heading::ANALYSIS)]
    pub bankroll: Option<f64>,
    /// A win goal, in units above --bankroll: the chance of reaching it before ruin (play
    /// stops at either).
    ///
    /// Example: --bankroll 300 --goal 300 (doubling).
    #[arg(long, value_name = "UNITS", requires = "bankroll", help_heading = heading::ANALYSIS)]
    pub goal: Option<f64>,
    /// A trip of N rounds: the risk of ruin of --bankroll within it.
    #[arg(long, value_name = "N", value_parser = parse_count_limited, requires = "bankroll",
        help_heading = heading::ANALYSIS)]
    pub rounds: Option<u64>,
    /// The bankroll whose lifetime risk of ruin is this ("5%" or 0.05), and the bankroll
    /// whose risk of ruin before doubling it is.
    #[arg(long, value_name = "ROR", value_parser = parse_ror, help_heading = heading::ANALYSIS)]
    pub target_ror: Option<f64>,
    /// Rounds played per hour, for hours beside rounds (default: the report's pace, if it
    /// states one).
    #[arg(long, value_name = "N", help_heading = heading::ANALYSIS)]
    pub rounds_per_hour: Option<f64>,
    /// Simulated walks per check (each formula beside a simulation of the same walk), 0 for
    /// none; from 1,000 to 1e9.
    ///
    /// Each check reports the simulated value, its SE and z; a disagreement beyond 4 SE is
    /// stated, and the exit code is 1.
    #[arg(long, value_name = "N", default_value = "10k",
        value_parser = rtplab::numparse::parse_count, help_heading = heading::RUN)]
    pub trials: u64,
    #[command(flatten)]
    pub run: RunCommon,
    #[command(flatten)]
    pub output: OutputArgs,
}

impl From<&RiskArgs> for rtplab::risk::RiskJob {
    fn from(a: &RiskArgs) -> Self {
        use rtplab::risk::Source;
        let source = match (&a.from, a.ev, a.sd) {
            (Some(p), _, _) => Source::Report(p.clone()),
            // clap requires --from or both --ev and --sd.
            (None, ev, sd) => Source::Given {
                ev: ev.unwrap_or(f64::NAN),
                sd: sd.unwrap_or(f64::NAN),
            },
        };
        Self {
            readers: registry::games().iter().filter_map(|e| e.risk).collect(),
            source,
            bankroll: a.bankroll,
            goal: a.goal,
            rounds: a.rounds.map(|n| n as f64),
            target_ror: a.target_ror,
            rounds_per_hour: a.rounds_per_hour,
            seed: a.run.seed,
            trials: a.trials,
            outputs: (&a.output).into(),
        }
    }
}
