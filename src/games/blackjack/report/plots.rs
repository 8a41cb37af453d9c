//! The run report's SVG plots.

use super::super::hand::{up_name, UP_ORDER};
use super::super::rules::Rules;
use super::super::sim::BjAcc;
use super::counting::{count_label, tc_estimate, ROR_MULTIPLES};
use super::{CountingModel, Ror, RorTarget, RunInfo};
use crate::report::est;

/// The distribution of one round's net result, in initial bets, each bar with its binomial
/// 95% interval.
fn results_histogram_plot(acc: &BjAcc, u: f64) -> Result<(String, String), String> {
    use crate::report::svg::{bar_chart, binomial_bar, Bar, BarChart, YUnit};
    let total = acc.counts.seat_rounds;
    let hist: Vec<Bar> = acc
        .hist
        .bins()
        .filter(|&(_, k)| k > 0)
        .map(|(net, k)| {
            let net = net as f64 / u;
            let label = if net == 0.0 {
                "0 (push)".to_string()
            } else {
                format!("{net:+}")
            };
            binomial_bar(label, k, total)
        })
        .collect();
    Ok((
        "results-histogram.svg".into(),
        bar_chart(&BarChart {
            title: "Distribution of one round's net result",
            x_label: "net result (initial bets)",
            y_label: "share of initial bets (%)",
            y_unit: YUnit::Percent,
            bars: &hist,
            hline: None,
            histogram: true,
        })?,
    ))
}

/// The EV by dealer up card, with 95% CIs.
fn ev_by_upcard_plot(acc: &BjAcc, u: f64) -> Result<(String, String), String> {
    use crate::report::svg::{bar_chart, Bar, BarChart, YUnit};
    let by_up: Vec<Bar> = UP_ORDER
        .iter()
        .map(|&i| {
            let e = est(&acc.by_up[i], u);
            Bar::new(up_name(i), e.mean * 100.0).with_ci(e.ci95[0] * 100.0, e.ci95[1] * 100.0)
        })
        .collect();
    Ok((
        "ev-by-upcard.svg".into(),
        bar_chart(&BarChart {
            title: "EV by dealer up card",
            x_label: "dealer up card",
            y_label: "EV (% of the initial bet)",
            y_unit: YUnit::Percent,
            bars: &by_up,
            hline: None,
            histogram: false,
        })?,
    ))
}

/// The running RTP estimate over chunks in order, with a 95% band from the per-chunk spread
/// so far, and the claim drawn.
fn convergence_plot(acc: &BjAcc, u: f64, claim: Option<f64>) -> Result<(String, String), String> {
    use crate::report::svg::{line_chart, Line, YUnit};
    let (pts, band) = crate::stats::running_rtp(&acc.trace, u, 1.0);
    let claim_label = claim.map(|c| format!("claimed RTP {}%", crate::report::pct_text(c)));
    Ok((
        "convergence.svg".into(),
        line_chart(
            "Running RTP estimate with its 95% band",
            "initial bets",
            "RTP (%)",
            YUnit::Percent,
            &[Line {
                name: "RTP estimate",
                points: &pts,
                band: Some(&band),
                dots: false,
            }],
            claim.map(|c| (c * 100.0, claim_label.as_deref().unwrap_or("claim"))),
        )?,
    ))
}

/// The plots of a run: result histogram, EV by up card, and the running RTP with its 95%
/// band (and the claimed RTP as a line). Rates and RTPs are plotted in percent; an
/// interrupted run's plots say so.
pub fn plots(
    rules: &Rules,
    acc: &BjAcc,
    claim: Option<f64>,
    info: &RunInfo,
    counting: Option<&CountingModel>,
) -> Result<Vec<(String, String)>, String> {
    let u = rules.units_per_bet() as f64;
    let mut out = vec![
        results_histogram_plot(acc, u)?,
        ev_by_upcard_plot(acc, u)?,
        convergence_plot(acc, u, claim)?,
    ];
    if !acc.count.by_tc.is_empty() {
        out.push(ev_by_count_plot(acc, u)?);
    }
    if let Some(c) = counting {
        out.push(count_frequency_plot(c)?);
        if let Some(ror) = &c.ror {
            out.push(ruin_plot(ror)?);
        }
        if let Some(t) = &c.bankroll_for_ror {
            if let Some(p) = ror_by_bankroll_plot(t, c.ev_per_round, c.sd_per_round)? {
                out.push(p);
            }
        }
    }
    if let Some(m) = info.run.marker() {
        for p in &mut out {
            p.1 = crate::report::svg::mark(&p.1, &m);
        }
    }
    Ok(out)
}

/// The EV at each count played more than once, with its 95% CI.
fn ev_by_count_plot(acc: &BjAcc, u: f64) -> Result<(String, String), String> {
    use crate::report::svg::{bar_chart, Bar, BarChart, YUnit};
    let bars: Vec<Bar> = acc
        .count
        .by_tc
        .iter()
        .enumerate()
        .filter(|(_, t)| t.played > 1)
        .map(|(i, t)| {
            let e = tc_estimate(t, u);
            let label = count_label(i as i32 - super::super::count::TC_CLAMP, "");
            Bar::new(label, e.mean * 100.0).with_ci(e.ci95[0] * 100.0, e.ci95[1] * 100.0)
        })
        .collect();
    Ok((
        "ev-by-true-count.svg".into(),
        bar_chart(&BarChart {
            title: "EV by count, with 95% CIs",
            x_label: "count when the bet was placed",
            y_label: "EV (% of the initial bet)",
            y_unit: YUnit::Percent,
            bars: &bars,
            hline: Some((0.0, "break-even")),
            histogram: false,
        })?,
    ))
}

/// How often each count comes up.
fn count_frequency_plot(c: &CountingModel) -> Result<(String, String), String> {
    use crate::report::svg::{bar_chart, Bar, BarChart, YUnit};
    let bars: Vec<Bar> = c
        .by_true_count
        .iter()
        .map(|row| Bar::new(count_label(row.tc, ""), row.share * 100.0))
        .collect();
    Ok((
        "true-count-frequency.svg".into(),
        bar_chart(&BarChart {
            title: &format!(
                "How often each {} comes up (share of seat-rounds)",
                c.count_key
            ),
            x_label: "count when the bet was placed",
            y_label: "share of seat-rounds (%)",
            y_unit: YUnit::Percent,
            bars: &bars,
            hline: None,
            histogram: false,
        })?,
    ))
}

/// The risk of ruin within a trip as it grows with the rounds played: simulated (with a 95%
/// band) and by the formula.
fn ruin_plot(ror: &Ror) -> Result<(String, String), String> {
    use crate::report::svg::{line_chart, Line, YUnit};
    let formula: Vec<(f64, f64)> = std::iter::once((0.0, 0.0))
        .chain(
            ror.curve
                .iter()
                .map(|p| (p.rounds as f64, p.formula * 100.0)),
        )
        .collect();
    let sim: Vec<(f64, f64)> = std::iter::once((0.0, 0.0))
        .chain(
            ror.curve
                .iter()
                .filter_map(|p| Some((p.rounds as f64, p.simulated? * 100.0))),
        )
        .collect();
    let n = ror.trips as f64;
    let band: Vec<(f64, f64, f64)> = sim
        .iter()
        .map(|&(x, y)| {
            let p = y / 100.0;
            let h = 196.0 * (p * (1.0 - p) / n.max(1.0)).sqrt();
            (x, (y - h).max(0.0), (y + h).min(100.0))
        })
        .collect();
    let title = format!(
        "Risk of ruin within a trip: bankroll {} table minimums (ever, by the formula: {:.1}%)",
        ror.bankroll,
        ror.formula_lifetime * 100.0
    );
    let sim_name = format!("simulated ({} trips)", ror.trips);
    let mut lines = vec![];
    if ror.trips > 0 {
        lines.push(Line {
            name: &sim_name,
            points: &sim,
            band: Some(&band),
            dots: false,
        });
    }
    lines.push(Line {
        name: "Brownian formula",
        points: &formula,
        band: None,
        dots: false,
    });
    Ok((
        "risk-of-ruin.svg".into(),
        line_chart(
            &title,
            "rounds played in the trip",
            "P(ruined by then) (%)",
            YUnit::Percent,
            &lines,
            None,
        )?,
    ))
}

/// The lifetime risk of ruin by bankroll (formula), from a quarter to four times the bankroll
/// for the target, with the target marked (`None` unless EV > 0).
fn ror_by_bankroll_plot(
    t: &RorTarget,
    ev: f64,
    sd: f64,
) -> Result<Option<(String, String)>, String> {
    use crate::report::svg::{line_chart, Line, YUnit};
    let Some(b) = t.bankroll else {
        return Ok(None);
    };
    let (lo, hi) = (ROR_MULTIPLES[0], ROR_MULTIPLES[ROR_MULTIPLES.len() - 1]);
    let points: Vec<(f64, f64)> = (0..=120)
        .map(|i| {
            let x = b * (lo + (hi - lo) * i as f64 / 120.0);
            (x, 100.0 * crate::risk::ruin_probability(ev, sd, x, None))
        })
        .collect();
    let title = format!(
        "Risk of ruin by bankroll: {}% for {} table minimums",
        crate::report::pct_text(t.target_ror),
        crate::report::count(b.round() as u64)
    );
    let target = format!("target {}%", crate::report::pct_text(t.target_ror));
    Ok(Some((
        "risk-by-bankroll.svg".into(),
        line_chart(
            &title,
            "bankroll (table minimums)",
            "risk of ruin, ever (%)",
            YUnit::Percent,
            &[Line {
                name: "Brownian formula",
                points: &points,
                band: None,
                dots: false,
            }],
            Some((100.0 * t.target_ror, target.as_str())),
        )?,
    )))
}
