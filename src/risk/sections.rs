//! The risk report: metadata, the figures, the simulated check and the notes, from the model
//! only.

use super::model::{units, CheckRow, RiskModel};
use crate::report::{pct, pct_cell, Cell, Report, Section};

/// A number of units or rounds as a cell.
fn units_cell(v: f64, unit: &'static str) -> Cell {
    Cell::num(format!("{} {unit}", units(v)), v, unit)
}

/// An input figure with `d` decimals; in scientific notation from 10^9 (an SD of 10^15 units
/// has a variance of 31 digits) and where the decimals would show a figure that is not 0 as 0.
fn figure(v: f64, d: usize) -> String {
    let a = v.abs();
    if a >= 1e9 || (a != 0.0 && a < 0.5 * 10f64.powi(-(d as i32))) {
        format!("{v:.4e}")
    } else {
        format!("{v:.d$}")
    }
}

/// A probability with enough decimals for a small one.
fn prob_cell(p: f64) -> Cell {
    if p != 0.0 && p.abs() < 1e-4 {
        return Cell::num(format!("{p:.2e}"), p, "fraction");
    }
    pct_cell(p, if p != 0.0 && p.abs() < 0.01 { 4 } else { 2 })
}

/// A row of rounds, and the same in hours when the pace is known.
fn rounds_rows(s: &mut Section, what: &str, n: f64, hours: Option<f64>, formula: &str) {
    s.row([
        Cell::from(what),
        Cell::num(format!("{} rounds", units(n)), n, "rounds"),
        Cell::from(formula),
    ]);
    if let Some(h) = hours {
        s.row([
            Cell::from(format!("{what}, hours")),
            Cell::num(format!("{} hours", units(h)), h, "hours"),
            Cell::from("the rounds at the pace"),
        ]);
    }
}

/// The metadata: the tool, the source, the game and the check.
fn meta(m: &RiskModel) -> Vec<(String, String)> {
    let i = &m.input;
    let se = i.ev_se.map(|s| format!(" ± {s:.2e}")).unwrap_or_default();
    let mut meta = vec![
        ("tool".into(), format!("rtplab {}", m.version)),
        ("source".into(), i.source.clone()),
        (
            "game".into(),
            format!(
                "EV {}{se} and SD {} per round (variance {}), in units",
                figure(i.ev, 6),
                figure(i.sd, 4),
                figure(i.variance, 4)
            ),
        ),
    ];
    if let Some(h) = i.rounds_per_hour {
        meta.push(("pace".into(), format!("{} rounds an hour", units(h))));
    }
    let c = &m.check;
    meta.push((
        "check".into(),
        if c.rows.is_empty() {
            "none (--trials 0, or nothing to simulate)".into()
        } else {
            format!(
                "{} walks per check (seed {}): {}",
                crate::report::count(c.trials),
                c.seed,
                c.walk
            )
        },
    ));
    meta
}

/// The figures, one a row: what, its value, the formula or definition.
fn figures_section(m: &RiskModel) -> Section {
    let mut s = Section::new("Risk", &["figure", "value", "formula"]);
    let i = &m.input;
    s.row([
        Cell::from("EV per round"),
        Cell::num(format!("{} units", figure(i.ev, 6)), i.ev, "units"),
        Cell::from("input"),
    ]);
    s.row([
        Cell::from("SD per round"),
        Cell::num(format!("{} units", figure(i.sd, 4)), i.sd, "units"),
        Cell::from("input; var = SD^2"),
    ]);
    if let Some(v) = m.score {
        s.row([
            Cell::from("SCORE"),
            Cell::num(format!("{v:.2}"), v, "units per 100 rounds"),
            Cell::from("10^6 (ev/sd)^2, signed as EV: a Kelly bettor's win per 100 rounds with 10,000 units"),
        ]);
    }
    if let Some(n) = m.n0 {
        let what = "(sd/ev)^2: the rounds after which the expected win is one SD";
        rounds_rows(&mut s, "N0", n, m.n0_hours, what);
    }
    if let Some(l) = &m.lifetime {
        s.row([
            Cell::from(format!(
                "lifetime risk of ruin, {} units",
                units(l.bankroll)
            )),
            prob_cell(l.ror),
            Cell::from(format!("{} (1 when ev <= 0)", l.formula)),
        ]);
    }
    if let Some(t) = &m.trip {
        s.row([
            Cell::from(format!("risk of ruin within {} rounds", units(t.rounds))),
            prob_cell(t.ror),
            Cell::from(t.formula),
        ]);
    }
    goal_rows(m, &mut s);
    target_rows(m, &mut s);
    double_rows(m, &mut s);
    s
}

fn goal_rows(m: &RiskModel, s: &mut Section) {
    let (Some(g), Some(b)) = (&m.goal, m.input.bankroll) else {
        return;
    };
    s.row([
        Cell::from(format!(
            "reach +{} units (to {}) before ruin",
            units(g.goal),
            units(b + g.goal)
        )),
        prob_cell(g.reach_goal),
        Cell::from(g.formula),
    ]);
    s.row([
        Cell::from(format!("ruin before +{} units", units(g.goal))),
        prob_cell(g.ruin_first),
        Cell::from("1 - P(goal)"),
    ]);
}

fn target_rows(m: &RiskModel, s: &mut Section) {
    let Some(t) = &m.target else {
        return;
    };
    let row = |s: &mut Section, what: String, b: Option<f64>, formula: &str, none: &str| {
        s.row(match b {
            Some(b) => [
                Cell::from(what),
                units_cell(b, "units"),
                Cell::from(formula),
            ],
            None => [Cell::from(what), Cell::from("none"), Cell::from(none)],
        })
    };
    let r = pct(t.target_ror, 2);
    row(
        s,
        format!("bankroll for a {r} lifetime risk"),
        t.bankroll,
        "B = -var ln(RoR) / (2 ev)",
        "ev <= 0: ruin is certain",
    );
    row(
        s,
        format!("bankroll for a {r} risk before doubling"),
        t.bankroll_to_double,
        "B = var ln(1/RoR - 1) / (2 ev)",
        "ev <= 0, or a risk of 50% or more",
    );
}

fn double_rows(m: &RiskModel, s: &mut Section) {
    let Some(d) = &m.double else {
        return;
    };
    let b = units(d.bankroll);
    if d.p_ever < 1.0 {
        s.row([
            Cell::from(format!("ever +{b} units (no floor)")),
            prob_cell(d.p_ever),
            Cell::from("exp(2 ev B / var) for ev < 0"),
        ]);
    }
    let what = format!("rounds to double (+{b} units), mean");
    match d.mean_rounds {
        Some(n) => rounds_rows(
            s,
            &what,
            n,
            d.mean_hours,
            "B/ev: when the expected win is B",
        ),
        None => s.row([
            Cell::from(what),
            Cell::from("none"),
            Cell::from("ev <= 0: no finite mean"),
        ]),
    }
    let what = format!("rounds to double (+{b} units), median");
    let how = "half the walks are first +B by then";
    match d.median_rounds {
        Some(n) => rounds_rows(s, &what, n, d.median_hours, how),
        None => s.row([
            Cell::from(what),
            Cell::from("none"),
            Cell::from("the walk doubles at all with probability 1/2 or less"),
        ]),
    }
}

/// A check's value in its unit.
fn check_value(r: &CheckRow, v: f64) -> Cell {
    if r.unit == "rounds" {
        Cell::num(units(v), v, "rounds")
    } else {
        prob_cell(v)
    }
}

/// The simulated check: each formula beside its walks.
fn check_section(m: &RiskModel) -> Section {
    let mut s = Section::new(
        "Simulated check",
        &[
            "check",
            "event",
            "formula",
            "simulated",
            "SE",
            "z",
            "verdict",
        ],
    );
    for r in &m.check.rows {
        s.row([
            Cell::from(r.check),
            Cell::from(r.event.clone()),
            check_value(r, r.formula),
            check_value(r, r.simulated),
            check_value(r, r.se),
            Cell::num(format!("{:+.2}", r.z), r.z, "SE"),
            Cell::from(if r.agrees { "agrees" } else { "DISAGREES" }),
        ]);
    }
    s
}

/// The notes: the conventions, and the check's verdict.
fn notes(m: &RiskModel) -> Vec<String> {
    let mut notes = vec![
        "The formulas take the rounds as a Brownian walk of drift ev and variance var = SD^2 per round (the SD about the mean, not the average squared win: that is var + ev^2), the diffusion limit that Blackjack Attack's and Hall's formulas share; a real round's overshoot past 0 (part of a bet) makes the discrete game's risk slightly lower. Ruin is falling to 0 units; the goal G is won above the bankroll B (play stops at B + G).".to_string(),
        "Rounds to double follow the walk without a floor (ruin not counted): the mean, B/ev, is also the rounds after which the expected win equals the bankroll; the median is shorter, the first passage's distribution (inverse Gaussian) leaning right.".to_string(),
    ];
    let c = &m.check;
    if c.rows.is_empty() {
        return notes;
    }
    notes.push("Each check walks the same Brownian walk in steps (a step's net normal with the walk's mean and variance), drawing each step's chance of touching a barrier between its ends from the Brownian bridge, so the steps' length costs no accuracy; times are the middle of the step that crossed, off by at most half a step. A probability's SE is binomial at the formula's value; a mean's, the walks' own. A lifetime check stops each walk at a ceiling H >= B + 7 var/ev, beyond which a later ruin's chance, exp(-2 ev H/var), is below 1e-6, and its formula column is the chance of that same event, ruin before H.".to_string());
    let bad: Vec<&CheckRow> = c.rows.iter().filter(|r| !r.agrees).collect();
    if bad.is_empty() {
        let worst = c.rows.iter().map(|r| r.z.abs()).fold(0.0, f64::max);
        notes.push(format!(
            "Every formula agrees with its simulated walks within {} SE (the largest |z|: {worst:.2}).",
            c.z_limit
        ));
    } else {
        for r in bad {
            notes.push(format!(
                "DISAGREE: {} ({}): the formula gives {}, {} walks {} ± {}, z = {:+.2}, beyond {} SE (exit code 1). Run again with another --seed; a disagreement that stays is a fault to report.",
                r.check,
                r.event,
                check_value(r, r.formula).text,
                crate::report::count(r.trials),
                check_value(r, r.simulated).text,
                check_value(r, r.se).text,
                r.z,
                c.z_limit
            ));
        }
    }
    notes
}

/// The risk report.
pub fn render(m: &RiskModel) -> Report {
    let mut r = Report {
        title: "rtplab risk: a bankroll's risk of ruin".into(),
        meta: meta(m),
        ..Default::default()
    };
    r.sections.push(figures_section(m));
    if !m.check.rows.is_empty() {
        r.sections.push(check_section(m));
    }
    r.notes = notes(m);
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

#[cfg(test)]
mod tests {
    use super::figure;

    #[test]
    fn figures_are_short_and_never_a_false_zero() {
        assert_eq!(figure(0.0151, 6), "0.015100");
        assert_eq!(figure(1.1, 4), "1.1000");
        assert_eq!(figure(-0.02, 6), "-0.020000");
        assert_eq!(figure(0.0, 6), "0.000000");
        assert_eq!(figure(123_456_789.0, 4), "123456789.0000");
        // Before: 1e30 in 31 digits and four decimals; 1e-7 as 0.000000.
        assert_eq!(figure(1e30, 4), "1.0000e30");
        assert_eq!(figure(1e-7, 6), "1.0000e-7");
    }
}
