//! `rtplab risk`: a bankroll's risk from a game's EV and SD per round. The lifetime risk of
//! ruin, the risk within a trip of N rounds, the chance of reaching a win goal before ruin,
//! the bankroll for a target risk, the rounds to double, N0 and SCORE: closed forms of the
//! Brownian walk (`formulas.rs`), each checked by a seeded simulation of the same walk
//! (`walk.rs`) beside it in the report (`model.rs`, `sections.rs`). EV and SD come from the
//! flags or from a game's report, read by the game's own `Reader` (`Game::RISK`).
//!
//! The same formulas serve blackjack's counting reports (its `ror`, `bankroll_for_ror` and
//! `certainty_equivalent` figures, and the ramps' risk of ruin).

mod formulas;
mod model;
mod sections;
mod walk;

use std::path::PathBuf;

use serde::Deserialize;

use crate::numparse::written;

pub use formulas::{
    bankroll_for_ror, bankroll_to_double_for_ror, certainty_equivalent, double_probability,
    doubled_by, edge_ses, goal_probability, n0, rounds_to_double_mean, rounds_to_double_median,
    ruin_before_goal, ruin_probability, score, score_slope, EdgeSes,
};
pub use model::{model, CheckRow, RiskModel, Z_LIMIT};
pub use sections::render;
pub use walk::{ror_trips, TripCheck, TRIP_BLOCK_STEPS, TRIP_CEILING, TRIP_CHECKS};

/// Errors of `risk` (exit code 2); each names the flag (or the report's field) and says what
/// to give instead.
#[derive(Debug, thiserror::Error)]
pub enum RiskError {
    #[error("{0}: the SD per round must be a positive number of units of at most {MAX_UNITS:e} (a flat blackjack round's is about 1.15 initial bets; a counter's, betting more, is larger)")]
    Sd(String),
    #[error("{0}: the EV per round must be a number of units from -{MAX_UNITS:e} to {MAX_UNITS:e}, e.g. 0.0151 or 1.51% (negative for a losing game)")]
    Ev(String),
    #[error("--bankroll {}: the bankroll must be a positive number of units of at most {MAX_UNITS:e} (the same unit as EV and SD), e.g. --bankroll 1000", written(*.0))]
    Bankroll(f64),
    #[error("--goal {}: the win goal must be a positive number of units of at most {MAX_UNITS:e} above the bankroll (to play on without one, leave --goal out: that is the lifetime risk)", written(*.0))]
    Goal(f64),
    #[error(
        "--rounds {}: a trip must be a positive, finite number of rounds, e.g. --rounds 10000",
        written(*.0)
    )]
    Rounds(f64),
    #[error("--target-ror {}: a risk of ruin is above 0 and below 1 (100%), e.g. 5% or 0.05", written(*.0))]
    TargetRor(f64),
    #[error("--rounds-per-hour {}: must be a positive number of rounds of at most {MAX_UNITS:e}, e.g. 100", written(*.0))]
    RoundsPerHour(f64),
    #[error("--trials {0}: give 0 (no simulated check) or from 1,000 to 10^9 walks per check")]
    Trials(u64),
    #[error("--from {0}: not JSON ({1}); give the JSON report of a simulation (`rtplab sim blackjack --format json`, or report.json of its --out-dir)")]
    NotJson(String, String),
    #[error("--from {file}: {what}; risk reads the EV and SD per round of a blackjack simulation report (`rtplab sim blackjack --format json`, or report.json of its --out-dir): for another game give --ev and --sd")]
    NoFigures { file: String, what: String },
    #[error("--from {file}: a {game} report without its EV and SD per round ({why}); risk reads a simulation report made by this version (`rtplab sim {game} --format json`, or report.json of its --out-dir), or give --ev and --sd")]
    Incomplete {
        file: String,
        game: String,
        why: String,
    },
    #[error(transparent)]
    Input(#[from] crate::door::InputError),
}

crate::job::carried!(RiskError);

/// What a report states of a round, as a game reads it from its report (`Reader`).
#[derive(Clone, Debug, PartialEq)]
pub struct Stated {
    /// EV per round in units, its SE, and the SD per round.
    pub ev: f64,
    pub ev_se: Option<f64>,
    pub sd: f64,
    /// What a round is and which fields the figures are: "per round played (all spots,
    /// insurance included): ev_per_round, sd_per_round".
    pub what: String,
    /// The report's pace, when it states one.
    pub rounds_per_hour: Option<f64>,
    /// The report is of an interrupted run (its figures come from fewer rounds).
    pub interrupted: bool,
}

/// A game's reading of its reports for `risk` (`Game::RISK`): the EV and SD per round a
/// report of the game states. The binary gives `risk` the readers of its registry.
#[derive(Clone, Copy)]
pub struct Reader {
    /// The game (a report's `game`).
    pub game: &'static str,
    pub read: fn(&serde_json::Value) -> Result<Stated, serde_json::Error>,
}

/// Where EV and SD come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// `--ev` and `--sd`.
    Given { ev: f64, sd: f64 },
    /// A report (`--from`), read by its game's reader.
    Report(PathBuf),
}

/// The game as the figures take it: EV and SD per round, and where they came from.
#[derive(Clone, Debug, PartialEq)]
pub struct PerRound {
    pub ev: f64,
    pub ev_se: Option<f64>,
    pub sd: f64,
    pub source: String,
    pub rounds_per_hour: Option<f64>,
    /// How to name EV and SD in an error: "--ev 0.01", "--from r.json: its ev_per_round".
    pub ev_name: String,
    pub sd_name: String,
}

impl PerRound {
    /// The figures given on the command line.
    pub fn given(ev: f64, sd: f64) -> PerRound {
        PerRound {
            ev,
            ev_se: None,
            sd,
            source: "--ev and --sd".into(),
            rounds_per_hour: None,
            ev_name: format!("--ev {}", written(ev)),
            sd_name: format!("--sd {}", written(sd)),
        }
    }

    /// The figures a report's JSON `text` states (`file` names it), read by its game's
    /// reader among `readers`.
    pub fn from_report(text: &str, file: &str, readers: &[Reader]) -> Result<PerRound, RiskError> {
        #[derive(Deserialize)]
        struct Head {
            game: Option<String>,
        }
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| RiskError::NotJson(file.into(), e.to_string()))?;
        let no = |what: String| RiskError::NoFigures {
            file: file.into(),
            what,
        };
        let game = Head::deserialize(&v)
            .ok()
            .and_then(|h| h.game)
            .ok_or_else(|| no("not a report of a game's run (it names no \"game\")".into()))?;
        let reader = readers.iter().find(|r| r.game == game).ok_or_else(|| {
            no(format!(
                "a {game} report states no EV and SD per round in units"
            ))
        })?;
        let s = (reader.read)(&v).map_err(|e| RiskError::Incomplete {
            file: file.into(),
            game: game.clone(),
            why: e.to_string(),
        })?;
        let note = if s.interrupted {
            ", an interrupted run"
        } else {
            ""
        };
        Ok(PerRound {
            ev: s.ev,
            ev_se: s.ev_se,
            sd: s.sd,
            source: format!("{file} ({game}{note}): {}", s.what),
            rounds_per_hour: s.rounds_per_hour,
            ev_name: format!("--from {file}: its EV per round {}", written(s.ev)),
            sd_name: format!("--from {file}: its SD per round {}", written(s.sd)),
        })
    }
}

/// `risk`'s request: the game per round and the questions asked of it.
#[derive(Clone, Debug)]
pub struct Request {
    pub per_round: PerRound,
    pub bankroll: Option<f64>,
    pub goal: Option<f64>,
    pub rounds: Option<f64>,
    pub target_ror: Option<f64>,
    /// Overrides the report's pace.
    pub rounds_per_hour: Option<f64>,
    /// The simulated check: its seed and walks per check (0: none).
    pub seed: u64,
    pub trials: u64,
}

/// The largest EV, SD, bankroll, goal or pace `risk` takes (in units, or rounds an hour): far
/// beyond any game, and small enough that every figure of the formulas (the variance, SD²,
/// among them) stays a finite number a report can print.
pub const MAX_UNITS: f64 = 1e15;

/// The most walks a check may take.
pub const MAX_TRIALS: u64 = 1_000_000_000;

impl Request {
    /// Every figure a number the formulas can take, each refused by the flag that gave it.
    pub fn validate(&self) -> Result<(), RiskError> {
        let p = &self.per_round;
        if !(p.sd > 0.0 && p.sd <= MAX_UNITS) {
            return Err(RiskError::Sd(p.sd_name.clone()));
        }
        if p.ev.is_nan() || p.ev.abs() > MAX_UNITS {
            return Err(RiskError::Ev(p.ev_name.clone()));
        }
        let positive = |v: Option<f64>| v.is_none_or(|v| v > 0.0 && v <= MAX_UNITS);
        if !positive(self.bankroll) {
            return Err(RiskError::Bankroll(self.bankroll.unwrap_or(f64::NAN)));
        }
        if !positive(self.goal) {
            return Err(RiskError::Goal(self.goal.unwrap_or(f64::NAN)));
        }
        if !positive(self.rounds) {
            return Err(RiskError::Rounds(self.rounds.unwrap_or(f64::NAN)));
        }
        if !positive(self.rounds_per_hour) {
            return Err(RiskError::RoundsPerHour(
                self.rounds_per_hour.unwrap_or(f64::NAN),
            ));
        }
        if let Some(t) = self.target_ror.filter(|t| !(*t > 0.0 && *t < 1.0)) {
            return Err(RiskError::TargetRor(t));
        }
        if self.trials != 0 && !(walk::CHUNK..=MAX_TRIALS).contains(&self.trials) {
            return Err(RiskError::Trials(self.trials));
        }
        Ok(())
    }
}

/// `risk`: EV and SD per round (given, or from a report), the questions, where the report
/// goes. It fails (exit 1) when a simulated check disagrees with its formula.
pub struct RiskJob {
    /// The games' own readings of their reports (the registry's).
    pub readers: Vec<Reader>,
    pub source: Source,
    pub bankroll: Option<f64>,
    pub goal: Option<f64>,
    pub rounds: Option<f64>,
    pub target_ror: Option<f64>,
    pub rounds_per_hour: Option<f64>,
    pub seed: u64,
    pub trials: u64,
    pub outputs: crate::job::Outputs,
}

impl crate::job::Job for RiskJob {
    fn outputs(&self) -> &crate::job::Outputs {
        &self.outputs
    }
    fn run(self, ctx: &crate::job::Ctx) -> Result<crate::job::Outcome, crate::job::Error> {
        let per_round = match &self.source {
            Source::Given { ev, sd } => PerRound::given(*ev, *sd),
            Source::Report(path) => {
                use crate::door::input::{read_text, MAX_SHARD_BYTES};
                let text = read_text(path, "--from", MAX_SHARD_BYTES)?;
                PerRound::from_report(&text, &path.display().to_string(), &self.readers)?
            }
        };
        let request = Request {
            per_round,
            bankroll: self.bankroll,
            goal: self.goal,
            rounds: self.rounds,
            target_ror: self.target_ror,
            rounds_per_hour: self.rounds_per_hour,
            seed: self.seed,
            trials: self.trials,
        };
        let m = model(&request, ctx.progress)?;
        let status = crate::job::Status::checked(m.check.agree);
        Ok(crate::job::Outcome::report(render(&m), status))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(ev: f64, sd: f64) -> Request {
        Request {
            per_round: PerRound::given(ev, sd),
            bankroll: Some(100.0),
            goal: None,
            rounds: None,
            target_ror: None,
            rounds_per_hour: None,
            seed: 1,
            trials: 0,
        }
    }

    /// Each bad value is refused by the flag that gave it, saying what to give.
    #[test]
    fn bad_values_are_refused_naming_their_flag() {
        let msg = |r: Request| r.validate().unwrap_err().to_string();
        assert!(msg(request(0.01, -1.0)).starts_with("--sd -1: the SD per round must be"));
        assert!(msg(request(0.01, 0.0)).starts_with("--sd 0:"));
        assert!(msg(request(f64::NAN, 1.0)).starts_with("--ev NaN:"));
        let mut r = request(0.01, 1.0);
        r.bankroll = Some(0.0);
        assert!(msg(r.clone()).starts_with("--bankroll 0: the bankroll must be"));
        r.bankroll = Some(-5.0);
        assert!(msg(r.clone()).starts_with("--bankroll -5:"));
        r.bankroll = Some(100.0);
        r.goal = Some(0.0);
        assert!(msg(r.clone()).contains("--goal 0: the win goal must be"));
        r.goal = Some(f64::INFINITY);
        assert!(msg(r.clone()).contains("leave --goal out"));
        r.goal = None;
        for t in [0.0, 1.0, 1.5, -0.1] {
            r.target_ror = Some(t);
            assert!(msg(r.clone()).starts_with(&format!("--target-ror {t}:")));
        }
        r.target_ror = None;
        r.trials = 10;
        assert!(msg(r.clone()).starts_with("--trials 10:"));
        r.trials = 1000;
        assert!(r.validate().is_ok());
        r.rounds = Some(0.0);
        assert!(msg(r.clone()).starts_with("--rounds 0:"));
    }

    fn reader_ok(_: &serde_json::Value) -> Result<Stated, serde_json::Error> {
        Ok(Stated {
            ev: 0.01,
            ev_se: Some(0.001),
            sd: 2.0,
            what: "per round: ev, sd".into(),
            rounds_per_hour: Some(80.0),
            interrupted: true,
        })
    }

    fn reader_missing(v: &serde_json::Value) -> Result<Stated, serde_json::Error> {
        #[derive(Deserialize, Debug)]
        #[allow(dead_code)]
        struct Needs {
            sd_round: f64,
        }
        Needs::deserialize(v).map(|_| unreachable!())
    }

    /// A report is read by its own game's reader; any other report, a report of no game or
    /// not JSON at all is refused, naming the file and saying what risk reads.
    #[test]
    fn reports_are_read_by_their_games_reader() {
        let readers = [
            Reader {
                game: "blackjack",
                read: reader_ok,
            },
            Reader {
                game: "coin",
                read: reader_missing,
            },
        ];
        let p = PerRound::from_report(r#"{"game": "blackjack"}"#, "r.json", &readers).unwrap();
        assert_eq!((p.ev, p.sd, p.ev_se), (0.01, 2.0, Some(0.001)));
        assert_eq!(p.rounds_per_hour, Some(80.0));
        assert!(p.source.contains("r.json (blackjack, an interrupted run)"));
        let err = |text: &str| {
            PerRound::from_report(text, "r.json", &readers)
                .unwrap_err()
                .to_string()
        };
        let doom = err(r#"{"game": "doom", "mean_turn_score": 500}"#);
        assert!(doom.starts_with("--from r.json: a doom report states no EV and SD per round"));
        assert!(doom.contains("give --ev and --sd"), "{doom}");
        assert!(err(r#"{"rounds": 5}"#).contains("names no \"game\""));
        assert!(err("not json").starts_with("--from r.json: not JSON"));
        let coin = err(r#"{"game": "coin"}"#);
        assert!(
            coin.starts_with("--from r.json: a coin report without its EV and SD per round")
                && coin.contains("missing field `sd_round`"),
            "{coin}"
        );
    }
}
