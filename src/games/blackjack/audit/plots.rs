//! The dossier's plots: each tier's distribution, the acceptance funnel, the rule changes.

use super::sections::net_label;
use super::TierName;
use super::{AuditModel, ClaimLine, Tier};
use crate::audit::{Z95, Z99, Z999};
use crate::report::pct;
use crate::report::svg::{bar_chart, line_chart, log_bars, Bar, BarChart, Line, Tone, YUnit};

/// The plots: each tier's exact distribution (with the simulation's 95% intervals where
/// simulated), the acceptance funnel with the claim drawn, and the RTP of the rule changes.
pub fn plots(m: &AuditModel) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for t in &m.tiers {
        out.push((
            format!("distribution-{}.svg", t.tier.as_str()),
            distribution_plot(m, t)?,
        ));
    }
    out.push(("acceptance-funnel.svg".into(), funnel_plot(m)?));
    if let Some(c) = &m.claim {
        out.push(("rule-changes.svg".into(), changes_plot(m, c)?));
    }
    Ok(out)
}

/// A tier's exact distribution of one round's net (bars), with the simulation's 95%
/// intervals (error bars) where the tier was simulated, on a log axis: the rare results
/// (±3, ±4 initial bets after splits and doubles) are seen beside the common ones.
fn distribution_plot(m: &AuditModel, t: &Tier) -> Result<String, String> {
    let sim = m.simulation.iter().find(|s| s.tier == t.tier);
    let bars: Vec<Bar> = t
        .distribution
        .iter()
        .map(|d| {
            let b = Bar::new(net_label(d.net), 100.0 * d.p);
            match sim.and_then(|s| s.histogram.iter().find(|h| h.net == d.net)) {
                Some(h) if h.count > 0 || d.p > 0.0 => {
                    let n = sim.map_or(0, |s| s.rounds) as f64;
                    let se = (h.p_sim * (1.0 - h.p_sim) / n).sqrt();
                    b.with_ci(100.0 * (h.p_sim - Z95 * se), 100.0 * (h.p_sim + Z95 * se))
                }
                _ => b,
            }
        })
        .collect();
    let (bars, y_unit) = log_bars(&bars);
    let title = if sim.is_some() {
        format!(
            "One round's net, {} tier: exact P (bars), simulated 95% CI (error bars)",
            t.tier.as_str()
        )
    } else {
        format!("One round's net, {} tier: exact P", t.tier.as_str())
    };
    bar_chart(&BarChart {
        title: &title,
        x_label: "net result (initial bets)",
        y_label: "probability (%, log scale)",
        y_unit,
        bars: &bars,
        histogram: false,
        hline: None,
    })
}

/// The acceptance funnel: the monitored tier's 95%, 99% and 99.9% bands of the observed RTP
/// per amount wagered against the rounds played (log10), with the claim drawn.
fn funnel_plot(m: &AuditModel) -> Result<String, String> {
    let mt = &m.monitoring;
    let grid: Vec<f64> = (0..=120).map(|i| 5.0 + 4.0 * i as f64 / 120.0).collect();
    let edge = |z: f64, sign: f64| -> Vec<(f64, f64)> {
        grid.iter()
            .map(|&x| {
                let n = 10f64.powf(x);
                (
                    x,
                    100.0 * (mt.rtp_total_wagered + sign * z * mt.sd_per_round / n.sqrt()),
                )
            })
            .collect()
    };
    // Each band's upper edge carries its name, the lower edge none.
    let edges: Vec<(&str, Vec<(f64, f64)>)> =
        [("95% band", Z95), ("99% band", Z99), ("99.9% band", Z999)]
            .into_iter()
            .flat_map(|(name, z)| [(name, edge(z, 1.0)), ("", edge(z, -1.0))])
            .collect();
    let lines: Vec<Line> = edges
        .iter()
        .map(|(name, points)| Line {
            name,
            points,
            band: None,
            dots: false,
        })
        .collect();
    let claim_w = funnel_claim(m);
    let claim_label = claim_w.map(|(c, w)| {
        format!(
            "claim {} per initial bet = {:.3}% per amount wagered",
            pct(c, 2),
            100.0 * w
        )
    });
    line_chart(
        &format!(
            "Acceptance funnel: RTP per amount wagered, {} tier (expected {:.3}%)",
            mt.tier.as_str(),
            100.0 * mt.rtp_total_wagered
        ),
        "rounds played, log10 (6 = 1M, 9 = 1G)",
        "observed RTP per amount wagered (%)",
        YUnit::Percent,
        &lines,
        claim_w.map(|(_, w)| (100.0 * w, claim_label.as_deref().unwrap_or("claim"))),
    )
}

/// The claim per initial bet and what it comes to per amount wagered at the monitored tier.
fn funnel_claim(m: &AuditModel) -> Option<(f64, f64)> {
    let wagered = m
        .tiers
        .iter()
        .find(|t| t.tier == m.monitoring.tier)
        .map_or(1.0, |t| t.wagered_per_round);
    m.claim
        .as_ref()
        .map(|c| (c.claimed, 1.0 + (c.claimed - 1.0) / wagered))
}

/// The EV of optimal play after each single rule change, highest first, with the rules as
/// dealt drawn among them (a grey bar): the changes that help (green) stand above it, those
/// that hurt (red) below; the EV the claim needs is the line.
fn changes_plot(m: &AuditModel, c: &ClaimLine) -> Result<String, String> {
    let bars = change_bars(m);
    let hline = format!(
        "the claimed {} needs EV ≥ {}",
        pct(c.claimed, 2),
        pct(c.claimed - 1.0, 2)
    );
    bar_chart(&BarChart {
        title: "EV of optimal play after one rule change (exact); grey: the rules as dealt",
        x_label: "rule change (green: helps, red: hurts)",
        y_label: "EV per initial bet (%)",
        y_unit: YUnit::Percent,
        bars: &bars,
        histogram: false,
        hline: Some((100.0 * (c.claimed - 1.0), &hline)),
    })
}

/// The rule changes' bars, highest first, and the rules as dealt among them.
fn change_bars(m: &AuditModel) -> Vec<Bar> {
    let dealt = m
        .tiers
        .iter()
        .find(|t| t.tier == TierName::Optimal)
        .map(|t| t.rtp_exact);
    let mut singles: Vec<(String, f64)> = m
        .what_would_make_claim_true
        .iter()
        .filter(|x| x.changes.len() == 1)
        .map(|x| (x.changes[0].clone(), x.rtp_optimal))
        .collect();
    singles.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut bars: Vec<Bar> = singles
        .iter()
        .map(|(name, rtp)| {
            let tone = match dealt {
                Some(d) if *rtp > d => Tone::Better,
                Some(d) if *rtp < d => Tone::Worse,
                _ => Tone::Plain,
            };
            Bar::new(name.clone(), 100.0 * (rtp - 1.0)).with_tone(tone)
        })
        .collect();
    if let Some(d) = dealt {
        let at = singles.iter().take_while(|x| x.1 > d).count();
        bars.insert(
            at,
            Bar::new("the rules as dealt", 100.0 * (d - 1.0)).with_tone(Tone::Reference),
        );
    }
    bars
}
