//! The risk report's model: the inputs, each closed form's value, and the simulated walks
//! that check them (planned here, walked by `walk.rs`).

use serde::Serialize;

use super::formulas::*;
use super::walk::{self, Course, Tally, CHUNK};
use super::{Request, RiskError};

/// The formulas as the report states them.
pub const LIFETIME: &str = "RoR = exp(-2 ev B / var)";
pub const TRIP: &str =
    "Phi((-B - ev N)/(sd sqrt N)) + exp(-2 ev B / var) Phi((-B + ev N)/(sd sqrt N))";
pub const GOAL: &str =
    "P(goal) = (1 - exp(-2 ev B / var)) / (1 - exp(-2 ev (B + G) / var)); B/(B + G) at ev = 0";
pub const TARGET: &str =
    "B = -var ln(RoR) / (2 ev); before doubling: B = var ln(1/RoR - 1) / (2 ev)";
pub const DOUBLE: &str = "the walk without a floor, first +B: mean B/ev (the rounds after which the expected win is the bankroll, by Wald's identity); median: P(first +B by t) = 1/2 (inverse Gaussian)";
/// The walk the checks simulate.
pub const WALK: &str = "Brownian motion with drift ev and variance var per round, in steps whose net is normal, each step's chance of touching a barrier between its ends drawn from the Brownian bridge";

/// Everything `risk` reports, computed once; the tables and the JSON both come from it.
#[derive(Clone, Debug, Serialize)]
pub struct RiskModel {
    pub version: &'static str,
    pub command: &'static str,
    pub input: Input,
    /// 10^6 (ev/sd)² and (sd/ev)² per round (null unless EV > 0).
    pub score: Option<f64>,
    pub n0: Option<f64>,
    pub n0_hours: Option<f64>,
    pub lifetime: Option<Lifetime>,
    pub trip: Option<Trip>,
    pub goal: Option<Goal>,
    pub target: Option<Target>,
    pub double: Option<Double>,
    pub check: Check,
}

/// The game and the questions, as the figures were computed from them (units: table
/// minimums, or whatever unit EV and SD are given in).
#[derive(Clone, Debug, Serialize)]
pub struct Input {
    /// Where EV and SD come from: the flags, or a report and its fields.
    pub source: String,
    pub ev: f64,
    /// The EV's SE, when a report states it.
    pub ev_se: Option<f64>,
    pub sd: f64,
    pub variance: f64,
    pub bankroll: Option<f64>,
    pub goal: Option<f64>,
    pub rounds: Option<f64>,
    pub target_ror: Option<f64>,
    pub rounds_per_hour: Option<f64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Lifetime {
    pub bankroll: f64,
    /// The risk of ever falling to 0 (1 when EV ≤ 0).
    pub ror: f64,
    pub formula: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct Trip {
    pub rounds: f64,
    pub hours: Option<f64>,
    /// The risk of falling to 0 within the trip.
    pub ror: f64,
    pub formula: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct Goal {
    /// Units to win above the bankroll: play stops at B + G or at 0.
    pub goal: f64,
    pub reach_goal: f64,
    pub ruin_first: f64,
    pub formula: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct Target {
    pub target_ror: f64,
    /// The bankroll whose lifetime risk is the target, and whose risk of ruin before
    /// doubling is (null when no bankroll is: EV ≤ 0, or a target of 50% or more before
    /// doubling).
    pub bankroll: Option<f64>,
    pub bankroll_to_double: Option<f64>,
    pub formula: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct Double {
    pub bankroll: f64,
    /// P(the walk without a floor ever stands B above its start).
    pub p_ever: f64,
    pub mean_rounds: Option<f64>,
    pub median_rounds: Option<f64>,
    pub mean_hours: Option<f64>,
    pub median_hours: Option<f64>,
    pub definition: &'static str,
}

/// The simulated walks beside the formulas.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    pub seed: u64,
    /// Walks per check asked (`--trials`; a check of a mean may walk fewer, its row says).
    pub trials: u64,
    pub walk: &'static str,
    /// Agreement: |z| ≤ this for every row.
    pub z_limit: f64,
    pub rows: Vec<CheckRow>,
    pub agree: bool,
}

/// One formula against its walks.
#[derive(Clone, Debug, Serialize)]
pub struct CheckRow {
    /// What the row checks ("lifetime", "trip", "goal", "target", "target_double",
    /// "double_median", "double_mean", "n0").
    pub check: &'static str,
    /// The event or quantity simulated, in words.
    pub event: String,
    /// Its value by the formula, and simulated over `trials` walks: a probability (a share of
    /// walks, SE binomial at the formula's value) or rounds (a mean, SE from the walks).
    pub unit: &'static str,
    pub formula: f64,
    pub simulated: f64,
    pub se: f64,
    pub z: f64,
    pub trials: u64,
    /// Rounds in one step of the walk.
    pub step_rounds: f64,
    pub agrees: bool,
}

/// Disagreement beyond this many SEs is reported as such (and the exit code is 1).
pub const Z_LIMIT: f64 = 4.0;

/// The most steps a check of a mean walks in all (it walks fewer trials beyond).
const MEAN_STEP_BUDGET: f64 = 3e7;

/// A check to walk: the course, what to count, and the formula's value.
struct Plan {
    check: &'static str,
    event: String,
    course: Course,
    tally: Tally,
    formula: f64,
    trials: u64,
}

/// A lifetime risk of `bank` checked by walks stopped at a far ceiling, from which a later
/// ruin's chance is e^(-2·ev·ceiling/var), at most e^-14: the formula is that of the same
/// event, ruin before the ceiling, the lifetime risk less that sliver.
fn lifetime_plan(check: &'static str, ev: f64, var: f64, bank: f64, trials: u64) -> Plan {
    let top = bank + bank.max(7.0 * var / ev);
    let s = (bank / 10.0).max(top / 50.0).min(top / 8.0);
    Plan {
        check,
        event: format!("ruin from {} before {}", units(bank), units(top)),
        course: Course {
            start: bank,
            floor: true,
            ceiling: Some(top),
            horizon: None,
            step: s * s / var,
        },
        tally: Tally::Ruined,
        formula: ruin_before_goal(ev, var, bank, top - bank),
        trials,
    }
}

/// The ruin before `bank + goal` from `bank`.
fn goal_plan(check: &'static str, ev: f64, var: f64, bank: f64, goal: f64, trials: u64) -> Plan {
    let s = (bank + goal) / 50.0;
    Plan {
        check,
        event: format!("ruin from {} before {}", units(bank), units(bank + goal)),
        course: Course {
            start: bank,
            floor: true,
            ceiling: Some(bank + goal),
            horizon: None,
            step: s * s / var,
        },
        tally: Tally::Ruined,
        formula: ruin_before_goal(ev, var, bank, goal),
        trials,
    }
}

/// The mean rounds to double: walks fine enough that half a step is under a quarter of the
/// mean's SE (a quarter of what the formula's own variance, B·var/ev³, gives), and fewer
/// trials when that would walk more than `MEAN_STEP_BUDGET` steps.
fn mean_plan(ev: f64, var: f64, bank: f64, trials: u64) -> Plan {
    let mean = bank / ev;
    // The inverse Gaussian's shape over its mean: λ/m = ev·B/var.
    let shape = ev * bank / var;
    let steps = |n: f64| (2.0 * (n * shape).sqrt()).max(50.0);
    let mut n = trials as f64;
    if n * steps(n) > MEAN_STEP_BUDGET {
        n = (MEAN_STEP_BUDGET / 2.0 / shape.sqrt()).powf(2.0 / 3.0);
        n = ((n / CHUNK as f64).floor() * CHUNK as f64).max(CHUNK as f64);
    }
    let n = (n as u64).min(trials);
    Plan {
        check: "double_mean",
        event: format!("rounds to +{}, mean", units(bank)),
        course: Course {
            start: 0.0,
            floor: false,
            ceiling: Some(bank),
            // A cap far in the tail, never reached in practice.
            horizon: Some(mean * 1e4_f64.max(80.0 / shape)),
            step: mean / steps(n as f64),
        },
        tally: Tally::RoundsToCeiling,
        formula: mean,
        trials: n,
    }
}

/// Every check the request's figures call for.
fn plans(r: &Request, trials: u64) -> Vec<Plan> {
    let (ev, sd) = (r.per_round.ev, r.per_round.sd);
    let var = sd * sd;
    let mut out = Vec::new();
    if let Some(b) = r.bankroll.filter(|_| ev > 0.0) {
        out.push(lifetime_plan("lifetime", ev, var, b, trials));
    }
    if let (Some(b), Some(n)) = (r.bankroll, r.rounds) {
        out.push(Plan {
            check: "trip",
            event: format!("ruin within {} rounds", units(n)),
            course: Course {
                start: b,
                floor: true,
                ceiling: None,
                horizon: Some(n),
                step: n / 100.0,
            },
            tally: Tally::Ruined,
            formula: ruin_probability(ev, sd, b, Some(n)),
            trials,
        });
    }
    if let (Some(b), Some(g)) = (r.bankroll, r.goal) {
        out.push(goal_plan("goal", ev, var, b, g, trials));
    }
    if let Some(t) = r.target_ror {
        if let Some(b) = bankroll_for_ror(ev, var, t) {
            out.push(lifetime_plan("target", ev, var, b, trials));
        }
        if let Some(b) = bankroll_to_double_for_ror(ev, var, t) {
            out.push(goal_plan("target_double", ev, var, b, b, trials));
        }
    }
    if let Some(b) = r.bankroll {
        if let Some(m) = rounds_to_double_median(ev, var, b) {
            out.push(Plan {
                check: "double_median",
                event: format!("+{} within {} rounds", units(b), units(m)),
                course: Course {
                    start: 0.0,
                    floor: false,
                    ceiling: Some(b),
                    horizon: Some(m),
                    step: m / 100.0,
                },
                tally: Tally::Reached,
                formula: 0.5,
                trials,
            });
        }
        if ev > 0.0 {
            out.push(mean_plan(ev, var, b, trials));
        }
    }
    if ev > 0.0 {
        let n0 = n0(ev, sd);
        out.push(Plan {
            check: "n0",
            event: format!("ahead after {} rounds", units(n0)),
            course: Course {
                start: 0.0,
                floor: false,
                ceiling: None,
                horizon: Some(n0),
                step: n0 / 100.0,
            },
            tally: Tally::Ahead,
            // EV is one SD after N0 rounds: ahead with probability Φ(1).
            formula: statrs::distribution::ContinuousCDF::cdf(
                &statrs::distribution::Normal::standard(),
                1.0,
            ),
            trials,
        });
    }
    out
}

/// A number of units or rounds for a sentence: 300, 1,234, 19,868, 2.5e12.
pub fn units(v: f64) -> String {
    if v.abs() >= 1e12 {
        format!("{v:.3e}")
    } else if v.abs() >= 100.0 || v.fract() == 0.0 {
        crate::report::count(v.round().abs() as u64)
    } else {
        format!("{v:.2}")
    }
}

/// Walk the plans (`trials` each, at most), the progress shown by `progress`.
fn check(r: &Request, progress: bool) -> Check {
    let plans = if r.trials > 0 {
        plans(r, r.trials)
    } else {
        Vec::new()
    };
    let chunks: u64 = plans.iter().map(|p| p.trials.div_ceil(CHUNK)).sum();
    let bar = crate::progress::Progress::new(progress, chunks, "risk: walks", "chunks");
    let tick = || bar.advance(1);
    let (ev, sd) = (r.per_round.ev, r.per_round.sd);
    let rows: Vec<CheckRow> = plans
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let s = walk::run(
                ev,
                sd,
                &p.course,
                p.tally,
                p.trials,
                (r.seed, k as u64),
                &tick,
            );
            let (unit, se) = match p.tally {
                Tally::RoundsToCeiling => ("rounds", s.se()),
                _ => (
                    "probability",
                    (p.formula * (1.0 - p.formula) / s.n as f64).sqrt(),
                ),
            };
            let diff = s.mean() - p.formula;
            let event = if s.n < r.trials {
                format!("{} ({} walks)", p.event, crate::report::count(s.n))
            } else {
                p.event.clone()
            };
            let z = if diff == 0.0 { 0.0 } else { diff / se };
            CheckRow {
                check: p.check,
                event,
                unit,
                formula: p.formula,
                simulated: s.mean(),
                se,
                z,
                trials: s.n,
                step_rounds: p.course.step,
                agrees: z.abs() <= Z_LIMIT,
            }
        })
        .collect();
    bar.finish();
    Check {
        seed: r.seed,
        trials: r.trials,
        walk: WALK,
        z_limit: Z_LIMIT,
        agree: rows.iter().all(|c| c.agrees),
        rows,
    }
}

/// The report's model for a validated request; `progress` shows the walks' progress.
pub fn model(r: &Request, progress: bool) -> Result<RiskModel, RiskError> {
    r.validate()?;
    let (ev, sd) = (r.per_round.ev, r.per_round.sd);
    let var = sd * sd;
    let rph = r.rounds_per_hour.or(r.per_round.rounds_per_hour);
    let hours = |n: f64| rph.map(|h| n / h);
    let positive = |v: f64| (ev > 0.0).then_some(v);
    let median = r.bankroll.and_then(|b| rounds_to_double_median(ev, var, b));
    let mean = r.bankroll.and_then(|b| rounds_to_double_mean(ev, b));
    Ok(RiskModel {
        version: crate::VERSION,
        command: "risk",
        input: Input {
            source: r.per_round.source.clone(),
            ev,
            ev_se: r.per_round.ev_se,
            sd,
            variance: var,
            bankroll: r.bankroll,
            goal: r.goal,
            rounds: r.rounds,
            target_ror: r.target_ror,
            rounds_per_hour: rph,
        },
        score: positive(score(ev, sd)),
        n0: positive(n0(ev, sd)),
        n0_hours: positive(n0(ev, sd)).and_then(hours),
        lifetime: r.bankroll.map(|b| Lifetime {
            bankroll: b,
            ror: ruin_probability(ev, sd, b, None),
            formula: LIFETIME,
        }),
        trip: r.bankroll.zip(r.rounds).map(|(b, n)| Trip {
            rounds: n,
            hours: hours(n),
            ror: ruin_probability(ev, sd, b, Some(n)),
            formula: TRIP,
        }),
        goal: r.bankroll.zip(r.goal).map(|(b, g)| Goal {
            goal: g,
            reach_goal: goal_probability(ev, var, b, g),
            ruin_first: ruin_before_goal(ev, var, b, g),
            formula: GOAL,
        }),
        target: r.target_ror.map(|t| Target {
            target_ror: t,
            bankroll: bankroll_for_ror(ev, var, t),
            bankroll_to_double: bankroll_to_double_for_ror(ev, var, t),
            formula: TARGET,
        }),
        double: r.bankroll.map(|b| Double {
            bankroll: b,
            p_ever: double_probability(ev, var, b),
            mean_rounds: mean,
            median_rounds: median,
            mean_hours: mean.and_then(hours),
            median_hours: median.and_then(hours),
            definition: DOUBLE,
        }),
        check: check(r, progress),
    })
}

#[cfg(test)]
mod tests {
    use super::super::PerRound;
    use super::*;

    /// A request of `ev` and `sd` per round, `trials` walks per check, seed 5.
    fn request(ev: f64, sd: f64, trials: u64) -> Request {
        Request {
            per_round: PerRound::given(ev, sd),
            bankroll: None,
            goal: None,
            rounds: None,
            target_ror: None,
            rounds_per_hour: None,
            seed: 5,
            trials,
        }
    }

    /// Hall's example through the whole model: 8.86% ruin before doubling 300 units, and
    /// every check (lifetime, goal, the doubling's median and mean, N0) within 4 SE.
    #[test]
    fn halls_example_in_the_report_and_every_check_agrees() {
        let (wph, asw) = (0.0151f64, 3.887f64);
        let mut r = request(wph, (asw - wph * wph).sqrt(), 4000);
        r.bankroll = Some(300.0);
        r.goal = Some(300.0);
        let m = model(&r, false).unwrap();
        let g = m.goal.as_ref().unwrap();
        assert!(
            (100.0 * g.ruin_first - 8.86).abs() < 0.01,
            "{}",
            g.ruin_first
        );
        let keys: Vec<&str> = m.check.rows.iter().map(|c| c.check).collect();
        assert_eq!(
            keys,
            ["lifetime", "goal", "double_median", "double_mean", "n0"]
        );
        assert!(m.check.agree, "{:#?}", m.check.rows);
        let goal = &m.check.rows[1];
        assert_eq!(goal.formula, g.ruin_first);
        assert_eq!(goal.trials, 4000);
        // The lifetime check's event is ruin before a far ceiling: the lifetime risk, less at
        // most e^-14 of it.
        let life = &m.check.rows[0];
        let ror = m.lifetime.as_ref().unwrap().ror;
        assert!(life.formula <= ror && life.formula > ror * (1.0 - 1e-6));
    }

    /// The walks agree with every closed form on games far apart: a counter's (small edge,
    /// large SD), a strong edge, a losing game, no edge at all.
    #[test]
    fn the_walks_agree_with_each_closed_form_within_4_se() {
        for (ev, sd, b, g, n, t) in [
            (0.0014, 3.27, 1000.0, 1000.0, 20_000.0, 0.05),
            (0.05, 1.0, 20.0, 100.0, 500.0, 0.01),
            (-0.0073, 1.11, 100.0, 50.0, 5000.0, 0.05),
            (0.0, 1.2, 50.0, 25.0, 2000.0, 0.05),
        ] {
            let mut r = request(ev, sd, 2000);
            (r.bankroll, r.goal, r.rounds, r.target_ror) = (Some(b), Some(g), Some(n), Some(t));
            let m = model(&r, false).unwrap();
            assert!(m.check.rows.len() >= 2, "{ev}: {:#?}", m.check.rows);
            for c in &m.check.rows {
                assert!(c.agrees && c.z.abs() <= Z_LIMIT, "{ev}: {c:#?}");
                assert!(c.se > 0.0 && c.trials > 0, "{ev}: {c:#?}");
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_check_and_another_seed_another() {
        let mut r = request(0.01, 1.1, 2000);
        r.bankroll = Some(50.0);
        r.rounds = Some(3000.0);
        let a = model(&r, false).unwrap();
        let b = model(&r, false).unwrap();
        let sims = |m: &RiskModel| m.check.rows.iter().map(|c| c.simulated).collect::<Vec<_>>();
        assert_eq!(sims(&a), sims(&b));
        r.seed = 6;
        assert_ne!(sims(&a), sims(&model(&r, false).unwrap()));
    }

    #[test]
    fn no_trials_no_check_and_figures_without_a_bankroll() {
        let mut r = request(0.01, 1.1, 0);
        r.target_ror = Some(0.05);
        let m = model(&r, false).unwrap();
        assert!(m.check.rows.is_empty() && m.check.agree);
        assert!(m.lifetime.is_none() && m.double.is_none());
        let b = m.target.unwrap().bankroll.unwrap();
        assert!((b - 1.21 * 20f64.ln() / 0.02).abs() < 1e-9);
        assert!((m.score.unwrap() - 1e6 * 0.0001 / 1.21).abs() < 1e-9);
    }

    #[test]
    fn hours_come_from_the_pace() {
        let mut r = request(0.01, 1.0, 0);
        r.bankroll = Some(100.0);
        r.rounds = Some(5000.0);
        r.rounds_per_hour = Some(50.0);
        let m = model(&r, false).unwrap();
        assert_eq!(m.trip.unwrap().hours, Some(100.0));
        assert_eq!(m.double.unwrap().mean_hours, Some(200.0));
        assert_eq!(m.n0_hours, Some(200.0));
    }
}
