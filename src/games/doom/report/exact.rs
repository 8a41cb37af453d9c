//! The exact turn analysis's report: turn EV, bust odds, bank thresholds, the bank-at sweep
//! and the strategies' EVs.

use rayon::prelude::*;
use serde::Serialize;

use super::super::exact::{solve_policy, Policy, Solution, CAP_POINTS};
use super::super::model::Model;
use super::super::rules::{DoomRules, DoomWipes, HeldDice};
use crate::report::{count_cell, fixed_cell, pct_cell, Cell, Report, Section};

/// Options of `exact doom`.
pub struct ExactOptions {
    /// Also evaluate these strategies' policies.
    pub strategies: Vec<super::super::strategy::DoomStrategy>,
    /// Largest T of the bank-at sweep.
    pub sweep_max: u32,
}

/// The exact turn analysis: the JSON document of `exact doom`.
#[derive(Clone, Debug, Serialize)]
pub struct ExactModel {
    pub game: &'static str,
    pub rules: DoomRules,
    pub method: &'static str,
    pub cap_points: u32,
    /// The optimal policy's turn EV.
    pub turn_ev: f64,
    /// Relative values by farkles in a row (all 0 without a farkle penalty).
    pub relative_values: Vec<f64>,
    pub bank_thresholds: Vec<BankThreshold>,
    pub p_bust_by_dice: Vec<BustOdds>,
    pub bank_at_sweep: Vec<BankAt>,
    pub best_bank_at: Option<BankAt>,
    pub strategies: Vec<StrategyEv>,
    /// V(turn points, dice left) under optimal play, for separate scoring only.
    pub values: Option<Vec<ValueRow>>,
    pub solve_ms: f64,
}

/// Optimal banking with `dice_left` dice to roll.
#[derive(Clone, Debug, Serialize)]
pub struct BankThreshold {
    pub dice_left: u8,
    /// The lowest turn points at which it banks (`None`: never).
    pub bank_from: Option<u32>,
    /// The highest turn points at which it rolls on.
    pub roll_up_to: Option<u32>,
    /// Whether one threshold splits banking from rolling.
    pub clean: bool,
}

/// Bust odds of a roll of `dice` dice (nothing held).
#[derive(Clone, Debug, Serialize)]
pub struct BustOdds {
    pub dice: u8,
    pub farkle: f64,
    pub doom: f64,
    pub bust: f64,
}

/// The turn EV of bank-at:`t`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct BankAt {
    pub t: u32,
    pub turn_ev: f64,
}

/// The turn EV of a strategy's policy.
#[derive(Clone, Debug, Serialize)]
pub struct StrategyEv {
    pub strategy: String,
    pub turn_ev: f64,
    /// The end-game variant (its turn EV is that of its base threshold).
    #[serde(skip)]
    pub endgame: bool,
}

/// V(`points`, n) for n = 1..=6 dice left (`None`: no such state).
#[derive(Clone, Debug, Serialize)]
pub struct ValueRow {
    pub points: u32,
    pub v: Vec<Option<f64>>,
}

/// Solve the optimal policy, the strategies' policies and the bank-at:T sweep.
pub fn exact_model(m: &Model, opts: &ExactOptions) -> ExactModel {
    let t0 = std::time::Instant::now();
    let opt = solve_policy(m, &Policy::OPTIMAL);
    let solve_s = t0.elapsed().as_secs_f64();
    let rules = &m.rules;
    let method = if rules.farkle_penalty.is_some() {
        "dynamic programming over (turn points, held dice) per farkles-in-a-row count; \
         the long-run average per turn by a secant iteration on the average"
    } else {
        "dynamic programming over (turn points, held dice), one backward pass"
    };
    let p_bust_by_dice = (1..=6u8)
        .map(|n| {
            let (farkle, doom) = m.bust_odds(n);
            BustOdds {
                dice: n,
                farkle,
                doom,
                bust: farkle + doom,
            }
        })
        .collect();
    let bank_thresholds = opt
        .bank_thresholds(m)
        .into_iter()
        .map(|(n, bank_from, roll_up_to)| BankThreshold {
            dice_left: n,
            bank_from,
            roll_up_to,
            clean: match (bank_from, roll_up_to) {
                (Some(b), Some(rm)) => rm < b,
                _ => true,
            },
        })
        .collect();
    // With a farkle penalty each policy costs a dozen solves: a coarser sweep.
    let step = m.unit.max(50) * if rules.farkle_penalty.is_some() { 2 } else { 1 };
    let ts: Vec<u32> = (1..)
        .map(|k| k * step)
        .take_while(|&t| t <= opts.sweep_max)
        .collect();
    let sweep: Vec<BankAt> = ts
        .par_iter()
        .map(|&t| BankAt {
            t,
            turn_ev: solve_policy(m, &Policy::bank_at(t)).turn_ev,
        })
        .collect();
    let best = sweep.iter().copied().fold(None::<BankAt>, |b, x| match b {
        Some(bb) if bb.turn_ev >= x.turn_ev => Some(bb),
        _ => Some(x),
    });
    let strategies = opts
        .strategies
        .iter()
        .map(|s| StrategyEv {
            strategy: s.name.clone(),
            turn_ev: solve_policy(m, &s.policy).turn_ev,
            endgame: s.endgame,
        })
        .collect();
    ExactModel {
        game: "doom",
        rules: rules.clone(),
        method,
        cap_points: CAP_POINTS,
        turn_ev: opt.turn_ev,
        relative_values: opt.relative.clone(),
        bank_thresholds,
        p_bust_by_dice,
        bank_at_sweep: sweep,
        best_bank_at: best,
        strategies,
        values: values(m, &opt),
        solve_ms: solve_s * 1e3,
    }
}

/// V(t, n) for separate scoring (the published form); with combining held dice the value
/// depends on the held multiset, so the report lists the turn EV only (`None`).
fn values(m: &Model, opt: &Solution) -> Option<Vec<ValueRow>> {
    if m.rules.held_dice != HeldDice::Separate {
        return None;
    }
    let rows = (0..=1000)
        .step_by(m.unit.max(50) as usize)
        .map(|t| ValueRow {
            points: t,
            v: (1..=6u8).map(|n| opt.value(m, t, n)).collect(),
        })
        .collect();
    Some(rows)
}

/// The exact turn analysis report: [`exact_model`], rendered.
pub fn exact_report(m: &Model, opts: &ExactOptions) -> Report {
    render_exact(&exact_model(m, opts))
}

/// The tables, metadata and notes of the exact analysis; its JSON is the model.
pub fn render_exact(x: &ExactModel) -> Report {
    let rules = &x.rules;
    let mut r = Report {
        title: "Dice of Doom exact turn analysis".into(),
        meta: vec![
            ("rules".into(), rules.summary()),
            ("method".into(), x.method.into()),
            (
                "cap".into(),
                format!(
                    "states above {} turn points are valued as banked",
                    crate::report::count(x.cap_points as u64)
                ),
            ),
            (
                "optimal turn EV".into(),
                format!("{:.3} points per turn", x.turn_ev),
            ),
            ("solve time".into(), format!("{:.1} ms", x.solve_ms)),
        ],
        ..Report::default()
    };
    for s in x.strategies.iter().filter(|s| s.endgame) {
        r.notes.push(format!(
            "{}: the end-game variant depends on the game score; its turn EV is that of its \
             base threshold",
            s.strategy
        ));
    }
    r.sections
        .extend([turn_ev_section(x), bust_section(x), threshold_section(x)]);
    if let Some(rows) = &x.values {
        r.sections.push(values_section(rows));
    }
    r.sections.push(sweep_section(x));
    if rules.farkle_penalty.is_some() {
        r.notes.push(format!(
            "With the farkle penalty the turn EV is the long-run average per turn of the policy \
             that maximizes it (relative values by farkles in a row: {}).",
            x.relative_values
                .iter()
                .map(|v| format!("{v:.3}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if rules.doom_sixes.is_some() && rules.doom_wipes == DoomWipes::Bank {
        r.notes.push(
            "Doom wipes the bank in these rules; the turn analysis counts the turn's points only \
             (the bank is not part of a turn)."
                .into(),
        );
    }
    r.head_only("bank-at:T sweep", 10);
    r.json = serde_json::to_value(x).unwrap_or_default();
    r
}

/// The turn EV of optimal play, of each strategy asked for and of the best bank-at:T.
fn turn_ev_section(x: &ExactModel) -> Section {
    let mut te = Section::new("Turn EV by policy", &["policy", "turn EV", "vs optimal"]);
    te.row([
        "optimal".into(),
        fixed_cell(x.turn_ev, 3, "points"),
        Cell::num("0".into(), 0.0, "points"),
    ]);
    for s in &x.strategies {
        te.row([
            s.strategy.clone().into(),
            fixed_cell(s.turn_ev, 3, "points"),
            signed_cell(s.turn_ev - x.turn_ev),
        ]);
    }
    if let Some(b) = x.best_bank_at {
        te.row([
            format!("best bank-at (T = {})", b.t).into(),
            fixed_cell(b.turn_ev, 3, "points"),
            signed_cell(b.turn_ev - x.turn_ev),
        ]);
    }
    te
}

fn bust_section(x: &ExactModel) -> Section {
    let mut bust = Section::new(
        "Bust odds by dice rolled (nothing held)",
        &["dice", "P(farkle)", "P(doom)", "P(bust)"],
    );
    for b in &x.p_bust_by_dice {
        bust.row([
            count_cell(b.dice as u64),
            pct_cell(b.farkle, 3),
            pct_cell(b.doom, 3),
            pct_cell(b.bust, 3),
        ]);
    }
    bust
}

/// The pictures of `exact doom`: optimal banking by dice left (`bank-thresholds.svg`: the
/// turn points it banks from and those it still rolls on up to; where they overlap, the held
/// dice decide) and the bank-at:T sweep's turn EV against T with optimal play's
/// (`bank-at-sweep.svg`).
pub fn exact_plots(x: &ExactModel) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{line_chart, Line, YUnit};
    let point = |t: &BankThreshold, v: Option<u32>| v.map(|p| (t.dice_left as f64, p as f64));
    let from: Vec<(f64, f64)> = x
        .bank_thresholds
        .iter()
        .filter_map(|t| point(t, t.bank_from))
        .collect();
    let up_to: Vec<(f64, f64)> = x
        .bank_thresholds
        .iter()
        .filter_map(|t| point(t, t.roll_up_to))
        .collect();
    let thresholds = line_chart(
        "Optimal banking by dice left to roll",
        "dice left to roll",
        "turn points",
        YUnit::Plain,
        &[
            Line {
                name: "banks from (lowest turn points it banks at)",
                points: &from,
                band: None,
                dots: false,
            },
            Line {
                name: "rolls on up to (highest turn points it rolls at)",
                points: &up_to,
                band: None,
                dots: false,
            },
        ],
        None,
    )?;
    let sweep: Vec<(f64, f64)> = x
        .bank_at_sweep
        .iter()
        .map(|b| (b.t as f64, b.turn_ev))
        .collect();
    let sweep = line_chart(
        "Turn EV of bank-at:T against T",
        "T (bank at T turn points or more)",
        "turn EV (points)",
        YUnit::Plain,
        &[Line {
            name: "bank-at:T",
            points: &sweep,
            band: None,
            dots: false,
        }],
        Some((x.turn_ev, "optimal play")),
    )?;
    Ok(vec![
        ("bank-thresholds.svg".into(), thresholds),
        ("bank-at-sweep.svg".into(), sweep),
    ])
}

fn threshold_section(x: &ExactModel) -> Section {
    let mut th = Section::new(
        "Optimal banking by dice left to roll",
        &[
            "dice left",
            "banks from",
            "rolls on up to",
            "a clean threshold",
        ],
    );
    for t in &x.bank_thresholds {
        th.row([
            count_cell(t.dice_left as u64),
            t.bank_from.map_or("never".into(), points_cell),
            t.roll_up_to.map_or("-".into(), points_cell),
            if t.clean {
                "yes"
            } else {
                "no (depends on the held dice)"
            }
            .into(),
        ]);
    }
    th
}

fn values_section(rows: &[ValueRow]) -> Section {
    let mut s = Section::new(
        "V(turn points, dice left) under optimal play",
        &["points", "1", "2", "3", "4", "5", "6"],
    );
    for v in rows {
        let mut row = vec![points_cell(v.points)];
        row.extend(
            v.v.iter()
                .map(|v| v.map_or("-".into(), |v| fixed_cell(v, 3, "points"))),
        );
        s.row(row);
    }
    s
}

fn sweep_section(x: &ExactModel) -> Section {
    let mut sw = Section::new(
        "bank-at:T sweep (set-asides chosen optimally given the rule)",
        &["T", "turn EV", "vs optimal"],
    );
    for b in &x.bank_at_sweep {
        sw.row([
            points_cell(b.t),
            fixed_cell(b.turn_ev, 3, "points"),
            signed_cell(b.turn_ev - x.turn_ev),
        ]);
    }
    sw
}

/// Points shown as an integer, carried as a number.
fn points_cell(p: u32) -> Cell {
    Cell::num(p.to_string(), p as f64, "points")
}

/// A difference in points with its sign and 3 decimals.
fn signed_cell(d: f64) -> Cell {
    Cell::num(format!("{d:+.3}"), d, "points")
}

/// Whether a policy has an exact turn EV (every policy but the end-game variant).
pub fn exact_ev(s: &super::super::strategy::DoomStrategy, sol: &Solution) -> Option<f64> {
    (!s.endgame && !s.win).then_some(sol.turn_ev)
}

#[cfg(test)]
mod tests {
    use super::super::super::rules::DoomPreset;
    use super::*;

    #[test]
    fn the_exact_report_renders_its_model_only() {
        let x = ExactModel {
            game: "doom",
            rules: DoomRules::preset(DoomPreset::Seed),
            method: "m",
            cap_points: CAP_POINTS,
            turn_ev: 500.0,
            relative_values: vec![0.0],
            bank_thresholds: vec![],
            p_bust_by_dice: vec![],
            bank_at_sweep: vec![BankAt {
                t: 300,
                turn_ev: 450.0,
            }],
            best_bank_at: Some(BankAt {
                t: 300,
                turn_ev: 450.0,
            }),
            strategies: vec![StrategyEv {
                strategy: "endgame:400".into(),
                turn_ev: 400.0,
                endgame: true,
            }],
            values: None,
            solve_ms: 1.5,
        };
        let r = render_exact(&x);
        assert_eq!(r.json, serde_json::to_value(&x).unwrap());
        assert_eq!(r.json["best_bank_at"]["t"], 300);
        assert!(r.json["values"].is_null());
        assert!(r.json["strategies"][0].get("endgame").is_none());
        assert!(r.notes[0].starts_with("endgame:400: the end-game variant"));
        let te = &r.sections[0];
        assert_eq!(te.rows.len(), 3);
        assert_eq!(te.rows[1][2].text, "-100.000");
        assert_eq!(te.rows[2][0].text, "best bank-at (T = 300)");
        // No V table without separate scoring.
        assert!(r.sections.iter().all(|s| !s.name.starts_with("V(")));
    }
}
